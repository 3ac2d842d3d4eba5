"""The container's health check: exit 0 when this container's /healthz answers 200.

Sends a Host the site accepts (the first of ALLOWED_HOSTS), since Django refuses other hosts.
"""

import os
import sys
import urllib.request

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
