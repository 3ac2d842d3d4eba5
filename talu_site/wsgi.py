"""WSGI entry point (HTTP only; live play needs the ASGI application under daphne)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "talu_site.settings")
application = get_wsgi_application()
