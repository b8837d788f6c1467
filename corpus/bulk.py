"""Inserting thousands of new rows at once (ingest): one COPY per table.

Measured by bench/ingest.py: bulk_create spent most of the write phase building one large
INSERT in Python (2,184 chunks/s for the whole write at 1×). A pipelined executemany of one
INSERT was nearly as fast at 1× but not at 7× (issue 23: 1,184 chunks/s for the chunks
alone): each INSERT is a statement, and each fired the chunks' statement trigger
(corpus_chunk_stamp), an upsert of one row 20,584 times in one transaction, every lookup
walking that row's growing chain of versions. COPY is one statement whatever its size.
"""

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime

from django.db import DEFAULT_DB_ALIAS, connections, models, transaction

# Columns whose exact Python str/int/bool/None value is what the database stores: written as
# they are, without Django's get_db_prep_save (through the connection proxy, ~0.3 ms a row
# of a chunk's 18 columns: 6 of the 26 s of a 7× write).
_AS_IS = (models.CharField, models.TextField, models.IntegerField, models.BooleanField)
_PLAIN = (str, int, bool, type(None))


def _columns(model: type[models.Model]) -> tuple[list[models.Field], str, str]:
    """Every concrete column but the primary key and generated columns."""
    ops = connections[DEFAULT_DB_ALIAS].ops
    fields = [
        f
        for f in model._meta.concrete_fields
        if not f.primary_key and not getattr(f, "generated", False)
    ]
    columns = ", ".join(ops.quote_name(f.column) for f in fields)
    return fields, ops.quote_name(model._meta.db_table), columns


def _value_of(field: models.Field) -> Callable[[models.Model], object]:
    connection = connections[DEFAULT_DB_ALIAS]
    attname = field.attname
    target = field.target_field if isinstance(field, models.ForeignKey) else field

    def prepared(obj: models.Model) -> object:
        return field.get_db_prep_save(getattr(obj, attname), connection)

    if isinstance(target, _AS_IS):

        def as_is(obj: models.Model) -> object:
            value = getattr(obj, attname)
            # An enum member (TextChoices) is a str subclass: Django writes its value.
            return value if type(value) in _PLAIN else prepared(obj)

        return as_is
    if isinstance(field, models.DateTimeField):

        def aware(obj: models.Model) -> object:
            value = getattr(obj, attname)
            if isinstance(value, datetime) and value.tzinfo is not None:
                return value
            return prepared(obj)

        return aware
    return prepared


def copy_insert(model: type[models.Model], objects: Sequence[models.Model]) -> None:
    """COPY the objects into the model's table; they get no primary key back."""
    if not objects:
        return
    fields, table, columns = _columns(model)
    values = [_value_of(f) for f in fields]
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        with cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
            for obj in objects:
                copy.write_row([value(obj) for value in values])


def copy_rows(
    model: type[models.Model], attnames: Sequence[str], rows: Sequence[Sequence[object]]
) -> None:
    """COPY rows of database values (in `attnames`' order; the other columns must have a
    database default or be null) without making a model instance of each: 55,000 of them
    (aliases and the book index at 7×) cost ~1 s of the write."""
    if not rows:
        return
    ops = connections[DEFAULT_DB_ALIAS].ops
    meta = model._meta
    fields = [meta.get_field(a) for a in attnames]
    columns = ", ".join(ops.quote_name(f.column) for f in fields if isinstance(f, models.Field))
    if len(columns.split(", ")) != len(attnames):
        raise ValueError(f"{attnames}: not all columns of {meta.label}")
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        with cursor.cursor.copy(
            f"COPY {ops.quote_name(meta.db_table)} ({columns}) FROM STDIN"
        ) as copy:
            for row in rows:
                copy.write_row(row)


@contextmanager
def indexes_built_after(model: type[models.Model]) -> Iterator[bool]:
    """Into an empty table, build its secondary indexes once after the writes instead of row
    by row; yields whether it did. Indexes backing a constraint (primary key, unique) stay,
    so every check is made as the rows come. A table with rows is left alone: dropping an
    index locks out every reader until the commit.

    Measured (bench/ingest.py at 7×, loaded machine): COPY of 20,584 chunks into the table
    with its indexes 8.3 s of server time, without them 4.8 s and 1.6 s to build them after.
    """
    connection = connections[DEFAULT_DB_ALIAS]
    if model._default_manager.exists():
        yield False
        return
    table = model._meta.db_table
    # One transaction: a failed write takes the dropped indexes back with it.
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.relname, pg_get_indexdef(i.indexrelid) FROM pg_index i "
            "JOIN pg_class c ON c.oid = i.indexrelid "
            "WHERE i.indrelid = %s::regclass "
            "AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid) "
            "ORDER BY c.relname",
            [table],
        )
        indexes = cursor.fetchall()
        for name, _ in indexes:
            cursor.execute(f"DROP INDEX {connection.ops.quote_name(name)}")
        yield True
        # CREATE INDEX refuses a table with queued checks: the rows' deferred foreign-key
        # checks run now (a bad row still fails the transaction), the rest stay deferred.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("SET CONSTRAINTS ALL DEFERRED")
        for _, definition in indexes:
            cursor.execute(definition)
