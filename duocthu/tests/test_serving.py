"""The production command (issues 12, 21): `bin/serve` checks, migrates under the lock,
collects hashed static files into STATIC_ROOT and serves with gunicorn, DEBUG off; the access
log names the client behind the proxy in the app's time zone. On a SQL_ASCII database it stops
at the check, before migrate."""

import json
import os
import re
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import quote

import psycopg
import pytest
from django.conf import settings
from django.db import connection

ROOT = Path(settings.BASE_DIR)


def _env(database_url: str, port: int, tmp_path: Path) -> dict[str, str]:
    import sys

    return {
        **{k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")},
        "DJANGO_SETTINGS_MODULE": "duocthu.settings",
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": "serve-test-" + "s9Q!x7@Lm#" * 6,
        "ALLOWED_HOSTS": "duocthu.bv.local",
        "DATABASE_URL": database_url,
        "SECURE_SSL_REDIRECT": "false",  # plain HTTP on loopback; TLS is the proxy's
        "STATIC_ROOT": str(tmp_path / "static"),
        "DUOCTHU_METRICS_DIR": str(tmp_path / "prometheus"),
        "TRUSTED_PROXY_COUNT": "1",
        "BIND": f"127.0.0.1:{port}",
        "WEB_CONCURRENCY": "1",  # one worker is all these requests need
        "WEB_THREADS": "1",
        "PYTHON": sys.executable,
    }


def _get(url: str, **headers: str) -> tuple[int, bytes, dict[str, str]]:
    request = urllib.request.Request(url, headers={"Host": "duocthu.bv.local", **headers})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, response.read(), dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, error.read(), dict(error.headers)


@pytest.mark.django_db
def test_bin_serve_checks_migrates_collects_and_serves_with_debug_off(
    test_database_url: str, free_port: int, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    log = tmp_path / "serve.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            ["bash", "bin/serve"],
            cwd=ROOT,
            env=_env(test_database_url, free_port, tmp_path),
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        base = f"http://127.0.0.1:{free_port}"
        for _ in range(1200):
            try:
                # The balancer's probe: by address, no host name.
                probe = urllib.request.urlopen(base + "/healthz", timeout=2)
                break
            except OSError:
                assert server.poll() is None, log.read_text()
                time.sleep(0.1)
        else:
            raise AssertionError("bin/serve did not answer: " + log.read_text())
        assert probe.status == 200
        status, _, headers = _get(base + "/login/", **{"X-Forwarded-For": "6.6.6.6, 10.1.2.3"})
        assert status == 200
        assert "script-src 'self'" in headers["Content-Security-Policy"]
        assert headers["X-Frame-Options"] == "DENY"
        manifest = json.loads((tmp_path / "static" / "staticfiles.json").read_text())
        hashed = manifest["paths"]["duocthu/chat.css"]
        assert hashed != "duocthu/chat.css"  # a hashed name
        status, css, headers = _get(f"{base}/static/{hashed}")
        assert status == 200 and b".card-error" in css and "immutable" in headers["Cache-Control"]
        status, page, _ = _get(base + "/khong-co/")
        assert status == 404 and "Không tìm thấy trang này" in page.decode()
    finally:
        server.terminate()
        server.wait(30)
    text = log.read_text()
    # The access line: ISO time in the app's zone (+0700), the client nginx vouched for.
    line = next(x for x in text.splitlines() if '"GET /login/ HTTP/1.1" 200' in x)
    assert re.match(
        r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0700 INFO gunicorn\.access 10\.1\.2\.3 ", line
    ), line
    assert "6.6.6.6" not in line
    assert "control socket" not in text.lower()


@pytest.mark.django_db
def test_bin_serve_stops_at_the_check_on_a_sql_ascii_database(
    free_port: int, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    db = connection.settings_dict
    server_args = {"host": db["HOST"], "port": db["PORT"], "user": db["USER"]}
    name = "dt_serve_ascii"
    with psycopg.connect(**server_args, dbname="postgres", autocommit=True) as server:
        server.execute(f"DROP DATABASE IF EXISTS {name}")
        server.execute(
            f"CREATE DATABASE {name} ENCODING 'SQL_ASCII' LC_COLLATE 'C' LC_CTYPE 'C' "
            "TEMPLATE template0"
        )
        try:
            url = f"postgres://{db['USER']}@{quote(db['HOST'], safe='')}:{db['PORT']}/{name}"
            run = subprocess.run(
                ["bash", "bin/serve"],
                cwd=ROOT,
                env=_env(url, free_port, tmp_path),
                capture_output=True,
                text=True,
                timeout=180,
            )
            assert run.returncode != 0
            assert "duocthu.E001" in run.stderr and "ENCODING 'UTF8'" in run.stderr
            with psycopg.connect(**server_args, dbname=name) as refused:
                tables = refused.execute("SELECT to_regclass('django_migrations')").fetchone()
            assert tables == (None,)  # stopped before migrate
            assert not (tmp_path / "static").exists()  # and before collectstatic
        finally:
            server.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
