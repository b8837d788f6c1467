from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import parse_qsl

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.paginator import Page, Paginator
from django.db.models import Q
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST
from django_htmx.middleware import HtmxDetails

from answering.results import DISCLAIMER, MAX_QUESTION_CHARS
from chat.conversation import ask_in_conversation
from chat.models import Conversation, Feedback, Turn
from chat.privacy import mask_personal_numbers
from corpus.text import clean_input


class ChatRequest(HttpRequest):
    """What the views see: a logged-in user (login_required) and django-htmx's details."""

    htmx: HtmxDetails
    user: User  # type: ignore[assignment]


# Text typed into the box is cut off by the browser at this many characters; the answering
# layer itself refuses anything over MAX_QUESTION_CHARS with a clear message.
FORM_MAX_CHARS = MAX_QUESTION_CHARS


# A form body that is not UTF-8 was decoded with replacement characters and stored as
# mojibake (issue 19's red team): refused whole, saying so, before anything is stored.
NOT_UTF8 = "Nội dung gửi lên không phải văn bản UTF-8 hợp lệ; không có gì được lưu. Hãy gõ lại."


def _is_utf8(request: HttpRequest) -> bool:
    """Whether the form body, and each percent-encoded value in it, is valid UTF-8."""
    if request.content_type != "application/x-www-form-urlencoded":
        return not any("\ufffd" in v for vs in request.POST.lists() for v in vs[1])
    try:
        parse_qsl(request.body.decode("utf-8"), keep_blank_values=True, errors="strict")
    except UnicodeDecodeError:
        return False
    return True


def utf8_body(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    @wraps(view)
    def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not _is_utf8(request):
            return HttpResponseBadRequest(NOT_UTF8, content_type="text/plain; charset=utf-8")
        return view(request, *args, **kwargs)

    return checked


# The conversation list, newest first, this many at a time (issue 22: 30 and no more was
# the old cap, older ones unreachable).
CONVERSATIONS_PER_PAGE = 25
# A long conversation opens on its latest turns; older ones load on request (300 turns were
# a 3.1 MB page, issue 19).
TURNS_PER_PAGE = 20
# The browser gives up a little after the server's own answer budget has run out, so a
# hung request ends in an error card, never in a spinner that stays.
REQUEST_MARGIN_MS = 5_000


def request_timeout_ms() -> int:
    return int(settings.ANSWER_BUDGET_SECONDS * 1000) + REQUEST_MARGIN_MS


def _conversations(request: ChatRequest) -> tuple[Page[Conversation], str]:
    """The user's conversations, searched by the words of their questions (with or without
    diacritics), one page of them."""
    q = clean_input(request.GET.get("q", ""))[:200].strip()
    mine = Conversation.objects.filter(user=request.user)
    for word in q.split()[:8]:
        mine = mine.filter(
            Q(turns__question__unaccent__icontains=word) | Q(title__unaccent__icontains=word)
        )
    if q:
        mine = mine.distinct()
    paginator = Paginator(mine.order_by("-updated_at", "-id"), CONVERSATIONS_PER_PAGE)
    return paginator.get_page(request.GET.get("page")), q


def _context(
    request: ChatRequest, conversation: Conversation | None, before: int | None = None
) -> dict[str, object]:
    conversations, q = _conversations(request)
    turns: list[Turn] = []
    older_from, older_count = None, 0
    if conversation is not None:
        shown = conversation.turns.all()
        if before is not None:
            shown = shown.filter(order__lt=before)
        latest = list(shown.prefetch_related("feedback").order_by("-order")[:TURNS_PER_PAGE])
        turns = latest[::-1]
        if turns:
            older_count = shown.filter(order__lt=turns[0].order).count()
            older_from = turns[0].order if older_count else None
    return {
        "conversation": conversation,
        "turns": turns,
        "older_from": older_from,
        "older_count": older_count,
        "conversations": conversations,
        "q": q,
        "disclaimer": DISCLAIMER,
        "max_chars": FORM_MAX_CHARS,
        "request_timeout_ms": request_timeout_ms(),
    }


def _page(request: ChatRequest, conversation: Conversation | None) -> HttpResponse:
    """The page, or the fragment an htmx request asked for: the conversation list (search,
    pages) or the turns before a given one."""
    try:
        before = int(request.GET["before"]) if "before" in request.GET else None
    except ValueError:
        before = None
    context = _context(request, conversation, before)
    if request.htmx and request.htmx.target == "history":
        return render(request, "chat/conversation.html#history", context)
    if request.htmx and before is not None and conversation is not None:
        return render(request, "chat/conversation.html#older_page", context)
    return render(request, "chat/conversation.html", context)


@login_required
def index(request: ChatRequest) -> HttpResponse:
    latest = Conversation.objects.filter(user=request.user).first()
    if latest is not None and not latest.turns.exists() and not request.GET:
        return redirect("chat:conversation", pk=latest.pk)
    return _page(request, None)


@login_required
@require_POST
def new_conversation(request: ChatRequest) -> HttpResponse:
    # An empty conversation is reused: "+ Hội thoại mới" pressed ten times is one entry.
    conversation = Conversation.objects.filter(
        user=request.user, turns__isnull=True, title=""
    ).first()
    if conversation is None:
        conversation = Conversation.objects.create(user=request.user)
    else:
        conversation.updated_at = timezone.now()
        conversation.save(update_fields=["updated_at"])
    url = reverse("chat:conversation", args=[conversation.pk])
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
        return response
    return HttpResponseRedirect(url)


@login_required
def conversation(request: ChatRequest, pk: int) -> HttpResponse:
    conv = get_object_or_404(Conversation, pk=pk, user=request.user)
    return _page(request, conv)


@login_required
@require_POST
@utf8_body
def ask(request: ChatRequest, pk: int | None = None) -> HttpResponse:
    if pk is None:
        conv = Conversation.objects.create(user=request.user)
    else:
        conv = get_object_or_404(Conversation, pk=pk, user=request.user)
    turn = ask_in_conversation(conv, request.POST.get("question", ""))
    if request.htmx:
        # A turn made by this request has no feedback yet: no query for it.
        html: str = render_to_string(
            "chat/conversation.html#turn", {"turn": turn, "new_turn": True}, request=request
        )
        oob = {**_context(request, conv), "oob": True} if turn.order == 1 or pk is None else {}
        if turn.order == 1:
            # The first turn names the conversation: its entry in the list says so at once.
            html += '<p id="welcome" hx-swap-oob="delete"></p>'
            html += render_to_string("chat/conversation.html#history", oob, request=request)
        response = HttpResponse(html)
        if pk is None:
            # The page had no conversation yet: point the form at the new one.
            html += render_to_string("chat/conversation.html#ask_form", oob, request=request)
            response = HttpResponse(html)
            response["HX-Push-Url"] = reverse("chat:conversation", args=[conv.pk])
        return response
    return redirect("chat:conversation", pk=conv.pk)


@login_required
@require_POST
@utf8_body
def feedback(request: ChatRequest, pk: int) -> HttpResponse:
    """One feedback per user and turn: sending again replaces it."""
    turn = get_object_or_404(Turn, pk=pk, conversation__user=request.user)
    given, _ = Feedback.objects.update_or_create(
        turn=turn,
        user=request.user,
        defaults={
            "useful": request.POST.get("useful") == "1",
            # A comment is stored masked like a question (a phone number typed there too).
            "comment": mask_personal_numbers(clean_input(request.POST.get("comment", "")))[:2000],
        },
    )
    if request.htmx:
        return render(
            request, "chat/conversation.html#feedback_done", {"turn": turn, "given": given}
        )
    return redirect("chat:conversation", pk=turn.conversation_id)
