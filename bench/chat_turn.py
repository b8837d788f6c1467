"""Server time of an extractive-mode chat turn through the real view.

200 questions from ../shared/eval/dev.jsonl (cycled), each POSTed as an HTMX request to
/c/<id>/ask/ through Django's test client against the app's database (ingested first if
empty). Prints p50/p95 in milliseconds, and the CPU p50 of this process (the server's Python
work; PostgreSQL's aside), which other load on the machine moves less than wall time.
Run: .venv/bin/python bench/chat_turn.py
"""

import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "duocthu.settings")
os.environ["ANSWER_PROVIDER"] = "disabled"

from duocthu.devdb import use_embedded_database  # noqa: E402

use_embedded_database()
import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

from chat.models import Conversation  # noqa: E402
from corpus.models import Drug  # noqa: E402

N = 200


def main() -> None:
    setup_test_environment()
    call_command("migrate", verbosity=0)
    if not Drug.objects.exists():
        call_command("setup_local")
    dev = Path(settings.DUOCTHU_CORPUS_DIR).parent.parent / "eval" / "dev.jsonl"
    questions = [
        json.loads(line)["question"] for line in dev.read_text().splitlines() if line.strip()
    ]
    user, _ = User.objects.get_or_create(username="bench")
    client = Client(HTTP_HX_REQUEST="true")
    client.force_login(user)
    timings, cpu = [], []
    try:
        client.post(
            f"/c/{Conversation.objects.create(user=user).pk}/ask/", {"question": "omeprazol"}
        )  # warm
        for n in range(N):
            # A fresh conversation every 10 turns, as people start new topics.
            if n % 10 == 0:
                conversation = Conversation.objects.create(user=user)
            started, cpu_started = time.perf_counter(), time.process_time()
            response = client.post(
                f"/c/{conversation.pk}/ask/", {"question": questions[n % len(questions)]}
            )
            timings.append((time.perf_counter() - started) * 1000)
            cpu.append((time.process_time() - cpu_started) * 1000)
            assert response.status_code == 200, response.status_code
    finally:
        user.delete()
    timings.sort()
    print(f"extractive chat turns through the view: {N}")
    print(
        f"server time p50 {statistics.median(timings):.1f} ms, p95 {timings[int(0.95 * N)]:.1f} ms, "
        f"max {timings[-1]:.1f} ms; CPU p50 {statistics.median(cpu):.1f} ms"
    )


if __name__ == "__main__":
    main()
