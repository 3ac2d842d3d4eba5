"""The R30 cascade over the stored list: re-rate every entry from a point on, for every player,
and write only what differs.

Corrections, annulments, a phase's close and a game dated in the past all change the list
somewhere before its end; ratings after that point are a function of the list, so they are
computed again in memory from the stored figures (never notation) and the stored rows, players
and stratum histories are made equal to the result.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction

from registry import bulk
from registry.figcache import tally_to_json
from registry.ledger.chronology import (
    CLOSING,
    GAME,
    as_cascade_entry,
    as_key,
    expand_start,
    game_key,
    list_entries,
    participants,
    prc_before_q,
    rc_before_q,
    stale_tallies,
)
from registry.ledger.phase_rows import phase_rows_of, write_phase_rows
from registry.ledger.rows import rows_of, write_rows
from registry.ledger.states import seeds_of, states_before, write_players
from registry.ledger.stratum_history import changed_histories, rebuild_stratum_records
from registry.ledger.writing import Progress, Summary, hold_lock, phases_rerated
from registry.models import PhaseRatingChange, Player, RatingChange, RegistryGame
from registry.scoring.cascade import GameChange
from registry.scoring.phase import PhaseChange, apply_entry

log = logging.getLogger(__name__)


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
        entries, rows, phase_rows = list_entries(key)
        involved = participants(rows, phase_rows)
        # The rating changes now stored from the start key on (of any game, counted or not).
        existing_q = RatingChange.objects.all()
        existing_phase_q = PhaseRatingChange.objects.all()
        if key is not None:
            existing_q = existing_q.exclude(rc_before_q(key))
            existing_phase_q = existing_phase_q.exclude(prc_before_q(key))
        if game is not None:
            involved.add(game.player_i_id)
            involved.add(game.player_o_id)
        if key is None:  # a full recompute: a player with no game left goes back to the seed
            involved |= set(Player.objects.values_list("pk", flat=True))
        if key is not None:  # (a full recompute takes every player below)
            involved |= set(existing_q.values_list("player_id", flat=True).distinct())
            involved |= set(existing_phase_q.values_list("player_id", flat=True).distinct())
        states = states_before(key, involved)
        start_states = {**seeds_of(involved - set(states)), **states}
        states = {pk: s.copy() for pk, s in start_states.items()}

        new_rows: dict[tuple[int, int], dict[str, Any]] = {}
        new_phase_rows: dict[tuple[int, int], dict[str, Any]] = {}
        history: list[tuple] = []  # (player, at, kind, pk, stratum, old, after, games, wins,
        #                             promoted_to, promoting game) in list order
        stale: list[dict[str, Any]] = []
        tallies = stale_tallies(rows + [r for rs in phase_rows.values() for r in rs])
        starts: dict[Any, dict[Any, int]] = {}
        n = 0
        for (at, kind, pk), _, obj in entries:
            entry, figures = as_cascade_entry(kind, obj, phase_rows, tallies, stale)
            change = apply_entry(states, entry, starts)
            if isinstance(change, GameChange):
                for r in rows_of(change, figures, pk, at, states):
                    new_rows[(r["game_id"], r["player_id"])] = r
                    history.append((r["player_id"], at, GAME, pk, r["stratum"], r["old_rating"],
                                    r["rating_after"], 1, int(r["won"]), r["promoted_to"], pk))
                n += 1
            elif isinstance(change, PhaseChange):
                for r in phase_rows_of(change, pk, at, states):
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
            history_changed = changed_histories(existing_q, new_rows, existing_phase_q,
                                                new_phase_rows)
        summary = write_rows(existing_q, new_rows)
        summary.rows_written += write_phase_rows(existing_phase_q, new_phase_rows)
        summary.games_rerated = len(rows) + sum(len(phase_rows.get(ph, []))
                                                for ph in {ph for ph, _ in new_phase_rows})
        write_players(states, summary)
        if key is None:  # every rating change is in memory: no need to read them back
            rebuild_stratum_records(involved, rows=history)
        elif history_changed:
            rebuild_stratum_records(history_changed)
        # what is derived from a phase's result (a Hettlandic event's co-champions, R44)
        # follows its recomputed victory scores, in the same transaction (R30)
        phases_rerated([pk for (_, kind, pk), _, _ in entries if kind == CLOSING], summary)
    return summary


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
