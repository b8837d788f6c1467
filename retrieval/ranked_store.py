"""The ranked index's BM25 scores on disk, by the text they were built from.

With RANKED_INDEX_DIR set (the tests set it under var/), a process that needs the index of
paragraphs another process already scored loads the scores (numpy arrays and JSON, written by
bm25s itself: no pickle) instead of scoring the book again — ~2 s of CPU in every test
worker, every test server and every gunicorn worker the tests start. The key is the digest
of the paragraphs' text in row order and of the code that tokenizes and scores them, so a
changed book, tokenizer or bm25s version never meets an old file.
"""

import hashlib
import logging
import os
import shutil
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

import bm25s
from django.conf import settings

logger = logging.getLogger("duocthu.retrieval")

# A small book scores in milliseconds; only a real one is worth a file.
MIN_STORED_PARAGRAPHS = 500
KEEP = 4

_CODE = (Path(__file__).with_name("ranked.py"), Path(__file__).parents[1] / "corpus" / "text.py")


def stored_or_built(texts: Sequence[str], build: Callable[[], bm25s.BM25]) -> bm25s.BM25:
    """The BM25 model of `texts`, from disk when stored, without what only bm25s's own
    `retrieve` reads (a set of every token id: ~8 MB at 7× the book; `get_scores` reads the
    vocabulary)."""
    model = _stored_or_built(texts, build)
    model.unique_token_ids_set = None
    return model


def _stored_or_built(texts: Sequence[str], build: Callable[[], bm25s.BM25]) -> bm25s.BM25:
    root = getattr(settings, "RANKED_INDEX_DIR", None)
    if not root or len(texts) < MIN_STORED_PARAGRAPHS:
        return build()
    folder = Path(root) / _digest(texts)
    try:
        model = bm25s.BM25.load(str(folder), show_progress=False)
        os.utime(folder)  # the last used are kept
        return model
    except (OSError, ValueError):
        pass  # not stored yet (or half removed by a prune): score and store
    model = build()
    _store(Path(root), folder, model)
    return model


def _digest(texts: Sequence[str]) -> str:
    digest = hashlib.sha256(bm25s.__version__.encode())
    for path in _CODE:
        digest.update(path.read_bytes())
    for text in texts:
        digest.update(text.encode("utf-8"))
        digest.update(b"\0")
    return digest.hexdigest()[:32]


def _store(root: Path, folder: Path, model: bm25s.BM25) -> None:
    try:
        root.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=".building-", dir=root))
        model.save(str(work))
        try:
            work.rename(folder)  # whole or not at all; another process may have won
        except OSError:
            shutil.rmtree(work, ignore_errors=True)
        _prune(root)
    except OSError as exc:
        logger.warning("ranked index not stored in %s: %r", root, exc)


def _prune(root: Path) -> None:
    stored = sorted(
        (p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")),
        key=lambda p: p.stat().st_mtime,
    )
    for old in stored[:-KEEP]:
        shutil.rmtree(old, ignore_errors=True)
