"""Archiving a finished site game: its records, signatures, tally and ratings.

A subscriber of live play's ``finished`` notification (``play.lifecycle``), run by the worker
after the game's last events are committed, never under the game's write and never on the step
path: the signed session entry (STSE), the slip (STDGS) and the notation (STGN) are written,
the result and tally recorded on the registry's game, and the ratings moved by the ledger
exactly as for a submitted game or a recompute (R30).

Idempotent: the game's registry entry is locked and a game already archived is left alone, so
a second run (after a crash between the archive's commit and the outbox row's ``done``, or a
second worker whose claim raced) does nothing; two runs cannot both write, because the second
waits for the first's lock and then finds the game archived. The records are built and signed
(the slow part: gpg) before the lock is taken, and thrown away if another run got there first.

A failure (the keyring unusable, the database away) raises: nothing of this run is written,
and the worker retries later. The ratings wait for the records: they are a function of the
rated records (R30).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from play.games.talu import write_stgn
from play.models import Game, GameEvent
from play.store import engines
from registry import ledger, recordkeeping, services
from registry.models import GameRecord, RegistryGame
from registry.scoring.tally import tally_game

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class _Records:
    stse: str
    stse_hash: str
    stgn: str
    stdgs: str
    earlier: tuple[tuple[str, str], ...] = ()  # (STSE, hash) of the sittings before the last
    stored: int = 0  # sittings whose entries were written already (at their adjournment)


def _sittings(game: Game, state: Any) -> list[dict[str, Any]]:
    """The sittings of a game adjourned at least once (R38), from its state's sessions: each
    ended one with the turns and decisions it holds and the board before its sealed turn,
    then the last one up to the end."""
    engine = state.engine
    lines = engine.stgn_lines()
    decisions = [d.to_dict() for d in engine.arbiter]
    out, turns_from, arbiter_from = [], 0, 0
    start = int(game.created.timestamp())
    for ended in state.sessions.ended:
        arbiter_to = ended.mark["arbiter"]  # talu's mark of a session's end (R38)
        out.append({"start": start, "turns": lines[turns_from:ended.turns],
                    "board": ended.mark["board"], "arbiter": decisions[arbiter_from:arbiter_to],
                    "clocks": _seconds(ended.clocks)})
        turns_from, arbiter_from = ended.turns, arbiter_to
    last_start = state.sessions.started
    start = last_start // 1000 if last_start else start
    out.append({"start": start, "turns": lines[turns_from:], "board": engine.board(),
                "arbiter": decisions[arbiter_from:], "clocks": _clocks_at_end(state)})
    return out


def _seconds(clocks: dict[str, int] | None) -> dict[str, int] | None:
    """R38's ``clocks`` (whole seconds left) from a clock's milliseconds."""
    return None if clocks is None else {side: ms // 1000 for side, ms in clocks.items()}


def _clocks_at_end(state: Any) -> dict[str, int] | None:
    """Each side's time left when the game ended (timed games), for its last session."""
    clock = getattr(state, "clock", None)
    if clock is None:
        return None
    return _seconds({side: clock.budget(side) for side in ("I", "O")})


def _build_records(archived: RegistryGame, game: Game, engine: Any,
                   state: Any = None) -> _Records:
    """The final records of the game's sittings, sealed and signed (book 6.5.2, R31-R35):
    one session entry (STSE) per sitting, chained (R38)."""
    stge = GameRecord.objects.get(game=archived, kind=GameRecord.STGE, superseded=False)
    game_entry = recordkeeping.read(stge.content)
    if state is not None and state.sessions.ended:
        stored = _stored_sessions(archived)  # written when their sittings ended
        entries, replayed = recordkeeping.session_entries(
            game_entry=game_entry, place=settings.TALU_PLACE, previous=stored,
            sittings=_sittings(game, state)[len(stored):])
        *earlier, (stse_text, stse_hash, _) = entries
        docs = [*stored, *(doc for _, _, doc in entries)]
        return _Records(stse_text, stse_hash, engine.stgn(),
                        recordkeeping.slip(game_entry, docs, replayed),
                        tuple((text, h) for text, h, _ in earlier), len(stored))
    stse_text, stse_hash, stse, replayed = recordkeeping.session_entry(
        game_entry=game_entry, place=settings.TALU_PLACE, start=int(game.created.timestamp()),
        turns=engine.stgn_lines(), board=engine.board(),
        arbiter=[d.to_dict() for d in engine.arbiter],
        clocks=_clocks_at_end(state) if state is not None else None,
    )
    return _Records(stse_text, stse_hash, write_stgn(engine),
                    recordkeeping.slip(game_entry, [stse], replayed))


def _stored_sessions(archived: RegistryGame) -> list[dict[str, Any]]:
    """The session entries of ``archived`` written so far, in order (their documents)."""
    rows = GameRecord.objects.filter(game=archived, kind=GameRecord.STSE,
                                     superseded=False).order_by("session")
    return [recordkeeping.read(r.content) for r in rows]


def write_ended_sessions(game: Game) -> int:
    """R38: when a sitting ends (the game adjourned, its turn sealed), its session entry is
    written, signed and chained at once, not at the game's end. Idempotent (a subscriber of
    ``adjourned``, run by the worker until the game resumes): only the sittings that ended
    and have no entry yet are written, under the registry game's lock. How many were (none
    for a game other than talu: its record is kept when it ends, ``registry.other_games``)."""
    if not game.is_live or not services.keeps_book_records(game):
        return 0
    sealed = GameEvent.objects.filter(game=game, kind="seal").count()
    archived = RegistryGame.objects.filter(live=game).first()
    if archived is None or not sealed or GameRecord.objects.filter(
            game=archived, kind=GameRecord.STSE).count() >= sealed:
        return 0
    state = engines.replay(game)
    complete = [e for e in state.sessions.ended if e.clocks is not None or e.end is not None]
    if state.sessions.paused and not state.sessions.adjourned:
        complete = complete[:-1]  # the last one's turn is still being sealed
    stge = GameRecord.objects.get(game=archived, kind=GameRecord.STGE, superseded=False)
    game_entry = recordkeeping.read(stge.content)
    with transaction.atomic():
        archived = RegistryGame.objects.select_for_update().get(pk=archived.pk)
        stored = _stored_sessions(archived)
        todo = _sittings(game, state)[len(stored):len(complete)]
        if not todo:
            return 0
        entries, _ = recordkeeping.session_entries(
            game_entry=game_entry, place=settings.TALU_PLACE, previous=stored, sittings=todo)
        for n, (text, h, _doc) in enumerate(entries, start=len(stored) + 1):
            GameRecord.objects.create(game=archived, kind=GameRecord.STSE, session=n,
                                      content=text, hash=h)
    return len(entries)


def archive(game: Game) -> bool:
    """Archive finished ``game``; False when it was archived already (nothing done) or is
    not talu's (another game's record and ratings are ``registry.other_games``')."""
    if not services.keeps_book_records(game):
        return False
    if game.is_live:
        raise ValueError(f"game {game.uuid} is still in play")
    archived = RegistryGame.objects.filter(live=game).first()
    if archived is None:  # a game started before the registry kept games
        with transaction.atomic():
            services.write_game_entry(game)
        archived = RegistryGame.objects.get(live=game)
    if archived.status != RegistryGame.PLAYING:
        return False
    if game.reason == "aborted":  # R37: no result, no rating, no session entry; only the
        # game entry stays, marked aborted (out of every standing like an annulled game)
        RegistryGame.objects.filter(pk=archived.pk, status=RegistryGame.PLAYING).update(
            status=RegistryGame.ANNULLED, winner="", reason="aborted")
        return True
    state = engines.replay(game)
    engine = state.engine
    records = _build_records(archived, game, engine, state)
    tally = tally_game(engine)
    with transaction.atomic():
        archived = RegistryGame.objects.select_for_update().get(pk=archived.pk)
        if archived.status != RegistryGame.PLAYING:
            return False  # another run got there first; its records stand
        for n, (text, h) in enumerate(records.earlier, start=records.stored + 1):
            GameRecord.objects.create(game=archived, kind=GameRecord.STSE, session=n,
                                      content=text, hash=h)
        GameRecord.objects.create(game=archived, kind=GameRecord.STSE,
                                  session=records.stored + len(records.earlier) + 1,
                                  content=records.stse, hash=records.stse_hash)
        GameRecord.objects.create(game=archived, kind=GameRecord.STGN, content=records.stgn)
        GameRecord.objects.create(game=archived, kind=GameRecord.STDGS, content=records.stdgs)
        archived.status = RegistryGame.FINISHED
        archived.winner = game.winner
        archived.reason = game.reason
        archived.rounds = tally.rounds
        archived.tally = ledger.tally_to_json(tally)
        archived.stgn = records.stgn
        archived.played_at = game.finished or timezone.now()
        if game.cause == "unplayed":  # R41: an event game lost by not completing the opening
            archived.rated = False  # turn in time is an unplayed game, and it is not rated
            Game.objects.filter(pk=game.pk).update(rated=False)  # its pages say so too
        archived.save()
        ledger.rate_finished_game(archived)
    return True
