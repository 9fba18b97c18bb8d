"""Settings for Amnesia Table: one file, driven by environment variables.

The defaults suit a developer's checkout: DEBUG on, SQLite beside manage.py, the usual local host
names allowed. A deployment sets DEBUG=0, which makes SECRET_KEY mandatory and turns on the HTTPS
hardening further down. docs/settings.md lists every variable.
"""

from __future__ import annotations

import os
import tempfile
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _
from whitenoise.compress import Compressor

BASE_DIR = Path(__file__).resolve().parent.parent

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def env_bool(name: str, default: bool) -> bool:
    """Read a boolean; unset or empty means the default, anything unrecognised is an error."""
    raw = os.environ.get(name, "").strip().lower()
    if not raw:
        return default
    if raw in _TRUE:
        return True
    if raw in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean: use 1/0, true/false, yes/no.")


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not an integer.") from None


def env_list(name: str, default: list[str]) -> list[str]:
    """Read a comma-separated list; unset or empty means the default."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return list(default)
    return [item.strip() for item in raw.split(",") if item.strip()]


# Two writers on SQLite wait for each other instead of failing: WAL lets readers run beside a
# writer, IMMEDIATE takes the write lock when a transaction begins (not at its first write, when
# SQLite can only give up), and busy_timeout is how long a writer waits for that lock.
SQLITE_OPTIONS: dict[str, Any] = {
    "transaction_mode": "IMMEDIATE",
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=5000",
}


# PostgreSQL: how long the write path waits for a table's row lock (held by another move on the
# same table, or by a transaction that is stuck) before it gives up, so that the move answers
# the same 503 "busy, nothing applied" that SQLite's busy timeout gives. Set for the write
# path's transaction only (SET LOCAL in games/services/writing.py): book builds, imports, migrations and
# background workers keep no lock or statement timeout.
WRITE_LOCK_TIMEOUT_MS = env_int("WRITE_LOCK_TIMEOUT_MS", 3000)
if WRITE_LOCK_TIMEOUT_MS < 1:
    raise ImproperlyConfigured("WRITE_LOCK_TIMEOUT_MS must be 1 or more (milliseconds).")


def database_config(url: str | None, *, conn_max_age: int = 60) -> dict[str, Any]:
    """The DATABASES["default"] entry for a database URL; empty means SQLite beside manage.py."""
    if not url:
        url = f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
    config: dict[str, Any] = dict(dj_database_url.parse(url))
    if config["ENGINE"] == "django.db.backends.sqlite3":
        config["OPTIONS"] = {**SQLITE_OPTIONS, **config.get("OPTIONS", {})}
        if config["NAME"] != ":memory:":
            # Tests use a file too (not Django's in-memory default), so they exercise WAL and
            # IMMEDIATE exactly as the site does, and threads in a test really wait for each other.
            # One file per process, so two test runs in one checkout never share a database.
            test_name = Path(tempfile.gettempdir()) / f"amnesia-test-{os.getpid()}.sqlite3"
            config["TEST"] = {"NAME": str(test_name)}
    # Each thread keeps its connection across requests: opening one costs more than most
    # requests' reads (on SQLite its pragmas: 1.7 of a seat panel's 5 ms of CPU, bench/panels.py;
    # on PostgreSQL a round of authentication), and after a move every phone fetches its panel.
    config["CONN_MAX_AGE"] = conn_max_age
    config["CONN_HEALTH_CHECKS"] = True
    return config


DEBUG = env_bool("DEBUG", True)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
# A file holding the key instead (``manage.py serve`` makes one, outside git, when no key is
# given), so the key is in no process's environment and survives restarts.
SECRET_KEY_FILE = os.environ.get("SECRET_KEY_FILE", "").strip()
if not SECRET_KEY and SECRET_KEY_FILE:
    try:
        SECRET_KEY = Path(SECRET_KEY_FILE).read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        pass  # not made yet (the serve command makes it before the server starts)
    except OSError as exc:
        raise ImproperlyConfigured(f"SECRET_KEY_FILE={SECRET_KEY_FILE!r}: {exc}") from None
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set when DEBUG is off (or SECRET_KEY_FILE name a file holding it)."
        )
    SECRET_KEY = "django-insecure-local-development-only-never-use-this-key-in-production"

# Where phones reach the site (amnesia_site.addresses): PUBLIC_URL, the address a proxy or a
# name in front of the site answers on (say https://table.example.com); LAN_ADDRESSES, the
# laptop's private IPv4 addresses (``manage.py serve`` sets them from the interfaces up when it
# starts). Both are allowed hosts, and PUBLIC_URL a trusted origin for forms.
PUBLIC_URL = os.environ.get("PUBLIC_URL", "").strip().rstrip("/")
LAN_ADDRESSES = env_list("LAN_ADDRESSES", [])
_public_host = urlsplit(PUBLIC_URL).hostname if PUBLIC_URL else None
if PUBLIC_URL and not (PUBLIC_URL.startswith(("http://", "https://")) and _public_host):
    raise ImproperlyConfigured(f"PUBLIC_URL={PUBLIC_URL!r} is not an http:// or https:// URL.")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"])
ALLOWED_HOSTS += [host for host in [*LAN_ADDRESSES, _public_host] if host]
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
if PUBLIC_URL:
    _public = urlsplit(PUBLIC_URL)
    CSRF_TRUSTED_ORIGINS.append(f"{_public.scheme}://{_public.netloc}")


INSTALLED_APPS = [
    # Daphne's runserver (make run): the site over ASGI, the push's websockets too (games/push.py).
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "axes",
    "amnesia_site.accounts",
    "games",
    # One app per game (its label is the game's slug); each registers its kit when ready.
    "games.amnesia",
    "games.amnesia_stories",
    "games.contest",
    "games.playtests",
    "stories",
    # Work off the request: Django's Tasks kept in the database (django-tasks-db), and the
    # workers that run them (manage.py worker; make run and make serve start them).
    "django_tasks_db",
    "amnesia_site.workers",
]

# The queues (amnesia_site.workers.work): "books", the books people wait for; "long", the long
# runs; "pictures", the uploaded deck pictures being cleaned: each on workers of its own, so a
# book never waits behind a run or a deck, nor a deck behind a run.
TASKS = {
    "default": {
        "BACKEND": "django_tasks_db.DatabaseBackend",
        "QUEUES": ["books", "long", "pictures"],
    }
}
# A worker says it is alive every TASK_BEAT_SECONDS; one silent for TASK_SILENT_AFTER seconds
# does not answer (the page waiting for a book says so); a running task whose worker is gone
# (its process on this machine has ended) or silent for TASK_STALE_AFTER seconds is run again.
# TASK_STALE_AFTER must be longer than the longest step of a task between two beats.
TASK_BEAT_SECONDS = env_int("TASK_BEAT_SECONDS", 5)
TASK_SILENT_AFTER = env_int("TASK_SILENT_AFTER", 30)
TASK_STALE_AFTER = env_int("TASK_STALE_AFTER", 600)
# Tests only: a folder where a worker stops between the steps of a task until let go
# (amnesia_site.workers.work.pause_at). Empty everywhere else.
TASK_PAUSE_DIR = os.environ.get("TASK_PAUSE_DIR", "")
# The designer's lab (games.playtests.lab_chunks): games per chunk (a task of the long queue),
# a run's default time budget, and how it yields to the tables: while a move was made at any
# table in the last LAB_YIELD_SECONDS (0: never), a chunk waits between games, at most
# LAB_YIELD_MAX.
LAB_CHUNK_GAMES = env_int("LAB_CHUNK_GAMES", 50)
LAB_BUDGET_SECONDS = env_int("LAB_BUDGET_SECONDS", 600)
LAB_YIELD_SECONDS = env_int("LAB_YIELD_SECONDS", 10)
LAB_YIELD_MAX = env_int("LAB_YIELD_MAX", 30)
# Bounds on what one person may ask of the long workers: the games of one run (all the values
# of a sweep together) and the simulated games one person has queued or running (0: no bound).
LAB_MAX_RUN_GAMES = env_int("LAB_MAX_RUN_GAMES", 20_000)
LAB_MAX_QUEUED_GAMES = env_int("LAB_MAX_QUEUED_GAMES", 20_000)
# Custom decks (games.amnesia_stories.deck_queue): the most pixels one uploaded picture may
# have (read from its header in the request, before anything is decoded), and the most pictures
# one person may have waiting to be cleaned by the pictures worker at once.
DECK_MAX_PIXELS = env_int("DECK_MAX_PIXELS", 40_000_000)
DECK_MAX_QUEUED_PICTURES = env_int("DECK_MAX_QUEUED_PICTURES", 300)
# A book of more passages than this is printed by a worker, never in the request.
BOOK_LONG_PASSAGES = env_int("BOOK_LONG_PASSAGES", 100)
# The archive's disk cache (stories.cache); empty: a folder in the system's temporary one.
STORY_CACHE_DIR = os.environ.get("STORY_CACHE_DIR", "")

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # SERVE_STATIC (on under ``manage.py serve``): the app serves its own static files.
    *(["whitenoise.middleware.WhiteNoiseMiddleware"] if env_bool("SERVE_STATIC", False) else []),
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # A logged-in person's language from their profile (kept in the session at login).
    "amnesia_site.accounts.languages.ProfileLanguageMiddleware",
    # Before anything reads the body: an unreadable one is a sentence, never a debug page.
    "amnesia_site.middleware.UnreadableBodyMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # After the CSRF check and htmx: a NUL in any text sent is a 400 and a sentence.
    "amnesia_site.middleware.NulCharacterMiddleware",
    # A database that is locked or gone answers 503 "busy, nothing applied" (needs request.htmx).
    "amnesia_site.busy.DatabaseBusyMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into the 429 page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "amnesia_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.context_processors.game_nav",
            ],
        },
    },
]

WSGI_APPLICATION = "amnesia_site.wsgi.application"
ASGI_APPLICATION = "amnesia_site.asgi.application"

DATABASES = {
    "default": database_config(
        os.environ.get("DATABASE_URL"), conn_max_age=env_int("CONN_MAX_AGE", 60)
    )
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# django-axes checks every login (the site's and the admin's) before the password is: see
# "Logins and guessing" below.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# Impressions sent through the public playtest form (names and words of people who may have no
# account) are kept this many days; then ``manage.py purge_impressions`` deletes them.
PLAYTEST_IMPRESSION_DAYS = env_int("PLAYTEST_IMPRESSION_DAYS", 2 * 365)


# Internationalisation: the rules were written in Portuguese, Japanese and English.
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("pt-br", _("Brazilian Portuguese")),
    ("ja", _("Japanese")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True


# Static files and uploads. Nothing is fetched from a CDN: the site must work offline.
STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_URL = "/media/"
# With SERVE_STATIC, collectstatic writes each file under a name holding its hash (and a
# compressed copy), so WhiteNoise can tell browsers to keep it for a year: a changed file is
# a new name. Without it (development, tests) names stay plain and runserver serves them.
SERVE_STATIC = env_bool("SERVE_STATIC", False)
# The bundled fonts are large and mostly for the PDFs: compressing them (gzip and Brotli) makes
# collectstatic slow for little gain on the page.
WHITENOISE_SKIP_COMPRESS_EXTENSIONS = [*Compressor.SKIP_COMPRESS_EXTENSIONS, "otf", "ttf"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if SERVE_STATIC
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "media"))


# The site sends no mail yet; when it does, development prints it and a deployment uses SMTP.
if DEBUG:
    MAILERS = {"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}
else:
    MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": os.environ.get("EMAIL_HOST", "localhost"),
                "port": env_int("EMAIL_PORT", 25),
                "username": os.environ.get("EMAIL_HOST_USER", ""),
                "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
                "use_tls": env_bool("EMAIL_USE_TLS", False),
            },
        }
    }
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "webmaster@localhost")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}


# The admin's address: moving it off the well-known admin/ keeps it out of most scanners' way.
ADMIN_URL = os.environ.get("ADMIN_URL", "admin/").strip("/") + "/"
if ADMIN_URL == "/":
    raise ImproperlyConfigured("ADMIN_URL must not be empty: use a path such as 'admin/'.")

# The number of reverse proxies in front of the site that each append the address they received
# the request from to X-Forwarded-For. 0: the client's address is REMOTE_ADDR and that header is
# ignored (anyone can send it); N: the client is the Nth entry from the right.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0)
if TRUSTED_PROXY_COUNT < 0:
    raise ImproperlyConfigured("TRUSTED_PROXY_COUNT must be 0 or more.")

# What several processes must share lives in Django's cache: the secret-link throttles'
# counters, above all. One process (make run, the tests): its own memory. Several (make serve
# with WORKERS > 1, or more than one machine): Redis at REDIS_URL, e.g. redis://127.0.0.1:6379/0.
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "amnesia"),
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# The push (games/push.py): each process's own memory when it serves alone; Redis at REDIS_URL
# when several processes or machines serve, so a move through one reaches the screens
# connected to another (without it they follow that move by their polls).
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                "hosts": [REDIS_URL],
                "prefix": os.environ.get("CACHE_KEY_PREFIX", "amnesia") + ":push",
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
# Several server processes (make serve --workers N sets WORKERS) each with its own memory would
# each hear only the moves made through it: the push is refused, and the pages poll as before.
PUSH = bool(REDIS_URL) or env_int("WORKERS", 1) <= 1


# The server's two pools of threads per worker process (``manage.py serve``,
# amnesia_site/lanes.py): THREADS for pages and moves, POLL_THREADS apart for the polls, which so
# never wait behind pages.
THREADS = env_int("THREADS", 2)
POLL_THREADS = env_int("POLL_THREADS", 4)
if THREADS < 1 or POLL_THREADS < 1:
    raise ImproperlyConfigured("THREADS and POLL_THREADS must be 1 or more.")
# How long, in microseconds, the served app's threads may run Python while another thread waits
# for its turn (Python's switch interval: 5,000 by default). A poll takes its turn at the
# interpreter several times (its request, each query, its answer), each time behind threads
# rendering pages: at 5 ms a turn, a poll under load waited tenths of a second. Set only in
# the served app (amnesia_site/served.py); bench/load.py measures it.
SWITCH_INTERVAL_US = env_int("SWITCH_INTERVAL_US", 500)
if not 50 <= SWITCH_INTERVAL_US <= 100_000:
    raise ImproperlyConfigured("SWITCH_INTERVAL_US must be from 50 to 100000 (microseconds).")


# Logins and guessing. django-axes counts failed logins in its own tables (so every worker
# process sees the same numbers) and locks out, for AXES_COOLOFF_TIME, a client that reaches
# either limit: per account and address, and per address whatever the account. Nothing counts
# per account alone, so guessing at the game master's name from elsewhere never locks them out.
AXES_HANDLER = "amnesia_site.logins.AccountAndAddressHandler"
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURES_PER_ACCOUNT", 5)
LOGIN_FAILURES_PER_ADDRESS = env_int("LOGIN_FAILURES_PER_ADDRESS", 20)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_COOL_OFF_MINUTES", 15))
# The lockout runs from the failure that caused it: tries while locked out are refused unseen.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_CLIENT_IP_CALLABLE = "amnesia_site.clients.client_key"
AXES_LOCKOUT_CALLABLE = "amnesia_site.logins.locked_out"
AXES_DISABLE_ACCESS_LOG = True  # failures are what it needs to count; successes are not kept

# Seat links (/seat/<token>/) and secret story links (/stories/s/<secret>/): an address that
# tries this many different wrong secrets within the cool-off is refused (429) until it ends.
SECRET_LINK_FAILURES = env_int("SECRET_LINK_FAILURES", 20)
SECRET_LINK_COOL_OFF = timedelta(minutes=env_int("SECRET_LINK_COOL_OFF_MINUTES", 15))
# Sign-ups: an address that made this many accounts within the cool-off is refused (429) until
# it ends (a table of players on one Wi-Fi signs up well within it).
SIGNUPS_PER_ADDRESS = env_int("SIGNUPS_PER_ADDRESS", 10)
SIGNUP_COOL_OFF = timedelta(minutes=env_int("SIGNUP_COOL_OFF_MINUTES", 60))


# Browser-side hardening, in development too (so a violation shows while the page is written).
# No inline script, style or event handler anywhere: scripts and styles come from static files.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF],
    "font-src": [CSP.SELF],
    "connect-src": [CSP.SELF],
    "form-action": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "frame-ancestors": [CSP.NONE],
}
# Seat and story links carry their secret in the path: other sites never see it.
SECURE_REFERRER_POLICY = "same-origin"
PERMISSIONS_POLICY: dict[str, list[str]] = {
    feature: []
    for feature in (
        "accelerometer",
        "browsing-topics",
        "camera",
        "display-capture",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "payment",
        "usb",
    )
}
PERMISSIONS_POLICY["fullscreen"] = ["self"]
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
# No script reads the CSRF cookie: htmx sends the token from hx-headers on <body>, the drafts'
# fetch() from the form's csrfmiddlewaretoken field.
CSRF_COOKIE_HTTPONLY = True
CSRF_COOKIE_SAMESITE = "Lax"


# HTTPS hardening, on whenever DEBUG is off; each piece can be turned off by its own variable
# (say, SECURE_SSL_REDIRECT=0 where a proxy in front already redirects).
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", not DEBUG)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 60 * 60 * 24 * 365)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", not DEBUG)
# Only behind a proxy that sets X-Forwarded-Proto itself and strips it from clients.
if env_bool("SECURE_PROXY_SSL_HEADER", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
