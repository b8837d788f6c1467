"""The embedded database is shared safely: a command that finds it running never stops it."""

import subprocess
import sys
from pathlib import Path

import pytest

from duocthu import devdb

# Each process points the module at a database folder of this test's own, then starts or
# attaches as `make run` (stop_at_exit=False) or any `manage.py` command (the default) does.
_SCRIPT = """
import sys
from pathlib import Path
import duocthu.devdb as d
d.PGDATA = Path(sys.argv[1])
print(d.start(stop_at_exit=sys.argv[2] == "stop"))
"""


def _start(pgdata: Path, mode: str) -> None:
    subprocess.run(
        [sys.executable, "-c", _SCRIPT, str(pgdata), mode],
        cwd=Path(devdb.__file__).parent.parent,
        check=True,
        capture_output=True,
        timeout=120,
    )


def test_a_command_stops_only_the_server_it_started(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pgdata = tmp_path / "pgdata"
    monkeypatch.setattr(devdb, "PGDATA", pgdata)
    try:
        _start(pgdata, "stop")  # a command that found nothing running: it cleans up after itself
        assert not devdb.running(), "a command left behind the server it started"
        _start(pgdata, "keep")  # what `make run` does: a server that outlives the command
        assert devdb.running()
        _start(pgdata, "stop")  # a second `manage.py …` without DATABASE_URL, then its exit
        assert devdb.running(), "the second command stopped a server it did not start"
    finally:
        devdb.stop()
    assert not devdb.running()
