"""The ledger: the one writer of ratings (R30 record cascading over the registry's games).

Ratings are a pure function of the chronological list of rated games
(:func:`registry.scoring.cascade.cascade`); the ``Player`` and ``RatingChange`` rows are a cache
of it. Everything here keeps that cache equal to the function:

* :func:`rate_finished_game` (live games at their end, accepted submissions): when no later
  game involves either player, the game is applied to the two stored states
  (:func:`~registry.scoring.cascade.apply_game`), two rows written; otherwise (a submission
  dated in the past) the ratings are cascaded from that game on.
* ``registry.corrections`` (annul, correct) changes the list, then cascades from the first game
  whose inputs changed.
* :func:`recompute_from`: the states just before a game come from the state snapshots stored in
  each player's last earlier ``RatingChange`` (no replay of anything before the game); the games
  from it on are re-rated in memory from their stored tallies (never notation) and only the
  rows that differ are written (bulk update/create/delete).
* :func:`recompute_all`: the same from the first game, with fresh R26 starting states.

Every writer holds one lock (a PostgreSQL advisory lock; SQLite serialises writers anyway), so
two games ending at once or an annulment during a submission cannot interleave. The chronological
key is ``(played_at, id)``.

Rating phases (Hettlandic phase 1, R45; ``RatingPhase``) are entries of the same list: a closed
phase stands at its opening (where its Ec ratings are read, no row) and at its close (one
``PhaseRatingChange`` per participant); its games are not rated one by one. Keys are therefore
``(at, kind, pk)`` with kind :data:`OPENING` < :data:`GAME` < :data:`CLOSING` at the same
instant, and a recompute that starts inside a closed phase starts at its opening instead.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from registry import bulk, figcache
from registry.models import (
    PhaseRatingChange,
    Player,
    RatingChange,
    RatingPhase,
    RegistryGame,
    StratumRecord,
)
from registry.scoring import s3
from registry.scoring.cascade import GameChange, PlayerState, RatedGame, apply_game
from registry.scoring.figures import GameFigures, figures_from_tally
from registry.scoring.phase import PhaseChange, PhaseStart, RatedPhase, apply_entry
from registry.scoring.psf import ANPC_WINDOW
from registry.scoring.tally import Tally

log = logging.getLogger(__name__)

LOCK_KEY = 0x7A1_0006  # pg_advisory_xact_lock key of rating writers
BATCH = 2000
#: Progress callback: called with the number of games just handled (a tqdm's ``update``).
Progress = Callable[[int], Any] | None

DECIDED_Q = Q(status=RegistryGame.FINISHED, rated=True, winner__in=("I", "O"))
#: The games rated one by one in the R30 list: decided, rated, in no rating phase (R45).
RATED_Q = DECIDED_Q & Q(phase__isnull=True)

#: Kinds of entries of the R30 list, in their order at one instant (R45).
OPENING, GAME, CLOSING = -1, 0, 1
Key = tuple[datetime, int, int]  # (at, kind, pk)


@dataclass
class Summary:
    """What a ledger operation did (for the API, the commands and the audit trail)."""

    games_rerated: int = 0
    players_changed: int = 0
    rows_written: int = 0
    changed: dict[str, tuple[int, int]] = field(default_factory=dict)  # player_id: (old, new)

    def as_dict(self) -> dict[str, Any]:
        return {"games_rerated": self.games_rerated, "players_changed": self.players_changed,
                "rows_written": self.rows_written,
                "ratings": {k: list(v) for k, v in sorted(self.changed.items())}}


# --- tallies and figures ------------------------------------------------------------------------


def tally_to_json(tally: Tally) -> dict[str, Any]:
    """A tally as stored in ``RegistryGame.tally`` (rebuilds the same ``Tally``)."""
    return {"codes": {s: dict(tally.codes[s]) for s in ("I", "O")},
            "captures": dict(tally.captures), "rounds": tally.rounds,
            "winner": tally.winner, "reason": tally.reason}


tally_from_json = figcache.tally_from_json


# --- player states ------------------------------------------------------------------------------

STATE_FIELDS = ("stratum", "rating", "stratum_games", "stratum_wins", "exposure_sum", "games",
                "wins", "elimination_wins", "invasion_wins")


def state_of(player: Player) -> PlayerState:
    """The cascade's state of a stored player (promotions history is not needed to go on)."""
    return state_from_snapshot(player.pk, {**{f: getattr(player, f) for f in STATE_FIELDS},
                                           "recent_npc": player.recent_npc or []})


def snapshot(state: PlayerState) -> dict[str, Any]:
    """A state as stored in ``RatingChange.figures["state"]`` (the player after that game), and
    the values its ``Player`` row holds."""
    out: dict[str, Any] = {f: getattr(state, f) for f in STATE_FIELDS}
    out["recent_npc"] = list(state.recent_npc)
    return out


def state_from_snapshot(pk: int, snap: dict[str, Any]) -> PlayerState:
    return PlayerState(pk, **{f: snap[f] for f in STATE_FIELDS},
                       recent_npc=deque(snap.get("recent_npc", []), maxlen=ANPC_WINDOW))


# --- rating-change rows -------------------------------------------------------------------------


def _figures_json(figures: GameFigures, change: GameChange, side: str, opponent_start: int,
                  state: PlayerState) -> dict[str, Any]:
    sc = change.sides[side]
    sf = figures.sides[side]
    opp = "O" if side == "I" else "I"
    out: dict[str, Any] = {
        "model": sc.model, "opponent_rating": opponent_start, "rounds": figures.rounds,
        "reason": figures.reason, "coefficient": sc.coefficient, "points": sc.points,
        "s1_points": sf.s1_points, "pc": sf.pc_float, "npc": sf.npc,
        # R20 category counts (capture, invasion, intrusion, defense, threat) of both sides,
        # and R23 S3 category points: the inputs of every model's ratios
        "counts": figcache.cats(sf.counts),
        "opponent_counts": figcache.cats(figures.sides[opp].counts),
    }
    if sc.model == "S3":
        out["s3_points"] = figcache.cats(sf.points)
        out["opponent_s3_points"] = figcache.cats(figures.sides[opp].points)
        # R23, ratings at game start (1 when both are 0: the core's guard, not a division by 0)
        out["ec"] = float(s3.expectation_coefficient(sc.old, opponent_start))
        out["apc"] = sc.coefficient
        out["success_k"] = figures.success_k
    out["state"] = snapshot(state)
    return out


def _rows_of(change: GameChange, figures: GameFigures, game_pk: int, played_at: datetime,
             states: dict[int, PlayerState]) -> list[dict[str, Any]]:
    rows = []
    for side, opp in (("I", "O"), ("O", "I")):
        sc = change.sides[side]
        rows.append({
            "player_id": sc.player, "game_id": game_pk, "side": side, "model": sc.model,
            "stratum": sc.stratum, "old_rating": sc.old, "new_rating": sc.new,
            "rating_after": sc.rating_after, "won": figures.winner == side,
            "promoted_to": sc.promoted_to, "played_at": played_at,
            "figures": _figures_json(figures, change, side, change.sides[opp].old,
                                     states[sc.player]),
        })
    return rows


ROW_FIELDS = ("side", "model", "stratum", "old_rating", "new_rating", "rating_after", "won",
              "promoted_to", "played_at", "figures")


# --- locking and ordering -----------------------------------------------------------------------


def hold_lock() -> None:
    """Serialise rating writers (inside the caller's transaction)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cur:
            cur.execute("SELECT pg_advisory_xact_lock(%s)", [LOCK_KEY])


def _after_q(played_at: datetime, pk: int) -> Q:
    """Strictly after (played_at, pk) in the chronological order (R30)."""
    return Q(played_at__gt=played_at) | Q(played_at=played_at, pk__gt=pk)


def game_key(game: RegistryGame) -> Key:
    return (game.played_at, GAME, game.pk)


def as_key(key: tuple) -> Key:
    """A key as ``(at, kind, pk)``; a ``(played_at, pk)`` pair is a game's."""
    return (key[0], GAME, key[1]) if len(key) == 2 else key  # type: ignore[return-value]


def _games_from_q(key: Key) -> Q:
    """Games at or after ``key``."""
    at, kind, pk = key
    if kind == GAME:
        return Q(played_at__gt=at) | Q(played_at=at, pk__gte=pk)
    return Q(played_at__gte=at) if kind == OPENING else Q(played_at__gt=at)


def _closings_from_q(key: Key) -> Q:
    at, kind, pk = key
    same = Q(closed_at=at, pk__gte=pk) if kind == CLOSING else Q(closed_at=at)
    return Q(status=RatingPhase.CLOSED) & (Q(closed_at__gt=at) | same)


def _openings_from_q(key: Key) -> Q:
    at, kind, pk = key
    same = Q(opened_at=at, pk__gte=pk) if kind == OPENING else Q(pk__in=[])
    return Q(status=RatingPhase.CLOSED) & (Q(opened_at__gt=at) | same)


def _rc_before_q(key: Key) -> Q:
    """Rating changes of games before ``key``."""
    at, kind, pk = key
    if kind == GAME:
        return Q(played_at__lt=at) | Q(played_at=at, game_id__lt=pk)
    return Q(played_at__lte=at) if kind == CLOSING else Q(played_at__lt=at)


def _prc_before_q(key: Key) -> Q:
    """Phase rating changes of closings before ``key``."""
    at, kind, pk = key
    if kind == CLOSING:
        return Q(played_at__lt=at) | Q(played_at=at, phase_id__lt=pk)
    return Q(played_at__lt=at)


def _before_rc_q(played_at: datetime, game_pk: int) -> Q:
    return _rc_before_q((played_at, GAME, game_pk))


def expand_start(key: Key) -> Key:
    """The earliest key from which a recompute starting at ``key`` must run: a closed phase
    whose close is at or after ``key`` but whose opening is before it is replayed from its
    opening (its Ec ratings are read there, R45)."""
    while True:
        straddling = (RatingPhase.objects.filter(_closings_from_q(key))
                      .exclude(_openings_from_q(key)).order_by("opened_at", "pk")
                      .values_list("opened_at", "pk").first())
        if straddling is None:
            return key
        key = (straddling[0], OPENING, straddling[1])


GAME_COLUMNS = ("pk", "player_i_id", "player_o_id", "scoring_model", "figures", "played_at")


def _stale_tallies(rows: list[tuple]) -> dict[int, dict[str, Any]]:
    """The tallies of the games in ``rows`` whose stored figures are missing or stale."""
    pks = [r[0] for r in rows if not figcache.is_current(r[4])]
    out: dict[int, dict[str, Any]] = {}
    for i in range(0, len(pks), BATCH):
        out.update(RegistryGame.objects.filter(pk__in=pks[i:i + BATCH])
                   .values_list("pk", "tally"))
    return out


def _cascade_game(row: tuple, tallies: dict[int, dict[str, Any]] | None = None,
                  stale: list[dict[str, Any]] | None = None) -> tuple[RatedGame, GameFigures]:
    """A row of :data:`GAME_COLUMNS` as the cascade's game. Figures that are missing or stale
    are computed from the tally in ``tallies`` and added to ``stale`` (to be stored)."""
    pk, pi, po, model, stored = row[:5]
    if figcache.is_current(stored):
        figures = figcache.from_json(stored)
    else:
        figures = figures_from_tally(tally_from_json((tallies or {})[pk]))
        if stale is not None:
            stale.append({"pk": pk, "figures": figcache.to_json(figures)})
    return RatedGame(pk, pi, po, figures, model or None), figures


# --- rating one finished game -------------------------------------------------------------------


def rate_finished_game(game: RegistryGame) -> Summary:
    """Rate a game that has just finished (live) or been accepted (submission).

    Must run after ``game`` is saved with its final status, tally and ``played_at``.
    """
    with transaction.atomic():
        hold_lock()
        if not game.counts_for_rating:
            return Summary()
        if game.phase_id is not None:
            # R45: a phase game moves nothing while its phase is open; a result that reaches
            # a closed phase (an arbiter's late entry) rates the phase again
            if RatingPhase.objects.filter(pk=game.phase_id, status=RatingPhase.OPEN).exists():
                return Summary()
            return recompute_from(game)
        pair = [game.player_i_id, game.player_o_id]
        later = (RegistryGame.objects.filter(RATED_Q)
                 .filter(Q(player_i__in=pair) | Q(player_o__in=pair))
                 .filter(_after_q(game.played_at, game.pk)).exists()
                 or PhaseRatingChange.objects.filter(player__in=pair,
                                                     played_at__gte=game.played_at).exists())
        if later:
            return recompute_from(game)
        return _append(game)


def _append(game: RegistryGame) -> Summary:
    """The fast path: ``game`` is the newest game of both its players."""
    players = {p.pk: p for p in Player.objects.select_for_update()
               .filter(pk__in=[game.player_i_id, game.player_o_id])}
    states = {pk: state_of(p) for pk, p in players.items()}
    before = {pk: p.rating for pk, p in players.items()}
    if not figcache.is_current(game.figures):
        game.figures = figcache.figures_json_of_tally(game.tally)
    record, figures = _cascade_game((game.pk, game.player_i_id, game.player_o_id,
                                     game.scoring_model, game.figures))
    change = apply_game(states, record)
    rows = _rows_of(change, figures, game.pk, game.played_at, states)
    RatingChange.objects.filter(game=game).delete()
    RatingChange.objects.bulk_create([RatingChange(**r) for r in rows])
    summary = Summary(games_rerated=1, rows_written=2)
    for pk, p in players.items():
        for f, v in snapshot(states[pk]).items():
            setattr(p, f, v)
        p.save(update_fields=[*STATE_FIELDS, "recent_npc"])
        summary.changed[p.player_id] = (before[pk], p.rating)
    summary.players_changed = sum(1 for o, n in summary.changed.values() if o != n)
    for r in rows:
        _advance_stratum_record(r)
    return summary


def _advance_stratum_record(row: dict[str, Any]) -> None:
    """Count one new game in the player's open stratum record (O(1) per game; the same
    result as :func:`rebuild_stratum_records`, which is used when there is none)."""
    cur = (StratumRecord.objects.select_for_update()
           .filter(player_id=row["player_id"], ended=None).order_by("-stratum").first())
    if cur is None or cur.stratum != row["stratum"]:
        rebuild_stratum_records([row["player_id"]])
        return
    cur.games += 1
    cur.wins += int(row["won"])
    cur.rating_end = row["rating_after"]
    if row["promoted_to"] is not None:
        cur.ended = row["played_at"]
        cur.promoted_by_id = row["game_id"]
    cur.save()
    if row["promoted_to"] is not None and row["promoted_to"] <= 3:
        StratumRecord.objects.create(player_id=row["player_id"], stratum=row["promoted_to"],
                                     rating_start=cur.rating_end, rating_end=cur.rating_end,
                                     started=cur.ended)


# --- recompute ----------------------------------------------------------------------------------


def _states_before(game_key: tuple | None,
                   player_pks: set[int]) -> dict[int, PlayerState]:
    """Each player's state just before ``game_key`` (None: the very start, R26 defaults).

    Read from the snapshot in the player's last earlier rating change (of a game or of a
    phase's close, whichever is later); a row without one (written before snapshots existed)
    falls back to a full in-memory cascade.
    """
    if game_key is None or not player_pks:
        return {}
    key = as_key(game_key)
    earlier = RatingChange.objects.filter(_rc_before_q(key))
    found: dict[int, tuple[tuple, dict[str, Any] | None]] = {}
    pks = sorted(player_pks)
    for i in range(0, len(pks), BATCH):
        chunk = pks[i:i + BATCH]
        cols = ("player_id", "played_at", "game_id", "figures")
        if connection.vendor == "postgresql":
            rows = (earlier.filter(player_id__in=chunk)
                    .order_by("player_id", "-played_at", "-game_id")
                    .distinct("player_id").values_list(*cols))
        else:
            from django.db.models import OuterRef, Subquery

            last = (earlier.filter(player_id=OuterRef("pk"))
                    .order_by("-played_at", "-game_id").values("pk")[:1])
            ids = (Player.objects.filter(pk__in=chunk).annotate(rc=Subquery(last))
                   .exclude(rc=None).values_list("rc", flat=True))
            rows = RatingChange.objects.filter(pk__in=list(ids)).values_list(*cols)
        for pk, at, game_pk, figures in rows:
            found[pk] = ((at, GAME, game_pk), (figures or {}).get("state"))
        # phases are few: every earlier close of these players, the latest kept
        for pk, at, phase_pk, figures in (PhaseRatingChange.objects.filter(player_id__in=chunk)
                                          .filter(_prc_before_q(key))
                                          .values_list("player_id", "played_at", "phase_id",
                                                       "figures")):
            if pk not in found or found[pk][0] < (at, CLOSING, phase_pk):
                found[pk] = ((at, CLOSING, phase_pk), (figures or {}).get("state"))
    states: dict[int, PlayerState] = {}
    for pk, (_, snap) in found.items():
        if snap is None:
            return _states_by_cascade(key, player_pks)
        states[pk] = state_from_snapshot(pk, snap)
    return states


def states_before(key: tuple, player_pks: set[int]) -> dict[int, PlayerState]:
    """The players' states just before ``key`` (an ``(at, kind, pk)`` key), for those with an
    earlier rating change; the others are at their seed (:func:`seeds_of`)."""
    return _states_before(key, player_pks)


def seeds_of(player_pks: set[int]) -> dict[int, PlayerState]:
    """The states players entered the registry with."""
    return _seeds(player_pks)


def _seeds(player_pks: set[int]) -> dict[int, PlayerState]:
    """The states players entered the registry with (R26 defaults or imported standings)."""
    out: dict[int, PlayerState] = {}
    pks = sorted(player_pks)
    for i in range(0, len(pks), BATCH):
        for pk, stratum, rating in Player.objects.filter(pk__in=pks[i:i + BATCH]).values_list(
                "pk", "start_stratum", "start_rating"):
            out[pk] = PlayerState(pk, stratum=stratum, rating=rating)
    return out


def _states_by_cascade(game_key: tuple, player_pks: set[int]) -> dict[int, PlayerState]:
    """The states just before ``game_key`` by replaying every entry before it (the fallback
    for rating changes stored without a snapshot)."""
    key = as_key(game_key)
    entries, rows, phase_rows = _entries(None, key)
    tallies = _stale_tallies(rows + [r for rs in phase_rows.values() for r in rs])
    states = _seeds(_participants(rows, phase_rows))
    starts: dict[Any, dict[Any, int]] = {}
    for _, kind, obj in entries:
        apply_entry(states, _entry(kind, obj, phase_rows, tallies)[0], starts)
    return {pk: s for pk, s in states.items() if pk in player_pks}


def _entries(start: Key | None, end: Key | None = None
             ) -> tuple[list[tuple[Key, int, Any]], list[tuple], dict[int, list[tuple]]]:
    """The R30 list from ``start`` (inclusive) to ``end`` (exclusive; None: both open):
    ``(key, kind, row-or-phase)`` in order, the game rows, and the rows of each closing
    phase's games."""
    games = RegistryGame.objects.filter(RATED_Q)
    closings = RatingPhase.objects.filter(status=RatingPhase.CLOSED)
    openings = RatingPhase.objects.filter(status=RatingPhase.CLOSED)
    if start is not None:
        games = games.filter(_games_from_q(start))
        closings = closings.filter(_closings_from_q(start))
        openings = openings.filter(_openings_from_q(start))
    if end is not None:
        games = games.exclude(_games_from_q(end))
        closings = closings.exclude(_closings_from_q(end))
        openings = openings.exclude(_openings_from_q(end))
    rows = list(games.order_by("played_at", "id").values_list(*GAME_COLUMNS))
    closing = list(closings)
    opening = list(openings)
    phase_rows: dict[int, list[tuple]] = {}
    phases = {p.pk for p in closing} | {p.pk for p in opening}
    if phases:
        for row in (RegistryGame.objects.filter(DECIDED_Q, phase__in=phases)
                    .order_by("played_at", "id").values_list(*GAME_COLUMNS, "phase_id")):
            phase_rows.setdefault(row[-1], []).append(row[:-1])
    entries: list[tuple[Key, int, Any]] = [((r[5], GAME, r[0]), GAME, r) for r in rows]
    entries += [((p.opened_at, OPENING, p.pk), OPENING, p) for p in opening]
    entries += [((p.closed_at, CLOSING, p.pk), CLOSING, p) for p in closing]
    entries.sort(key=lambda e: e[0])
    return entries, rows, phase_rows


def _participants(rows: list[tuple], phase_rows: dict[int, list[tuple]]) -> set[int]:
    out: set[int] = set()
    for r in rows:
        out.add(r[1])
        out.add(r[2])
    for rs in phase_rows.values():
        for r in rs:
            out.add(r[1])
            out.add(r[2])
    return out


def _entry(kind: int, obj: Any, phase_rows: dict[int, list[tuple]],
           tallies: dict[int, dict[str, Any]], stale: list[dict[str, Any]] | None = None
           ) -> tuple[Any, Any]:
    """One entry of :func:`_entries` as the pure cascade's (and a game's figures)."""
    if kind == GAME:
        return _cascade_game(obj, tallies, stale)
    games = tuple(_cascade_game(r, tallies, stale)[0] for r in phase_rows.get(obj.pk, []))
    if kind == OPENING:
        return PhaseStart(obj.pk, RatedPhase(obj.pk, games).players), None
    return RatedPhase(obj.pk, games), None


def recompute_from(game: RegistryGame | None, progress: Progress = None,
                   *, start_key: tuple | None = None) -> Summary:
    """R30: re-rate every entry of the list from ``game`` (inclusive) on, for every player.

    ``game`` None means from the very first game (a full recompute). ``start_key`` overrides
    the starting point (a correction that moves a game earlier starts there; a phase's
    close starts at its opening): ``(played_at, pk)`` of a game or an ``(at, kind, pk)`` key.
    A start inside a closed phase moves back to the phase's opening (R45).
    """
    with transaction.atomic():
        hold_lock()
        key = start_key or (None if game is None else game_key(game))
        key = None if key is None else expand_start(as_key(key))
        entries, rows, phase_rows = _entries(key)
        involved = _participants(rows, phase_rows)
        # The rating changes now stored from the start key on (of any game, counted or not).
        existing_q = RatingChange.objects.all()
        existing_phase_q = PhaseRatingChange.objects.all()
        if key is not None:
            existing_q = existing_q.exclude(_rc_before_q(key))
            existing_phase_q = existing_phase_q.exclude(_prc_before_q(key))
        if game is not None:
            involved.add(game.player_i_id)
            involved.add(game.player_o_id)
        if key is None:  # a full recompute: a player with no game left goes back to the seed
            involved |= set(Player.objects.values_list("pk", flat=True))
        if key is not None:  # (a full recompute takes every player below)
            involved |= set(existing_q.values_list("player_id", flat=True).distinct())
            involved |= set(existing_phase_q.values_list("player_id", flat=True).distinct())
        states = _states_before(key, involved)
        start_states = {**_seeds(involved - set(states)), **states}
        states = {pk: s.copy() for pk, s in start_states.items()}

        new_rows: dict[tuple[int, int], dict[str, Any]] = {}
        new_phase_rows: dict[tuple[int, int], dict[str, Any]] = {}
        history: list[tuple] = []  # (player, at, kind, pk, stratum, old, after, games, wins,
        #                             promoted_to, promoting game) in list order
        stale: list[dict[str, Any]] = []
        tallies = _stale_tallies(rows + [r for rs in phase_rows.values() for r in rs])
        starts: dict[Any, dict[Any, int]] = {}
        n = 0
        for (at, kind, pk), _, obj in entries:
            entry, figures = _entry(kind, obj, phase_rows, tallies, stale)
            change = apply_entry(states, entry, starts)
            if isinstance(change, GameChange):
                for r in _rows_of(change, figures, pk, at, states):
                    new_rows[(r["game_id"], r["player_id"])] = r
                    history.append((r["player_id"], at, GAME, pk, r["stratum"], r["old_rating"],
                                    r["rating_after"], 1, int(r["won"]), r["promoted_to"], pk))
                n += 1
            elif isinstance(change, PhaseChange):
                for r in _phase_rows_of(change, pk, at, states):
                    new_phase_rows[(pk, r["player_id"])] = r
                    history.append((r["player_id"], at, CLOSING, pk, r["stratum"],
                                    r["old_rating"], r["rating_after"], r["games"], r["wins"],
                                    r["promoted_to"], None))
                n += len(phase_rows.get(pk, []))
            if progress is not None and n >= 1000:
                progress(n)
                n = 0
        if progress is not None and n:
            progress(n)
        bulk.update_rows(RegistryGame, stale, ("figures",))
        if key is not None:  # only these players' stratum histories can differ
            history_changed = _history_changed(existing_q, new_rows, existing_phase_q,
                                               new_phase_rows)
        summary = _write_rows(existing_q, new_rows)
        summary.rows_written += _write_phase_rows(existing_phase_q, new_phase_rows)
        summary.games_rerated = len(rows) + sum(len(phase_rows.get(ph, []))
                                                for ph in {ph for ph, _ in new_phase_rows})
        _write_players(states, summary)
        if key is None:  # every rating change is in memory: no need to read them back
            rebuild_stratum_records(involved, rows=history)
        elif history_changed:
            rebuild_stratum_records(history_changed)
    return summary


HISTORY_FIELDS = ("stratum", "old_rating", "rating_after", "won", "promoted_to", "played_at")
PHASE_HISTORY_FIELDS = ("stratum", "old_rating", "rating_after", "games", "wins",
                        "promoted_to", "played_at")


def _history_changed(existing_q, new_rows: dict[tuple[int, int], dict[str, Any]],
                     existing_phase_q, new_phase_rows: dict[tuple[int, int], dict[str, Any]]
                     ) -> set[int]:
    """The players whose stratum history (R26) the new rows change: a row added or removed,
    or one of the fields the history is built from changed. Reads only the rows from the
    start key on, without their figures; the others' histories are left as they are."""
    changed: set[int] = set()
    for stored, new, key_field, fields in ((existing_q, new_rows, "game_id", HISTORY_FIELDS),
                                           (existing_phase_q, new_phase_rows, "phase_id",
                                            PHASE_HISTORY_FIELDS)):
        seen: set[tuple[int, int]] = set()
        for entry_pk, player_pk, *values in stored.values_list(
                key_field, "player_id", *fields).iterator(chunk_size=BATCH):
            want = new.get((entry_pk, player_pk))
            seen.add((entry_pk, player_pk))
            if want is None or any(want[f] != v for f, v in zip(fields, values, strict=True)):
                changed.add(player_pk)
        changed |= {player_pk for k, player_pk in new if (k, player_pk) not in seen}
    return changed


def _phase_rows_of(change: PhaseChange, phase_pk: int, closed_at: datetime,
                   states: dict[int, PlayerState]) -> list[dict[str, Any]]:
    """The ``PhaseRatingChange`` rows of a phase's close: every phase game's figures."""
    rows = []
    for pid, side in change.sides.items():
        rows.append({
            "player_id": pid, "phase_id": phase_pk, "stratum": side.stratum,
            "start_rating": side.start_rating, "old_rating": side.old,
            "new_rating": side.new, "rating_after": side.rating_after, "games": len(side.games),
            "wins": side.wins, "final_coefficient": side.final_coefficient,
            "victory_score": side.victory_score, "promoted_to": side.promoted_to,
            "played_at": closed_at,
            "figures": {
                "model": "S3",
                "games": [{"game": g.game_id, "side": g.side, "opponent": g.opponent,
                           "own_rating": g.own_rating, "opponent_rating": g.opponent_rating,
                           "won": g.won, "npc": g.npc, "ec": g.ec, "apc": g.apc}
                          for g in side.games],
                "state": snapshot(states[pid]),
            },
        })
    return rows


PHASE_ROW_FIELDS = ("stratum", "start_rating", "old_rating", "new_rating", "rating_after",
                    "games", "wins", "final_coefficient", "victory_score", "promoted_to",
                    "played_at", "figures")


def _write_phase_rows(existing_q, new_rows: dict[tuple[int, int], dict[str, Any]]) -> int:
    """Make the stored phase rating changes from the start key on equal ``new_rows`` (a few
    hundred rows per phase: the plain ORM is enough). How many rows were written."""
    to_update: list[dict[str, Any]] = []
    to_delete: list[int] = []
    seen: set[tuple[int, int]] = set()
    for pk, phase_pk, player_pk, *rest in existing_q.values_list(
            "pk", "phase_id", "player_id", *PHASE_ROW_FIELDS).iterator(chunk_size=BATCH):
        want = new_rows.get((phase_pk, player_pk))
        if want is None:
            to_delete.append(pk)
            continue
        seen.add((phase_pk, player_pk))
        if any(want[f] != v for f, v in zip(PHASE_ROW_FIELDS, rest, strict=True)):
            to_update.append({"pk": pk, **want})
    bulk.delete_pks(PhaseRatingChange, to_delete)
    bulk.update_rows(PhaseRatingChange, to_update, PHASE_ROW_FIELDS)
    now = timezone.now()
    creates = [{**r, "created": now} for k, r in new_rows.items() if k not in seen]
    # COPY on PostgreSQL: each row carries its 20 games' figures (a bulk INSERT of 300 of
    # them spent seconds in the driver's query conversion)
    bulk.insert_rows(PhaseRatingChange, creates,
                     ("player_id", "phase_id", *PHASE_ROW_FIELDS, "created"))
    return len(to_delete) + len(to_update) + len(creates)


def _write_rows(existing_q, new_rows: dict[tuple[int, int], dict[str, Any]]) -> Summary:
    """Make the stored rating changes from the start key on equal ``new_rows``: update the
    rows that differ, create the missing ones, delete the ones of games no longer rated."""
    summary = Summary()
    if connection.vendor == "postgresql":  # compared in the database, no row read back
        updated, inserted, deleted = bulk.sync_rows(
            RatingChange, list(new_rows.values()), ("game_id", "player_id"), ROW_FIELDS,
            existing_q, extra={"created": timezone.now()})
        summary.rows_written = updated + inserted + deleted
        return summary
    to_update: list[dict[str, Any]] = []
    to_delete: list[int] = []
    seen: set[tuple[int, int]] = set()
    cols = ("pk", "game_id", "player_id", *ROW_FIELDS)
    for values in existing_q.values_list(*cols).iterator(chunk_size=BATCH):
        pk, game_pk, player_pk, *rest = values
        key = (game_pk, player_pk)
        want = new_rows.get(key)
        if want is None:
            to_delete.append(pk)
            continue
        seen.add(key)
        if any(want[f] != v for f, v in zip(ROW_FIELDS, rest, strict=True)):
            to_update.append({"pk": pk, **want})
    bulk.delete_pks(RatingChange, to_delete)
    bulk.update_rows(RatingChange, to_update, ROW_FIELDS)
    now = timezone.now()
    creates = [{**r, "created": now} for k, r in new_rows.items() if k not in seen]
    bulk.insert_rows(RatingChange, creates, ("player_id", "game_id", *ROW_FIELDS, "created"))
    summary.rows_written = len(to_delete) + len(to_update) + len(creates)
    return summary


def _write_players(states: dict[int, PlayerState], summary: Summary) -> None:
    changed: list[dict[str, Any]] = []
    fields = ("pk", "player_id", "recent_npc", *STATE_FIELDS)
    pks = list(states)
    for i in range(0, len(pks), BATCH):
        for row in Player.objects.filter(pk__in=pks[i:i + BATCH]).values(*fields):
            want = snapshot(states[row["pk"]])
            if any(row[f] != v for f, v in want.items()):
                changed.append({"pk": row["pk"], **want})
                if row["rating"] != want["rating"]:
                    summary.changed[row["player_id"]] = (row["rating"], want["rating"])
    bulk.update_rows(Player, changed, (*STATE_FIELDS, "recent_npc"))
    summary.players_changed = len(changed)
    summary.rows_written += len(changed)


def recompute_all(progress: Progress = None) -> Summary:
    """Every rating from the first game on (R30); writes only what differs. Games carried by a
    migration without their tally get it from their notation first (``fill_missing_tallies``)."""
    fill_missing_tallies()
    return recompute_from(None, progress)


def fill_missing_tallies() -> int:
    """Tally the finished games that have none, from their stored notation (R16-R19): games
    migration 0002 carried from before issue 6 (a migration imports no live code, so it could
    not replay them). A notation that does not replay leaves the game unrated, for a person to
    look at. How many games were filled."""
    from play.games.talu import TaluError, read_stgn
    from registry.scoring.tally import tally_game

    filled = 0
    for game in RegistryGame.objects.filter(status=RegistryGame.FINISHED, tally={}):
        try:
            tally = tally_game(read_stgn(game.stgn, variant=game.variant))
        except TaluError:
            log.warning("game %s: its notation does not replay; left unrated", game.game_id)
            game.rated = False
            game.save(update_fields=["rated"])
            continue
        game.tally = tally_to_json(tally)
        game.rounds = tally.rounds
        game.save(update_fields=["tally", "rounds"])
        filled += 1
    return filled


# --- stratum history ----------------------------------------------------------------------------


SR_FIELDS = ("player_id", "stratum", "games", "wins", "rating_start", "rating_end", "started",
             "ended", "promoted_by_id")


def rebuild_stratum_records(player_pks: Iterable[int],
                            rows: Iterable[tuple] | None = None) -> None:
    """Rebuild the per-stratum history (R26, book 6.2.3) of these players from their
    rating changes, of games and of phases (read from the database, or ``rows`` when all of
    them are at hand, as :func:`recompute_from`'s ``history`` tuples): one row per stratum
    reached, closed by the game (or phase) that promoted them."""
    pks = list(player_pks)
    created = {}
    for i in range(0, len(pks), BATCH):
        created.update(Player.objects.filter(pk__in=pks[i:i + BATCH])
                       .values_list("pk", "created"))
    if rows is None:
        def changes() -> Iterator[tuple]:
            for i in range(0, len(pks), BATCH):
                chunk = pks[i:i + BATCH]
                phases: dict[int, list[tuple]] = {}
                for pk, at, ph, st, old, after, games, wins, promoted_to in (
                        PhaseRatingChange.objects.filter(player_id__in=chunk).values_list(
                            "player_id", "played_at", "phase_id", "stratum", "old_rating",
                            "rating_after", "games", "wins", "promoted_to")):
                    phases.setdefault(pk, []).append((pk, at, CLOSING, ph, st, old, after,
                                                      games, wins, promoted_to, None))
                if not phases:
                    yield from _game_history(chunk)
                    continue
                by_player: dict[int, list[tuple]] = {}
                for row in _game_history(chunk):
                    by_player.setdefault(row[0], []).append(row)
                for pk in sorted(set(by_player) | set(phases)):
                    yield from sorted(by_player.get(pk, []) + phases.get(pk, []),
                                      key=lambda r: (r[1], r[2], r[3]))
        source: Iterable[tuple] = changes()
    else:  # in chronological order already (the cascade's)
        source = rows
    history: dict[int, list[dict[str, Any]]] = {}
    for pk, at, _, _, stratum, old, after, games, wins, promoted_to, by_game in source:
        recs = history.setdefault(pk, [])
        if not recs or recs[-1]["ended"] is not None:
            recs.append({"player_id": pk, "stratum": stratum, "games": 0, "wins": 0,
                         "rating_start": old, "rating_end": old,
                         "started": recs[-1]["ended"] if recs else created[pk],
                         "ended": None, "promoted_by_id": None})
        cur = recs[-1]
        cur["games"] += games
        cur["wins"] += wins
        cur["rating_end"] = after
        if promoted_to is not None:
            cur["ended"] = at
            cur["promoted_by_id"] = by_game  # None for a phase
    flat = [r for recs in history.values() for r in recs]
    for recs in history.values():  # the stratum a promotion led to, still without a game
        last = recs[-1]
        if last["ended"] is not None and last["stratum"] < 3:
            flat.append({"player_id": last["player_id"], "stratum": last["stratum"] + 1,
                         "games": 0, "wins": 0, "rating_start": last["rating_end"],
                         "rating_end": last["rating_end"], "started": last["ended"],
                         "ended": None, "promoted_by_id": None})
    old = list(StratumRecord.objects.filter(player_id__in=pks).values_list("pk", flat=True)
               ) if len(pks) <= BATCH else _stratum_pks(pks)
    bulk.delete_pks(StratumRecord, old)
    bulk.insert_rows(StratumRecord, flat, SR_FIELDS)


def _game_history(chunk: list[int]) -> Iterator[tuple]:
    """The players' game rating changes as history tuples, by player then in list order."""
    for pk, game_pk, stratum, old, after, won, promoted_to, at in (
            RatingChange.objects.filter(player_id__in=chunk)
            .order_by("player_id", "played_at", "game_id")
            .values_list("player_id", "game_id", "stratum", "old_rating", "rating_after", "won",
                         "promoted_to", "played_at")):
        yield (pk, at, GAME, game_pk, stratum, old, after, 1, int(won), promoted_to, game_pk)


def _stratum_pks(pks: list[int]) -> list[int]:
    out: list[int] = []
    for i in range(0, len(pks), BATCH):
        out += StratumRecord.objects.filter(player_id__in=pks[i:i + BATCH]).values_list(
            "pk", flat=True)
    return out
