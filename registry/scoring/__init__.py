"""Talu scoring core: tallies to ratings, strata and profile metrics (book 6.2-6.6, R16-R30).

Pure Python, no Django: the site, the ``talu`` CLI and batch jobs all call the same functions.
One module per job:

- :mod:`.tally` the tally of a game (R16-R19), derived from notation;
- :mod:`.categories` tally codes grouped per model (R20, R23), speed ratio (R22);
- :mod:`.s1`, :mod:`.s2`, :mod:`.s3` the three models (R21-R23), :mod:`.sx` mixed games (R25);
- :mod:`.rounding` R24; :mod:`.strata` R26; :mod:`.psf` R27; :mod:`.victory` R28;
  :mod:`.profile` R29;
- :mod:`.figures` per-game figures computed once, :mod:`.cascade` record cascading (R30).
"""

from registry.scoring.cascade import (
    CascadeResult,
    GameChange,
    PlayerState,
    RatedGame,
    SideChange,
    annul,
    apply_game,
    cascade,
    correct,
)
from registry.scoring.figures import GameFigures, figures_from_counts, figures_from_tally
from registry.scoring.sx import GameScore, score_game, score_side

__all__ = [
    "CascadeResult",
    "GameChange",
    "GameFigures",
    "GameScore",
    "PlayerState",
    "RatedGame",
    "SideChange",
    "annul",
    "apply_game",
    "cascade",
    "correct",
    "figures_from_counts",
    "figures_from_tally",
    "score_game",
    "score_side",
]
