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

One job per module; this package's names are the ones the rest of the project imports:

* ``writing``: the writers' lock, their :class:`Summary`, and the listeners a recompute tells
  which closed phases it re-rated (:func:`on_phases_rerated`: a Hettlandic event's
  co-champions follow, R44);
* ``chronology``: the list's order, the queries before and after a key, the list read as the
  cascade's entries;
* ``states``: players' rating states, their snapshots, the states before a key;
* ``rows`` and ``phase_rows``: the rating-change rows of a game and of a phase's close;
* ``stratum_history``: the R26 stratum records, derived from the rating changes;
* ``rate_game``: rating one game at its end; ``recompute``: the cascade from a point on.
"""

from registry.figcache import tally_from_json, tally_to_json
from registry.ledger.chronology import (
    CLOSING,
    DECIDED_Q,
    GAME,
    GAME_COLUMNS,
    OPENING,
    RATED_Q,
    Key,
    as_key,
    expand_start,
    game_key,
)
from registry.ledger.phase_rows import PHASE_ROW_FIELDS
from registry.ledger.rate_game import rate_finished_game
from registry.ledger.recompute import fill_missing_tallies, recompute_all, recompute_from
from registry.ledger.rows import ROW_FIELDS
from registry.ledger.states import (
    STATE_FIELDS,
    seeds_of,
    snapshot,
    state_from_snapshot,
    state_of,
    states_before,
)
from registry.ledger.stratum_history import (
    HISTORY_FIELDS,
    PHASE_HISTORY_FIELDS,
    SR_FIELDS,
    rebuild_stratum_records,
)
from registry.ledger.writing import (
    BATCH,
    LOCK_KEY,
    Progress,
    Summary,
    hold_lock,
    on_phases_rerated,
)

__all__ = [
    "BATCH",
    "CLOSING",
    "DECIDED_Q",
    "GAME",
    "GAME_COLUMNS",
    "HISTORY_FIELDS",
    "LOCK_KEY",
    "OPENING",
    "PHASE_HISTORY_FIELDS",
    "PHASE_ROW_FIELDS",
    "RATED_Q",
    "ROW_FIELDS",
    "SR_FIELDS",
    "STATE_FIELDS",
    "Key",
    "Progress",
    "Summary",
    "as_key",
    "expand_start",
    "fill_missing_tallies",
    "game_key",
    "hold_lock",
    "on_phases_rerated",
    "rate_finished_game",
    "rebuild_stratum_records",
    "recompute_all",
    "recompute_from",
    "seeds_of",
    "snapshot",
    "state_from_snapshot",
    "state_of",
    "states_before",
    "tally_from_json",
    "tally_to_json",
]
