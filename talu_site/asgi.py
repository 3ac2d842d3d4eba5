"""ASGI entry point (daphne): HTTP through Django, websockets through Channels.

Websockets are only accepted from an Origin in ``ALLOWED_HOSTS`` and carry the session's user
(``talu_site.wsauth``), so a game's consumer knows whether it talks to a player or a spectator.
"""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "talu_site.settings")
django_asgi_app = get_asgi_application()  # set up Django before importing consumers

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from play.routing import websocket_urlpatterns  # noqa: E402
from talu_site.wsauth import LazyAuthMiddlewareStack  # noqa: E402
from talu_site.wsclose import lengthen_close_handshake  # noqa: E402

lengthen_close_handshake()  # before daphne builds its websocket factory

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            LazyAuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)

# Everything imported so far lives as long as the process: keep the collector from walking it
# again in every full collection. With a few hundred sockets open, a full collection stopped
# a loaded process for 75-100 ms, half of that once the start-up objects were frozen
# (BENCHMARKS.md, issue 7).
gc.collect()
gc.freeze()
# And collections rarer. The young generation's first: a loaded process ran one every 700
# allocations, about a hundred a second, each walking the objects of the steps in flight
# (0.6 ms) and every tenth the middle generation (4 ms): 1.3 s in 110 s of the load benchmark,
# and one full collection of 90-110 ms, every socket of the process waiting. At 5,000: 0.2-0.3 s
# in the same 110 s and no full collection; 20,000 made the middle generation's pauses 60-100
# ms (measured with gc.callbacks, BENCHMARKS.md, issue 7). The full collection: one in a
# hundred middle rounds, not ten; each walks every object of the live games and sockets
# (50-140 ms for 100 games and 400 sockets).
gc.set_threshold(5000, 10, 100)
