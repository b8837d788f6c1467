"""Debian's headless Chromium for the browser tests (Playwright drives it by
`executable_path`, never `playwright install`), and their optional screenshots."""

from typing import Any

from django.conf import settings

from duocthu.settings import env_bool

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
SHOTS = settings.VAR_DIR / "screenshots"


def shot(page: Any, name: str, **options: Any) -> None:
    """A screenshot of the state under var/screenshots/, with DUOCTHU_SCREENSHOTS=1 (the
    README's pictures come from them): not taken otherwise, ~3 s of the suite's CPU."""
    if env_bool("DUOCTHU_SCREENSHOTS", False):
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / name), **options)
