"""A rolling restart under load (issue 21): two `bin/serve` hosts on two ports of 127.0.0.1,
clients asking turns all along. Like a load balancer with active health checks, a turn goes
to a host whose /healthz answered in the last half second and, when that host refuses or
answers 502/503, once to the other (nginx's proxy_next_upstream). Host A is stopped
(SIGTERM: gunicorn finishes the turns in hand) and started again, then host B once A's
/healthz answers; then each gets a HUP (`systemctl reload`). Prints turns answered, retried
on the other host, lost, and checks every answered turn was stored once.

    .venv/bin/python bench/rolling_restart.py [--clients 6]

Uses the development database (like bench/load.py, whose set-up it shares).
"""

import argparse
import http.client
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load  # noqa: E402 - sets up Django on the development database
from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402

from chat.models import Turn  # noqa: E402
from corpus.models import Drug  # noqa: E402

QUESTIONS = ["Liều paracetamol cho người lớn?", "omeprazol chống chỉ định", "warfarin tương tác"]


def _start(port: int, scratch: Path) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": load.SECRET,
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "BIND": f"127.0.0.1:{port}",
        "ACCESS_LOG": "",
        "WEB_CONCURRENCY": "2",
        "STATIC_ROOT": str(scratch / f"static-{port}"),
        "DUOCTHU_METRICS_DIR": str(scratch / f"metrics-{port}"),
        "DUOCTHU_RUN_JOBS_INLINE": "true",
        "PYTHON": sys.executable,
    }
    return subprocess.Popen(
        ["bash", "bin/serve"],
        cwd=load.ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _healthy(port: int) -> bool:
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
        conn.request("GET", "/healthz")
        return conn.getresponse().status == 200
    except OSError:
        return False


def _wait_healthy(port: int) -> float:
    started = time.perf_counter()
    for _ in range(3000):
        if _healthy(port):
            return time.perf_counter() - started
        time.sleep(0.1)
    raise SystemExit(f"port {port} never became healthy")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=6)
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    if not Drug.objects.exists():
        call_command("ingest_formulary", str(settings.DUOCTHU_CORPUS_DIR), verbosity=0)
    clients = load._clients(args.clients)
    connection.close()
    scratch = Path(tempfile.mkdtemp(prefix="duocthu-rolling-"))
    ports = [load._free_port()]
    while len(ports) < 2:  # two calls can return the same free port
        if (port := load._free_port()) not in ports:
            ports.append(port)
    servers = [_start(port, scratch) for port in ports]
    for port in ports:
        _wait_healthy(port)
    tokens = [load._csrf(ports[0], s, c) for s, _, c in clients]
    counts: Counter[str] = Counter()
    lock = threading.Lock()
    stop = threading.Event()
    # The balancer's view: /healthz of each host every half second (a host not answering
    # within a second is out), as a load balancer with active health checks keeps it.
    healthy = dict.fromkeys(ports, True)

    def watch() -> None:
        while not stop.is_set():
            for port in ports:
                healthy[port] = _healthy(port)
            time.sleep(0.5)

    watcher = threading.Thread(target=watch)
    watcher.start()

    def send(port: int, headers: dict[str, str], conversation: int, body: str) -> str:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            conn.request("POST", f"/c/{conversation}/ask/", body=body, headers=headers)
            response = conn.getresponse()
            response.read()
            conn.close()
            return str(response.status)
        except (OSError, http.client.HTTPException) as exc:
            return type(exc).__name__

    def run(n: int) -> None:
        session, _, conversation = clients[n]
        cookie, token = tokens[n]
        headers = {
            "Cookie": f"sessionid={session}; csrftoken={cookie}",
            "X-CSRFToken": token,
            "HX-Request": "true",
            "Content-Type": "application/x-www-form-urlencoded",
        }
        k = 0
        while not stop.is_set():
            body = urlencode({"question": QUESTIONS[k % len(QUESTIONS)]})
            first = ports[(n + k) % 2]
            if not healthy[first]:
                first = ports[1] if first == ports[0] else ports[0]
            status = send(first, headers, conversation, body)
            outcome = "answered"
            if status != "200":
                retried = send(
                    ports[1] if first == ports[0] else ports[0], headers, conversation, body
                )
                outcome = (
                    "answered after a retry" if retried == "200" else f"lost ({status}, {retried})"
                )
            with lock:
                counts[outcome] += 1
            k += 1

    threads = [threading.Thread(target=run, args=(n,)) for n in range(args.clients)]
    for thread in threads:
        thread.start()
    time.sleep(5)
    timeline = []
    for i, port in enumerate(ports):
        t = time.perf_counter()
        servers[i].send_signal(signal.SIGTERM)
        servers[i].wait(60)
        servers[i] = _start(port, scratch)
        up = _wait_healthy(port)
        timeline.append(
            f"host {'AB'[i]} restarted, healthy again after {time.perf_counter() - t:.1f} s ({up:.1f} s starting)"
        )
    for i in range(2):
        servers[i].send_signal(signal.SIGHUP)
        time.sleep(5)
        timeline.append(f"host {'AB'[i]} reloaded (HUP)")
    time.sleep(3)
    stop.set()
    for thread in threads:
        thread.join()
    watcher.join()
    for server in servers:
        server.send_signal(signal.SIGTERM)
        server.wait(60)
    for line in timeline:
        print(line)
    answered = counts["answered"] + counts["answered after a retry"]
    lost = sum(v for k, v in counts.items() if k.startswith("lost"))
    stored = Turn.objects.filter(conversation__user__username__startswith=load.PREFIX).count()
    print(
        f"turns: {answered + lost}, answered {answered} ({counts['answered after a retry']} after a retry on the other host), lost {lost}"
    )
    for key, value in sorted(counts.items()):
        if key.startswith("lost"):
            print(f"  {key}: {value}")
    # A turn a stopping host had stored but could not answer in graceful_timeout is stored
    # again by the host the client retried on.
    print(f"stored turns {stored} for {answered} answered ({stored - answered} stored twice)")
    load.User.objects.filter(username__startswith=load.PREFIX).delete()


if __name__ == "__main__":
    main()
