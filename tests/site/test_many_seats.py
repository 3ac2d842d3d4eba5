"""A game of three seats through the server path (issue 36): started with its seats, played
by each seat's player through the one command path, a seat that resigns leaves and is ranked
last, and the finished game's ranks, seats, signed record and ratings are written. The game is
the match's tiny test game (tests/match/tinygame.py), registered in the catalogue for the
test: the server path knows no game, so any registered one plays."""

from __future__ import annotations

import json

import pytest

from play.commands.player import submit_as
from play.lifecycle import StartError, start_table
from play.models import Game, Seat
from play.worker.loop import run_due
from registry.game_ratings.models import GameRatingChange
from registry.models import SignedGameRecord
from registry.records.game_record import verify_document

pytestmark = pytest.mark.django_db



def _play(game, user, action, **kwargs):
    game.refresh_from_db()
    return submit_as(game.uuid, user, action, version=game.version, **kwargs)


def test_three_players_play_a_game_to_its_ranks_record_and_ratings(tiny, make_user, client):
    from registry.recordkeeping import site_key
    site_key()  # the process's signing key made first (a talu game's start makes it; this
    # game's first signature is its archive's, and a first key takes gpg seconds)
    ana, ben, cyd = (make_user(n) for n in ("ana", "ben", "cyd"))
    game = start_table("tiny/race", [ana, ben, cyd], rated=True)
    assert (game.game, game.variant, game.player_i, game.player_o) == ("tiny", "race", None,
                                                                       None)
    assert list(Seat.objects.filter(game=game).values_list("seat", "user_id", "kind")) == [
        ("1", ana.pk, "person"), ("2", ben.pk, "person"), ("3", cyd.pk, "person")]
    assert game.side_of(ben) == "2"

    assert _play(game, ana, "step", step={"add": 2}).ok
    refused = _play(game, cyd, "step", step={"add": 2})  # it is ben's turn
    assert refused.code == "not_your_turn" and "two's turn (2)" in refused.reason
    assert _play(game, ben, "step", step={"add": 1}).ok
    assert _play(game, cyd, "step", step={"add": 2}).ok
    assert _play(game, ben, "resign").ok  # ben leaves; ana and cyd play on
    game.refresh_from_db()
    assert game.is_live
    refused = _play(game, ben, "step", step={"add": 2})
    assert not refused.ok and "left" in refused.reason
    assert _play(game, ana, "step", step={"add": 1}).ok
    assert _play(game, cyd, "resign").ok  # one seat is left: the game is over
    run_due()  # the worker's subscribers: the record and the ratings

    game.refresh_from_db()
    assert game.status == Game.FINISHED and game.winner == "1"
    assert game.ranks == {"1": 1, "3": 2, "2": 3}
    assert dict(Seat.objects.filter(game=game).values_list("seat", "rank")) == game.ranks
    assert SignedGameRecord.objects.filter(game=game).count() == 1
    download = client.get(f"/games/{game.uuid}/record.json")
    assert download.status_code == 200
    doc = json.loads(download.content)
    assert doc["result"]["ranks"] == game.ranks and doc["variant"] == "tiny/race"
    assert [s["player"] for s in doc["seats"]] == ["ana", "ben", "cyd"]
    assert verify_document(doc) == []
    changes = {c.user_id: c for c in GameRatingChange.objects.filter(game_id=game.pk)}
    assert changes[ana.pk].display_after > changes[cyd.pk].display_after \
        > changes[ben.pk].display_after
    run_due()  # again: nothing is written twice
    assert GameRatingChange.objects.filter(game_id=game.pk).count() == 3
    # the game's page offers the record and the notation, and the ratings it moved
    from play import gameview
    meta = gameview.game_meta(game)
    assert [r["kind"] for r in meta["records"]] == ["record", "notation"] and meta["archived"]
    assert meta["records"][0]["url"] == f"/games/{game.uuid}/record.json"
    assert set(meta["rating_changes"]) == {"1", "2", "3"}
    assert meta["result"]["ranks"] == game.ranks
    page = client.get(f"/games/{game.uuid}/")
    assert page.status_code == 200 and 'data-game="tiny"' in page.content.decode()


def test_a_table_needs_a_player_for_every_seat(tiny, make_user):
    ana, ben = make_user("ana"), make_user("ben")
    with pytest.raises(StartError, match="played by 3 players, not 2"):
        start_table("tiny/race", [ana, ben])
    with pytest.raises(StartError, match="unknown variant"):
        start_table("tiny/nine", [ana, ben])
    assert not Game.objects.exists()


def test_a_neutral_seat_has_a_row_and_nobody_in_it(tiny, make_user):
    ana, ben = make_user("ana"), make_user("ben")
    game = start_table("tiny/neutral", [ana, ben])
    assert list(Seat.objects.filter(game=game).values_list("seat", "kind", "user_id")) == [
        ("1", "person", ana.pk), ("z", "neutral", None), ("2", "person", ben.pk)]
    assert (game.player_i, game.player_o) == (ana, ben)  # two players: the two columns too
    assert game.side_of(ben) == "2"


def test_a_challenge_names_any_games_two_seat_variant(tiny, make_user):
    from play.lobby.challenges import ChallengeError, accept_challenge, open_challenge
    ana, ben = make_user("ana"), make_user("ben")
    ch = open_challenge(ana, variant="tiny/duel", side="O", rated=False)
    assert (ch.game_key, ch.variant) == ("tiny", "duel")
    game = accept_challenge(ben, ch.pk)
    assert (game.game, game.variant, game.player_i, game.player_o) == ("tiny", "duel", ben, ana)
    assert game.side_of(ana) == "2"
    with pytest.raises(ChallengeError, match="played by 3: a challenge is between two"):
        open_challenge(ana, variant="tiny/race")
    with pytest.raises(ChallengeError, match="unknown variant"):
        open_challenge(ana, variant="duel")  # another game's variants go by key


@pytest.mark.django_db(transaction=True)
def test_an_event_of_another_two_seat_game_plays_it_and_scores_it(tiny, make_user):
    """The event's game is a setting: its rounds start games of that game (white the first
    seat), and a finished game's result is the pairing's; a game of three seats is refused."""
    from rest_framework.test import APIClient

    from registry.events.models import Event, Pairing
    from registry.models import AffiliatedBody
    from tests.site.pairing import run_pairing

    def api(user):
        c = APIClient()
        c.force_authenticate(user)
        return c

    body = AffiliatedBody.objects.create(registrar_id="CLUB-TINY", name="Tiny club")
    arbiter = make_user("arbiter")
    body.registrars.add(arbiter)
    settings = {"body": body.registrar_id, "name": "Tiny duels", "system": "round_robin",
                "venue": "online", "rated": True, "variant": "tiny/race"}
    refused = api(arbiter).post("/api/v1/events/", settings, format="json")
    assert refused.status_code == 400 and "played by 3" in str(refused.json())
    made = api(arbiter).post("/api/v1/events/", {**settings, "variant": "tiny/duel"},
                             format="json")
    assert made.status_code == 201, made.json()
    event = Event.objects.get(pk=made.json()["id"])
    players = [make_user(n) for n in ("ana", "ben")]
    for u in players:
        assert api(u).post(f"/api/v1/events/{event.pk}/entries/", {},
                           format="json").status_code == 201
    assert api(arbiter).post(f"/api/v1/events/{event.pk}/rounds/", {},
                             format="json").status_code == 202
    run_pairing(event)
    assert api(arbiter).post(f"/api/v1/events/{event.pk}/rounds/1/start/",
                             format="json").status_code == 200
    pairing = Pairing.objects.select_related("game", "white__player__user").get(
        round__event=event, black__isnull=False)
    game = pairing.game
    assert (game.game, game.variant, game.in_event) == ("tiny", "duel", True)
    assert game.player_i == pairing.white.player.user  # white holds the first seat
    assert _play(game, game.player_o, "resign").ok  # black (the second seat) resigns
    run_due()
    pairing.refresh_from_db()
    assert pairing.result == "1-0" and pairing.decided_by == "game"


def test_the_lobby_lists_a_table_of_three_by_its_seats(tiny, make_user, client):
    ana, ben, cyd = (make_user(n) for n in ("ana", "ben", "cyd"))
    game = start_table("tiny/race", [ana, ben, cyd])
    client.force_login(cyd)
    page = client.get("/").content.decode()
    assert "ana (one) vs ben (two) vs cyd (three)" in page
    state = client.get("/lobby/state.json").json()
    [live] = [g for g in state["live"] if g["id"] == str(game.uuid)]
    assert live["title"] == "ana (one) vs ben (two) vs cyd (three)" and live["I"] is None
    assert [g["id"] for g in state["my_games"]] == [str(game.uuid)]


def test_my_finished_games_are_found_by_opponent_and_place_in_any_game(tiny, make_user):
    """Issue 36: "My games"' search reads a game of three seats as the list shows it: an
    opponent's name in any seat, "won" for a first place, "lost" for a later one."""
    from play.lobby.mygames import search
    ana, ben, cyd, dan = (make_user(n) for n in ("ana", "ben", "cyd", "dan"))
    game = start_table("tiny/race", [ana, ben, cyd], rated=False)
    assert _play(game, ana, "step", step={"add": 2}).ok
    assert _play(game, ben, "resign").ok
    assert _play(game, cyd, "resign").ok  # ana first, cyd second, ben third
    other = start_table("tiny/duel", [ana, dan], rated=False)
    assert _play(other, ana, "resign").ok  # dan won

    def found(user, q):
        return set(Game.objects.filter(seats__user=user).filter(search(q, user))
                   .values_list("pk", flat=True))

    assert found(ana, "cyd") == {game.pk}  # the third seat's player
    assert found(ana, "dan") == {other.pk}
    assert found(ana, "won") == {game.pk}
    assert found(ana, "lost") == {other.pk}
    assert found(cyd, "lost") == {game.pk} and found(cyd, "won") == set()
    assert found(ana, "tiny") == {game.pk, other.pk}
