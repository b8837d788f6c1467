"""Issues 17 and 18 on the real corpus: what every answer keeps in view whatever reading won.

The contraindication floor of a "may it be given" question, each drug of a pair answered,
no absence claim from a lexical miss (proved over the whole book), the plain ranked search
under "which drug" questions and under a question routed elsewhere, the elderly's dose lines.
"""

import pytest

from answering.delivery import delivery
from answering.turn import answer_turn
from corpus.models import Chunk
from corpus.text import fold
from retrieval.floor import book_lines
from retrieval.question_words import RARE_IDF, coverage, names_situation, situation_of, specificity

pytestmark = pytest.mark.django_db


def ask(question: str):  # type: ignore[no-untyped-def]
    return answer_turn(question, provider=None)


def in_view(result, key: str) -> bool:  # type: ignore[no-untyped-def]
    return delivery(result, key).before_collapsed


@pytest.mark.parametrize(
    ("question", "key"),
    [
        # An ADR paragraph of the eye drops shares "loét dạ dày": the contraindication leads.
        ("BN loét dạ dày tá tràng đang tiến triển. Cho Voltaren 75mg được không?", "Loét dạ dày"),
        # A newborn's jaundice: the contraindication is in a long section, its line is shown.
        ("Bé sơ sinh 6 ngày tuổi tăng bilirubin máu, dùng ceftriaxon được ko?", "tăng bilirubin"),
        # A week of pregnancy is read as its trimester, the book's words.
        ("Thai phụ 32 tuần đau răng, uống ibuprofen được không?", "Ba tháng cuối của thai kỳ"),
        ("bn dang con gut cap, bat dau allopurinol duoc khong", "Gút cấp"),
    ],
)
def test_a_may_it_be_given_question_keeps_the_contraindication_in_view(question, key) -> None:
    result = ask(question)
    assert in_view(result, key), [b.title for b in result.blocks if not b.collapsed]


@pytest.mark.parametrize(
    "question",
    [
        "Diclofenac dùng với warfarin được không?",
        "warfarin + diclofenac có sao ko",
        "BN đang uống warfarin, kê thêm diclofenac cần lưu ý gì?",
    ],
)
def test_two_drugs_named_are_both_answered_whatever_the_connector(question: str) -> None:
    result = ask(question)
    assert {"diclofenac", "warfarin"} <= set(result.frame.drugs)
    # Each one's lines are in view: the drugs of the paragraphs the blocks in view cite.
    cited = {i for b in result.blocks if not b.collapsed for _, c in b.claims for i in c}
    shown = {c.drug_id for c in result.citations if c.index in cited}
    assert {"diclofenac", "warfarin"} <= shown


def test_a_word_of_the_situation_printed_anywhere_forbids_the_absence_claim() -> None:
    result = ask("uống flagyl có được uống bia rượu không bác sĩ?")
    assert "Dược thư không nêu" not in result.answer_text
    assert in_view(result, "rượu")


@pytest.mark.parametrize(
    ("question", "printed"),
    [
        # Both words generic; the book's other phrase for it is in the ADR section.
        ("acebutolol uống bị nhức đầu có sao không?", "Đau đầu"),
        ("BN uống abacavir bị đau đầu có sao không?", "nhức đầu"),
    ],
)
def test_the_books_other_phrase_for_the_situation_forbids_the_absence_claim(
    question: str, printed: str
) -> None:
    result = ask(question)
    assert "Dược thư không nêu" not in result.answer_text
    assert in_view(result, printed)


def test_a_vignettes_leftover_words_are_never_quoted_as_the_phrase_not_found() -> None:
    result = ask(
        "bn nữ 40t làm văn phòng, hay đi du lịch, thích ăn cay, muốn bôi capsaicin giảm đau "
        "khớp gối được không?"
    )
    notices = [t for b in result.blocks for t, *_ in b.claims if "nêu đúng" in t]
    assert notices and all("«" not in t for t in notices)


def test_the_absence_claim_never_fires_where_a_contraindication_line_names_the_situation() -> None:
    """Over the whole book: the first contraindication line of every monograph, asked as the
    patient's situation, is never said to be absent from the book."""
    chunks = Chunk.objects.select_related("section__drug").filter(
        section__section_key="chong_chi_dinh", part_index=0
    )
    asked = 0
    for chunk in chunks:
        line = next((x for x in book_lines(chunk.text) if len(x.split()) >= 3), None)
        if line is None:
            continue
        situation = " ".join(line.rstrip(".").split()[:6]).lower()
        name = chunk.section.drug.heading.split("(")[0].strip().lower()
        result = ask(f"{name} dùng cho người {fold(situation)} được không?")
        assert "Dược thư không nêu" not in result.answer_text, (name, situation)
        asked += 1
    assert asked > 80


@pytest.mark.parametrize(
    "question",
    [
        "Thuốc nào điều trị gút?",
        "Thuốc nào có chỉ định liên quan đến bệnh gút?",
        "Trong sách có những thuốc nào dùng cho bệnh gút?",
    ],
)
def test_a_which_drug_question_answers_in_any_wording(question: str) -> None:
    result = ask(question)
    assert result.decision == "answer" and "alopurinol" in result.frame.drugs


def test_a_which_drug_question_no_phrase_matches_falls_back_to_the_ranked_indications() -> None:
    result = ask("Trong dược thư những loại thuốc nào có chỉ định cho methemoglobin huyết?")
    assert result.decision == "answer" and "xanh_methylen" in result.frame.drugs


def test_a_storage_question_routed_elsewhere_still_shows_the_storage_line() -> None:
    # The dose phrase "pha" routes to Liều lượng; the stability line answers.
    result = ask("insulin mở lọ rồi để ngoài tủ lạnh được mấy ngày?")
    assert any(b.section_key == "do_on_dinh_va_bao_quan" for b in result.blocks if not b.collapsed)


def test_an_elderly_patients_dose_shows_the_books_elderly_line() -> None:
    result = ask("Cụ ông 85t dùng lorazepam liều thế nào?")
    assert result.frame.population == "nguoi_cao_tuoi"
    assert in_view(result, "Người cao tuổi: 0,5 - 4 mg/ngày")
    assert "Tuổi: 85 tuổi" in result.answer_text


def test_a_situation_is_said_by_a_rare_word_or_pair_not_by_a_shared_word() -> None:
    situation = situation_of("BN có tiền sử co giật, dùng được không?")
    assert names_situation("Người bệnh có tiền sử co giật.", situation)
    assert not names_situation("Người bệnh có tiền sử dị ứng với penicilin.", situation)
    typed = situation_of("mụn trứng cá")
    assert not names_situation("thần kinh trung ương", typed)  # "trứng" is not "trung"


def test_the_patients_numbers_are_not_situation_words_but_b12_and_hba1c_are() -> None:
    # "4t", "16kg", "90phut" are read by the quantity reader and never printed so by the book:
    # counted, they halved the share of the question a paragraph naming the disease says.
    child = situation_of("be 4t 16kg thuy dau ngay 1, acyclovir uong lieu bn", ["acyclovir"])
    assert not any(w[0].isdigit() for w in child.weights)
    assert not any(part[0].isdigit() for pair in child.pairs for part in pair.split("_"))
    assert "thuy_dau" in child.pairs
    labs = situation_of("dùng metformin lâu có cần kiểm tra vitamin B12, HbA1c không")
    assert {"b12", "hba1c"} <= set(labs.weights)
    # The disease's dose paragraph now says most of what the question tells.
    assert coverage("Thủy đậu: Trên 2 tuổi: 20 mg/kg, tối đa 800 mg/lần", child) >= 0.3


def test_a_pair_said_across_a_commoner_compound_says_nothing_by_itself() -> None:
    # Typed without diacritics, "đo kính" folds to the "Do kinh" of "Do kinh nghiệm …": the
    # text's "kinh" belongs to "kinh nghiệm", so the pair alone is no specific saying; the
    # same pair beside others of the question still counts ("phòng dị" in "Dự phòng dị dạng
    # ống thần kinh" for "để phòng dị tật ống thần kinh").
    eyes = situation_of("can nho mat de do kinh, dung thuoc nao")
    amphotericin = "Do kinh nghiệm lâm sàng còn ít đối với các chế phẩm mới này"
    assert specificity(amphotericin, eyes) < RARE_IDF
    assert specificity("đo kính cho trẻ", eyes) >= RARE_IDF
    folate = situation_of("nên uống gì để phòng dị tật ống thần kinh")
    assert specificity("Dự phòng dị dạng ống thần kinh ở bào thai", folate) >= RARE_IDF


@pytest.mark.parametrize(
    "question",
    [
        "be 10t can nho mat lam mat dieu tiet de do kinh, dung thuoc nao?",
        "Bé 8 tuổi cần nhỏ thuốc liệt điều tiết trước khi đo kính, dùng thuốc gì?",
    ],
)
def test_the_books_phrase_for_a_ward_word_finds_the_indication(question: str) -> None:
    # "đo kính", "liệt điều tiết": the book's "liệt cơ thể mi để đo khúc xạ" (homatropin);
    # never the "Do kinh nghiệm" of another monograph's indication.
    result = answer_turn(question)
    assert result.frame.drugs[:1] == ("homatropin_hydrobromid",)
    assert "amphotericin_b" not in result.frame.drugs


def test_an_antidote_named_with_the_poison_is_shown_not_dropped() -> None:
    result = ask("BN uống 20 viên panadol 500mg cách đây 5 tiếng, truyền NAC liều thế nào?")
    assert result.frame.attribute == "qua_lieu_va_xu_tri"
    assert "acetylcystein" in result.frame.summary()["drugs"]  # type: ignore[operator]
    assert in_view(result, "Giải độc quá liều paracetamol")


@pytest.mark.parametrize(
    ("question", "key"),
    [
        # The other drug has no monograph here: the loaded one's lines naming it are in view.
        ("warfarin dùng chung với cimetidin được không?", "cimetidin"),
        ("BN đang uống warfarin, thêm rifampicin có sao không", "rifampicin"),
        # Mixed in one syringe or bag: the Tương kỵ line naming it, whatever the reading.
        ("pha warfarin tiêm chung với oxytocin được không", "tương kỵ với adrenalin"),
        ("vancomycin pha chung chai với heparin được không", "heparin natri"),
    ],
)
def test_a_second_drug_is_looked_for_in_the_lines_of_the_first(question: str, key: str) -> None:
    result = ask(question)
    assert in_view(result, key), [b.title for b in result.blocks if not b.collapsed]


@pytest.mark.parametrize(
    ("question", "drug"),
    [
        # A drug form between "thuốc" and "nào"/"gì" is still a which-drug question.
        ("thuốc nhỏ mắt nào làm giãn đồng tử để đo khúc xạ?", "homatropin_hydrobromid"),
        ("co thuoc uong nao tri dong kinh khong", "acid_valproic"),
        # A place or a name the book never prints does not make it an unknown drug.
        ("Đoàn đi leo Fansipan, có thuốc gì phòng say núi không?", "acetazolamid"),
    ],
)
def test_which_drug_in_ward_wordings_lists_the_books_indication(question: str, drug: str) -> None:
    result = ask(question)
    assert result.frame.turn_type == "condition_to_drug", result.reason
    assert drug in result.frame.drugs


@pytest.mark.parametrize(
    ("question", "line"),
    [
        # "May it be given" for what it is given for: the indication line saying the
        # patient's situation, in view with the contraindications.
        ("Bé 3 tuổi chẩn đoán Kawasaki, cho aspirin được không?", "hội chứng Kawasaki"),
        (
            "bn hemophilia sắp nhổ răng, cho acid tranexamic được không?",
            "nhổ răng ở người bị bệnh ưa chảy máu",
        ),
        ("bn bị say núi cho acetazolamid dc ko", "chứng say núi (say độ cao)"),
    ],
)
def test_may_it_be_given_shows_the_indication_saying_the_situation(
    question: str, line: str
) -> None:
    result = ask(question)
    assert in_view(result, line)
    assert any(b.section_key == "chong_chi_dinh" and not b.collapsed for b in result.blocks)


@pytest.mark.parametrize(
    ("question", "line"),
    [
        # Two drugs, one given for the other's harm: its indication naming the other (by
        # name or class) is in view, and no "không nêu đích danh" is said.
        (
            "BN dùng ibuprofen lâu ngày đau khớp, thêm omeprazol để bảo vệ dạ dày được không?",
            "loét do thuốc chống viêm không steroid",
        ),
        (
            "bn uống quá nhiều paracetamol, cho acetylcystein được không?",
            "Giải độc trong quá liều paracetamol",
        ),
    ],
)
def test_one_drug_given_for_the_others_harm_shows_its_indication(question: str, line: str) -> None:
    result = ask(question)
    assert in_view(result, line)
    assert "không nêu đích danh" not in result.answer_text


def test_a_disease_the_book_prints_is_never_looked_for_in_the_indications_as_a_drug() -> None:
    # "lupus" is a word of the book no monograph answers for: the monitoring line leads.
    result = ask(
        "BN lupus chuẩn bị dùng prednisolon liều cao kéo dài, trước điều trị cần làm XN gì?"
    )
    assert in_view(result, "phải kiểm tra điện tâm đồ, huyết áp")


@pytest.mark.parametrize(
    "question",
    [
        "BN uống cả vỉ acetaminophen tự tử, giải độc bằng gì?",
        "ngo doc paracetamol o tre 3 tuoi, xu tri the nao",
    ],
)
def test_an_overdose_shows_the_antidote_whose_indication_names_the_poison(question: str) -> None:
    # Only the poison is named: the antidote the book names in its own Chỉ định
    # (acetylcystein: "Giải độc trong quá liều paracetamol.") is shown beside its section.
    result = answer_turn(question)
    assert "acetylcystein" in result.frame.companions
    shown = " ".join(text for b in result.blocks for text, _ in b.claims)
    assert "Giải độc trong quá liều paracetamol." in shown


def test_a_drug_no_indication_names_as_a_poison_has_no_antidote() -> None:
    from retrieval.antidotes import antidotes_for

    assert antidotes_for("acetylcystein") == ()
    assert antidotes_for("paracetamol") == ("acetylcystein",)


@pytest.mark.parametrize(
    "question",
    [
        "bn chạy thận nhân tạo ngứa nhiều, bôi Gel Capsaic đc ko?",
        "BN chay than nhan tao, ngua toan than, dung capsaicin boi duoc ko",
    ],
)
def test_a_population_in_ward_words_is_looked_for_in_the_books_words_and_never_quoted(
    question: str,
) -> None:
    # The renal patient read from "chạy thận nhân tạo" / "lọc máu" is searched by the book's
    # and the ward's phrases ("do thẩm tách máu" in capsaicin's Chỉ định): no absence claim,
    # and no notice quoting a word the user never typed ("«clcr»").
    result = answer_turn(question)
    assert "không nêu" not in result.answer_text
    assert "«clcr»" not in result.answer_text
    assert delivery(result, "do thẩm tách máu").delivered


@pytest.mark.parametrize(
    "question",
    [
        "BN tâm thần phân liệt dùng haloperidol bị run, cứng đơ kiểu Parkinson. Amantadin có dùng "
        "cho trường hợp này ko?",
        "bn uong thuoc an than bi run cung kieu parkinson, cho amantadin duoc ko",
    ],
)
def test_may_it_be_given_finds_the_indication_by_the_books_other_phrase(question: str) -> None:
    # "cứng đơ kiểu Parkinson" is the book's "hội chứng ngoại tháp" (CONDITION_SYNONYMS): the
    # indication line saying it is in view under the contraindications.
    result = answer_turn(question)
    assert delivery(result, "Hội chứng ngoại tháp do các thuốc an thần kinh.").before_collapsed
