"""The name catalog is built once per version of the name tables and stored: another worker
(here: this one with its memory cleared) loads it instead of reading the tables again."""

import json
import zlib

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

import retrieval.catalog as catalog
from corpus.models import Alias, CatalogSnapshot, Drug, catalog_stamp
from retrieval import catalog_store

pytestmark = pytest.mark.django_db


def test_an_edit_is_built_once_and_loaded_by_the_other_workers() -> None:
    Alias.objects.create(
        drug=Drug.objects.get(drug_id="warfarin"), name="Zyxowarf", folded="zyxowarf"
    )
    assert catalog.get_resolver().resolve("Zyxowarf cho người lớn") == ("warfarin",)
    assert CatalogSnapshot.objects.filter(version=catalog_stamp()).count() == 1
    catalog._cached.clear()  # another worker: nothing of this catalog in its memory
    with CaptureQueriesContext(connection) as queries:
        other = catalog.get_resolver()
    read = " ".join(q["sql"] for q in queries.captured_queries)
    assert "corpus_alias" not in read and "corpus_chunk" not in read
    assert other.resolve("Zyxowarf cho người lớn") == ("warfarin",)
    assert other.resolve_detail("aspirinol cho người lớn").near_misses  # its vocabulary too


def test_the_stored_catalog_is_the_built_one() -> None:
    built, _ = catalog.build_resolver()
    fields = catalog_store.undump(catalog_store.dump(vars(built)))
    assert fields is not None
    assert fields["loaded"] == built.loaded and fields["not_loaded"] == built.not_loaded
    assert fields["display"] == built.display
    assert fields["book_vocabulary"] == built.book_vocabulary


def test_a_catalog_an_older_code_stored_is_rebuilt_not_loaded() -> None:
    catalog.get_resolver()
    row = CatalogSnapshot.objects.get(version=catalog_stamp())
    data = json.loads(zlib.decompress(bytes(row.data)))
    data["format"] = "older-code"
    data["loaded"] = [["zyxowarf", ["warfarin"]], *data["loaded"]]  # what the old rules made
    row.data = zlib.compress(json.dumps(data).encode())
    row.save()
    catalog._cached.clear()
    assert catalog.get_resolver().resolve("Zyxowarf cho người lớn") == ()
    stored = CatalogSnapshot.objects.get(version=catalog_stamp())
    assert catalog_store.undump(bytes(stored.data)) is not None  # replaced by this code's
