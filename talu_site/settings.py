"""Settings of the talu play server, read from the environment.

Embedded defaults (nothing to install): SQLite in ``./var/`` and Channels' in-memory layer.
Real services when set: ``DATABASE_URL`` (PostgreSQL) and ``REDIS_URL`` (channels-redis).

Every environment variable the project reads is read here, once, by the strict readers of
``talu_site.envvars``, when the settings load: a bad value stops ``manage.py check``,
``migrate``, the server and the worker at start-up with ``ImproperlyConfigured`` naming the
variable and what it accepts, rather than being guessed at or failing later, where it is
first used. The rest of the code reads these Django settings (``play.conf``), so a test
overrides a value with pytest-django's ``settings`` fixture. Each default lives here, once.
docs/deployment.md has the table of every variable (``tests/site/test_settings_at_start.py``
checks that it and the reads here agree).
"""

from __future__ import annotations

from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from registry.records.keys import REGISTRAR_RE, keyring_from
from talu_site.channel_layer import PREFIX, PREFIX_ACCEPTS, channel_layers, redis_url
from talu_site.clientaddr import parse_network
from talu_site.envvars import (
    env_bool,
    env_choice,
    env_database_url,
    env_email_address,
    env_email_url,
    env_hosts,
    env_int,
    env_list,
    env_number,
    env_origins,
    env_text,
    env_url,
    env_value,
)
from talu_site.ratelimit import rates_from_environment

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

DEBUG = env_bool("DEBUG", True)

_secret_key_accepts = "any one line of text, long and random"
SECRET_KEY = env_text("SECRET_KEY", "", _secret_key_accepts, strip=False, secret=True)
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            f"SECRET_KEY must be set when DEBUG is false ({_secret_key_accepts})")
    SECRET_KEY = "django-insecure-talu-development-only-key-never-use-in-production"

_allowed_hosts_accepts = ("comma-separated host names: play.example.org, .example.org for its "
                          "subdomains too, * for any; no scheme or port")
ALLOWED_HOSTS = env_hosts("ALLOWED_HOSTS", _allowed_hosts_accepts)
if not ALLOWED_HOSTS:
    if not DEBUG:
        raise ImproperlyConfigured(
            f"ALLOWED_HOSTS must be set when DEBUG is false ({_allowed_hosts_accepts})")
    ALLOWED_HOSTS = ["localhost", "127.0.0.1", "[::1]", "testserver"]
CSRF_TRUSTED_ORIGINS = env_origins("CSRF_TRUSTED_ORIGINS",
                                   "comma-separated origins, with their scheme: "
                                   "https://play.example.org")

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
    "registry.game_ratings",  # issue 36: ratings of the games other than talu
    "registry.accounts",  # issue 39: email, settings, closing an account, the mail queue
    "registry.notices",  # issue 39: notifications on the site (the bell, /notifications/)
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
DATABASES = {"default": env_database_url(
    "DATABASE_URL", f"sqlite:///{VAR_DIR / 'talu.sqlite3'}",
    ("django.db.backends.postgresql", "django.db.backends.sqlite3"),
    "postgres://user:password@host:5432/name or sqlite:///path")}
_engine = DATABASES["default"]["ENGINE"]
# Read whatever the engine, so a bad value stops a developer's SQLite site too.
_conn_max_age = env_int("DB_CONN_MAX_AGE", 60, minimum=0, unit="seconds")
_conn_health_checks = env_bool("DB_CONN_HEALTH_CHECKS", True)
_test_db_name = env_text("TALU_TEST_DB_NAME", "", "a database name (SQLite: a file)")
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
    DATABASES["default"]["TEST"] = {"NAME": _test_db_name or str(VAR_DIR / "test.sqlite3")}
else:
    DATABASES["default"]["CONN_MAX_AGE"] = _conn_max_age
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = _conn_health_checks
    if _test_db_name:
        DATABASES["default"]["TEST"] = {"NAME": _test_db_name}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- channel layer ----------------------------------------------------------------------------
REDIS_URL = redis_url()
CHANNEL_LAYERS = channel_layers(REDIS_URL)

# --- cache ------------------------------------------------------------------------------------
# The API's throttle counters live in the cache: with REDIS_URL every server process shares one
# Redis cache, so a client cannot multiply its budget by the number of processes behind the proxy.
_cache_prefix = env_text("TALU_CACHE_PREFIX", "talu-cache", PREFIX_ACCEPTS, pattern=PREFIX,
                         mismatch="is not a key prefix")
if REDIS_URL:
    CACHES = {
        "default": {
            # Django's RedisCache, one connection pool per process (talu_site/cache.py).
            "BACKEND": "talu_site.cache.SharedRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": _cache_prefix,
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
# Every password (the log-in form, the admin's, the API's HTTP Basic) is checked by the first,
# under the log-in limits (issue 41). The second checks none (the first never passes on a
# failed attempt): it is listed so that sessions made before keep their user.
AUTHENTICATION_BACKENDS = [
    "registry.logins.LimitedModelBackend",
    "django.contrib.auth.backends.ModelBackend",
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
TALU_TRUSTED_PROXIES = tuple(env_list("TALU_TRUSTED_PROXIES", parse_network,
                                      "comma-separated IP addresses or networks: 10.0.0.0/8"))
# Rate limits per account and per address (talu_site/ratelimit.py, docs/deployment.md):
# TALU_RATE_<NAME>=30/10minute or off; counted in the default cache (Redis with REDIS_URL).
TALU_RATES = rates_from_environment()
# Challenges one player may have open at once (the lobby shows the newest 50 of everyone's).
TALU_MAX_OPEN_CHALLENGES = env_int("TALU_MAX_OPEN_CHALLENGES", 5, unit="challenges")
# Games against the computer one player may have in progress (its thinking is shared by all).
TALU_MAX_COMPUTER_GAMES = env_int("TALU_MAX_COMPUTER_GAMES", 3, minimum=1, unit="games")
_secure_cookies = env_bool("SECURE_COOKIES", True)
_ssl_redirect = env_bool("SECURE_SSL_REDIRECT", False)
if not DEBUG:
    SESSION_COOKIE_SECURE = _secure_cookies
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # Plain-http requests sent to https, except the health check (made over plain http inside
    # by the container and the proxy). Opt-in: it needs the proxy to say which requests came
    # over https (X-Forwarded-Proto), or every request is redirected forever.
    SECURE_SSL_REDIRECT = _ssl_redirect
    SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^nginx-health$"]
# HTTP Strict Transport Security (issue 27): browsers keep to https for this long once they
# have seen the site over it. Off (0) by default and on a developer machine; a year
# (31536000) in production, once https works, since it cannot be taken back quickly.
SECURE_HSTS_SECONDS = env_int("TALU_HSTS_SECONDS", 0, minimum=0, unit="seconds")
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("TALU_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("TALU_HSTS_PRELOAD", False)
X_FRAME_OPTIONS = "DENY"
# Content-Security-Policy (talu_site/middleware.py): scripts, styles, images and connections
# from the site itself only; no inline script, no eval, no framing. The site's pages have no
# inline script (the lobby's and the API page's are static files); TALU_CSP replaces it.
TALU_CSP = env_text(
    "TALU_CSP",
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; "
    "form-action 'self'; frame-ancestors 'none'",
    "a Content-Security-Policy on one line: directives such as default-src 'self', "
    "separated by ;",
    pattern=r"\s*[A-Za-z][A-Za-z-]*(\s[^;]*)?(;\s*([A-Za-z][A-Za-z-]*(\s[^;]*)?)?)*",
    mismatch="is not a policy")

# --- REST framework ---------------------------------------------------------------------------
# The API (registry/api, docs/api.md). Throttle rates: TALU_API_RATE_ANON / _USER / _BODY
# ("120/minute"); counters live in the default cache (Redis, shared by all processes, with
# REDIS_URL). Read as strictly as DRF's SimpleRateThrottle.parse_rate reads them (a number,
# "/", a word whose first letter says the unit), but only the words that say what they mean:
# DRF would take "120/mango" for 120 a minute, and "120/10minute" (ratelimit.py's form) stop
# every request with a KeyError.
_api_rate = (r"[1-9][0-9]*/(s|m|h|d|sec|min|second|minute|hour|day|secs|mins|seconds|minutes"
             r"|hours|days)")
_api_rate_accepts = "<n>/<second|minute|hour|day>, as the REST framework reads it: 120/minute"
REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "registry.api.schema.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "registry.api.auth.BodyTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
        "registry.api.auth.LimitedBasicAuthentication",  # under the log-in limits
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
        "anon": env_text("TALU_API_RATE_ANON", "120/minute", _api_rate_accepts,
                         pattern=_api_rate, mismatch="is not a rate"),
        "user": env_text("TALU_API_RATE_USER", "600/minute", _api_rate_accepts,
                         pattern=_api_rate, mismatch="is not a rate"),
        "body": env_text("TALU_API_RATE_BODY", "600/minute", _api_rate_accepts,
                         pattern=_api_rate, mismatch="is not a rate"),
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
# The site as an affiliated body (R33): its key's keyring (the same reading as the talu
# command's, registry.records.keys), its registrar id and name (the key's user id: no <>()),
# and the place written in its session entries.
TALU_KEYRING = env_value("TALU_KEYRING", VAR_DIR / "keyring", keyring_from,
                         "a directory for GnuPG's files, made when missing")
TALU_REGISTRAR_ID = env_text("TALU_REGISTRAR_ID", "TALU-SITE-01",
                             "letters, digits, '.', '_' and '-', at most 64: GTF-HU-SZEGED-01",
                             pattern=REGISTRAR_RE.pattern, mismatch="is not a registrar id")
TALU_BODY_NAME = env_text("TALU_BODY_NAME", "talu play server",
                          "one line of text without < > ( ), at most 200 characters",
                          max_length=200, forbidden="<>()")
TALU_PLACE = env_text("TALU_PLACE", "talu play server (online)", "one line of text")
TALU_WS_MAX_MESSAGE = env_int("TALU_WS_MAX_MESSAGE", 4096, minimum=256, unit="bytes")
# The largest request body taken (413 beyond, talu_site/middleware.py): nginx's
# client_max_body_size (deploy/nginx.conf), for a server reached without nginx too.
TALU_MAX_REQUEST_BYTES = env_int("TALU_MAX_REQUEST_BYTES", 4 * 1024 * 1024, minimum=65536,
                                 unit="bytes")
# A game's upload is its STGE and up to registry.submission.MAX_SESSIONS (100) STSE files;
# Django's default of 100 files would refuse the largest game a body may submit.
DATA_UPLOAD_MAX_NUMBER_FILES = 128
#: The site's address in notices sent by email (play.worker.notices).
TALU_SITE_URL = env_url("TALU_SITE_URL", "http://localhost:8000", ("http", "https"),
                        "an http:// or https:// URL without a query: https://play.example.org",
                        query=False)

# --- live play (read by play.conf and play.computer.conf) --------------------------------------
# Seconds between two heartbeats of a process: for all its sockets at once it refreshes their
# presence rows, catches a socket up on any step it still lacks after a grace and, with the
# core layer only, re-joins each to its group (a restarted Redis forgot it; the pub/sub layer
# subscribes again by itself).
TALU_WS_HEARTBEAT = env_number("TALU_WS_HEARTBEAT", 20.0, 0.2, "seconds")
# Open game sockets one process accepts (0: no cap); beyond it a socket is refused cleanly with
# close code 4013.
TALU_WS_MAX_CONNECTIONS = env_int("TALU_WS_MAX_CONNECTIONS", 2000, minimum=0, unit="sockets")
# Threads per process for the locked write path (the usual step is stored from the event loop,
# play.store.log), syncs and heartbeats. Measured: 4 starved the event loop of the GIL at 200
# steps/s and the process's channel overflowed; 1 queued steps behind syncs. Steps of
# different games are written concurrently, each on its own database connection, while one
# game's writers stay serialised by its row lock; bounded so database work cannot starve the
# event loop that reads the channel layer.
TALU_WS_DB_THREADS = env_int("TALU_WS_DB_THREADS", 2, minimum=1, unit="threads")
# Watchers of one game up to which a join or leave is broadcast to everyone at once; beyond it
# counts are refreshed by the heartbeat, so a crowd arriving is not n-squared messages.
TALU_WS_PRESENCE_FANOUT = env_int("TALU_WS_PRESENCE_FANOUT", 50, minimum=0, unit="watchers")
# Seconds between two rounds of a worker when nothing wakes it: a lost wake costs at most this.
TALU_WORKER_POLL = env_number("TALU_WORKER_POLL", 1.0, 0.05, "seconds")
# Seconds a worker's claim on a job lasts: a worker killed mid-job leaves it to another after.
TALU_WORKER_LEASE = env_number("TALU_WORKER_LEASE", 60.0, 1.0, "seconds")
# Jobs a worker claims in one round at most.
TALU_WORKER_BATCH = env_int("TALU_WORKER_BATCH", 16, minimum=1, unit="jobs")
# A file the worker touches after every round, for a container's health check ("": none).
TALU_WORKER_ALIVE_FILE = env_text("TALU_WORKER_ALIVE_FILE", "", "a file path")
# A worker archives finished games (records, gpg signatures, tally, ratings) in a background
# process of its own (play.worker.archiver), so the archive's CPU and GIL never compete with
# the servers' steps nor the clock's thread; false: on a thread of the worker (tests, tiny
# installations).
TALU_ARCHIVE_PROCESS = env_bool("TALU_ARCHIVE_PROCESS", True)
# That process runs under SCHED_IDLE (Linux), on CPU nothing else wants. Not by default on
# SQLite: the archive's transaction holds the database's only write lock (IMMEDIATE), and a
# process the kernel starves while holding it makes every server's step wait behind it (a
# priority inversion); it runs TALU_ARCHIVE_NICE lower than the worker instead. On PostgreSQL
# it locks only its registry game and the ratings' advisory lock, which no step takes.
TALU_ARCHIVE_IDLE = env_bool("TALU_ARCHIVE_IDLE", _engine != "django.db.backends.sqlite3")
TALU_ARCHIVE_NICE = env_int("TALU_ARCHIVE_NICE", 10, minimum=0, unit="nice levels")
# Nice levels the worker's clock thread runs above the rest of its process (0: off), so a
# flag is not late behind other work on a busy machine; raising a thread's priority needs
# CAP_SYS_NICE or RLIMIT_NICE (docker-compose.yml gives the worker the latter), else the
# thread runs at the process's.
TALU_CLOCK_PRIORITY = env_int("TALU_CLOCK_PRIORITY", 10, minimum=0, unit="nice levels")
# Seconds between two regular waves of a quick-pairing pool (R47), after which those left
# waiting have a wider range.
TALU_POOL_WAVE = env_number("TALU_POOL_WAVE", 3.0, 0.0, "seconds")
# Waiting players at which a pool's wave runs at once, without waiting its turn (R47).
TALU_POOL_LARGE = env_int("TALU_POOL_LARGE", 40, minimum=2, unit="players")
# A pair found at a join does not wait for the next wave (an early wave). Off by default, as
# R47 is written: waves every few seconds, and at once only when the pool is large.
TALU_POOL_EARLY_WAVES = env_bool("TALU_POOL_EARLY_WAVES", False)
# The server process runs the worker on its own event loop (talu_site.serve): on the embedded
# defaults, whose in-memory channel layer reaches this process's sockets only; with Redis,
# manage.py play_worker processes do the work instead.
TALU_EMBEDDED_WORKER = env_bool("TALU_EMBEDDED_WORKER", not REDIS_URL)
# The computer opponent (play.computer.conf says why each is what it is): the processes of a
# worker's pool that think for it (0: a thread of the worker), the delay between two of its
# steps, the turns one worker holds claimed, and how its processes give way to the servers'
# (SCHED_IDLE, else TALU_COMPUTER_NICE lower).
TALU_COMPUTER_PROCESSES = env_int("TALU_COMPUTER_PROCESSES", 2, minimum=0, unit="processes")
TALU_COMPUTER_STEP_DELAY = env_number("TALU_COMPUTER_STEP_DELAY", 0.35, 0.0, "seconds")
TALU_COMPUTER_QUEUE = env_int("TALU_COMPUTER_QUEUE", 8, minimum=1, unit="turns")
TALU_COMPUTER_NICE = env_int("TALU_COMPUTER_NICE", 10, minimum=0, unit="nice levels")
TALU_COMPUTER_IDLE = env_bool("TALU_COMPUTER_IDLE", True)

# Email (correspondence notices): printed on the console unless ``EMAIL_URL`` names a server,
# e.g. smtp+tls://user:password@mail.example.org:587 (django-environ's email_url).
vars().update(env_email_url(
    "EMAIL_URL", "consolemail://",
    "smtp://, smtps://, smtp+tls:// or smtp+ssl://user:password@host:port; consolemail://, "
    "filemail://, memorymail:// or dummymail://"))
# One send waits at most this long for the mail server (the worker sends the queue,
# registry.accounts.mailqueue: a server that hangs must not hold its other jobs).
EMAIL_TIMEOUT = 20
DEFAULT_FROM_EMAIL = env_email_address(
    "DEFAULT_FROM_EMAIL", "talu <noreply@localhost>",
    "an address, bare or with a name: talu <noreply@example.org>")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_choice(
        "LOG_LEVEL", "INFO", ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"), fold_case=True)},
    "loggers": {"django.channels.server": {"level": "WARNING"}},
}
