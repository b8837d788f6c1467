"""The names the book gives each drug (heading, other names, INN, trade names, the brand
index) as aliases, and the whole book index, synced in bulk inside the ingest transaction."""

import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from rapidfuzz import fuzz

from corpus.bulk import copy_rows
from corpus.models import Alias, BookIndexEntry, Drug
from corpus.sources import IndexRow, SourceMonograph
from corpus.text import drug_id_for, fold, heading_parts, nfc, words


@dataclass
class Changes:
    created: int = 0
    updated: int = 0
    deleted: int = 0


def clean_field(text: str) -> str:
    return text.replace("*", "").strip().rstrip(".").strip()


def _split_names(text: str) -> list[str]:
    text = text.replace("*", "")
    names = []
    for part in re.split(r"[;,]\s*|\n+", text):
        part = part.strip().rstrip(".").strip()
        if 1 < len(part) <= 120:
            names.append(part)
    return names


def _matcher(
    drugs: dict[str, Drug], by_key: dict[str, set[str]]
) -> Callable[[IndexRow], str | None]:
    """The loaded drug an index row names, or None when its monograph is not loaded.

    Thousands of rows share a few hundred (ingredient, page) pairs: each is matched once.
    """

    @cache
    def match(ingredient: str, page: int | None) -> str | None:
        direct = drug_id_for(ingredient)
        if direct in drugs:
            return direct
        hits = by_key.get(fold(ingredient).strip().rstrip("."), set())
        if len(hits) == 1:
            return next(iter(hits))
        # Same printed page as a loaded monograph, and a name that agrees with it.
        if page:
            for drug in drugs.values():
                if drug.page_start is None or drug.page_end is None:
                    continue
                if drug.page_start <= page <= drug.page_end:
                    names = [drug.drug_id.replace("_", " "), fold(drug.inn)]
                    if max(fuzz.token_set_ratio(fold(ingredient), n) for n in names) >= 85:
                        return drug.drug_id
        return None

    return lambda row: match(row.ingredient, row.page)


def _ingredient_keys(
    drugs: dict[str, Drug], monographs: list[SourceMonograph]
) -> dict[str, set[str]]:
    keys: dict[str, set[str]] = defaultdict(set)
    for source in monographs:
        parsed = source.parsed
        name, other = heading_parts(parsed.heading)
        drug = drugs[parsed.drug_id]
        for value in (name, other, drug.inn, parsed.drug_id.replace("_", " ")):
            for part in _split_names(value.replace("(", ",").replace(")", ",")):
                keys[fold(part)].add(parsed.drug_id)
        # The id without its scope: "salbutamol" for SALBUTAMOL (Dùng trong hô hấp).
        keys[fold(name)].add(parsed.drug_id)
    return keys


def _monograph_names(monographs: list[SourceMonograph]) -> dict[tuple[str, str, str], int | None]:
    """(drug id, name, kind) → page of every name a loaded monograph gives its drug."""
    wanted: dict[tuple[str, str, str], int | None] = {}
    headings = {" ".join(words(heading_parts(m.parsed.heading)[0])) for m in monographs}

    def want(drug_id: str, name: str, kind: str, page: int | None) -> None:
        name = nfc(name).strip()
        if name and words(name) and (drug_id, name, kind) not in wanted:
            wanted[(drug_id, name, kind)] = page

    for source in monographs:
        parsed = source.parsed
        name, other = heading_parts(parsed.heading)
        want(parsed.drug_id, parsed.heading, Alias.Kind.HEADING, source.page_start)
        want(parsed.drug_id, name, Alias.Kind.HEADING, source.page_start)
        if other and not fold(other).startswith("dung trong"):
            for part in _split_names(other):
                want(parsed.drug_id, part, Alias.Kind.OTHER_NAME, source.page_start)
        for part in parsed.other_names:
            want(parsed.drug_id, part, Alias.Kind.OTHER_NAME, source.page_start)
        inn = clean_field(parsed.field_text("ten_chung_quoc_te"))
        for part in _split_names(inn.replace("(", ",").replace(")", ",")):
            want(parsed.drug_id, part, Alias.Kind.INN, source.page_start)
        for part in _split_names(parsed.field_text("ten_thuong_mai")):
            want(parsed.drug_id, part, Alias.Kind.TRADE_NAME, source.page_end)
        for part in coded_forms(clean_field(parsed.field_text("ma_atc"))):
            # A combination's parts that have monographs of their own stay theirs.
            if " ".join(words(part)) not in headings:
                want(parsed.drug_id, part, Alias.Kind.INN, source.page_start)
    return wanted


# "Dexpanthenol: A11HA30; D03AX03, S01XA12. Calci pantothenat: A11HA31": each form the
# monograph codes on its own, named before its ATC code.
_CODED_FORM = re.compile(r"(?:^|[.;]\s*)([^\W\d][^:;.,]{2,40}?):\s*[A-Z]\d{2}[A-Z]")


def coded_forms(atc_field: str) -> list[str]:
    """The forms a monograph's Mã ATC line names with their own codes (dexpanthenol, calci
    pantothenat under ACID PANTOTHENIC), which wards prescribe by."""
    return [m.group(1).strip() for m in _CODED_FORM.finditer(atc_field)]


_INDEX_KINDS: dict[str, str] = {
    BookIndexEntry.Source.BRAND_INDEX: Alias.Kind.BRAND_INDEX,
    BookIndexEntry.Source.TRADE_NAMES: Alias.Kind.TRADE_NAME,
    BookIndexEntry.Source.VN_BRAND: Alias.Kind.VN_BRAND,
}


def _brand_drug(row: IndexRow, drugs: dict[str, Drug]) -> str | None:
    """The loaded drug a row of the project's brand table names, or None when its monograph
    is not loaded. The table spells each ingredient as the heading does, so it is matched by
    the heading's id and nothing looser (a guess would make a ward brand name a neighbour)."""
    drug_id = drug_id_for(row.ingredient)
    return drug_id if drug_id in drugs else None


def unambiguous_brands(
    monographs: list[SourceMonograph], index_rows: list[IndexRow]
) -> tuple[list[IndexRow], list[str]]:
    """The index rows without the project's brands that another name table already holds,
    and a line for each brand left out that names another drug.

    The admin refuses an alias that already names another drug ("Panadol" added to WARFARIN
    made a paracetamol question cite warfarin too, corpus/admin_names.py); the same rule for
    the brand table: a brand the book or a pharmacist already gives a drug is not loaded. For
    that same drug it would add nothing; for another, one name would answer with two drugs.
    """
    brands = {
        tuple(words(r.name)): r for r in index_rows if r.source == BookIndexEntry.Source.VN_BRAND
    }
    held: dict[tuple[str, ...], set[str]] = defaultdict(set)
    for drug_id, name, _ in _monograph_names(monographs):
        if (key := tuple(words(name))) in brands:
            held[key].add(drug_id)
    for row in index_rows:
        if row.source != BookIndexEntry.Source.VN_BRAND:
            if (key := tuple(words(row.name))) in brands:
                held[key].add(drug_id_for(row.ingredient))
    curated = Alias.objects.filter(kind=Alias.Kind.CURATED).values_list("name", "drug__drug_id")
    for name, drug_id in curated:
        if (key := tuple(words(name))) in brands:
            held[key].add(drug_id)
    kept, refused = [], []
    for row in index_rows:
        if row.source == BookIndexEntry.Source.VN_BRAND and (key := tuple(words(row.name))) in held:
            others = sorted(held[key] - {drug_id_for(row.ingredient)})
            if others:
                refused.append(
                    f"{row.path}:{row.line}: «{row.name}» already names {', '.join(others)}"
                )
            continue
        kept.append(row)
    return kept, refused


def sync_aliases(
    monographs: list[SourceMonograph],
    drugs: dict[str, Drug],
    index_rows: list[IndexRow],
) -> "Changes":
    """The book's names of each loaded drug, and the project's brands of it (`index_rows` as
    `unambiguous_brands` leaves them); names a pharmacist added are never removed."""
    changes = Changes()
    wanted = _monograph_names(monographs)
    match = _matcher(drugs, _ingredient_keys(drugs, monographs))
    for row in index_rows:
        if row.source == BookIndexEntry.Source.VN_BRAND:
            drug_id = _brand_drug(row, drugs)
        else:
            drug_id = match(row)
        name = nfc(row.name).strip()
        if drug_id is not None and words(name):
            wanted.setdefault((drug_id, name, _INDEX_KINDS[row.source]), row.page)
    # Rows as tuples (pk, source page): ~12 000 names, read on every ingest.
    existing = {
        (drug_id, name, kind): (pk, page)
        for pk, drug_id, name, kind, page in Alias.objects.values_list(
            "pk", "drug__drug_id", "name", "kind", "source_page"
        )
    }
    # Names a pharmacist added in the admin are not the book's, so ingest never removes them;
    # a drug the source lacks (retired) keeps all of its names, like its other rows.
    stale = [
        pk
        for key, (pk, _) in existing.items()
        if key not in wanted and key[2] != Alias.Kind.CURATED and key[0] in drugs
    ]
    if stale:
        Alias.objects.filter(pk__in=stale).delete()
        changes.deleted += len(stale)
    new = [
        (drugs[d].pk, n, " ".join(words(n)), k, p)
        for (d, n, k), p in wanted.items()
        if (d, n, k) not in existing
    ]
    copy_rows(Alias, ("drug_id", "name", "folded", "kind", "source_page"), new)
    changes.created += len(new)
    changed = [
        Alias(pk=pk, source_page=wanted[key])
        for key, (pk, page) in existing.items()
        if key in wanted and page != wanted[key]
    ]
    Alias.objects.bulk_update(changed, ["source_page"])
    changes.updated += len(changed)
    return changes


def sync_book_index(index_rows: list[IndexRow], drugs: dict[str, Drug]) -> "Changes":
    """The whole book's index, also for monographs that are not loaded, and the project's
    brands of drugs that are not loaded (reported as not loaded, like the book's)."""
    changes = Changes()
    by_key: dict[str, set[str]] = defaultdict(set)
    for drug in drugs.values():
        by_key[fold(drug.inn)].add(drug.drug_id)
    match = _matcher(drugs, by_key)
    wanted: dict[tuple[str, str, str], tuple[str, int | None]] = {}
    for row in index_rows:
        if row.source == BookIndexEntry.Source.VN_BRAND:
            if _brand_drug(row, drugs) is not None:
                continue  # an alias of the loaded drug (sync_aliases)
            loaded = None
        else:
            loaded = match(row)
        ingredient_id = loaded or drug_id_for(row.ingredient)
        key = (nfc(row.name), ingredient_id, row.source)
        wanted.setdefault(key, (nfc(row.ingredient), row.page))
    existing = {
        (name, ingredient_id, source): pk
        for pk, name, ingredient_id, source in BookIndexEntry.objects.values_list(
            "pk", "name", "ingredient_id", "source"
        )
    }
    stale = [pk for key, pk in existing.items() if key not in wanted]
    if stale:
        BookIndexEntry.objects.filter(pk__in=stale).delete()
        changes.deleted += len(stale)
    new = [
        (n, " ".join(words(n)), ing, i, page, s)
        for (n, i, s), (ing, page) in wanted.items()
        if (n, i, s) not in existing
    ]
    copy_rows(
        BookIndexEntry, ("name", "folded", "ingredient", "ingredient_id", "page", "source"), new
    )
    changes.created += len(new)
    return changes
