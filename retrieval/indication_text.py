"""The folded text of the paragraphs a which-drug question searches, kept per worker and per
version of the chunks (`corpus.ChunkStamp`, moved by a trigger on every write of them).

`find_by_indication` asks PostgreSQL's full-text index which paragraphs say each phrase of
the condition, then places the phrase in each paragraph's folded words to rank it. Those
paragraphs were fetched whole and folded again for every phrase: at 7× the book (issue 23)
that was 90 % of a which-drug turn (p95 29 → 67 ms as the matching paragraphs grew). Now the
index query returns ids only, the folded text comes from here (read and folded once per
version), and only the paragraphs that answer are fetched.
"""

import threading

from corpus.models import Chunk, ChunkStamp
from corpus.text import folded_phrase
from retrieval.turn_cache import once_per_turn

_lock = threading.Lock()
_texts: tuple[str, dict[int, str]] = ("", {})


def _stamp() -> str:
    version = ChunkStamp.objects.filter(pk=1).values_list("version", flat=True).first()
    return str(version or 0)


def folded_texts(ids: list[int]) -> dict[int, str]:
    """Each chunk's text as `folded_phrase` gives it, by id."""
    global _texts
    stamp = once_per_turn("chunks", _stamp)  # the same version the ranked index reads
    with _lock:
        if _texts[0] != stamp:
            _texts = (stamp, {})
        texts = _texts[1]
        missing = [pk for pk in ids if pk not in texts]
    if missing:
        read = Chunk.objects.filter(pk__in=missing).values_list("id", "text")
        folded = {pk: folded_phrase(text) for pk, text in read}
        with _lock:
            if _texts[0] == stamp:
                _texts[1].update(folded)
        texts = {**texts, **folded}
    return {pk: texts[pk] for pk in ids}
