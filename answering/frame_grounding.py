"""Nothing enters the frame that the question did not say (issue 25).

A model's frame is read against the user's own words, the question and the conversation's
earlier user turns: a weight or an age only if the reader of quantities (answering.quantities)
reads the same one from them; a population or a route only if the phrase tables
(retrieval.phrases) find words for it; a condition, an allergy or a current medicine only if
its words are there; an unknown drug name only if it is a span of them. Anything else is
dropped and named. What the deterministic floor read stays as it read it: the model may fill
what the floor left empty, never overwrite it.

Under `json_schema` Gemma 3 270M put the understanding prompt's example weight (100 kg) into 9
of 15 frames, and "liều paracetamol cho trẻ em" then went on as a 100 kg child.
"""

from collections.abc import Sequence
from dataclasses import dataclass, replace

from answering.cues import POPULATION_CONDITIONS, age_months, book_words
from answering.reading import read
from corpus.text import folded_phrase
from retrieval.catalog import get_resolver
from retrieval.frame import TURN_TYPES, PatientContext, QueryFrame
from retrieval.phrases import populations, routes

# The patient flags and the populations whose words say them.
_FLAG_POPULATIONS = {
    "renal": "suy_than",
    "hepatic": "suy_gan",
    "pregnancy": "phu_nu_mang_thai",
    "breastfeeding": "cho_con_bu",
}
# Two readings of one weight or age: the reader's value against the model's number.
_SAME = 0.01


@dataclass(frozen=True)
class Said:
    """What the user's words say: the question and the earlier user turns, each read."""

    folded: str  # all lines, folded, one space-separated string with edges
    words: frozenset[str]
    weights: tuple[float, ...]
    ages: tuple[tuple[float, str], ...]  # (months, the reader's age text)
    populations: frozenset[str]
    routes: frozenset[str]
    drugs: frozenset[str]
    pregnant: bool


def said_in(floor: QueryFrame, question: str, history: Sequence[str]) -> Said:
    """The user's words read by the deterministic reader: the floor for the question (already
    read), `read()` for each earlier turn the model was shown."""
    earlier = [read(line).frame for line in history[-6:]]
    lines = [question, *history[-6:]]
    # The book's words too: "THA" is read as "tăng huyết áp", and a model may write either.
    folded = " ".join(folded_phrase(f"{line} {book_words(line)}") for line in lines)
    frames = [floor, *earlier]
    resolver = get_resolver()
    return Said(
        folded=f" {folded} ",
        words=frozenset(folded.split()),
        weights=tuple(f.weight_kg for f in frames if f.weight_kg is not None),
        ages=tuple(
            (f.age_months, f.age_text or "")
            for f in frames
            if f.age_months is not None and f.age_text
        ),
        populations=frozenset(
            [f.population for f in frames if f.population]
            + [p for line in lines for p in populations(line)]
        ),
        routes=frozenset(
            [f.route for f in frames if f.route] + [r for line in lines for r in routes(line)]
        ),
        drugs=frozenset(d for line in lines for d in resolver.resolve(line)),
        pregnant=any(f.pregnancy_weeks is not None for f in frames),
    )


def _words_said(value: str, said: Said) -> bool:
    words = folded_phrase(value).split()
    return bool(words) and all(w in said.words for w in words)


def _span_said(value: str, said: Said) -> bool:
    phrase = folded_phrase(value)
    return bool(phrase) and f" {phrase} " in said.folded


def ground(model: QueryFrame, floor: QueryFrame, said: Said) -> tuple[QueryFrame, list[str]]:
    """The model's frame with every value the user's words do not say dropped and every value
    the floor read put back, and what was dropped or kept, for the frame's note."""
    notes: list[str] = []
    changes: dict[str, object] = {}

    def keep_floor(name: str, value: object) -> bool:
        floor_value = getattr(floor, name)
        if floor_value in (None, "", ()):
            return False
        if value not in (None, "", ()) and value != floor_value:
            notes.append(f"{name}={value!r} (the question reads {floor_value!r})")
        changes[name] = floor_value
        return True

    def drop(name: str, value: object, why: str) -> None:
        notes.append(f"{name}={value!r} ({why})")
        changes[name] = None

    weight = model.weight_kg
    if not keep_floor("weight_kg", weight) and weight is not None:
        if not any(abs(w - weight) < _SAME for w in said.weights):
            drop("weight_kg", weight, "no such weight in the question")
    age = model.age_text
    if not keep_floor("age_text", age) and age:
        months = age_months(age)
        found = [
            t for m, t in said.ages if months is not None and abs(m - months) < _SAME * m + _SAME
        ]
        if found:
            changes["age_text"], changes["age_months"] = found[0], months
        else:
            drop("age_text", age, "no such age in the question")
            changes["age_months"] = None
    if floor.age_months is not None:
        changes["age_months"] = floor.age_months
    for name, pool, why in (
        ("population", said.populations, "no words for it in the question"),
        ("route", said.routes, "no words for it in the question"),
    ):
        value = getattr(model, name)
        if not keep_floor(name, value) and value and value not in pool:
            drop(name, value, why)
    for name in ("condition", "indication"):
        value = getattr(model, name)
        if not keep_floor(name, value) and value and not _words_said(value, said):
            drop(name, value, "its words are not in the question")
    unknown: list[str] = []
    seen = {folded_phrase(name) for name in floor.unknown_drugs}
    for name in model.unknown_drugs:
        if folded_phrase(name) in seen:
            continue  # the floor's, as the resolver spelled it
        if _span_said(name, said):
            seen.add(folded_phrase(name))
            unknown.append(name)
        else:
            notes.append(f"unknown_drugs={name!r} (not a span of the question)")
    changes["unknown_drugs"] = tuple(dict.fromkeys([*floor.unknown_drugs, *unknown]))
    changes["patient"] = _grounded_patient(model.patient, floor.patient, said, notes)
    if model.standalone_query and not _words_said(model.standalone_query, said):
        # Retrieval, the leads and the shapes read this text: a rewrite with words (or numbers)
        # the user never wrote would bring them in by the back door.
        notes.append("standalone_query (words not in the question)")
        changes["standalone_query"] = floor.standalone_query
    # What only the deterministic reader reads (the model's schema has no field for them).
    for name in ("pregnancy_weeks", "clcr", "quantities", "quantity_words", "not_loaded"):
        changes[name] = getattr(floor, name)
    if not model.did_you_mean:
        changes["did_you_mean"] = floor.did_you_mean
    return replace(model, **changes), notes  # type: ignore[arg-type]


def _grounded_patient(
    model: PatientContext, floor: PatientContext, said: Said, notes: list[str]
) -> PatientContext:
    allowed_conditions = {POPULATION_CONDITIONS.get(p) for p in said.populations}

    def kept(name: str, values: tuple[str, ...], ok: object) -> tuple[str, ...]:
        out = list(getattr(floor, name))
        for value in values:
            if value in out:
                continue
            if ok(value):  # type: ignore[operator]
                out.append(value)
            else:
                notes.append(f"patient.{name}={value!r} (not in the question)")
        return tuple(out)

    def medicine_said(value: str) -> bool:
        named = get_resolver().resolve(value)
        return (bool(named) and set(named) <= said.drugs) or _span_said(value, said)

    flags = {}
    for flag, population in _FLAG_POPULATIONS.items():
        value = getattr(model, flag) and (
            population in said.populations or (flag == "pregnancy" and said.pregnant)
        )
        if getattr(model, flag) and not value and not getattr(floor, flag):
            notes.append(f"patient.{flag} (no words for it in the question)")
        flags[flag] = bool(getattr(floor, flag) or value)
    return PatientContext(
        comorbidities=kept(
            "comorbidities",
            model.comorbidities,
            lambda v: v in allowed_conditions or _words_said(v, said),
        ),
        allergies=kept("allergies", model.allergies, lambda v: _words_said(v, said)),
        current_medicines=kept("current_medicines", model.current_medicines, medicine_said),
        **flags,
    )


def unsaid_turn_type(model: QueryFrame, floor: QueryFrame, said_type: object) -> QueryFrame:
    """A turn type the model did not give (missing, or outside the closed set) and no section
    with it: the floor's, not a default. Under json_schema Gemma 3 270M answered «Amlodipin là
    thuốc gì?» with `{"drugs": ["AMLODIPIN"]}`; the default made it a section question with no
    section, and a turn the no-model mode answers abstained (parent_hydration_failed)."""
    if said_type in TURN_TYPES or model.attribute or not floor.drugs:
        return model
    return replace(model, turn_type=floor.turn_type, attribute=floor.attribute)


def note_of(notes: Sequence[str]) -> str | None:
    """The frame's note for what grounding dropped or kept, kept in the audit."""
    return "model_values_dropped: " + "; ".join(notes) if notes else None
