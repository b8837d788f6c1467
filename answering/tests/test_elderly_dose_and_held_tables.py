"""An elderly patient's dose leads with the book's line for the elderly, and a table held for
the print check is said in view with its page (issue 18: every elderly / renal dose line in
view, or where to read it)."""

import pytest

from answering.results import NOTICE_TITLE
from answering.turn import answer_turn

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("question", "line"),
    [
        (
            "Cụ ông 80 tuổi dùng alteplase liều thế nào?",
            "Không nên dùng cho người già ngoài 80 tuổi.",
        ),
        (
            "bn nu 82t dung clopidogrel lieu bao nhieu",
            "Hiệu chỉnh liều ở những bệnh nhân suy thận, người già",
        ),
        (
            "Người cao tuổi dùng acenocoumarol liều khởi đầu?",
            "Liều khởi đầu phải thấp hơn liều người lớn.",
        ),
    ],
)
def test_an_elderly_patients_dose_leads_with_the_elderly_line(question: str, line: str) -> None:
    result = answer_turn(question)
    assert result.frame.population == "nguoi_cao_tuoi"
    lead = next(b for b in result.blocks if not b.collapsed)
    assert any(line in " ".join(text.split()) for text, _ in lead.claims)


def test_a_held_table_is_said_in_view_with_its_page() -> None:
    # Cetirizin's renal dose is a table awaiting a pharmacist's check of the print.
    result = answer_turn("BN suy thận Clcr 30 ml/phút dùng cetirizin liều bao nhiêu?")
    assert result.decision == "verify_pdf"
    first_folded = next((n for n, b in enumerate(result.blocks) if b.collapsed), len(result.blocks))
    held = [b for b in result.blocks[:first_folded] if b.title == NOTICE_TITLE]
    assert held, "the notice must be in view"
    cited = [result.citations[i - 1] for _, indices in held[0].claims for i in indices]
    assert cited and all(c.quarantined for c in cited)
    assert "tr. " in held[0].claims[0][0]  # the printed pages to read


@pytest.mark.parametrize(
    ("question", "line"),
    [
        # Asked whether it may be given, a clearance read: the dose section's renal line.
        ("bn 70t crcl 30 dung allopurinol dc ko", "Phải giảm liều alopurinol theo độ thanh thải"),
        # A dose asked with a clearance and no word of the kidney: the renal lines lead.
        ("bn K di căn xương, CrCl 45, truyền acid zoledronic liều bn", "Clcr 40 - 49 ml/phút"),
    ],
)
def test_a_clearance_read_shows_the_renal_dose_line_in_view(question: str, line: str) -> None:
    from answering.delivery import delivery

    result = answer_turn(question)
    assert result.frame.clcr is not None
    assert delivery(result, line).before_collapsed, line
