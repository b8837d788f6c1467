"""After a child's band is tapped (issue 22), the asked band's dose leads and the book's bands
either side of it are one click away, each a question naming the drug."""

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from chat.models import Conversation

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
DRUG = "PARACETAMOL (Acetaminophen)"


@pytest.fixture
def conversation(doctor: User) -> Conversation:
    return Conversation.objects.create(user=doctor)


def _ask(doctor: User, conversation: Conversation, question: str) -> str:
    client = Client()
    client.force_login(doctor)
    response = client.post(
        reverse("chat:ask", args=[conversation.pk]), {"question": question}, **HTMX
    )
    assert response.status_code == 200
    return response.content.decode()


def _neighbours(card: str) -> list[str]:
    group = re.search(r'<div class="quick-replies neighbours".*?</div>\s*</div>', card, re.S)
    return re.findall(r'name="question" value="([^"]+)"', group.group(0)) if group else []


def _first_claim(card: str) -> str:
    """The first line of the card, without its citation and copy button."""
    claim = re.search(r'<div class="claim[^"]*">(.*?)<a class="cite"', card, re.S)
    assert claim is not None
    return re.sub(r"<[^>]+>", "", claim[1]).strip()


def test_a_tapped_band_leads_with_the_bands_either_side_one_click_away(
    doctor: User, conversation: Conversation
) -> None:
    clarify = _ask(doctor, conversation, "Cho mình xin liều paracetamol cho trẻ em với")
    assert 'class="quick-reply">Trẻ em 2 - 4 tuổi<' in clarify and not _neighbours(clarify)

    tapped = _ask(doctor, conversation, "Trẻ em 2 - 4 tuổi")
    assert _first_claim(tapped).endswith("Trẻ em 2 - 4 tuổi: 180 mg")
    assert '<div class="claim asked">' in tapped
    assert _neighbours(tapped) == [
        f"Liều {DRUG} cho Trẻ em 6 tháng - 2 tuổi",
        f"Liều {DRUG} cho Trẻ em 4 - 6 tuổi",
    ]
    assert f"{DRUG} — liều cho khoảng tuổi kề bên" in tapped
    assert 'class="quick-reply">Trẻ em 4 - 6 tuổi<' in tapped

    # The next band's button: its dose leads, and its own neighbours follow.
    older = _ask(doctor, conversation, f"Liều {DRUG} cho Trẻ em 4 - 6 tuổi")
    assert _first_claim(older).endswith("Trẻ em 4 - 6 tuổi: 240 mg")
    assert _neighbours(older) == [
        f"Liều {DRUG} cho Trẻ em 2 - 4 tuổi",
        f"Liều {DRUG} cho Trẻ em 6 - 8 tuổi",
    ]


def test_the_youngest_band_has_one_neighbour_and_a_typed_age_gets_them_too(
    doctor: User, conversation: Conversation
) -> None:
    youngest = _ask(doctor, conversation, "Liều paracetamol cho trẻ em 3 - 6 tháng tuổi")
    assert _neighbours(youngest) == [f"Liều {DRUG} cho Trẻ em 6 tháng - 2 tuổi"]
    typed = _ask(doctor, conversation, "Liều paracetamol cho trẻ 3 tuổi?")
    assert _neighbours(typed) == [
        f"Liều {DRUG} cho Trẻ em 6 tháng - 2 tuổi",
        f"Liều {DRUG} cho Trẻ em 4 - 6 tuổi",
    ]


def test_an_adult_dose_or_a_clarify_card_offers_no_neighbouring_bands(
    doctor: User, conversation: Conversation
) -> None:
    assert not _neighbours(_ask(doctor, conversation, "Liều paracetamol cho người lớn?"))
    assert not _neighbours(_ask(doctor, conversation, "Liều paracetamol cho trẻ em?"))
