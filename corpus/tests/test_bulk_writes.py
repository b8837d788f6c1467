"""The ingest's bulk writes (corpus/bulk.py): COPY writes what the ORM would, and an empty
table's indexes built after the rows are the migration's indexes again."""

import pytest
from django.contrib.postgres.search import SearchQuery
from django.db import connection, transaction

from corpus.bulk import copy_insert, indexes_built_after
from corpus.models import Alias, Chunk, Drug, Section

pytestmark = pytest.mark.django_db


def _indexes() -> dict[str, tuple[str, int]]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.relname, pg_get_indexdef(i.indexrelid), i.indexrelid FROM pg_index i "
            "JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = 'corpus_chunk'::regclass"
        )
        return {name: (definition, oid) for name, definition, oid in cursor.fetchall()}


def _chunk(section: Section) -> Chunk:
    return Chunk(section_id=section.pk, part_index=0, text="Warfarin.", source_text="Warfarin.")


def test_copy_writes_a_choice_as_its_value_and_a_foreign_key_by_id() -> None:
    warfarin = Drug.objects.get(drug_id="warfarin")
    copy_insert(
        Alias,
        [Alias(drug_id=warfarin.pk, name="Zyxo", folded="zyxo", kind=Alias.Kind.TRADE_NAME)],
    )
    assert Alias.objects.filter(drug=warfarin, name="Zyxo", kind="trade_name").count() == 1


def test_an_empty_table_gets_the_same_indexes_back_and_its_rows_are_searchable() -> None:
    section = Section.objects.filter(drug__drug_id="warfarin").first()
    assert section is not None
    before = _indexes()
    Chunk.objects.all().delete()
    with indexes_built_after(Chunk) as rebuilt:
        copy_insert(Chunk, [_chunk(section)])
    after = _indexes()
    assert rebuilt
    assert {n: d for n, (d, _) in after.items()} == {n: d for n, (d, _) in before.items()}
    assert after["chunk_fts_folded_gin"][1] != before["chunk_fts_folded_gin"][1]  # built anew
    assert after["chunk_unique_part"] == before["chunk_unique_part"]  # a constraint's, kept
    found = Chunk.objects.filter(fts_folded=SearchQuery("warfarin", config="vi_unaccent"))
    assert found.count() == 1


def test_a_failed_write_into_an_empty_table_leaves_its_indexes_as_they_were() -> None:
    section = Section.objects.filter(drug__drug_id="warfarin").first()
    assert section is not None
    Chunk.objects.all().delete()
    before = _indexes()
    with pytest.raises(ValueError), transaction.atomic():
        with indexes_built_after(Chunk):
            copy_insert(Chunk, [_chunk(section)])
            raise ValueError("a malformed file")
    assert _indexes() == before
    assert not Chunk.objects.exists()


def test_a_table_with_rows_keeps_its_indexes() -> None:
    before = _indexes()
    with indexes_built_after(Chunk) as rebuilt:
        pass
    assert not rebuilt
    assert _indexes() == before
