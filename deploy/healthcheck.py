"""The container's health check.

Web containers: exit 0 when this container's /healthz answers 200 (with a Host the site
accepts, the first of ALLOWED_HOSTS, since Django refuses other hosts).

Worker containers (``--worker``): exit 0 when the worker has finished a round lately: it
touches ``TALU_WORKER_ALIVE_FILE`` after every round (play/worker/loop.py), at least every
``TALU_WORKER_POLL`` seconds, so a file older than a minute means a stuck or dead loop.
"""

import os
import sys
import time
import urllib.request

if "--worker" in sys.argv[1:]:
    path = os.environ.get("TALU_WORKER_ALIVE_FILE", "/tmp/talu-worker.alive")
    try:
        age = time.time() - os.path.getmtime(path)
    except OSError as err:
        print(f"unhealthy: no worker round yet ({err})", file=sys.stderr)
        sys.exit(1)
    if age > 60:
        print(f"unhealthy: the worker's last round was {age:.0f} s ago", file=sys.stderr)
        sys.exit(1)
    sys.exit(0)

host = (os.environ.get("ALLOWED_HOSTS") or "localhost").split(",")[0].strip().lstrip(".")
if not host or host == "*":
    host = "localhost"
request = urllib.request.Request(f"http://127.0.0.1:{os.environ.get('PORT', '8000')}/healthz",
                                 headers={"Host": host})
try:
    with urllib.request.urlopen(request, timeout=4) as response:
        sys.exit(0 if response.status == 200 else 1)
except Exception as err:
    print(f"unhealthy: {err}", file=sys.stderr)
    sys.exit(1)
