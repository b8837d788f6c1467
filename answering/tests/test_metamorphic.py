"""Paraphrases that must not move an answer (issue 17): the variant kinds, and the command."""

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from answering.management.commands.metamorphic import names_for
from answering.metamorphic import (
    KINDS,
    PADDING,
    PADDING_NEUTRAL,
    Names,
    abbreviations,
    brand,
    connector,
    greeting,
    no_diacritics,
    padding,
    typo,
    variants,
    yes_no,
)
from answering.understanding import understand
from retrieval.catalog import get_resolver

pytestmark = pytest.mark.django_db

WARFARIN_ASPIRIN = (("warfarin", "warfarin"), ("aspirin", "acid_acetylsalicylic"))


def test_diacritics_are_removed_and_case_kept() -> None:
    assert no_diacritics("Đái tháo đường dùng Metformin được không?") == [
        "Dai thao duong dung Metformin duoc khong?"
    ]


def test_abbreviations_replace_only_the_long_forms_present() -> None:
    made = abbreviations("Bệnh nhân 70 tuổi tăng huyết áp, captopril chống chỉ định gì không?")
    assert "BN 70 tuổi tăng huyết áp, captopril chống chỉ định gì không?" in made
    assert made[-1] == "BN 70t THA, captopril CCĐ gì ko?"  # all at once, last
    assert abbreviations("Tác dụng không mong muốn của amlodipin")[0] == "TDKMM của amlodipin"
    assert abbreviations("Liều amlodipin?") == []


def test_yes_no_endings_swap_and_keep_the_way_they_were_typed() -> None:
    assert yes_no("Bà bầu uống aspirin được không ạ?") == [
        "Bà bầu uống aspirin có sao không ạ?",
        "Bà bầu uống aspirin nên không ạ?",
        "Bà bầu uống aspirin có ảnh hưởng gì không ạ?",
    ]
    assert yes_no("ba bau uong aspirin co sao ko")[0] == "ba bau uong aspirin duoc ko"
    assert yes_no("Liều aspirin cho người lớn?") == []


def test_two_drugs_get_the_other_connectors_and_the_other_order() -> None:
    made = connector("Dùng warfarin với aspirin được không?", WARFARIN_ASPIRIN)
    assert "Dùng warfarin + aspirin được không?" in made
    assert "Dùng warfarin phối hợp aspirin được không?" in made
    assert made[-1] == "Dùng aspirin với warfarin được không?"
    assert len(made) == len(set(made)) == 6
    assert connector("Dùng warfarin rồi aspirin được không?", WARFARIN_ASPIRIN) == []


def test_a_drug_becomes_a_brand_and_a_brand_its_ingredient() -> None:
    names = Names(
        {"paracetamol": ("Panadol",)},
        {"paracetamol": "paracetamol"},
        {"paracetamol": {"paracetamol"}},
    )
    spans = (("paracetamol", "paracetamol"),)
    assert brand("Liều paracetamol cho trẻ?", spans, names) == ["Liều Panadol cho trẻ?"]
    spans = (("efferalgan", "paracetamol"),)
    assert brand("Efferalgan CCĐ gì?", spans, names) == ["paracetamol CCĐ gì?"]


def test_a_typo_slips_one_letter_of_a_long_name_only() -> None:
    made = typo("Liều amoxicilin?", (("amoxicilin", "amoxicilin"),))
    assert len(made) == 3
    assert all(len(v) - len("Liều amoxicilin?") in (-1, 0, 1) for v in made)
    assert typo("Liều NAC?", (("nac", "acetylcystein"),)) == []
    # A name typed one letter off already is not slipped again, nor a slip that is a name.
    assert typo("Liều amitriptilin?", (("amitriptilin", "amitriptylin"),), {"amitriptylin"}) == []
    assert len(typo("Liều amoxicilin?", (("amoxicilin", "amoxicilin"),), {"amoxicilin"})) == 3
    assert typo("Liều amoxicilin?", (("amoxicilin", "amoxicilin"),)) == made  # seeded


def test_padding_and_greeting_wrap_the_question_unchanged() -> None:
    question = "Liều amlodipin cho người tăng huyết áp?"
    before, after = padding(question)
    assert before.endswith(" " + question) and after.startswith(question + " ")
    assert greeting(question) == [
        "Chào chị, cho em hỏi: " + question,
        question + " Em cảm ơn ạ.",
    ]
    # A question that states its patient gets no second patient's age and sex.
    child = "Trẻ 5 tuổi dùng amlodipin?"
    before, after = padding(child)
    assert {before.removesuffix(" " + child), after.removeprefix(child + " ")} <= set(
        PADDING_NEUTRAL
    )


def test_padding_names_no_drug_and_no_patient() -> None:
    resolver = get_resolver()
    for sentence in PADDING:
        found = resolver.resolve_detail(sentence)
        assert not found.drugs and not found.unknown and not found.not_loaded, sentence
        frame = understand(sentence)
        assert frame.population is None and not frame.patient.has_context, sentence
        assert not (frame.patient.renal or frame.patient.hepatic or frame.patient.allergies)


def test_no_variant_equals_its_original_and_the_names_come_from_the_book() -> None:
    question = "Dùng warfarin với aspirin được không?"
    resolver = get_resolver()
    spans = resolver.resolve_detail(question).spans
    names = names_for({d for _, d in spans}, resolver)
    made = variants(question, spans, names)
    assert {k for k, _ in made} == set(KINDS)
    assert all(v != question for _, v in made)
    assert made == variants(question, spans, names)
    assert all(
        resolver.resolve(b) == ("acid_acetylsalicylic",)
        for b in names.brands["acid_acetylsalicylic"]
    )


def test_the_command_prints_one_line_per_kind_and_overall(corpus_dir: Path) -> None:
    dev = corpus_dir.parent.parent / "eval" / "dev.jsonl"
    out = StringIO()
    call_command("metamorphic", str(dev), "--limit", "3", "--show-failures", "2", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("questions with a must_contain: 3;")
    table = {line.split()[0]: line.split()[1:] for line in lines[2 : 3 + len(KINDS)]}
    assert list(table) == [*KINDS, "overall"]
    assert int(table["overall"][0]) == sum(int(table[k][0]) for k in KINDS) > 0
