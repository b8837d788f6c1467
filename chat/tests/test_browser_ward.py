"""The chat page as the ward uses it (issue 22), in Debian's headless Chromium: a phone at 320
and 390 px, a desktop at 1440 px and at 200 % zoom; tables, keyboard, waiting and failing,
quick replies; axe-core (vendored, chat/tests/vendor/axe-core) on every state; and a doctor's
first conversation, from the login to an expired session.

One runserver process and one browser serve the module (and one page its ward states); the rows it commits (its users, their
conversations, the one table it approves) are put back afterwards.
"""

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from django.conf import settings

from chat.tests.browser import CHROMIUM, CHROMIUM_ARGS, shot
from corpus.tests.test_page_images import book_pdf

# One worker runs the module: its server and browser are started once (`make test` hands
# tests out one by one, --dist loadgroup).
pytestmark = pytest.mark.xdist_group("ward_browser")

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
USER, REVIEWER, PASSWORD = "dd_phong_benh", "ds_duyet_bang", "duocthu-ward"
# A doctor with no conversation yet, for the first-conversation walk-through.
FIRST_USER = "bs_trinh_duyet"
# Widths (CSS px): 200 % zoom of a 1440 px screen lays out at 720 CSS px.
SCREENS = {
    "phone-320": {"width": 320, "height": 640},
    "phone-390": {"width": 390, "height": 844},
    "desktop-1440": {"width": 1440, "height": 900},
    "zoom-200": {"width": 720, "height": 450},
}
# A pasted question of long words: its title (80 characters) has no place to wrap.
LONG_TITLE = "Liều" + "Methylprednisolonnatrisuccinat" * 4 + " vancomycin" * 6


@pytest.fixture(scope="module")
def ward_app(django_db_setup, django_db_blocker, tmp_path_factory) -> Iterator[dict[str, Any]]:  # type: ignore[no-untyped-def]
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (apt-get install chromium); CI installs it")
    from django.contrib.auth.hashers import make_password
    from django.contrib.auth.models import User
    from django.db import connection
    from django.db.models import Max, Min

    from chat.conversation import ask_in_conversation
    from chat.models import Conversation
    from corpus.models import Chunk

    with django_db_blocker.unblock():
        User.objects.filter(username__in=[USER, FIRST_USER]).delete()
        user = User.objects.create_user(USER)
        user.password = make_password(PASSWORD, hasher="pbkdf2_sha256")
        user.save()
        newcomer = User.objects.create_user(FIRST_USER)
        newcomer.password = user.password
        newcomer.save()
        from django.contrib.auth.models import Group

        from corpus.models import REVIEWER_GROUP

        User.objects.filter(username=REVIEWER).delete()
        pharmacist = User.objects.create_user(REVIEWER, is_staff=True)
        pharmacist.password = make_password(PASSWORD, hasher="pbkdf2_sha256")
        pharmacist.save()
        pharmacist.groups.add(Group.objects.get(name=REVIEWER_GROUP))
        # The vancomycin renal-dose table, as once a pharmacist approved it.
        table = Chunk.objects.get(
            section__drug__drug_id="vancomycin",
            section__section_key="lieu_luong_va_cach_dung",
            kind=Chunk.Kind.TABLE,
        )
        kept = Chunk.objects.filter(pk=table.pk).values(
            "requires_visual_check", "has_quarantined_content", "review_state"
        )[0]
        Chunk.objects.filter(pk=table.pk).update(
            requires_visual_check=False,
            has_quarantined_content=False,
            review_state=Chunk.Review.APPROVED,
        )
        # A long conversation (nine answered turns), and one with a title as long as a
        # pasted question: neither may widen the page.
        long_one = Conversation.objects.create(user=user)
        first = ask_in_conversation(long_one, "Paracetamol chống chỉ định gì?")
        for order in range(2, 10):  # the same answered turn, recorded eight more times
            first.pk, first.order = None, order
            first.save()
        ask_in_conversation(Conversation.objects.create(user=user), LONG_TITLE)
        # The book's PDF for the review page's images: vancomycin's printed pages only, the
        # offset mapping its first printed page to the PDF's first page.
        pages = Chunk.objects.filter(section__drug__drug_id="vancomycin").aggregate(
            first=Min("page_start"), last=Max("page_end")
        )
        folder = tmp_path_factory.mktemp("book")
        texts: dict[int, str] = {}
        for chunk in Chunk.objects.filter(section__drug__drug_id="vancomycin").order_by(
            "section__order", "part_index"
        ):
            page_start = chunk.page_start or pages["first"]
            texts[page_start] = texts.get(page_start, "") + chunk.text + "\n"
        pdf = book_pdf(
            folder / "duoc-thu-2018.pdf",
            pages=pages["last"] - pages["first"] + 1,
            first_printed=pages["first"],
            texts=texts,
        )
        db = connection.settings_dict
        url = f"postgres://{db['USER']}@{quote(db['HOST'], safe='')}:{db['PORT']}/{db['NAME']}"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DJANGO_DEBUG": "true",
        "ANSWER_PROVIDER": "disabled",
        "DUOCTHU_RUN_JOBS_INLINE": "true",
        "FORMULARY_PDF": str(pdf),
        "FORMULARY_PDF_PAGE_OFFSET": str(1 - pages["first"]),
        "PAGE_IMAGES_DIR": str(folder / "page-images"),
    }
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
        cwd=settings.BASE_DIR,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            urllib.request.urlopen(base + "/login/", timeout=1)
            break
        except OSError:
            time.sleep(0.1)
    from playwright.sync_api import sync_playwright

    try:
        # Django refuses database calls inside Playwright's event loop: the rows are put
        # back after it is closed.
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
            yield {
                "base": base,
                "browser": browser,
                "long_one": long_one.pk,
                "table": table.pk,
            }
            browser.close()
    finally:
        server.terminate()
        server.wait(10)
        with django_db_blocker.unblock():
            Chunk.objects.filter(pk=table.pk).update(**kept)
            User.objects.filter(username__in=[USER, REVIEWER, FIRST_USER]).delete()


def _page(app: dict[str, Any], screen: str, path: str = "/") -> Any:
    """The module's one page, at the screen's size, on `path`. One page is one renderer
    process: axe-core is compiled and warmed once and each later state checks in about a
    third of the CPU (0.33 -> 0.05 s to load it, 0.44 -> 0.15 s a run, measured in a probe),
    where a context per state started a renderer each time. The screens are widths in CSS
    px; a device pixel ratio changes no layout, so none is emulated."""
    size = SCREENS[screen]
    viewport = {"width": size["width"], "height": size["height"]}
    page = app.get("page")
    if page is None:
        context = app["browser"].new_context(
            viewport=viewport,
            locale="vi-VN",
            bypass_csp=True,  # lets the test inject axe-core; the app's own pages run none inline
        )
        page = app["page"] = context.new_page()
        page.goto(app["base"] + "/login/")
        page.fill("#id_username", USER)
        page.fill("#id_password", PASSWORD)
        page.click("button[type=submit]")
        page.wait_for_selector("#question")
    page.set_viewport_size(viewport)
    page.goto(app["base"] + path)
    page.wait_for_selector("#question")
    return page


def _axe(page: Any, state: str) -> None:
    """axe-core's WCAG 2 A/AA rules and best practices: no violation on this state."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    violations = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => v.id + ': ' + v.nodes.map(n => n.target.join(' ')).slice(0, 3).join(', '))"
    )
    assert violations == [], f"axe on {state}: {violations}"


def _no_horizontal_overflow(page: Any, state: str) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    viewport = page.evaluate("window.innerWidth")
    assert width <= viewport, f"{state}: the page is {width} px wide on a {viewport} px screen"


def _header_in_view(page: Any, state: str) -> None:
    """The brand, "+ Hội thoại mới" and logout are on the screen (the desktop layout never
    scrolls the page), or at the top of the page a phone scrolls back to."""
    if page.evaluate("window.innerWidth") <= 720:
        page.evaluate("window.scrollTo(0, 0)")
    for selector in (".brand", "button.new", ".logout button"):
        box = page.locator(selector).bounding_box()
        assert box is not None and box["y"] >= 0, f"{state}: {selector} is off the screen"
        assert box["y"] + box["height"] <= page.evaluate("window.innerHeight"), (
            f"{state}: {selector} is below the screen"
        )


ANSWERED = "#turns .turn:not(.pending):not(.turn-error)"
# Waits poll every 100 ms: Playwright's default polls on every animation frame, which has the
# page render 60 frames a second for as long as an answer takes (most of Chromium's CPU in a
# loaded run).
POLL = 100


def _send(page: Any, question: str) -> Any:
    before = page.locator(ANSWERED).count()
    page.fill("#question", question)
    page.press("#question", "Enter")
    page.wait_for_function(
        f"document.querySelectorAll('{ANSWERED}').length > {before}", timeout=30_000, polling=POLL
    )
    # The echo shown while waiting gives way to the answer.
    page.wait_for_function(
        "!document.querySelector('#turns .turn.pending')", timeout=5_000, polling=POLL
    )
    return page.locator(ANSWERED).last


@pytest.mark.parametrize("screen", list(SCREENS))
def test_the_page_holds_at_every_width_with_the_header_reachable_and_focus_in_the_box(
    ward_app: dict[str, Any], screen: str
) -> None:
    page = _page(ward_app, screen, f"/c/{ward_app['long_one']}/")
    _no_horizontal_overflow(page, f"{screen}, nine turns")
    turn = _send(page, "Liều paracetamol cho người lớn?")  # the tenth answer
    page.wait_for_function(
        "document.activeElement && document.activeElement.id === 'question'", polling=POLL
    )
    assert page.locator("#question").input_value() == ""
    turn.locator("a.cite").first.click()
    turn.locator(".citations li details[open] .quote").first.wait_for(state="visible")
    page.wait_for_timeout(400)  # the smooth scroll inside the pane
    _no_horizontal_overflow(page, f"{screen}, after a citation click")
    if SCREENS[screen]["width"] > 720:
        assert page.evaluate("document.scrollingElement.scrollTop") == 0, "the page itself moved"
    _header_in_view(page, screen)
    shot(page, f"ward-{screen}.png")
    _axe(page, f"{screen} answer")


def test_a_table_renders_with_the_patients_row_marked_and_the_states_pass_axe(
    ward_app: dict[str, Any],
) -> None:
    page = _page(ward_app, "desktop-1440")
    turn = _send(page, "Liều vancomycin cho người suy thận Clcr 40 ml/phút?")
    table = turn.locator(".card-answer .claim table").first
    table.wait_for(state="visible")
    assert table.locator("th").first.inner_text().startswith("Độ thanh thải creatinin Clcr")
    marked = table.locator("tr.patient-row")
    assert marked.count() == 1 and marked.locator("td").first.inner_text() == "40"
    assert "|" not in table.inner_text() and "<br>" not in turn.inner_text()
    assert "Clcr: 40" in turn.locator(".understood").inner_text()
    table.scroll_into_view_if_needed()
    shot(page, "ward-table.png")
    _axe(page, "a table answer")

    # Copying a dose line carries its citation.
    copy = turn.locator(".claim button.copy").first
    copy.click()
    copied = copy.get_attribute("data-copied")
    assert copied and "Dược thư QG 2018: VANCOMYCIN" in copied and "trang" in copied

    clarify = _send(page, "Cho mình xin liều paracetamol cho trẻ em với")
    buttons = clarify.locator("button.quick-reply")
    labels = [b.strip() for b in buttons.all_inner_texts()]
    assert (
        len(labels) == 9 and "Trẻ em 6 tháng - 2 tuổi" in labels and "Trẻ em 2 - 4 tuổi" in labels
    )
    assert clarify.locator(".group-label").count() >= 2
    assert "PARACETAMOL" in clarify.locator(".clarify-title").inner_text()
    clarify.scroll_into_view_if_needed()
    shot(page, "ward-clarify.png")
    _axe(page, "a clarify card with grouped quick replies")
    buttons.filter(has_text="Trẻ em 2 - 4 tuổi").click()
    page.wait_for_selector("#turns .turn:last-child .card-answer .claim.asked")
    asked = page.locator("#turns .turn:last-child .claim.asked")
    assert asked.count() == 1 and "Trẻ em 2 - 4 tuổi: 180 mg" in asked.inner_text()
    page.wait_for_function(
        "document.activeElement && document.activeElement.id === 'question'", polling=POLL
    )
    # The bands either side, one click away, naming the drug.
    tapped = page.locator("#turns .turn:last-child")
    near = tapped.locator(".quick-replies.neighbours")
    assert [b.strip() for b in near.locator("button.quick-reply").all_inner_texts()] == [
        "Trẻ em 6 tháng - 2 tuổi",
        "Trẻ em 4 - 6 tuổi",
    ]
    assert "PARACETAMOL" in near.locator(".group-label").inner_text()
    assert tapped.locator(".claim").first.get_attribute("class") == "claim asked"
    near.scroll_into_view_if_needed()
    shot(page, "ward-band-neighbours.png")
    _axe(page, "a child's band answer with its neighbouring bands")
    before = page.locator(ANSWERED).count()
    near.locator("button.quick-reply", has_text="Trẻ em 4 - 6 tuổi").click()
    page.wait_for_function(
        f"document.querySelectorAll('{ANSWERED}').length > {before}", polling=POLL
    )
    asked = page.locator("#turns .turn:last-child .claim.asked")
    asked.wait_for(state="visible")
    assert asked.count() == 1 and "Trẻ em 4 - 6 tuổi: 240 mg" in asked.inner_text()
    assert "PARACETAMOL" in page.locator("#turns .turn:last-child .bubble.user").inner_text()
    page.wait_for_function(
        "document.activeElement && document.activeElement.id === 'question'", polling=POLL
    )

    abstain = _send(page, "Chó nhà tôi bị sốt, cho uống ibuprofen liều bao nhiêu?")
    assert abstain.locator(".card-abstain").count() == 1
    _axe(page, "an abstain card")


def test_a_hung_request_ends_in_one_error_card_with_gui_lai_and_a_cancel(
    ward_app: dict[str, Any],
) -> None:
    page = _page(ward_app, "phone-390")
    assert page.evaluate("htmx.config.timeout") == settings.ANSWER_BUDGET_SECONDS * 1000 + 5000
    _axe(page, "the empty page")
    page.evaluate("htmx.config.timeout = 800")  # the server's budget, shortened for the test
    page.route("**/ask/", lambda route: None)  # the server never answers
    question = "Liều paracetamol cho người lớn?"
    page.fill("#question", question)
    page.press("#question", "Enter")
    echo = page.locator("#turns .turn.pending")
    assert echo.inner_text().count(question) == 1  # echoed at once, while waiting
    progress = page.locator("#thinking")
    assert progress.is_visible()
    box = progress.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 844, "progress line below the fold"
    shot(page, "ward-waiting.png")
    card = page.locator(".turn-error .card-error")
    card.wait_for(state="visible", timeout=10_000)
    assert "quá lâu" in card.inner_text() and page.locator("button.retry").inner_text() == "Gửi lại"
    assert page.locator("#question").input_value() == question
    shot(page, "ward-error.png")
    _axe(page, "an error card")
    # A second failure replaces the card instead of stacking another.
    page.locator("button.retry").click()
    page.wait_for_selector(".turn-error .card-error", timeout=10_000)
    assert page.locator(".turn-error").count() == 1
    # Cancel: waiting stops, the question is back in the box and can be sent.
    page.evaluate("htmx.config.timeout = 0")
    page.locator("button.retry").click()
    page.locator("#cancel").click()
    page.wait_for_function("!document.querySelector('#turns .turn.pending')", polling=POLL)
    assert page.locator("#question").is_enabled()
    assert page.locator("#question").input_value() == question
    page.unroute("**/ask/")
    page.locator("#question").press("Enter")
    page.wait_for_selector("#turns .card-answer", timeout=30_000)
    assert page.locator(".turn-error").count() == 0


def test_the_conversation_list_is_dated_searchable_paged_and_retitled_at_once(
    ward_app: dict[str, Any],
) -> None:
    page = _page(ward_app, "desktop-1440")
    assert page.locator("#history li time").count() >= 2
    entries = page.locator("#history li").count()
    page.click("button.new")
    page.wait_for_selector("#question")
    page.click("button.new")  # twice: still one empty conversation
    page.wait_for_selector("#question")
    assert page.locator("#history li").count() == entries + 1
    assert page.locator("#history li.current .title").inner_text() == "Hội thoại mới"
    _send(page, "Omeprazol tương tác thuốc gì?")
    page.wait_for_function(
        "document.querySelector('#history li.current .title').textContent.startsWith('Omeprazol')",
        polling=POLL,
    )
    # Searched by the words of the questions, typed without diacritics.
    page.fill("#history-q", "omeprazol tuong tac")
    page.wait_for_function(
        "document.querySelectorAll('#history li .title').length === 1", polling=POLL
    )
    assert page.locator("#history li .title").inner_text().startswith("Omeprazol tương tác")
    page.fill("#history-q", "khong co cau hoi nay")
    page.wait_for_selector("#history li.empty")
    _axe(page, "the conversation list searched")


def test_the_review_queue_and_a_review_page_pass_axe_and_preview_an_edit(
    ward_app: dict[str, Any],
) -> None:
    context = ward_app["browser"].new_context(
        viewport={"width": 1440, "height": 900}, locale="vi-VN", bypass_csp=True
    )
    page = context.new_page()
    page.goto(ward_app["base"] + "/admin/login/")
    page.fill("#id_username", REVIEWER)
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    page.goto(ward_app["base"] + "/admin/corpus/chunk/review/?kind=table")
    assert page.locator("#review-queue tbody tr").count() >= 20
    shot(page, "ward-review-queue.png")
    _axe(page, "the review queue")
    page.select_option("#f-drug", "vancomycin")
    page.click(".queue-filters input[type=submit]")
    page.locator("#review-queue tbody a").first.click()
    page.wait_for_selector("#preview table")
    # The cited printed pages, as images of the book's PDF.
    images = page.locator("#print-pages img")
    assert images.count() >= 1
    page.locator("#print-pages").scroll_into_view_if_needed()
    page.wait_for_function(
        "[...document.querySelectorAll('#print-pages img')]"
        ".every(i => i.complete && i.naturalWidth > 1000)",
        polling=POLL,
    )
    first = page.locator("#print-pages figcaption").first.inner_text()
    assert first.startswith("Trang in ")
    shot(page, "ward-review-pages.png")
    _axe(page, "a review page with its printed pages")
    page.fill("#id_text", "| Clcr | Liều |\n|---|---|\n| 40 | 620<br>mg |")
    page.wait_for_selector("#preview td:has-text('620')")
    assert page.locator("#preview td br").count() == 1
    shot(page, "ward-review.png", full_page=True)
    context.close()


def test_a_pharmacist_asks_gets_cited_answers_a_quick_reply_an_abstain_and_an_error_card(
    ward_app: dict[str, Any],
) -> None:
    """A first conversation from the login on (a user of its own, in a context of its own:
    it ends by dropping its session)."""
    from playwright.sync_api import expect

    live_app = ward_app["base"]
    context = ward_app["browser"].new_context(
        viewport={"width": 1280, "height": 900}, locale="vi-VN"
    )
    try:
        page = context.new_page()
        page.goto(live_app + "/")
        page.fill("#id_username", FIRST_USER)
        page.fill("#id_password", PASSWORD)
        page.click("button[type=submit]")
        page.wait_for_selector("#question")

        page.fill("#question", "Liều paracetamol cho người lớn?")
        page.press("#question", "Enter")
        answer = page.locator(".card-answer").first
        # The server may not have answered yet (its catalogs load with the first question):
        # a longer wait, once.
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
    finally:
        context.close()
