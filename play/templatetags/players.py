"""``{{ user|player }}``: a player's name as pages show it, the computer marked as such."""

from __future__ import annotations

from django import template

from play.computer.account import COMPUTER_NAME, is_computer
from play.games.registry import DEFAULT_GAME, variant_label
from play.games.registry import seat_words as registry_seat_words

register = template.Library()


@register.filter
def player(user) -> str:
    name = user.get_username()
    if not is_computer(user):
        return name
    return "computer opponent" if name == COMPUTER_NAME else f"{name} (computer opponent)"


@register.filter
def versus(game, labelled: str = "") -> str:
    """The game's players as its page's title says them: "ana vs ben" ("ana vs ben vs cyd"
    at a table of three); ``game|versus:"labelled"`` adds each seat's label ("ana (light) vs
    ben (dark)")."""
    from play.games.registry import variant_of

    variant = variant_of(game.variant_key)
    return " vs ".join(player(user) + (f" ({variant.label(seat)})" if labelled else "")
                       for seat, user in game.holders())


@register.filter
def variant_words(obj) -> str:
    """A game's or a challenge's variant as lists name it ("standard"; "Tablut · 9x9")."""
    game = getattr(obj, "game_key", None) or getattr(obj, "game", None) or DEFAULT_GAME
    options = [k for k, v in (getattr(obj, "options", None) or {}).items() if v is True]
    return " · ".join([variant_label(f"{game}/{obj.variant}"), *sorted(options)])


@register.filter
def seat_words(game, seat: str) -> str:
    """``seat`` of ``game`` as its variant labels it ("light"; "attackers")."""
    return registry_seat_words(seat, game.variant_key)


@register.filter
def computer_account(user) -> bool:
    """Whether ``user`` (possibly None) is the computer's account."""
    return user is not None and is_computer(user)
