"""Markdown pipe tables as rows, for showing a quarantined table as a table."""

import re

_SEPARATOR_RE = re.compile(r"^\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_BR_RE = re.compile(r"<br\s*/?>", re.IGNORECASE)


def table_rows(text: str) -> list[list[list[str]]]:
    """Rows of cells, each cell a list of lines (`<br>` splits lines). Separator rows dropped."""
    rows = []
    for line in text.strip().splitlines():
        line = line.strip()
        if not line.startswith("|") or _SEPARATOR_RE.match(line):
            continue
        cells = line.strip("|").split("|")
        rows.append([[part.strip() for part in _BR_RE.split(cell)] for cell in cells])
    return rows
