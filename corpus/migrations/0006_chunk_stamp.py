from django.db import migrations, models

# A statement-level trigger moves the stamp on every write of the chunks' text, whatever
# wrote it (the ORM, COPY, a bulk update); the version comes from a sequence, which a
# rollback does not rewind.
TRIGGER = """
CREATE SEQUENCE corpus_chunk_stamp_seq;
CREATE FUNCTION corpus_chunk_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO corpus_chunkstamp (id, version) VALUES (1, nextval('corpus_chunk_stamp_seq'))
  ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version;
  RETURN NULL;
END $$;
CREATE TRIGGER corpus_chunk_stamp_write AFTER INSERT OR DELETE ON corpus_chunk
  FOR EACH STATEMENT EXECUTE FUNCTION corpus_chunk_stamp();
CREATE TRIGGER corpus_chunk_stamp_text AFTER UPDATE OF text, label, kind, section_id
  ON corpus_chunk FOR EACH STATEMENT EXECUTE FUNCTION corpus_chunk_stamp();
CREATE TRIGGER corpus_chunk_stamp_truncate AFTER TRUNCATE ON corpus_chunk
  FOR EACH STATEMENT EXECUTE FUNCTION corpus_chunk_stamp();
"""
DROP = """
DROP TRIGGER corpus_chunk_stamp_truncate ON corpus_chunk;
DROP TRIGGER corpus_chunk_stamp_text ON corpus_chunk;
DROP TRIGGER corpus_chunk_stamp_write ON corpus_chunk;
DROP FUNCTION corpus_chunk_stamp();
DROP SEQUENCE corpus_chunk_stamp_seq;
"""


class Migration(migrations.Migration):
    dependencies = [("corpus", "0005_catalog_stamp")]

    operations = [
        migrations.CreateModel(
            name="ChunkStamp",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("version", models.BigIntegerField(default=0)),
            ],
            options={
                "verbose_name": "phiên bản đoạn văn",
                "verbose_name_plural": "phiên bản đoạn văn",
            },
        ),
        migrations.RunSQL(TRIGGER, DROP),
    ]
