from django.db import migrations

# The ranked index keeps each paragraph as evidence (its review flags and pages too): the
# stamp also moves when a review changes those columns.
COLUMNS = (
    "text, label, kind, section_id, page_start, page_end, requires_visual_check, "
    "has_quarantined_content, content_hash"
)


class Migration(migrations.Migration):
    dependencies = [("corpus", "0008_red_flags")]

    operations = [
        migrations.RunSQL(
            "DROP TRIGGER corpus_chunk_stamp_text ON corpus_chunk;"
            f"CREATE TRIGGER corpus_chunk_stamp_text AFTER UPDATE OF {COLUMNS} ON corpus_chunk "
            "FOR EACH STATEMENT EXECUTE FUNCTION corpus_chunk_stamp();",
            "DROP TRIGGER corpus_chunk_stamp_text ON corpus_chunk;"
            "CREATE TRIGGER corpus_chunk_stamp_text AFTER UPDATE OF text, label, kind, section_id "
            "ON corpus_chunk FOR EACH STATEMENT EXECUTE FUNCTION corpus_chunk_stamp();",
        ),
    ]
