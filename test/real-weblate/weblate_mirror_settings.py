# Settings of the Weblate releases that the real-Weblate test tier runs (test/real-weblate/
# versions). Weblate's example settings, with what a local API server on 127.0.0.1 needs; every
# value that differs between instances comes from the environment the harness (harness/weblate.ts)
# sets.
import inspect
import os

from weblate.api.spectacular import get_drf_settings
from weblate.settings_example import *  # noqa: F403

_env = os.environ

DEBUG = True  # serves static files without collectstatic
SECRET_KEY = "weblate-mirror test tier, loopback only"  # noqa: S105
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
# Weblate builds every absolute URL (API links, `next` of a list) from SITE_DOMAIN and
# ENABLE_HTTPS, not from the request, so the harness passes the port it serves on.
SITE_DOMAIN = _env["WEBLATE_TIER_SITE_DOMAIN"]
SITE_URL = f"http://{SITE_DOMAIN}"
ENABLE_HTTPS = False
SECURE_SSL_REDIRECT = False
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False

DATA_DIR = _env["WEBLATE_TIER_DATA_DIR"]
CACHE_DIR = os.path.join(DATA_DIR, "cache")
MEDIA_ROOT = os.path.join(DATA_DIR, "media")
STATIC_ROOT = os.path.join(DATA_DIR, "static")

DATABASES["default"].update(  # noqa: F405
    {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": _env["WEBLATE_TIER_DATABASE"],
        "USER": _env.get("WEBLATE_TIER_DATABASE_USER", "postgres"),
        "PASSWORD": "",
        "HOST": _env.get("WEBLATE_TIER_DATABASE_HOST", "127.0.0.1"),
        "PORT": _env.get("WEBLATE_TIER_DATABASE_PORT", "5432"),
    }
)

# Statistics, locks and the API throttle live in the default cache. The server and the
# management commands the tests run beside it (suggestions, comments, backdating) are separate
# processes, so they share one Redis cache, under a prefix of this instance's own.
_redis = _env.get("WEBLATE_TIER_REDIS", "redis://127.0.0.1:6379/0")
CACHES = {
    "default": {
        "BACKEND": "django_redis.cache.RedisCache",
        "LOCATION": _redis,
        "KEY_PREFIX": _env["WEBLATE_TIER_CACHE_PREFIX"],
        "OPTIONS": {"CLIENT_CLASS": "django_redis.client.DefaultClient"},
    },
    "avatar": {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": os.path.join(DATA_DIR, "avatar-cache"),
    },
}

# Background tasks run inline, in the request that queues them.
CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BROKER_URL = "memory://"
CELERY_RESULT_BACKEND = None

# The API throttle (DRF; 5000/hour for a token by default). The politeness test lowers it.
# Up to 5.14 it is an argument of get_drf_settings; since 2026 these two settings.
API_RATELIMIT_ANON = _env.get("WEBLATE_TIER_ANON_THROTTLE", "100/day")
API_RATELIMIT_USER = _env.get("WEBLATE_TIER_USER_THROTTLE", "5000/hour")
if "anon_throttle" in inspect.signature(get_drf_settings).parameters:
    REST_FRAMEWORK = get_drf_settings(
        require_login=False, anon_throttle=API_RATELIMIT_ANON, user_throttle=API_RATELIMIT_USER
    )
else:
    REST_FRAMEWORK = get_drf_settings(require_login=False)

# The webhooks test's receiver listens on 127.0.0.1, which Weblate 2026 refuses by default.
WEBHOOK_RESTRICT_PRIVATE = False

# Only what an API server with uploaded (local) components needs: no machine translation
# services, no VCS hosting integrations, no outgoing mail.
VCS_BACKENDS = ("weblate.vcs.git.GitRepository", "weblate.vcs.git.LocalRepository")
WEBLATE_MACHINERY = ()
EMAIL_BACKEND = "django.core.mail.backends.dummy.EmailBackend"
OTP_WEBAUTHN_RP_NAME = "weblate-mirror test tier"
OTP_WEBAUTHN_RP_ID = "localhost"
OTP_WEBAUTHN_ALLOWED_ORIGINS = ["https://localhost"]
BACKGROUND_ADMIN_CHECKS = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Every response says how long Weblate took and how many SQL queries it ran (Server-Timing and
# X-Tier-Queries), which the tier's measurements read.
MIDDLEWARE = ["tier_middleware.MeasureRequests", *MIDDLEWARE]  # noqa: F405

# Its own log on stderr, which the harness keeps under test/artifacts/ when a test fails.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"simple": {"format": "[%(asctime)s %(levelname)s %(name)s] %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "simple"}},
    "loggers": {
        "django.request": {"handlers": ["console"], "level": "ERROR", "propagate": False},
        "weblate": {"handlers": ["console"], "level": "WARNING", "propagate": False},
    },
}
