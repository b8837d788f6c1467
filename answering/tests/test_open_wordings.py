"""Questions asked in open wordings wards use, each shown on several monographs.

- which drug, asked with a kind of drug before "nào"/"gì" ("thuốc bôi tại chỗ nào", "corticoid
  nào", "bổ sung thuốc gì", "truyền gì") or around a drug the book only mentions: the book's
  indications that say the question's rare words, the one saying most first;
- "X dùng cho Y được không" where Y is an indication: the Chỉ định line leads;
- what to monitor ("theo dõi gì", "cần làm xét nghiệm gì"): the cautions.
"""

import pytest

from answering.delivery import delivery
from answering.turn import answer_turn

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("question", "drug", "line"),
    [
        (
            "BN hóa trị ifosfamid liều cao, dùng thuốc gì dự phòng độc tính đường tiết niệu?",
            "mesna",
            "dự phòng tác dụng độc hại đối với đường tiết niệu",
        ),
        (
            "BN 70t đau sau zona đã lành, có thuốc bôi tại chỗ nào giảm đau không?",
            "capsaicin",
            "Giảm đau tại chỗ do viêm dây thần kinh sau nhiễm",
        ),
        (
            "tre so sinh tan huyet vang da, truyen gi de ho tro?",
            "albumin",
            "tăng bilirubin - máu trong bệnh tan huyết sơ sinh",
        ),
        (
            "nhịp nhanh kịch phát trên thất ở BN Wolff-Parkinson-White, DT có thuốc tiêm nào?",
            "adenosin",
            "Nhịp nhanh kịch phát trên thất",
        ),
        (
            "có thuốc bôi nào ngăn ngừa cháy nắng không",
            "acid_para_aminobenzoic",
            "Ngăn ngừa cháy nắng.",
        ),
        (
            "Thuốc giãn cơ dùng trong gây mê nào để đặt nội khí quản?",
            "alcuronium_clorid",
            "làm giãn cơ tạo điều kiện đặt nội khí quản",
        ),
        (
            # A drug the book's index has but this corpus lacks is the context, not the subject.
            "BN hóa trị cyclophosphamid liều cao, dùng thuốc gì bảo vệ đường tiết niệu?",
            "mesna",
            "dự phòng tác dụng độc hại đối với đường tiết niệu",
        ),
        (
            "ngộ độc cyanid thì trong dược thư dùng chất gì để giải độc",
            "xanh_methylen",
            "Giải độc cyanid",
        ),
    ],
)
def test_an_open_which_drug_wording_lists_the_indication_first(
    question: str, drug: str, line: str
) -> None:
    result = answer_turn(question, provider=None)
    assert result.decision == "answer"
    assert result.frame.drugs[0] == drug, result.frame.drugs
    assert delivery(result, line).before_collapsed


def test_a_which_drug_list_leaves_out_drugs_that_only_share_a_word() -> None:
    result = answer_turn(
        "BN hóa trị ifosfamid liều cao, dùng thuốc gì dự phòng độc tính bàng quang?", provider=None
    )
    # Every listed drug's indication says at least half of what mesna's says of the question.
    assert result.frame.drugs[0] == "mesna" and len(result.frame.drugs) <= 5


@pytest.mark.parametrize(
    ("question", "line"),
    [
        ("homatropin nho mat dung trong viem mang bo dao cap duoc k?", "viêm màng bồ đào cấp"),
        (
            "Acetylcystein dùng giải độc quá liều paracetamol được không?",
            "Giải độc trong quá liều paracetamol",
        ),
    ],
)
def test_may_it_be_used_for_an_indication_leads_with_the_indication(
    question: str, line: str
) -> None:
    result = answer_turn(question, provider=None)
    assert delivery(result, line).before_collapsed
    assert "chong_chi_dinh" in {c.section_key for c in result.citations}  # the floor stays


@pytest.mark.parametrize(
    "question",
    [
        "BN lupus chuẩn bị dùng prednisolon liều cao kéo dài, trước điều trị cần làm XN gì?",
        "Cozaar cho cụ 78t suy thận nhẹ, cần theo dõi xét nghiệm gì?",
        "gentamicin liều cao kéo dài thì theo dõi gì?",
    ],
)
def test_what_to_monitor_is_asked_of_the_cautions(question: str) -> None:
    result = answer_turn(question, provider=None)
    assert result.frame.attribute == "than_trong"
    assert result.blocks and any(b.section_key == "than_trong" for b in result.blocks)


def test_a_word_the_book_prints_as_text_is_not_read_as_a_poison() -> None:
    # "methemoglobin" is no drug: not the antidote reading of the overdose section, but the
    # situation, with the contraindication that names it first.
    result = answer_turn("xanh methylen dùng cho methemoglobin huyết được không", provider=None)
    assert result.frame.attribute != "qua_lieu_va_xu_tri"
    assert delivery(result, "Không điều trị methemoglobin huyết do ngộ độc clorat").before_collapsed


@pytest.mark.parametrize(
    ("question", "section"),
    [
        (
            "BN uống enalapril liều đầu vài giờ thì sưng môi sưng lưỡi, xử trí sao?",
            "huong_dan_cach_xu_tri_adr",
        ),
        (
            "BN truyền vancomycin nhanh bị đỏ bừng mặt cổ, xử trí thế nào",
            "huong_dan_cach_xu_tri_adr",
        ),
        ("đang dùng captopril bị ho khan kéo dài, phải làm gì", "huong_dan_cach_xu_tri_adr"),
        ("quá liều paracetamol xử trí thế nào", "qua_lieu_va_xu_tri"),
        ("uống nhầm cả vỉ phenytoin xử trí sao", "qua_lieu_va_xu_tri"),
    ],
)
def test_what_to_do_once_it_happened_is_the_adr_management_unless_an_overdose(
    question: str, section: str
) -> None:
    result = answer_turn(question, provider=None)
    assert result.frame.attribute == section
    assert result.blocks and any(b.section_key == section for b in result.blocks)


def test_a_brand_one_letter_from_another_drugs_brand_is_not_that_drug() -> None:
    # "Promit" (DEXTRAN 1's brand, not in the book's index) is one letter from "Promid".
    from retrieval.catalog import get_resolver

    assert get_resolver().resolve("tiêm dextran 1 (Promit) bao nhiêu ml") == ("dextran_1",)
    assert get_resolver().resolve("amoxixilin liều trẻ em") == ("amoxicilin",)


@pytest.mark.parametrize(
    "question", ["bệnh Paget xương dùng thuốc gì ạ?", "thuốc nào điều trị bệnh xương Paget?"]
)
def test_a_which_drug_list_holds_the_indication_in_either_word_order(question: str) -> None:
    # ACID ZOLEDRONIC prints "Bệnh Paget xương", ALENDRONAT "bệnh xương Paget": the phrase
    # search finds one, the ranked search the other, which says the same rare word.
    result = answer_turn(question, provider=None)
    assert {"acid_zoledronic", "alendronat_natri"} <= set(result.frame.drugs)


@pytest.mark.parametrize(
    ("question", "pair"),
    [
        ("Thuốc nào ngăn ngừa cháy nắng?", "cháy nắng"),
        ("thuốc cản quang nào dùng chụp X quang túi mật?", "túi mật"),
    ],
)
def test_no_drug_is_listed_for_a_common_word_alone(question: str, pair: str) -> None:
    # "phòng ngừa", "chụp X quang" are said by many indications; a drug listed says the
    # question's rare word or pair as well.
    result = answer_turn(question, provider=None)
    assert result.frame.drugs
    lead = result.blocks[0]
    for text, _ in lead.claims:
        assert pair.lower() in text.lower(), text


@pytest.mark.parametrize(
    ("question", "line"),
    [
        (
            # Said in the ADR management, not the cautions.
            "BN dùng amiodaron lâu dài cần theo dõi xét nghiệm gì về tuyến giáp?",
            "tuyến giáp",
        ),
        (
            # Said in the ADR management: the blood count of a patient on enalapril.
            "BN suy thận dùng enalapril cần theo dõi xét nghiệm gì định kỳ?",
            "đếm bạch cầu",
        ),
        ("bn dung furosemid lieu cao keo dai can theo doi gi?", "điện giải"),
    ],
)
def test_what_to_monitor_is_found_wherever_the_book_says_it(question: str, line: str) -> None:
    result = answer_turn(question, provider=None)
    assert result.frame.shape == "monitoring"
    assert delivery(result, line).before_collapsed


def test_a_drug_level_asked_for_is_a_monitoring_question() -> None:
    """ "Có bắt buộc đo nồng độ thuốc trong máu ko": the cautions' line telling the level is
    followed, in view."""
    result = answer_turn("bn dùng gentamicin có bắt buộc đo nồng độ thuốc trong máu ko")
    assert result.frame.attribute == "than_trong"
    assert delivery(result, "nồng độ gentamicin").before_collapsed


def test_a_loan_word_spelt_the_other_way_finds_the_books_dose_line() -> None:
    """ "polyp mũi" is the book's "polip mũi" in mometason's dose section (aciclovir prints
    "polyp"): the paragraph printing it is the dose's focus."""
    result = answer_turn("xịt mometason cho người lớn bị polyp mũi, liều thế nào?")
    assert delivery(result, "Để điều trị bệnh polip mũi").before_collapsed
