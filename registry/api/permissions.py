"""Who may write: an affiliated body (its token), a staff member, or a body's registrar.

Reads are public. Whether a writer may touch a *particular* game is
``registry.access.can_manage``'s decision (object permission), so the rule lives in one place
for the API, the admin and the commands alike.
"""

from __future__ import annotations

from rest_framework import permissions

from registry.access import can_manage
from registry.api.auth import body_of


def is_writer(request) -> bool:
    """A body token, or a logged-in staff member or registrar of some body."""
    if body_of(request) is not None:
        return True
    user = request.user
    if not (user and user.is_authenticated):
        return False
    return bool(user.is_staff or user.registrar_of.exists())


class ReadOrWriter(permissions.BasePermission):
    """Safe methods for everyone; other methods for writers (see :func:`is_writer`)."""

    message = "Writing needs an affiliated body's token, or a staff or registrar login."

    def has_permission(self, request, view) -> bool:
        return request.method in permissions.SAFE_METHODS or is_writer(request)


class BodyTokenOnly(permissions.BasePermission):
    """Writes that act *as* a body (e.g. registering a player): a token is required."""

    message = "This needs an affiliated body's token (Authorization: Token <key>)."

    def has_permission(self, request, view) -> bool:
        return request.method in permissions.SAFE_METHODS or body_of(request) is not None


class CanManageGame(permissions.BasePermission):
    """Annulling or correcting a game: its body's token, its body's registrar, or staff."""

    message = "Only the game's affiliated body, its registrars or staff may change this game."

    def has_object_permission(self, request, view, obj) -> bool:
        user = request.user if request.user and request.user.is_authenticated else None
        return can_manage(obj, user=user, body=body_of(request))
