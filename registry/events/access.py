"""Who may manage an event and the words a refusal is given in (R39, R41): shared by the
events services (``registry.events.services``) and the Hettlandic system
(``registry.events.hettlandic``), which the services hand their rounds to."""

from __future__ import annotations

from registry.events.models import Event, Round


class EventError(ValueError):
    """An action refused; ``code`` for the API (``forbidden``, ``conflict`` or ``invalid``)."""

    def __init__(self, message: str, code: str = "invalid") -> None:
        super().__init__(message)
        self.code = code


def is_arbiter(user, event: Event) -> bool:
    return bool(user and user.is_authenticated and event.arbiters.filter(pk=user.pk).exists())


def manage(user, event: Event) -> None:
    if not is_arbiter(user, event):
        raise EventError("only an arbiter of this event may do that (R39)", "forbidden")
    if event.status == Event.CLOSED:
        raise EventError("the event is closed: its results are final (R41)", "conflict")


def round_complete(rnd: Round) -> bool:
    return not rnd.pairings.filter(black__isnull=False, result="").exists()


def check_conditions(event: Event, player, whose: str) -> None:
    """R41: the event's entry conditions (minimum rating, stratum) at registration."""
    if event.min_rating is not None and player.rating < event.min_rating:
        raise EventError(f"this event needs a rating of at least {event.min_rating}; "
                         f"{whose} {player.rating}", "conflict")
    if event.min_stratum is not None and player.stratum < event.min_stratum:
        raise EventError(f"this event needs stratum S{event.min_stratum} or higher",
                         "conflict")
