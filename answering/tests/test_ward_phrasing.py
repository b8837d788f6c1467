"""Questions as wards type them: each mechanism with several questions from several monographs."""

import pytest

from answering.cues import age_months, expand_abbreviations
from answering.understanding import understand
from corpus.text import diacritics_agree
from retrieval.catalog import brand_base, get_resolver, salt_forms
from retrieval.name_forms import head_forms
from retrieval.phrases import populations, routes

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("question", "drug"),
    [
        ("Tegretol uống mấy lần một ngày?", "carbamazepin"),
        ("Xatral có gây hạ huyết áp không", "alfuzosin_hydroclorid"),
        ("glucophage cho nguoi suy than", "metformin"),
        ("liều vanco cho người lớn", "vancomycin"),
        ("NAC dùng thế nào", "acetylcystein"),
        ("dexa tiêm bắp liều", "dexamethason"),
        ("natri valproat có dùng cho bà bầu không", "acid_valproic"),
        ("valproat liều khởi đầu", "acid_valproic"),
        ("Tiphadol 80 cho trẻ", "paracetamol"),
        ("Lykamox uống trước hay sau ăn", "amoxicilin"),
        ("ampi tiêm tĩnh mạch liều bao nhiêu", "ampicilin"),
        ("salbu xịt mấy nhát", "salbutamol_dung_trong_ho_hap"),
        ("truyền ampho B bao lâu", "amphotericin_b"),
        ("đột quỵ giờ thứ 2 có tiêu sợi huyết rtPA được không", "alteplase"),
        ("liều rt-PA cho nhồi máu não", "alteplase"),
        ("TXA truyền trước mổ bao nhiêu", "acid_tranexamic"),
        ("VPA uống cho trẻ động kinh", "acid_valproic"),
    ],
)
def test_brand_bases_short_forms_and_salts_name_the_loaded_drug(question: str, drug: str) -> None:
    assert get_resolver().resolve(question) == (drug,)


def test_a_base_name_is_cut_only_from_what_follows_a_brand_on_the_box() -> None:
    assert brand_base("Tegretol 200") == ("tegretol",)
    assert brand_base("Glucophage XR") == ("glucophage",)
    assert brand_base("Lapuvir-150") == ("lapuvir",)
    assert brand_base("Zechin Enteric Coated") == ("zechin",)
    assert brand_base("Lansoprazole Stada") is None  # nothing to cut
    assert brand_base("Oxy 10") is None  # too short to stand alone
    assert salt_forms("acid_valproic")[:2] == [("valproat",), ("natri", "valproat")]
    assert salt_forms("paracetamol") == []


def test_a_name_of_a_monograph_not_loaded_stays_known_not_loaded() -> None:
    detail = get_resolver().resolve_detail("Lapuvir uống mấy viên")
    assert detail.drugs == () and detail.not_loaded == ("lapuvir",)


def test_typed_diacritics_must_agree_with_the_phrase() -> None:
    assert diacritics_agree("nhi", "nhĩ") and diacritics_agree("hoá", "hóa")
    assert not diacritics_agree("nhĩ", "nhi") and not diacritics_agree("dạ", "da")
    assert populations("Bệnh nhân rung nhĩ dùng warfarin") == []
    assert populations("liều cho nhi khoa") == ["tre_em"]
    assert routes("Thận trọng khi dùng acarbose") == []  # not "khí dung"
    assert routes("acetylcystein khí dung liều") == ["xit_hit"]


@pytest.mark.parametrize(
    ("question", "population"),
    [
        ("sản phụ dùng amoxicilin được không", "phu_nu_mang_thai"),
        ("thai 8 tuần uống paracetamol được không", "phu_nu_mang_thai"),
        ("đang mang bầu dùng loratadin được ko", "phu_nu_mang_thai"),
        ("mẹ cho bú uống ibuprofen được không", "cho_con_bu"),
        ("đang nuôi con bú dùng cetirizin được không", "cho_con_bu"),
        ("cháu 5 tuổi uống paracetamol bao nhiêu", "tre_em"),
        ("bé 18 tháng dùng amoxicilin liều thế nào", "tre_em"),
        ("BN creatinin tăng dùng vancomycin liều nào", "suy_than"),
        ("bệnh nhân chạy thận dùng gentamicin được không", "suy_than"),
        ("xơ gan dùng paracetamol được không", "suy_gan"),
        ("men gan cao dùng fluconazol được không", "suy_gan"),
    ],
)
def test_situations_as_wards_say_them_set_the_population(question: str, population: str) -> None:
    assert understand(question).population == population


def test_a_pregnancys_weeks_are_not_the_patients_age() -> None:
    frame = understand("thai 8 tuần uống paracetamol được không")
    assert frame.age_text is None and frame.attribute == "thoi_ky_mang_thai"
    assert understand("mẹ cho bú uống ibuprofen được không").attribute == "thoi_ky_cho_con_bu"


def test_an_age_maps_to_months() -> None:
    assert age_months("18 tháng") == 18 and age_months("5 tuổi") == 60
    assert age_months("sơ sinh") == 0 and age_months(None) is None


def test_clinical_abbreviations_are_read_as_the_books_words() -> None:
    assert expand_abbreviations("BN THA + ĐTĐ") == "BN tăng huyết áp + đái tháo đường"
    assert expand_abbreviations("bn tha, dtd") == "bn tăng huyết áp, đái tháo đường"
    assert expand_abbreviations("tiêm TM chậm") == "tiêm tĩnh mạch chậm"
    assert expand_abbreviations("ha giá") == "ha giá"  # two letters only in capitals
    frame = understand("Thuốc nào điều trị THA?")
    assert frame.turn_type == "condition_to_drug" and frame.condition == "tang huyet ap"
    assert understand("vancomycin truyền TM bao lâu").route == "tiem_tinh_mach"


@pytest.mark.parametrize("no", ["ko", "k", "hok", "khg"])
def test_the_ways_wards_type_khong_make_a_yes_no_question(no: str) -> None:
    frame = understand(f"Metformin dùng cho người suy thận được {no}")
    assert frame.turn_type == "condition_relation" and frame.drugs == ("metformin",)


@pytest.mark.parametrize(
    ("question", "poison"),
    [
        ("NAC liều cho paracetamol", "paracetamol"),
        ("acetylcystein trong ngộ độc paracetamol dùng thế nào", "paracetamol"),
        ("glucagon cho hạ đường huyết do insulin", "insulin"),
        ("protamin trung hòa heparin liều bao nhiêu", "heparin"),
        ("naloxon cho morphin", "morphin_sulfat"),
    ],
)
def test_an_antidote_question_is_answered_from_the_poisons_overdose_section(
    question: str, poison: str
) -> None:
    frame = understand(question)
    assert frame.drugs == (poison,) and frame.attribute == "qua_lieu_va_xu_tri"


def test_two_drugs_with_a_combination_word_stay_an_interaction() -> None:
    frame = understand("Đang dùng warfarin có phối hợp thêm aspirin liều cao được không?")
    assert frame.turn_type == "interaction" and set(frame.drugs) == {
        "warfarin",
        "acid_acetylsalicylic",
    }


def test_a_section_word_told_as_the_patients_history_is_a_condition() -> None:
    frame = understand("tiền sử phù mạch dùng enalapril được không")
    assert frame.relation == "contraindication" and frame.condition == "phu mach"
    assert understand("Enalapril gây phù mạch xử trí thế nào").relation is None


@pytest.mark.parametrize(
    "question",
    ["Thuốc nào gây hội chứng Stevens-Johnson?", "thuoc nao gay hoi chung stevens johnson"],
)
def test_which_drug_causes_searches_the_condition_without_the_cue(question: str) -> None:
    frame = understand(question)
    assert frame.relation == "adverse_effect" and frame.condition == "hoi chung stevens johnson"


def test_an_abbreviation_a_pharmacist_adds_is_read_and_survives_reingest(
    small_corpus,  # type: ignore[no-untyped-def]
) -> None:
    from corpus.models import Abbreviation
    from corpus.tests.editions import ingest_edition

    assert understand("Thuốc nào điều trị VLDDTT?").condition == "vlddtt"
    Abbreviation.objects.create(short="VLDDTT", expansion="viêm loét dạ dày tá tràng")
    ingest_edition(small_corpus())
    assert Abbreviation.objects.filter(short="VLDDTT").exists()
    frame = understand("Thuốc nào điều trị VLDDTT?")
    assert frame.turn_type == "condition_to_drug" and frame.condition == "viem loet da day ta trang"


@pytest.mark.parametrize(
    ("question", "condition"),
    [
        ("thuốc nào điều trị tiểu đường", "dai thao duong"),
        ("Thuốc nào trị cao huyết áp?", "tang huyet ap"),
        ("thuoc nao gay ha duong huyet", "ha glucose huyet"),
        ("bệnh nhân gout dùng thuốc gì", "gut"),
    ],
)
def test_lay_words_are_searched_as_the_book_prints_them(question: str, condition: str) -> None:
    frame = understand(question)
    assert frame.condition == condition and frame.drugs == ()


def test_the_frame_records_the_books_band_that_holds_the_age() -> None:
    from answering.turn import answer_turn

    printed = answer_turn(
        "Liều paracetamol đường uống cho trẻ 2 - 4 tuổi là bao nhiêu?", provider=None
    )
    assert printed.frame.age_band == "Trẻ em 2 - 4 tuổi"
    held = answer_turn("bé 18 tháng dùng paracetamol liều", provider=None)
    assert held.frame.age_months == 18 and held.frame.age_band == "Trẻ em 6 tháng - 2 tuổi"
    assert held.frame.summary()["age_band"] == "Trẻ em 6 tháng - 2 tuổi"


def test_a_bound_is_not_the_age_it_bounds() -> None:
    from answering.turn import answer_turn
    from retrieval.bands import band_months, prints_age

    assert not prints_age("Trẻ nhỏ và trẻ dưới 3 tuổi", "3 tuổi")
    assert prints_age("Trẻ em 2 - 4 tuổi: 180 mg", "2 - 4 tuổi")
    under = band_months("trẻ dưới 3 tuổi")
    assert under is not None and not (under[0] <= 36 <= under[1])
    result = answer_turn("amoxicilin cho trẻ 3 tuổi liều bao nhiêu", provider=None)
    assert result.frame.age_band == "Trẻ em dưới 8 tuổi"
    # The band leads, under its heading, and its paragraph follows in view.
    lead, paragraph = result.blocks[0], result.blocks[1]
    assert lead.claims[0][0].endswith(
        ": Trẻ em dưới 8 tuổi: 50 mg/kg/ngày chia làm 3 lần (liều tối đa 1,5 g/ngày)."
    )
    assert not paragraph.collapsed and paragraph.claims[0][0].startswith("Trẻ em dưới 8 tuổi")


def test_a_word_the_book_uses_is_a_condition_not_an_unknown_drug_in_a_which_drug_question() -> None:
    frame = understand("methemoglobin huyết điều trị bằng thuốc gì")
    assert frame.turn_type == "condition_to_drug" and frame.condition == "methemoglobin huyet"
    # A name found nowhere in the book stays an unknown drug.
    assert understand("Liều thuốc Zyxoprin cho người lớn?").unknown_drugs == ("zyxoprin",)
    assert "atorvastatin" in understand("Atorvastatin 20 mg nên uống buổi tối?").unknown_drugs


@pytest.mark.parametrize(
    ("question", "section"),
    [
        ("Heparin quá liều dùng gì để trung hòa?", "qua_lieu_va_xu_tri"),
        ("morphin quá liều dùng naloxon thế nào", "qua_lieu_va_xu_tri"),
        ("Liều dùng paracetamol cho người lớn?", "lieu_luong_va_cach_dung"),
    ],
)
def test_overlapping_section_phrases_go_to_the_earlier_of_equal_length(
    question: str, section: str
) -> None:
    # "quá liều dùng gì": "quá liều" and "liều dùng" share a word; the earlier one is meant.
    assert understand(question).attribute == section


@pytest.mark.parametrize(
    ("typed", "drug"),
    [
        ("dầu parafin cho người già được không", "parafin_long"),
        ("amphotericin pha với NaCl 0,9% được không", "amphotericin_b"),
        ("salbutamol khí dung liều trẻ em", "salbutamol_dung_trong_ho_hap"),
    ],
)
def test_a_drug_named_by_the_first_word_of_its_name(typed: str, drug: str) -> None:
    assert get_resolver().resolve(typed) == (drug,)


def test_a_first_word_is_no_name_when_shared_or_numbered() -> None:
    resolve = get_resolver().resolve
    # "acid" begins many names; "dextran 70" is not DEXTRAN 1 (its number is its name).
    assert resolve("acid liều bao nhiêu") == ()
    assert resolve("truyền dextran 70 bù thể tích") == ()
    assert head_forms([("Dextran 1", "dextran_1")], [], str.isalpha) == {}
    assert head_forms([("Parafin lỏng", "parafin_long")], [], str.isalpha) == {
        ("parafin",): {"parafin_long"}
    }


@pytest.mark.parametrize(
    ("question", "population"),
    [
        ("BN 86t rung nhĩ, bắt đầu warfarin, liều so với người trẻ thế nào?", "nguoi_cao_tuoi"),
        ("BN 45 tuổi, lorazepam liều như người trẻ được không", None),
        ("trẻ 5 tuổi uống paracetamol liều bao nhiêu", "tre_em"),
    ],
)
def test_a_childs_word_beside_an_adults_age_is_a_comparison(
    question: str, population: str | None
) -> None:
    assert understand(question).population == population


def test_normal_findings_and_who_asks_never_enter_the_condition() -> None:
    from answering.reading import without_told_context

    told = (
        "Em đang trực khoa ngoại, hỏi nhanh ạ. BN sỏi mật cholesterol, siêu âm gan bình thường, "
        "tiền sử loét dạ dày. Dùng chenodiol được không?"
    )
    kept = without_told_context(told)
    assert "trực" not in kept and "bình thường" not in kept
    # A history is kept, whatever follows it: it may be what the book contraindicates.
    assert "loét dạ dày" in kept and "sỏi mật" in kept


def test_a_which_drug_question_reads_its_condition_from_the_sentence_that_asks() -> None:
    told = "BN nữ 30t, tiền sử mổ ruột thừa. Bệnh Parkinson dùng thuốc gì?"
    frame = understand(told)
    assert "ruot" not in (frame.condition or "") and "parkinson" in (frame.condition or "")
    # With no rare word of its own, the sentence before it is the condition.
    frame = understand("BN nữ khí hư nhiều, soi tươi thấy Trichomonas. Thuốc nào trị?")
    assert "trichomonas" in (frame.condition or "")


@pytest.mark.parametrize(
    "question",
    [
        "tiêm ceftriaxon thế nào cho người lớn?",
        "uong metformin the nao",
        "truyền vancomycin bao lâu",
    ],
)
def test_a_section_phrase_split_by_the_drugs_name_is_read_whole(question: str) -> None:
    assert understand(question).attribute == "lieu_luong_va_cach_dung"


def test_a_name_cut_out_never_joins_other_words_into_a_phrase() -> None:
    # "nồng độ thuốc" is no "do thuốc" (whether the drug caused it): diacritics are kept.
    frame = understand("BN dùng phenytoin, theo dõi nồng độ thuốc trong máu, đích bao nhiêu?")
    assert frame.attribute != "tac_dung_khong_mong_muon"


@pytest.mark.parametrize(
    "question",
    [
        "mesna truyền kèm ifosfamid để làm gì?",
        "BN có thai 32 tuần tiêm dexamethason để làm gì?",
        "acetylcystein uong de lam gi",
    ],
)
def test_what_it_is_given_for_is_the_indication(question: str) -> None:
    # "để làm gì", whatever population is said with it (a pregnancy's week is not asked).
    assert understand(question).attribute == "chi_dinh"


@pytest.mark.parametrize(
    "question",
    ["amox-clavulanat liều trẻ em", "amoxi/clav cho người suy thận", "Amoxicilin-clavulanat 1g x2"],
)
def test_a_combination_by_its_joined_parts_is_the_combination(question: str) -> None:
    assert get_resolver().resolve(question) == ("amoxicilin_va_kali_clavulanat",)
