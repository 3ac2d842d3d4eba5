"""Correspondence (R36): a player's games sorted by time left with "your turn" marked, and
email notices: "your turn" when a turn begins, "one day left" a day before its deadline, at
most one of each per turn even with two workers sending."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from play.commands.path import store
from play.commands.submission import Submission
from play.games.protocol import PlayStep, player
from play.lifecycle import start_game
from play.lobby.mygames import my_games
from play.models import Game
from play.store import engines
from play.worker import notices
from registry.accounts.mailqueue import send_due as send_queued  # issue 39: mail is queued

pytestmark = pytest.mark.django_db


def _turn(game, side, frm, to):
    for raw in ({"kind": "move", "from": frm, "to": to}, {"kind": "end"}):
        version = Game.objects.get(pk=game.pk).version
        assert store(Submission(game.uuid, player(side), PlayStep(raw), version)).ok


@pytest.fixture
def emailed(players):
    for u in players:
        u.email = f"{u.username}@example.org"
        u.save()
    return players


def test_my_games_sorted_by_time_left_your_turn_first(client, emailed):
    alice, bob, carol = emailed
    engines.forget()
    slow = start_game(alice, bob, time_control="correspondence 7d")  # alice (I) to move
    fast = start_game(alice, carol, time_control="correspondence 1d")  # alice to move
    waiting = start_game(bob, alice, time_control="correspondence 3d")  # bob to move
    untimed = start_game(carol, alice)
    rows = my_games(alice)
    assert [m.game.pk for m in rows] == [fast.pk, slow.pk, waiting.pk, untimed.pk]
    assert [m.your_turn for m in rows] == [True, True, False, False]
    _turn(fast, "I", "A1", "B1")  # now carol's turn there
    rows = my_games(alice)
    assert [m.game.pk for m in rows][:1] == [slow.pk]
    assert not next(m for m in rows if m.game.pk == fast.pk).your_turn
    client.force_login(alice)
    html = client.get(reverse("my_games")).content.decode()
    assert html.count("your turn") == 1 and "7 days per turn" in html
    assert html.index("vs bob") < html.index("vs carol")


def test_one_notice_per_turn_even_sent_twice(emailed):
    alice, bob, _ = emailed
    engines.forget()
    game = start_game(alice, bob, time_control="correspondence 3d")
    assert notices.send_due() == 1 and notices.send_due() == 0  # a second worker: nothing
    send_queued()
    assert [m.to for m in mail.outbox] == [["alice@example.org"]]
    assert "your turn" in mail.outbox[0].subject and str(game.uuid) in mail.outbox[0].body
    _turn(game, "I", "A1", "B1")
    assert notices.send_due() == 1 and notices.send_due() == 0
    send_queued()
    assert mail.outbox[-1].to == ["bob@example.org"]
    # A day before the deadline: one reminder, once.
    soon = timezone.now() + timedelta(hours=20)
    Game.objects.filter(pk=game.pk).update(deadline=soon, noticed=soon)
    assert notices.send_due() == 1 and notices.send_due() == 0
    send_queued()
    assert "one day left" in mail.outbox[-1].subject and mail.outbox[-1].to == ["bob@example.org"]
    assert len(mail.outbox) == 3


def test_live_games_get_no_mail(emailed):
    alice, bob, _ = emailed
    start_game(alice, bob, time_control="fischer 180+2")
    assert notices.send_due() == 0 and mail.outbox == []
