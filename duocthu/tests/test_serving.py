"""The production command's server (issue 12): gunicorn with gunicorn.conf.py and DEBUG off
serves the login page with the hardening headers, and whitenoise serves the static files."""

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)


def test_gunicorn_serves_the_app_and_its_static_files_with_debug_off(
    test_database_url: str,
) -> None:  # type: ignore[no-untyped-def]
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")},
        "DJANGO_SETTINGS_MODULE": "duocthu.settings",
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": "serve-test-" + "s" * 50,
        "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": test_database_url,
        "SECURE_SSL_REDIRECT": "false",  # plain HTTP on loopback; TLS is the proxy's
        "BIND": f"127.0.0.1:{port}",
        "WEB_CONCURRENCY": "1",
        "WEB_THREADS": "1",
        "ACCESS_LOG": "",
    }
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    server = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "duocthu.wsgi:application",
            "-c",
            "gunicorn.conf.py",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(150):
            try:
                login = urllib.request.urlopen(base + "/login/", timeout=2)
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise AssertionError("gunicorn did not answer")
        assert login.status == 200
        assert "script-src 'self'" in login.headers["Content-Security-Policy"]
        assert login.headers["X-Frame-Options"] == "DENY"
        css = urllib.request.urlopen(base + "/static/duocthu/chat.css", timeout=5)
        assert css.status == 200 and b".card-error" in css.read()
    finally:
        server.terminate()
        server.wait(20)
