"""Correcting a game: a new set of session entries for the same game entry, verified like a
submission; the old records are kept (superseded) and ratings are recomputed (R30)."""

from __future__ import annotations

import pytest

from registry.corrections import correct_game
from registry.models import AuditEntry, GameRecord, Player, RatingChange
from registry.submission import SubmissionRejected, submit_game
from tests.registry.helpers import (
    I_WINS,
    O_WINS,
    T0,
    add_game,
    expected_ratings,
    hours,
    records,
    sessions_for,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def submitted(body, body_keys, otb_players):
    stge, stses = records(body_keys.signer(), otb_players, I_WINS, splits=(20,))
    return submit_game(body, stge, stses), stge


def test_correction_changes_result_and_ratings(body, body_keys, otb_players, submitted,
                                               admin_user):
    game, stge = submitted
    pi, po = otb_players
    later = add_game(body, pi, po, I_WINS, at=T0 + hours(48))
    fixed = sessions_for(stge, body_keys.signer(), O_WINS, start=T0)
    summary = correct_game(game, fixed, reason="the arbiter's sheet: O won",
                           actor_user=admin_user)
    game.refresh_from_db()
    assert (game.winner, game.revision, game.played_at) == ("O", 1, T0)
    assert summary.games_rerated == 2
    assert {p.pk: p.rating for p in Player.objects.all()} == expected_ratings([game, later])
    assert RatingChange.objects.get(game=game, player=po).won
    # the old records stay, superseded; the game entry is the same one
    assert game.records.filter(superseded=True, kind=GameRecord.STSE).count() == 2
    current = game.records.filter(superseded=False)
    assert sorted(current.values_list("kind", "revision")) == [
        ("STDGS", 1), ("STGE", 0), ("STGN", 1), ("STSE", 1)]
    assert current.get(kind="STGN").content.splitlines()[-1] == "!: O"
    audit = AuditEntry.objects.get(action="correct")
    assert audit.before["winner"] == "I" and audit.after["winner"] == "O"
    assert audit.before["revision"] == 0 and audit.after["revision"] == 1


def test_bad_correction_changes_nothing(body, body_keys, otb_players, submitted):
    game, stge = submitted
    before = ({p.pk: p.rating for p in Player.objects.all()}, GameRecord.objects.count())
    stranger = sessions_for(stge, body_keys.signer("stranger"), O_WINS)
    with pytest.raises(SubmissionRejected) as err:
        correct_game(game, stranger, reason="x")
    assert any("signature" in r for r in err.value.reasons)
    _, other_stses = records(body_keys.signer(), otb_players, O_WINS)  # another game's chain
    with pytest.raises(SubmissionRejected):
        correct_game(game, other_stses, reason="x")
    with pytest.raises(SubmissionRejected, match="reason"):
        correct_game(game, sessions_for(stge, body_keys.signer(), O_WINS), reason="")
    game.refresh_from_db()
    assert (game.winner, game.revision) == ("I", 0)
    assert ({p.pk: p.rating for p in Player.objects.all()},
            GameRecord.objects.count()) == before
    assert not AuditEntry.objects.filter(action="correct").exists()


def test_correction_moving_a_game_earlier_cascades(body, body_keys, otb_players, submitted):
    game, stge = submitted  # played on day 2 (its second session)
    pi, po = otb_players
    first = add_game(body, pi, po, O_WINS, at=T0 + hours(1))
    fixed = sessions_for(stge, body_keys.signer(), I_WINS, start=T0)  # one session, day 1 10:00
    correct_game(game, fixed, reason="session dates")
    game.refresh_from_db()
    assert game.played_at == T0
    assert {p.pk: p.rating for p in Player.objects.all()} == expected_ratings([game, first])
    assert RatingChange.objects.get(game=game, player=pi).old_rating == 250
