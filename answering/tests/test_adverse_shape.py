"""A symptom the patient has since the drug, asked whether the drug caused it or what to do
(the adverse shape, `answering/shapes/adverse.py`), on monographs the outside sets' misses
were not about: the ADR management's line naming the symptom and what the book says to do
next, the ADR line naming it, both in view; a general "có gây … không" stays the effect's."""

import pytest

from answering.delivery import delivery
from answering.turn import answer_turn

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("question", "lines"),
    [
        (
            # What to do is in the management, asked as "xử trí sao".
            "BN tiêm heparin ngày thứ 3 thấy tiểu cầu giảm nhẹ, xử trí sao?",
            ["có thể đỡ khi tiếp tục điều trị"],
        ),
        (
            # Typed without diacritics, asked bare ("xu tri?").
            "bn dung morphin giam dau ung thu, buon non nhieu. xu tri?",
            ["có thể khắc phục bằng cách tiêm dưới da"],
        ),
        (
            # "Cần làm gì" after the symptoms: the management names them.
            "Uống metronidazol 3 ngày nay bị chóng mặt, lú lẫn. Cần làm gì?",
            ["Ngừng điều trị khi bị chóng mặt, lú lẫn, mất điều hòa."],
        ),
        (
            # Asked whether the drug caused it: the ADR list's line, and the management's
            # line naming it ("ù tai") with it.
            "Đang tiêm furosemid liều cao thì BN kêu ù tai, có phải do thuốc không?",
            ["ù tai"],
        ),
    ],
)
def test_the_symptoms_management_and_adr_lines_are_in_view(question: str, lines: list[str]) -> None:
    result = answer_turn(question, provider=None)
    assert result.frame.shape == "adverse", result.frame.shape
    for line in lines:
        assert delivery(result, line).before_collapsed, line


def test_a_sentence_ending_in_a_colon_brings_the_paragraph_it_introduces() -> None:
    # The book: "Điều trị phù mạch ở lưỡi, thanh môn hoặc thanh quản, bao gồm các biện pháp
    # sau:" and, a paragraph later, the measures. "Sưng môi" is the book's "phù mạch".
    result = answer_turn("bn uống enalapril bị sưng môi, sưng lưỡi. Xử trí thế nào?", provider=None)
    assert delivery(result, "Ngừng dùng enalapril và cho người bệnh vào viện").before_collapsed


def test_the_lead_names_the_symptom_before_the_paragraphs() -> None:
    result = answer_turn("BN uống captopril 1 tháng mất vị giác, có phải do thuốc?", provider=None)
    lead = result.blocks[0]
    assert "nêu trong sách" in lead.title
    assert "vị giác" in " ".join(text for text, _ in lead.claims)


def test_a_general_does_it_cause_question_stays_the_effects() -> None:
    result = answer_turn("Metformin có gây nhiễm toan lactic không?", provider=None)
    assert result.frame.shape == "effect"


def test_an_effect_told_as_history_is_no_symptom_now() -> None:
    result = answer_turn("tiền sử phù mạch, dùng captopril được không", provider=None)
    assert result.frame.shape != "adverse"
    assert result.frame.relation == "contraindication"


def test_a_symptom_no_paragraph_names_is_quoted_as_asked_without_an_absence_claim() -> None:
    result = answer_turn("BN uống amlodipin bị rụng tóc, có phải do thuốc không?", provider=None)
    assert result.decision == "answer"
    assert "không nêu" not in result.answer_text.lower()
    assert any(b.section_key == "tac_dung_khong_mong_muon" for b in result.blocks)


@pytest.mark.parametrize(
    ("question", "line"),
    [
        # A symptom told after the drug, asked whether it passes or the drug must stop, with
        # no section's word; the book's words for it ("Ỉa chảy", "phù cổ chân").
        (
            "mới uống metformin 1 tuần bị tiêu chảy, buồn nôn, có tự hết không?",
            "Ỉa chảy (10 - 53%)",
        ),
        (
            "đang truyền vancomycin thì bn đỏ bừng mặt cổ, ngứa, có phải ngưng không?",
            "phải ngừng thuốc ngay nếu thấy dấu hiệu này",
        ),
        # No ADR management printed: the ADR list answers, never an abstention.
        (
            "bắt đầu uống amlodipin thì bị phù mắt cá chân, có sao không?",
            "Phản ứng phụ thường gặp nhất của amlodipin là phù cổ chân",
        ),
    ],
)
def test_a_symptom_since_the_drug_asked_with_no_section_word(question: str, line: str) -> None:
    result = answer_turn(question)
    assert result.frame.shape == "adverse"
    assert result.decision == "answer"
    assert delivery(result, line).before_collapsed


@pytest.mark.parametrize(
    ("question", "line"),
    [
        # The story tells how long the drug has been taken ("được 3 hôm", "dc 4 hom") and asks
        # how to ease it, whether to stop, or whether to go on (written by a helper that never
        # read the code, kinds8 in bench/).
        (
            "bn nu 58t DTD moi doi sang Glucophage XR duoc 3 hom, cu uong xong la quan bung, "
            "di ngoai long 2-3 lan/ngay. Co cach nao do ma ko phai bo thuoc ko?",
            "Có thể tránh những ADR về tiêu hóa nếu uống metformin vào bữa ăn",
        ),
        (
            "Bà cụ uống ibuprofen 400 đau gối được 10 hôm, sáng nay kêu mắt nhòe, nhìn đèn xanh "
            "đèn đỏ không phân biệt rõ. Có phải ngưng không?",
            "rối loạn cảm nhận màu sắc thì phải ngừng dùng ibuprofen",
        ),
        (
            "bn dong kinh moi bat dau Tegretol 200 dc 4 hom, ngu ga ca ngay, di loang choang. "
            "Dung tiep dc ko?",
            "thường tự hết trong một vài ngày hoặc sau khi tạm thời giảm liều",
        ),
    ],
)
def test_a_story_told_by_how_long_the_drug_was_taken(question: str, line: str) -> None:
    result = answer_turn(question)
    assert result.frame.shape == "adverse"
    assert delivery(result, line).before_collapsed


@pytest.mark.parametrize(
    ("question", "line"),
    [
        # Stopped since ("đã ngưng, giờ hết"), asked whether it may be given again.
        (
            "bn tiêm vancomycin bị đỏ bừng mặt cổ, đã ngưng, giờ hết, truyền lại được ko?",
            "cần truyền thuốc chậm trong khoảng 60 phút",
        ),
        # Another medicine no monograph answers for, asked as the remedy ("để đỡ").
        (
            "bn uống captopril bị ho khan kéo dài, cho thêm siro ho dextromethorphan để đỡ "
            "được không?",
            "CAPTOPRIL",
        ),
    ],
)
def test_a_story_stopped_since_or_asking_a_remedy_reads_as_the_symptom(
    question: str, line: str
) -> None:
    result = answer_turn(question)
    assert result.frame.shape == "adverse"
    assert result.frame.attribute == "huong_dan_cach_xu_tri_adr"
    assert any(
        b.section_key == "huong_dan_cach_xu_tri_adr" and not b.collapsed for b in result.blocks
    )
    assert delivery(result, line).before_collapsed


def test_given_again_after_a_reaction_shows_the_management_and_the_contraindications() -> None:
    """A rechallenge ("uống lại được ko") after a reaction: what the management says of it,
    with the contraindications in view (a may-it-be-given question keeps its floor)."""
    result = answer_turn(
        "bn HIV dùng Ziagen được 2 tuần thì sốt, nổi ban, mệt, đã ngừng thuốc nay đỡ. BN hỏi "
        "uống lại được ko?"
    )
    assert result.frame.shape == "adverse"
    assert delivery(result, "không được dùng lại").before_collapsed
    assert delivery(result, "Dị ứng với abacavir").before_collapsed


def test_a_short_management_is_in_view_for_a_symptom_in_other_words() -> None:
    """A symptom in other words ("đau ngực nhiều hơn" is the book's "đau thắt ngực tăng
    lên"): a short ADR management is read whole, so its line is in view."""
    result = answer_turn(
        "bn mach vanh moi bat dau Adalat, 2 ngay nay dau nguc nhieu hon truoc, co lien quan "
        "thuoc khong?"
    )
    assert delivery(result, "đau thắt ngực tăng lên do huyết áp giảm đột ngột").before_collapsed


def test_a_switch_to_another_drug_is_no_symptom() -> None:
    result = answer_turn(
        "BN đang uống bisoprolol, muốn chuyển sang clonidin, có cần ngừng trước không?"
    )
    assert result.frame.shape != "adverse"


@pytest.mark.parametrize(
    ("question", "line"),
    [
        # The ADR section's word said ("tác dụng phụ"), what to do asked: the management is in
        # view though none of its sentences says "khô miệng" or "táo bón".
        (
            "Uống amitriptylin bị khô miệng, táo bón, cách hạn chế tác dụng phụ?",
            "hạ huyết áp thế đứng",
        ),
        (
            "bn dung carbamazepin bi chong mat buon ngu, co can ngung thuoc ko",
            "Có thể giảm thiểu các tác dụng này bằng bắt đầu điều trị với liều thấp",
        ),
    ],
)
def test_what_to_do_asked_with_the_adr_word_shows_the_management(question: str, line: str) -> None:
    result = answer_turn(question)
    assert result.frame.attribute == "huong_dan_cach_xu_tri_adr"
    assert delivery(result, line).before_collapsed, line


def test_a_class_word_the_book_prints_asked_as_the_remedy_keeps_the_adverse_reading() -> None:
    # "kháng histamin" is no monograph's name but a word the book prints: the question stays a
    # symptom since the drug, answered by the ADR management.
    result = answer_turn(
        "bn dang dung amoxicilin bi noi may day, co can ngung ko hay uong them khang histamin"
    )
    assert result.frame.shape == "adverse"
    assert delivery(result, "Mày đay, các dạng ban khác").before_collapsed


@pytest.mark.parametrize(
    ("question", "line"),
    [
        # A symptom told since the drug, then stop-or-lower asked: "giảm liều" is one of the
        # choices, not a dose question.
        (
            "BN mới bắt đầu carbamazepin được 1 tuần thì chóng mặt, buồn ngủ nhiều, có cần "
            "ngừng thuốc không hay giảm liều?",
            "Có thể giảm thiểu các tác dụng này bằng bắt đầu điều trị với liều thấp",
        ),
        (
            "Uống Brufen được 10 ngày thì nhìn mờ, thấy màu sắc khác đi; có cần ngừng hay giảm "
            "liều là được?",
            "thì phải ngừng dùng ibuprofen",
        ),
        # A reaction named as such and how to limit it asked, beside a section's word ("pha").
        (
            "Truyền vancomycin hay gây phản ứng đỏ bừng, làm sao hạn chế khi pha và truyền?",
            "cần truyền thuốc chậm trong khoảng 60 phút",
        ),
        # "tác dụng phụ … có thuốc gì": a remedy for the drug's own reaction, not its ADR list.
        (
            "Dán clonidin bị đỏ da chỗ dán, tác dụng phụ này có thuốc gì bôi được không?",
            "bơm một khí dung corticosteroid cục bộ",
        ),
        (
            "Ciprobay uống để tránh phản ứng tinh thể niệu thì dặn BN gì về liều và nước uống?",
            "duy trì đủ lượng nước uống vào",
        ),
    ],
)
def test_what_to_do_about_a_reaction_is_the_adr_management_whatever_section_word_is_said(
    question: str, line: str
) -> None:
    result = answer_turn(question)
    assert result.frame.attribute == "huong_dan_cach_xu_tri_adr", result.frame
    assert delivery(result, line).before_collapsed


def test_undoing_a_drugs_effect_stays_its_overdose() -> None:
    # "dùng thuốc gì để đảo ngược" of a lab value is the overdose section's (retrieval's lab
    # lines), not the ADR management's, though a story since the drug is told.
    result = answer_turn(
        "BN đang dùng warfarin, INR 9,5, chảy máu cam. Dùng thuốc gì để đảo ngược?"
    )
    assert result.frame.attribute == "qua_lieu_va_xu_tri"
