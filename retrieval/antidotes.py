"""The antidotes the book names in their own indications ("Giải độc trong quá liều
paracetamol", acetylcystein): asked how to treat an overdose of one drug, each antidote's
lines naming it are shown beside its Quá liều và xử trí (issue 18: the antidote asked for is
never dropped because the question named only the poison)."""

from corpus.sections import SectionKey
from retrieval.floor import book_lines, says_any
from retrieval.pairs import names_printed_for
from retrieval.paragraphs import chunk_rows

# An indication line naming a drug with one of these is an antidote's (as printed; matched
# folded and word-bounded).
POISONING_WORDS = ("quá liều", "ngộ độc", "giải độc", "nhiễm độc")


def antidotes_for(drug_id: str) -> tuple[str, ...]:
    """The other loaded drugs whose Chỉ định names this one in a line about its overdose or
    poisoning, in book order."""
    names = names_printed_for(drug_id)
    chunks = (
        chunk_rows()
        .filter(section__section_key=SectionKey.CHI_DINH)
        .exclude(section__drug__drug_id=drug_id)
        .order_by("section__drug__drug_id", "section__order", "part_index")
    )
    found = [
        chunk.section.drug.drug_id
        for chunk in chunks
        if any(
            says_any(line, POISONING_WORDS) and says_any(line, names)
            for line in book_lines(chunk.text)
        )
    ]
    return tuple(dict.fromkeys(found))
