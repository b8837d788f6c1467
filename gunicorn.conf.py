"""gunicorn settings for `bin/serve` (production): every value can be set from the environment.

Measured on the 2-core machine (bench/load.py): see the README's Measured section.
"""

import multiprocessing
import os

bind = os.environ.get("BIND", "127.0.0.1:8000")  # behind the hospital's TLS proxy
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() + 1))
worker_class = "gthread"
threads = int(os.environ.get("WEB_THREADS", 4))
timeout = int(os.environ.get("WEB_TIMEOUT", 60))  # a model turn is bounded well below this
graceful_timeout = 20
keepalive = 5
max_requests = 5000  # workers are recycled: no slow leak lives for weeks
max_requests_jitter = 500
accesslog = os.environ.get("ACCESS_LOG", "-") or None  # "" turns it off
errorlog = "-"
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
