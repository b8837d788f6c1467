"""Each flaw listed in the corpus README is coped with, not silently "fixed"."""

import pytest

from corpus.markdown import parse_monograph
from corpus.models import Chunk, Drug, Section
from corpus.sections import section_key_for_heading

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("printed", "key"),
    [
        ("**Ouá liều và xử trí**", "qua_lieu_va_xu_tri"),
        ("Chỉ đinh", "chi_dinh"),
        ("Tuong ky", "tuong_ky"),
        ("Turong ky", "tuong_ky"),
        ("Đô ổn đinh và bảo quản", "do_on_dinh_va_bao_quan"),
        ("**Ðộ ổn định và bảo quản**", "do_on_dinh_va_bao_quan"),  # U+00D0
        ("Ten chung quốc tế", "ten_chung_quoc_te"),
        ("Loai thuốc", "loai_thuoc"),
        ("**Dược lý học và cơ chế tác dụng**", "duoc_ly_va_co_che_tac_dung"),
        ("**Quá liều và cách xử trí**", "qua_lieu_va_xu_tri"),
        ("*Dược động học*", "duoc_dong_hoc"),
        ("Thân trong", "than_trong"),
    ],
)
def test_damaged_headings_map_to_their_section(printed: str, key: str) -> None:
    assert section_key_for_heading(printed)[0] == key


@pytest.mark.parametrize(
    "label",
    [
        "*Liều lượng:*",
        "*Cách dùng:*",
        "Đường truyền tĩnh mạch:",
        "*Liều cho người suy thận:*",
        "*Trẻ em:*",
    ],
)
def test_sub_headings_are_not_sections(label: str) -> None:
    assert section_key_for_heading(label)[0] is None


def test_a_section_heading_printed_as_top_level_is_not_a_new_monograph() -> None:
    amilorid = Drug.objects.get(drug_id="amilorid_hydroclorid")
    dosage_form = amilorid.sections.get(section_key="dang_thuoc_va_ham_luong")
    assert dosage_form.chunks.first().text.startswith("Viên nén không bao: 5 mg")
    amphotericin = Drug.objects.get(drug_id="amphotericin_b")
    assert amphotericin.sections.filter(section_key="qua_lieu_va_xu_tri").exists()
    assert not Drug.objects.filter(drug_id__startswith="qua_lieu").exists()
    assert not Drug.objects.filter(drug_id__startswith="dang_thuoc").exists()


def test_an_unmappable_section_heading_is_reported_not_guessed() -> None:
    text = "# **THUỐC THỬ**\n\n**Loại thuốc:** Thử.\n\n## **Chỉ định**\n\nA.\n\n## **Mục lạ hoàn toàn**\n\nB.\n"
    monograph = parse_monograph(text, "thu.md")
    assert monograph.unmapped_headings == [(9, "**Mục lạ hoàn toàn**")]
    # Its text stays in the section before it, labelled, instead of being dropped.
    assert monograph.section("chi_dinh").chunks[-1].label == "Mục lạ hoàn toàn"


def test_typos_and_look_alike_characters_stay_as_printed() -> None:
    assert Chunk.objects.filter(text__contains="ia chảy").exists()
    cetirizin_table = Chunk.objects.get(
        section__drug__drug_id="cetirizin_hydroclorid", kind=Chunk.Kind.TABLE
    )
    assert any(0xE000 <= ord(ch) <= 0xF8FF for ch in cetirizin_table.text)
    assert cetirizin_table.requires_visual_check


def test_salbutamol_scope_is_kept_and_sections_come_from_every_heading_level() -> None:
    salbutamol = Drug.objects.get(drug_id="salbutamol_dung_trong_ho_hap")
    assert salbutamol.heading == "SALBUTAMOL (Dùng trong hô hấp)"
    # `#### Chỉ đinh` style headings in some monographs still give a chi_dinh section.
    assert Section.objects.filter(section_key="chi_dinh").count() == 94


def test_an_italic_line_naming_another_section_with_more_words_is_a_label() -> None:
    # "*Chống chỉ định phối hợp*" heads lines of Tương tác thuốc (acenocoumarol): reopening
    # Chống chỉ định there put the pairs never to combine among the contraindications, where
    # no interaction search looked. An italic section title alone still opens its section.
    text = (
        "# **THUỐC THỬ**\n\n## **Chống chỉ định**\n\nMẫn cảm.\n\n## **Tương tác thuốc**\n\n"
        "Nhiều thuốc tương tác.\n\n*Chống chỉ định phối hợp*\n\nThuốc A làm tăng tác dụng.\n\n"
        "*Thận trọng khi phối hợp:*\n\nThuốc B.\n\n*Dược động học*\n\nHấp thu nhanh.\n"
    )
    monograph = parse_monograph(text, "thu.md")
    interactions = monograph.section("tuong_tac_thuoc")
    assert interactions is not None
    said = " ".join(c.text for c in interactions.chunks)
    assert "Thuốc A làm tăng tác dụng." in said and "Thuốc B." in said
    labels = " ".join(c.label for c in interactions.chunks)
    assert "Chống chỉ định phối hợp" in labels
    contraindications = monograph.section("chong_chi_dinh")
    assert contraindications is not None
    assert " ".join(c.text for c in contraindications.chunks) == "Mẫn cảm."
    kinetics = monograph.section("duoc_dong_hoc")
    assert kinetics is not None and kinetics.chunks[0].text == "Hấp thu nhanh."
