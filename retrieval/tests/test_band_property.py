"""Bands chosen by containment, proved on the book (issue 24).

Every age band and every weight band printed in any dose section of the shared corpus is
probed with values inside it, at both edges and just outside, read from a question by the one
reader of the question's numbers (`answering.quantities`): the band chosen for a value holds
it, and a weight band holds exactly the weights between its printed edges.
"""

import re

import pytest

from answering.quantities import read_quantities
from corpus.models import Chunk
from retrieval.bands import band_for, band_holds, band_months, child_bands, weight_in_bands
from retrieval.queries import _evidence

pytestmark = pytest.mark.django_db


def _dose_chunks() -> list:
    chunks = Chunk.objects.select_related("section__drug").filter(
        section__section_key="lieu_luong_va_cach_dung"
    )
    return [_evidence(c) for c in chunks]


def _ages_inside(low: float, high: float) -> set[tuple[str, float]]:
    """Ages as wards write them inside [low, high] months: whole months under two years,
    whole years from two, at both ends and the middle."""
    ages: set[tuple[str, float]] = set()
    for months in (low, (low + high) / 2, high):
        if months < 24 and low <= round(months) <= high:
            ages.add((f"bé {round(months)} tháng", float(round(months))))
        years = [y for y in (int(months // 12), int(months // 12) + 1) if low <= 12 * y <= high]
        ages.update((f"cháu {y} tuổi", 12.0 * y) for y in years if y >= 2)
    return ages


def test_every_age_band_in_the_book_holds_the_ages_inside_it_and_is_chosen_for_them() -> None:
    checked = 0
    for evidence in _dose_chunks():
        bands = child_bands([evidence])
        for label in bands:
            span = band_months(label)
            if span is None or span[1] == float("inf") or span[1] - span[0] < 1:
                continue
            low, high = span
            for question, months in _ages_inside(low, high):
                read = read_quantities(question)
                assert read.age_months == pytest.approx(months, rel=0.01), question
                chosen = band_for(bands, read.age.book if read.age else None, months)
                assert chosen is not None and band_holds(chosen, months), (label, months, chosen)
                checked += 1
            if low >= 2:
                assert not band_holds(label, low - 1), (label, "just below")
            assert not band_holds(label, high + 1), (label, "just above")
    assert checked > 100  # the book prints hundreds of age bands in this subset


_KG_RANGE = re.compile(r"(\d+(?:,\d+)?)\s*-\s*(\d+(?:,\d+)?)\s*kg(?!\s*/)")
_KG_BOUND = re.compile(r"([<>≤≥]|dưới|trên)\s*(\d+(?:,\d+)?)\s*kg(?!\s*/)")


def _kg(text: str) -> float:
    return float(text.replace(",", "."))


def test_every_weight_band_in_the_book_holds_exactly_the_weights_between_its_edges() -> None:
    checked = 0
    for evidence in _dose_chunks():
        for match in _KG_RANGE.finditer(evidence.text):
            band, low, high = match.group(0), _kg(match.group(1)), _kg(match.group(2))
            for weight in (low, (low + high) / 2, high):
                typed = f"bé nặng {weight:g} kg".replace(".", ",")
                read = read_quantities(typed).weight_kg
                assert read == pytest.approx(weight), typed
                assert weight_in_bands(read, band), (band, weight)
            assert not weight_in_bands(low - 0.1, band) and not weight_in_bands(high + 0.1, band)
            checked += 1
        for match in _KG_BOUND.finditer(evidence.text):
            band, sign, bound = match.group(0), match.group(1), _kg(match.group(2))
            below = sign in ("<", "≤", "dưới")
            inside, outside = (bound - 0.5, bound + 0.5) if below else (bound + 0.5, bound - 0.5)
            assert weight_in_bands(inside, band) and not weight_in_bands(outside, band), band
            checked += 1
    assert checked > 50


def test_every_clcr_band_in_the_book_holds_exactly_the_clearances_inside_it() -> None:
    from retrieval.bands import clcr_bands, clcr_holds

    checked = 0
    for evidence in _dose_chunks():
        for line in evidence.text.split("\n"):
            for low, high in clcr_bands(line):
                top = high if high != float("inf") else low + 100
                for value in {low, (low + top) / 2, top}:
                    if low <= value <= high:
                        assert clcr_holds(line, value), (line, value)
                alone = [b for b in clcr_bands(line) if b != (low, high)]
                if not alone and low >= 1:
                    assert not clcr_holds(line, low - 1), (line, "just below")
                checked += 1
    assert checked > 20


def test_the_patients_clearance_row_leads_a_renal_dose_answer() -> None:
    from answering.turn import answer_turn

    result = answer_turn(
        "BN suy thận Clcr 45 ml/phút dùng acid zoledronic liều bao nhiêu?", provider=None
    )
    assert "Clcr 40 - 49 ml/phút: 3,3 mg" in result.blocks[0].claims[0][0]


def test_a_band_from_an_age_on_is_open_above_and_the_latest_start_is_chosen() -> None:
    # The book's "Trẻ từ 12 tuổi:" and "Trẻ từ 16 tuổi trở lên và người lớn:" (acid valproic).
    bands = ["Trẻ từ 12 tuổi", "Trẻ từ 16 tuổi trở lên và người lớn"]
    assert band_months(bands[0]) == (144.0, float("inf"))
    assert band_for(bands, "13 tuổi", 13 * 12) == bands[0]
    assert band_for(bands, "17 tuổi", 17 * 12) == bands[1]
    assert band_months("Trẻ từ 2 - 5 tuổi") == (24.0, 60.0)  # a range stays a range


def test_an_age_between_the_books_bands_is_asked_back_never_guessed() -> None:
    from dataclasses import replace

    from retrieval.evidence import Outcome, Reason
    from retrieval.frame import QueryFrame
    from retrieval.searches import age_between_bands

    chunk = Chunk.objects.filter(section__section_key="lieu_luong_va_cach_dung").first()
    assert chunk is not None
    table = "Trẻ em 2 - 4 tuổi: 180 mg; Trẻ em 6 - 8 tuổi: 240 mg; Trẻ em 8 - 10 tuổi: 360 mg."
    evidence = [replace(_evidence(chunk), text=table)]
    frame = QueryFrame(turn_type="drug_attribute", drugs=(chunk.section.drug.drug_id,))
    five = replace(frame, population="tre_em", age_text="5 tuổi", age_months=60.0)
    asked = age_between_bands(five, evidence)
    assert asked is not None and asked.decision == Outcome.CLARIFY
    assert asked.reason == Reason.AGE_BETWEEN_BOOK_BANDS
    assert asked.quick_replies[0].startswith("Trẻ em 2 - 4 tuổi")
    three = replace(five, age_text="3 tuổi", age_months=36.0)
    assert age_between_bands(three, evidence) is None  # a band holds it: answered
    weighed = replace(five, weight_kg=18.0)
    assert age_between_bands(weighed, evidence) is None  # the weight answers
