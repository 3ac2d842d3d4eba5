"""Issue 40: the events API and pages only ask for a round; the worker pairs it. Tests that
pair through them run the worker's pairing job as a worker does (or wait for the worker running
in the test to do it)."""

from __future__ import annotations

import time

from registry.events import pairer
from registry.events.models import PairingRequest


def run_pairing(event, timeout: float = 30.0) -> None:
    """The worker's pairing job, until ``event`` has no round waiting to be paired (paired,
    or refused with its words on the request)."""
    deadline = time.monotonic() + timeout
    while True:
        pairer.run_due()
        req = PairingRequest.objects.filter(event=event).first()
        if req is None or req.state == PairingRequest.FAILED:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"round {req.number} of event {event.pk}: still {req.state}")
        time.sleep(0.05)
