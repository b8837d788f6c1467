"""What the shared corpus looks like once ingested (loaded once per session by conftest)."""

import pytest

from corpus.models import Alias, Chunk, Drug, Section
from corpus.sections import SECTION_KEYS

pytestmark = pytest.mark.django_db


def test_it_loads_all_94_monographs_with_stable_ids() -> None:
    assert Drug.objects.count() == 94
    ids = set(Drug.objects.values_list("drug_id", flat=True))
    assert {
        "paracetamol",
        "morphin_sulfat",
        "acid_acetylsalicylic",
        "amoxicilin",
        "amoxicilin_va_kali_clavulanat",
        "cetirizin_hydroclorid",
        "dextran_1",
    } <= ids
    # The scope parenthetical is part of the id: the book has two SALBUTAMOL monographs.
    assert "salbutamol_dung_trong_ho_hap" in ids


def test_each_monograph_has_its_sections_in_book_order() -> None:
    per_key = {key: Section.objects.filter(section_key=key).count() for key in SECTION_KEYS}
    # Every monograph has these; the rest vary with the monograph (counted in the README).
    for key in (
        "ten_chung_quoc_te",
        "loai_thuoc",
        "duoc_ly_va_co_che_tac_dung",
        "chi_dinh",
        "chong_chi_dinh",
        "than_trong",
        "tac_dung_khong_mong_muon",
        "lieu_luong_va_cach_dung",
    ):
        assert per_key[key] == 94, key
    assert per_key["duoc_dong_hoc"] >= 70
    paracetamol = [s.section_key for s in Section.objects.filter(drug__drug_id="paracetamol")]
    assert paracetamol == sorted(paracetamol, key=SECTION_KEYS.index)
    assert "duoc_dong_hoc" in paracetamol


def test_paracetamol_has_its_own_names_and_at_least_150_brand_names() -> None:
    aliases = Alias.objects.filter(drug__drug_id="paracetamol")
    assert aliases.count() >= 150
    names = set(aliases.values_list("name", flat=True))
    assert {"Acetaminophen", "Efferalgan", "Hapacol", "PARACETAMOL"} <= names
    assert Alias.objects.filter(drug__drug_id="acid_acetylsalicylic", name="Aspirin").exists()


def test_every_table_and_formula_is_its_own_chunk_flagged_for_visual_check() -> None:
    tables = Chunk.objects.filter(kind=Chunk.Kind.TABLE)
    formulas = Chunk.objects.filter(kind=Chunk.Kind.FORMULA)
    assert tables.count() >= 30 and formulas.count() >= 50
    assert not tables.filter(requires_visual_check=False).exists()
    assert not formulas.filter(requires_visual_check=False).exists()
    # A table chunk is the table alone: every line is a pipe row, none is prose.
    for chunk in tables:
        assert all(line.strip().startswith("|") for line in chunk.text.splitlines() if line.strip())
    # No markdown table or formula is left inside a prose chunk.
    for chunk in Chunk.objects.filter(kind=Chunk.Kind.PROSE):
        assert "\n|" not in chunk.text and not chunk.text.startswith("|")
        assert "<sub>" not in chunk.text and "$" not in chunk.text


def test_chunks_keep_sub_heading_labels_and_printed_pages() -> None:
    dose = Chunk.objects.filter(
        section__drug__drug_id="paracetamol", section__section_key="lieu_luong_va_cach_dung"
    )
    labels = list(dose.values_list("label", flat=True))
    assert any("Người lớn" in label for label in labels)
    assert any("Trẻ em" in label for label in labels)
    for chunk in dose:
        assert 1118 <= chunk.page_start <= chunk.page_end <= 1121


def test_text_is_verbatim_with_decimal_commas_and_spaced_thousands() -> None:
    assert Chunk.objects.filter(text__contains="7,5 mg/kg").exists()
    assert (
        Chunk.objects.filter(text__contains="Hiếm gặp, ADR < 1/1 000").exists()
        or Chunk.objects.filter(label__contains="1/1 000").exists()
    )


def test_a_form_the_atc_line_codes_on_its_own_is_a_name_of_its_monograph() -> None:
    """ACID PANTOTHENIC codes dexpanthenol and calci pantothenat on its Mã ATC line; wards
    prescribe by those names."""
    from corpus.names import coded_forms
    from retrieval.catalog import get_resolver

    assert coded_forms("Dexpanthenol: A11HA30; D03AX03. Calci pantothenat: A11HA31.") == [
        "Dexpanthenol",
        "Calci pantothenat",
    ]
    assert coded_forms("M03AA01.") == []
    names = set(
        Alias.objects.filter(drug__drug_id="acid_pantothenic").values_list("name", flat=True)
    )
    assert {"Dexpanthenol", "Calci pantothenat"} <= names
    assert get_resolver().resolve("tiêm bắp dexpanthenol liều bao nhiêu") == ("acid_pantothenic",)
