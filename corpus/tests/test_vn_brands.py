"""Brands as wards write them (issue 17): corpus/data/vn_brands.csv names brands sold in
Vietnam that the book's own index lacks; after ingest each answers with its monograph, or is
reported as not loaded, and the table is ingested like the book's index."""

import csv
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

from corpus.admin_names import AliasForm
from corpus.ingest import ingest_formulary
from corpus.markdown import CorpusFormatError
from corpus.models import Alias, BookIndexEntry, Drug
from corpus.sources import VN_BRANDS, read_vn_brands
from corpus.tests.editions import ingest_edition, new_edition
from corpus.text import drug_id_for, words
from retrieval.catalog import get_resolver

pytestmark = pytest.mark.django_db


def _brand_rows() -> list[tuple[object, ...]]:
    return [
        *Alias.objects.filter(kind=Alias.Kind.VN_BRAND)
        .order_by("pk")
        .values_list("pk", "drug_id", "name", "folded", "source_page"),
        *BookIndexEntry.objects.filter(source=BookIndexEntry.Source.VN_BRAND)
        .order_by("pk")
        .values_list("pk", "name", "folded", "ingredient", "ingredient_id", "page"),
    ]


def _brands(tmp_path: Path, *lines: str) -> Path:
    """A copy of the brand table with `lines` appended."""
    table = tmp_path / "vn_brands.csv"
    shutil.copyfile(VN_BRANDS, table)
    with table.open("a", encoding="utf-8") as f:
        f.writelines(line + "\n" for line in lines)
    return table


def test_the_table_has_hundreds_of_brands_the_books_index_lacks(corpus_dir: Path) -> None:
    rows = read_vn_brands()
    assert len(rows) >= 300
    book = set()
    for name, column in (("brand_index.csv", "brand"), ("trade_names.csv", "trade_name")):
        with (corpus_dir / "book-index" / name).open(encoding="utf-8", newline="") as f:
            book |= {tuple(words(r[column])) for r in csv.DictReader(f)}
    assert not [r.name for r in rows if tuple(words(r.name)) in book]


def test_every_brand_answers_with_its_monograph_or_is_reported_not_loaded() -> None:
    loaded = set(Drug.objects.values_list("drug_id", flat=True))
    resolver = get_resolver()
    wrong = []
    for row in read_vn_brands():
        drug_id = drug_id_for(row.ingredient)
        brand = resolver.resolve_detail(row.name)
        # The ingredient is spelled as its heading: it names its loaded monograph, or none.
        ingredient = resolver.resolve(row.ingredient)
        if drug_id in loaded:
            ok = brand.drugs == ingredient == (drug_id,)
        else:
            ok = brand.drugs == ingredient == () and bool(brand.not_loaded)
        if not ok:
            wrong.append((row.name, row.ingredient, brand, ingredient))
    assert not wrong
    # None was left out as another drug's name: each is an alias or a not-loaded entry.
    assert Alias.objects.filter(kind=Alias.Kind.VN_BRAND).count() + BookIndexEntry.objects.filter(
        source=BookIndexEntry.Source.VN_BRAND
    ).count() == len(read_vn_brands())


def test_lasix_zyloric_and_sintrom_answer_with_their_monographs() -> None:
    resolver = get_resolver()
    assert resolver.resolve("Lasix 40 mg tiêm TM cho BN phù phổi") == ("furosemid",)
    assert resolver.resolve("zyloric") == ("alopurinol",)
    assert resolver.resolve("BN đang uống Sintrom 4mg") == ("acenocoumarol",)
    lasix = Alias.objects.get(name="Lasix")
    assert lasix.kind == Alias.Kind.VN_BRAND and lasix.source_page is None  # not the book's


def test_a_brand_of_a_monograph_that_is_not_loaded_is_reported_not_loaded() -> None:
    found = get_resolver().resolve_detail("Lipitor dùng cho bà bầu được không?")
    assert found.drugs == () and found.not_loaded == ("lipitor",)
    entry = BookIndexEntry.objects.get(name="Lipitor")
    assert entry.source == BookIndexEntry.Source.VN_BRAND and entry.page is None


def test_every_loaded_brand_passes_the_admins_check_for_a_name_of_another_drug() -> None:
    for alias in Alias.objects.filter(kind=Alias.Kind.VN_BRAND).select_related("drug"):
        form = AliasForm(
            {"drug": alias.drug.pk, "name": alias.name, "kind": alias.kind, "source_page": ""},
            instance=alias,
        )
        assert form.is_valid(), (alias.name, form.errors)


@pytest.mark.parametrize(
    ("line", "error"),
    [
        ("Brandx,furosemid,Sanofi – tờ HDSD Brandx,thừa cột", "wrong number of columns"),
        ("Brandx,,Sanofi – tờ HDSD Brandx", "empty active_ingredient"),
        ("LASIX,furosemid,Sanofi – tờ HDSD Lasix", "brand 'LASIX' is already on line"),
    ],
)
def test_a_malformed_row_changes_nothing_and_names_file_and_line(
    small_corpus: Callable[[], Path], tmp_path: Path, line: str, error: str
) -> None:
    copy = small_corpus()
    # A good change in the book as well: it may not land either.
    abacavir = copy / "monographs" / "abacavir.md"
    new_edition(copy, "abacavir.md", abacavir.read_text().replace("Ziagen", "Ziagen-mới"))
    table = _brands(tmp_path, line)
    broken = len(table.read_text(encoding="utf-8").splitlines())
    before = (Alias.objects.count(), BookIndexEntry.objects.count(), _brand_rows())
    with pytest.raises(CorpusFormatError) as raised:
        ingest_edition(copy, brands=table)
    assert str(raised.value).startswith(f"{table}:{broken}: {error}")
    assert (Alias.objects.count(), BookIndexEntry.objects.count(), _brand_rows()) == before
    assert not Alias.objects.filter(name="Ziagen-mới").exists()


def test_a_brand_that_names_another_drug_is_not_loaded_and_reingest_changes_no_row(
    corpus_dir: Path, tmp_path: Path
) -> None:
    """One re-ingest of the whole book (the slow part) for both: the shipped table alone is
    re-ingested by test_reingest.py."""
    warfarin = Drug.objects.get(drug_id="warfarin")
    Alias.objects.create(drug=warfarin, name="Wafa BV", folded="wafa bv")  # a pharmacist's
    table = _brands(
        tmp_path,
        "Panadol,warfarin,x – tờ HDSD Panadol",  # the book's brand of paracetamol
        "Wafa BV,acenocoumarol,x – tờ HDSD Wafa BV",
    )
    shipped = len(VN_BRANDS.read_text(encoding="utf-8").splitlines())
    before = _brand_rows()
    summary = ingest_formulary(corpus_dir, brands=table)
    assert not summary.changed and _brand_rows() == before
    assert summary.brands_refused == [
        f"{table}:{shipped + 1}: «Panadol» already names paracetamol",
        f"{table}:{shipped + 2}: «Wafa BV» already names warfarin",
    ]
    # Each name still names its one drug (rows, not the resolver: a rolled-back alias of
    # another test can leave a cached resolver under the same stamp).
    named = Alias.objects.filter(name__in=["Panadol", "Wafa BV"]).values_list("name", "drug")
    paracetamol = Drug.objects.get(drug_id="paracetamol")
    assert set(named) == {("Panadol", paracetamol.pk), ("Wafa BV", warfarin.pk)}


def test_reviewers_see_and_filter_the_brands_in_the_alias_admin(reviewer: User) -> None:
    client = Client()
    client.force_login(reviewer)
    listed = client.get("/admin/corpus/alias/", {"kind__exact": "vn_brand", "q": "lasix"})
    assert listed.status_code == 200
    assert "Biệt dược lưu hành tại VN" in listed.content.decode()
    assert [a.name for a in listed.context["cl"].result_list] == ["Lasix"]
    lasix = Alias.objects.select_related("drug").get(name="Lasix")
    page = str(lasix.drug.page_start)
    change = client.post(
        f"/admin/corpus/alias/{lasix.pk}/change/",
        {"drug": lasix.drug_id, "name": "Lasix", "kind": "vn_brand", "source_page": page},
    )
    assert change.status_code == 302
    lasix.refresh_from_db()
    assert str(lasix.source_page) == page
