"""An alias edit under gunicorn: how long until every worker answers with it, how many
workers built the name catalog, and each worker's memory (issue 23).

gunicorn (gunicorn.conf.py, DEBUG off) on 127.0.0.1 over the database DATABASE_URL names
(the development database by default; bench/scale.py's for 7×). Once every worker is warm,
its RSS and PSS; then an alias is added to WARFARIN here, and 4 questions per worker naming
it are sent at once: the seconds from the edit to each answer, how many named WARFARIN, and
the workers' log lines saying who built the catalog and who loaded it as stored.

    .venv/bin/python bench/catalog_edit.py [--workers 3] [--preload]
"""

import argparse
import http.client
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load import PREFIX, SECRET, _clients, _csrf, _free_port  # noqa: E402


def _memory(pid: int) -> tuple[float, float]:
    """(RSS, PSS) in MB: PSS splits the pages the workers share."""
    rss = pss = 0.0
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Rss:"):
            rss = int(line.split()[1]) / 1024
        elif line.startswith("Pss:"):
            pss = int(line.split()[1]) / 1024
    return rss, pss


def _workers(master: int) -> list[int]:
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    return [int(c) for c in children]


def _ask(port: int, session: str, cookie: str, token: str, conversation: int, question: str) -> str:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    conn.request(
        "POST",
        f"/c/{conversation}/ask/",
        body=f"question={question}".encode(),
        headers={
            "Cookie": f"sessionid={session}; csrftoken={cookie}",
            "X-CSRFToken": token,
            "HX-Request": "true",
            "Content-Type": "application/x-www-form-urlencoded; charset=utf-8",
        },
    )
    body = conn.getresponse().read().decode()
    conn.close()
    return body


def main() -> None:
    from corpus.models import Alias, Drug

    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument(
        "--preload", action="store_true", help="WEB_PRELOAD=true (build, then fork)"
    )
    args = parser.parse_args()
    port = _free_port()
    log = ROOT / "var" / "catalog_edit.log"
    env = {
        **os.environ,
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": SECRET,
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "BIND": f"127.0.0.1:{port}",
        "ACCESS_LOG": "",
        "LOG_LEVEL": "INFO",
        "WEB_CONCURRENCY": str(args.workers),
        "WEB_PRELOAD": "true" if args.preload else "false",
    }
    manage = [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"]
    subprocess.run(manage, cwd=ROOT, env=env, check=True)
    started = time.perf_counter()
    with log.open("w") as err:
        server = subprocess.Popen(
            [
                str(ROOT / ".venv/bin/gunicorn"),
                "duocthu.wsgi:application",
                "-c",
                "gunicorn.conf.py",
            ],
            cwd=ROOT,
            env=env,
            stdout=err,
            stderr=err,
        )
    try:
        clients = _clients(4 * args.workers)
        while len(re.findall(r"Booting worker", log.read_text())) < args.workers or not all(
            _memory(p)[0] > 0 for p in _workers(server.pid)
        ):
            time.sleep(0.2)
        for _ in range(600):  # warm: every worker answered /healthz after its post_worker_init
            try:
                tokens = [_csrf(port, s, c) for s, _, c in clients]
                break
            except OSError:
                time.sleep(0.5)
        print(
            f"gunicorn with {args.workers} workers answering after {time.perf_counter() - started:.1f} s"
        )
        rss, pss = _memory(server.pid)
        print(f"master {server.pid}: RSS {rss:.0f} MB, PSS {pss:.0f} MB")
        for pid in _workers(server.pid):
            rss, pss = _memory(pid)
            print(f"worker {pid}: RSS {rss:.0f} MB, PSS {pss:.0f} MB")

        def burst(name: str) -> list[tuple[float, bool]]:
            """One question per client at once: (seconds from now, named WARFARIN)."""
            sent, answers = time.perf_counter(), []

            def ask(i: int) -> None:
                (session, _, conversation), (cookie, token) = clients[i], tokens[i]
                question = f"Liều {name} cho người lớn?"
                body = _ask(port, session, cookie, token, conversation, question)
                answers.append((time.perf_counter() - sent, "WARFARIN" in body.upper()))

            threads = [threading.Thread(target=ask, args=(i,)) for i in range(len(clients))]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            return sorted(answers)

        name = f"Zyxedit{int(time.time())}"
        for label in ("no edit, warfarin", "alias added"):
            before = log.read_text()
            if label == "alias added":
                warfarin = Drug.objects.get(drug_id="warfarin")
                Alias.objects.create(drug=warfarin, name=name, folded=name.lower())
            answers = burst("warfarin" if label.startswith("no edit") else name)
            print(
                f"{label}: {len(answers)} questions at once, "
                f"{sum(ok for _, ok in answers)} answered with WARFARIN, "
                f"first {answers[0][0]:.2f} s, last {answers[-1][0]:.2f} s"
            )
        after = log.read_text()[len(before) :]
        print(
            f"name catalog built {len(re.findall('name catalog .* built', after))}×, "
            f"loaded as stored {len(re.findall('loaded as stored', after))}×"
        )
        for pid in _workers(server.pid):
            rss, pss = _memory(pid)
            print(f"worker {pid} after: RSS {rss:.0f} MB, PSS {pss:.0f} MB")
        Alias.objects.filter(name=name).delete()
    finally:
        server.terminate()
        server.wait(30)
        from django.contrib.auth.models import User

        User.objects.filter(username__startswith=PREFIX).delete()


if __name__ == "__main__":
    main()
