"""The name tables' own models: the pharmacists' abbreviations and the catalog stamp that
tells every worker its cached drug-name resolver is stale (re-exported by corpus.models)."""

import time
from typing import Any

from django.db import models
from django.utils import timezone


class CatalogStamp(models.Model):
    """One row whose version moves whenever a name table changes (an alias renamed in place
    included): every worker compares it before trusting its cached drug-name resolver, so an
    edit in one worker is seen by all (a per-process cache missed 12 of 16 requests)."""

    version = models.BigIntegerField(default=0)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = "phiên bản bảng tên"
        verbose_name_plural = "phiên bản bảng tên"


class ChunkStamp(models.Model):
    """One row whose version a database trigger moves on every statement that writes the
    chunks' text (ingest, COPY, an admin edit, a bulk update): the in-memory ranked index
    (`retrieval.ranked`) is rebuilt when it moves. From a sequence, so a rolled-back write
    never leaves a version that a later write reuses."""

    version = models.BigIntegerField(default=0)

    class Meta:
        verbose_name = "phiên bản đoạn văn"
        verbose_name_plural = "phiên bản đoạn văn"


def bump_catalog() -> None:
    """Move the stamp: on saving or deleting a name row one at a time (the admin's edits),
    and by ingest after its bulk writes. (Not a signal receiver: a post_delete receiver makes
    Django delete the book index row by row, 13k queries in one ingest.)

    The version is the clock's nanoseconds, never the last version plus one: a rolled-back
    edit's version would be given again to the next, different edit, and every worker would
    keep the resolver it built for the rolled-back one."""
    version = max(time.time_ns(), 1)
    if not CatalogStamp.objects.filter(pk=1).update(version=version, updated_at=timezone.now()):
        CatalogStamp.objects.get_or_create(pk=1, defaults={"version": version})


class StampsCatalog:
    """A name table's row: saving or deleting it one at a time moves the catalog stamp."""

    def save(self, *args: Any, **kwargs: Any) -> None:
        super().save(*args, **kwargs)  # type: ignore[misc]
        bump_catalog()

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        deleted = super().delete(*args, **kwargs)  # type: ignore[misc]
        bump_catalog()
        return deleted


class Abbreviation(StampsCatalog, models.Model):
    """A ward abbreviation a pharmacist added, with the words the book prints ("THA" →
    "tăng huyết áp"); understanding reads the question with it written out. Ingest never
    touches these rows."""

    short = models.CharField("viết tắt", max_length=20, unique=True)
    expansion = models.CharField("đầy đủ (như sách viết)", max_length=200)
    note = models.CharField("ghi chú", max_length=300, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["short"]
        verbose_name = "viết tắt lâm sàng"
        verbose_name_plural = "viết tắt lâm sàng"

    def __str__(self) -> str:
        return f"{self.short} → {self.expansion}"


__all__ = ["Abbreviation", "CatalogStamp", "StampsCatalog", "bump_catalog"]
