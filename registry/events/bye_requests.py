"""Byes a player asks for on the event page, for a future round of a Swiss (issue 38), as on
lichess and in Swiss-Manager: a half-point bye (``H``) or a zero-point bye (``Z``).

The limit (``Event.max_byes``, set with the event's other settings and fixed at round 1,
R41) counts half-point byes only: FIDE's C.04.1 lets a tournament's regulations grant a
limited number of half-point byes on request, and a half point is what the limit protects (a
player who takes every bye scores without playing). A zero-point bye is an absence announced
early: C.04.1 makes an absence known before pairing a zero-point bye, and refusing one would
only leave an opponent waiting for an unplayed game, so it is free. An event with
``max_byes`` 0 takes no requests at all (its players tell the arbiter, who gives absences
when pairing). The half-point byes counted are those the player already had (given on request
or by the arbiter when pairing) and those asked for rounds still to pair.

When the worker pairs a round, its requests become the round's ``absent`` byes
(``absent_for``, called by ``rounds.pair_next``); an arbiter's own absences for the round
win over a request. Round robins have none (R42), nor Hettlandic rounds (R44).
"""

from __future__ import annotations

from django.db import IntegrityError, transaction

from registry.events.access import EventError
from registry.events.models import ByeRequest, Entry, Event, Pairing, PairingRequest

KIND_WORDS = {"H": "half-point bye", "Z": "zero-point bye"}


def _entry(user, event: Event) -> Entry:
    if not (user and user.is_authenticated):
        raise EventError("log in to ask for a bye", "forbidden")
    entry = event.entries.filter(player__user=user).first()
    if entry is None:
        raise EventError("only a player of this event asks for a bye in it", "forbidden")
    return entry


def _open(event: Event) -> None:
    if event.status == Event.CLOSED:
        raise EventError("the event is closed", "conflict")
    if event.system in ("round_robin", "double_round_robin"):
        raise EventError("a round robin has no byes on request: its games are decided by the "
                         "arbiter (R42)", "conflict")
    if event.system != "swiss":
        raise EventError("a Hettlandic round has no byes on request: its bye is R44's, and "
                         "an absent player's game is decided by the arbiter (R41)", "conflict")
    if not event.max_byes:
        raise EventError("this event takes no bye requests: tell its arbiter if you will "
                         "miss a round", "conflict")


def _future(event: Event, number) -> int:
    """A round not yet paired nor being paired, within the event's rounds."""
    if not isinstance(number, int) or isinstance(number, bool):
        raise EventError(f"round {str(number)[:10]!r} is not a round number")
    paired = event.event_rounds.count()
    if number <= paired:
        raise EventError(f"round {number} is already paired: ask the arbiter", "conflict")
    if number > event.rounds:
        raise EventError(f"the event has {event.rounds} rounds")
    if PairingRequest.objects.filter(event=event, number=number).exclude(
            state=PairingRequest.FAILED).exists():
        raise EventError(f"round {number} is being paired: ask the arbiter", "conflict")
    return number


def half_byes(event: Event, entry: Entry) -> int:
    """The half-point byes counted against the limit: had, and asked for rounds to pair."""
    paired = event.event_rounds.count()
    had = Pairing.objects.filter(round__event=event, white=entry, black__isnull=True,
                                 bye="H").count()
    return had + ByeRequest.objects.filter(entry=entry, kind="H", number__gt=paired).count()


def request_bye(user, event: Event, number, kind) -> ByeRequest:
    """The player asks for a bye in round ``number`` (H or Z); refused in words."""
    if kind not in KIND_WORDS:
        raise EventError(f"a bye asked for is H (half a point) or Z (no point), not "
                         f"{str(kind)[:4]!r}")
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        entry = _entry(user, event)
        _open(event)
        if entry.withdrawn_after is not None:
            raise EventError("you have withdrawn from this event", "conflict")
        number = _future(event, number)
        if ByeRequest.objects.filter(entry=entry, number=number).exists():
            raise EventError(f"you have already asked for a bye in round {number}: cancel it "
                             "to ask for another", "conflict")
        if kind == "H" and half_byes(event, entry) >= event.max_byes:
            raise EventError(f"this event allows {event.max_byes} half-point "
                             f"bye{'s' if event.max_byes != 1 else ''} a player, and you have "
                             "had or asked for them all; a zero-point bye (you miss the round, "
                             "no point) is not counted", "conflict")
        try:
            with transaction.atomic():
                return ByeRequest.objects.create(event=event, entry=entry, number=number,
                                                 kind=kind)
        except IntegrityError:  # the same request twice at once: one stands
            raise EventError(f"you have already asked for a bye in round {number}",
                             "conflict") from None


def cancel(user, event: Event, number) -> None:
    """The player takes back their request for a round not yet paired."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        entry = _entry(user, event)
        found = ByeRequest.objects.filter(entry=entry, number=number).first() \
            if isinstance(number, int) and not isinstance(number, bool) else None
        if found is None:
            raise EventError(f"you have no bye asked for round {str(number)[:10]}")
        if event.status == Event.CLOSED:
            raise EventError("the event is closed", "conflict")
        _future(event, found.number)
        found.delete()


def of_entry(event: Event, entry: Entry) -> list[dict]:
    """A player's requests, for their page: the round, the kind, and whether it is still
    to be paired."""
    paired = event.event_rounds.count()
    return [{"number": r.number, "kind": r.kind, "words": KIND_WORDS[r.kind],
             "waiting": r.number > paired}
            for r in ByeRequest.objects.filter(entry=entry).order_by("number")]


def waiting(event: Event) -> list[ByeRequest]:
    """The requests for rounds still to pair (the arbiter's view)."""
    return list(ByeRequest.objects.filter(event=event, number__gt=event.event_rounds.count())
                .select_related("entry").order_by("number", "entry__name"))


def absent_for(event: Event, given: dict[str, str] | None) -> dict[str, str]:
    """The next round's ``absent`` byes: its requests by players still in the event, then
    the arbiter's own (``given``), which win. A Swiss's only."""
    out = dict(given or {})
    if event.system != "swiss":
        return out
    number = event.event_rounds.count() + 1
    asked = ByeRequest.objects.filter(event=event, number=number,
                                      entry__withdrawn_after__isnull=True,
                                      entry__joined_round__lte=number)
    return {**dict(asked.values_list("entry__key", "kind")), **out}
