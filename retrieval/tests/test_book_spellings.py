"""A drug the book has no monograph for, typed as one monograph prints it and another prints
it one letter otherwise ("succinylcholin" / dexpanthenol's "sucinylcholin"): the other
spelling finds the interaction line, only where the name as typed finds none (held-out set
16). Other monographs than the held-out set's."""

import pytest

from answering.turn import answer_turn
from retrieval.slips import book_spellings

pytestmark = pytest.mark.django_db


def _in_view(question: str) -> str:
    shown = []
    for block in answer_turn(question).blocks:
        if block.collapsed:
            break
        shown += [text for text, _ in block.claims]
    return " ".join(shown)


@pytest.mark.parametrize(
    ("question", "printed"),
    [
        ("Đang uống vitamin E, dùng thêm cholestyramin được không?", "colestyramin"),
        ("BN ghép thận dùng ciclosporin, kê thêm allopurinol có tương tác không?", "cyclosporin"),
        ("amitriptylin dùng chung ethosuximid được không", "ethosuxinid"),
    ],
)
def test_the_books_other_spelling_finds_the_interaction_line(question: str, printed: str) -> None:
    assert printed in _in_view(question).lower()


def test_only_a_long_word_one_letter_away_is_another_spelling() -> None:
    vocabulary = {"sucinylcholin", "succinylcholin", "insulin", "insuli"}
    assert book_spellings("succinylcholin", vocabulary) == ["sucinylcholin"]
    assert book_spellings("insulin", vocabulary) == []  # shorter than a long name


@pytest.mark.parametrize(
    "question",
    [
        "BN đang uống lithium, kê thêm captopril có sao không?",
        "đang dùng lithium mà uống furosemid được không",
        "Bệnh nhân lưỡng cực uống lithium, đau khớp dùng diclofenac được không?",
    ],
)
def test_an_international_spelling_finds_the_books(question: str) -> None:
    assert " lithi " in f" {_in_view(question).lower()} ".replace(",", " ")


def test_the_books_endings_of_an_international_spelling() -> None:
    from retrieval.pairs import book_forms

    assert book_forms("lithium") == ["lithi"]
    assert book_forms("furosemide") == ["furosemid"]
    assert book_forms("lithium carbonate") == []  # one word only
