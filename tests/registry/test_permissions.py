"""Who may do what: a body submits only its own records; staff, the game's body and that
body's registrars may annul or correct; a player (even of that game) may not."""

from __future__ import annotations

import pytest

from registry.access import can_manage
from registry.models import RegistryGame
from registry.submission import SubmissionRejected, submit_game
from tests.registry.conftest import PECS
from tests.registry.helpers import add_game, records

pytestmark = pytest.mark.django_db


def test_a_body_cannot_submit_another_bodys_records(body, other_body, body_keys, otb_players):
    stge, stses = records(body_keys.signer("pecs", registrar_id=PECS), otb_players)
    with pytest.raises(SubmissionRejected) as err:
        submit_game(body, stge, stses)
    reasons = err.value.reasons
    assert any("not for the submitting body GTF-HU-SZEGED-01" in r for r in reasons)
    assert any("signature" in r for r in reasons)  # and Pécs' key is not Szeged's
    assert not RegistryGame.objects.exists()
    submit_game(other_body, stge, stses)  # the records' own body may
    assert RegistryGame.objects.get().body == other_body


def test_own_key_claiming_another_registrar_is_refused(body, body_keys, otb_players):
    stge, stses = records(body_keys.signer("szeged", registrar_id=PECS), otb_players)
    with pytest.raises(SubmissionRejected) as err:
        submit_game(body, stge, stses)
    assert any("not for the submitting body" in r for r in err.value.reasons)


def test_who_can_manage_a_game(body, other_body, otb_players, make_user, django_user_model):
    staff = django_user_model.objects.create_user("staff", password="x", is_staff=True)
    registrar, foreign, player = make_user("reg"), make_user("foreign"), make_user("player")
    body.registrars.add(registrar)
    other_body.registrars.add(foreign)
    game = add_game(body, player.player, otb_players[1])  # the account's registered player
    assert can_manage(game, user=staff)
    assert can_manage(game, user=registrar)
    assert can_manage(game, body=body)
    assert not can_manage(game, body=other_body)
    assert not can_manage(game, user=foreign)
    assert not can_manage(game, user=player)  # a player of the game cannot annul it
    assert not can_manage(game)
