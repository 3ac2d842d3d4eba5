"""Two-seat Talat on the site (A11): the two players place Zihin's towers first (the notation
writes the player acting for Zihin as 1>Z / 2>Z), play to the end through the command path,
and only seats 1 and 2 rank; Zihin has no score and no place."""

from __future__ import annotations

import random

import pytest

from play.commands.player import submit_as
from play.games.talat import TalatGame
from play.games.talat.notation import write_action
from play.games.talat.position import PASS
from play.lifecycle import start_table
from play.models import Game

pytestmark = pytest.mark.django_db


def test_a_two_seat_game_with_zihin_through_the_command_path(make_user):
    """A11 on the site: the two players place Zihin's towers first (the notation writes the
    player acting for Zihin as 1>Z / 2>Z), play to the end, and only seats 1 and 2 rank."""
    rng, rules_game, sent = random.Random(3), TalatGame("two"), []
    while not rules_game.finished:
        legal = rules_game.pos.legal()
        if legal == [PASS]:
            rules_game.play(PASS)
            continue
        action = rng.choice(legal)
        sent.append((rules_game.to_move(), write_action(rules_game.pos, action)))
        rules_game.play(action)
    ana, ben = make_user("ana2"), make_user("ben2")
    game = start_table("talat/two", [ana, ben], rated=False)
    users = {"1": ana, "2": ben}
    for seat, action in sent:
        game.refresh_from_db()
        outcome = submit_as(game.uuid, users[seat], "step", version=game.version,
                            step={"action": action})
        assert outcome.ok, (seat, action, outcome.reason)
    game.refresh_from_db()
    assert game.status == Game.FINISHED and game.ranks == rules_game.ranks()
    assert set(game.ranks) == {"1", "2"}
    assert "1. 1>Z @" in game.stgn and "[Variant \"two\"]" in game.stgn
