"""Case files of the evaluation commands: one JSON object a line, blank lines skipped."""

import json
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError


def read_cases(path: Path) -> list[dict[str, Any]]:
    """The file's rows; a missing file or a line that is not JSON stops the command, naming
    the file and the line."""
    if not path.exists():
        raise CommandError(f"{path} does not exist")
    rows = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise CommandError(f"{path}:{n}: not JSON ({exc.msg})") from exc
    return rows
