"""An event's rounds (R41-R44): pairing the next round and starting it, each in one
transaction; a refused action raises ``EventError`` in words and changes nothing.

The pages and the API ask the worker to pair (``request_pairing``, issue 40); its job
(``registry.events.pairer``) pairs through ``pair_next``, the code every pairing goes through.
A round starts by the arbiter's button (``start_round``) or at its scheduled time
(``registry.events.schedule``), both through ``start_once``, whose claim is a conditional
update.
Online rounds create their games through ``play.lifecycle.start_table`` with the event's
settings (``game_settings``).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace

from django.db import transaction
from django.utils import timezone

from play.games.registry import variant_of
from registry.events import bye_requests, hettlandic, state
from registry.events.access import EventError, round_complete
from registry.events.access import manage as _manage
from registry.events.models import Entry, Event, Pairing, PairingRequest, Round
from registry.events.pairing import berger, swiss
from registry.events.pairing.model import ROUND_ROBIN, SWISS, PairingError
from registry.events.revision import touch
from registry.services import keeps_book_records

log = logging.getLogger(__name__)


def _last_round(event: Event) -> Round | None:
    return event.event_rounds.order_by("-number").first()


class PairingLost(Exception):
    """The worker's claim on a pairing request was taken over (its lease ran out): another
    worker pairs the round, this one writes nothing."""


def _check_pairable(event: Event, last: Round | None, force: bool,
                    absent: dict[str, str] | None) -> None:
    """What the arbiter can be told at once, before any pairing is computed (and what is
    checked again when the round is written)."""
    if event.status == Event.CLOSED:
        raise EventError("the event is closed: its results are final (R41)", "conflict")
    if not isinstance(absent or {}, dict):
        raise EventError("absent maps player keys to H or Z")
    if last is not None and not force and not round_complete(last):
        raise EventError(f"round {last.number} is not complete: enter its results first, "
                         "or force the pairing", "conflict")
    if last is None and event.entries.count() < 2:
        raise EventError("an event needs at least two players to pair", "conflict")
    if absent and event.system in (ROUND_ROBIN, "double_round_robin"):
        raise EventError("a round robin has no byes on request: its games are decided by the "
                         "arbiter (R42)")
    keys = set(event.entries.values_list("key", flat=True)) if absent else set()
    for key, kind in (absent or {}).items():
        if key not in keys:
            raise EventError(f"{str(key)[:40]} is not a player of this event")
        if kind not in ("H", "Z"):
            raise EventError(f"a bye asked before pairing is H or Z, not {str(kind)[:4]!r}")
    number = 1 if last is None else last.number + 1
    hettlandic.refuse_early(event, number, absent)
    entrants = event.entries.count()
    if event.system != "hettlandic" and not hettlandic.pairs(event, entrants):
        total = state.total_rounds(event, entrants)
        if total and number > total:
            raise EventError(f"the event has {total} rounds, all paired", "conflict")


def pair_round(user, event: Event, force: bool = False,
               absent: dict[str, str] | None = None,
               progress: Callable[[int, int], None] | None = None) -> Round:
    """Pair the next round now. The pages and the API never call this: they ask the worker
    (``request_pairing``, issue 40), whose job (``registry.events.pairer``) calls
    ``pair_next``; scripts, benchmarks and tests may pair at once. The previous round must
    be complete unless the arbiter forces it (unfinished games then count as unplayed for the
    pairing). ``absent``: entry keys the arbiter knows will miss the round, with their bye (H
    or Z, C.04.1)."""
    _manage(user, event)
    return pair_next(event, force, absent, progress)


# A Swiss is paired outside any transaction (seconds for a large field) and written only if
# the event has not changed meanwhile; a change (a result corrected, a late entry) pairs it
# again, this many times at most.
_ATTEMPTS = 3


@dataclass
class _Paired:
    """A Swiss round computed from the event at ``revision``; round 1 with the ratings at the
    close of entries and the drawn colour it was paired with, to be written with it."""

    revision: int
    first: bool
    closing: dict[int, int]
    colour: str
    core_round: object


def pair_next(event: Event, force: bool = False, absent: dict[str, str] | None = None,
              progress: Callable[[int, int], None] | None = None,
              claim: Callable[[], bool] | None = None) -> Round:
    """The next round paired and written (no check of who asks: the callers have done it).
    ``claim()``, asked in the writing transaction, says whether the caller may still write
    (the worker's claim on the request); False raises ``PairingLost``."""
    for _ in range(_ATTEMPTS):
        # the players' bye requests for the round (issue 38), the arbiter's absences winning
        wanted = bye_requests.absent_for(event, absent)
        paired = _pair_swiss(event, force, wanted, progress) if _is_swiss(event) else None
        with transaction.atomic():
            locked = Event.objects.select_for_update().get(pk=event.pk)
            changed = paired is not None and (locked.revision != paired.revision or (
                paired.first and _closing(locked) != paired.closing)
                or bye_requests.absent_for(locked, absent) != wanted)
            if not changed:
                if claim is not None and not claim():
                    raise PairingLost
                return _write_round(locked, force, wanted, paired)
        # the event changed while it was paired (a result, an entry, a rating): again
    raise EventError("the event kept changing while its round was paired: pair it again",
                     "conflict")


def _is_swiss(event: Event) -> bool:
    return event.system == SWISS and not hettlandic.pairs(event, event.entries.count())


def _closing(event: Event) -> dict[int, int]:
    """Round 1: the entries whose rating at the close of entries (R42/R43) is their player's
    rating now, not the one they entered with."""
    return {e.pk: e.player.rating for e in event.entries.select_related("player")
            if e.player is not None and e.rating != e.player.rating}


def _pair_swiss(event: Event, force: bool, absent: dict[str, str] | None,
                progress: Callable[[int, int], None] | None) -> _Paired:
    """Read the event and pair its next Swiss round, in no transaction."""
    event = Event.objects.get(pk=event.pk)
    last = _last_round(event)
    _check_pairable(event, last, force, absent)
    closing: dict[int, int] = {}
    colour = event.initial_colour
    t = state.tournament(event)
    if last is None:
        closing = _closing(event)
        keys = dict(event.entries.values_list("pk", "key"))
        ratings = {keys[pk]: rating for pk, rating in closing.items()}
        colour = secrets.choice(["white", "black"])
        t.entrants = [replace(e, rating=int(ratings.get(e.key, e.rating))) for e in t.entrants]
        t.initial_colour = colour
    try:
        core_round = swiss.pair_round(t, absent or {}, progress)
    except PairingError as exc:
        raise EventError(str(exc), "conflict") from None
    return _Paired(event.revision, last is None, closing, colour, core_round)


def _write_round(event: Event, force: bool, absent: dict[str, str] | None,
                 paired: _Paired | None) -> Round:
    """In the caller's transaction, ``event`` locked: the round's rows (a Swiss's as
    ``paired``; any other system paired here, its cores being fast)."""
    last = _last_round(event)
    _check_pairable(event, last, force, absent)
    if last is None:
        if paired is not None:
            for pk, rating in paired.closing.items():
                Entry.objects.filter(pk=pk).update(rating=rating)
            event.initial_colour = paired.colour
        else:
            _close_entries(event)
    if paired is not None:
        core_round = paired.core_round
    else:
        t = state.tournament(event)
        try:
            if hettlandic.pairs(event, len(t.entrants)):  # R44 phase 1; R46 match of two
                core_round = hettlandic.pair_round(event, t, absent)
            elif event.system == SWISS:
                core_round = swiss.pair_round(t, absent or {})
            else:
                core_round = berger.pair_round(t)
        except PairingError as exc:
            raise EventError(str(exc), "conflict") from None
    rnd = Round.objects.create(event=event, number=core_round.number,
                               forced=bool(last and not round_complete(last)))
    entries = {e.key: e for e in event.entries.all()}
    Pairing.objects.bulk_create(
        [Pairing(round=rnd, board=g.board, white=entries[g.white],
                 black=entries[g.black], result=g.result or "",
                 decided_by="system" if g.result else "",
                 note="withdrawn player" if g.result else "")
         for g in core_round.games]
        + [Pairing(round=rnd, white=entries[b.player], bye=b.kind, decided_by="system")
           for b in core_round.byes])
    if event.status == Event.ANNOUNCED:
        event.status = Event.RUNNING
        event.save(update_fields=["status", "initial_colour"])
    touch(event.pk)
    return rnd


def request_pairing(user, event: Event, force: bool = False,
                    absent: dict[str, str] | None = None) -> PairingRequest:
    """The arbiter's "Pair" (page and API): the next round is paired by the worker (issue
    40), never while a request waits. What can be refused at once is refused here; an asked
    round is asked once, however many arbiters press (one request an event: a second press
    while it waits or runs is the same request; after a failure, a new attempt)."""
    _manage(user, event)
    absent = absent or {}
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        pending = PairingRequest.objects.filter(event=event).first()
        if pending is not None and pending.state != PairingRequest.FAILED:
            return pending
        last = _last_round(event)
        _check_pairable(event, last, force, absent)
        number = 1 if last is None else last.number + 1
        fields = {"number": number, "force": force, "absent": absent, "requested_by": user,
                  "state": PairingRequest.QUEUED, "claimed_by": "", "lease_until": None,
                  "done": 0, "total": 0, "error": ""}
        if pending is None:
            pending = PairingRequest.objects.create(event=event, **fields)
        else:
            PairingRequest.objects.filter(pk=pending.pk).update(**fields)
            pending.refresh_from_db()
        touch(event.pk)
    transaction.on_commit(_wake_worker)
    return pending


def _wake_worker() -> None:
    """The workers, at once (they would find the request at their next poll anyway)."""
    from asgiref.sync import async_to_sync

    from play.live.delivery import wake_worker

    try:
        async_to_sync(wake_worker)()
    except Exception as exc:  # the channel layer away: the worker's poll finds it
        log.warning("the workers were not woken for a pairing (%s)", exc)


def _close_entries(event: Event) -> None:
    """Round 1: ratings at the close of entries fix the pairing numbers (R42/R43), and the
    side of pairing number 1 is drawn and recorded (R43)."""
    for entry in event.entries.select_related("player"):
        if entry.player is not None and entry.rating != entry.player.rating:
            entry.rating = entry.player.rating
            entry.save(update_fields=["rating"])
    event.initial_colour = secrets.choice(["white", "black"])


def start_round(user, event: Event, number: int | None = None) -> Round:
    """Start a paired round: online, each game is created with the event's settings and its
    players see it in "my pairings" at once; over the board, the clocks start at the venue.
    The worker starts a round at its scheduled time through the same ``start_once`` (R41)."""
    _manage(user, event)
    with transaction.atomic():
        rnd = _last_round(event) if number is None else event.event_rounds.filter(
            number=number).first()
        if rnd is None:
            raise EventError("no such round: pair it first", "conflict")
        if not start_once(event, rnd):
            raise EventError(f"round {rnd.number} has already started", "conflict")
    return rnd


def start_once(event: Event, rnd: Round) -> bool:
    """Start ``rnd`` in the caller's transaction, if nobody has: the claim is a conditional
    update (paired -> started), so the arbiter's button and two workers racing start it once
    (PostgreSQL re-checks the condition on the row it waited for). Whether this call started
    it. After the commit both players of each game are told on the lobby's socket (R41) and the
    worker is woken to mail them (``registry.events.notify``)."""
    from play.lifecycle import StartError, start_table

    now = timezone.now()
    if not Round.objects.filter(pk=rnd.pk, state=Round.PAIRED).update(
            state=Round.STARTED, started=now):
        return False
    rnd.state, rnd.started = Round.STARTED, now
    started = []
    if event.venue == "online":
        boards = rnd.pairings.filter(black__isnull=False, result="", game__isnull=True)
        for p in boards.select_related("white__player__user", "black__player__user"):
            guest = next((e for e in (p.white, p.black) if e.player is None), None)
            if guest is not None:  # entered while the event was over the board
                raise EventError(f"{guest.name} has no account, so board {p.board} cannot "
                                 "be played online: enter its result first", "conflict")
            try:
                game = start_table(players=[p.white.player.user, p.black.player.user],
                                   **game_settings(event))
            except StartError as err:  # an event announced before controls were checked
                raise EventError(f"the round cannot start: {err}", "conflict") from None
            _event_model(game, event)
            p.game = game
            p.save(update_fields=["game"])
            started.append((game.uuid, game.player_i_id, game.player_o_id))
    touch(event.pk)
    if started:
        from registry.events.notify import announce_started

        transaction.on_commit(lambda: announce_started(started, event.name, rnd.number))
    return True


def game_settings(event: Event) -> dict:
    """What the event fixes of every game it starts (R41), as ``start_table``'s arguments:
    its game and variant (white the first seat, black the second), rated or not, and its
    automatic arbiter policy (R39): ``warn``, a flagged game's players are warned
    automatically, as in casual games; ``off``, nothing is automatic (the R14 flag shows on
    the arbiter's console and only the arbiter acts)."""
    return {"variant_key": variant_of(event.variant).key, "rated": event.rated,
            "auto_warn": event.auto_arbiter == "warn",
            # R36: its clocks; R41: a missed opening turn is an unplayed loss, not an abort
            "time_control": event.time_control, "in_event": True}


def _event_model(game, event: Event) -> None:
    """R41/R25: a rated event game is rated by the event's model for both players; a
    Hettlandic phase-1 game belongs to its rating phase (R45)."""
    from registry.models import RegistryGame

    if not keeps_book_records(game):  # another game's ratings are its own (game_ratings)
        return
    RegistryGame.objects.filter(live=game).update(scoring_model=event.scoring_model,
                                                  **hettlandic.registry_fields(event))
