"""The games the site plays and their variants: the one place game and variant names live.

Each game is a pure package with a ``GameRules`` (``play.games.protocol.rules``), run by the
match (``play.games.match.Match``). A variant is keyed by its game (``talu/standard``,
``tafl/11x11``); talu's variants are also known by their bare names (``standard``), as every
talu game and record has always named them (R3, R31). Adding a game is adding its ``Match``
to ``GAMES``, and its optional parts (``play.games.protocol.parts``: a computer opponent, a
review, lessons, a result in words, a demo game) to ``PARTS``; nothing on the server path
changes. The server path asks here by a game's key and imports no game package
(``tests/test_server_path.py``).
"""

from __future__ import annotations

from typing import Any

from play.games.match.match import Match
from play.games.protocol import ABORTED, GameOptions, Result, State, Variant
from play.games.protocol.parts import NO_PARTS, ComputerPlayer, GameParts
from play.games.tafl.parts import TABLUT_PARTS, TAFL_PARTS
from play.games.tafl.protocol import TABLUT, TAFL
from play.games.talat.parts import TALAT_PARTS
from play.games.talat.protocol import TalatRules
from play.games.talu.parts import PARTS as TALU_PARTS
from play.games.talu.protocol import RULES as TALU

TALAT = Match(TalatRules())
GAMES: dict[str, Match] = {m.name: m for m in (TALU, TAFL, TABLUT, TALAT)}
#: game key -> its optional parts (a game not named here has none).
PARTS: dict[str, GameParts] = {TALU.name: TALU_PARTS, TAFL.name: TAFL_PARTS,
                               TABLUT.name: TABLUT_PARTS, TALAT.name: TALAT_PARTS}
#: The game of the site's bare variant names, its rules page and its lessons.
DEFAULT_GAME = TALU.name

#: variant key -> the match that plays it, in the order players are offered them; talu's
#: bare names first (what its rows and records store).
VARIANTS: dict[str, Match] = {
    **{name: TALU for name in TALU.variants},
    **{v.key: m for m in GAMES.values() for v in m.variants.values()},
}
#: The variant names a talu game is created with (its rows, forms and records).
VARIANT_NAMES: tuple[str, ...] = tuple(TALU.variants)
DEFAULT_VARIANT = "standard"


def register(match: Match) -> None:
    """Add a game to the catalogue (its variants by key). The site's games are listed above;
    tests register a game of their own (``tests/match/tinygame.py``) and ``unregister`` it."""
    GAMES[match.name] = match
    for v in match.variants.values():
        VARIANTS[v.key] = match


def unregister(name: str) -> None:
    match = GAMES.pop(name)
    for v in match.variants.values():
        VARIANTS.pop(v.key, None)


def titles() -> dict[str, str]:
    """Every game's key -> its title, in the catalogue's order."""
    return {key: m.rules.title for key, m in GAMES.items()}


def variant_choices() -> list[tuple[str, str]]:
    """(value, label) pairs for forms: talu's variants by their names (as its games have
    always been asked for), every other game's by key, labelled with the game's title."""
    return [*((name, name) for name in VARIANT_NAMES),
            *((v.key, _titled(m.rules.title, v.title)) for key, m in GAMES.items()
              if key != TALU.name for v in m.variants.values())]


def _titled(game: str, variant: str) -> str:
    """"Tiny race · Duel"; a variant whose title names its game already as it is ("Tablut
    9x9", not "Tablut · Tablut 9x9")."""
    return variant if variant.startswith(game) else f"{game} · {variant}"


def full_title(variant: str) -> str:
    """A variant with its game's title, talu's too, for words outside the lists ("Talu ·
    Standard", "Tablut 9x9")."""
    match = rules_for(variant)
    return _titled(match.rules.title, match.variant(variant).title)


def two_seat_choices() -> list[tuple[str, str]]:
    """``variant_choices`` of the variants two players play: what a challenge, a pool or an
    event may be (a table of more seats is started otherwise)."""
    return [(v, label) for v, label in variant_choices() if len(variant_of(v).played) == 2]


def variant_label(variant: str) -> str:
    """A variant as the lists and pages name it: talu's by its bare name, as always
    ("standard"), another game's with the game's title ("Tablut · 9x9"); the key itself for
    an unknown one."""
    if variant.startswith(f"{DEFAULT_GAME}/"):
        variant = variant.split("/", 1)[1]
    return dict(variant_choices()).get(variant, variant)


def rules_for(variant: str) -> Match:
    """The match that plays ``variant``; ``KeyError`` naming the known ones."""
    try:
        return VARIANTS[variant]
    except KeyError:
        raise KeyError(f"unknown variant {variant!r} (known: {', '.join(VARIANTS)})") \
            from None


def variant_of(variant: str) -> Variant:
    """The ``Variant`` (seats, options, offers) named ``variant``."""
    return rules_for(variant).variant(variant)


def checked_options(variant: str, given: dict[str, Any]) -> dict[str, Any]:
    """``given`` options of a new game of ``variant``, checked against those the variant
    declares (``Variant.options``: each name with its default, whose type a value must have);
    ``ValueError`` in a player's words for any other."""
    spec = variant_of(variant)
    out: dict[str, Any] = {}
    for name, value in given.items():
        if name not in spec.options:
            known = ", ".join(spec.options) or "none"
            raise ValueError(f"{spec.title} has no option {name!r} (its options: {known})")
        default = spec.options[name]
        if type(value) is not type(default):
            raise ValueError(f"the option {name!r} is {type(default).__name__}, not {value!r}")
        out[name] = value
    return out


def option_words(name: str) -> str:
    """An option in a player's words, as the first game that has it says it (its parts'
    ``option_words``), else its name."""
    for match in GAMES.values():
        words = parts_of(match.name).option_words.get(name)
        if words:
            return words
    return name


def boolean_options() -> dict[str, list[str]]:
    """Every variant's on/off options by name -> the variant values that have it (the
    challenge form's checkboxes, each shown for its variants only)."""
    out: dict[str, list[str]] = {}
    for value, _ in variant_choices():
        for name, default in variant_of(value).options.items():
            if isinstance(default, bool):
                out.setdefault(name, []).append(value)
    return out


def rules_of(state: State) -> Match:
    return GAMES[state.game]


def new_state(variant: str, options: GameOptions | None = None) -> Any:
    return rules_for(variant).new_state(variant, options or GameOptions())


def parts_of(game: str) -> GameParts:
    """The optional parts of the game keyed ``game`` (none for a game without them)."""
    return PARTS.get(game, NO_PARTS)


def rating_variant(game: str, variant: str) -> str:
    """The variant name a rating of ``game``'s ``variant`` is kept under: the variant's own,
    or "" where the game rates across its variants (``GameParts.rated_by_variant``)."""
    return variant if parts_of(game).rated_by_variant else ""


def game_of(variant: str) -> str:
    """The key of the game that plays ``variant`` (a key or a talu bare name); ``KeyError``."""
    return rules_for(variant).name


def computer_for(variant: str) -> ComputerPlayer | None:
    """The computer opponent of ``variant``'s game, None when the game has none (the site
    offers "play the computer" only where there is one); ``KeyError`` for an unknown variant."""
    return parts_of(game_of(variant)).computer


def result_words(game: str, winner: str | None, reason: str, detail: str = "",
                 cause: str = "", ranks: dict[str, int] | None = None) -> str:
    """A stored game's result in a person's words, for the lists of games: the game's own
    words when it gives them (``GameParts.result_words``), else its rules' ``describe`` of the
    result as ranks."""
    own = parts_of(game).result_words
    if own is not None:
        return own(winner, reason, detail, cause)
    if reason == ABORTED:  # R37: no result at all
        return "aborted: no result"
    try:
        result = Result(ranks or ({winner: 1} if winner and winner != "-" else {}), reason,
                        detail, cause)
    except ValueError:  # ranks as stored that are not ranks: say why it ended, no more
        result = Result({}, reason, detail, cause)
    match = GAMES.get(game)
    if match is None:
        return reason or "finished"
    return match.rules.describe(result)


def seat_words(seat: str, variant: str = DEFAULT_VARIANT) -> str:
    """A seat's label for people ("light" for talu's ``I``), "nobody" for no such seat."""
    try:
        spec = variant_of(variant)
    except KeyError:
        return "nobody"
    return spec.label(seat) if seat in spec.seat_ids else "nobody"
