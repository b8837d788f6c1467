"""A chat turn reads the name tables' version once, from the stamp row, and never counts the
name tables (issue 23: three count(*) scans per resolve, three resolves per turn, were the
slowest SQL of most turns at 7× the book)."""

import re

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from chat.models import Conversation

pytestmark = pytest.mark.django_db

NAME_TABLES = ("corpus_alias", "corpus_drug", "corpus_bookindexentry", "corpus_abbreviation")
COUNT = re.compile(r"count\s*\(", re.IGNORECASE)


@pytest.mark.parametrize(
    "question",
    [
        "Liều paracetamol cho người lớn?",
        "Thuốc nào dùng để điều trị tăng huyết áp?",
        "warfarin dùng cùng aspirin được không",
    ],
)
def test_a_turn_reads_the_stamp_once_and_counts_no_name_table(doctor: User, question: str) -> None:
    client = Client()
    client.force_login(doctor)
    conversation = Conversation.objects.create(user=doctor)
    url = reverse("chat:ask", args=[conversation.pk])
    client.post(url, {"question": question})  # the catalogs are built outside the count
    with CaptureQueriesContext(connection) as queries:
        response = client.post(url, {"question": question}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    sql = [q["sql"] for q in queries.captured_queries]
    counted = [s for s in sql if COUNT.search(s) and any(t in s for t in NAME_TABLES)]
    assert counted == []
    assert sum("FROM corpus_catalogstamp" in s for s in sql) == 1
