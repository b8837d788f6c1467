"""Retrieval routes and the evidence decision, on the real corpus."""

import pytest

from corpus.models import Chunk
from retrieval.evidence import Outcome, decide
from retrieval.pairs import patient_safety
from retrieval.queries import (
    drug_overview,
    find_by_indication,
    find_by_section,
    free_form,
    lexical_search,
    pack,
    retrieve_section,
)

pytestmark = pytest.mark.django_db


def test_the_section_route_returns_the_whole_section_in_book_order() -> None:
    evidence = find_by_section("paracetamol", "lieu_luong_va_cach_dung")
    stored = Chunk.objects.filter(
        section__drug__drug_id="paracetamol", section__section_key="lieu_luong_va_cach_dung"
    ).count()
    assert len(evidence) == stored >= 10
    assert [e.chunk_id for e in evidence] == sorted(
        (e.chunk_id for e in evidence), key=lambda cid: Chunk.objects.get(id=cid).part_index
    )
    assert all(e.score == 1.0 and e.section_key == "lieu_luong_va_cach_dung" for e in evidence)


def test_than_trong_pools_the_contraindication_that_names_the_condition() -> None:
    evidence = retrieve_section(
        "ibuprofen", "than_trong", "ibuprofen thận trọng loét dạ dày", pool=True
    )
    pooled = [e for e in evidence if e.route == "pooled"]
    assert pooled and pooled[0].section_key == "chong_chi_dinh"
    assert "loét dạ dày" in pooled[0].text.lower()
    assert not any(e.section_key == "duoc_ly_va_co_che_tac_dung" for e in pooled)
    assert len({e.section_key for e in pooled}) <= 2


def test_a_dosage_question_never_receives_pooled_text() -> None:
    evidence = retrieve_section(
        "ibuprofen", "lieu_luong_va_cach_dung", "liều ibuprofen loét dạ dày", pool=True
    )
    assert {e.section_key for e in evidence} == {"lieu_luong_va_cach_dung"}


def test_a_bare_drug_name_gets_only_the_intro_sections_with_its_name_first() -> None:
    evidence = drug_overview("omeprazol")
    assert {e.section_key for e in evidence} <= {
        "ten_chung_quoc_te",
        "loai_thuoc",
        "chi_dinh",
        "duoc_ly_va_co_che_tac_dung",
    }
    assert evidence[0].text.startswith("【OMEPRAZOL】")
    assert all(e.kind == "prose" for e in evidence)


def test_free_form_ranks_the_answering_section_first_and_packs_to_the_budget() -> None:
    packed = free_form("nửa đời thải trừ", "paracetamol")
    assert packed.evidence[0].section_key == "duoc_dong_hoc"
    small = pack(free_form("nửa đời thải trừ", "paracetamol", max_tokens=100_000).evidence, 400)
    assert small.omitted_ids and sum(e.tokens() for e in small.evidence) <= 400


def test_exact_diacritics_rank_above_a_folded_only_match() -> None:
    exact = lexical_search("loét dạ dày", drug_id="ibuprofen")
    assert exact and "dạ dày" in exact[0].text


def test_reverse_lookup_finds_drugs_whose_indication_names_the_condition() -> None:
    drugs = {e.drug_id for e in find_by_indication("đái tháo đường typ 2")}
    assert {"metformin", "acarbose", "insulin"} <= drugs
    epilepsy = {e.drug_id for e in find_by_indication("động kinh")}
    assert {"carbamazepin", "phenytoin", "acid_valproic"} <= epilepsy


def test_a_made_up_condition_returns_nothing() -> None:
    assert find_by_indication("bệnh xanh lè ngoài hành tinh") == []


def test_patient_safety_reports_insufficient_evidence_never_safe() -> None:
    findings = patient_safety(
        "warfarin",
        current_medicines=["acid_acetylsalicylic"],
        conditions=["bệnh không có trong sách xyz"],
    )
    facets = {f.facet: f for f in findings}
    assert facets["interaction"].status == "evidence_found"
    assert facets["warning"].status == "insufficient_evidence"


def test_decide_abstains_without_evidence_or_provenance_and_flags_quarantine() -> None:
    assert decide([]).reason == "parent_hydration_failed"
    prose = find_by_section("omeprazol", "chi_dinh")
    assert decide(prose).decision == Outcome.ANSWER
    table = find_by_section("cetirizin_hydroclorid", "lieu_luong_va_cach_dung")
    verdict = decide(table)
    assert (
        verdict.decision == Outcome.VERIFY_PDF and verdict.reason == "visual_verification_required"
    )
    no_pages = [prose[0].__class__(**{**prose[0].__dict__, "page_start": None})]
    assert decide(no_pages).reason == "missing_provenance"


def test_a_situation_is_searched_in_every_clinical_section_contraindications_first() -> None:
    from answering.understanding import understand
    from retrieval.retrieve import SITUATION_SECTIONS, retrieve_for_frame

    assert SITUATION_SECTIONS[:2] == ("chong_chi_dinh", "than_trong")
    question = "bệnh nhân suy thận dùng vancomycin được không"
    retrieved = retrieve_for_frame(understand(question), question)
    assert retrieved.reason != "condition_not_named_in_book"
    assert retrieved.frame.attribute in SITUATION_SECTIONS
    assert all(e.section_key in SITUATION_SECTIONS for e in retrieved.evidence)
    assert any(
        term in e.text.lower() for e in retrieved.evidence for term in ("clcr", "suy thận", "thận")
    )
