"""The optional parts a game package may give the site beside its rules (``play.games.protocol``).

A game is playable with its ``GameRules`` alone. Anything more the site offers for a game (a
computer opponent, a replay for review, lessons, its own words for a result in a list, a
sample game for the demo data) is one of these parts, which the catalogue
(``play.games.registry``: ``parts_of``, ``computer_for``) hands to the site by the game's key.
The server path asks the catalogue and never imports a game package
(``tests/test_server_path.py``): a game without a part simply is not offered it (no "play the
computer", no review, no lessons).

Pure, like the rules: the computer's ``think`` runs in a child process of the worker's pool
that never imports Django (``play.computer.think``), so every part is plain data in and out.
Parts are given the variant's *name* (the game's own word, ``standard``), never its key: a
part belongs to one game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

#: A stored event as the log keeps it: (kind, data).
StoredEvent = tuple[str, dict[str, Any]]


class ComputerPlayer(Protocol):
    """A game's computer opponent, as the worker plays it (``play.computer``).

    The worker replays (or holds) the game's *engine*, the game's own state (talu: its
    ``TaluGame``), which must pickle: the pool's processes get a pickled copy. ``think``
    answers with the moves of the computer's turn, sent one by one as ``PlayStep``s (so the
    board animates them), or a resignation."""

    #: The levels a person may choose, weakest first (talu: 1-8).
    levels: tuple[int, ...]
    #: Seconds of a clock the computer never thinks away (its moves' delivery, a busy machine).
    reserve: float

    def seconds(self, level: int) -> float:
        """The CPU seconds a turn at ``level`` may think, untimed (the pool's cost of it);
        ``ValueError`` in words for a level the game does not have."""
        ...

    def wall_seconds(self, thinking: float, left: float | None = None,
                     reserve: float | None = None) -> float:
        """The real seconds a search thinking ``thinking`` CPU seconds may take at most, on a
        clock with ``left`` seconds never more than a share of them (R36)."""
        ...

    def turn_moves(self, variant: str) -> int:
        """The most moves one turn of ``variant`` sends (what the animation's pauses cost)."""
        ...

    def replay(self, variant: str, events: Iterable[StoredEvent]) -> Any:
        """The engine of a game of ``variant`` after its stored ``events`` (R40)."""
        ...

    def think(self, engine: Any, level: int, *, seconds: float | None = None,
              seed: int | None = None, deadline: int | None = None, increment: float = 0.0,
              reserve: float | None = None, nodes: int | None = None) -> dict[str, Any]:
        """The computer's turn for the seat to act in ``engine`` (not changed): ``steps``
        (the moves in the wire's form, in order), ``resign``, ``side`` (the seat), and what
        the search spent (``nodes``, ``seconds``, ``cpu``, ``wall``, ``score``). No moves
        and ``side`` None when the game is over. ``seconds`` overrides the level's CPU
        seconds; on a clock ``deadline`` (ms since the epoch) is when the computer's time
        runs out, ``increment`` what a turn gives back; ``nodes`` a smaller budget."""
        ...


@dataclass(frozen=True)
class Lessons:
    """A game's interactive lessons: ``items`` in order (each with at least ``slug`` and
    ``title``; the lesson templates read the rest), ``attempt(lesson, moves)`` the learner's
    moves checked by the rules (the JSON the lesson's script reads; nothing is stored) and
    ``initial(lesson)`` what the lesson's page starts from."""

    items: tuple[Any, ...]
    attempt: Callable[[Any, list[Any]], dict[str, Any]]
    initial: Callable[[Any], dict[str, Any]]

    def by_slug(self, slug: str) -> Any | None:
        return next((lesson for lesson in self.items if lesson.slug == slug), None)


@dataclass(frozen=True)
class Demo:
    """A sample game for the demo data (``manage.py demo_data``): its ``variant`` key, the
    ``moves`` (seat, move) in order as its players send them (a function: read only when
    played), and the result ``reason`` it ends with (how the command knows it played it)."""

    variant: str
    moves: Callable[[], list[tuple[str, Any]]]
    reason: str


#: A result in a person's words for a list of games: (winner, reason, detail, cause) -> words.
ResultWords = Callable[[str | None, str, str, str], str]
#: A game's review: (variant name, the stored events everyone may see, the game's options)
#: -> the review's JSON (options change the rules: tafl's immunity, T6).
Review = Callable[[str, Iterable[StoredEvent], Mapping[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class GameParts:
    """The optional parts of one game; None where the game gives none."""

    computer: ComputerPlayer | None = None
    result_words: ResultWords | None = None
    review: Review | None = None
    lessons: Lessons | None = None
    demo: Demo | None = None
    #: Whether each variant keeps its own rating (Talat's three-seat and two-seat games, A9)
    #: or the game keeps one rating across its variants (tafl on every board, issue 42).
    rated_by_variant: bool = True
    #: The browser renderer that draws the game (``static/games/<renderer>.js``, and the game
    #: page's own controls ``templates/games/<renderer>/controls.html``); "" for the game's
    #: key. Tablut is drawn by tafl's.
    renderer: str = ""
    #: The name of the game's notation, as the move list's heading says it ("STGN", "OTN").
    notation: str = ""
    #: The game's options in a player's words, by name (the challenge form's labels).
    option_words: Mapping[str, str] = field(default_factory=dict)
    #: A rated game counts for ratings only if every played seat made a move of its own
    #: (Talat, A9: "a seat that never moved" leaves the game unrated).
    rated_if_every_seat_moved: bool = False


NO_PARTS = GameParts()
