import os

from django.core.wsgi import get_wsgi_application

from duocthu.devdb import use_embedded_database

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "duocthu.settings")
use_embedded_database()
application = get_wsgi_application()
