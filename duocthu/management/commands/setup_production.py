import os
import sys
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser

from corpus.access import ensure_reviewer_group
from corpus.models import REVIEWER_GROUP


class Command(BaseCommand):
    help = (
        "First-time (and repeatable) production set-up: the reviewer group «Dược sĩ duyệt» "
        "with its view rights and, from a terminal, the first administrator. Running it again "
        "changes nothing."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--reviewer",
            action="append",
            default=[],
            metavar="USERNAME",
            help="add this existing account to «Dược sĩ duyệt» (repeatable)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        group = ensure_reviewer_group()
        self.stdout.write(
            f"Nhóm «{REVIEWER_GROUP}»: {group.permissions.count()} quyền xem; chỉ thành viên "
            "của nhóm được duyệt các đoạn chờ kiểm tra."
        )
        users = get_user_model().objects
        for username in options["reviewer"]:
            user = users.filter(username=username).first()
            if user is None:
                raise CommandError(f"Không có tài khoản «{username}»: tạo nó trước trong /admin/.")
            user.groups.add(group)
            self.stdout.write(f"«{username}» thuộc nhóm «{REVIEWER_GROUP}».")
        if users.filter(is_superuser=True, is_active=True).exists():
            self.stdout.write("Đã có tài khoản quản trị; không tạo thêm.")
            return
        if os.environ.get("DJANGO_SUPERUSER_USERNAME"):
            # Non-interactive: DJANGO_SUPERUSER_USERNAME, _EMAIL, _PASSWORD (Django's own).
            call_command("createsuperuser", interactive=False, verbosity=0)
        elif sys.stdin.isatty():
            self.stdout.write("Tạo tài khoản quản trị đầu tiên:")
            call_command("createsuperuser", interactive=True)
        else:
            self.stderr.write(
                "Chưa có tài khoản quản trị. Chạy lại lệnh này từ một terminal, hoặc đặt "
                "DJANGO_SUPERUSER_USERNAME và DJANGO_SUPERUSER_PASSWORD."
            )
            return
        self.stdout.write(
            self.style.SUCCESS(
                f"Đã tạo tài khoản quản trị. Thêm các dược sĩ duyệt vào nhóm «{REVIEWER_GROUP}» "
                "trong /admin/auth/user/ (hoặc --reviewer USERNAME)."
            )
        )
