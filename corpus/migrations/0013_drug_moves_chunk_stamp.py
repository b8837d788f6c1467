from django.db import migrations

# The ranked index (retrieval/ranked.py) holds each live paragraph with its drug's id and
# heading: retiring, renaming or deleting a drug changes it as a write of the chunks would.
# So these move the chunks' stamp too, and the index no longer follows the catalog's stamp,
# which every alias edit moves (issue 23: at 7× the book each worker rebuilt the index,
# tens of seconds, after each alias a pharmacist added).
CREATE = """
CREATE TRIGGER corpus_drug_chunk_stamp AFTER DELETE OR UPDATE OF drug_id, heading, retired_at
  ON corpus_drug FOR EACH STATEMENT EXECUTE FUNCTION corpus_chunk_stamp();
"""
DROP = "DROP TRIGGER corpus_drug_chunk_stamp ON corpus_drug;"


class Migration(migrations.Migration):
    dependencies = [("corpus", "0012_catalog_snapshot")]

    operations = [migrations.RunSQL(CREATE, DROP)]
