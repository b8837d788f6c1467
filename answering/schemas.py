"""What a model must return, as pydantic schemas: the frame, the answer and the judge's verdict.

Strict: nothing is coerced, so `true` is not 1 kg, `"5"` is not a citation and a number is not
a list of drugs. Unknown keys are ignored. Anything off-schema is `malformed_output`, logged
with the payload; the turn abstains with that reason, never a 500.
"""

import functools
import json
import logging
import re
from typing import Any, Self, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from answering.providers import ProviderError, parse_json_object

logger = logging.getLogger("duocthu.schemas")

# How much of an off-schema payload the log keeps.
_LOGGED_PAYLOAD_CHARS = 2000


# A prompt's typed placeholder ("<drug_id trong danh sách>", "...") returned as it is: the
# prompts show only these as examples, so a copied example fails here (issue 25: Gemma copied
# the example weight 100 into 9 of 15 frames, and placeholders as the names not found).
# A placeholder starts right after "<"; the book's signs do not ("Clcr < 30 ml/phút").
_PLACEHOLDER = re.compile(r"<[^\s<>\d][^<>\d]{0,80}>|^\s*(?:\.{3}|…)\s*$")


def json_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON schema, a fresh copy (pydantic builds it anew each call, ~3 ms)."""
    return json.loads(_schema_text(model))


@functools.cache
def _schema_text(model: type[BaseModel]) -> str:
    return json.dumps(model.model_json_schema())


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)

    @model_validator(mode="after")
    def _no_placeholder(self) -> Self:
        for name, value in self:
            for item in value if isinstance(value, list) else [value]:
                if isinstance(item, str) and _PLACEHOLDER.search(item):
                    raise ValueError(f"{name}: a prompt's placeholder returned as it is")
        return self


class PatientOut(_Strict):
    comorbidities: list[str] | None = None
    allergies: list[str] | None = None
    current_medicines: list[str] | None = None
    renal: bool | None = None
    hepatic: bool | None = None
    pregnancy: bool | None = None
    breastfeeding: bool | None = None


class FrameOut(_Strict):
    """The understanding call's frame; values outside the closed sets are dropped later."""

    turn_type: str | None = None
    drugs: list[str] | None = None
    unknown_drugs: list[str] | None = None
    attribute: str | None = None
    population: str | None = None
    weight_kg: float | None = None
    age_text: str | None = None
    indication: str | None = None
    condition: str | None = None
    relation: str | None = None
    patient: PatientOut | None = None
    context_action: str | None = None
    route: str | None = None
    section_overview: bool | None = None
    standalone_query: str | None = None
    needs_clarify: bool | None = None
    clarify_reason: str | None = None
    quick_replies: list[str] | None = None


class ClaimOut(_Strict):
    text: str
    citations: list[int]
    drug_id: str | None = None


class AnswerOut(_Strict):
    claims: list[ClaimOut]
    evidence_sufficient: bool
    clarifying_question: str | None = None
    quick_replies: list[str] | None = None


class JudgedClaim(_Strict):
    index: int | None = None
    supported: bool
    reason: str | None = None


class MissingOut(_Strict):
    description: str
    evidence_quote: str


class VerdictOut(_Strict):
    claims: list[JudgedClaim]
    complete: bool
    missing: list[MissingOut] | None = None


Schema = TypeVar("Schema", bound=_Strict)


def parse_output(text: str, schema: type[Schema]) -> Schema:
    """The model's reply read as one JSON object of this schema, or `malformed_output`."""
    data: Any = parse_json_object(text)
    try:
        return schema.model_validate(data)
    except ValidationError as exc:
        payload = json.dumps(data, ensure_ascii=False)[:_LOGGED_PAYLOAD_CHARS]
        logger.warning("%s off schema: %s; payload %s", schema.__name__, exc.errors()[:3], payload)
        raise ProviderError(
            "malformed_output", f"{schema.__name__}: {exc.error_count()} errors"
        ) from exc
