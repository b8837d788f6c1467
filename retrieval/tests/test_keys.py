"""The one spelling of sections, turn types and reasons (issue 17): every table keyed by them
uses the enumerations, and every role is a set of real section keys."""

import corpus.sections as sections
from answering.results import ABSTAIN_MESSAGES
from corpus.models import Section
from corpus.sections import SECTION_KEYS, SECTION_TITLES, SectionKey
from retrieval.evidence import Reason
from retrieval.frame import TURN_TYPES, QueryFrame, TurnType


def test_section_keys_are_the_models_choices_in_the_books_order() -> None:
    assert SECTION_KEYS == tuple(SectionKey.values)
    assert [key for key, _ in Section._meta.get_field("section_key").choices] == list(SECTION_KEYS)
    assert SECTION_TITLES[SectionKey.CHONG_CHI_DINH] == "Chống chỉ định"


def test_every_role_is_a_set_of_section_keys() -> None:
    roles = {
        name: value
        for name, value in vars(sections).items()
        if name.endswith("_SECTIONS") and name.isupper()
    }
    assert {"SITUATION_SECTIONS", "WARNING_SECTIONS", "PAIR_SECTIONS"} <= set(roles)
    for name, role in roles.items():
        keys = role.values() if isinstance(role, dict) else role
        assert keys and all(isinstance(k, SectionKey) for k in keys), name


def test_every_abstain_message_is_keyed_by_a_reason() -> None:
    assert set(ABSTAIN_MESSAGES) <= set(Reason.values)


def test_turn_types_read_back_from_a_stored_summary() -> None:
    assert TURN_TYPES == tuple(TurnType.values)
    frame = QueryFrame(turn_type=TurnType.INTERACTION, attribute=SectionKey.TUONG_TAC_THUOC)
    back = QueryFrame.from_summary(frame.summary())
    assert back.turn_type == "interaction" and back.attribute == "tuong_tac_thuoc"
