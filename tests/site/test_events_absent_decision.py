"""An absent player's online event game decided by the arbiter (R41) ends on the site too
(issue 38's walk-through: it stayed live, in an untimed event for good, even after the event
was closed). The absent side forfeits through the arbiter's own action (R39, audited); both
absent, a null game; the event's result stays the arbiter's and the game is not rated."""

from __future__ import annotations

import pytest

from play.models import Game
from play.worker.loop import run_due
from registry.events import rounds, services
from registry.events.models import Pairing
from registry.models import AffiliatedBody, AuditEntry, RegistryGame

pytestmark = pytest.mark.django_db


def _round(make_user, tag: str):
    arbiter = make_user(f"ab-arb-{tag}")
    body = AffiliatedBody.objects.create(registrar_id=f"AB-{tag}", name=f"Absent club {tag}")
    body.registrars.add(arbiter)
    event = services.create_event(arbiter, body, name="Absent night", rounds=1, venue="online",
                                  rated=True)
    for n in ("ann", "ben"):
        services.register(make_user(f"ab-{n}-{tag}"), event)
    rounds.pair_round(arbiter, event)
    rounds.start_round(arbiter, event)
    return arbiter, event, Pairing.objects.get(round__event=event, black__isnull=False)


@pytest.mark.parametrize("result, winner", [("+-", "I"), ("-+", "O"), ("--", "-")])
def test_the_decision_ends_the_live_game(make_user, result, winner,
                                         django_capture_on_commit_callbacks):
    arbiter, event, pairing = _round(make_user, result.replace("+", "p").replace("-", "m"))
    game = pairing.game
    assert game.is_live
    with django_capture_on_commit_callbacks(execute=True):
        services.set_result(arbiter, event, pairing.pk, result, note="absent")
    game.refresh_from_db()
    assert game.status == Game.FINISHED and game.winner == winner
    assert AuditEntry.objects.filter(actor_user=arbiter).exists()  # the arbiter's action
    run_due()  # the archive and the event's subscriber
    pairing.refresh_from_db()
    assert (pairing.result, pairing.decided_by) == (result, "arbiter")
    assert not RegistryGame.objects.get(live=game).rated  # R41: unplayed, not rated
