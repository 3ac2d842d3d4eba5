"""The service layer of live play: every change to a game goes through here.

Views and the websocket consumer stay thin; they call these functions (synchronously, from
``database_sync_to_async`` in the consumer) and tests can call them directly.

The server is authoritative. ``submit`` validates a player's step with the rules core and stores
it as the next numbered ``GameEvent`` inside one transaction that holds the game row lock
(``select_for_update``); a conditional version bump and the unique (game, version) constraint
also serialise writers where row locks do not exist (SQLite). Only after the commit is anything
broadcast. A step names the version it was made against: a stale one is answered, not applied;
a step whose client ``seq`` was already stored is acknowledged again, never applied twice.
"""

from __future__ import annotations

import logging
import random
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import DatabaseError, IntegrityError, transaction
from django.db.models import Count, Q
from django.urls import reverse
from django.utils import timezone

from play import conf, presence_sql, steplog
from play.models import Challenge, Game, GameEvent, NewEvent, Watcher
from play.rules import Game as Engine
from play.rules import GameOverError, IllegalStepError, Side, Step, StepFormatError, TaluError

log = logging.getLogger(__name__)

VARIANT_NAMES = ("standard", "grand-master", "dynamic")
MAX_SEQ_LENGTH = 64


class ServiceError(Exception):
    """A request the service refuses, with a message a user can read."""


# --- engines: the replay of the event log, cached per process ---------------------------------

_CACHE_SIZE = 256
_cache: OrderedDict[int, tuple[int, Engine]] = OrderedDict()
# The unchanging columns of the live games whose engines are cached, by uuid: what the
# one-statement write path (``take_held``) needs besides the engine.
_rows: OrderedDict[str, Game] = OrderedDict()
_cache_lock = threading.Lock()


def _take_cached(game: Game) -> Engine | None:
    """The cached engine of ``game`` brought to ``game.version``, or None (then: replay).

    Taken out of the cache while in use, so no two threads ever play on one engine. An engine
    a few versions behind (another process applied the opponent's steps) is brought forward
    with only the events it lacks: with two processes a game's players often sit on
    different ones, and a full replay per step was most of a step's cost (BENCHMARKS.md).
    """
    with _cache_lock:
        hit = _cache.pop(game.pk, None)
    if hit is None or hit[0] > game.version:
        return None
    version, engine = hit
    if version < game.version:
        missing = game.events.filter(version__gt=version, version__lte=game.version)
        try:
            for kind, data in missing.order_by("version").values_list("kind", "data"):
                apply_event(engine, kind, data)
        except TaluError:  # pragma: no cover - the log only holds applied events
            log.exception("the log of game %s does not replay onto its cached engine", game.pk)
            return None
    return engine


def _put_cached(game: Game, engine: Engine, version: int | None = None) -> None:
    """Keep ``engine`` as the game's at ``version`` (by default the row's)."""
    with _cache_lock:
        _cache[game.pk] = (game.version if version is None else version, engine)
        _cache.move_to_end(game.pk)
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
        key = str(game.uuid)
        if game.is_live and key not in _rows:
            _rows[key] = Game(pk=game.pk, uuid=game.uuid, variant=game.variant,
                              rated=game.rated, player_i_id=game.player_i_id,
                              player_o_id=game.player_o_id, rating_i=game.rating_i,
                              rating_o=game.rating_o, status=Game.LIVE)
            while len(_rows) > _CACHE_SIZE:
                _rows.popitem(last=False)


def forget_engines() -> None:
    """Drop every cached engine (tests, and a process that wants to prove replay works)."""
    with _cache_lock:
        _cache.clear()
        _rows.clear()
        _players_cache.clear()


def apply_event(engine: Engine, kind: str, data: dict[str, Any]) -> None:
    if kind == GameEvent.STEP:
        engine.play(Step.from_dict(data))
    elif kind == GameEvent.DECIDE:
        engine.decide(data.get("winner"), data.get("detail") or "decision")
    elif kind == GameEvent.WARN:
        engine.warn(data["side"], data.get("reason") or "non-engagement")
    else:  # pragma: no cover - only this module writes events
        raise TaluError(f"unknown event kind {kind!r}")


def replay(game: Game, upto: int | None = None) -> Engine:
    """A rules-core game rebuilt from the event log (the turn in progress included)."""
    engine = Engine(game.variant)
    if upto == 0:  # a game nobody has moved in: no log to read (each socket opened on a new
        return engine  # game asked for it, and a game's end opens four, issue 7)
    events = game.events.order_by("version")
    if upto is not None:
        events = events.filter(version__lte=upto)
    # Plain rows, not model instances: an instance from ``game.events`` deferring its
    # ``game_id`` reads it back with one query per event (Django's known-related-object
    # check), which made replaying a long game hundreds of queries (BENCHMARKS.md).
    for kind, data in events.values_list("kind", "data"):
        apply_event(engine, kind, data)
    return engine


def snapshot_for(game: Game) -> dict[str, Any]:
    """The state of ``game`` at the version read (``Engine.snapshot``), from the cached engine
    when there is one.

    The engine is read while it is out of the cache, so no step can be played on it meanwhile
    (the event loop's ``take_held`` or another pool thread): a state mixing two versions, or a
    turn's notation kept half-finished by ``stgn_lines``, could otherwise be read.
    """
    engine = _take_cached(game)
    if engine is None:
        # Bounded by the version read: a step committed since must not slip into an engine
        # cached (and sent) as this version.
        engine = replay(game, upto=game.version)
    try:
        return engine.snapshot()
    finally:
        _put_cached(game, engine)


# --- challenges and game creation -------------------------------------------------------------


def open_challenge(user, variant: str = "standard", rated: bool = True, opponent: str = "",
                   side: str = "random") -> Challenge:
    if variant not in VARIANT_NAMES:
        raise ServiceError(f"unknown variant {variant!r}")
    if side not in ("random", "I", "O"):
        raise ServiceError("side must be random, I or O")
    opp = None
    if opponent:
        opp = get_user_model().objects.filter(username__iexact=opponent.strip()).first()
        if opp is None:
            raise ServiceError(f"there is no player called {opponent!r}")
        if opp.pk == user.pk:
            raise ServiceError("you cannot challenge yourself")
    return Challenge.objects.create(creator=user, opponent=opp, variant=variant, rated=rated,
                                    side=side)


def cancel_challenge(user, challenge_id: int) -> None:
    n = Challenge.objects.filter(pk=challenge_id, creator=user, status=Challenge.OPEN).update(
        status=Challenge.CANCELLED)
    if not n:
        raise ServiceError("that challenge is no longer open")


def open_challenges_for(user):
    """Challenges ``user`` may accept: open ones by others, and those naming them."""
    qs = Challenge.objects.filter(status=Challenge.OPEN).select_related("creator", "opponent")
    if user.is_authenticated:
        return qs.exclude(creator=user).filter(Q(opponent__isnull=True) | Q(opponent=user))
    return qs.filter(opponent__isnull=True)


def accept_challenge(user, challenge_id: int, rng: random.Random | None = None) -> Game:
    """Accept a challenge: sides by coin toss unless the challenger chose; the game starts."""
    with transaction.atomic():
        ch = Challenge.objects.select_for_update().filter(pk=challenge_id).first()
        if ch is None or ch.status != Challenge.OPEN:
            raise ServiceError("that challenge is no longer open")
        if ch.creator_id == user.pk:
            raise ServiceError("you cannot accept your own challenge")
        if ch.opponent_id is not None and ch.opponent_id != user.pk:
            raise ServiceError("that challenge is for another player")
        side = ch.side
        if side == "random":
            side = (rng or random.SystemRandom()).choice(["I", "O"])
        light, dark = (ch.creator, user) if side == "I" else (user, ch.creator)
        game = start_game(light, dark, variant=ch.variant, rated=ch.rated)
        ch.status = Challenge.ACCEPTED
        ch.game = game
        ch.save(update_fields=["status", "game"])
    return game


def start_game(player_i, player_o, variant: str = "standard", rated: bool = True) -> Game:
    """Create a live game at version 0 and write its signed game entry (STGE)."""
    from registry import services as registry

    if variant not in VARIANT_NAMES:
        raise ServiceError(f"unknown variant {variant!r}")
    with transaction.atomic():
        pi, po = registry.player_of(player_i), registry.player_of(player_o)
        game = Game.objects.create(player_i=player_i, player_o=player_o, variant=variant,
                                   rated=rated, rating_i=pi.rating, rating_o=po.rating)
        registry.write_game_entry(game)
    return game


# --- submissions ------------------------------------------------------------------------------


@dataclass
class Result:
    """What became of one message of a player (or of an arbiter)."""

    ok: bool
    code: str  # applied | duplicate | stale | illegal | not_your_turn | spectator | finished
    #            | bad_step | busy
    reason: str = ""
    version: int = 0
    seq: str | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    from_version: int = 0
    state: dict[str, Any] | None = None
    game: dict[str, Any] | None = None

    def reply(self) -> dict[str, Any]:
        """The message for the sender: an ack or a rejection."""
        if self.ok:
            msg = {"type": "ack", "seq": self.seq, "version": self.version}
            if self.code == "duplicate":
                msg["duplicate"] = True
            return msg
        return {"type": "rejected", "seq": self.seq, "code": self.code, "reason": self.reason,
                "version": self.version}

    def update(self) -> dict[str, Any] | None:
        """The broadcast for everyone on the game, when something was applied."""
        if not self.events:
            return None
        return {"type": "update", "from_version": self.from_version, "version": self.version,
                "events": self.events, "state": self.state, "game": self.game}


def _reject(code: str, reason: str, version: int, seq: str | None) -> Result:
    return Result(ok=False, code=code, reason=reason, version=version, seq=seq)


def submit(game_uuid, user, action: str, *, step: Any = None, version: Any = None,
           seq: Any = None, held: Held | None = None) -> Result:
    """Apply one player message: ``action`` is step, end, pass or resign.

    Never raises for anything a client can send: every refusal is a ``Result`` with a code
    and a reason. Database contention is answered with ``busy`` (resend).

    ``held``: this very message, already played by ``take_held`` on this process's engine to
    the game's end (``Held.final``); only the locked path stores a last step, as it writes the
    records in the same transaction, and the engine spares it replaying the game.
    """
    if not _plain_seq(seq):
        return _reject("bad_step", f"seq must be a string or number of at most "
                       f"{MAX_SEQ_LENGTH} characters", 0, None)
    seq = None if seq is None else str(seq)
    try:
        if held is None:
            held = take_held(game_uuid, _cached_side(game_uuid, user), action, step, version,
                             seq)
            if held is not None and not held.final:
                if steplog.append(held.game.pk, held.from_version, held.events, held.stgn):
                    return stored(held)
                held = None  # moved on elsewhere: the engine is dropped, the locked path
                #              catches up from the log
        return _submit(game_uuid, user, action, step, version, seq, held)
    except IntegrityError:
        # Another writer took this version (or this seq) first: the client is behind.
        game = Game.objects.filter(uuid=game_uuid).first()
        forget_engines_for(game)
        dup = _find_duplicate(game, user, seq) if game else None
        if dup is not None:
            return dup
        return _reject("stale", "another step was applied first; resync and try again",
                       game.version if game else 0, seq)
    except DatabaseError:
        log.exception("database error while applying a step")
        game = Game.objects.filter(uuid=game_uuid).first()
        forget_engines_for(game)
        return _reject("busy", "the server is busy; send the step again",
                       game.version if game else 0, seq)


def _plain_seq(seq: Any) -> bool:
    return seq is None or (isinstance(seq, (str, int)) and not isinstance(seq, bool)
                           and len(str(seq)) <= MAX_SEQ_LENGTH)


def forget_engines_for(game: Game | None) -> None:
    if game is not None:
        with _cache_lock:
            _cache.pop(game.pk, None)


def _find_duplicate(game: Game, user, seq: str | None) -> Result | None:
    side = game.side_of(user)
    if seq is None or side is None:
        return None
    ev = GameEvent.objects.filter(game=game, side=side, seq=seq).first()
    if ev is None:
        return None
    return Result(ok=True, code="duplicate", version=ev.version, seq=seq)


def _submit(game_uuid, user, action: str, step_data: Any, version: Any, seq: str | None,
            held: Held | None = None) -> Result:
    """The write path, in one transaction holding the game's row lock: on the usual path five
    round trips to the database (BEGIN, the locked row, the events INSERT, one UPDATE, COMMIT).

    A resent message (same ``seq``) is found on the slow paths only: when the version it names
    is no longer current, or, if it names the current one, by the unique (game, side, seq)
    constraint, which ``submit`` turns into the original acknowledgement.
    """
    from registry import services as registry

    with transaction.atomic():
        game = Game.objects.select_for_update().filter(uuid=game_uuid).first()
        if game is None:
            return _reject("not_found", "there is no such game", 0, seq)
        side = game.side_of(user)
        if side is None:
            return _reject("spectator", "spectators cannot play steps", game.version, seq)
        if not game.is_live:
            return _find_duplicate(game, user, seq) or _reject(
                "finished", "the game is over", game.version, seq)
        if action != "resign":
            if isinstance(version, bool) or not isinstance(version, int):
                return _reject("bad_step", "a step must name the game version it was made "
                               "against ('version')", game.version, seq)
            if version != game.version:
                return _find_duplicate(game, user, seq) or _reject(
                    "stale", f"this step was made against version {version}; the game is at "
                    f"version {game.version}", game.version, seq)
        from_version = game.version
        if held is not None:
            # Played on this process's engine at this very version (the client named it and
            # it is the row's): the same events the rules core would give again.
            engine, new_events, turn_ended = held.engine, held.events, True
        else:
            engine = _take_cached(game) or replay(game)
            turns_before = len(engine.turns)
            try:
                new_events = _apply(game.version, engine, side, action, step_data, seq)
            except (IllegalStepError, StepFormatError, GameOverError, TaluError) as err:
                _put_cached(game, engine)  # the rules core changes nothing on a refused step
                code = "bad_step" if isinstance(err, StepFormatError) else "illegal"
                if isinstance(err, _NotYourTurn):
                    code = "not_your_turn"
                return _reject(code, str(err), game.version, seq)
            turn_ended = len(engine.turns) != turns_before
        try:
            GameEvent.objects.bulk_create([e.row_of(game) for e in new_events])
            game.version = new_events[-1].version
            changes: dict[str, Any] = {"version": game.version}
            if turn_ended or engine.outcome is not None:
                game.stgn = changes["stgn"] = engine.stgn()  # refreshed when a turn ends
            if engine.outcome is not None:
                o = engine.outcome
                game.status = changes["status"] = Game.FINISHED
                game.winner = changes["winner"] = o.winner.value if o.winner else "-"
                game.reason = changes["reason"] = o.reason.value
                game.detail = changes["detail"] = o.detail or ""
                game.finished = changes["finished"] = timezone.now()
            # The version check as well as the row lock: where locks are no-ops (SQLite) a
            # second writer fails here cleanly instead of forking the log.
            if Game.objects.filter(pk=game.pk, version=from_version).update(**changes) != 1:
                raise IntegrityError("game version moved under us")
            if engine.outcome is not None:
                registry.finish_game(game, engine)
            state = engine.snapshot()
            meta = game_meta(game)
        except Exception:
            forget_engines_for(game)  # the engine has played a step the log does not hold
            raise
    _put_cached(game, engine)
    return Result(ok=True, code="applied", version=game.version, seq=seq,
                  events=[e.as_message() for e in new_events], from_version=from_version,
                  state=state, game=meta)


@dataclass
class Held:
    """A step played on this process's engine of a game and not yet stored (``take_held``)."""

    game: Game  # the cached row, shared: its version is not this step's
    engine: Engine
    from_version: int
    events: list[NewEvent]
    stgn: str | None  # the notation, when the step ended a turn (and not the game)
    players: dict[str, dict[str, Any]]  # the cached players block: no query on an event loop
    final: bool = False  # the step ended the game: ``submit`` stores it, with the records


def take_held(game_uuid, side: str | None, action: str, step_data: Any, version: Any,
              seq: Any) -> Held | None:
    """Play the usual step of the player of ``side`` on the engine this process holds,
    touching no database; or None: take the locked path (``submit``).

    ``side`` is the sender's side in the game (None: not a player), which the websocket
    consumer knows from the moment its socket opened: asking the socket's user again for every
    step was a lazily read object's proxies, about a fortieth of a loaded server's time
    (BENCHMARKS.md, issue 7). The locked path asks the game row itself.

    Taken only when the engine is held at exactly the version the client names and the step
    is legal. Anything else (a refusal to word, a duplicate or stale message, a game this
    process has not seen) goes to the locked path, which answers it from the locked row; so
    both give the same answers, and this one only ever stores what the locked path would have
    stored. Storing is ``play.steplog``: one conditional statement that writes nothing if
    another process moved the game meanwhile. A step that ends the game comes back ``final``:
    the locked path stores it (``submit(held=...)``), on this engine rather than a replay.
    """
    if action not in ("step", "end", "pass") or not steplog.available():
        return None
    if isinstance(version, bool) or not isinstance(version, int) or not _plain_seq(seq):
        return None
    if side not in ("I", "O"):
        return None
    with _cache_lock:
        row = _rows.get(str(game_uuid))
        hit = _cache.get(row.pk) if row is not None else None
        players = _players_cache.get(row.pk) if hit is not None else None
        if hit is None or hit[0] != version or players is None:
            return None
        del _cache[row.pk]  # ours alone while we play on it
    engine = hit[1]
    turns_before = len(engine.turns)
    try:
        events = _apply(version, engine, side, action, step_data,
                        None if seq is None else str(seq))
    except TaluError:
        _put_cached(row, engine, version)  # unchanged by a refused step; the locked path
        return None                        # words it
    except Exception:  # not a refusal the rules core words: drop the engine, let the locked
        return None    # path (which replays from the log) answer it
    players = {s: dict(p) for s, p in players.items()}
    if engine.outcome is not None:  # the last step: the locked path writes it and the records
        return Held(row, engine, version, events, None, players, final=True)
    stgn = engine.stgn() if len(engine.turns) != turns_before else None
    return Held(row, engine, version, events, stgn, players)


def held_version(game_uuid) -> int | None:
    """The version of this process's engine of the game, or None when it holds none."""
    with _cache_lock:
        row = _rows.get(str(game_uuid))
        hit = _cache.get(row.pk) if row is not None else None
    return None if hit is None else hit[0]


def advance_held(game_uuid, from_version: int, events: list[dict[str, Any]]) -> None:
    """Bring this process's engine of the game forward with the events of a broadcast.

    Every broadcast is of events already stored, so an engine held at ``from_version`` that
    plays them is the engine of the new version: the next step on this process is then played
    on it (``take_held``) instead of taking the locked path to catch up from the log, which
    otherwise happened once per turn for a player whose opponent sits on another process.
    """
    with _cache_lock:
        row = _rows.get(str(game_uuid))
        hit = _cache.get(row.pk) if row is not None else None
        if hit is None or hit[0] != from_version or not events:
            return
        del _cache[row.pk]
    engine = hit[1]
    try:
        for ev in events:
            apply_event(engine, ev["kind"], ev["data"])
    except (TaluError, KeyError, TypeError):  # pragma: no cover - broadcasts are of the log
        log.exception("a broadcast of game %s does not play onto its held engine", game_uuid)
        return  # dropped: the locked path replays from the log
    if engine.outcome is not None:
        return  # a finished game is not played on; its record comes from the log
    _put_cached(row, engine, events[-1]["version"])


def stored(held: Held) -> Result:
    """The answer once ``held`` is stored; the engine goes back to the cache at its version.
    (A held step that was not stored is simply dropped, engine and all.)"""
    version = held.events[-1].version
    state = held.engine.snapshot()  # before the engine is shared again (``snapshot_for``)
    _put_cached(held.game, held.engine, version)
    return Result(ok=True, code="applied", version=version, seq=held.events[0].seq,
                  events=[e.as_message() for e in held.events], from_version=held.from_version,
                  state=state, game=game_meta(held.game, held.players, version=version))


def _cached_side(game_uuid, user) -> str | None:
    """``user``'s side in a live game this process holds, or None (then: the locked path)."""
    with _cache_lock:
        row = _rows.get(str(game_uuid))
    return row.side_of(user) if row is not None else None


class _NotYourTurn(IllegalStepError):
    pass


def _apply(version: int, engine: Engine, side: str, action: str, step_data: Any,
           seq: str | None) -> list[NewEvent]:
    """Apply the message to ``engine`` (at ``version``); the events (and the arbiter's) for
    the log, unsaved."""
    events: list[NewEvent] = []

    def add(kind: str, ev_side: str, data: dict, text: str, ev_seq: str | None) -> None:
        nonlocal version
        version += 1
        events.append(NewEvent(version, kind, ev_side, data, text, ev_seq))

    if action == "resign":
        winner = Side(side).other.value
        engine.decide(winner, f"{side} resigned")
        add(GameEvent.DECIDE, side, {"winner": winner, "detail": f"{side} resigned"},
            "resigns", seq)
        return events

    if engine.side_to_move is None:
        raise GameOverError("the game is over")
    if engine.side_to_move.value != side:
        raise _NotYourTurn(f"it is {engine.side_to_move.value}'s turn, not yours")
    if action == "step":
        step = Step.from_dict(step_data)
    elif action in ("end", "pass"):
        step = Step(action)
    else:  # pragma: no cover - the consumer only passes known actions
        raise StepFormatError(f"unknown action {action!r}")
    turns_before = len(engine.turns)
    engine.play(step)
    add(GameEvent.STEP, side, step.to_dict(), str(step), seq)
    if len(engine.turns) > turns_before and engine.outcome is None and engine.flagged:
        # The automatic arbiter policy of games outside events (R14, R34): when the game is
        # flagged, warn both players; from then on their non-engaging turns count as passes.
        for s in ("I", "O"):
            if Side(s) not in engine.warned:
                engine.warn(s, "non-engagement")
                add(GameEvent.WARN, "", {"side": s, "reason": "non-engagement"}, f"warn {s}",
                    None)
    return events


# --- reading ----------------------------------------------------------------------------------


_PLAYERS_CACHE_SIZE = 1024
_players_cache: OrderedDict[int, dict[str, dict[str, Any]]] = OrderedDict()


def _players_block(game: Game) -> dict[str, dict[str, Any]]:
    """Both players as clients show them, in one query.

    Cached per live game: nothing in it changes while the game is live but the players'
    current ratings, which only the end of some game can move; a finished game reads afresh.
    """
    if game.is_live:
        with _cache_lock:
            hit = _players_cache.get(game.pk)
        if hit is not None:
            return {side: dict(p) for side, p in hit.items()}
    from registry import services as registry
    from registry.models import Player

    found = {p.user_id: p for p in Player.objects.filter(
        user_id__in=(game.player_i_id, game.player_o_id)).select_related("user")}
    players = {}
    for side, user_id, start in (("I", game.player_i_id, game.rating_i),
                                 ("O", game.player_o_id, game.rating_o)):
        p = found.get(user_id)
        if p is None:  # an account that never had its registered player made (R26)
            p = registry.player_of(game.player_i if side == "I" else game.player_o)
        players[side] = {"name": p.user.get_username(), "player_id": p.player_id,
                         "rating": p.rating, "rating_at_start": start,
                         "stratum": p.stratum_code,
                         "profile": reverse("profile", args=[p.player_id])}
    if game.is_live:
        with _cache_lock:
            _players_cache[game.pk] = players
            while len(_players_cache) > _PLAYERS_CACHE_SIZE:
                _players_cache.popitem(last=False)
        return {side: dict(p) for side, p in players.items()}
    return players


def game_meta(game: Game, players: dict[str, dict[str, Any]] | None = None,
              version: int | None = None) -> dict[str, Any]:
    """What a client shows besides the board: players, result, records, rating changes
    (at ``version``, by default the row's)."""
    from registry import services as registry

    if players is None:
        players = _players_block(game)
    meta: dict[str, Any] = {
        "id": str(game.uuid),
        "variant": game.variant,
        "rated": game.rated,
        "status": game.status,
        "version": game.version if version is None else version,
        "players": players,
        "result": None,
        "records": [],
        "rating_changes": {},
    }
    if not game.is_live:
        meta["result"] = {"winner": game.winner or None, "reason": game.reason,
                          "detail": game.detail}
        meta["records"] = registry.record_links(game)
        meta["rating_changes"] = registry.rating_changes_of(game)
    return meta


def events_since(game: Game, version: int) -> list[dict[str, Any]]:
    """The events after ``version`` up to the game's version as read: a step committed since
    is not part of this answer (it arrives in its own update), so no socket is told an update
    stops at a version while holding a later event (which would then be delivered twice)."""
    events = game.events.filter(version__gt=version, version__lte=game.version)
    return [e.as_message() for e in events.order_by("version")]


def sync(game_uuid, last_version: int | None = None) -> dict[str, Any] | None:
    """The answer to a (re)connecting client: what it missed and the full current state.

    With ``last_version`` the events after it (a client that saw a gap); without, none (a
    fresh client draws from ``state``). The state includes the turn in progress.
    """
    game = Game.objects.filter(uuid=game_uuid).first()
    if game is None:
        return None
    return _update_for(game, last_version)


def _update_for(game: Game, last_version: int | None) -> dict[str, Any]:
    if last_version is None or last_version < 0 or last_version > game.version:
        from_version = game.version
        events: list[dict[str, Any]] = []
    else:
        from_version = last_version
        events = events_since(game, last_version)
    return {"type": "update", "from_version": from_version, "version": game.version,
            "events": events, "state": snapshot_for(game), "game": game_meta(game)}


def live_games(limit: int = 50):
    return (Game.objects.filter(status=Game.LIVE).select_related("player_i", "player_o")
            .order_by("-created")[:limit])


# --- presence ---------------------------------------------------------------------------------
#
# One ``Watcher`` row per open socket, shared by every process through the database. A row is
# alive while its socket's heartbeat (``touch``) keeps ``seen`` fresh; rows of a killed process
# stop beating, are ignored by counts after ``conf.stale_after()`` seconds and deleted by the
# next heartbeat of a process with a socket on their game.


def _stale_cutoff():
    return timezone.now() - timedelta(seconds=conf.stale_after())


@dataclass
class Opened:
    """What a socket that just opened needs: its game, side and spectator count, and the
    first update (``sync``) to send it."""

    game_pk: int
    side: str | None
    spectators: int
    update: dict[str, Any]


def open_socket(game_uuid, channel_name: str, user, server: str = "",
                last_version: int | None = None) -> Opened | None:
    """A new socket registered (its presence row) and its first ``sync``, one database trip
    and the game read once (a game's end replaces four sockets; opening one was about ten
    milliseconds of a server's CPU, BENCHMARKS.md, issue 7). None: there is no such game.

    The caller joins the socket's group first, so that a step stored after this read still
    reaches it (it waits in the socket's queue until this update is sent)."""
    try:  # not ``first()``: its ORDER BY was a third of compiling the query; and no join of
        game = Game.objects.get(uuid=game_uuid)  # the accounts: only their ids are read
    except Game.DoesNotExist:
        return None
    side, count = _register(game, channel_name, user, server)
    return Opened(game.pk, side, count, _update_for(game, last_version))


def _register(game: Game, channel_name: str, user, server: str) -> tuple[str | None, int]:
    """The socket's presence row (one upsert) and the count: on PostgreSQL one statement
    (``play.presence_sql``). Stale rows are swept by the heartbeats (``touch``), not here:
    counts ignore them anyway, and a statement less per socket opened is a few less per
    game's end (BENCHMARKS.md, issue 7)."""
    side = game.side_of(user)
    role = "player" if side else "spectator"
    now = timezone.now()
    if steplog.available():
        return side, presence_sql.register(channel_name, game.pk, role, server, now,
                                           now - timedelta(seconds=conf.stale_after()))
    Watcher.objects.bulk_create(
        [Watcher(channel_name=channel_name, game=game, role=role, server=server, seen=now)],
        update_conflicts=True, unique_fields=["channel_name"],
        update_fields=["game", "role", "server", "seen"])
    return side, spectator_count(game.pk)


_IN_CHUNK = 500  # names per IN (...) list: SQLite allows 999 parameters in one statement


def touch(server: str, sockets: list[tuple[str, str, str]]) -> dict[str, tuple[int, int]]:
    """The heartbeat of every socket of one process: ``sockets`` is (channel name, game uuid,
    role) for each. Returns {game uuid: (version, spectator count)} for the games that exist.

    A few queries for the whole process, not two per socket (they were a tenth of a loaded
    process's time, BENCHMARKS.md): refresh the rows, sweep these games' stale rows (a killed
    process's sockets: counts ignore them already), re-create this process's rows that are gone
    (deleted as stale while the process was stalled: a live socket is always counted again at
    its next heartbeat), then read every game's version and count together.
    """
    if not sockets:
        return {}
    now = timezone.now()
    cutoff = _stale_cutoff()
    names = [name for name, _, _ in sockets]
    refreshed = 0
    for i in range(0, len(names), _IN_CHUNK):
        refreshed += Watcher.objects.filter(channel_name__in=names[i:i + _IN_CHUNK]).update(
            seen=now)
    uuids = sorted({game for _, game, _ in sockets})
    live = Q(watchers__role="spectator", watchers__seen__gte=cutoff)
    games: dict[str, tuple[int, int, int]] = {}
    for i in range(0, len(uuids), _IN_CHUNK):
        rows = (Game.objects.filter(uuid__in=uuids[i:i + _IN_CHUNK])
                .annotate(spectators=Count("watchers", filter=live))
                .values_list("uuid", "pk", "version", "spectators"))
        games.update({str(u): (pk, v, n) for u, pk, v, n in rows})
    pks = sorted(pk for pk, _, _ in games.values())
    for i in range(0, len(pks), _IN_CHUNK):
        Watcher.objects.filter(game_id__in=pks[i:i + _IN_CHUNK], seen__lt=cutoff).delete()
    if refreshed < len(names):
        have: set[str] = set()
        for i in range(0, len(names), _IN_CHUNK):
            have.update(Watcher.objects.filter(channel_name__in=names[i:i + _IN_CHUNK])
                        .values_list("channel_name", flat=True))
        lost = [Watcher(channel_name=name, game_id=games[game][0], role=role, server=server,
                        seen=now)
                for name, game, role in sockets if name not in have and game in games]
        Watcher.objects.bulk_create(lost, ignore_conflicts=True)
        for game in {w.game_id for w in lost}:
            uuid = next(u for u, (pk, _, _) in games.items() if pk == game)
            pk, version, _ = games[uuid]
            games[uuid] = (pk, version, spectator_count(pk))
    return {u: (version, count) for u, (_, version, count) in games.items()}


def leave(channel_name: str, game_pk: int, spectator: bool) -> int | None:
    """Unregister a closed socket of game ``game_pk``: the game's new spectator count when a
    spectator left, None when a player did (the count is unchanged, nobody need be told).
    One statement on PostgreSQL (``play.presence_sql``)."""
    if steplog.available():
        return presence_sql.unregister(channel_name, game_pk,
                                       _stale_cutoff() if spectator else None)
    Watcher.objects.filter(channel_name=channel_name).delete()
    return spectator_count(game_pk) if spectator else None


def spectator_count(game_pk: int) -> int:
    """Spectators with a live socket on game ``game_pk``, on any process."""
    return Watcher.objects.filter(game_id=game_pk, role="spectator",
                                  seen__gte=_stale_cutoff()).count()
