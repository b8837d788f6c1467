"""pytest plugin (`-p duocthu.testdb` in pyproject): the tests' database server.

pytest-django reads the settings before any conftest is loaded, so the embedded PostgreSQL
is started here, around that hook, when DATABASE_URL is not set.
"""

from collections.abc import Generator

import pytest

from duocthu.devdb import use_embedded_database


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_load_initial_conftests() -> Generator[None, None, None]:
    use_embedded_database()
    return (yield)
