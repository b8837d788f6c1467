"""duocthu settings, read from environment variables only.

Development defaults are safe (loopback hosts, an embedded PostgreSQL under var/); with
DJANGO_DEBUG off, anything that must be chosen on purpose fails with a message naming it.
"""

import ipaddress
import os
from datetime import timedelta
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from duocthu.devdb import development, embedded_database_url

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"


def env_str(name: str, default: str | None = None) -> str:
    value = os.environ.get(name)
    if value is not None and value != "":
        return value
    if default is None:
        raise ImproperlyConfigured(f"Set the environment variable {name}.")
    return default


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    if raw.lower() in ("1", "true", "yes", "on"):
        return True
    if raw.lower() in ("0", "false", "no", "off"):
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {raw!r}.")


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {raw!r}.") from exc


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


# Off unless DJANGO_DEBUG says so or nothing of a deployment is set (duocthu/devdb.py): a
# deployment that only sets ALLOWED_HOSTS runs with DEBUG off and must set its secret key.
DEBUG = env_bool("DJANGO_DEBUG", development())

if DEBUG:
    SECRET_KEY = env_str("DJANGO_SECRET_KEY", "dev-only-insecure-key-not-for-production")
    ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"])
else:
    if not os.environ.get("DJANGO_SECRET_KEY"):
        raise ImproperlyConfigured(
            "DJANGO_DEBUG is off: set DJANGO_SECRET_KEY to a long random string."
        )
    if not os.environ.get("ALLOWED_HOSTS"):
        raise ImproperlyConfigured(
            "DJANGO_DEBUG is off: set ALLOWED_HOSTS to the intranet host names, comma-separated."
        )
    SECRET_KEY = env_str("DJANGO_SECRET_KEY")
    # Django's own bar (check --deploy, security.W009): a one-character key used to serve.
    if len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY is too short: use at least 50 random characters, e.g. "
            "python3 -c 'import secrets; print(secrets.token_urlsafe(50))'."
        )
    ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "django_htmx",
    "template_partials",
    "django_rq",
    "axes",
    "corpus",
    "retrieval",
    "answering",
    "chat",
    "duocthu",  # the database checks, setup_production, migrate_locked, the error pages
]

MIDDLEWARE = [
    # First: the load balancer's probe needs no host name, no TLS redirect and no session.
    "duocthu.health.HealthCheckMiddleware",
    "duocthu.clients.ClientAddressMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "duocthu.middleware.HtmxLoginRedirectMiddleware",
    "duocthu.middleware.DatabaseUnavailableMiddleware",
    "csp.middleware.CSPMiddleware",
    "axes.middleware.AxesMiddleware",  # last, as django-axes requires
]

ROOT_URLCONF = "duocthu.urls"
WSGI_APPLICATION = "duocthu.wsgi.application"

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

# In development the entry points (manage.py, wsgi, the test plugin) set DATABASE_URL to the
# embedded PostgreSQL under var/, starting it (duocthu/devdb.py); importing the settings never
# starts a server. Without DATABASE_URL the settings name that server's socket, so a tool that
# only imports them works, and a query outside an entry point fails naming the socket.
if os.environ.get("DATABASE_URL"):
    DATABASES: dict[str, Any] = {
        "default": dj_database_url.parse(
            os.environ["DATABASE_URL"], conn_max_age=60, conn_health_checks=True
        )
    }
elif not DEBUG:
    raise ImproperlyConfigured(
        "DJANGO_DEBUG is off: set DATABASE_URL to a PostgreSQL server with pgvector "
        "(postgres://user:password@host:5432/duocthu)."
    )
else:
    DATABASES = {"default": dj_database_url.parse(embedded_database_url())}

# Where one host's processes keep the ranked index's scores (retrieval/ranked_store.py).
RANKED_INDEX_DIR = env_str("DUOCTHU_RANKED_INDEX_DIR", "") or None

# The tests' database is "test_<name>"; two test runs at once on one server need two names.
if os.environ.get("DUOCTHU_TEST_DATABASE"):
    DATABASES["default"]["TEST"] = {"NAME": os.environ["DUOCTHU_TEST_DATABASE"]}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env_str("REDIS_URL", "redis://127.0.0.1:6379/0")
RQ_QUEUES = {"default": {"URL": REDIS_URL, "DEFAULT_TIMEOUT": 1800}}
# With DUOCTHU_RUN_JOBS_INLINE the app runs rq jobs in the request (no Redis needed).
RUN_JOBS_INLINE = env_bool("DUOCTHU_RUN_JOBS_INLINE", False)

LANGUAGE_CODE = "vi"
TIME_ZONE = "Asia/Ho_Chi_Minh"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# Outside the code checkout in production (the service user may not write there), e.g.
# STATIC_ROOT=/var/lib/duocthu/static; bin/serve collects into it.
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(VAR_DIR / "staticfiles")))
if DEBUG:
    STATIC_ROOT.mkdir(parents=True, exist_ok=True)
STATICFILES_DIRS = [BASE_DIR / "duocthu" / "static"]
# Serve static files straight from the app folders in development (no collectstatic step).
WHITENOISE_USE_FINDERS = DEBUG
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # Hashed names: a new version's files never meet a browser's cached old ones.
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": 10},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# A ward shift, not two weeks; closing the browser ends it.
SESSION_COOKIE_AGE = env_int("SESSION_COOKIE_AGE", 8 * 3600)
SESSION_EXPIRE_AT_BROWSER_CLOSE = True
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = not DEBUG
# Behind the hospital's TLS proxy: e.g. SECURE_PROXY_SSL_HEADER=HTTP_X_FORWARDED_PROTO.
if proxy_header := env_str("SECURE_PROXY_SSL_HEADER", ""):
    SECURE_PROXY_SSL_HEADER = (proxy_header, "https")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

# Production hardening, on whenever DEBUG is off; each can be set from the environment.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
# An intranet host name cannot be on the browsers' public HSTS preload list.
SILENCED_SYSTEM_CHECKS = [] if SECURE_HSTS_PRELOAD else ["security.W021"]
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SESSION_COOKIE_SAMESITE = CSRF_COOKIE_SAMESITE = "Lax"
X_FRAME_OPTIONS = "DENY"
# The page's own scripts (htmx, chat.js) are files; no inline script runs. Styles: the admin
# sets a few inline style attributes, so style-src allows them; scripts never.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'self'"],
        "object-src": ["'none'"],
    }
}

# Login throttling (django-axes): after AXES_FAILURE_LIMIT failures for one username from one
# address, that pair is locked out for AXES_COOLOFF_MINUTES; after AXES_ADDRESS_FAILURE_LIMIT
# failures from one address across usernames, that address is (duocthu/logins.py).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
# A ward's PCs share one address: 50 in 15 minutes is ten nurses' worth of typos, and far
# below a guessing loop (the red team's eight loops made ~1,000 guesses a minute).
LOGIN_ADDRESS_FAILURE_LIMIT = env_int("AXES_ADDRESS_FAILURE_LIMIT", 50)
AXES_FAILURE_LIMIT = "duocthu.logins.failure_limit"
AXES_COOLOFF_TIME = timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
# The client address behind the proxies (duocthu/clients.py), for the lockout, the access log
# and the app's log lines: X-Forwarded-For is read only from a peer in FORWARDED_ALLOW_IPS (the
# variable gunicorn reads too), and only the TRUSTED_PROXY_COUNT entries the proxies appended.
AXES_CLIENT_IP_CALLABLE = "duocthu.clients.client_address"
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0)
FORWARDED_ALLOW_IPS = env_list("FORWARDED_ALLOW_IPS", ["127.0.0.1", "::1"])
for _peer in set(FORWARDED_ALLOW_IPS) - {"*"}:
    try:
        ipaddress.ip_network(_peer, strict=False)
    except ValueError as exc:
        raise ImproperlyConfigured(
            f"FORWARDED_ALLOW_IPS: {_peer!r} is not an address or network (e.g. 127.0.0.1, "
            "10.0.0.0/24), comma-separated."
        ) from exc
if os.environ.get("AXES_IPWARE_PROXY_COUNT"):
    # Its meaning was ipware's (proxies listed in the header), where 1 gave an empty address.
    raise ImproperlyConfigured(
        "AXES_IPWARE_PROXY_COUNT is no longer read: set TRUSTED_PROXY_COUNT to the number of "
        "proxies in front of gunicorn (nginx alone: 1) and FORWARDED_ALLOW_IPS to the address "
        "of the one that connects to gunicorn."
    )

# /metrics: staff who are logged in, or a scraper sending "Authorization: Bearer <token>".
METRICS_TOKEN = env_str("METRICS_TOKEN", "")

LOGIN_URL = "chat:login"
LOGIN_REDIRECT_URL = "chat:index"
LOGOUT_REDIRECT_URL = "chat:login"

_default_corpus = BASE_DIR.parent / "shared" / "corpus" / "duocthu-2018"
DUOCTHU_CORPUS_DIR = Path(env_str("DUOCTHU_CORPUS_DIR", str(_default_corpus)))

# The book's PDF for the review page's images (corpus/page_images.py; unset: the PDF a chunk
# was ingested from); the offset maps printed pages to the PDF's (PDF = printed + offset).
FORMULARY_PDF = env_str("FORMULARY_PDF", "")
FORMULARY_PDF_PAGE_OFFSET = env_int("FORMULARY_PDF_PAGE_OFFSET", 0)
PAGE_IMAGES_DIR = Path(env_str("PAGE_IMAGES_DIR", str(VAR_DIR / "page-images")))

# Embeddings. "hashing" needs no download; see corpus/embedding.py for the measurement.
EMBEDDING_PROVIDER = env_str("EMBEDDING_PROVIDER", "hashing")
EMBEDDING_MODEL = env_str("EMBEDDING_MODEL", "")
EMBEDDING_DIMENSIONS = 384
EMBEDDING_BASE_URL = env_str("EMBEDDING_BASE_URL", "")
EMBEDDING_API_KEY = env_str("EMBEDDING_API_KEY", "")

# Optional reranker for free-form questions: none, openai (a /rerank endpoint) or bedrock.
RERANK_PROVIDER = env_str("RERANK_PROVIDER", "none")
RERANK_MODEL = env_str("RERANK_MODEL", "")
RERANK_BASE_URL = env_str("RERANK_BASE_URL", "")
RERANK_API_KEY = env_str("RERANK_API_KEY", "")
RERANK_TIMEOUT = env_int("RERANK_TIMEOUT", 5)

# Answer generation: disabled (verbatim quotes), bedrock or openai.
ANSWER_PROVIDER = env_str("ANSWER_PROVIDER", "disabled")
if ANSWER_PROVIDER not in ("disabled", "bedrock", "openai"):
    raise ImproperlyConfigured("ANSWER_PROVIDER must be disabled, bedrock or openai.")
ANSWER_MODEL = env_str("ANSWER_MODEL", "")
ANSWER_BASE_URL = env_str("ANSWER_BASE_URL", "")
ANSWER_API_KEY = env_str("ANSWER_API_KEY", "")
ANSWER_BUDGET_SECONDS = env_int("ANSWER_BUDGET_SECONDS", 30)
# With a model: "model" (the deterministic frame is the floor, the model refines it within
# bounds) or "deterministic" (the model only writes answers). A sub-1B model: deterministic.
UNDERSTANDING = env_str("UNDERSTANDING", "model")
ANSWER_RESPONSE_FORMAT = env_str("ANSWER_RESPONSE_FORMAT", "json_object")
if ANSWER_RESPONSE_FORMAT not in ("json_object", "json_schema", "none"):
    raise ImproperlyConfigured("ANSWER_RESPONSE_FORMAT must be json_object, json_schema or none.")
if UNDERSTANDING not in ("model", "deterministic"):
    raise ImproperlyConfigured("UNDERSTANDING must be model or deterministic.")
AWS_REGION = env_str("AWS_REGION", "us-east-1")

# One line per event: ISO time with its offset (the process's TZ is TIME_ZONE, gunicorn.conf.py
# sets the same), level, logger, the client address behind the proxies, the message.
LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s [%(client)s] %(message)s"
LOG_DATE_FORMAT = "%Y-%m-%dT%H:%M:%S%z"
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"client": {"()": "duocthu.clients.ClientAddressLogFilter"}},
    "formatters": {"line": {"format": LOG_FORMAT, "datefmt": LOG_DATE_FORMAT}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "line", "filters": ["client"]}
    },
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "WARNING")},
    "loggers": {"duocthu": {"level": "INFO"}},
}

# Optional error reporting (pip install '.[sentry]'). Questions may carry patient details:
# no request body, no cookies, no user data leave the hospital with an event.
if SENTRY_DSN := env_str("SENTRY_DSN", ""):
    try:
        import sentry_sdk
    except ImportError as exc:
        raise ImproperlyConfigured(
            "SENTRY_DSN is set but sentry-sdk is not installed: pip install '.[sentry]'."
        ) from exc
    sentry_sdk.init(
        dsn=SENTRY_DSN,
        environment=env_str("SENTRY_ENVIRONMENT", "production"),
        send_default_pii=False,
        max_request_body_size="never",
        traces_sample_rate=0.0,
    )
