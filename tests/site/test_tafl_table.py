"""A tafl game through the site's one command path (issue 42): started as a table for two
users, moves and a T8 removal as steps, an illegal move refused in words with nothing stored,
and a game played to its end on the board with the right ranks on its row and seats."""

from __future__ import annotations

import json

import pytest

from play.commands.player import submit_as
from play.lifecycle import start_table
from play.models import Game, GameEvent, Seat
from tests.tafl.games import Steps, finished_game

pytestmark = pytest.mark.django_db


def _play(game, user, step):
    game.refresh_from_db()
    return submit_as(game.uuid, user, "step", step=step, version=game.version)


def _short_game() -> Steps:
    """The steps of a seeded random tafl 9x9 game won on the board within 120 moves."""
    return finished_game("tafl", 9, max_plies=120)[0]


def test_a_tafl_table_is_played_to_its_end(make_user):
    ana, ben = make_user("ana"), make_user("ben")
    game = start_table("tafl/9x9", [ana, ben], rated=False)
    assert (game.game, game.variant) == ("tafl", "9x9")
    assert list(Seat.objects.filter(game=game).values_list("seat", "user_id")) == [
        ("attackers", ana.pk), ("defenders", ben.pk)]
    users = {"attackers": ana, "defenders": ben}

    refused = _play(game, ana, {"move": "e2-e3"})  # e3 holds a defender
    assert not refused.ok and refused.code == "illegal"
    assert refused.reason == "e2-e3: e3 is taken: a piece moves only to an empty square (T4)"
    refused = _play(game, ben, {"move": "e3-e2"})  # not the defenders' turn
    assert not refused.ok and refused.code == "not_your_turn"
    game.refresh_from_db()
    assert game.version == 0 and not GameEvent.objects.filter(game=game).exists()

    steps = _short_game()
    for side, step in steps:
        out = _play(game, users[side], step)
        assert out.ok, (step, out.reason)
    game.refresh_from_db()
    assert game.status == Game.FINISHED
    ranks = game.ranks
    assert sorted(ranks.values()) == [1, 2] and set(ranks) == {"attackers", "defenders"}
    assert dict(Seat.objects.filter(game=game).values_list("seat", "rank")) == ranks
    winner = next(s for s, r in ranks.items() if r == 1)
    assert game.winner == winner
    assert _play(game, users["attackers"], {"move": "a4-a3"}).code == "finished"


#: A tafl 7x7 game (found once by a seeded random walk) whose 43rd step encloses a defender
#: group: the attackers choose g7 (T8) as a second step of their turn; the king is captured at
#: the end when he moves between two attackers (T6's self-removal, T7).
T8_GAME = str.split(
    "d2-c2 c4-c3 c2-a2 c3-c2 d6-f6 c2-c3 d7-f7 d4-c4 f6-g6 d5-f5 a2-g2 e4-e2 f7-e7 f5-c5 "
    "d1-b1 e2-f2 b1-b3 d3-d7 e7-e5 d7-g7 g2-g3 c5-d5 g4-g5 d5-d7 f4-g4 d7-b7 b4-b6 c3-d3 "
    "b3-c3 f2-f5 b6-a6 b7-e7 a4-a1 e7-b7 a6-f6 b7-c7 e5-e4 c7-f7 a1-e1 c4-d4 g5-d5 d3-f3 "
    "e4-e7 xg7 d4-d3 g4-g5 f7-g7 g3-g1 f3-f5 e7-e2 g7-b7 d5-b5 d3-d2 c3-a3 d2-b2 a3-a1 "
    "b2-d2 a1-c1 d2-d4 e2-g2 f5-f3 f6-b6 f3-f4 g5-g4 b7-f7 b5-f5 d4-d1")


def test_a_t8_removal_is_a_second_step_through_the_command_path(make_user):
    ana, ben = make_user("ana"), make_user("ben")
    game = start_table("tafl/7x7", [ana, ben], rated=False)
    users = {"attackers": ana, "defenders": ben}
    side = "defenders"
    for token in T8_GAME:
        if token.startswith("x"):
            game.refresh_from_db()
            assert game.to_move == "attackers"  # the turn is not over (T8)
            version = game.version
            refused = _play(game, ben, {"remove": "f7"})
            assert refused.code == "not_your_turn"
            refused = _play(game, ana, {"remove": "a1"})
            assert refused.code == "illegal" and "xa1: a1 is not a piece of an enclosed " \
                "group: remove" in refused.reason
            game.refresh_from_db()
            assert game.version == version
            out = _play(game, ana, {"remove": token[1:]})
        else:
            side = "defenders" if side == "attackers" else "attackers"
            out = _play(game, users[side], {"move": token})
        assert out.ok, (token, out.reason)
    game.refresh_from_db()
    assert game.status == Game.FINISHED and game.ranks == {"attackers": 1, "defenders": 2}
    assert game.reason == "king_captured"
    assert "e4-e7xg7" in game.stgn and "Kd4-d1xKd1++" in game.stgn  # the OTN record (T12)


def test_a_finished_tafl_games_review_steps_through_every_move(make_user, client):
    """Review (issue 42): every position after every move, replayed by the rules, the move
    list's lines one turn each; a T8 removal is part of its move's frame."""
    ana, ben = make_user("ana"), make_user("ben")
    users = {"attackers": ana, "defenders": ben}
    steps, rules_game = finished_game("tafl", 9, removal=True)
    assert any("remove" in step for _, step in steps)
    game = start_table("tafl/9x9", [ana, ben], rated=False)
    for side, step in steps:
        assert _play(game, users[side], step).ok
    data = client.get(f"/games/{game.uuid}/review.json").json()
    assert len(data["turns"]) == len(rules_game.records) == len(data["frames"]) - 1
    assert [t["body"] for t in data["turns"]] == rules_game.records
    last = data["frames"][-1]
    assert last["pieces"] == {rules_game.geo.name(sq): ".tTK"[p]
                              for sq, p in enumerate(rules_game.pos.board) if p}
    assert "won" in data["result"]


def test_the_tafl_lessons_are_listed_and_checked_on_the_site(client):
    page = client.get("/learn/").content.decode()
    for slug in ("tafl-capture", "tafl-escape", "tafl-enclosed", "tablut-capture",
                 "tablut-escape"):
        assert f'data-testid="lesson-{slug}"' in page
    lesson = client.get("/learn/tafl-enclosed/")
    assert lesson.status_code == 200 and "games/tafl-lessons.js" in lesson.content.decode()
    out = client.get("/learn/tafl-enclosed/try.json",
                     {"steps": json.dumps([{"move": "a7-a3"}, {"remove": "a1"}])}).json()
    assert out["solved"]
    assert client.get("/learn/no-such-lesson/").status_code == 404
    assert client.get("/learn/capture/").status_code == 200  # talu's, as before


def test_the_arbiters_console_shows_a_tafl_game_by_its_seats(make_user, client):
    """R39 on any game: the console and a game's signs read a tafl game by its seats (the
    book's warning signs are talu's: none here), never a 500."""
    staff = make_user("sue")
    staff.is_staff = True
    staff.save()
    ana, ben = make_user("ana"), make_user("ben")
    game = start_table("tablut/9x9", [ana, ben], rated=False, time_control="fischer 300+3")
    client.force_login(staff)
    row = client.get(f"/arbiter/games/{game.uuid}/signs.json").json()
    assert row["signs"] is None and row["to_move"] == "defenders"
    assert [p["seat"] for p in row["players"]] == ["defenders", "attackers"]
    assert set(row["clock"]["left"]) == {"defenders", "attackers"}
    assert set(row["absence"]) == {"defenders", "attackers"}
    state = client.get("/arbiter/state.json")
    assert state.status_code == 200
    assert any(g["id"] == str(game.uuid) for g in state.json()["games"])
    assert client.get(f"/games/{game.uuid}/").status_code == 200


def test_an_event_is_announced_in_tablut_and_its_round_plays_tablut(make_user, client):
    """Issue 42: an event's game is chosen when it is announced (the page's form); its
    rounds start games of that game, rated by that game's own rating."""
    from registry.events.models import Event
    from registry.models import AffiliatedBody
    from tests.site.pairing import run_pairing

    body = AffiliatedBody.objects.create(registrar_id="CLUB-TABLUT", name="Tablut club")
    arbiter = make_user("arbiter")
    body.registrars.add(arbiter)
    client.force_login(arbiter)
    assert 'value="tablut/9x9"' in client.get("/events/").content.decode()
    made = client.post("/events/new/", {"body": body.registrar_id, "name": "Tablut night",
                                        "variant": "tablut/9x9", "system": "round_robin",
                                        "venue": "online", "rated": "on"})
    assert made.status_code == 302
    event = Event.objects.get(name="Tablut night")
    assert event.variant == "tablut/9x9"
    assert "Tablut 9x9" in client.get(f"/events/{event.pk}/").content.decode()
    refused = client.post("/events/new/", {"body": body.registrar_id, "name": "Bad",
                                           "variant": "chess/8x8", "system": "swiss"})
    assert refused.status_code == 400 and not Event.objects.filter(name="Bad").exists()
    from registry.events import rounds, services
    players = [make_user(n) for n in ("ana", "ben")]
    for u in players:
        services.register(u, event)
    rounds.request_pairing(arbiter, event)
    run_pairing(event)
    rnd = rounds.start_round(arbiter, event, 1)
    game = next(p.game for p in rnd.pairings.all() if p.game is not None)
    assert (game.game, game.variant, game.rated, game.in_event) == ("tablut", "9x9", True, True)


def test_a_rated_tafl_game_rates_once_for_tafl_and_shows_on_the_profile(make_user, client):
    """Issue 42: a rating per player for tafl (one across its board sizes) and one for
    Tablut; the leaderboard lists them; the profile lists the player's tafl games with the
    rating change each made."""
    from play.worker.loop import run_due
    from registry import services
    from registry.game_ratings.models import GameRating

    ana, ben = make_user("ana"), make_user("ben")
    users = {"attackers": ana, "defenders": ben}
    steps, rules_game = finished_game("tafl", 9, max_plies=120)
    game = start_table("tafl/9x9", [ana, ben], rated=True)
    for side, step in steps:
        assert _play(game, users[side], step).ok
    run_due()
    run_due()  # once: a second run rates nothing again
    ratings = GameRating.objects.filter(game="tafl")
    assert ratings.count() == 2 and {r.variant for r in ratings} == {""}
    assert all(r.games == 1 for r in ratings)
    winner = users[rules_game.side_name(rules_game.result[0])]
    board = client.get("/leaderboard/tafl/").content.decode()
    assert winner.username in board
    page = client.get(f"/players/{services.player_of(ana).player_id}/").content.decode()
    assert 'data-testid="recent-tafl"' in page and "Tafl 9x9" in page
    assert ("won" if winner == ana else "lost") in page.split('data-testid="recent-tafl"')[1]


def test_the_sites_otn_record_replays_with_the_command_line(make_user, client, tmp_path,
                                                            capsys):
    """T13 and the CLI contract: the notation a finished game's page offers is an OTN game
    record that ``talu replay --game tafl`` reads back to the same moves and result."""
    from play.worker.loop import run_due
    from talu_cli.main import main

    ana, ben = make_user("ana"), make_user("ben")
    users = {"attackers": ana, "defenders": ben}
    steps, rules_game = finished_game("tafl", 9, removal=True)
    game = start_table("tafl/9x9", [ana, ben], rated=False)
    for side, step in steps:
        assert _play(game, users[side], step).ok
    run_due()
    text = client.get(f"/games/{game.uuid}/notation.txt").content.decode()
    assert "[variant:tafl 9x9]" in text
    path = tmp_path / "game.otn"
    path.write_text(text)
    capsys.readouterr()
    assert main(["replay", "--game", "tafl", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] and out["moves"] == len(rules_game.records)
    assert out["result"]["finished"] and out["result"]["winner"] == rules_game.side_name(
        rules_game.result[0])


def test_a_tafl_challenge_with_the_kings_immunity_from_the_lobby(make_user, client):
    """T1's option through the lobby's form: the challenge names it, the game starts with it,
    its page says it; talu refuses the option in words."""
    from play.models import Challenge

    ana, ben = make_user("ana"), make_user("ben")
    client.force_login(ana)
    lobby = client.get("/").content.decode()
    assert "the king&#x27;s immunity (T6)" in lobby and 'id="variant-seats"' in lobby
    client.post("/challenges/new/", {"variant": "standard", "rated": "1", "time": "untimed",
                                     "side": "random", "options": ["immunity"]})
    assert not Challenge.objects.exists()  # talu has no such option: refused in words
    client.post("/challenges/new/", {"variant": "tafl/11x11", "rated": "1",
                                     "time": "untimed", "side": "I",
                                     "options": ["immunity"]})
    ch = Challenge.objects.get()
    assert ch.options == {"immunity": True}
    client.force_login(ben)
    assert "Tafl 11x11 · immunity" in client.get("/lobby/state.json").json()["challenges"][0][
        "variant"]
    client.post(f"/challenges/{ch.pk}/accept/")
    game = Game.objects.get()
    assert game.options == {"immunity": True} and game.side_of(ana) == "attackers"
    page = client.get(f"/games/{game.uuid}/").content.decode()
    assert 'data-testid="option">immunity<' in page
