"""Inserting thousands of new rows at once (ingest).

Measured by bench/ingest.py on the shared corpus: bulk_create spent most of the write phase
building one large INSERT in Python (2,184 chunks/s for the whole write). COPY hands rows to
the server as they are; psycopg's pipelined executemany of one prepared INSERT is nearly as
fast and places rows on disk exactly as Django's INSERTs did.
"""

from collections.abc import Sequence

from django.db import connection, models


def _columns(model: type[models.Model]) -> tuple[list[models.Field], str, str]:
    """Every concrete column but the primary key and generated columns."""
    fields = [
        f
        for f in model._meta.concrete_fields
        if not f.primary_key and not getattr(f, "generated", False)
    ]
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    return fields, connection.ops.quote_name(model._meta.db_table), columns


def _values(fields: list[models.Field], obj: models.Model) -> list[object]:
    return [f.get_db_prep_save(getattr(obj, f.attname), connection) for f in fields]


def copy_insert(model: type[models.Model], objects: Sequence[models.Model]) -> None:
    """COPY the objects into the model's table; they get no primary key back."""
    if not objects:
        return
    fields, table, columns = _columns(model)
    with connection.cursor() as cursor:
        with cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
            for obj in objects:
                copy.write_row(_values(fields, obj))


def insert_rows(model: type[models.Model], objects: Sequence[models.Model]) -> None:
    """INSERT the objects in one pipelined batch; they get no primary key back.

    For chunks: the pooled ranking (retrieval/queries.py) meets tied rows in the order the
    scan finds them on disk, and COPY's placement moved answers; INSERT's does not.
    """
    if not objects:
        return
    fields, table, columns = _columns(model)
    placeholders = ", ".join(["%s"] * len(fields))
    with connection.cursor() as cursor:
        cursor.cursor.executemany(
            f"INSERT INTO {table} ({columns}) VALUES ({placeholders})",
            [_values(fields, obj) for obj in objects],
        )
