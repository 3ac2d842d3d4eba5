"""The Hettlandic phase-1 table (R44, R28, book 6.4.1.3.1): what players and arbiters see.

Per player every phase game with its NPc, Ec and APc (the same figures the phase's rating
entry uses, :func:`registry.scoring.phase.phase_figures`), the running victory score after
each game, and whether they stand at 115 or more so far; at the close, the co-champions (none,
one or several). Pure: no Django, no database.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from registry.scoring.cascade import RatedGame
from registry.scoring.phase import PhaseGameFigures, phase_figures
from registry.scoring.s3 import expectation_coefficient
from registry.scoring.victory import final_coefficient, is_champion, victory_score


@dataclass(frozen=True, slots=True)
class TableGame:
    """One line of a player's phase: a game with its figures, or a bye (no figures)."""

    round: int
    game_id: Hashable | None  # None for a bye
    opponent: Hashable | None
    side: str | None
    won: bool | None  # None: a bye or a null game (no coefficient, R12)
    npc: float | None
    ec: float | None
    apc: float | None
    running_score: int | None  # the victory score over the games up to this one (R28)
    #: a result that carries no coefficient, and why: :data:`UNPLAYED` or :data:`NO_RECORDS`
    uncounted: str | None = None

    @property
    def bye(self) -> bool:
        return self.game_id is None and self.uncounted is None


@dataclass(frozen=True, slots=True)
class TableRow:
    player: Hashable
    start_rating: int
    lines: tuple[TableGame, ...]
    games: int  # decided games (with a coefficient)
    wins: int
    final_coefficient: float | None
    victory_score: int | None

    @property
    def at_115(self) -> bool:
        """R28/R44: has the player a victory score of 115 or more so far."""
        return self.victory_score is not None and is_champion(self.victory_score)


#: why a line has no coefficient: an unplayed game (an absent player, R41: not rated), or a
#: played result the arbiter typed over the board without the game's records (NPc is computed
#: from the game's tally, R23, which only its records give; Ec needs the ratings alone), or an
#: annulled game (R30; R39: it leaves the event's standings as unplayed)
UNPLAYED, NO_RECORDS, ANNULLED = "unplayed", "no records", "annulled"
#: a pairing's result -> did `I` / `O` win (None: a null game)
WON = {"1-0": (True, False), "+-": (True, False), "0-1": (False, True), "-+": (False, True),
       "--": (False, False), "=": (None, None)}


@dataclass(frozen=True, slots=True)
class Uncounted:
    """A phase-1 pairing with a result but no coefficient (:data:`UNPLAYED`,
    :data:`NO_RECORDS`): shown in its players' lines, out of their victory scores."""

    round: int
    player_i: Hashable
    player_o: Hashable
    result: str
    why: str


@dataclass(frozen=True, slots=True)
class PhaseGame:
    """A played phase-1 game in its round (its figures in the cascade's ``RatedGame``)."""

    round: int
    game: RatedGame


def phase_table(
    start_ratings: Mapping[Hashable, int],
    games: Iterable[PhaseGame],
    byes: Mapping[int, Hashable] | None = None,
    uncounted: Iterable[Uncounted] = (),
) -> list[TableRow]:
    """The table: players by victory score (highest first; no score last), then start rating
    (higher first), then player id. ``byes`` maps a round to its bye player (R44);
    ``uncounted`` are the results without a coefficient, shown in their places."""
    played = sorted(games, key=lambda pg: (pg.round, str(pg.game.game_id)))
    figures = phase_figures([pg.game for pg in played], start_ratings)
    by_game: dict[tuple[Hashable, Hashable], PhaseGameFigures] = {
        (f.game_id, pid): f for pid, figs in figures.items() for f in figs
    }
    rows = []
    for pid, rating in start_ratings.items():
        # (round, 0 game / 1 bye, game, side) in the order the player met them
        events: list[tuple[int, int, RatedGame | None, str | None]] = [
            (pg.round, 0, pg.game, "I" if pg.game.player_i == pid else "O")
            for pg in played if pid in (pg.game.player_i, pg.game.player_o)
        ]
        events += [(rnd, 1, None, None) for rnd, bye in (byes or {}).items() if bye == pid]
        events += [(u.round, 2, u, "I" if u.player_i == pid else "O") for u in uncounted
                   if pid in (u.player_i, u.player_o)]
        events.sort(key=lambda e: (e[0], e[1]))
        lines: list[TableGame] = []
        apcs: list[float] = []
        wins = 0
        for rnd, _, game, side in events:
            if isinstance(game, Uncounted):
                lines.append(_uncounted_line(game, side, start_ratings, _score(apcs)))
                continue
            if game is None:  # a bye: no game, no score, no coefficient (R44)
                lines.append(TableGame(rnd, None, None, None, None, None, None, None,
                                       _score(apcs)))
                continue
            f = by_game.get((game.game_id, pid))
            opponent = game.player("O" if side == "I" else "I")
            if f is None:  # a null game: shown, without a coefficient (R12)
                lines.append(TableGame(rnd, game.game_id, opponent, side, None, None, None,
                                       None, _score(apcs)))
                continue
            apcs.append(f.apc)
            wins += f.won
            lines.append(TableGame(rnd, game.game_id, opponent, side, f.won, f.npc, f.ec,
                                   f.apc, _score(apcs)))
        rows.append(TableRow(pid, rating, tuple(lines), len(apcs), wins,
                             final_coefficient(apcs) if apcs else None, _score(apcs)))
    rows.sort(key=lambda r: (r.victory_score is None, -(r.victory_score or 0),
                             -r.start_rating, str(r.player)))
    return rows


def _uncounted_line(u: Uncounted, side: str, start: Mapping[Hashable, int],
                    running: int | None) -> TableGame:
    """A result without a coefficient: who won, and (a game without records) its Ec, which the
    ratings alone give (R23); no NPc, so no APc, and the victory score does not move."""
    own, opp = (u.player_i, u.player_o) if side == "I" else (u.player_o, u.player_i)
    won = None if u.why == ANNULLED else WON.get(u.result, (None, None))[0 if side == "I" else 1]
    ec = (float(expectation_coefficient(start[own], start[opp]))
          if u.why == NO_RECORDS and own in start and opp in start else None)
    return TableGame(u.round, f"{u.round}:{u.player_i}:{u.player_o}", opp, side, won, None,
                     ec, None, running, u.why)


def _score(apcs: Sequence[float]) -> int | None:
    """R28 over the games so far; None before the first decided game."""
    return victory_score(apcs) if apcs else None


def co_champions(table: Sequence[TableRow]) -> list[Hashable]:
    """R44: every player with a victory score of at least 115, best first (none is possible)."""
    return [row.player for row in table if row.at_115]
