"""The chat page in real headless Chromium (Debian's), driven by Playwright.

The app runs as a real `runserver` process on 127.0.0.1 against the test database; the
rows this test commits (its user and their conversations) are deleted afterwards.
"""

import os
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from duocthu.settings import env_bool

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
SHOTS = settings.VAR_DIR / "screenshots"


def shot(page: Any, name: str, **options: Any) -> None:
    """A screenshot of the state under var/screenshots/, with DUOCTHU_SCREENSHOTS=1 (the
    README's pictures come from them): not taken otherwise, ~3 s of the suite's CPU."""
    if env_bool("DUOCTHU_SCREENSHOTS", False):
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / name), **options)


@pytest.fixture
def live_app(django_db_setup, django_db_blocker, free_port, test_database_url) -> Iterator[str]:  # type: ignore[no-untyped-def]
    if not Path(CHROMIUM).exists() or shutil.which("chromium") is None:
        pytest.skip("Debian's chromium is not installed (apt-get install chromium); CI installs it")
    from django.contrib.auth.hashers import make_password
    from django.contrib.auth.models import User

    with django_db_blocker.unblock():
        User.objects.filter(username="bs_trinh_duyet").delete()
        user = User.objects.create_user("bs_trinh_duyet")
        # The server below runs with the real hashers, not the tests' fast one.
        user.password = make_password("duocthu-browser", hasher="pbkdf2_sha256")
        user.save()
        url = test_database_url
    port = free_port
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DJANGO_DEBUG": "true",
        "ANSWER_PROVIDER": "disabled",
        "DUOCTHU_RUN_JOBS_INLINE": "true",
    }
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
        cwd=settings.BASE_DIR,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            urllib.request.urlopen(base + "/login/", timeout=1)
            break
        except OSError:
            time.sleep(0.1)
    try:
        yield base
    finally:
        server.terminate()
        server.wait(10)
        with django_db_blocker.unblock():
            User.objects.filter(username="bs_trinh_duyet").delete()


def test_a_pharmacist_asks_gets_cited_answers_a_quick_reply_an_abstain_and_an_error_card(
    live_app: str,
) -> None:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        page = browser.new_page(viewport={"width": 1280, "height": 900}, locale="vi-VN")
        page.goto(live_app + "/")
        page.fill("#id_username", "bs_trinh_duyet")
        page.fill("#id_password", "duocthu-browser")
        page.click("button[type=submit]")
        page.wait_for_selector("#question")

        page.fill("#question", "Liều paracetamol cho người lớn?")
        page.press("#question", "Enter")
        answer = page.locator(".card-answer").first
        # The server's first answer loads its catalogs in a cold process (~4 s of CPU here),
        # beside the other test worker and the browser on two cores: a longer wait, once.
        expect(answer).to_be_visible(timeout=60_000)
        citations = answer.locator(".citations")
        expect(citations).to_contain_text("PARACETAMOL")
        expect(citations).to_contain_text("lieu_luong_va_cach_dung")
        expect(citations).to_contain_text("trang 11")
        expect(answer.locator(".disclaimer")).to_contain_text("không thay thế chỉ định của bác sĩ")
        expect(page.locator("#question")).to_be_enabled()
        answer.locator("a.cite").first.click()
        expect(answer.locator(".citations details[open] .quote").first).to_be_visible()
        answer.scroll_into_view_if_needed()
        shot(page, "chat-answer.png")

        page.fill("#question", "Cho mình xin liều paracetamol cho trẻ em với")
        page.press("#question", "Enter")
        clarify = page.locator(".card-clarify").first
        expect(clarify).to_be_visible(timeout=20_000)
        reply = clarify.locator("button.quick-reply", has_text="tuổi").first
        band = reply.inner_text().strip()
        clarify.scroll_into_view_if_needed()
        shot(page, "chat-clarify.png")
        reply.click()
        expect(page.locator(".card-answer")).to_have_count(2, timeout=20_000)
        expect(page.locator(".card-answer").last).to_contain_text(f"{band}:")

        page.fill("#question", "Chó nhà tôi bị sốt, cho uống ibuprofen liều bao nhiêu?")
        page.press("#question", "Enter")
        abstain = page.locator(".card-abstain").first
        expect(abstain).to_be_visible(timeout=20_000)
        expect(abstain).to_contain_text("chỉ dành cho người")
        expect(abstain.locator(".disclaimer")).to_be_visible()
        page.wait_for_timeout(600)  # the smooth scroll to the newest card
        shot(page, "chat-abstain.png")

        page.set_viewport_size({"width": 390, "height": 844})
        page.reload()
        expect(page.locator(".card-abstain")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.locator(".card-abstain").scroll_into_view_if_needed()
        shot(page, "chat-phone.png")

        # A failed request shows an error card and keeps the question (issue 12).
        # The server fails this one request (as a worker that crashed would).
        page.route("**/ask/", lambda route: route.fulfill(status=500, body="boom"))
        page.fill("#question", "Liều paracetamol cho người lớn?")
        page.press("#question", "Enter")
        card = page.locator(".card-error").first
        expect(card).to_be_visible(timeout=10_000)
        expect(card).to_contain_text("lỗi máy chủ 500")
        expect(page.locator("#question")).to_have_value("Liều paracetamol cho người lớn?")
        # An expired session: the next request is sent without one and the page goes to
        # the login form instead of pasting it into the chat.
        page.unroute("**/ask/")
        kept = [c for c in page.context.cookies() if c["name"] != "sessionid"]
        page.context.clear_cookies()
        page.context.add_cookies(kept)  # the CSRF cookie outlives the session
        page.press("#question", "Enter")
        page.wait_for_url("**/login/**", timeout=10_000)
        assert page.locator("#turns").count() == 0
        browser.close()
