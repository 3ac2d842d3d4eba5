"""Admin pages open, and the ledger's rows are read-only there (R30: no hand edit can put the
ratings out of step with the cascade)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.registry.helpers import add_game

pytestmark = pytest.mark.django_db


def test_admin_pages(admin_client, body, otb_players):
    game = add_game(body, *otb_players)
    for model in ("player", "affiliatedbody", "bodytoken", "bodykey", "registrygame",
                  "ratingchange", "stratumrecord", "gamerecord", "auditentry"):
        assert admin_client.get(reverse(f"admin:registry_{model}_changelist")).status_code == 200
    url = reverse("admin:registry_registrygame_change", args=[game.pk])
    assert admin_client.get(url).status_code == 200  # a view page
    assert admin_client.post(url, {"status": "annulled"}).status_code == 403
    game.refresh_from_db()
    assert game.status == "finished"
    player = otb_players[0]
    page = admin_client.get(reverse("admin:registry_player_change", args=[player.pk]))
    assert page.status_code == 200 and 'name="rating"' not in page.content.decode()
