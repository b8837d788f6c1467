"""System checks of the database server (issue 21): `check`, `check --deploy`, `migrate` and
`bin/serve` refuse a database that would silently answer differently.

On a SQL_ASCII database (what PostgreSQL creates under a C/POSIX locale) migrate and ingest
succeed, and then 12 of the 70 development questions got different answers; a non-UTF-8
character type leaves lower('ĐIỀU') unchanged, which breaks every diacritics-aware match.
Each refusal names the SQL a database administrator runs as superuser.
"""

from typing import Any, Protocol

from django.core import checks
from django.db import DatabaseError, connections

# The extensions migration 0001 creates; only a superuser may create `vector` (it is not a
# trusted extension), while `unaccent` and `pg_trgm` are trusted: the database owner may.
EXTENSIONS = ("vector", "unaccent", "pg_trgm")
# Upper and lower case of the book's own letters, as a Vietnamese-capable character type folds
# them (a C or POSIX ctype leaves every non-ASCII letter as it is).
VIETNAMESE_UPPER = "ĐIỀU TRỊ Ở TRẺ EM, PHỤ NỮ MANG THAI"
VIETNAMESE_LOWER = "điều trị ở trẻ em, phụ nữ mang thai"


class Cursor(Protocol):
    def execute(self, sql: str, params: Any = ...) -> Any: ...
    def fetchone(self) -> Any: ...
    def fetchall(self) -> Any: ...


def _text(value: Any) -> Any:
    # On a SQL_ASCII database psycopg returns text columns as bytes.
    return value.decode("ascii", "replace") if isinstance(value, bytes) else value


def _create_database_sql(name: str, owner: str) -> str:
    return (
        f'CREATE DATABASE "{name}" OWNER "{owner}" ENCODING \'UTF8\' '
        "LC_COLLATE 'C.UTF-8' LC_CTYPE 'C.UTF-8' TEMPLATE template0;"
    )


def database_problems(cursor: Cursor) -> list[checks.CheckMessage]:
    """What is wrong with the database behind `cursor`, each with the SQL that fixes it."""
    cursor.execute(
        "SELECT current_database(), current_user, pg_encoding_to_char(d.encoding), "
        "d.datcollate, d.datctype, lower(%s) = %s, upper(%s) = %s, "
        "(SELECT rolsuper FROM pg_roles WHERE rolname = current_user), "
        "has_database_privilege(current_database(), 'CREATE') "
        "FROM pg_database d WHERE d.datname = current_database()",
        [VIETNAMESE_UPPER, VIETNAMESE_LOWER, VIETNAMESE_LOWER, VIETNAMESE_UPPER],
    )
    name, user, encoding, collate, ctype, lowers, uppers, superuser, may_create = map(
        _text, cursor.fetchone()
    )
    problems: list[checks.CheckMessage] = []
    if encoding != "UTF8":
        problems.append(
            checks.Error(
                f"Cơ sở dữ liệu «{name}» dùng bảng mã {encoding}, không phải UTF8: chữ tiếng Việt "
                "sẽ bị so khớp sai và câu trả lời thay đổi.",
                hint="A superuser creates a UTF-8 database and the app is set up into it "
                "(restore a dump taken with pg_dump, see the README's backup section): "
                + _create_database_sql(name, user),
                id="duocthu.E001",
            )
        )
    elif not (lowers and uppers):
        problems.append(
            checks.Error(
                f"Cơ sở dữ liệu «{name}» (LC_COLLATE {collate}, LC_CTYPE {ctype}) không đổi "
                "được chữ hoa/thường tiếng Việt (lower('ĐIỀU') ≠ 'điều'): tìm kiếm theo tên "
                "thuốc và mục sẽ sai.",
                hint="A superuser creates the database with a UTF-8 character type: "
                + _create_database_sql(name, user),
                id="duocthu.E002",
            )
        )
    cursor.execute(
        "SELECT a.name, a.installed_version IS NOT NULL, "
        "coalesce((SELECT bool_or(v.trusted) FROM pg_available_extension_versions v "
        "WHERE v.name = a.name), false) "
        "FROM pg_available_extensions a WHERE a.name = ANY(%s)",
        [list(EXTENSIONS)],
    )
    available = {_text(row[0]): (row[1], row[2]) for row in cursor.fetchall()}
    for extension in EXTENSIONS:
        if extension not in available:
            problems.append(
                checks.Error(
                    f"Máy chủ PostgreSQL không có phần mở rộng «{extension}».",
                    hint=f"Install it on the database server (Debian: "
                    f"{'postgresql-NN-pgvector' if extension == 'vector' else 'postgresql-contrib'}"
                    f"), then as superuser in database {name}: "
                    f"CREATE EXTENSION IF NOT EXISTS {extension};",
                    id="duocthu.E003",
                )
            )
            continue
        installed, trusted = available[extension]
        # migrate creates an extension the user may create; otherwise a superuser must first.
        if installed or superuser or (trusted and may_create):
            continue
        problems.append(
            checks.Error(
                f"Phần mở rộng «{extension}» chưa được tạo trong cơ sở dữ liệu «{name}», và "
                f"người dùng «{user}» không có quyền tạo.",
                hint=f'As superuser: psql -d "{name}" -c "CREATE EXTENSION IF NOT EXISTS '
                f'{extension};"',
                id="duocthu.E004",
            )
        )
    return problems


@checks.register()
def check_database(app_configs: Any = None, databases: Any = None, **kwargs: Any) -> list[Any]:
    """Runs with every `check` (not only with --database), so `check --deploy` refuses too."""
    try:
        with connections["default"].cursor() as cursor:
            return database_problems(cursor)
    except DatabaseError as exc:
        return [
            checks.Error(
                f"Không kết nối được cơ sở dữ liệu: {exc}".strip(),
                hint="Check DATABASE_URL and that PostgreSQL accepts this host.",
                id="duocthu.E005",
            )
        ]
