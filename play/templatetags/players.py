"""``{{ user|player }}``: a player's name as pages show it, the computer marked as such."""

from __future__ import annotations

from django import template

from play.computer.account import COMPUTER_NAME, is_computer

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
def computer_account(user) -> bool:
    """Whether ``user`` (possibly None) is the computer's account."""
    return user is not None and is_computer(user)
