"""Players' rating states: the cascade's ``PlayerState`` of a stored player, its stored
snapshot, the states just before a point of the R30 list, and the ``Player`` rows that cache
them.

A recompute starts in the middle of the list; the states it starts from are read from the
snapshot in each player's last earlier rating change, so nothing before the start is replayed
(R30). The ``Player`` row holds the state after the player's last entry, the same snapshot.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from django.db import connection

from registry import bulk
from registry.ledger.chronology import (
    CLOSING,
    GAME,
    as_cascade_entry,
    as_key,
    list_entries,
    participants,
    prc_before_q,
    rc_before_q,
    stale_tallies,
)
from registry.ledger.writing import BATCH, Summary
from registry.models import PhaseRatingChange, Player, RatingChange
from registry.scoring.cascade import PlayerState
from registry.scoring.phase import apply_entry
from registry.scoring.psf import ANPC_WINDOW

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


def states_before(start: tuple | None, player_pks: set[int]) -> dict[int, PlayerState]:
    """Each player's state just before ``start`` (an ``(at, kind, pk)`` key or a game's
    ``(played_at, pk)``; None: the very start), for those with an earlier rating change; the
    others are at their seed (:func:`seeds_of`).

    Read from the snapshot in the player's last earlier rating change (of a game or of a
    phase's close, whichever is later); a row without one (written before snapshots existed)
    falls back to a full in-memory cascade.
    """
    if start is None or not player_pks:
        return {}
    key = as_key(start)
    earlier = RatingChange.objects.filter(rc_before_q(key))
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
                                          .filter(prc_before_q(key))
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


def seeds_of(player_pks: set[int]) -> dict[int, PlayerState]:
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
    entries, rows, phase_rows = list_entries(None, key)
    tallies = stale_tallies(rows + [r for rs in phase_rows.values() for r in rs])
    states = seeds_of(participants(rows, phase_rows))
    starts: dict[Any, dict[Any, int]] = {}
    for _, kind, obj in entries:
        apply_entry(states, as_cascade_entry(kind, obj, phase_rows, tallies)[0], starts)
    return {pk: s for pk, s in states.items() if pk in player_pks}


def write_players(states: dict[int, PlayerState], summary: Summary) -> None:
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
