"""Two medicines together: the names one monograph prints for another, the chunks naming it,
and the per-facet safety searches of a patient's case."""

from collections.abc import Sequence

from corpus.sections import SectionKey
from corpus.text import words
from retrieval.catalog import SALTS, get_resolver
from retrieval.classes import class_words, classes_said
from retrieval.evidence import Evidence, SafetyFinding, unique_evidence
from retrieval.queries import find_by_section, find_condition_in_sections, own_names
from retrieval.slips import book_spellings


def names_printed_for(drug_id: str) -> list[str]:
    """The names another monograph may print for a drug: its own names, and without the salt
    ("moxifloxacin" for MOXIFLOXACIN HYDROCLORID, "amilorid" for AMILORID HYDROCLORID)."""
    names = own_names(drug_id)
    for name in list(names):
        parts = name.lower().split()
        if len(parts) > 1 and parts[-1] in SALTS:
            names.append(" ".join(parts[:-1]))
    return list(dict.fromkeys(names))


def unloaded_names(typed: str) -> list[str]:
    """A drug named as typed that has no monograph here: the name, and the monograph names the
    book's index gives it ("adrenalin" → "epinephrin", "Holoxan" → "ifosfamid"); a class
    phrase, its words."""
    generics = get_resolver().generics_of(" ".join(words(typed)))
    # A class said beside it ("đang uống bisoprolol … thuốc chẹn beta"): the class's words.
    said = [word for item in classes_said(typed) for word in item.words]
    spelt = [g.replace("_", " ") for g in generics]
    return list(dict.fromkeys([typed, *book_forms(typed), *spelt, *said]))


# The international spelling's endings as the book writes them ("lithium" → "lithi",
# "morphine" → "morphin", "furosemide" → "furosemid", "sulfate" → "sulfat").
_BOOK_ENDINGS = (
    ("ium", "i"),
    ("ine", "in"),
    ("ide", "id"),
    ("ate", "at"),
    ("one", "on"),
    ("ole", "ol"),
)


def book_forms(typed: str) -> list[str]:
    """A one-word name in its international spelling, as the book spells such names."""
    found = words(typed)
    if len(found) != 1 or len(found[0]) < 6:
        return []
    word = found[0]
    return [word[: -len(end)] + own for end, own in _BOOK_ENDINGS if word.endswith(end)]


def spelt_otherwise(typed: str) -> list[str]:
    """A one-word name the book lacks, as the book prints it one letter otherwise
    ("succinylcholin": "sucinylcholin"): looked for only where the name as typed is not."""
    found = words(typed)
    if len(found) != 1:
        return []
    return book_spellings(found[0], get_resolver().book_vocabulary)


def interaction_evidence(
    drug_id: str, other: str, sections: Sequence[str] = (SectionKey.TUONG_TAC_THUOC,)
) -> tuple[list[Evidence], str]:
    """The interaction chunks of `drug_id` (or those of other `sections`: Tương kỵ for a
    mixing question) that name `other`: by its own names, else by the words the book uses for
    its class ("coumarin" for warfarin). The second value is the class phrasing that found
    them, "" when a name did. A chunk is selected only when it names the medicine or its
    class, never as a whole section."""
    hits: list[Evidence] = []
    # A medicine no monograph here answers for ("lithi"): the name as typed, and the monograph
    # names the book's index gives it.
    loaded = other in get_resolver().display
    for name in names_printed_for(other) if loaded else unloaded_names(other):
        hits += find_condition_in_sections(drug_id, name, sections)
    for name in [] if loaded or hits else spelt_otherwise(other):
        hits += find_condition_in_sections(drug_id, name, sections)
    if hits:
        return unique_evidence(hits), ""
    via = ""
    for _, word in class_words(other) if loaded else ():
        found = find_condition_in_sections(drug_id, word, sections)
        if found and not via:
            via = word
        hits += found
    return unique_evidence(hits), via


def patient_safety(
    drug_id: str,
    *,
    current_medicines: Sequence[str] = (),
    conditions: Sequence[str] = (),
    pregnant: bool = False,
    breastfeeding: bool = False,
) -> list[SafetyFinding]:
    """Separate, facet-specific searches for one already-indicated drug."""
    findings = []
    for medicine in current_medicines:
        hits, via = interaction_evidence(drug_id, medicine)
        findings.append(SafetyFinding(drug_id, "interaction", medicine, hits, via))
    for condition in conditions:
        hits = find_condition_in_sections(
            drug_id, condition, [SectionKey.CHONG_CHI_DINH, SectionKey.THAN_TRONG]
        )
        findings.append(SafetyFinding(drug_id, "warning", condition, hits))
    if pregnant:
        findings.append(
            SafetyFinding(
                drug_id, "pregnancy", "", find_by_section(drug_id, SectionKey.THOI_KY_MANG_THAI)
            )
        )
    if breastfeeding:
        findings.append(
            SafetyFinding(
                drug_id,
                "breastfeeding",
                "",
                find_by_section(drug_id, SectionKey.THOI_KY_CHO_CON_BU),
            )
        )
    return findings
