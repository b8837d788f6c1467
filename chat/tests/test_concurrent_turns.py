"""Questions sent at once into one conversation (issue 12.3): every one is answered and
stored, in distinct order, none a 500. The rows are committed (each thread has its own
database connection, as each server worker does) and deleted afterwards."""

import threading

import pytest
from django.db import connection

N_AT_ONCE = 8


def test_questions_sent_at_once_each_get_their_own_turn(django_db_setup, django_db_blocker) -> None:  # type: ignore[no-untyped-def]
    from django.contrib.auth.models import User

    from chat.conversation import ask_in_conversation
    from chat.models import Conversation, Turn

    with django_db_blocker.unblock():
        User.objects.filter(username="bs_dong_thoi").delete()
        user = User.objects.create_user("bs_dong_thoi")
        conversation = Conversation.objects.create(user=user)
    errors: list[BaseException] = []
    start = threading.Barrier(N_AT_ONCE)

    def send(n: int) -> None:
        try:
            with django_db_blocker.unblock():
                start.wait()
                ask_in_conversation(conversation, f"Liều paracetamol cho người lớn? ({n})")
        except BaseException as exc:  # noqa: BLE001 - collected and asserted below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(n,)) for n in range(N_AT_ONCE)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    try:
        with django_db_blocker.unblock():
            orders = list(
                Turn.objects.filter(conversation=conversation)
                .order_by("order")
                .values_list("order", flat=True)
            )
        assert errors == []
        assert orders == list(range(1, N_AT_ONCE + 1))
    finally:
        with django_db_blocker.unblock():
            Turn.objects.filter(conversation=conversation).delete()
            conversation.delete()
            user.delete()


pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
