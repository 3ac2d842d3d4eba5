"""Who may annul or correct a game: staff, the body that hosted or submitted it (through its
token), or a registrar user of that body. A player, as a player, cannot (book 5.3.4: records
are the registry's and the bodies')."""

from __future__ import annotations

from registry.models import AffiliatedBody, RegistryGame


def can_manage(game: RegistryGame, *, user=None, body: AffiliatedBody | None = None) -> bool:
    if body is not None and body.pk == game.body_id:
        return True
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    if user.is_staff:
        return True
    return user.registrar_of.filter(pk=game.body_id).exists()
