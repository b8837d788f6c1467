from django.apps import AppConfig


class DuocthuConfig(AppConfig):
    """The project package as an app: its system checks and operations commands."""

    name = "duocthu"
    verbose_name = "duocthu"

    def ready(self) -> None:
        from duocthu import checks  # noqa: F401 - registers the database checks
