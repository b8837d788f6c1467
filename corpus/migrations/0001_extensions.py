from django.contrib.postgres.operations import CreateExtension
from django.db import migrations

VI_CONFIG = """
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_ts_config WHERE cfgname = 'vi_unaccent') THEN
        CREATE TEXT SEARCH CONFIGURATION vi_unaccent (COPY = simple);
        ALTER TEXT SEARCH CONFIGURATION vi_unaccent ALTER MAPPING FOR
            asciiword, asciihword, hword_asciipart, word, hword, hword_part
            WITH unaccent, simple;
    END IF;
END
$$;
"""


class Migration(migrations.Migration):
    initial = True
    dependencies: list[tuple[str, str]] = []

    operations = [
        CreateExtension("vector"),
        CreateExtension("unaccent"),
        CreateExtension("pg_trgm"),
        migrations.RunSQL(VI_CONFIG, "DROP TEXT SEARCH CONFIGURATION IF EXISTS vi_unaccent"),
    ]
