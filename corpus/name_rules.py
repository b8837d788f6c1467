"""What a pharmacist may add to the name tables: `check_name`, called by `Alias.clean()` and
`Abbreviation.clean()`, so the admin's forms refuse with the reason, in Vietnamese.

A name or an abbreviation decides which monograph and which section answer, so each is held
to the book (issue 19's red team saved all of these): `LIỀU → tương tác thuốc` sent every dose
question to interactions, `NL → trẻ em` showed children's doses to "paracetamol NL", a
ketorolac brand added to WARFARIN was answered with warfarin's dose, and `liều` or `người lớn`
as an alias pulled every question with that word to one drug.

The section, population and route tables and the drug-name resolver sit in `retrieval`; read
here only (the one upward import of `corpus`, inside the function).
"""

import re
from functools import cache
from typing import TYPE_CHECKING

from django.contrib.postgres.search import SearchQuery
from django.core.exceptions import ValidationError

from corpus.models import BookIndexEntry, Chunk
from corpus.sections import SECTION_TITLES
from corpus.sources import read_vn_brands
from corpus.text import drug_id_for, fold, folded_phrase, heading_parts, words

if TYPE_CHECKING:
    from corpus.models import Drug

# A word or phrase printed in this many monographs is the book's common wording, not a
# name ("liều" is in all 94, "người lớn" in 93; a brand is printed in its own monograph).
COMMON_IN_MONOGRAPHS = 3
# Shorter abbreviations are read only when typed in capitals (answering.cues), so a common
# word typed in lower case is never taken for them.
READ_IN_ANY_CASE = 3


def check_name(name: str, *, drug: "Drug | None" = None, expansion: str | None = None) -> None:
    """Raise ValidationError when `name` may not be an alias of `drug`, or (with `expansion`)
    an abbreviation written out as `expansion`."""
    name = name.strip()
    if not words(name):
        raise ValidationError("Tên cần có chữ hoặc số.")
    if expansion is not None:
        _check_abbreviation(name, expansion.strip())
    elif drug is not None:
        _check_alias(name, drug)


def _check_alias(name: str, drug: "Drug") -> None:
    from retrieval.catalog import get_resolver

    resolver = get_resolver()
    others = [d for d in resolver.resolve(name) if d != drug.drug_id]
    if others:
        named = ", ".join(resolver.display.get(d, d) for d in others)
        raise ValidationError(
            {"name": f"«{name}» đã là tên gọi của {named}: một tên chỉ trỏ tới một thuốc."}
        )
    for ingredient, ingredient_id, where in _brand_of(name):
        if ingredient_id != drug.drug_id and not _names_the_drug(ingredient, drug):
            raise ValidationError(
                {
                    "name": f"«{name}» là biệt dược của {ingredient} ({where}), không phải của "
                    f"{drug.heading}: hỏi tên này sẽ được trả lời bằng chuyên luận khác."
                }
            )
    meaning = _phrase_meaning(name)
    if meaning:
        raise ValidationError(
            {"name": f"«{name}» là cụm từ chỉ {', '.join(meaning)}, không phải tên thuốc."}
        )
    if not _names_the_drug(name, drug):
        spread = _monographs_printing(name)
        if spread >= COMMON_IN_MONOGRAPHS:
            raise ValidationError(
                {
                    "name": f"«{name}» là từ thông dụng của sách (in trong {spread} chuyên "
                    f"luận): làm tên gọi, mọi câu hỏi có từ này sẽ trỏ về {drug.heading}."
                }
            )


def _check_abbreviation(short: str, expansion: str) -> None:
    from retrieval.catalog import get_resolver

    missing = [w for w in expansion.split() if words(w) and not _book_prints(w)]
    if not words(expansion) or missing:
        raise ValidationError(
            {
                "expansion": "Sách không in: "
                + ", ".join(f"«{w}»" for w in missing or [expansion])
                + ". Viết đầy đủ bằng đúng chữ sách in (có dấu)."
            }
        )
    meaning, written = _phrase_meaning(short), _table_meaning(expansion)
    if meaning and not set(meaning) <= set(written):
        raise ValidationError(
            {
                "short": f"«{short}» đã được hiểu là {', '.join(meaning)}; "
                f"không thể viết thành «{expansion}»."
            }
        )
    resolver = get_resolver()
    named, meant = resolver.resolve(short), resolver.resolve(expansion)
    if named and set(named) != set(meant):
        heads = ", ".join(resolver.display.get(d, d) for d in named)
        raise ValidationError(
            {"short": f"«{short}» là tên gọi của {heads}; không thể viết thành «{expansion}»."}
        )
    if not meaning and len(fold(short)) >= READ_IN_ANY_CASE:
        spread = _monographs_printing(short)
        if spread >= COMMON_IN_MONOGRAPHS:
            raise ValidationError(
                {
                    "short": f"«{short}» là từ thông dụng của sách (in trong {spread} chuyên "
                    "luận): viết tắt này sẽ đổi nghĩa mọi câu hỏi có từ đó."
                }
            )


def _phrase_meaning(text: str) -> list[str]:
    """What the section, population and route tables read `text`, taken whole, as (folded:
    the abbreviations and the resolver read folded words), in Vietnamese."""
    from retrieval.section_phrases import SECTION_PHRASES
    from retrieval.situations import POPULATION_PHRASES, ROUTE_PHRASES

    key = folded_phrase(text)
    found = [
        f"{kind} «{title(k)}»"
        for kind, table, title in (
            ("mục", SECTION_PHRASES, SECTION_TITLES.__getitem__),
            ("đối tượng", POPULATION_PHRASES, lambda k: POPULATION_PHRASES[k][0]),
            ("đường dùng", ROUTE_PHRASES, lambda k: ROUTE_PHRASES[k][0]),
        )
        for k, phrases in table.items()
        if key in {folded_phrase(p) for p in phrases}
    ]
    return found


def _table_meaning(text: str) -> list[str]:
    """What the section, population and route tables read in `text`, in Vietnamese."""
    from retrieval.phrases import populations, routes, section_matches
    from retrieval.situations import POPULATION_PHRASES, ROUTE_PHRASES

    found = [f"mục «{SECTION_TITLES[k]}»" for k in sorted({m.key for m in section_matches(text)})]
    found += [f"đối tượng «{POPULATION_PHRASES[k][0]}»" for k in sorted(populations(text))]
    found += [f"đường dùng «{ROUTE_PHRASES[k][0]}»" for k in sorted(routes(text))]
    return found


def _book_prints(word: str) -> bool:
    """Whether the book's text has this word as typed (diacritics kept, case aside)."""
    query = SearchQuery(word, search_type="plain", config="simple")
    return Chunk.objects.filter(fts_exact=query).exists()


def _monographs_printing(phrase: str) -> int:
    """How many monographs print the phrase, with or without diacritics."""
    query = SearchQuery(" ".join(words(phrase)), search_type="phrase", config="vi_unaccent")
    return Chunk.objects.filter(fts_folded=query).values("section__drug_id").distinct().count()


def _names_the_drug(name: str, drug: "Drug") -> bool:
    """Whether the name holds one of the drug's own names whole ("Warfarin natri" for
    WARFARIN; not "natri", which every salt prints)."""
    own = [*heading_parts(drug.heading), *re.split(r"[,;()]", drug.inn), drug.drug_id]
    own[-1] = own[-1].replace("_", " ")
    padded = f" {folded_phrase(name)} "
    return any(f" {n} " in padded for n in map(folded_phrase, own) if n)


def _brand_of(name: str) -> list[tuple[str, str, str]]:
    """(ingredient, its drug id, which table) for each brand table row with this name."""
    key = " ".join(words(name))
    rows = [
        (ingredient, ingredient_id, f"mục lục sách, tr. {page}" if page else "biệt dược tại VN")
        for ingredient, ingredient_id, page in BookIndexEntry.objects.filter(
            folded=key
        ).values_list("ingredient", "ingredient_id", "page")
    ]
    rows += [(i, drug_id_for(i), "corpus/data/vn_brands.csv") for b, i in _vn_brands() if b == key]
    return rows


@cache
def _vn_brands() -> tuple[tuple[str, str], ...]:
    return tuple((" ".join(words(r.name)), r.ingredient) for r in read_vn_brands())
