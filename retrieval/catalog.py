"""Which drugs a question names: exact alias spans first, fuzzy suggestions only as a fallback.

The predecessor compiled ~10k regexes per call and measured resolve() at 0.65–0.7 s and
suggest() at 0.94–0.97 s, enough to exhaust a multi-turn request's budget. Here the alias
catalog is an immutable dict from folded token tuples to drug ids; resolve() enumerates the
question's contiguous token spans (O(q·L) lookups), and suggest() asks rapidfuzz over the
alias keys only for tokens that look like names. bench/resolver.py measures both.
"""

import logging
import re
import threading
import time
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache

from rapidfuzz import fuzz, process

from corpus.memory import give_back_freed_memory
from corpus.text import words
from retrieval import catalog_store, name_conflicts, slips
from retrieval.name_forms import ABBREVIATIONS, head_forms, measured, name_keys
from retrieval.turn_cache import once_per_turn

# Words that are never a drug on their own, whatever an alias table says (a brand called
# "Uống" or "Da" must not turn every question into a question about it).
COMMON_WORDS: frozenset[str] = frozenset(
    """uong thuoc lieu vien tiem dung cho nguoi benh tre em lon ngay lan gio mg ml kg g
    co khong duoc va voi hay hoac la gi nao bao nhieu the nao khi sau truoc trong ngoai
    da day dau sot ho tim gan than mat mui hong phoi mau sua nuoc an ngu di ve ra vao
    me be ba bau con bu thai bi nhu mot hai ba bon nam sau bay tam chin muoi tren duoi
    cach tac chi dinh chong tuong ky bao quan qua ngo doc xu tri phu nhe nang vua cao
    thap it nhieu rat hon nhat cua cac nhung nay do kia day roi se dang da nen can phai
    tot xau moi cu vien nang goi ong lo chai hop tuyp kem gel siro dich bot
    bac si duoc si benh nhan bn nl te acid natri kali calci magnesi clorid sulfat
    hydroclorid citrat phosphat vitamin""".split()
)

# What follows a brand's name on the box: strength, release form, "forte", the dosage form.
_BRAND_TAIL = frozenset(
    "sr xr xl cr mr er la dr ods odt retard forte plus mite tab tabs tablet caps capsule inj "
    "injection syrup siro vien nang goi ong tiem hon dich kem gel eye drops enteric coated "
    "film fc dt ec ds dispersible chewable".split()
)
_STRENGTH = re.compile(r"^\d+(?:[.,]\d+)?(?:mg|g|mcg|ml|iu|ui|%)?$")

SALTS = frozenset(
    "hydroclorid hydrobromid natri kali sulfat citrat clorid furoat phosphat maleat tartrat "
    "mesylat acetat besylat fumarat succinat bisulfat mesilat dihydrat monohydrat trihydrat "
    "propionat valerat dipropionat natri".split()
)
_MAX_SPAN = 8
_VI_SYLLABLE = re.compile(
    r"^(ngh|ng|nh|ch|gh|gi|kh|ph|qu|th|tr|[bcdghklmnpqrstvx])?"
    r"(uye|uya|ieu|uoi|uou|oai|oay|oeo|uay|uây|ia|ie|ua|uo|ue|ui|uu|ai|ao|au|ay|eo|eu|oa|oe"
    r"|oi|oo|ua|uy|iu|yeu|ye|[aeiouy])"
    r"(ch|ng|nh|[cmnptiyou])?$"
)
_UNITS = frozenset("mg ml kg g mcg ui iu mmol l dl h ph inr clcr atc adr qt ecg ast alt".split())


def looks_vietnamese(token: str) -> bool:
    """A folded token that can be one Vietnamese syllable (so it is not a drug name)."""
    return bool(_VI_SYLLABLE.match(token))


@dataclass(frozen=True)
class Resolution:
    drugs: tuple[str, ...]
    spans: tuple[tuple[str, str], ...]  # (matched text, drug id)
    not_loaded: tuple[str, ...] = ()  # names the book indexes but whose monograph is not loaded
    unknown: tuple[str, ...] = ()  # drug-like names found nowhere
    # An unknown name two letters from loaded names: (the name, ((loaded name, drug id), …)),
    # only "did you mean" (the seed: a name nothing exact supports never becomes another drug).
    near_misses: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()


@dataclass
class CatalogDrugResolver:
    loaded: dict[tuple[str, ...], frozenset[str]]
    not_loaded: dict[tuple[str, ...], frozenset[str]]
    display: dict[str, str] = field(default_factory=dict)
    # Every folded word of the loaded text: an unknown name the book itself uses
    # ("methemoglobin", "dengue") may be a condition's word (see `mentioned_in_book`).
    book_vocabulary: frozenset[str] = frozenset()

    def mentioned_in_book(self, token: str) -> bool:
        return token in self.book_vocabulary

    def generics_of(self, phrase: str) -> list[str]:
        """The active ingredients a not-loaded name stands for ("holoxan": "ifosfamide"), also
        as the book spells an INN ("ifosfamid": the final "e" dropped)."""
        ids = sorted(self.not_loaded.get(tuple(phrase.split()), ()))
        return list(dict.fromkeys(n for i in ids for n in (i, re.sub(r"(?<=[^aeiou])e$", "", i))))

    @classmethod
    def build(
        cls,
        loaded_names: Iterable[tuple[str, str]],
        index_names: Iterable[tuple[str, str]],
        display: dict[str, str] | None = None,
        book_vocabulary: Iterable[str] = (),
        ordinary: Collection[tuple[str, ...]] = (),
        key_of: Callable[[str], tuple[str, ...]] | None = None,
    ) -> "CatalogDrugResolver":
        """loaded_names: (name, drug_id) of loaded monographs; index_names: (name, ingredient
        id); ordinary: one-word brands the book's prose uses otherwise (`name_conflicts`)."""
        loaded: dict[tuple[str, ...], set[str]] = defaultdict(set)
        loaded_names_seen = list(loaded_names)
        key_of = key_of or name_keys()
        usable = cache(_usable)
        for name, drug_id in loaded_names_seen:
            key = key_of(name)
            if usable(key):
                loaded[key].add(drug_id)
        loaded_ids = {d for ids in loaded.values() for d in ids}
        for short, drug_id in ABBREVIATIONS.items():
            if drug_id in loaded_ids:
                loaded[tuple(short.split())].add(drug_id)
        for drug_id in loaded_ids:
            for form in salt_forms(drug_id):
                loaded.setdefault(form, {drug_id})
        index_names = list(index_names)
        for key, ids in head_forms(loaded_names_seen, index_names, _drug_like, key_of).items():
            loaded.setdefault(key, ids)
        others: dict[tuple[str, ...], set[str]] = defaultdict(set)
        for name, ingredient_id in index_names:
            key = key_of(name)
            if usable(key) and key not in loaded and ingredient_id not in loaded_ids:
                others[key].add(ingredient_id)
        elsewhere_of = name_conflicts.attributed_elsewhere(loaded, index_names, key_of)
        for key, elsewhere in elsewhere_of.items():
            others[key] |= elsewhere  # retrieval.name_conflicts: "Glyburid", then "amip"
        for key in [*others, *ordinary]:
            loaded.pop(key, None)
        # "Tegretol" for "Tegretol 200": only naming one loaded ingredient, nothing else so called.
        bases: dict[tuple[str, ...], set[str]] = defaultdict(set)  # "DEXTRAN 1" has no base
        headings = {key_of(h) for h in (display or {}).values()}
        for name, ingredient_id in [*loaded_names_seen, *index_names]:
            base = brand_base(name, key_of(name))
            if base is not None and key_of(name) not in headings:
                bases[base].add(ingredient_id)
        for base, ids in bases.items():
            if base in loaded or base in others:
                continue
            if not ids & loaded_ids:
                others[base] = ids  # known, not loaded, whichever spelling the index used
            elif len(ids) == 1:
                loaded[base] = ids
        return cls(
            {k: frozenset(v) for k, v in loaded.items()},
            {k: frozenset(v) for k, v in others.items()},
            display or {},
            frozenset(book_vocabulary),
        )

    def __post_init__(self) -> None:
        self._keys = [" ".join(k) for k in self.loaded]
        self._key_ids = list(self.loaded.values())
        self.resolve = lru_cache(maxsize=4096)(self._resolve)  # type: ignore[method-assign]
        self.suggest = lru_cache(maxsize=4096)(self._suggest)  # type: ignore[method-assign]
        self.resolve_detail = lru_cache(maxsize=4096)(self._resolve_detail)  # type: ignore[method-assign]

    def _resolve(self, text: str) -> tuple[str, ...]:
        return self._resolve_detail(text).drugs

    def _resolve_detail(self, text: str) -> Resolution:
        tokens = words(text)
        drugs: list[str] = []
        spans: list[tuple[str, str]] = []
        not_loaded: list[str] = []
        used = [False] * len(tokens)
        i = 0
        while i < len(tokens):
            hit = None
            for length in range(min(_MAX_SPAN, len(tokens) - i), 0, -1):
                key = tuple(tokens[i : i + length])
                if key in self.loaded:
                    hit = (length, self.loaded[key], True)
                    break
                if key in self.not_loaded:
                    hit = (length, self.not_loaded[key], False)
                    break
            # "albumin niệu": a lab value; "valproat huyết thanh": the drug's own level.
            if hit is not None and measured(tokens, i + hit[0], hit[1] if hit[2] else ()):
                used[i : i + hit[0]], hit = [True] * hit[0], None
            if hit is None:
                i += 1
                continue
            length, ids, is_loaded = hit
            phrase = " ".join(tokens[i : i + length])
            for drug_id in sorted(ids):
                if is_loaded:
                    spans.append((phrase, drug_id))  # every occurrence, in order
                    if drug_id not in drugs:
                        drugs.append(drug_id)
            if not is_loaded:
                not_loaded.append(phrase)
            for j in range(i, i + length):
                used[j] = True
            i += length
        unknown = []
        near_misses = []
        # The shorter the name, the likelier one slip lands on another real name: beside a named
        # drug, a six-letter slip ("Promit", DEXTRAN 1's brand; "Promid" is acetylcystein's) is
        # only offered back, never a second drug.
        named = set(drugs)
        for token, taken in zip(tokens, used, strict=True):
            if taken or not _drug_like(token):
                continue
            near = self._near_exact(token)
            if near is not None and len(token) == 6 and named and not near <= named:
                near = None
            if near is None and len(token) == 5 and not self.mentioned_in_book(token):
                near = self._isolated_slip(token)
            if near is not None:
                for drug_id in sorted(near):
                    if drug_id not in drugs:
                        drugs.append(drug_id)
                        spans.append((token, drug_id))
            else:
                unknown.append(token)
                # "Did you mean" only for a word the book never prints ("glôcôm", "atropin").
                if not self.mentioned_in_book(token) and (c := self._within_two_edits(token)):
                    near_misses.append((token, c))
        return Resolution(
            tuple(drugs), tuple(spans), tuple(not_loaded), tuple(unknown), tuple(near_misses)
        )

    def _near_exact(self, token: str) -> frozenset[str] | None:
        return slips.near_exact(token, self._keys, self._key_ids)

    def _isolated_slip(self, token: str) -> frozenset[str] | None:
        return slips.isolated_slip(token, self._keys, self._key_ids)

    def _within_two_edits(self, token: str) -> tuple[tuple[str, str], ...]:
        return slips.within_two_edits(token, self._keys, self._key_ids)

    def _suggest(self, text: str, k: int = 5, min_score: float = 0.55) -> list[tuple[str, float]]:
        """Fuzzy candidates for the tokens of a question that look like names."""
        scores: dict[str, float] = {}
        tokens = [
            t for t in words(text) if _drug_like(t) or (len(t) >= 4 and t not in COMMON_WORDS)
        ]
        for token in tokens:
            for _, score, position in process.extract(
                token, self._keys, scorer=fuzz.ratio, limit=k, score_cutoff=min_score * 100
            ):
                for drug_id in self._key_ids[position]:
                    scores[drug_id] = max(scores.get(drug_id, 0.0), score / 100)
        return sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))[:k]


def brand_base(name: str, tokens: Sequence[str] | None = None) -> tuple[str, ...] | None:
    """A brand's name without what follows it on the box (`Tegretol 200` → `tegretol`,
    `Glucophage XR` → `glucophage`, `Lapuvir-150` → `lapuvir`), or None when nothing is cut or
    what is left could be a common word (`tokens`: its words, when already split)."""
    cut = list(words(name) if tokens is None else tokens)
    size = len(cut)
    while len(cut) > 1 and (cut[-1] in _BRAND_TAIL or _STRENGTH.match(cut[-1])):
        cut.pop()
    if len(cut) == size or not cut:
        return None
    key = tuple(cut)
    if not _usable(key) or (len(key) == 1 and (len(key[0]) < 4 or looks_vietnamese(key[0]))):
        return None
    return key


def salt_forms(drug_id: str) -> list[tuple[str, ...]]:
    """How wards name an acid by its salt: ACID VALPROIC → valproat, natri valproat."""
    parts = drug_id.split("_")
    if len(parts) != 2 or parts[0] != "acid" or not parts[1].endswith("ic"):
        return []
    anion = parts[1][:-2] + "at"
    return [(anion,), ("natri", anion), ("kali", anion), ("calci", anion)]


def _usable(key: tuple[str, ...]) -> bool:
    if not key:
        return False
    if len(key) == 1 and (key[0] in COMMON_WORDS or len(key[0]) < 3 or key[0].isdigit()):
        return False
    return not all(t in COMMON_WORDS or t.isdigit() for t in key)


def _drug_like(token: str) -> bool:
    return (
        len(token) >= 5
        and token.isalpha()
        and token not in COMMON_WORDS
        and token not in _UNITS
        and token not in SALTS
        and not looks_vietnamese(token)
    )


# Resolvers built from the name tables, by the stamp of the tables they were built from; a
# new stamp builds a new one. The last few are kept: a stamp seen again is the same tables
# (the version only grows in use; a test's rolled-back edit returns to the previous stamp).
_cached: "OrderedDict[str, CatalogDrugResolver]" = OrderedDict()
_KEEP = 4
_lock = threading.Lock()
logger = logging.getLogger("duocthu.catalog")


def catalog_version() -> str:
    """The name tables' version (abbreviations and red flags move it too), once per turn: the
    stamp row alone, which triggers move (issue 23: three count(*) scans here cost 6 ms a
    turn at 7× the book)."""
    from corpus.models import catalog_stamp

    return once_per_turn("catalog", lambda: str(catalog_stamp()))


def get_resolver() -> CatalogDrugResolver:
    """The resolver over the database's aliases: this worker's, the one stored for the
    tables' version, or (by one worker at a time) built from the tables and stored."""
    stamp = catalog_version()
    with _lock:  # a worker's threads: one loads or builds, the others wait for it
        if stamp in _cached:
            _cached.move_to_end(stamp)
            return _cached[stamp]
        version = int(stamp)
        fields = catalog_store.load(version)
        if fields is None:
            with catalog_store.one_builder(version) as everyones:
                fields = catalog_store.load(version)  # built by another while this one waited
                if fields is None:
                    started = time.perf_counter()
                    built, chunks_version = build_resolver()
                    fields, seconds = vars(built), time.perf_counter() - started
                    if everyones:
                        catalog_store.store(version, chunks_version, fields, seconds)
                    logger.info("name catalog %s built in %.2f s", version, seconds)
        resolver = CatalogDrugResolver(
            fields["loaded"], fields["not_loaded"], fields["display"], fields["book_vocabulary"]
        )
        _cached[stamp] = resolver
        while len(_cached) > _KEEP:
            _cached.popitem(last=False)
        give_back_freed_memory()  # a build's or a snapshot's decoding's leftovers
        return resolver


def build_resolver() -> tuple[CatalogDrugResolver, int]:
    """The resolver built from the name tables, and the chunks' version its vocabulary read."""
    key_of = name_keys()
    loaded, index, display, brands = catalog_store.name_rows(SALTS, key_of)
    chunks_version, vocabulary = catalog_store.book_vocabulary()
    owners = catalog_store.prose_owners()
    ordinary = name_conflicts.book_words_among_brands(brands, owners, key_of)
    built = CatalogDrugResolver.build(loaded, index, display, vocabulary, ordinary, key_of)
    return built, chunks_version
