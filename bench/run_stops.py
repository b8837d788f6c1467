"""`make run`, then Ctrl-C: is anything this project started still running?

Starts `bin/run` in its own process group (as a terminal does), waits until the page answers
on 127.0.0.1:8000, sends SIGINT to the group (what Ctrl-C sends), and then lists what is left:
the embedded PostgreSQL under var/pgdata, a Redis on 6379 that was not there before, the rq
worker, the development server. Prints seconds to ready, seconds to stop, and what was left.
Run from the checkout: `.venv/bin/python bench/run_stops.py` (port 8000 must be free).
"""

import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from duocthu import devdb  # noqa: E402

READY_TIMEOUT = 300  # a fresh machine ingests the book before serving
STOP_TIMEOUT = 60


def _redis_up() -> bool:
    try:
        import redis

        return bool(redis.Redis(host="127.0.0.1", port=6379, socket_timeout=1).ping())
    except Exception:  # noqa: BLE001 - any failure means no Redis answers
        return False


def _ours(pattern: str) -> list[int]:
    """Processes whose command line holds the pattern and this checkout's path or manage.py."""
    found = []
    for proc in psutil.process_iter(attrs=["pid", "cmdline", "cwd"]):
        cmd = " ".join(proc.info["cmdline"] or [])
        if pattern in cmd and (str(ROOT) in cmd or proc.info.get("cwd") == str(ROOT)):
            found.append(proc.info["pid"])
    return found


def main() -> int:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    redis_before = _redis_up()
    db_before = devdb.running()
    started = time.perf_counter()
    run = subprocess.Popen(
        ["bash", "bin/run"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    ready = None
    while time.perf_counter() - started < READY_TIMEOUT and run.poll() is None:
        try:
            urllib.request.urlopen("http://127.0.0.1:8000/login/", timeout=2)
            ready = time.perf_counter() - started
            break
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.5)
    if ready is None:
        print(f"bin/run did not serve within {READY_TIMEOUT} s (exit {run.poll()})")
        os.killpg(run.pid, signal.SIGKILL)
        return 1
    time.sleep(2)  # the rq worker and the autoreloader child are up by now
    workers = _ours("rqworker")
    os.killpg(run.pid, signal.SIGINT)
    stopping = time.perf_counter()
    try:
        run.wait(STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        print(f"bin/run did not exit within {STOP_TIMEOUT} s of Ctrl-C")
        os.killpg(run.pid, signal.SIGKILL)
        return 1
    time.sleep(1)
    stopped = time.perf_counter() - stopping
    left = {
        "postgresql": devdb.running() and not db_before,
        "redis": _redis_up() and not redis_before,
        "rq worker": bool(workers and any(psutil.pid_exists(p) for p in workers)),
        "runserver": bool(_ours("runserver")),
    }
    print(f"ready after {ready:.1f} s; exited {stopped:.1f} s after Ctrl-C (code {run.returncode})")
    print(f"rq worker seen while running: {bool(workers)}")
    for name, alive in left.items():
        print(f"left running: {name}: {'YES' if alive else 'no'}")
    return 1 if any(left.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
