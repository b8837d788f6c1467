from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from corpus.jobs import embed_chunks, enqueue_embedding


class Command(BaseCommand):
    help = "Embed chunks whose text or embedding model changed (queued, or --sync to run here)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--sync", action="store_true", help="run here instead of in rq")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["sync"]:
            count = embed_chunks()
            self.stdout.write(f"embedded {count} chunks")
        else:
            enqueue_embedding()
            self.stdout.write("embedding job queued")
