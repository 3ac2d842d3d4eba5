"""Record cascading: every rating as a pure function of the chronological game list (R30).

Ratings are never stored as truth, only as a cache of this function: annulling or correcting a
game is calling :func:`cascade` again on the corrected list. S3 couples players through Ec
(a changed rating changes every later opponent's expectation), so a correction can move
ratings of players who never played the corrected game; recomputing everything from the list
is the simple way to get that right, and with per-game :class:`GameFigures` precomputed it is
fast (about 100,000 games a second or more; see BENCHMARKS.md).

Promotion (R26) happens inside the cascade, after the game that earns it, exactly as it would
have live.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from registry.scoring.categories import SIDES
from registry.scoring.figures import GameFigures, figures_from_tally
from registry.scoring.profile import (
    breadth_depth,
    exposure_index_display,
    outcome_confidence_display,
    outcome_ratio,
)
from registry.scoring.psf import ANPC_WINDOW, default_anpc, performance_safety_floor
from registry.scoring.s1 import s1_new_rating
from registry.scoring.s2 import s2_new_rating
from registry.scoring.s3 import s3_new_rating
from registry.scoring.strata import (
    START_RATING,
    TOP_STRATUM,
    is_promotion_due,
    model_for,
    promoted_base,
    stratum,
    substratum,
)
from registry.scoring.sx import MODELS
from registry.scoring.tally import Tally


@dataclass(frozen=True, slots=True, eq=False)
class RatedGame:
    """One rated game as the cascade sees it: who played which side, and its figures.

    ``model`` is the event's fixed scoring model (R25, book 6.4), or None for each player's
    own stratum model.
    """

    game_id: str
    player_i: str
    player_o: str
    figures: GameFigures
    model: str | None = None

    def __post_init__(self) -> None:
        if self.player_i == self.player_o:
            raise ValueError(f"game {self.game_id}: a player cannot play both sides")
        if self.model is not None and self.model not in MODELS:
            raise ValueError(f"game {self.game_id}: unknown scoring model {self.model!r}")

    @classmethod
    def from_tally(
        cls, game_id: str, player_i: str, player_o: str, tally: Tally, model: str | None = None
    ) -> RatedGame:
        return cls(game_id, player_i, player_o, figures_from_tally(tally), model)

    def player(self, side: str) -> str:
        return self.player_i if side == "I" else self.player_o


@dataclass(slots=True)
class PlayerState:
    """A player's standing after some prefix of the record (R26 statistics, R29 counts)."""

    player_id: str
    stratum: int = 1
    rating: int = START_RATING
    #: Rated decided games and wins in the current stratum (R26; reset on promotion).
    stratum_games: int = 0
    stratum_wins: int = 0
    #: Sum of (opponent - own rating at game start) in the current stratum (R29 EI).
    exposure_sum: int = 0
    #: All rated decided games (R29 OR, OCS, Breadth:Depth).
    games: int = 0
    wins: int = 0
    elimination_wins: int = 0
    invasion_wins: int = 0
    #: NPc of the last rated S3 games, oldest first (R27 default aNPc).
    recent_npc: deque[float] = field(default_factory=lambda: deque(maxlen=ANPC_WINDOW))
    #: (game id, new stratum) for every promotion, in order: history is kept (R26).
    promotions: list[tuple[str, int]] = field(default_factory=list)

    def copy(self) -> PlayerState:
        return replace(
            self,
            recent_npc=deque(self.recent_npc, maxlen=ANPC_WINDOW),
            promotions=list(self.promotions),
        )

    @property
    def substratum(self) -> str:
        return substratum(self.stratum, self.rating)

    def profile(self) -> dict[str, object]:
        """The player's evaluative and descriptive metrics (book 6.6, R27, R29), JSON-ready."""
        ratio = outcome_ratio(self.wins, self.games)
        bd = breadth_depth(self.elimination_wins, self.invasion_wins)
        anpc = default_anpc(self.recent_npc)
        return {
            "stratum": stratum(self.stratum).code,
            "substratum": self.substratum,
            "rating": self.rating,
            "or": None if ratio is None else float(ratio),
            "ocs": outcome_confidence_display(self.wins, self.games),
            "ei_percent": float(
                exposure_index_display([self.exposure_sum], stratum(self.stratum).base)
            ),
            "breadth_depth": None if bd is None else list(bd),
            "anpc": anpc,
            "psf": performance_safety_floor(self.rating, anpc)
            if self.stratum == TOP_STRATUM
            else None,
        }


@dataclass(frozen=True, slots=True)
class SideChange:
    """What one game did to one player, with the figure that explains it."""

    player: str
    model: str
    stratum: int  # at game start
    old: int
    new: int  # after the game, before any promotion reset
    coefficient: float | None  # Pc (S2) or APc (S3); None for S1 and unrated games
    points: int | None  # S1 points; None for S2/S3
    promoted_to: int | None = None  # the new stratum when this game earned promotion (R26)

    @property
    def rating_after(self) -> int:
        """The rating the player carries into their next game (the new base if promoted)."""
        return self.new if self.promoted_to is None else stratum(self.promoted_to).base


@dataclass(frozen=True, slots=True)
class GameChange:
    game_id: str
    rated: bool
    sides: dict[str, SideChange]

    def __getitem__(self, side: str) -> SideChange:
        return self.sides[side]


@dataclass(slots=True)
class CascadeResult:
    changes: list[GameChange]
    players: dict[str, PlayerState]


def _rate(
    model: str, figures: GameFigures, side: str, old: int, opponent: int
) -> tuple[int, float | None, int | None, float | None]:
    """(new rating, coefficient, S1 points, NPc) for a rated game, from precomputed figures."""
    sf = figures.sides[side]
    if model == "S1":
        return s1_new_rating(old, sf.s1_points, figures.winner == side), None, sf.s1_points, None
    if model == "S2":
        assert sf.pc is not None
        return s2_new_rating(old, sf.pc), sf.pc_float, None, None
    assert sf.npc is not None
    apc, new = s3_new_rating(old, opponent, sf.npc, lambda: figures.exact_power(side))
    return new, apc, None, sf.npc


def apply_game(players: dict[str, PlayerState], record: RatedGame) -> GameChange:
    """Rate one game and update ``players`` in place (new players start per R26).

    Both sides are rated from the ratings at game start (R23 Ec) before either is updated;
    then each side's stratum statistics are counted and promotion checked (R26).
    """
    figures = record.figures
    states = {}
    for side in SIDES:
        pid = record.player(side)
        state = players.get(pid)
        if state is None:
            state = players[pid] = PlayerState(pid)
        states[side] = state
    start = {side: states[side].rating for side in SIDES}

    if figures.winner is None:  # R12: null or unfinished, no rating moves, nothing counted
        sides = {}
        for side in SIDES:
            st = states[side]
            model = record.model or model_for(st.stratum)
            points = figures.sides[side].s1_points if model == "S1" else None
            sides[side] = SideChange(
                record.player(side), model, st.stratum, st.rating, st.rating, None, points
            )
        return GameChange(record.game_id, False, sides)

    sides = {}
    for side, opp in (("I", "O"), ("O", "I")):
        st = states[side]
        at_start = st.stratum
        model = record.model or model_for(at_start)
        new, coefficient, points, npc = _rate(model, figures, side, start[side], start[opp])
        won = figures.winner == side

        st.rating = new
        st.games += 1
        st.stratum_games += 1
        st.exposure_sum += start[opp] - start[side]
        if won:
            st.wins += 1
            st.stratum_wins += 1
            if figures.reason == "elimination":
                st.elimination_wins += 1
            elif figures.reason == "invasion":
                st.invasion_wins += 1
        if npc is not None:
            st.recent_npc.append(npc)

        promoted_to = promote_if_due(st, new, record.game_id)
        sides[side] = SideChange(
            record.player(side), model, at_start, start[side], new,
            coefficient, points, promoted_to,
        )  # fmt: skip
    return GameChange(record.game_id, True, sides)


def cascade(
    records: Iterable[RatedGame], initial: Mapping[str, PlayerState] | None = None
) -> CascadeResult:
    """R30: replay the ratings of a chronological list of rated game records.

    ``initial`` seeds players who did not start from R26's defaults (e.g. imported standings);
    it is copied, never changed. Players not in it start as new S1 players at 250.
    """
    players = {pid: state.copy() for pid, state in (initial or {}).items()}
    changes = [apply_game(players, record) for record in records]
    return CascadeResult(changes, players)


def annul(
    records: Iterable[RatedGame], game_id: str, initial: Mapping[str, PlayerState] | None = None
) -> CascadeResult:
    """R30: the ratings as if game ``game_id`` had never been played."""
    return cascade((r for r in records if r.game_id != game_id), initial)


def correct(
    records: Iterable[RatedGame],
    corrected: RatedGame,
    initial: Mapping[str, PlayerState] | None = None,
) -> CascadeResult:
    """R30: the ratings with the record of ``corrected.game_id`` replaced by ``corrected``."""
    return cascade((corrected if r.game_id == corrected.game_id else r for r in records), initial)


def promote_if_due(st: PlayerState, new: int, key: object) -> int | None:
    """R26 after a rating entry (a game, or a closed phase: ``registry.scoring.phase``) moved
    ``st`` to ``new``: when promotion is due, the next stratum at its base rating, the
    stratum's counts reset and the promotion noted under ``key``; the new stratum, or None."""
    if not is_promotion_due(st.stratum, st.stratum_games, st.stratum_wins, new):
        return None
    promoted_to = st.stratum + 1
    st.rating = promoted_base(st.stratum)
    st.stratum = promoted_to
    st.stratum_games = st.stratum_wins = st.exposure_sum = 0
    st.promotions.append((key, promoted_to))
    return promoted_to
