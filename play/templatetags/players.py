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
def computer_account(user) -> bool:
    """Whether ``user`` (possibly None) is the computer's account."""
    return user is not None and is_computer(user)
