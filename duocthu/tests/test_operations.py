"""The operations kit (issue 21.7–21.9, 19.6): /healthz for the proxy, metrics summed over
worker processes, setup_production run twice, Vietnamese error pages."""

import os
import runpy
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.db.backends.postgresql.base import DatabaseWrapper
from django.test import Client, RequestFactory, override_settings

from duocthu.health import health

pytestmark = pytest.mark.django_db


@override_settings(ALLOWED_HOSTS=["duocthu.bv.local"], SECURE_SSL_REDIRECT=True)
def test_healthz_answers_the_balancer_by_address_on_plain_http() -> None:
    probe = Client().get("/healthz", HTTP_HOST="10.0.0.9")
    assert (probe.status_code, probe.content) == (200, b"ok\n")
    assert probe["Cache-Control"] == "no-store"
    # Any other page with that host is refused as before.
    assert Client().get("/login/", HTTP_HOST="10.0.0.9").status_code == 400


def test_healthz_is_503_when_the_database_does_not_answer(free_port: int) -> None:
    gone = DatabaseWrapper({**connection.settings_dict, "HOST": "127.0.0.1", "PORT": free_port})
    try:
        assert health(gone) == (503, "database unavailable")
    finally:
        gone.close()


def test_a_new_worker_builds_its_catalog_and_index_before_the_first_request() -> None:
    from duocthu.health import warm_worker
    from retrieval import catalog, ranked

    catalog._cached.clear()
    ranked._index = None
    warm_worker()
    resolver = next(iter(catalog._cached.values()))
    index = ranked._index
    # The first turn finds both built.
    assert catalog.get_resolver() is resolver and ranked.get_index() is index


def test_metrics_sum_the_counts_of_every_worker_process(
    tmp_path: Path, django_user_model, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    # Two worker processes count turns into one folder, as gunicorn.conf.py sets it up.
    for count in (2, 3):
        subprocess.run(
            [
                sys.executable,
                "-c",
                "from answering.metrics import TURNS; "
                f"TURNS.labels('answer', 'ok_metrics_test').inc({count})",
            ],
            cwd=settings.BASE_DIR,
            env={**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path)},
            check=True,
        )
    assert len(list(tmp_path.glob("counter_*.db"))) == 2
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    staff = Client()
    staff.force_login(django_user_model.objects.create_user("qt_mp", is_staff=True))
    body = staff.get("/metrics").content.decode()
    assert 'duocthu_turns_total{outcome="answer",reason="ok_metrics_test"} 5.0' in body


def test_setup_production_twice_makes_one_group_and_one_administrator(
    django_user_model, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    from django.contrib.auth.models import Group
    from django.core.management import call_command

    from corpus.models import REVIEWER_GROUP

    django_user_model.objects.filter(is_superuser=True).delete()
    Group.objects.filter(name=REVIEWER_GROUP).delete()
    django_user_model.objects.create_user("ds_hoa")
    monkeypatch.setenv("DJANGO_SUPERUSER_USERNAME", "qt_benhvien")
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", "mot-mat-khau-rat-dai-2026")
    monkeypatch.setenv("DJANGO_SUPERUSER_EMAIL", "")
    for _ in range(2):
        call_command("setup_production", reviewer=["ds_hoa"])
    group = Group.objects.get(name=REVIEWER_GROUP)
    assert group.permissions.filter(codename="view_chunk").exists()
    assert list(group.user_set.values_list("username", flat=True)) == ["ds_hoa"]
    admins = django_user_model.objects.filter(is_superuser=True)
    assert list(admins.values_list("username", flat=True)) == ["qt_benhvien"]
    assert admins.get().check_password("mot-mat-khau-rat-dai-2026")


def test_setup_production_names_an_unknown_reviewer() -> None:
    from django.core.management import call_command
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="Không có tài khoản «khong_co»"):
        call_command("setup_production", reviewer=["khong_co"])


@override_settings(DEBUG=False)
def test_error_pages_are_in_vietnamese() -> None:
    from django.views import defaults

    missing = Client().get("/khong-co-trang-nay/")
    assert missing.status_code == 404 and "Không tìm thấy trang này" in missing.content.decode()
    request = RequestFactory().get("/")
    denied = defaults.permission_denied(request, PermissionError())
    assert "không có quyền" in denied.content.decode()
    failed = defaults.server_error(request)
    assert failed.status_code == 500 and "Máy chủ gặp lỗi" in failed.content.decode()


def test_setup_production_asks_for_the_first_administrator_at_a_terminal(
    django_user_model, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    import getpass
    import io

    from django.core.management import call_command

    # The terminal is the boundary here, as in Django's own createsuperuser tests.
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    django_user_model.objects.filter(is_superuser=True).delete()
    monkeypatch.delenv("DJANGO_SUPERUSER_USERNAME", raising=False)
    monkeypatch.setattr("sys.stdin", Terminal())
    typed = iter(["qt_dau_tien", "qt@benhvien.local"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(typed))
    monkeypatch.setattr(getpass, "getpass", lambda prompt="": "Mot-Mat-Khau-Dai-2026!")
    out = io.StringIO()
    call_command("setup_production", stdout=out)
    assert "Tạo tài khoản quản trị đầu tiên" in out.getvalue()
    admin = django_user_model.objects.get(username="qt_dau_tien")
    assert admin.is_superuser and admin.check_password("Mot-Mat-Khau-Dai-2026!")
    call_command("setup_production", stdout=out)  # the second run asks nothing
    assert "Đã có tài khoản quản trị" in out.getvalue()


def test_the_metrics_folder_exists_once_the_server_config_is_read(
    tmp_path: Path, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    # WEB_PRELOAD: the master imports the app, whose metrics create their files, before the
    # on_starting hook; on a fresh machine the folder must already be there.
    folder = tmp_path / "fresh" / "prometheus"
    monkeypatch.setenv("DUOCTHU_METRICS_DIR", str(folder))
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(folder))
    runpy.run_path(str(settings.BASE_DIR / "gunicorn.conf.py"))
    assert folder.is_dir()
