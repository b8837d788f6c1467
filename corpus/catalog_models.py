"""The name tables' own models: the pharmacists' abbreviations and the catalog stamp that
tells every worker its cached drug-name resolver is stale (re-exported by corpus.models)."""

from django.db import connection, models
from django.utils import timezone


class CatalogStamp(models.Model):
    """One row whose version moves whenever a name table changes (an alias renamed in place
    included): every worker compares it before trusting its cached drug-name resolver, so an
    edit in one worker is seen by all (a per-process cache missed 12 of 16 requests).

    Moved by database triggers on every statement that writes aliases, drugs' names, the
    book index, abbreviations or red flags (migration 0011), from a sequence like
    `ChunkStamp`: no write path can forget it, and reading it is one row, not a count."""

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


class CatalogSnapshot(models.Model):
    """The drug-name catalog built for one stamp version, stored so that the other workers
    (and hosts, and recycled workers) load it instead of building it again (issue 23: 2.1 s
    and 76 MB per worker at 7× the book, after every alias edit). JSON, never pickle: a row
    of the database must not be able to run code in a worker."""

    version = models.BigIntegerField(unique=True)
    chunks_version = models.BigIntegerField(default=0)  # the chunks its book vocabulary read
    data = models.BinaryField()  # zlib-compressed JSON (retrieval/catalog_store.py)
    built_seconds = models.FloatField(default=0)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = "bản dựng bảng tên"
        verbose_name_plural = "bản dựng bảng tên"


def bump_catalog() -> None:
    """Move the stamp by hand, for what no name table's trigger sees: ingest after a write
    that changed only the chunks' text (the catalog's book vocabulary)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO corpus_catalogstamp (id, version, updated_at)"
            " VALUES (1, nextval('corpus_catalog_stamp_seq'), now())"
            " ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version,"
            " updated_at = EXCLUDED.updated_at"
        )


def catalog_stamp() -> int:
    """The name tables' version: one primary-key read, never a count (issue 23)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT version FROM corpus_catalogstamp WHERE id = 1")
        row = cursor.fetchone()
    return int(row[0]) if row else 0


def turn_stamps() -> dict[str, str]:
    """Both versions a turn checks, the name tables' (`catalog_stamp`) and the chunks'
    (`ChunkStamp`), in one round trip: `retrieval.turn_cache` names them "catalog" and
    "chunks"."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT (SELECT version FROM corpus_catalogstamp WHERE id = 1), "
            "(SELECT version FROM corpus_chunkstamp WHERE id = 1)"
        )
        catalog, chunks = cursor.fetchone()
    return {"catalog": str(int(catalog or 0)), "chunks": str(chunks or 0)}


class Abbreviation(models.Model):
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


__all__ = ["Abbreviation", "CatalogSnapshot", "CatalogStamp", "bump_catalog", "catalog_stamp"]
