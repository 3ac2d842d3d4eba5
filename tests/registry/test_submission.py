"""An over-the-board game submitted by its body is verified, archived and rated (book 5.3.4)
exactly as the scoring core rates its tally (R25 SX, R30)."""

from __future__ import annotations

import uuid

import pytest

from registry.ledger import tally_from_json
from registry.models import AuditEntry, GameRecord, RatingChange, RegistryGame
from registry.records.yamlio import load_yaml
from registry.scoring.cascade import RatedGame, cascade
from registry.submission import submit_game
from tests.registry.helpers import I_WINS, T0, example, records

pytestmark = pytest.mark.django_db


def test_accepted_game_is_archived_with_its_records(body, body_keys, otb_players):
    stge, stses = records(body_keys.signer(), otb_players, I_WINS, splits=(20,))
    game = submit_game(body, stge, stses)
    assert game.source == "submitted" and game.status == "finished"
    assert (game.winner, game.reason, game.rounds) == ("I", "invasion", 26)
    assert str(game.game_id) == load_yaml(stge)["game"]["id"]
    # played_at: the start of the last session (the second, one day after the first)
    assert game.played_at == T0.replace(day=2)
    kinds = sorted((r.kind, r.session) for r in game.records.all())
    assert kinds == [("STDGS", 0), ("STGE", 0), ("STGN", 0), ("STSE", 1), ("STSE", 2)]
    assert game.records.get(kind=GameRecord.STGN).content.splitlines()[-1] == "!: I"
    audit = AuditEntry.objects.get(game=game)
    assert audit.action == "submit" and audit.actor_body == body


def test_accepted_game_is_rated_like_the_scoring_core(body, body_keys, otb_players):
    pi, po = otb_players
    stge, stses = records(body_keys.signer(), otb_players, I_WINS)
    game = submit_game(body, stge, stses)
    expected = cascade([RatedGame.from_tally("g", "I", "O",
                                               tally_from_json(example(I_WINS)[2]))])
    changes = {rc.side: rc for rc in RatingChange.objects.filter(game=game)}
    for side, player in (("I", pi), ("O", po)):
        want = expected.changes[0].sides[side]
        rc = changes[side]
        player.refresh_from_db()
        assert (rc.player_id, rc.model, rc.old_rating, rc.new_rating) == (
            player.pk, "S1", 250, want.new)
        assert player.rating == want.new == rc.rating_after
        assert rc.figures["points"] == want.points and rc.figures["state"]["games"] == 1
    pi.refresh_from_db()
    assert (pi.games, pi.wins, pi.invasion_wins, pi.stratum_games) == (1, 1, 1, 1)


def test_body_scoring_model_is_used(body, body_keys, otb_players):
    body.stratum, body.scoring_model = 2, "S2"
    body.save()
    stge, stses = records(body_keys.signer(), otb_players, I_WINS)
    game = submit_game(body, stge, stses)
    assert set(RatingChange.objects.filter(game=game).values_list("model", flat=True)) == {"S2"}


def test_submission_dated_in_the_past_cascades(body, body_keys, otb_players):
    """A game played before games already rated is slotted in by date (R30)."""
    stge, stses = records(body_keys.signer(), otb_players, I_WINS, start=T0)
    later = submit_game(body, stge, stses)
    stge2, stses2 = records(body_keys.signer(), otb_players, I_WINS,
                            start=T0.replace(month=2), game_id=str(uuid.uuid4()))
    earlier = submit_game(body, stge2, stses2)
    first = RatingChange.objects.get(game=earlier, side="I")
    second = RatingChange.objects.get(game=later, side="I")
    assert first.old_rating == 250 and second.old_rating == first.rating_after
    assert RegistryGame.objects.count() == 2
