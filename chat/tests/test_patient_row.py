"""The table row holding the question's Clcr, weight or age is marked (issue 22)."""

from chat.templatetags.book_text import book_text

RENAL_POINTS = "| Độ thanh thải creatinin Clcr<br>(ml/phút) | Liều (mg/24 giờ) |\n|---|---|\n| 50 | 770 |\n| 40 | 620 |\n| 30 | 465 |"
RENAL_BANDS = "| Độ thanh thải<br>creatinin (ml/phút) | Cách dùng |\n|---|---|\n| > 50 | Không điều chỉnh |\n| 25 - 50 | 12 giờ |\n| 10 - 25 | 24 giờ |\n| < 10 | 48 giờ |"
HIGH_TO_LOW = "| Creatinin (micromol/l) | Độ thanh thải creatinin (ml/phút) | Giờ |\n|---|---|---|\n| ≤ 110 | > 100 | 12 |\n| 111 - 150 | 100 - 55 | 15 |"
BY_WEIGHT = (
    "| Cân nặng (kg) | Liều |\n|---|---|\n| < 10 | 5 mg |\n| 10 - 20 | 10 mg |\n| > 20 | 20 mg |"
)
BY_AGE = "| Tuổi | Liều |\n|---|---|\n| 3 - 6 tháng | 60 mg |\n| 2 - 4 tuổi | 180 mg |"


def _marked(table: str, frame: dict[str, object]) -> list[str]:
    html = str(book_text(table, frame))
    rows = html.split("<tr")[1:]
    return [r.split("<td>")[1].split("</td>")[0] for r in rows if 'class="patient-row"' in r]


def test_the_clcr_the_question_gives_marks_its_row() -> None:
    reading = {"quantities": ["Clcr: 40"]}
    assert _marked(RENAL_POINTS, reading) == ["40"]
    assert _marked(RENAL_BANDS, reading) == ["25 - 50"]
    assert _marked(RENAL_BANDS, {"quantities": ["Clcr: 8"]}) == ["&lt; 10"]
    assert _marked(HIGH_TO_LOW, {"quantities": ["Clcr: 60"]}) == ["111 - 150"]


def test_a_value_between_printed_points_marks_nothing_rather_than_a_guess() -> None:
    assert _marked(RENAL_POINTS, {"quantities": ["Clcr: 45"]}) == []


def test_weight_and_age_mark_their_bands() -> None:
    assert _marked(BY_WEIGHT, {"weight_kg": 12.5}) == ["10 - 20"]
    assert _marked(BY_AGE, {"age_months": 36.0}) == ["2 - 4 tuổi"]


def test_without_a_value_or_a_frame_nothing_is_marked() -> None:
    assert _marked(RENAL_BANDS, {}) == []
    assert 'class="patient-row"' not in str(book_text(RENAL_BANDS))
    assert _marked(BY_WEIGHT, {"quantities": ["Clcr: 40"]}) == []
