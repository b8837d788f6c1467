from django.db import migrations

# The catalog stamp moved only where code remembered to (a save, the admin's bulk delete,
# ingest), and every resolve counted three tables to catch the rest: 6 ms a turn at 7× the
# book (issue 23). Statement-level triggers now move it on every write of a name table,
# whatever wrote it (the ORM one row at a time, a queryset update or delete, COPY, a
# cascade, psql), like corpus_chunk_stamp; the version comes from a sequence, which a
# rollback does not rewind, so a rolled-back edit's version is never given to another.
TABLES = {
    "corpus_alias": "",
    "corpus_bookindexentry": "",
    "corpus_abbreviation": "",
    "corpus_redflag": "",
    # What the catalog reads of a drug: its id, printed heading, and whether it is retired.
    "corpus_drug": "drug_id, heading, retired_at",
}


def _create(table: str, columns: str) -> str:
    update = f"UPDATE OF {columns}" if columns else "UPDATE"
    return f"""
CREATE TRIGGER {table}_catalog_write AFTER INSERT OR DELETE OR {update} ON {table}
  FOR EACH STATEMENT EXECUTE FUNCTION corpus_catalog_stamp();
CREATE TRIGGER {table}_catalog_truncate AFTER TRUNCATE ON {table}
  FOR EACH STATEMENT EXECUTE FUNCTION corpus_catalog_stamp();
"""


FUNCTION = """
CREATE SEQUENCE corpus_catalog_stamp_seq;
SELECT setval('corpus_catalog_stamp_seq', greatest(
  (SELECT coalesce(max(version), 0) FROM corpus_catalogstamp), 1));
CREATE FUNCTION corpus_catalog_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO corpus_catalogstamp (id, version, updated_at)
    VALUES (1, nextval('corpus_catalog_stamp_seq'), now())
  ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version, updated_at = EXCLUDED.updated_at;
  RETURN NULL;
END $$;
"""
TRIGGERS = FUNCTION + "".join(_create(t, c) for t, c in TABLES.items())
DROP = (
    "".join(
        f"DROP TRIGGER {t}_catalog_truncate ON {t}; DROP TRIGGER {t}_catalog_write ON {t};"
        for t in TABLES
    )
    + "DROP FUNCTION corpus_catalog_stamp(); DROP SEQUENCE corpus_catalog_stamp_seq;"
)


class Migration(migrations.Migration):
    dependencies = [("corpus", "0010_drug_retired_at")]

    operations = [migrations.RunSQL(TRIGGERS, DROP)]
