"""Live games are rated through the ledger, so a full recompute (R30) finds nothing to change;
and a live game is rated the same way as a submitted one."""

from __future__ import annotations

import pytest

from play.lifecycle import start_game
from registry.ledger import recompute_all
from registry.models import Player, RatingChange, RegistryGame
from tests.registry.helpers import expected_ratings
from tests.site.gameplay import FORFEIT_BY_I, NULL_GAME, play_line

pytestmark = pytest.mark.django_db


def test_live_games_equal_recompute(players):
    alice, bob, carol = players
    for a, b in ((alice, bob), (bob, carol), (carol, alice), (alice, bob)):
        play_line(start_game(a, b, rated=True), FORFEIT_BY_I)
    play_line(start_game(alice, carol, rated=True), NULL_GAME)
    play_line(start_game(alice, carol, rated=False), FORFEIT_BY_I)
    games = list(RegistryGame.objects.order_by("played_at", "id"))
    assert [g.status for g in games] == ["finished"] * 6
    assert RatingChange.objects.count() == 8  # the null and the unrated game rate nobody
    before = {p.pk: p.rating for p in Player.objects.all()}
    assert before == expected_ratings([g for g in games if g.counts_for_rating])
    summary = recompute_all()
    assert summary.rows_written == 0 and summary.games_rerated == 4
    assert {p.pk: p.rating for p in Player.objects.all()} == before


def test_live_game_archive(players):
    alice, bob, _ = players
    game = start_game(alice, bob, rated=True)
    archived = game.archive
    assert (archived.status, archived.source, str(archived.game_id)) == (
        "playing", "site", str(game.uuid))
    assert archived.records.get().kind == "STGE"
    play_line(game, FORFEIT_BY_I)
    archived.refresh_from_db()
    assert (archived.status, archived.winner, archived.reason) == ("finished", "O", "forfeit")
    assert archived.tally["winner"] == "O" and archived.played_at == game.finished
    assert sorted(archived.records.values_list("kind", flat=True)) == [
        "STDGS", "STGE", "STGN", "STSE"]
