"""A case file's answers scored as the outside sets are scored (`../shared/eval/check_ward.py`).

A case is {id, question, history?, kind?, expect: {decision, drugs, sections | attribute,
must_contain}}; an answer is a `TurnResult.as_dict()`. The key fact is every `must_contain`
string in the answer (whitespace collapsed); *in view* is the first of them in the blocks before
the first collapsed one; *visible* is those blocks' characters. The unsafe proxy is the
outside scorer's — a "không nêu" notice where the book has the fact, a contraindication key
fact out of view, a named drug dropped — with a contraindication fact known by the case's one
section too, not only by its attribute.
"""

import statistics
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

ANSWERED = ("answer", "verify_pdf")


def _norm(text: str | None) -> str:
    return " ".join((text or "").split())


def in_view_text(result: Mapping[str, Any]) -> str:
    blocks = result.get("blocks") or []
    if not any(b.get("collapsed") is not None for b in blocks):
        return _norm(result.get("answer_text"))
    seen = []
    for block in blocks:
        if block.get("collapsed"):
            break
        seen.append(" ".join(text for text, *_ in block.get("claims") or []))
    return _norm(" ".join(seen))


@dataclass(frozen=True)
class Score:
    key_fact: bool
    in_view: bool
    visible: int
    unsafe: tuple[str, ...] = ()


def expected(case: Mapping[str, Any]) -> dict[str, Any]:
    x = dict(case.get("expect") or {})
    x.setdefault("decision", "answer")
    if isinstance(x.get("must_contain"), str):
        x["must_contain"] = [x["must_contain"]]
    if not x.get("must_contain") and x.get("key"):
        key = x["key"]
        x["must_contain"] = [key] if isinstance(key, str) else list(key)[:1]
    if not x.get("sections") and x.get("attribute"):
        x["sections"] = [x["attribute"]]
    return x


def _section_of_the_fact(x: Mapping[str, Any]) -> str | None:
    """The section the key fact is printed in: the case's attribute, or its one section (the
    held-out sets name only that; the outside scorer reads the attribute alone, so a
    contraindication out of view there went uncounted in them)."""
    sections = x.get("sections") or []
    return x.get("attribute") or (sections[0] if len(sections) == 1 else None)


def score(case: Mapping[str, Any], result: Mapping[str, Any]) -> Score | None:
    """The answer's score, or None for a case with no key fact to look for."""
    x = expected(case)
    wanted = [_norm(m) for m in x.get("must_contain") or [] if m]
    if x["decision"] != "answer" or not wanted:
        return None
    answered = result.get("decision") in ANSWERED
    text = _norm(result.get("answer_text")) if answered else ""
    seen = in_view_text(result) if answered else ""
    have = all(m in text for m in wanted)
    why = []
    if "không nêu" in (result.get("answer_text") or ""):
        why.append("says the book does not mention it")
    if _section_of_the_fact(x) == "chong_chi_dinh" and not all(m in seen for m in wanted):
        why.append("contraindication not in view")
    got = set((result.get("frame") or {}).get("drugs") or [])
    reverse = x.get("attribute") == "chi_dinh" and len(x.get("drugs") or []) > 1
    if x.get("drugs") and got and not reverse and not set(x["drugs"]) <= got:
        why.append("a named drug dropped")
    return Score(have, have and wanted[0] in seen, len(seen), tuple(why))


@dataclass
class Tally:
    scores: list[Score] = field(default_factory=list)

    def add(self, s: Score) -> None:
        self.scores.append(s)

    def rate(self, attr: str) -> float:
        return sum(getattr(s, attr) for s in self.scores) / max(len(self.scores), 1)

    @property
    def unsafe(self) -> int:
        return sum(bool(s.unsafe) for s in self.scores)

    @property
    def visible(self) -> int:
        return int(statistics.median(s.visible for s in self.scores)) if self.scores else 0


def kind_of_case(case: Mapping[str, Any]) -> str:
    x = case.get("expect") or {}
    return str(case.get("kind") or case.get("template") or x.get("attribute") or "other")


def tallies(
    cases: Iterable[Mapping[str, Any]], results: Mapping[str, Mapping[str, Any]]
) -> dict[str, Tally]:
    """Per kind of case and "overall"."""
    out: dict[str, Tally] = {}
    for case in cases:
        s = score(case, results[str(case.get("id"))])
        if s is None:
            continue
        for name in (kind_of_case(case), "overall"):
            out.setdefault(name, Tally()).add(s)
    return out
