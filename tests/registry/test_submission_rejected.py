"""Every tampered or illegal submission is rejected with every reason, and changes nothing:
no game, no record, no rating, no audit entry (book 5.3.4, R31-R33)."""

from __future__ import annotations

import copy
import uuid

import pytest

from registry.models import AuditEntry, GameRecord, Player, RatingChange, RegistryGame
from registry.records import builders
from registry.records.yamlio import dump_yaml, load_yaml
from registry.submission import SubmissionRejected, submit_game
from tests.registry.helpers import UNFINISHED, add_game, records

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated_before(body, otb_players):
    """One game already rated, so 'no change' is checked against real ratings."""
    pi, po = otb_players
    add_game(body, pi, po)
    return {p.pk: (p.rating, p.games) for p in Player.objects.all()}


def assert_rejected(body, stge, stses, *expected: str) -> list[str]:
    games, recs, changes, audit = (RegistryGame.objects.count(), GameRecord.objects.count(),
                                   RatingChange.objects.count(), AuditEntry.objects.count())
    with pytest.raises(SubmissionRejected) as err:
        submit_game(body, stge, stses)
    reasons = err.value.reasons
    for text in expected:
        assert any(text in r for r in reasons), (text, reasons)
    assert (RegistryGame.objects.count(), GameRecord.objects.count(),
            RatingChange.objects.count(), AuditEntry.objects.count()) == (games, recs, changes,
                                                                         audit)
    return reasons


def resealed(text: str, change, signer) -> str:
    """A session entry changed and sealed again (valid hash and signature, new content)."""
    doc = load_yaml(text)
    change(doc)
    doc["session"].pop("tail")
    return dump_yaml(builders.seal(doc, body=signer))


def no_change(rated_before):
    assert {p.pk: (p.rating, p.games) for p in Player.objects.all()} == rated_before


def test_edited_after_hashing(body, body_keys, otb_players, rated_before):
    stge, stses = records(body_keys.signer(), otb_players, splits=(20,))
    doc = load_yaml(stses[1])
    doc["session"]["start"]["place"] = "Budapest"
    assert_rejected(body, stge, [stses[0], dump_yaml(doc)], "hash: does not match the content")
    no_change(rated_before)


def test_signed_by_another_key(body, body_keys, otb_players, rated_before):
    stge, stses = records(body_keys.signer("stranger"), otb_players)
    reasons = assert_rejected(body, stge, stses, "signature")
    assert len(reasons) >= 2  # the game entry and the session entry, both reported
    no_change(rated_before)


def test_illegal_notation(body, body_keys, otb_players, rated_before):
    stge, stses = records(body_keys.signer(), otb_players, splits=(20,))

    def swap(doc):
        turns = doc["session"]["turns"]
        turns[0], turns[1] = turns[1], turns[0]

    bad = resealed(stses[1], swap, body_keys.signer())
    assert_rejected(body, stge, [stses[0], bad], "session")
    no_change(rated_before)


def test_missing_session(body, body_keys, otb_players, rated_before):
    stge, stses = records(body_keys.signer(), otb_players, splits=(10, 20))
    assert_rejected(body, stge, [stses[0], stses[2]], "session 2 is missing")
    no_change(rated_before)


def test_session_of_another_game(body, body_keys, otb_players, rated_before):
    stge, stses = records(body_keys.signer(), otb_players, splits=(20,))
    _, others = records(body_keys.signer(), otb_players, splits=(20,))
    assert_rejected(body, stge, [stses[0], others[1]], "previous_hash")
    no_change(rated_before)


def test_unregistered_players_same_player_and_duplicates_all_reported(
        body, body_keys, otb_players, rated_before):
    ghost = Player(display_name="Ghost", player_id="GHOST0000000000000")  # never saved
    stge, stses = records(body_keys.signer(), (ghost, ghost))
    reasons = assert_rejected(body, stge, stses, "'GHOST0000000000000' is not a registered",
                              "the same player cannot play both sides")
    assert len(reasons) == 3  # I and O unregistered, and the same player twice
    game_id = str(uuid.uuid4())
    stge, stses = records(body_keys.signer(), otb_players, game_id=game_id)
    submit_game(body, stge, stses)
    again = Player.objects.get(pk=otb_players[0].pk).rating
    assert_rejected(body, stge, stses, f"game {game_id} is already in the registry")
    assert Player.objects.get(pk=otb_players[0].pk).rating == again


def test_unfinished_game(body, body_keys, otb_players, rated_before):
    stge, stses = records(body_keys.signer(), otb_players, UNFINISHED)
    assert_rejected(body, stge, stses, "not finished")
    no_change(rated_before)


@pytest.mark.parametrize("stge, stses, reason", [
    ("", ["x: 1"], "game entry: empty"),
    ("meta: [unclosed", ["a"], "game entry"),
    ("meta: {}", [], "no session entry"),
])
def test_garbage(body, stge, stses, reason, rated_before):
    assert_rejected(body, stge, stses, reason)
    no_change(rated_before)


def test_wrong_document_kinds(body, body_keys, otb_players, rated_before):
    stge, stses = records(body_keys.signer(), otb_players)
    assert_rejected(body, stses[0], [stge], "expected a game entry")
    no_change(rated_before)


def test_body_without_key(body, body_keys, otb_players):
    stge, stses = records(body_keys.signer(), otb_players)
    body.public_key = ""
    body.save()
    assert_rejected(body, stge, stses, "no public key on file")


def test_player_signature_must_verify_too(body, body_keys, otb_players, rated_before):
    """A player's signature, when present, is checked as well (R33)."""
    stge, stses = records(body_keys.signer(), otb_players)
    doc = builders.add_signature(load_yaml(stses[0]), "player_I", body_keys.signer("stranger"))
    assert_rejected(body, stge, [dump_yaml(doc)], "signature")
    no_change(rated_before)


def test_nothing_half_written_when_rating_fails(body, body_keys, otb_players, monkeypatch):
    stge, stses = records(body_keys.signer(), otb_players)

    def boom(game):
        raise RuntimeError("ledger down")

    monkeypatch.setattr("registry.submission.rate_finished_game", boom)
    with pytest.raises(RuntimeError):
        submit_game(body, stge, copy.copy(stses))
    assert RegistryGame.objects.count() == 0 and GameRecord.objects.count() == 0
