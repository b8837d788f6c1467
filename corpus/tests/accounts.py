"""Who does what in the admin tests: a browser client logged in as one account."""

from django.contrib.auth.models import User
from django.test import Client


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client
