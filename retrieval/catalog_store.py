"""The drug-name catalog's inputs read from the tables, and the built catalog stored by its
stamp version (`corpus.CatalogSnapshot`), so that it is built once per edit, not once per
worker.

Issue 23 measured 0.4 s and 27 MB per worker at 1×, 2.1 s and 76 MB at 7× the book, paid
by every worker after every alias edit and every recycle. Now the first worker to see a new
version builds it under a PostgreSQL advisory lock and stores it; the others wait on the
lock, then load what it stored (bench/scale.py measures both). The book's vocabulary (every
word of the chunks, most of the build) is kept per chunks' version, so an alias edit does
not read the chunks again.
"""

import hashlib
import json
import logging
import threading
import time
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.db import connection, transaction

from corpus.text import words

# pg_advisory_xact_lock's key for "building the name catalog" (any constant of the app's).
_BUILD_LOCK = 2018_23  # with the version's low bits: one lock per version
_KEEP_STORED = 4
BUILD_WAIT_SECONDS = 10.0  # a build takes 0.4 s at 1×, ~2 s at 7× (bench/scale.py)  # versions kept in the table; a worker on an older one builds its own
_vocabulary: tuple[int, frozenset[str]] | None = None
_owners: tuple[int, dict[str, str]] | None = None
_vocabulary_lock = threading.Lock()

_BUILD_SOURCES = (
    "corpus/text.py",
    "retrieval/catalog.py",
    "retrieval/catalog_store.py",
    "retrieval/name_conflicts.py",
    "retrieval/name_forms.py",
)
Fields = dict[str, Any]
logger = logging.getLogger("duocthu.catalog")


_BRAND_KINDS = frozenset({"trade_name", "brand_index", "vn_brand"})


def name_rows(
    salts: frozenset[str], key_of: Callable[[str], tuple[str, ...]] | None = None
) -> tuple[list[tuple[str, str]], list[tuple[str, str]], dict[str, str], list[tuple[str, str]]]:
    """(name, drug id) of loaded drugs, (name, ingredient id) of the book index, headings, and
    (name, drug id) of the names that are only a brand of their drug."""
    from corpus.models import Alias, BookIndexEntry, Drug

    key_of = key_of or (lambda name: tuple(words(name)))
    active = Drug.objects.filter(retired_at__isnull=True)  # a retired drug answers no more
    rows = list(Alias.objects.filter(drug__in=active).values_list("name", "drug__drug_id", "kind"))
    loaded = [(name, drug_id) for name, drug_id, _ in rows]
    not_brand = {(key_of(n), d) for n, d, kind in rows if kind not in _BRAND_KINDS}
    not_brand |= {(tuple(d.split("_")), d) for d in active.values_list("drug_id", flat=True)}
    brands = [
        (n, d) for n, d, kind in rows if kind in _BRAND_KINDS and (key_of(n), d) not in not_brand
    ]
    for drug_id in active.values_list("drug_id", flat=True):
        loaded.append((drug_id.replace("_", " "), drug_id))
        # "Cetirizin" for CETIRIZIN HYDROCLORID: people drop the salt.
        parts = drug_id.split("_")
        if len(parts) > 1 and parts[-1] in salts:
            loaded.append((" ".join(parts[:-1]), drug_id))
    # In the order the index was written (the book's), not the order rows sit on disk.
    index = list(BookIndexEntry.objects.order_by("id").values_list("name", "ingredient_id"))
    index += [(i.replace("_", " "), i) for _, i in index]
    display = dict(Drug.objects.values_list("drug_id", "heading"))
    return loaded, index, display, brands


@lru_cache(maxsize=1)
def build_format() -> str:
    """A digest of the code that builds the catalog: a release that builds it otherwise
    (a new alias rule) rebuilds, never loads what the old code stored."""
    digest = hashlib.sha256()
    for path in _BUILD_SOURCES:
        digest.update((settings.BASE_DIR / path).read_bytes())
    return digest.hexdigest()[:16]


def _chunks_version() -> int:
    from corpus.models import ChunkStamp

    return ChunkStamp.objects.filter(pk=1).values_list("version", flat=True).first() or 0


def book_vocabulary() -> tuple[int, frozenset[str]]:
    """Every folded word of the loaded text, with the chunks' version it was read at."""
    global _vocabulary
    version = _chunks_version()
    with _vocabulary_lock:
        if _vocabulary is None or _vocabulary[0] != version:
            _vocabulary = (version, frozenset(_read_chunks(version)))
        return _vocabulary


def prose_owners() -> dict[str, str]:
    """Folded word → the one drug whose prose (not its brand list) prints it, "" for several
    (`retrieval.name_conflicts`); read with the vocabulary, or again after a stored load."""
    version = _chunks_version()
    with _vocabulary_lock:
        if _owners is None or _owners[0] != version:
            _read_chunks(version)
        assert _owners is not None
        return _owners[1]


def _read_chunks(version: int) -> set[str]:
    from corpus.models import Chunk
    from corpus.sections import SectionKey

    global _owners
    vocabulary: set[str] = set()
    owners: dict[str, str] = {}
    rows = Chunk.objects.values_list("text", "section__section_key", "section__drug__drug_id")
    for text, section, drug_id in rows.iterator(chunk_size=2000):
        found = set(words(text))
        vocabulary |= found
        if section != SectionKey.TEN_THUONG_MAI:
            for word in found:
                owners[word] = drug_id if owners.get(word, drug_id) == drug_id else ""
    _owners = (version, owners)
    return vocabulary


def _keys(table: dict[tuple[str, ...], frozenset[str]]) -> list[list[Any]]:
    return [[" ".join(key), sorted(ids)] for key, ids in table.items()]


def _table(rows: list[list[Any]]) -> dict[tuple[str, ...], frozenset[str]]:
    return {tuple(key.split(" ")): frozenset(ids) for key, ids in rows}


def dump(fields: Fields) -> bytes:
    data = {
        "loaded": _keys(fields["loaded"]),
        "not_loaded": _keys(fields["not_loaded"]),
        "display": fields["display"],
        "book_vocabulary": sorted(fields["book_vocabulary"]),
        "format": build_format(),
    }
    return zlib.compress(json.dumps(data, ensure_ascii=False).encode("utf-8"), 1)


def undump(blob: bytes) -> Fields | None:
    """The stored fields, or None when another version of the code built them."""
    data = json.loads(zlib.decompress(blob))
    if data.get("format") != build_format():
        return None
    return {
        "loaded": _table(data["loaded"]),
        "not_loaded": _table(data["not_loaded"]),
        "display": data["display"],
        "book_vocabulary": frozenset(data["book_vocabulary"]),
    }


def load(version: int) -> Fields | None:
    """The catalog stored for this version, or None."""
    from corpus.models import CatalogSnapshot

    global _vocabulary
    row = (
        CatalogSnapshot.objects.filter(version=version)
        .values_list("data", "chunks_version")
        .first()
    )
    if row is None:
        return None
    fields = undump(bytes(row[0]))
    if fields is None:
        return None
    logger.info("name catalog %s loaded as stored", version)
    with _vocabulary_lock:  # a later build in this worker after an alias edit reuses it
        _vocabulary = (row[1], fields["book_vocabulary"])
    return fields


def store(version: int, chunks_version: int, fields: Fields, seconds: float) -> None:
    from corpus.models import CatalogSnapshot

    CatalogSnapshot.objects.update_or_create(  # a row an older code built is replaced
        version=version,
        defaults={"data": dump(fields), "chunks_version": chunks_version, "built_seconds": seconds},
    )
    kept = CatalogSnapshot.objects.order_by("-version").values_list("version", flat=True)
    CatalogSnapshot.objects.exclude(version__in=list(kept[:_KEEP_STORED])).delete()


@contextmanager
def one_builder(version: int) -> Iterator[bool]:
    """Whether this process builds this version's catalog for everyone: it waits up to
    BUILD_WAIT_SECONDS for another process building it (then finds it stored). A builder
    whose transaction stays open (a test, a long ingest) would hold the others forever: after
    the wait a process builds for itself and stores nothing (a live-server test waited on the
    test's own open transaction until the browser gave up)."""
    deadline = time.monotonic() + BUILD_WAIT_SECONDS
    with transaction.atomic(), connection.cursor() as cursor:
        while True:
            cursor.execute(
                "SELECT pg_try_advisory_xact_lock(%s, %s)", [_BUILD_LOCK, version % 2**31]
            )
            if cursor.fetchone()[0]:
                yield True
                return
            if time.monotonic() > deadline or load(version) is not None:
                yield False
                return
            time.sleep(0.1)
