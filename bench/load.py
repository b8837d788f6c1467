"""Load on the production server: gunicorn (gunicorn.conf.py, DEBUG off) on 127.0.0.1, the
development database, extractive turns from many clients at once — and, with --kill-postgres,
PostgreSQL stopped and started again in the middle of the run.

Each client has its own account, session and conversation (sessions are created directly, so
the run measures turns, not password hashing) and POSTs questions from the development set as
the chat page does (htmx, CSRF). Bounded: --turns in all. Prints turns/s, p50/p95/max, errors
by status, and checks that every 200 left exactly one stored turn and no turn is half-written.

    .venv/bin/python bench/load.py [--clients 50] [--turns 3000] [--workers N] [--kill-postgres]
"""

import argparse
import http.client
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "duocthu.settings")
os.environ["ANSWER_PROVIDER"] = "disabled"
# The server's secret key here too: the sessions this script creates are signed with it.
SECRET = "load-bench-" + "k" * 50
os.environ["DJANGO_SECRET_KEY"] = SECRET
os.environ.setdefault("DJANGO_DEBUG", "true")

from duocthu.devdb import use_embedded_database  # noqa: E402

use_embedded_database()
import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.contrib.sessions.backends.db import SessionStore  # noqa: E402
from django.db import connection  # noqa: E402

from chat.models import Conversation, Turn  # noqa: E402

PREFIX = "load_bench_"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _server(port: int, workers: int | None) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": SECRET,
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",  # plain HTTP on loopback; TLS is the proxy's
        "BIND": f"127.0.0.1:{port}",
        "ACCESS_LOG": "",
        "DUOCTHU_RUN_JOBS_INLINE": "true",
    }
    if workers:
        env["WEB_CONCURRENCY"] = str(workers)
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    server = subprocess.Popen(
        [str(ROOT / ".venv/bin/gunicorn"), "duocthu.wsgi:application", "-c", "gunicorn.conf.py"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(300):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("gunicorn did not start")


def _clients(n: int) -> list[tuple[str, str, int]]:
    """(session cookie, CSRF token, conversation id) per client, committed."""
    User.objects.filter(username__startswith=PREFIX).delete()
    out = []
    for i in range(n):
        user = User.objects.create_user(f"{PREFIX}{i}")
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        conversation = Conversation.objects.create(user=user)
        out.append((session.session_key or "", "", conversation.pk))
    return out


def _csrf(port: int, session: str, conversation: int) -> tuple[str, str]:
    conn = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=300
    )  # a preloaded master warms first
    conn.request("GET", f"/c/{conversation}/", headers={"Cookie": f"sessionid={session}"})
    response = conn.getresponse()
    body = response.read().decode()
    cookie = re.search(r"csrftoken=([^;]+)", response.getheader("Set-Cookie") or "")
    token = re.search(r'"X-CSRFToken": "([^"]+)"', body)
    conn.close()
    if not (cookie and token):
        raise SystemExit(f"no CSRF token from the page (status {response.status})")
    return cookie.group(1), token.group(1)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--turns", type=int, default=3000)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--kill-postgres", action="store_true")
    parser.add_argument(
        "--login-attackers",
        type=int,
        default=0,
        help="anonymous loops guessing one account's password during the run",
    )
    parser.add_argument(
        "--rotate-usernames",
        action="store_true",
        help="each guess with another username (issue 19: only the per-address limit holds)",
    )
    parser.add_argument(
        "--rate",
        type=float,
        default=0.0,
        help="turns per second offered in all (open loop: latency at that rate); 0 sends "
        "as fast as the clients get answers (closed loop: the ceiling)",
    )
    args = parser.parse_args()
    dev = Path(settings.DUOCTHU_CORPUS_DIR).parent.parent / "eval" / "dev.jsonl"
    questions = [json.loads(line)["question"] for line in dev.read_text().splitlines() if line]
    port = _free_port()
    server = _server(port, args.workers)
    clients = _clients(args.clients)
    connection.close()
    tokens = [_csrf(port, s, c) for s, _, c in clients]
    # Warm every worker (its drug-name catalog is built on its first turn), untimed.
    for (session, _, conversation), (cookie, token) in list(zip(clients, tokens, strict=True))[:12]:
        warm = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
        warm.request(
            "POST",
            f"/c/{conversation}/ask/",
            body="question=omeprazol",
            headers={
                "Cookie": f"sessionid={session}; csrftoken={cookie}",
                "X-CSRFToken": token,
                "HX-Request": "true",
                "Content-Type": "application/x-www-form-urlencoded",
            },
        )
        warm.getresponse().read()
        warm.close()
    warmed = Turn.objects.filter(conversation__user__username__startswith=PREFIX).count()
    connection.close()
    latencies: list[float] = []
    statuses: Counter[str] = Counter()
    lock = threading.Lock()
    counter = iter(range(args.turns))
    started = time.perf_counter()

    def run(n: int) -> None:
        session, _, conversation = clients[n]
        cookie, token = tokens[n]
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        headers = {
            "Cookie": f"sessionid={session}; csrftoken={cookie}",
            "X-CSRFToken": token,
            "HX-Request": "true",
            "Content-Type": "application/x-www-form-urlencoded",
        }
        while True:
            with lock:
                k = next(counter, None)
            if k is None:
                break
            if args.rate:
                # Turn k is due at k / rate seconds: an open loop, so the latency measured is
                # the server's at that rate, not the queue of 50 clients waiting on each other.
                delay = started + k / args.rate - time.perf_counter()
                if delay > 0:
                    time.sleep(delay)
            from urllib.parse import urlencode

            body = urlencode({"question": questions[k % len(questions)]})
            t0 = time.perf_counter()
            try:
                conn.request("POST", f"/c/{conversation}/ask/", body=body, headers=headers)
                response = conn.getresponse()
                response.read()
                status = str(response.status)
            except (OSError, http.client.HTTPException) as exc:
                status = type(exc).__name__
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            elapsed = time.perf_counter() - t0
            with lock:
                statuses[status] += 1
                if status == "200":
                    latencies.append(elapsed)

    attempts: Counter[str] = Counter()

    def guess() -> None:
        # One address guessing one account: django-axes locks the pair out after the limit,
        # so later guesses cost the server no password hashing.
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        conn.request("GET", "/login/")
        page = conn.getresponse()
        form = page.read().decode()
        cookie = re.search(r"csrftoken=([^;]+)", page.getheader("Set-Cookie") or "")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form)
        if not (cookie and token):
            return
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": f"csrftoken={cookie.group(1)}",
        }
        body = f"username=load_bench_0&password=wrong-guess&csrfmiddlewaretoken={token.group(1)}"
        n = 0
        while time.perf_counter() - started < wall_limit:
            n += 1
            if args.rotate_usernames:
                body = f"username=doan_{threading.get_ident()}_{n}&password=wrong-guess&"
                body += f"csrfmiddlewaretoken={token.group(1)}"
            try:
                conn.request("POST", "/login/", body=body, headers=headers)
                response = conn.getresponse()
                response.read()
                attempts[str(response.status)] += 1
            except (OSError, http.client.HTTPException):
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    wall_limit = (args.turns / args.rate) if args.rate else 30.0
    attackers = [threading.Thread(target=guess) for _ in range(args.login_attackers)]
    for attacker in attackers:
        attacker.start()
    threads = [threading.Thread(target=run, args=(n,)) for n in range(args.clients)]
    for thread in threads:
        thread.start()
    killed_at = None
    if args.kill_postgres:
        time.sleep(3)
        killed_at = time.perf_counter() - started
        subprocess.run([sys.executable, "-m", "duocthu.devdb", "stop"], cwd=ROOT, check=True)
        time.sleep(2)
        subprocess.run(
            [sys.executable, "-m", "duocthu.devdb", "start"],
            cwd=ROOT,
            check=True,
            stdout=subprocess.DEVNULL,
        )
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - started
    for attacker in attackers:
        attacker.join()
    server.terminate()
    server.wait(30)

    ok = statuses.get("200", 0)
    stored = Turn.objects.filter(conversation__user__username__startswith=PREFIX)
    half = stored.filter(answer_text="", blocks=[]).exclude(decision="clarify").count()
    latencies.sort()
    p95 = latencies[int(0.95 * (len(latencies) - 1))] if latencies else 0.0
    offered = f"offered {args.rate:.0f}/s" if args.rate else "closed loop"
    print(f"clients {args.clients}, turns sent {args.turns} ({offered}), wall {wall:.1f} s")
    print(f"throughput {ok / wall:.1f} answered turns/s")
    if latencies:
        print(
            f"latency p50 {statistics.median(latencies) * 1000:.0f} ms, "
            f"p95 {p95 * 1000:.0f} ms, max {latencies[-1] * 1000:.0f} ms"
        )
    print(f"statuses {dict(statuses)}")
    print(
        f"stored turns {stored.count() - warmed} for {ok} answered (must be equal); "
        f"half-written {half}"
    )
    if attackers:
        print(f"login guesses by {len(attackers)} anonymous loops: {dict(attempts)}")
    if killed_at is not None:
        print(f"PostgreSQL stopped at {killed_at:.1f} s for ~2 s and started again")
    User.objects.filter(username__startswith=PREFIX).delete()


if __name__ == "__main__":
    main()
