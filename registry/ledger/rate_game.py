"""Rating one game at its end (a live game archived, a submission accepted).

The common case is the newest game of both its players: it is applied to their two stored
states and two rows are written, O(1) whatever the size of the registry. Anything else (a game
dated before a later game of either player, a game of a rating phase, R45) is a recompute from
that game on (R30), so both roads give the ratings a full recompute would.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q

from registry import figcache
from registry.ledger.chronology import RATED_Q, after_q, cascade_game
from registry.ledger.recompute import recompute_from
from registry.ledger.rows import rows_of
from registry.ledger.states import STATE_FIELDS, snapshot, state_of
from registry.ledger.stratum_history import advance_stratum_record
from registry.ledger.writing import Summary, hold_lock
from registry.models import PhaseRatingChange, Player, RatingChange, RatingPhase, RegistryGame
from registry.scoring.cascade import apply_game


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
                 .filter(after_q(game.played_at, game.pk)).exists()
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
    record, figures = cascade_game((game.pk, game.player_i_id, game.player_o_id,
                                    game.scoring_model, game.figures))
    change = apply_game(states, record)
    rows = rows_of(change, figures, game.pk, game.played_at, states)
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
        advance_stratum_record(r)
    return summary
