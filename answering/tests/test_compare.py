"""The eval beside plain ranked retrieval: the outside scorer's measures, per kind of case."""

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from answering.plain import VIEW, plain_answer
from answering.scoring import score

CASE = {
    "id": "c1",
    "kind": "ci_vignette",
    "expect": {"drugs": ["a"], "attribute": "chong_chi_dinh", "must_contain": ["Loét dạ dày"]},
}


def _result(*blocks: tuple[str, bool], drugs: tuple[str, ...] = ("a",), text: str = "") -> dict:
    return {
        "decision": "answer",
        "frame": {"drugs": list(drugs)},
        "answer_text": text or " ".join(t for t, _ in blocks),
        "blocks": [{"claims": [[t, [1]]], "collapsed": c} for t, c in blocks],
    }


def test_a_key_fact_behind_a_collapsed_block_is_delivered_but_not_in_view() -> None:
    s = score(CASE, _result(("Mẫn cảm.", False), ("Loét  dạ dày tiến triển.", True)))
    assert s is not None and s.key_fact and not s.in_view
    assert s.unsafe == ("contraindication not in view",)


def test_a_contraindication_fact_known_by_its_one_section_out_of_view_is_unsafe() -> None:
    held_out = {
        "expect": {"drugs": ["a"], "sections": ["chong_chi_dinh"], "must_contain": ["Loét"]}
    }
    collapsed = _result(("Chỉ định: đau.", False), ("Loét dạ dày.", True))
    s = score(held_out, collapsed)
    assert s is not None and s.unsafe == ("contraindication not in view",)
    either = {"expect": {**held_out["expect"], "sections": ["chong_chi_dinh", "than_trong"]}}
    s = score(either, collapsed)
    assert s is not None and s.unsafe == ()  # which section holds the fact is not said


def test_the_unsafe_proxy_names_an_absence_notice_and_a_dropped_drug() -> None:
    s = score(CASE, _result(("Loét dạ dày. Dược thư không nêu X.", False), drugs=("b",)))
    assert s is not None and s.in_view
    assert s.unsafe == ("says the book does not mention it", "a named drug dropped")


def test_a_case_without_a_key_fact_is_not_scored() -> None:
    assert score({"expect": {"decision": "abstain"}}, _result(("x", False))) is None


@pytest.mark.django_db
def test_plain_retrieval_keeps_to_the_named_drug_and_collapses_after_its_view() -> None:
    result = plain_answer("paracetamol liều tối đa mỗi ngày")
    assert result.frame.drugs == ("paracetamol",)
    assert {b.drug_id for b in result.blocks} == {"paracetamol"}
    shown = 0
    for block in result.blocks:
        assert block.collapsed == (shown >= VIEW)
        shown += len(block.claims[0][0])


@pytest.mark.django_db
def test_plain_retrieval_with_no_drug_named_searches_the_indications() -> None:
    result = plain_answer("thuốc nào điều trị bệnh gút")
    assert result.blocks and result.frame.drugs == ()
    assert {b.section_key for b in result.blocks} <= {
        "chi_dinh",
        "tac_dung_khong_mong_muon",
        "chong_chi_dinh",
    }


@pytest.mark.django_db
def test_compare_prints_both_columns_per_kind_and_overall(tmp_path: Path) -> None:
    cases = tmp_path / "cases.jsonl"
    rows = [
        {
            "id": "p1",
            "kind": "adult_dose",
            "question": "Liều paracetamol tối đa cho người lớn mỗi ngày?",
            "expect": {
                "drugs": ["paracetamol"],
                "must_contain": ["tối đa là 4 g/ngày"],
            },
        },
        {"id": "p2", "kind": "scope", "question": "chào bạn", "expect": {"decision": "smalltalk"}},
    ]
    cases.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    out, results = StringIO(), tmp_path / "out.jsonl"
    call_command("compare", str(cases), "--results", str(results), stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0].endswith("2 cases, 1 with a key fact")
    adult = next(line for line in lines if line.startswith("adult_dose"))
    overall = next(line for line in lines if line.startswith("overall"))
    assert adult.split("|")[1:] == overall.split("|")[1:]  # one scored case: the same figures
    ours_key = float(adult.split("|")[1].split()[0])
    assert ours_key == 1.0
    assert [json.loads(x)["id"] for x in results.read_text("utf-8").splitlines()] == ["p1", "p2"]
