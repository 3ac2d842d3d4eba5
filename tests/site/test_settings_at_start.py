"""Settings checked at start (issue 35): every environment variable the project reads is read
when the Django settings load, a bad value of any of them stops the start with a message naming
the variable and what it accepts, and docs/deployment.md's table lists exactly those variables.

How the table is checked against the code, two ways that must agree with it:

- at start: the settings module is run here (``runpy``) with none of the variables set, and
  ``talu_site.envvars.READ`` says which variables its readers were asked for;
- in the source: every call of a reader (``env_*``, ``os.environ.get``, ``os.getenv``,
  ``os.environ[...]``) in ``play``, ``registry``, ``talu_site`` and ``talu_cli`` is found with
  ``ast`` and its variable's name taken from the call (a string, or a module's constant).

A variable read anywhere but at start fails (it would be checked late, where it is used); one
read without a row in the table fails, and so does a row no code reads. The settings are run
in this process with a patched environment, not one subprocess per variable, so one case per
variable costs milliseconds; a few subprocesses show that the real entry points stop.
"""

from __future__ import annotations

import ast
import os
import re
import runpy
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from talu_site import envvars

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = ROOT / "talu_site" / "settings.py"
PACKAGES = ("play", "registry", "talu_site", "talu_cli")
READERS = {name for name in dir(envvars) if name.startswith("env_")}
# Reads whose variable's name is computed: the rate limits' TALU_RATE_<NAME>, one per limit of
# talu_site.ratelimit.DEFAULTS (read at start; the names are checked through READ).
COMPUTED_NAMES = {"talu_site/ratelimit.py"}


def documented() -> list[str]:
    """The variables of the table in docs/deployment.md's "Settings", one a row."""
    doc = (ROOT / "docs" / "deployment.md").read_text()
    section = doc.split("\n## Settings\n", 1)[1].split("\n## ", 1)[0]
    names = []
    for row in section.splitlines():
        if not row.startswith("| `"):
            continue
        found = re.findall(r"`([A-Z][A-Z0-9_]*)`", row.split("|")[1])
        assert len(found) == 1, f"one variable a row: {row[:80]}"
        names.append(found[0])
    return names


def _is_environ(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "environ"


def _is_reader(func: ast.AST) -> bool:
    if isinstance(func, ast.Name):
        return func.id in READERS
    if isinstance(func, ast.Attribute):
        return (func.attr in READERS or func.attr == "getenv"
                or (func.attr == "get" and _is_environ(func.value)))
    return False


def reads_in_source() -> tuple[dict[str, list[str]], list[str]]:
    """Every variable some call reads (name -> where), and the reads whose name is computed."""
    named: dict[str, list[str]] = {}
    computed = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            where = path.relative_to(ROOT).as_posix()
            if "/migrations/" in where or where == "talu_site/envvars.py":
                continue
            tree = ast.parse(path.read_text(), where)
            constants = {target.id: node.value.value for node in tree.body
                         if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
                         and isinstance(node.value.value, str)
                         for target in node.targets if isinstance(target, ast.Name)}
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and _is_reader(node.func) and node.args:
                    arg = node.args[0]
                elif (isinstance(node, ast.Subscript) and _is_environ(node.value)
                      and isinstance(node.ctx, ast.Load)):
                    arg = node.slice
                else:
                    continue
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    name = arg.value
                elif isinstance(arg, ast.Name) and arg.id in constants:
                    name = constants[arg.id]
                else:
                    computed.append(f"{where}:{node.lineno}")
                    continue
                named.setdefault(name, []).append(f"{where}:{node.lineno}")
    return named, computed


def load(monkeypatch, **env: str) -> dict:
    """The settings module run with none of the documented variables set but ``env``."""
    for name in documented():
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    envvars.READ.clear()
    return runpy.run_path(str(SETTINGS))


def test_the_table_lists_every_variable_the_code_reads_and_all_are_read_at_start(monkeypatch):
    table = documented()
    assert len(table) == len(set(table)), "a variable has two rows"
    load(monkeypatch)
    at_start = set(envvars.READ)
    named, computed = reads_in_source()
    late = {name: where for name, where in named.items() if name not in at_start}
    assert late == {}, "read after start: read it in talu_site/settings.py (envvars)"
    assert {w.split(":")[0] for w in computed} <= COMPUTED_NAMES, computed
    code = at_start | set(named)
    assert sorted(code - set(table)) == [], "read but not in docs/deployment.md's table"
    assert sorted(set(table) - code) == [], "in docs/deployment.md's table but read nowhere"


def test_the_source_scan_finds_reads_of_every_kind(tmp_path):
    """The scan is not blind: the kinds of read the test relies on are found."""
    source = ("import os\nfrom talu_site import envvars\nNAME = 'X_CONST'\n"
              "os.environ.get('X_GET')\nos.getenv('X_GETENV')\nos.environ['X_ITEM']\n"
              "envvars.env_int('X_ATTR', 1)\nenv_bool(NAME, True)\nenv_text(f'X_{1}', '')\n")
    tree = ast.parse(source)
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and _is_reader(n.func)]
    items = [n for n in ast.walk(tree) if isinstance(n, ast.Subscript) and _is_environ(n.value)]
    assert len(calls) == 5 and len(items) == 1


# One bad value for every variable, and the other variables it needs to matter.
BAD: dict[str, tuple[str, dict[str, str]]] = {
    "DEBUG": ("maybe", {}),
    "SECRET_KEY": ("", {"DEBUG": "false", "ALLOWED_HOSTS": "play.example.org"}),
    "ALLOWED_HOSTS": ("https://play.example.org", {}),
    "CSRF_TRUSTED_ORIGINS": ("play.example.org", {}),
    "SECURE_COOKIES": ("sometimes", {}),
    "SECURE_SSL_REDIRECT": ("2", {}),
    "TALU_HSTS_SECONDS": ("a year", {}),
    "TALU_HSTS_INCLUDE_SUBDOMAINS": ("yes please", {}),
    "TALU_HSTS_PRELOAD": ("maybe", {}),
    "TALU_CSP": ("'self'", {}),
    "TALU_MAX_REQUEST_BYTES": ("1024", {}),
    "DATABASE_URL": ("mysql://talu:pw-secret@db/talu", {}),
    "DB_CONN_MAX_AGE": ("-1", {}),
    "DB_CONN_HEALTH_CHECKS": ("perhaps", {}),
    "TALU_TEST_DB_NAME": ("two\nlines", {}),
    "REDIS_URL": ("redis://:pw-secret@cache:port/0", {}),
    "TALU_CACHE_PREFIX": ("talu cache", {}),
    "TALU_CHANNEL_BACKEND": ("rabbitmq", {}),
    "TALU_CHANNEL_PREFIX": ("talu/test", {}),
    "TALU_CHANNEL_CAPACITY": ("lots", {}),
    "TALU_CHANNEL_EXPIRY": ("0", {}),
    "TALU_CHANNEL_GROUP_EXPIRY": ("1.5", {}),
    "TALU_CHANNEL_POOL_MAX": ("0", {}),
    "TALU_CHANNEL_SHARDS": ("0", {}),
    "TALU_CHANNEL_CONNECT_TIMEOUT": ("5s", {}),
    "TALU_CHANNEL_ENCRYPTION_KEYS": ("a-key-of-16-chars!,short-secret", {}),
    "TALU_TRUSTED_PROXIES": ("10.0.0.0/8,proxy.local", {}),
    "TALU_RATE_LOGIN_ADDRESS": ("lots", {}),
    "TALU_RATE_LOGIN_ACCOUNT": ("10", {}),
    "TALU_RATE_SIGNUP_ADDRESS": ("5/fortnight", {}),
    "TALU_RATE_CHALLENGE": ("0/minute", {}),
    "TALU_RATE_CHALLENGE_ADDRESS": ("60 per minute", {}),
    "TALU_RATE_WS_CONNECT": ("-1/minute", {}),
    "TALU_RATE_WS_MESSAGE": ("100 a second", {}),
    "TALU_RATE_WS_SYNC": ("20/10seconds/socket", {}),
    "TALU_RATE_POOL_JOIN": ("30/0minute", {}),
    "TALU_RATE_POOL_JOIN_ADDRESS": ("never", {}),
    "TALU_RATE_POOL_LEAVE": ("30/minute/account", {}),
    "TALU_RATE_COMPUTER_GAME": ("20/10 minutes please", {}),
    "TALU_RATE_CHAT": ("5 per 10 seconds", {}),
    "TALU_RATE_CHAT_REPORT": ("0/hour", {}),
    "TALU_API_RATE_ANON": ("abc", {}),
    "TALU_API_RATE_USER": ("600/10minute", {}),  # ratelimit's form; DRF's KeyError per request
    "TALU_API_RATE_BODY": ("600/mango", {}),  # DRF would read 600 a minute
    "TALU_MAX_OPEN_CHALLENGES": ("0", {}),
    "TALU_MAX_COMPUTER_GAMES": ("many", {}),
    "TALU_KEYRING": (str(SETTINGS), {}),  # a file, not a directory
    "TALU_REGISTRAR_ID": ("TALU SITE", {}),
    "TALU_BODY_NAME": ("talu (online)", {}),  # the key's user id takes no parentheses
    "TALU_PLACE": ("two\nlines", {}),
    "TALU_SITE_URL": ("localhost:8000", {}),
    "EMAIL_URL": ("smtp://u:pw-secret@mail.example.org:abc", {}),
    "DEFAULT_FROM_EMAIL": ("noreply", {}),
    "TALU_WS_MAX_CONNECTIONS": ("-1", {}),
    "TALU_WS_HEARTBEAT": ("0.1", {}),
    "TALU_WS_DB_THREADS": ("0", {}),
    "TALU_WS_PRESENCE_FANOUT": ("fifty", {}),
    "TALU_WS_MAX_MESSAGE": ("lots", {}),
    "TALU_EMBEDDED_WORKER": ("auto", {}),
    "TALU_WORKER_POLL": ("0", {}),
    "TALU_WORKER_LEASE": ("nan", {}),
    "TALU_WORKER_BATCH": ("2.5", {}),
    "TALU_WORKER_ALIVE_FILE": ("/tmp/a\nlive", {}),
    "TALU_ARCHIVE_PROCESS": ("thread", {}),
    "TALU_ARCHIVE_IDLE": ("idle", {}),
    "TALU_ARCHIVE_NICE": ("-5", {}),
    "TALU_CLOCK_PRIORITY": ("high", {}),
    "TALU_POOL_WAVE": ("abc", {}),
    "TALU_POOL_EARLY_WAVES": ("sometimes", {}),
    "TALU_POOL_LARGE": ("1", {}),
    "TALU_COMPUTER_PROCESSES": ("two", {}),
    "TALU_COMPUTER_STEP_DELAY": ("-0.1", {}),
    "TALU_COMPUTER_QUEUE": ("0", {}),
    "TALU_COMPUTER_IDLE": ("2", {}),
    "TALU_COMPUTER_NICE": ("inf", {}),
    "LOG_LEVEL": ("VERBOSE", {}),
}


# Values a message must not repeat: they end up in logs ("secret" in each bad value above).
SECRETS = {"SECRET_KEY", "TALU_CHANNEL_ENCRYPTION_KEYS", "DATABASE_URL", "REDIS_URL",
           "EMAIL_URL"}


def test_every_documented_variable_has_a_bad_value_below():
    assert sorted(BAD) == sorted(documented())


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_bad_value_stops_the_start_naming_the_variable(monkeypatch, name):
    value, others = BAD[name]
    with pytest.raises(ImproperlyConfigured) as refused:
        load(monkeypatch, **others, **{name: value})
    message = str(refused.value)
    assert message.startswith(name) and message.endswith(")"), message  # (what would do)
    if name in SECRETS:
        assert "secret" not in message, message
    else:
        assert message.startswith(f"{name}={value!r} "), message


def test_a_secret_is_not_repeated(monkeypatch):
    with pytest.raises(ImproperlyConfigured) as refused:
        load(monkeypatch, SECRET_KEY="very-secret\x07key")
    assert str(refused.value).startswith("SECRET_KEY=(hidden) must not contain the control")


def test_the_defaults_and_good_values(monkeypatch):
    ns = load(monkeypatch)
    assert (ns["TALU_POOL_WAVE"], ns["TALU_WS_HEARTBEAT"], ns["TALU_WORKER_ALIVE_FILE"]) == (
        3.0, 20.0, "")
    assert ns["TALU_ARCHIVE_IDLE"] is False and ns["TALU_EMBEDDED_WORKER"] is True  # SQLite
    assert ns["LOGGING"]["root"]["level"] == "INFO"
    ns = load(monkeypatch, TALU_POOL_WAVE="0.5", LOG_LEVEL="debug", TALU_WS_MAX_CONNECTIONS="0",
              TALU_API_RATE_ANON="60/min", TALU_RATE_CHALLENGE="off", TALU_COMPUTER_IDLE="0",
              DATABASE_URL="postgres://u@db:5432/talu", REDIS_URL="redis://cache:6379/0",
              TALU_KEYRING=" /srv/talu/keyring ", EMAIL_URL="smtp+tls://u:p@mail.example.org:587",
              ALLOWED_HOSTS="play.example.org, .example.org,[::1]",
              CSRF_TRUSTED_ORIGINS="https://play.example.org,http://localhost:8000")
    assert ns["TALU_POOL_WAVE"] == 0.5 and ns["TALU_WS_MAX_CONNECTIONS"] == 0
    assert ns["LOGGING"]["root"]["level"] == "DEBUG"
    assert ns["REST_FRAMEWORK"]["DEFAULT_THROTTLE_RATES"]["anon"] == "60/min"
    assert ns["TALU_RATES"]["challenge"] == "off" and ns["TALU_COMPUTER_IDLE"] is False
    assert ns["TALU_ARCHIVE_IDLE"] is True and ns["TALU_EMBEDDED_WORKER"] is False  # PostgreSQL
    assert ns["TALU_KEYRING"] == Path("/srv/talu/keyring")
    assert ns["EMAIL_HOST"] == "mail.example.org" and ns["EMAIL_USE_TLS"] is True
    assert ns["ALLOWED_HOSTS"] == ["play.example.org", ".example.org", "[::1]"]


@pytest.mark.parametrize("rate, seconds", [("120/minute", 60), ("60/min", 60), ("5/s", 1),
                                           ("10/hours", 3600), ("1/day", 86400)])
def test_the_api_rates_taken_mean_to_drf_what_they_say(monkeypatch, rate, seconds):
    """What the settings take, DRF's own parse_rate reads as the words say."""
    from rest_framework.throttling import SimpleRateThrottle

    ns = load(monkeypatch, TALU_API_RATE_BODY=rate)
    taken = ns["REST_FRAMEWORK"]["DEFAULT_THROTTLE_RATES"]["body"]
    assert SimpleRateThrottle.parse_rate(None, taken) == (int(rate.split("/")[0]), seconds)


def test_play_reads_the_django_settings_a_test_overrides(settings):
    from play import conf
    from play.computer import conf as computer

    settings.TALU_POOL_WAVE = 0
    settings.TALU_WS_HEARTBEAT = 0.3
    settings.TALU_ARCHIVE_IDLE = True
    settings.TALU_COMPUTER_IDLE = 0
    assert (conf.pool_wave(), conf.heartbeat(), conf.archive_idle()) == (0.0, 0.3, True)
    assert computer.idle() is False


@pytest.mark.parametrize("command", [
    ["manage.py", "check"],
    ["manage.py", "play_worker", "--once"],
    ["-m", "talu_site.serve", "-b", "127.0.0.1", "-p", "0", "talu_site.asgi:application"],
], ids=["check", "worker", "server"])
def test_the_entry_points_refuse_a_bad_value_at_start(command):
    """The real processes, as ``./dev serve`` (migrate first, then the server), the container
    and the worker start them: Django loads the settings before any command, and the server's
    launcher loads them before daphne listens."""
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE",)}
    env["TALU_POOL_WAVE"] = "abc"
    out = subprocess.run([sys.executable, *command], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode != 0
    assert ("ImproperlyConfigured: TALU_POOL_WAVE='abc' is not a number (seconds, at least 0)"
            in out.stderr), out.stderr[-2000:]
