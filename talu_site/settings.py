"""Settings of the talu play server, read from the environment with django-environ.

Embedded defaults (nothing to install): SQLite in ``./var/`` and Channels' in-memory layer.
Real services when set: ``DATABASE_URL`` (PostgreSQL) and ``REDIS_URL`` (channels-redis).
Bad values fail loudly at start-up with ``ImproperlyConfigured`` rather than being guessed at.

Variables (all optional on a developer machine):

``DEBUG``                 true/false (default true: the embedded developer set-up)
``SECRET_KEY``            required when DEBUG is false
``ALLOWED_HOSTS``         comma-separated; required when DEBUG is false
``CSRF_TRUSTED_ORIGINS``  comma-separated origins (https://play.example.org)
``DATABASE_URL``          e.g. postgres://user@host:5432/talu (default sqlite:///var/talu.sqlite3)
``REDIS_URL``             e.g. redis://127.0.0.1:6379/0 (default: in-memory channel layer)
``TALU_KEYRING``          GnuPG home holding the site's affiliated-body key (default var/keyring)
``TALU_REGISTRAR_ID``     the site's affiliated-body registrar id (default TALU-SITE-01)
``TALU_BODY_NAME``        its display name
``TALU_PLACE``            the session place written in session entries (default "talu play server")
``TALU_WS_MAX_MESSAGE``   largest websocket message accepted, in bytes (default 4096)
``TALU_MAX_REQUEST_BYTES`` largest HTTP request body accepted (default 4 MiB, as nginx)
``TALU_TRUSTED_PROXIES``  addresses/networks of the proxies whose X-Forwarded-For is believed
"""

from __future__ import annotations

import os
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

from talu_site.channel_layer import channel_layers
from talu_site.clientaddr import parse_networks
from talu_site.envvars import env_bool, env_int
from talu_site.ratelimit import rates_from_environment

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

env = environ.Env()

DEBUG = env_bool("DEBUG", True)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is false")
    SECRET_KEY = "django-insecure-talu-development-only-key-never-use-in-production"

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=[])
if not ALLOWED_HOSTS:
    if not DEBUG:
        raise ImproperlyConfigured("ALLOWED_HOSTS must be set when DEBUG is false")
    ALLOWED_HOSTS = ["localhost", "127.0.0.1", "[::1]", "testserver"]
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "rest_framework",
    "drf_spectacular",
    "registry",
    "registry.events",  # issue 21: club events (R41-R43)
    "play",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "talu_site.middleware.BodyLimitMiddleware",
    "talu_site.middleware.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "talu_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "talu_site.wsgi.application"
ASGI_APPLICATION = "talu_site.asgi.application"

# --- database ---------------------------------------------------------------------------------
_default_sqlite = f"sqlite:///{VAR_DIR / 'talu.sqlite3'}"
try:
    DATABASES = {"default": env.db("DATABASE_URL", default=_default_sqlite)}
except (ImproperlyConfigured, KeyError, ValueError) as exc:  # unknown scheme, bad URL
    raise ImproperlyConfigured(f"DATABASE_URL is not a usable database URL: {exc}") from None
_engine = DATABASES["default"].get("ENGINE", "")
if _engine not in ("django.db.backends.sqlite3", "django.db.backends.postgresql"):
    raise ImproperlyConfigured(
        f"DATABASE_URL selects {_engine or 'no engine'}; use postgres://... or sqlite:///..."
    )
if _engine == "django.db.backends.sqlite3":
    _name = str(DATABASES["default"]["NAME"])
    if _name != ":memory:":
        Path(_name).parent.mkdir(parents=True, exist_ok=True)
    # The embedded default must hold a club night (issue 27, finding 11: 4 games at once got
    # 251 "database is locked" 500s and thousands of busy steps). SQLite has one writer; make
    # every other writer wait for it rather than fail:
    # - WAL: readers never wait for the writer, nor the writer for readers;
    # - IMMEDIATE transactions: a transaction takes the write lock when it begins, so it waits
    #   (the busy timeout) for the writer before it; a deferred one that read first and then
    #   wrote could only fail ("database is locked" at once: waiting could not help it);
    # - a busy timeout of 20 s, and synchronous=NORMAL (durable at each WAL checkpoint; a
    #   power cut may lose the last transactions, never corrupt the file: an embedded site).
    DATABASES["default"].setdefault("OPTIONS", {}).update({
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    })
    # The tests' database is a file too (./var/test.sqlite3, or TALU_TEST_DB_NAME), with the
    # same WAL and busy timeout: SQLite's shared-cache memory database answers a second
    # writer "database table is locked" at once instead of waiting, so tests whose worker
    # threads wrote beside the test failed at random under load.
    DATABASES["default"]["TEST"] = {
        "NAME": os.environ.get("TALU_TEST_DB_NAME") or str(VAR_DIR / "test.sqlite3")}
else:
    DATABASES["default"]["CONN_MAX_AGE"] = env_int("DB_CONN_MAX_AGE", 60, minimum=0)
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = env_bool("DB_CONN_HEALTH_CHECKS", True)
    if os.environ.get("TALU_TEST_DB_NAME"):
        DATABASES["default"]["TEST"] = {"NAME": os.environ["TALU_TEST_DB_NAME"]}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- channel layer ----------------------------------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
CHANNEL_LAYERS = channel_layers()

# --- cache ------------------------------------------------------------------------------------
# The API's throttle counters live in the cache: with REDIS_URL every server process shares one
# Redis cache, so a client cannot multiply its budget by the number of processes behind the proxy.
if REDIS_URL:
    CACHES = {
        "default": {
            # Django's RedisCache, one connection pool per process (talu_site/cache.py).
            "BACKEND": "talu_site.cache.SharedRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": os.environ.get("TALU_CACHE_PREFIX", "talu-cache"),
        }
    }
    # Sessions read from that cache, written through to the database (Django's cached_db):
    # every page and every websocket opened reads its session, and a game's end opens four
    # sockets (BENCHMARKS.md, issue 7). A logout or a flushed session leaves the shared cache
    # too, so no process goes on trusting it. Without Redis each process would have a cache of
    # its own, which a logout elsewhere would not reach: plain database sessions then.
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# --- auth -------------------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "lobby"
LOGOUT_REDIRECT_URL = "lobby"

# --- i18n, static -----------------------------------------------------------------------------
LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Whitenoise serves static files under daphne too; finders make collectstatic optional.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG

# --- security (production) --------------------------------------------------------------------
# Peers whose X-Forwarded-For is believed (talu_site/clientaddr.py): the proxies in front
# (comma-separated addresses or networks). Empty: the socket's peer is the client, whatever
# the header says, so a client cannot pick its own address for the limits per address.
try:
    TALU_TRUSTED_PROXIES = parse_networks(env.list("TALU_TRUSTED_PROXIES", default=[]))
except ValueError as exc:
    raise ImproperlyConfigured(f"TALU_TRUSTED_PROXIES: {exc}") from None
# Rate limits per account and per address (talu_site/ratelimit.py, docs/deployment.md):
# TALU_RATE_<NAME>=30/10minute or off; counted in the default cache (Redis with REDIS_URL).
try:
    TALU_RATES = rates_from_environment(os.environ)
except ValueError as exc:
    raise ImproperlyConfigured(f"TALU_RATE_*: {exc}") from None
# Challenges one player may have open at once (the lobby shows the newest 50 of everyone's).
TALU_MAX_OPEN_CHALLENGES = env_int("TALU_MAX_OPEN_CHALLENGES", 5)
# Games against the computer one player may have in progress (its thinking is shared by all).
TALU_MAX_COMPUTER_GAMES = env_int("TALU_MAX_COMPUTER_GAMES", 3, minimum=1)
if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # Plain-http requests sent to https, except the health check (made over plain http inside
    # by the container and the proxy). Opt-in: it needs the proxy to say which requests came
    # over https (X-Forwarded-Proto), or every request is redirected forever.
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
    SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^nginx-health$"]
# HTTP Strict Transport Security (issue 27): browsers keep to https for this long once they
# have seen the site over it. Off (0) by default and on a developer machine; a year
# (31536000) in production, once https works, since it cannot be taken back quickly.
SECURE_HSTS_SECONDS = env_int("TALU_HSTS_SECONDS", 0, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("TALU_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("TALU_HSTS_PRELOAD", False)
X_FRAME_OPTIONS = "DENY"
# Content-Security-Policy (talu_site/middleware.py): scripts, styles, images and connections
# from the site itself only; no inline script, no eval, no framing. The site's pages have no
# inline script (the lobby's and the API page's are static files); TALU_CSP replaces it.
TALU_CSP = os.environ.get("TALU_CSP", "").strip() or (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; "
    "form-action 'self'; frame-ancestors 'none'")

# --- REST framework ---------------------------------------------------------------------------
# The API (registry/api, docs/api.md). Throttle rates: TALU_API_RATE_ANON / _USER / _BODY
# ("120/minute"); counters live in the default cache (Redis, shared by all processes, with
# REDIS_URL).
REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "registry.api.schema.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "registry.api.auth.BodyTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.BasicAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["registry.api.permissions.ReadOrWriter"],
    "DEFAULT_PAGINATION_CLASS": "registry.api.pagination.Pagination",
    "PAGE_SIZE": 50,
    "DEFAULT_THROTTLE_CLASSES": [
        "registry.api.throttling.AnonRateThrottle",
        "registry.api.throttling.UserRateThrottle",
        "registry.api.throttling.BodyRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("TALU_API_RATE_ANON", "120/minute"),
        "user": os.environ.get("TALU_API_RATE_USER", "600/minute"),
        "body": os.environ.get("TALU_API_RATE_BODY", "600/minute"),
    },
    # JSON only, errors included: the interactive page is /api/docs/ (Swagger UI).
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    # DRF's, refusing a NUL, lone surrogate or control character in any string (issue 27).
    "DEFAULT_PARSER_CLASSES": [
        "registry.api.parsers.JSONParser",
        "registry.api.parsers.MultiPartParser",
        "registry.api.parsers.FormParser",
    ],
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "registry.api.negotiation.LenientNegotiation",
    "EXCEPTION_HANDLER": "registry.api.errors.handle",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "talu play server API",
    "DESCRIPTION": "Players, games, records (STGN, STGE/STSE/STDGS), rating history, "
                   "leaderboards, affiliated bodies; game submission and annulment by bodies. "
                   "See docs/api.md.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "COMPONENT_NO_READ_ONLY_REQUIRED": False,
    "SCHEMA_PATH_PREFIX": r"/api/v[0-9]+",
    # Swagger UI and Redoc from the drf-spectacular-sidecar package: no CDN needed.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}
INSTALLED_APPS += ["drf_spectacular_sidecar"]  # static files of the interactive API page

# --- talu -------------------------------------------------------------------------------------
TALU_KEYRING = Path(os.environ.get("TALU_KEYRING") or VAR_DIR / "keyring")
TALU_REGISTRAR_ID = os.environ.get("TALU_REGISTRAR_ID", "TALU-SITE-01")
TALU_BODY_NAME = os.environ.get("TALU_BODY_NAME", "talu play server")
TALU_PLACE = os.environ.get("TALU_PLACE", "talu play server (online)")
TALU_WS_MAX_MESSAGE = env_int("TALU_WS_MAX_MESSAGE", 4096, minimum=256)
# The largest request body taken (413 beyond, talu_site/middleware.py): nginx's
# client_max_body_size (deploy/nginx.conf), for a server reached without nginx too.
TALU_MAX_REQUEST_BYTES = env_int("TALU_MAX_REQUEST_BYTES", 4 * 1024 * 1024, minimum=65536)
# A game's upload is its STGE and up to registry.submission.MAX_SESSIONS (100) STSE files;
# Django's default of 100 files would refuse the largest game a body may submit.
DATA_UPLOAD_MAX_NUMBER_FILES = 128
#: The site's address in notices sent by email (play.worker.notices).
TALU_SITE_URL = os.environ.get("TALU_SITE_URL", "http://localhost:8000")

# Email (correspondence notices): printed on the console unless ``EMAIL_URL`` names a server,
# e.g. smtp+tls://user:password@mail.example.org:587 (django-environ's email_url).
vars().update(env.email_url("EMAIL_URL", default="consolemail://"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "talu <noreply@localhost>")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"django.channels.server": {"level": "WARNING"}},
}
