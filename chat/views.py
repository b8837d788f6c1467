from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import parse_qsl

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
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


def _context(request: ChatRequest, conversation: Conversation | None) -> dict[str, object]:
    return {
        "conversation": conversation,
        "turns": conversation.turns.prefetch_related("feedback") if conversation else [],
        "conversations": Conversation.objects.filter(user=request.user)[:30],
        "disclaimer": DISCLAIMER,
        "max_chars": FORM_MAX_CHARS,
    }


@login_required
def index(request: ChatRequest) -> HttpResponse:
    latest = Conversation.objects.filter(user=request.user).first()
    if latest is not None and not latest.turns.exists():
        return redirect("chat:conversation", pk=latest.pk)
    return render(request, "chat/conversation.html", _context(request, None))


@login_required
@require_POST
def new_conversation(request: ChatRequest) -> HttpResponse:
    conversation = Conversation.objects.create(user=request.user)
    url = reverse("chat:conversation", args=[conversation.pk])
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
        return response
    return HttpResponseRedirect(url)


@login_required
def conversation(request: ChatRequest, pk: int) -> HttpResponse:
    conv = get_object_or_404(Conversation, pk=pk, user=request.user)
    return render(request, "chat/conversation.html", _context(request, conv))


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
        html: str = render_to_string("chat/conversation.html#turn", {"turn": turn}, request=request)
        if turn.order == 1:
            html += '<p id="welcome" hx-swap-oob="delete"></p>'
        response = HttpResponse(html)
        if pk is None:
            # The page had no conversation yet: point the form at the new one.
            oob = {**_context(request, conv), "oob": True}
            html_form = render_to_string("chat/conversation.html#ask_form", oob, request=request)
            html_history = render_to_string("chat/conversation.html#history", oob, request=request)
            response = HttpResponse(html + html_form + html_history)
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
