"""The arbiter on the real corpus (issue 17): every reading that fits is tried and the
evidence decides, within the rules that keep an answer safe."""

import pytest

from answering.delivery import delivery
from answering.extractive import extractive_answer
from answering.floors import view_text
from answering.shapes import REGISTRY, candidates, shape_of
from answering.shapes.arbiter import _readings, choose
from answering.turn import answer_turn
from answering.understanding import understand
from corpus.sections import SITUATION_SECTIONS, SectionKey
from retrieval.retrieve import retrieve_for_frame

pytestmark = pytest.mark.django_db


def _first_reading_view(question: str) -> str:
    frame = understand(question)
    shape = shape_of(frame)
    first = retrieve_for_frame(frame, question, shape.search if shape else None)
    return view_text(extractive_answer(first, counted=False).blocks, book_only=True)


def test_a_misfiring_cue_does_not_hide_the_paragraph_that_answers() -> None:
    # "… được không" reads as a contraindication question; the book answers it among the
    # indications, and the reading whose view says more of the question's words wins. The
    # card's own notices never count as the book saying them ("Trong câu hỏi có «…»").
    question = "acetazolamid dùng cho người leo núi phòng say độ cao được không"
    frame = understand(question)
    assert frame.attribute == SectionKey.CHONG_CHI_DINH
    chosen = choose(frame, question)
    assert chosen.frame.attribute == SectionKey.CHI_DINH
    shown = delivery(answer_turn(question, provider=None), "chứng say núi (say độ cao)")
    assert shown.before_collapsed


def test_two_shapes_read_the_same_question_and_the_stronger_prior_leads() -> None:
    frame = understand("Metformin có gây nhiễm toan lactic không?")
    assert frame.shape == "effect"
    assert {a.shape for a in frame.alternatives} == {"section"}
    assert all(a.drugs == frame.drugs for a in frame.alternatives)


@pytest.mark.parametrize(
    "question",
    [
        "BN suy gan nặng, HIV mới chẩn đoán, dùng abacavir được không?",
        "bn dang con gut cap, bat dau allopurinol duoc khong",
        "Thai phụ 32 tuần đau răng, uống ibuprofen được không?",
    ],
)
def test_a_may_it_be_given_question_is_never_answered_from_the_indications(
    question: str,
) -> None:
    frame = understand(question)
    assert frame.asks_use
    first = retrieve_for_frame(frame, question)
    assert all(other.attribute in SITUATION_SECTIONS for other in _readings(frame, first))
    chosen = choose(frame, question)
    assert chosen.frame.attribute != SectionKey.CHI_DINH
    # The contraindications stay in view whatever reading won.
    assert any(line.evidence.section_key == SectionKey.CHONG_CHI_DINH for line in chosen.floor)


def test_a_section_the_question_names_is_kept() -> None:
    question = "tre 3 tuoi may day, cetirizin uong lieu bao nhieu 1 ngay"
    frame = understand(question)
    assert frame.attribute == SectionKey.LIEU_LUONG_VA_CACH_DUNG
    first = retrieve_for_frame(frame, question)
    assert all(o.attribute == frame.attribute for o in _readings(frame, first))
    assert choose(frame, question).frame.attribute == SectionKey.LIEU_LUONG_VA_CACH_DUNG


def test_every_shape_is_registered_once_and_every_drug_question_has_the_section_floor() -> None:
    names = [shape.name for shape in REGISTRY]
    assert len(names) == len(set(names))
    from answering.reading import read

    found = candidates(read("bảo quản amoxicilin thế nào"))
    assert found[-1].shape == "section" or any(c.shape == "section" for c in found)
    assert [c.prior for c in found] == sorted((c.prior for c in found), reverse=True)
