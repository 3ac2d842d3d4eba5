"""``{{ user|player }}``: a player's name as pages show it, the computer marked as such."""

from __future__ import annotations

from django import template

from play.computer.account import is_computer

register = template.Library()


@register.filter
def player(user) -> str:
    name = user.get_username()
    return f"{name} (computer)" if is_computer(user) else name
