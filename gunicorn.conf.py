"""gunicorn settings for `bin/serve` (production): every value can be set from the environment.

Measured on the 2-core machine (bench/load.py): see the README's Measured section.
"""

import multiprocessing
import os
import shutil
import time
from pathlib import Path
from typing import Any

VAR_DIR = Path(__file__).resolve().parent / "var"

bind = os.environ.get("BIND", "127.0.0.1:8000")  # behind the hospital's TLS proxy
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() + 1))
worker_class = "gthread"
threads = int(os.environ.get("WEB_THREADS", 4))
timeout = int(os.environ.get("WEB_TIMEOUT", 60))  # a model turn is bounded well below this
graceful_timeout = 20
keepalive = 5
max_requests = 5000  # workers are recycled: no slow leak lives for weeks
max_requests_jitter = 500
# WEB_PRELOAD=true: the master loads the app and builds the name catalog and the ranked index
# before it forks, and the workers share them copy-on-write (issue 23: at 7× the book each
# worker's own build ran past WEB_TIMEOUT under load and gunicorn killed them in a loop).
# Off by default: a preloaded master keeps its code on `systemctl reload` (HUP), so an
# upgrade is then a `systemctl restart`, one host at a time behind the balancer.
preload_app = os.environ.get("WEB_PRELOAD", "").strip().lower() in ("1", "true", "yes", "on")
# Only this peer's X-Forwarded-Proto is believed (and, in the app, its X-Forwarded-For).
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")

# The control socket (gunicornc) sat at a fixed path in the home directory, shared by every
# gunicorn of the user: off unless GUNICORN_CONTROL_SOCKET names a path.
control_socket_disable = not os.environ.get("GUNICORN_CONTROL_SOCKET")
control_socket = os.environ.get("GUNICORN_CONTROL_SOCKET") or str(VAR_DIR / "gunicorn.ctl")

# One time zone in every line, the app's (settings.TIME_ZONE; a test keeps them equal): the
# master logged in the host's zone, the workers in the app's.
TIME_ZONE = "Asia/Ho_Chi_Minh"
os.environ["TZ"] = TIME_ZONE
time.tzset()

# The client's address as the app reads it behind the proxies (duocthu/clients.py), not the
# proxy's; "-" for what never reached the app.
accesslog = os.environ.get("ACCESS_LOG", "-") or None  # "" turns it off
errorlog = "-"
access_log_format = '%({duocthu.client}e)s "%(r)s" %(s)s %(b)s %(M)sms "%(a)s"'
_line = {
    "format": "%(asctime)s %(levelname)s %(name)s %(message)s",
    "datefmt": "%Y-%m-%dT%H:%M:%S%z",
}
logconfig_dict = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"line": _line},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "line"},
    },
    "loggers": {
        "gunicorn.error": {"handlers": ["console"], "level": "INFO", "propagate": False},
        "gunicorn.access": {"handlers": ["console"], "level": "INFO", "propagate": False},
    },
}

# prometheus_client's multiprocess mode: each worker writes its counts under this folder and
# /metrics sums them, so counts survive recycled workers and graceful reloads (HUP); a full
# restart starts them at zero again, which Prometheus' rate() and increase() expect.
# DUOCTHU_METRICS_DIR, not PROMETHEUS_MULTIPROC_DIR in the environment file: set there, every
# manage.py command would write (and fail) in multiprocess mode too.
metrics_dir = Path(os.environ.get("DUOCTHU_METRICS_DIR") or VAR_DIR / "prometheus")
os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(metrics_dir)
# With WEB_PRELOAD the master imports the app (and creates its metrics' files) before
# on_starting: on a fresh machine the folder must exist by then.
metrics_dir.mkdir(parents=True, exist_ok=True)


def on_starting(server: Any) -> None:
    shutil.rmtree(metrics_dir, ignore_errors=True)
    metrics_dir.mkdir(parents=True, exist_ok=True)


def child_exit(server: Any, worker: Any) -> None:
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


def when_ready(server: Any) -> None:
    if not preload_app:
        return
    import gc

    from django.db import connections

    from duocthu.health import warm_worker

    warm_worker()
    connections.close_all()  # each worker opens its own; a socket shared by forks is garbled
    gc.freeze()  # what the master built stays out of the collector: its pages stay shared


def post_worker_init(worker: Any) -> None:
    from duocthu.health import warm_worker

    worker.notify()  # the warm-up counts against WEB_TIMEOUT from here, not from the fork
    warm_worker()
