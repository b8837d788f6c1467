"""Every way of writing a name table moves the catalog stamp (issue 23: the stamp is read
alone, no count of the tables backs it up any more, so a path that forgot it would leave
every worker on a stale resolver)."""

from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.db import connection

from corpus.bulk import copy_insert
from corpus.models import (
    Abbreviation,
    Alias,
    BookIndexEntry,
    Drug,
    RedFlag,
    bump_catalog,
    catalog_stamp,
)
from corpus.tests.accounts import logged_in
from corpus.tests.editions import ingest_edition

pytestmark = pytest.mark.django_db


def _moves(write: Callable[[], object]) -> bool:
    before = catalog_stamp()
    write()
    return catalog_stamp() != before


def _warfarin() -> Drug:
    return Drug.objects.get(drug_id="warfarin")


def test_saving_renaming_and_deleting_one_alias_each_move_it() -> None:
    alias = Alias(drug=_warfarin(), name="Zyxowarf", folded="zyxowarf")
    assert _moves(alias.save)
    alias.name = alias.folded = "zyxowarf b"
    assert _moves(alias.save)  # a rename in place: the row count stays
    assert _moves(alias.delete)


def test_queryset_updates_deletes_and_bulk_creates_move_it() -> None:
    warfarin = _warfarin()
    assert _moves(
        lambda: Alias.objects.bulk_create(
            [Alias(drug=warfarin, name=n, folded=n) for n in ("zyx a", "zyx b")]
        )
    )
    zyx = Alias.objects.filter(name__startswith="zyx")
    assert _moves(lambda: zyx.update(source_page=1))
    assert _moves(lambda: zyx.delete())
    assert _moves(lambda: BookIndexEntry.objects.filter(name__startswith="Pan").delete())


def test_copy_and_raw_sql_move_it() -> None:
    entry = BookIndexEntry(
        name="Zyxobrand", folded="zyxobrand", ingredient="ZYXO", ingredient_id="zyxo"
    )
    entry.source = BookIndexEntry.Source.BRAND_INDEX
    assert _moves(lambda: copy_insert(BookIndexEntry, [entry]))  # ingest's COPY
    assert _moves(lambda: copy_insert(Alias, [Alias(drug=_warfarin(), name="Q", folded="q")]))

    def psql() -> None:
        with connection.cursor() as cursor:
            cursor.execute("UPDATE corpus_alias SET name = name WHERE folded = 'q'")

    assert _moves(psql)


def test_a_drug_renamed_or_retired_moves_it_and_other_columns_do_not() -> None:
    drugs = Drug.objects.filter(drug_id="warfarin")
    assert _moves(lambda: drugs.update(heading="WARFARIN (ĐỔI TÊN)"))
    assert _moves(lambda: drugs.update(retired_at="2026-12-02T00:00:00Z"))
    assert not _moves(lambda: drugs.update(drug_class="Chống đông"))
    assert _moves(lambda: drugs.delete())  # its aliases go with it


def test_abbreviations_red_flags_and_the_hand_bump_move_it() -> None:
    assert _moves(lambda: Abbreviation.objects.create(short="ZYX", expansion="zyx"))
    assert _moves(lambda: RedFlag.objects.create(phrase="zyx co giật", kind=RedFlag.Kind.EMERGENCY))
    assert _moves(lambda: RedFlag.objects.filter(phrase="zyx co giật").update(active=False))
    assert _moves(bump_catalog)


def test_the_admins_add_and_bulk_delete_move_it(reviewer: User) -> None:
    client = logged_in(reviewer)
    form = {"drug": _warfarin().pk, "name": "Zyxowarf Admin", "kind": "curated", "source_page": ""}
    assert _moves(lambda: client.post("/admin/corpus/alias/add/", form))
    alias = Alias.objects.get(name="Zyxowarf Admin")
    action = {"action": "delete_selected", "_selected_action": [alias.pk], "post": "yes"}
    assert _moves(lambda: client.post("/admin/corpus/alias/", action))
    assert not Alias.objects.filter(pk=alias.pk).exists()


def test_an_ingest_that_retires_drugs_moves_it(small_corpus: Callable[[], Path]) -> None:
    assert _moves(lambda: ingest_edition(small_corpus()))


def test_a_rolled_back_edit_leaves_a_version_no_later_edit_reuses() -> None:
    from django.db import transaction

    before = catalog_stamp()
    with pytest.raises(RuntimeError), transaction.atomic():
        Alias.objects.create(drug=_warfarin(), name="Zyx rollback", folded="zyx rollback")
        rolled_back = catalog_stamp()
        raise RuntimeError
    assert catalog_stamp() == before
    Alias.objects.create(drug=_warfarin(), name="Zyx kept", folded="zyx kept")
    assert catalog_stamp() not in (before, rolled_back)


def test_retiring_a_drug_moves_the_chunks_stamp_and_an_alias_edit_does_not() -> None:
    from corpus.models import ChunkStamp

    def chunks() -> int:
        return ChunkStamp.objects.values_list("version", flat=True).get(pk=1)

    before = chunks()
    Alias.objects.create(drug=_warfarin(), name="Zyxowarf", folded="zyxowarf")
    assert chunks() == before  # the ranked index stays: no paragraph changed
    Drug.objects.filter(drug_id="warfarin").update(retired_at="2026-12-02T00:00:00Z")
    assert chunks() != before
