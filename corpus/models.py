import hashlib
from datetime import datetime
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVector, SearchVectorField
from django.db import models, transaction
from django.utils import timezone
from pgvector.django import HnswIndex, VectorField

from corpus.catalog_models import (  # noqa: F401 - models re-exported
    Abbreviation,
    CatalogSnapshot,
    CatalogStamp,
    ChunkStamp,
    bump_catalog,
    catalog_stamp,
)
from corpus.markdown import ChunkKind
from corpus.red_flag_models import RedFlag  # noqa: F401 - model re-exported
from corpus.sections import SECTION_KEYS, SECTION_TITLES

if TYPE_CHECKING:
    from django.contrib.auth.base_user import AbstractBaseUser

SECTION_CHOICES = [(key, SECTION_TITLES[key]) for key in SECTION_KEYS]

REVIEWER_GROUP = "Dược sĩ duyệt"


def content_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class Drug(models.Model):
    drug_id = models.SlugField(max_length=120, unique=True)
    heading = models.CharField("tiêu đề in", max_length=255)
    inn = models.CharField("tên chung quốc tế", max_length=500, blank=True)
    atc_codes = models.JSONField("mã ATC", default=list, blank=True)
    drug_class = models.CharField("loại thuốc", max_length=500, blank=True)
    # Printed pages; None when the source gave none (such an item has no provenance).
    page_start = models.PositiveIntegerField(null=True, blank=True)
    page_end = models.PositiveIntegerField(null=True, blank=True)
    source_file = models.CharField(max_length=500, blank=True)
    source_sha256 = models.CharField(max_length=64, blank=True)
    # Set when an ingest was told to retire the drug (`--retire`): a source without it came,
    # and its rows were kept, not deleted; cleared when a source brings it back.
    retired_at = models.DateTimeField("ngừng nạp lúc", null=True, blank=True)

    class Meta:
        ordering = ["drug_id"]
        verbose_name = "thuốc"
        verbose_name_plural = "thuốc"

    def __str__(self) -> str:
        return self.heading


class Alias(models.Model):
    class Kind(models.TextChoices):
        HEADING = "heading", "Tiêu đề"
        OTHER_NAME = "other_name", "Tên khác (trong ngoặc)"
        INN = "inn", "Tên chung quốc tế"
        TRADE_NAME = "trade_name", "Tên thương mại (trong chuyên luận)"
        BRAND_INDEX = "brand_index", "Mục lục biệt dược"
        # corpus/data/vn_brands.csv: brands sold in Vietnam that the book's index lacks.
        VN_BRAND = "vn_brand", "Biệt dược lưu hành tại VN"
        CURATED = "curated", "Dược sĩ thêm"

    drug = models.ForeignKey(Drug, on_delete=models.CASCADE, related_name="aliases")
    name = models.CharField(max_length=255)
    folded = models.CharField(max_length=255, db_index=True)
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.CURATED)
    source_page = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["drug__drug_id", "kind", "name"]
        constraints = [
            models.UniqueConstraint(fields=["drug", "name", "kind"], name="alias_unique_per_kind")
        ]
        verbose_name = "tên gọi"
        verbose_name_plural = "tên gọi"

    def __str__(self) -> str:
        return self.name


class BookIndexEntry(models.Model):
    """A row of the book's brand index or trade-name pages, for the whole book.

    The resolver needs the names of monographs that are not loaded, so that a brand of
    one is reported as known-but-not-loaded instead of being matched elsewhere. A brand of
    corpus/data/vn_brands.csv whose monograph is not loaded is kept here for the same reason
    (source `vn_brand`, no page: it is not the book's); one whose monograph is loaded is an
    alias instead.
    """

    class Source(models.TextChoices):
        BRAND_INDEX = "brand_index", "Mục lục biệt dược"
        TRADE_NAMES = "trade_names", "Tên thương mại"
        VN_BRAND = "vn_brand", "Biệt dược lưu hành tại VN"

    name = models.CharField(max_length=255)
    folded = models.CharField(max_length=255, db_index=True)
    ingredient = models.CharField(max_length=255)
    ingredient_id = models.CharField(max_length=160, db_index=True)
    page = models.PositiveIntegerField(null=True, blank=True)
    source = models.CharField(max_length=20, choices=Source.choices)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["name", "ingredient_id", "source"], name="book_index_unique"
            )
        ]
        verbose_name = "mục lục sách"
        verbose_name_plural = "mục lục sách"

    def __str__(self) -> str:
        return f"{self.name} → {self.ingredient}"


class Section(models.Model):
    drug = models.ForeignKey(Drug, on_delete=models.CASCADE, related_name="sections")
    section_key = models.CharField(max_length=40, choices=SECTION_CHOICES)
    heading = models.CharField("tiêu đề in", max_length=255)
    order = models.PositiveIntegerField()
    # Printed pages; None when the source gave none (such an item has no provenance).
    page_start = models.PositiveIntegerField(null=True, blank=True)
    page_end = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["drug__drug_id", "order"]
        constraints = [
            models.UniqueConstraint(fields=["drug", "section_key"], name="section_unique_per_drug")
        ]
        verbose_name = "mục"
        verbose_name_plural = "mục"

    def __str__(self) -> str:
        return f"{self.drug.drug_id} · {self.section_key}"


class ChunkQuerySet(models.QuerySet["Chunk"]):
    def awaiting_review(self) -> "ChunkQuerySet":
        return self.filter(requires_visual_check=True)


class Chunk(models.Model):
    Kind = ChunkKind

    class Review(models.TextChoices):
        NOT_NEEDED = "not_needed", "Không cần duyệt"
        PENDING = "pending", "Chờ duyệt"
        APPROVED = "approved", "Đã duyệt"
        KEPT = "kept", "Giữ cách ly"
        SOURCE_CHANGED = "source_changed", "Nguồn đã đổi, chờ duyệt lại"

    section = models.ForeignKey(Section, on_delete=models.CASCADE, related_name="chunks")
    part_index = models.PositiveIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.PROSE)
    label = models.CharField("nhãn mục con", max_length=500, blank=True)
    text = models.TextField()
    source_text = models.TextField(help_text="The text as ingested from the book, never edited.")
    previous_source_text = models.TextField(blank=True)
    # Printed pages; None when the source gave none (such an item has no provenance).
    page_start = models.PositiveIntegerField(null=True, blank=True)
    page_end = models.PositiveIntegerField(null=True, blank=True)
    requires_visual_check = models.BooleanField(default=False)
    has_quarantined_content = models.BooleanField(default=False)
    review_state = models.CharField(
        max_length=20, choices=Review.choices, default=Review.NOT_NEEDED
    )
    content_hash = models.CharField(max_length=64)
    source_hash = models.CharField(max_length=64)
    fts_folded = models.GeneratedField(
        expression=SearchVector("text", config="vi_unaccent"),
        output_field=SearchVectorField(),
        db_persist=True,
    )
    fts_exact = models.GeneratedField(
        expression=SearchVector("text", config="simple"),
        output_field=SearchVectorField(),
        db_persist=True,
    )
    embedding = VectorField(dimensions=settings.EMBEDDING_DIMENSIONS, null=True, blank=True)
    embedding_model = models.CharField(max_length=200, blank=True)
    embedded_hash = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    objects = ChunkQuerySet.as_manager()

    class Meta:
        ordering = ["section__drug__drug_id", "section__order", "part_index"]
        constraints = [
            models.UniqueConstraint(fields=["section", "part_index"], name="chunk_unique_part")
        ]
        indexes = [
            GinIndex(fields=["fts_folded"], name="chunk_fts_folded_gin"),
            GinIndex(fields=["fts_exact"], name="chunk_fts_exact_gin"),
            HnswIndex(
                name="chunk_embedding_hnsw",
                fields=["embedding"],
                m=16,
                ef_construction=64,
                opclasses=["vector_cosine_ops"],
            ),
        ]
        verbose_name = "đoạn"
        verbose_name_plural = "đoạn"

    def __str__(self) -> str:
        return f"{self.section} #{self.part_index}"

    @property
    def is_edited(self) -> bool:
        return self.text != self.source_text

    @transaction.atomic
    def approve(self, *, by: "AbstractBaseUser", note: str = "", text: str | None = None) -> None:
        """Approve as-is, or with a corrected text; the decision goes to the history."""
        before = self.text
        decision = ChunkReview.Decision.APPROVED if text is None else ChunkReview.Decision.EDITED
        if text is not None:
            self.text = text
            self.content_hash = content_hash(text)
        self.requires_visual_check = False
        self.has_quarantined_content = False
        self.review_state = Chunk.Review.APPROVED
        self.updated_at = timezone.now()
        self.save()
        self._history(decision, before, self.text, note, by).save()

    def _history(
        self, decision: str, before: str, after: str, note: str, by: "AbstractBaseUser | None"
    ) -> "ChunkReview":
        """The history row of one decision or event on this chunk (not yet saved)."""
        return ChunkReview(
            chunk=self,
            user_id=by.pk if by is not None else None,
            decision=decision,
            before=before,
            after=after,
            note=note,
            drug_id=self.section.drug.drug_id,
            section_key=self.section.section_key,
            part_index=self.part_index,
        )

    def take_book_text(self, text: str, *, flagged: bool, now: datetime) -> "ChunkReview | None":
        """The book's text behind this chunk changed on re-ingest.

        Text nobody reviewed follows the book. A pharmacist's decision or correction is kept:
        the new book text is stored beside it and the chunk goes back to the queue with both
        versions. Only this instance changes; the history row to write is returned, so ingest
        saves chunks and rows in bulk.
        """
        new_hash = content_hash(text)
        self.updated_at = now
        reviewed = self.is_edited or self.review_state in (
            Chunk.Review.APPROVED,
            Chunk.Review.KEPT,
            Chunk.Review.SOURCE_CHANGED,
        )
        if not reviewed:
            self.text = self.source_text = text
            self.content_hash = self.source_hash = new_hash
            self.requires_visual_check = self.has_quarantined_content = flagged
            self.review_state = Chunk.Review.PENDING if flagged else Chunk.Review.NOT_NEEDED
            return None
        review = self._history(
            ChunkReview.Decision.SOURCE_CHANGED,
            self.source_text,
            text,
            "Văn bản sách thay đổi khi nạp lại; đoạn đã duyệt/sửa được đưa lại hàng chờ.",
            None,
        )
        self.previous_source_text = self.source_text
        self.source_text = text
        self.source_hash = new_hash
        self.requires_visual_check = self.has_quarantined_content = True
        self.review_state = Chunk.Review.SOURCE_CHANGED
        return review

    @transaction.atomic
    def keep_quarantined(self, *, by: "AbstractBaseUser", note: str = "") -> None:
        self.requires_visual_check = True
        self.has_quarantined_content = True
        self.review_state = Chunk.Review.KEPT
        self.updated_at = timezone.now()
        self.save()
        self._history(ChunkReview.Decision.KEPT, self.text, self.text, note, by).save()


class ChunkReview(models.Model):
    """One pharmacist decision or system event on a chunk; rows are never edited."""

    class Decision(models.TextChoices):
        APPROVED = "approved", "Duyệt nguyên văn"
        EDITED = "edited", "Sửa và duyệt"
        KEPT = "kept", "Giữ cách ly"
        SOURCE_CHANGED = "source_changed", "Nguồn sách thay đổi"

    chunk = models.ForeignKey(
        Chunk, on_delete=models.SET_NULL, null=True, blank=True, related_name="reviews"
    )
    drug_id = models.CharField(max_length=120)
    section_key = models.CharField(max_length=40)
    part_index = models.PositiveIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True
    )
    decision = models.CharField(max_length=20, choices=Decision.choices)
    before = models.TextField(blank=True)
    after = models.TextField(blank=True)
    note = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = "lịch sử duyệt"
        verbose_name_plural = "lịch sử duyệt"

    def __str__(self) -> str:
        return (
            f"{self.get_decision_display()} · {self.drug_id}/{self.section_key}#{self.part_index}"
        )


class IngestRun(models.Model):
    """A record of each ingest, so the admin shows when the book was last loaded."""

    source = models.CharField(max_length=1000)
    started_at = models.DateTimeField(default=timezone.now)
    seconds = models.FloatField(default=0)
    summary = models.JSONField(default=dict)

    class Meta:
        ordering = ["-started_at"]
        verbose_name = "lần nạp"
        verbose_name_plural = "lần nạp"

    def __str__(self) -> str:
        return f"{self.source} @ {self.started_at:%Y-%m-%d %H:%M}"
