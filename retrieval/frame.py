"""The QueryFrame: what one turn asks, as understanding read it and retrieval searches for it.

Frozen: understanding builds it, retrieval reads it and returns what it decided (the drugs a
reverse lookup found, the section a condition was found in) as a new frame in its result.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db.models import TextChoices


class TurnType(TextChoices):
    """What a turn asks: the one spelling for understanding, retrieval, answers and audit."""

    DRUG_ATTRIBUTE = "drug_attribute", "Một mục của chuyên luận"
    DRUG_OVERVIEW = "drug_overview", "Tổng quan về thuốc"
    INTERACTION = "interaction", "Tương tác giữa các thuốc"
    SYMPTOM_TO_DRUG = "symptom_to_drug", "Thuốc cho một triệu chứng"
    CONDITION_TO_DRUG = "condition_to_drug", "Thuốc nào trị bệnh"
    DRUG_TO_CONDITION = "drug_to_condition", "Thuốc dùng để trị gì"
    CONDITION_RELATION = "condition_relation", "Thuốc và tình trạng của người bệnh"
    DOSING_CALC = "dosing_calc", "Liều theo cân nặng"
    SMALLTALK = "smalltalk", "Chào hỏi"
    OUT_OF_SCOPE = "out_of_scope", "Ngoài phạm vi"


TURN_TYPES: tuple[str, ...] = tuple(TurnType.values)


@dataclass(frozen=True)
class PatientContext:
    comorbidities: tuple[str, ...] = ()
    allergies: tuple[str, ...] = ()
    current_medicines: tuple[str, ...] = ()
    renal: bool = False
    hepatic: bool = False
    pregnancy: bool = False
    breastfeeding: bool = False

    @property
    def has_context(self) -> bool:
        """Whether anything here calls for per-facet safety lines."""
        return bool(
            self.current_medicines or self.comorbidities or self.pregnancy or self.breastfeeding
        )


@dataclass(frozen=True)
class QueryFrame:
    turn_type: str
    drugs: tuple[str, ...] = ()
    unknown_drugs: tuple[str, ...] = ()
    attribute: str | None = None
    population: str | None = None
    weight_kg: float | None = None
    age_text: str | None = None
    indication: str | None = None
    condition: str | None = None
    relation: str | None = None  # indication | adverse_effect | contraindication | unknown
    patient: PatientContext = field(default_factory=PatientContext)
    context_action: str = "none"  # none | continue | new
    route: str | None = None
    section_overview: bool = False
    standalone_query: str | None = None
    needs_clarify: bool = False
    clarify_reason: str | None = None
    quick_replies: tuple[str, ...] = ()
    system_error: str | None = None
    subject_scope: str = "human"
    not_loaded: tuple[str, ...] = ()
    # Unknown names close to loaded ones: (as typed, ((loaded name, drug id), …)); offered
    # back as "did you mean", never answered.
    did_you_mean: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()
    # What understanding found, for retrieval to search by: the situation in the user's
    # words ("viêm khớp dạng thấp", not the folded "viem khop dang thap") and the age in months.
    situation: str | None = None
    age_months: float | None = None
    age_band: str | None = None  # the book's band that holds the age, as retrieval found it
    # The question's numbers as read (answering.quantities), in the book's notation, for the
    # card to say what it understood: "Cân nặng: 12,5 kg", "Tuổi: 85 tuổi", "Clcr: 40".
    quantities: tuple[str, ...] = ()
    quantity_words: tuple[str, ...] = ()  # the words each was read from, as typed (not stored)
    pregnancy_weeks: float | None = None
    clcr: float | None = None  # ml/phút, as read from the question ("Clcr 30 ml/ph")
    # The other lab values read ("INR 9", "kali 6,2"), for the book's line of that range.
    labs: tuple[tuple[str, float], ...] = ()
    # Drugs the question names that another one's section answers for (the antidote of a
    # poisoning): not the subject, but their lines naming it are shown, never dropped.
    companions: tuple[str, ...] = ()
    # The drugs a which-drug question names the class of ("thuốc chống động kinh nào …"):
    # the answer is one of them.
    among: tuple[str, ...] = ()
    # What a which-drug question asks again of the drug found ("… thuốc nào …? Liều bao nhiêu?").
    asks_of_found: str = ""
    # An emergency the question describes (answering.red_flags: cap_cuu, ngo_doc, tu_hai).
    red_flag: str | None = None
    # Which understanding produced the frame when a model was asked: "model", "deterministic"
    # (the model's frame fell back to it) or "merged", and why ("model_empty_frame" …).
    # Whether the question asks if the drug may be given at all ("… được không", "có sao
    # không"): the contraindications are then in view whatever else leads (issue 18).
    asks_use: bool = False
    understood_by: str | None = None
    # The question shape that read the frame (answering.shapes), and the other readings that
    # fit the question, for the arbiter to weigh by their evidence; neither is stored.
    shape: str | None = None
    alternatives: tuple["QueryFrame", ...] = field(default=(), compare=False, repr=False)
    understanding_note: str | None = None

    def summary(self) -> dict[str, object]:
        """The fields shown in a result line and stored with a turn."""
        asked = (
            {"understood_by": self.understood_by, "understanding_note": self.understanding_note}
            if self.understood_by
            else {}
        )
        return {
            **asked,
            "turn_type": self.turn_type,
            # The companions too: the answer shows their lines (an antidote's regimen).
            "drugs": list(dict.fromkeys(self.drugs + self.companions)),
            "unknown_drugs": list(self.unknown_drugs),
            "attribute": self.attribute,
            "population": self.population,
            "weight_kg": self.weight_kg,
            "age_text": self.age_text,
            "age_months": self.age_months,
            "age_band": self.age_band,
            "condition": self.condition,
            "situation": self.situation,
            "relation": self.relation,
            "route": self.route,
            "needs_clarify": self.needs_clarify,
            "system_error": self.system_error,
            **({"quantities": list(self.quantities)} if self.quantities else {}),
            **({"red_flag": self.red_flag} if self.red_flag else {}),
        }

    @classmethod
    def from_summary(cls, data: Mapping[str, Any], **changes: Any) -> "QueryFrame":
        """A stored summary read back (the previous turn of a conversation)."""
        return cls(
            turn_type=data.get("turn_type") or "drug_attribute",
            drugs=tuple(data.get("drugs") or ()),
            unknown_drugs=tuple(data.get("unknown_drugs") or ()),
            attribute=data.get("attribute"),
            population=data.get("population"),
            weight_kg=data.get("weight_kg"),
            age_text=data.get("age_text"),
            condition=data.get("condition"),
            relation=data.get("relation"),
            route=data.get("route"),
            **changes,
        )
