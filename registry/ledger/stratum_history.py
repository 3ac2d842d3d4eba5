"""Each player's stratum history (R26, book 6.2.3): one ``StratumRecord`` per stratum reached,
closed by the game or phase that promoted the player out of it.

It is derived from the rating changes, so it follows them: one game at its end advances the
open record (:func:`advance_stratum_record`); a recompute rebuilds the histories of the players
whose promotions or counts it changed (:func:`changed_histories`,
:func:`rebuild_stratum_records`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from registry import bulk
from registry.ledger.chronology import CLOSING, GAME
from registry.ledger.writing import BATCH
from registry.models import PhaseRatingChange, Player, RatingChange, StratumRecord
from registry.scoring.strata import TOP_STRATUM


def advance_stratum_record(row: dict[str, Any]) -> None:
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
    if row["promoted_to"] is not None and row["promoted_to"] <= TOP_STRATUM:  # R26
        StratumRecord.objects.create(player_id=row["player_id"], stratum=row["promoted_to"],
                                     rating_start=cur.rating_end, rating_end=cur.rating_end,
                                     started=cur.ended)


HISTORY_FIELDS = ("stratum", "old_rating", "rating_after", "won", "promoted_to", "played_at")
PHASE_HISTORY_FIELDS = ("stratum", "old_rating", "rating_after", "games", "wins",
                        "promoted_to", "played_at")


def changed_histories(existing_q, new_rows: dict[tuple[int, int], dict[str, Any]],
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
        if last["ended"] is not None and last["stratum"] < TOP_STRATUM:  # R26: S1-S3
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
