import secrets
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from corpus.access import ensure_reviewer_group
from corpus.ingest import ingest_formulary
from corpus.jobs import embed_chunks
from corpus.markdown import CorpusFormatError


class Command(BaseCommand):
    help = "Local set-up for `make run`: load the formulary, embed it, create the admin account."

    def handle(self, *args: Any, **options: Any) -> None:
        group = ensure_reviewer_group()
        corpus = Path(settings.DUOCTHU_CORPUS_DIR)
        if corpus.exists():
            try:
                summary = ingest_formulary(corpus)
            except CorpusFormatError as exc:
                self.stderr.write(f"The formulary was NOT loaded (nothing changed): {exc}")
            else:
                self.stdout.write(
                    f"Formulary from {corpus}: {summary.drugs} drugs, {summary.chunks} chunks, "
                    f"{summary.quarantined_chunks} awaiting visual check ({summary.seconds:.1f} s)."
                )
                embedded = embed_chunks()
                self.stdout.write(f"Embedded {embedded} chunks.")
        else:
            self.stderr.write(
                f"No formulary is loaded: {corpus} does not exist. Set DUOCTHU_CORPUS_DIR to your "
                "copy of the book, or run `python manage.py ingest_formulary PATH`."
            )
        user_model = get_user_model()
        login_file = settings.VAR_DIR / "admin-login.txt"
        if not user_model.objects.filter(username="admin").exists():
            password = secrets.token_urlsafe(12)
            user = user_model.objects.create_superuser("admin", "", password)
            user.groups.add(group)
            login_file.write_text(f"admin {password}\n")
            login_file.chmod(0o600)
            self.stdout.write(
                self.style.SUCCESS(
                    f"Admin login (shown once; also in {login_file}): admin / {password}"
                )
            )
        else:
            self.stdout.write(
                f"Admin account exists; its login was printed at first run ({login_file})."
            )
