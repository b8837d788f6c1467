"""An htmx request after the session expired is told to load the login page (HX-Redirect),
never answered with the login form to paste into the conversation."""

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_an_htmx_post_without_a_session_redirects_the_page_to_login() -> None:
    client = Client(HTTP_HX_REQUEST="true", HTTP_HX_CURRENT_URL="http://testserver/c/7/")
    response = client.post("/ask/", {"question": "Liều paracetamol?"})
    assert response.status_code == 200
    assert response["HX-Redirect"].startswith("/login/?next=http://testserver/c/7/")
    assert b"id_password" not in response.content


def test_a_plain_request_without_a_session_still_gets_the_usual_redirect() -> None:
    response = Client().get("/")
    assert response.status_code == 302 and response["Location"].startswith("/login/")
