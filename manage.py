#!/usr/bin/env python
import os
import sys

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "duocthu.settings")
    from duocthu.devdb import use_embedded_database

    use_embedded_database()
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
