"""An archived game's stored figures (R30 recomputes read them) follow its tally: rewritten
whenever the tally is saved, untouched by a save of other fields (an annulment's status)."""

from __future__ import annotations

import pytest

from registry import figcache
from registry.models import RegistryGame
from tests.registry.helpers import I_WINS, O_WINS, add_game, example, make_player

pytestmark = pytest.mark.django_db


def test_figures_follow_the_tally_and_only_the_tally(body, monkeypatch):
    game = add_game(body, make_player("A", body=body), make_player("B", body=body), I_WINS,
                    rate=False)
    first = RegistryGame.objects.get(pk=game.pk).figures
    assert figcache.is_current(first)

    game.tally = example(O_WINS)[2]
    game.save(update_fields=["tally"])
    assert RegistryGame.objects.get(pk=game.pk).figures == game.figures != first

    def not_again(tally):
        raise AssertionError("figures recomputed for a save that leaves the tally")

    monkeypatch.setattr("registry.figcache.figures_json_of_tally", not_again)
    game.status = RegistryGame.ANNULLED
    game.save(update_fields=["status", "updated"])
    assert RegistryGame.objects.get(pk=game.pk).status == RegistryGame.ANNULLED
