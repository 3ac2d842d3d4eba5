"""Hettlandic phase-1 ratings as entries of the R30 list (R44, R45, book 6.4.1.3.1).

During phase 1 nothing moves: every phase game is scored by S3 for both players (R44) with Ec
from both players' ratings *at the start of the phase* (R45). When the arbiter closes the
phase, each participant's rating becomes round-half-up(old x final coefficient), the final
coefficient being the geometric mean of their phase APc (R28's victory score before rounding).

In the chronological list of R30 a phase is two entries:

* :class:`PhaseStart` where the phase opened: it only notes the participants' ratings there
  (their Ec ratings), so that annulling or correcting an earlier game moves them too, as R30
  wants of every rating;
* :class:`RatedPhase` where it closed: the one entry that changes ratings, counts every
  phase game as a rated decided game of the player's current stratum (R26) and checks
  promotion after the update.

Pure: :func:`replay` is :func:`registry.scoring.cascade.cascade` over a list that may hold
phases; the ledger calls :func:`apply_entry` per entry.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field

from registry.scoring.cascade import (
    CascadeResult,
    GameChange,
    PlayerState,
    RatedGame,
    apply_game,
    promote_if_due,
)
from registry.scoring.s3 import adjusted_performance, expectation_coefficient
from registry.scoring.strata import promoted_base
from registry.scoring.victory import final_coefficient, tournament_rating, victory_score


@dataclass(frozen=True, slots=True)
class PhaseGameFigures:
    """One side of one phase game: the three S3 figures of the phase table (R23, R45)."""

    game_id: Hashable
    side: str
    opponent: Hashable
    own_rating: int  # at the start of the phase
    opponent_rating: int  # at the start of the phase
    won: bool
    npc: float
    ec: float
    apc: float


def side_figures(game: RatedGame, side: str, start: Mapping[Hashable, int]) -> PhaseGameFigures:
    """NPc, Ec and APc of ``side`` of a decided phase game, Ec from the phase's start ratings."""
    opp = "O" if side == "I" else "I"
    own_rating = start[game.player(side)]
    opp_rating = start[game.player(opp)]
    npc = game.figures.sides[side].npc
    if npc is None:
        raise ValueError(f"game {game.game_id} has no winner: it has no coefficient (R12)")
    ec = float(expectation_coefficient(own_rating, opp_rating))
    return PhaseGameFigures(
        game.game_id, side, game.player(opp), own_rating, opp_rating,
        game.figures.winner == side, npc, ec, float(adjusted_performance(npc, ec)),
    )  # fmt: skip


def phase_figures(
    games: Iterable[RatedGame], start: Mapping[Hashable, int]
) -> dict[Hashable, list[PhaseGameFigures]]:
    """Every participant's decided phase games, in the order given (null games have no
    coefficient and count for nothing, R12)."""
    out: dict[Hashable, list[PhaseGameFigures]] = {}
    for game in games:
        if game.figures.winner is None:
            continue
        for side in ("I", "O"):
            out.setdefault(game.player(side), []).append(side_figures(game, side, start))
    return out


@dataclass(frozen=True, slots=True, eq=False)
class PhaseStart:
    """The phase's opening in the list: the ratings of ``players`` here are its Ec ratings."""

    phase_id: Hashable
    players: tuple[Hashable, ...]


@dataclass(frozen=True, slots=True, eq=False)
class RatedPhase:
    """The phase's closing in the list: its games (chronological), rated as one entry."""

    phase_id: Hashable
    games: tuple[RatedGame, ...]

    @property
    def players(self) -> tuple[Hashable, ...]:
        seen: dict[Hashable, None] = {}
        for g in self.games:
            seen.setdefault(g.player_i)
            seen.setdefault(g.player_o)
        return tuple(seen)


@dataclass(frozen=True, slots=True)
class PhaseSide:
    """What the phase did to one participant."""

    player: Hashable
    stratum: int  # at the closing, before any promotion
    old: int  # rating at the closing
    new: int  # old x final coefficient, rounded half up (R24, R45)
    start_rating: int  # at the opening: the Ec rating
    final_coefficient: float
    victory_score: int
    games: tuple[PhaseGameFigures, ...]
    wins: int
    promoted_to: int | None = None

    @property
    def rating_after(self) -> int:
        return self.new if self.promoted_to is None else promoted_base(self.promoted_to - 1)


@dataclass(frozen=True, slots=True)
class PhaseChange:
    phase_id: Hashable
    sides: dict[Hashable, PhaseSide] = field(default_factory=dict)


def apply_phase(
    players: dict[Hashable, PlayerState],
    phase: RatedPhase,
    start: Mapping[Hashable, int] | None = None,
) -> PhaseChange:
    """Close ``phase``: update every participant in place by their final coefficient (R45).

    ``start`` holds the ratings at the phase's opening (from its :class:`PhaseStart`); without
    it the ratings at the closing are used (nothing moved in between). Each decided phase game
    counts for R26 and R29 as any rated game; promotion is checked once, after the update.
    """
    for pid in phase.players:
        if pid not in players:
            players[pid] = PlayerState(pid)
    start = {pid: (start or {}).get(pid, players[pid].rating) for pid in phase.players}
    figures = phase_figures(phase.games, start)
    reasons = {g.game_id: g.figures.reason for g in phase.games}
    sides: dict[Hashable, PhaseSide] = {}
    for pid, games in figures.items():
        st = players[pid]
        apcs = [g.apc for g in games]
        old = st.rating
        new = tournament_rating(old, apcs)
        wins = sum(g.won for g in games)
        st.rating = new
        st.games += len(games)
        st.wins += wins
        st.stratum_games += len(games)
        st.stratum_wins += wins
        st.exposure_sum += sum(g.opponent_rating - g.own_rating for g in games)
        for g in games:
            if g.won and reasons[g.game_id] == "elimination":
                st.elimination_wins += 1
            elif g.won and reasons[g.game_id] == "invasion":
                st.invasion_wins += 1
            st.recent_npc.append(g.npc)
        at_close = st.stratum
        promoted_to = promote_if_due(st, new, phase.phase_id)
        sides[pid] = PhaseSide(
            pid, at_close, old, new, start[pid], final_coefficient(apcs), victory_score(apcs),
            tuple(games), wins, promoted_to,
        )  # fmt: skip
    return PhaseChange(phase.phase_id, sides)


Entry = RatedGame | PhaseStart | RatedPhase


def apply_entry(
    players: dict[Hashable, PlayerState],
    entry: Entry,
    starts: dict[Hashable, dict[Hashable, int]],
) -> GameChange | PhaseChange | None:
    """One entry of the R30 list: a game, a phase's opening (notes ratings in ``starts``, no
    change) or a phase's closing."""
    if isinstance(entry, PhaseStart):
        starts[entry.phase_id] = {
            pid: players[pid].rating if pid in players else PlayerState(pid).rating
            for pid in entry.players
        }
        return None
    if isinstance(entry, RatedPhase):
        return apply_phase(players, entry, starts.pop(entry.phase_id, None))
    return apply_game(players, entry)


def replay(
    entries: Iterable[Entry], initial: Mapping[Hashable, PlayerState] | None = None
) -> CascadeResult:
    """R30 over a list with phases: every game and phase closing, in order, from ``initial``.

    ``changes`` holds a :class:`GameChange` per game and a :class:`PhaseChange` per phase.
    """
    players = {pid: state.copy() for pid, state in (initial or {}).items()}
    starts: dict[Hashable, dict[Hashable, int]] = {}
    changes = []
    for entry in entries:
        change = apply_entry(players, entry, starts)
        if change is not None:
            changes.append(change)
    return CascadeResult(changes, players)  # type: ignore[arg-type]
