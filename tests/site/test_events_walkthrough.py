"""Issue 38's walk-through of a club's event, fixed: what an arbiter tripped over.

1. An annulled event game leaves the event's standings as unplayed (R30/R39), until the arbiter
   sets a result; the game's page says "annulled".
2. An event's arbiter gets the site's "Arbiter" link (the console) on the game's page.
5. The event's body (a registrar of the club) appoints an arbiter for one of its events' games,
   though the site's body holds the online game's records; nobody else may.
"""

from __future__ import annotations

import pytest
from django.test import Client

from play.commands import arbiter as arbiter_commands
from play.models import Game
from registry import archiving
from registry.events import results, rounds, services, standings
from registry.events.models import Event, Pairing
from registry.models import RegistryGame
from tests.site.test_events_arbiter_policy import _api, _event_game

pytestmark = pytest.mark.django_db(transaction=True)


def _page(user, url: str) -> str:
    c = Client()
    c.force_login(user)
    response = c.get(url)
    assert response.status_code == 200
    return response.content.decode()


def _points(event: Event) -> dict[str, float]:
    return {row.name: row.points for row in standings.cached(Event.objects.get(pk=event.pk))[0]}


def _finish_by_forfeit(game, arbiter):
    """The arbiter forfeits black (R39): white wins; the game is archived and its result
    reaches the pairing, as the worker's "game finished" subscribers do."""
    r = _api(arbiter).post(f"/api/v1/games/{game.uuid}/arbiter/", {
        "action": "forfeit", "side": "O", "reason": "left the hall"}, format="json")
    assert r.status_code == 200, r.json()
    row = Game.objects.get(pk=game.pk)
    archiving.archive(row)
    results.game_finished(row)
    return Pairing.objects.select_related("round__event", "white", "black").get(game=game)


def test_an_annulled_event_game_is_unplayed_in_the_event_and_says_so(make_user):
    game, white, _black, arbiter = _event_game(make_user, "off")
    pairing = _finish_by_forfeit(game, arbiter)
    event = pairing.round.event
    assert pairing.result == "1-0"
    assert _points(event) == {pairing.white.name: 1.0, pairing.black.name: 0.0}

    r = _api(arbiter).post(f"/api/v1/games/{game.uuid}/arbiter/", {
        "action": "annul", "reason": "the wrong players were seated"}, format="json")
    assert r.status_code == 200, r.json()
    assert RegistryGame.objects.get(live=game).status == RegistryGame.ANNULLED
    pairing.refresh_from_db()
    assert pairing.result == "--"  # R39: unplayed in the event, no point to either side
    assert _points(event) == {pairing.white.name: 0.0, pairing.black.name: 0.0}
    page = _page(white, f"/games/{game.uuid}/")
    assert 'data-testid="game-annulled"' in page and "Annulled" in page
    assert "in the event it is unplayed" in page
    assert "annulled" in _page(white, f"/events/{event.pk}/")
    # a late "game finished" (the worker's retry) does not bring the result back
    results.game_finished(Game.objects.get(pk=game.pk))
    pairing.refresh_from_db()
    assert pairing.result == "--"
    # the arbiter may set a result for the event (R41 until the close): it stands
    services.set_result(arbiter, event, pairing.pk, "+-", note="black absent, as found")
    assert _points(event) == {pairing.white.name: 1.0, pairing.black.name: 0.0}
    page = _page(white, f"/games/{game.uuid}/")
    assert "Annulled" in page and "the arbiter set the result" in page


def test_an_annulled_game_of_a_closed_event_keeps_the_final_result(make_user):
    game, _white, _black, arbiter = _event_game(make_user, "off")
    pairing = _finish_by_forfeit(game, arbiter)
    services.close_event(arbiter, pairing.round.event)
    r = _api(arbiter).post(f"/api/v1/games/{game.uuid}/arbiter/", {
        "action": "annul", "reason": "found later"}, format="json")
    assert r.status_code == 200, r.json()
    pairing.refresh_from_db()
    assert pairing.result == "1-0"  # R41: results are final once the event is closed


def test_an_events_arbiter_has_the_arbiter_link_on_its_games_page(make_user):
    game, white, _black, arbiter = _event_game(make_user, "off")
    link = 'href="/arbiter/"'
    page = _page(arbiter, f"/games/{game.uuid}/")
    assert link in page and 'data-arbiter="1"' in page
    assert link not in _page(white, f"/games/{game.uuid}/")
    assert link not in _page(make_user("passer"), f"/games/{game.uuid}/")


def test_the_events_body_appoints_an_arbiter_for_one_of_its_games(make_user):
    game, white, _black, _arbiter = _event_game(make_user, "off")
    body = Event.objects.get(event_rounds__pairings__game=game).body
    registrar, helen, otto = make_user("reggie"), make_user("helen"), make_user("otto")
    body.registrars.add(registrar)
    assert not arbiter_commands.may_arbitrate(game, helen)
    url = f"/api/v1/games/{game.uuid}/arbiters/"
    # someone who is not the event's body: refused, nothing written
    assert _api(otto).post(url, {"arbiter": "helen", "reason": "x"},
                           format="json").status_code == 403
    r = _api(registrar).post(url, {"arbiter": "helen", "reason": "a second arbiter"},
                             format="json")
    assert r.status_code == 201, r.json()
    assert arbiter_commands.may_arbitrate(game, helen)
    assert "/arbiter/" in _page(helen, f"/games/{game.uuid}/")
    c = Client()
    c.force_login(helen)
    assert str(game.uuid) in {g["id"] for g in c.get("/arbiter/state.json").json()["games"]}
    # a player of the game is never its arbiter (R39)
    r = _api(registrar).post(url, {"arbiter": white.username, "reason": "x"}, format="json")
    assert r.status_code == 400 and "plays this game" in r.json()["detail"]
    # the appointee acts; removed, they no longer do
    r = _api(helen).post(f"/api/v1/games/{game.uuid}/arbiter/", {
        "action": "warn", "side": "I", "reason": "non-engagement"}, format="json")
    assert r.status_code == 200, r.json()
    assert _api(registrar).delete(f"{url}helen/").status_code == 204
    assert not arbiter_commands.may_arbitrate(game, helen)


# --- 4. the event form: the lobby's labels, and every value kept on a refusal ------------------

@pytest.mark.parametrize("typed, canonical", [
    ("30+20", "fischer 1800+20"), ("30+20 classical", "fischer 1800+20"),
    ("3 + 2", "fischer 180+2"), ("45s+2", "fischer 45+2"),
    ("10+5 (max 15 min)", "fischer 600+5 max 900"),
    ("10 min + 3x30 s", "byoyomi 600 3x30"), ("3 days per turn", "correspondence 3d"),
    ("1 day per turn", "correspondence 1d"), ("Untimed", "untimed"),
    ("fischer 180+2", "fischer 180+2"), ("byoyomi 600 3x30", "byoyomi 600 3x30"),
])
def test_a_time_control_is_read_as_the_site_shows_it(typed, canonical):
    from play.games import clock

    assert str(clock.read(typed)) == canonical


def test_every_label_the_site_shows_reads_back():
    from play.games import clock

    shown = [clock.parse(c) for c, _ in clock.PRESETS] + [
        clock.parse(t) for t in ("fischer 45+0", "byoyomi 300 5x10", "fischer 600+5 max 900")]
    for tc in shown:
        assert clock.read(tc.label()) == tc, tc.label()
    for _, name in clock.PRESETS:  # the lobby's names, "30+20 classical"
        assert clock.read(name).label() in name


@pytest.mark.parametrize("typed", ["soon", "30+", "3 weeks per turn", "200+1", ""])
def test_a_time_control_that_is_none_says_so(typed):
    from play.games import clock

    with pytest.raises(clock.TimeControlError):
        clock.read(typed)


def _registrar(make_user):
    from registry.models import AffiliatedBody

    body = AffiliatedBody.objects.create(registrar_id="CLUB-FORM", name="Form club")
    user = make_user("rhea")
    body.registrars.add(user)
    c = Client()
    c.force_login(user)
    return body, user, c


FORM = {"body": "CLUB-FORM", "name": "Thursday rapid", "system": "round_robin",
        "rounds": "7", "scoring_model": "S1", "venue": "board", "auto_arbiter": "off",
        "time_control": "30+20", "min_rating": "1200", "min_stratum": "2"}


def test_the_event_form_takes_the_lobbys_label(make_user):
    _body, _user, c = _registrar(make_user)
    r = c.post("/events/new/", FORM)
    assert r.status_code == 302, r.content.decode()[:2000]
    event = Event.objects.get(name="Thursday rapid")
    assert event.time_control == "fischer 1800+20"  # R38's canonical form in the records
    page = c.get(f"/events/{event.pk}/").content.decode()
    assert ">30+20</td>" in page  # players read the label


def test_a_refused_event_form_keeps_every_value(make_user):
    _body, _user, c = _registrar(make_user)
    r = c.post("/events/new/", {**FORM, "time_control": "half an hour", "rated": "on"})
    assert r.status_code == 400
    page = r.content.decode()
    assert "is not a time control" in page
    assert not Event.objects.exists()
    for kept in ('value="Thursday rapid"', 'value="half an hour"', 'value="7"',
                 'value="1200"', '<option value="round_robin" selected',
                 '<option value="board" selected', '<option value="off" selected',
                 '<option value="2" selected', 'name="rated" checked'):
        assert kept in page, kept


def test_a_refused_settings_change_keeps_every_value(make_user):
    _body, user, c = _registrar(make_user)
    assert c.post("/events/new/", FORM).status_code == 302
    event = Event.objects.get()
    r = c.post(f"/events/{event.pk}/act/", {
        "action": "settings", "name": "Thursday classical", "system": "swiss", "rounds": "5",
        "scoring_model": "S1", "venue": "board", "auto_arbiter": "warn",
        "time_control": "an hour each", "arbiters": user.username})
    assert r.status_code == 400
    page = r.content.decode()
    assert "is not a time control" in page
    for kept in ('value="Thursday classical"', 'value="an hour each"', 'value="5"',
                 '<option value="swiss" selected', '<option value="warn" selected'):
        assert kept in page, kept
    assert Event.objects.get().name == "Thursday rapid"  # nothing changed


# --- 7. closing, a result and a withdrawal are asked again ----------------------------------------

def _board_event(make_user):
    """An over-the-board round robin of four, round 1 paired: the registrar is its arbiter."""
    from tests.site.pairing import run_pairing

    body, user, c = _registrar(make_user)
    event = services.create_event(user, body, name="Club night", system="round_robin",
                                  venue="board", rated=False)
    for name in ("Ann", "Bob", "Cid", "Dee"):
        services.enter_player(user, event, name, 1500)
    rounds.request_pairing(user, event)
    run_pairing(event)
    return event, user, c


def _asked(response, words: str) -> str:
    page = response.content.decode()
    assert response.status_code == 200 and 'data-testid="confirm"' in page, page[:3000]
    assert words in page and '<input type="hidden" name="confirm" value="1">' in page
    return page


def test_closing_setting_a_result_and_withdrawing_are_confirmed_first(make_user):
    event, _user, c = _board_event(make_user)
    act = f"/events/{event.pk}/act/"
    board = Pairing.objects.filter(round__event=event, black__isnull=False).order_by(
        "board").first()
    # a result: the page asks, naming the board and the result; nothing is set yet
    page = _asked(c.post(act, {"action": "result", "pairing": board.pk, "round": 1,
                               "result": "1-0"}), f"board {board.board}")
    assert "1–0" in page and f'name="pairing" value="{board.pk}"' in page
    board.refresh_from_db()
    assert board.result == ""
    r = c.post(act, {"action": "result", "pairing": board.pk, "round": 1, "result": "1-0",
                     "confirm": "1"})
    assert r.status_code == 302
    board.refresh_from_db()
    assert board.result == "1-0"
    # a withdrawal
    key = board.white.key
    _asked(c.post(act, {"action": "withdraw", "key": key}), f"Withdraw {board.white.name}")
    assert event.entries.get(key=key).withdrawn_after is None
    assert c.post(act, {"action": "withdraw", "key": key, "confirm": "1"}).status_code == 302
    assert event.entries.get(key=key).withdrawn_after is not None
    # closing
    for p in Pairing.objects.filter(round__event=event, black__isnull=False, result=""):
        services.set_result(_user, event, p.pk, "=")
    _asked(c.post(act, {"action": "close"}), "results become final")
    assert Event.objects.get(pk=event.pk).status != Event.CLOSED
    assert c.post(act, {"action": "close", "confirm": "1"}).status_code == 302
    assert Event.objects.get(pk=event.pk).status == Event.CLOSED


# --- 8. the pages say what an arbiter and a player expect ----------------------------------------

def _all_rounds_paired(make_user):
    """The over-the-board round robin of four with its three rounds paired, played as draws."""
    from tests.site.pairing import run_pairing

    event, user, c = _board_event(make_user)
    for _number in (2, 3):
        for p in Pairing.objects.filter(round__event=event, black__isnull=False, result=""):
            services.set_result(user, event, p.pk, "=")
        rounds.request_pairing(user, event)
        run_pairing(event)
    assert event.event_rounds.count() == 3
    return event, user, c


def test_no_pair_button_once_every_round_is_paired(make_user):
    event, _user, c = _all_rounds_paired(make_user)
    page = c.get(f"/events/{event.pk}/").content.decode()
    assert 'data-testid="pair"' not in page and "Pair round 4" not in page
    assert "All 3 rounds are paired" in page


def test_a_round_robin_page_shows_every_round_the_shown_one_first(make_user):
    event, _user, _c = _all_rounds_paired(make_user)
    for c in (Client(), _c):  # a visitor (the cached page) and the arbiter
        page = c.get(f"/events/{event.pk}/").content.decode()
        at = [page.index(f'data-testid="round-{n}"') for n in (3, 1, 2)]
        assert at == sorted(at), "round 3 (the latest) first, then 1 and 2"
        page = c.get(f"/events/{event.pk}/?round=2").content.decode()
        at = [page.index(f'data-testid="round-{n}"') for n in (2, 1, 3)]
        assert at == sorted(at)


def test_a_corrected_result_says_so(make_user):
    game, _white, _black, arbiter = _event_game(make_user, "off")
    pairing = _finish_by_forfeit(game, arbiter)
    page = _page(arbiter, f"/events/{pairing.round.event_id}/")
    assert "corrected by the arbiter" not in page  # the game's own result
    services.set_result(arbiter, pairing.round.event, pairing.pk, "0-1")
    assert "corrected by the arbiter" in _page(arbiter, f"/events/{pairing.round.event_id}/")
    assert "corrected by the arbiter" in Client().get(
        f"/events/{pairing.round.event_id}/").content.decode()


def test_the_console_names_the_event_round_and_the_turn(make_user):
    game, _white, _black, arbiter = _event_game(make_user, "off")
    event = Event.objects.get(event_rounds__pairings__game=game)
    page = _page(arbiter, "/arbiter/")
    assert "<th>Event round · turn</th>" in page and "<th>Round</th>" not in page
    assert f"{event.name}</a>: round 1, board 1" in page and "turn 1" in page
    c = Client()
    c.force_login(arbiter)
    row = next(g for g in c.get("/arbiter/state.json").json()["games"]
               if g["id"] == str(game.uuid))
    assert row["event"] == {"name": event.name, "round": 1, "board": 1,
                            "url": f"/events/{event.pk}/?round=1"}


def test_a_hettlandic_page_speaks_in_words_to_its_players(make_user):
    import re

    from registry.models import AffiliatedBody
    from tests.site.test_hettlandic_corrections import board_phase

    body = AffiliatedBody.objects.create(registrar_id="GTF-HETT-01", name="Erikville club",
                                         stratum=3)
    arbiter = make_user("arbiter")
    body.registrars.add(arbiter)
    event, *_ = board_phase((body, arbiter), make_user, typed={1: "1-0"})
    page = Client().get(f"/events/{event.pk}/").content.decode()
    assert "Rating factor" in page and "victory score" in page and "no record yet" in page
    shown = re.sub(r'title="[^"]*"', "", page)  # the codes stay, in title attributes only
    for code in ("APc", "NPc", ">Ec<", " Ec ", "R44", "R45", "R46", "R23", "R28", "R30",
                 "R41"):
        assert code not in shown, code
    assert 'title="APc (R23): play against expected"' in page


# --- 6. walk-in players, and the sign-up limit's way round -------------------------------------

def test_a_registrar_registers_walk_in_players_at_the_table(make_user):
    from django.contrib.auth import authenticate

    from registry.models import Player

    body, registrar, c = _registrar(make_user)
    event = services.create_event(registrar, body, name="Club night", system="swiss",
                                  rounds=3, venue="board", rated=False)
    url = f"/events/{event.pk}/walk-in/"
    assert 'data-testid="walk-in"' in c.get(f"/events/{event.pk}/").content.decode()
    # without a username: a registered player with no account, entered
    r = c.post(url, {"name": "Walter Inn"})
    assert r.status_code == 302
    entry = event.entries.get(name="Walter Inn")
    assert entry.player is not None and entry.player.user is None
    assert entry.player.body == body and entry.key == entry.player.player_id
    # with one: an account, its password shown once, and it logs in
    r = c.post(url, {"name": "Wanda Walk", "username": "wanda"})
    page = r.content.decode()
    assert r.status_code == 200 and 'data-testid="walk-in-password"' in page
    password = page.split('data-testid="walk-in-password">')[1].split("<")[0]
    assert authenticate(username="wanda", password=password) is not None
    assert event.entries.get(name="Wanda Walk").player.user.username == "wanda"
    # refusals keep what was typed and write nothing
    before = (Player.objects.count(), event.entries.count())
    r = c.post(url, {"name": "Wanda Two", "username": "Wanda"})
    assert r.status_code == 400 and "is taken" in r.content.decode()
    assert 'value="Wanda Two"' in r.content.decode()
    r = c.post(url, {"name": "Bad", "username": "no spaces please"})
    assert r.status_code == 400 and "cannot be a username" in r.content.decode()
    assert (Player.objects.count(), event.entries.count()) == before
    # someone who is not the body's registrar: refused
    other = Client()
    other.force_login(make_user("mallory"))
    before = (Player.objects.count(), event.entries.count())
    assert other.post(url, {"name": "X"}).status_code == 403
    assert 'data-testid="walk-in"' not in other.get(f"/events/{event.pk}/").content.decode()
    assert (Player.objects.count(), event.entries.count()) == before


def test_an_online_events_walk_in_needs_an_account(make_user):
    body, registrar, c = _registrar(make_user)
    event = services.create_event(registrar, body, name="Online night", system="swiss",
                                  rounds=3, venue="online", rated=False)
    r = c.post(f"/events/{event.pk}/walk-in/", {"name": "Walter Inn"})
    assert r.status_code == 400 and "give the player a username" in r.content.decode()
    assert c.post(f"/events/{event.pk}/walk-in/", {"name": "Walter Inn",
                                                     "username": "walter"}).status_code == 200
    assert event.entries.get().player.user.username == "walter"


def test_the_sign_up_limit_says_how_to_get_help(client, settings):
    settings.TALU_RATES = {**settings.TALU_RATES, "signup_address": "1/hour"}
    codes = []
    for name in ("first1", "second2"):
        client.logout()
        r = client.post("/accounts/signup/", {"username": name, "password1": "a-Long-pass-77",
                                              "password2": "a-Long-pass-77"},
                        REMOTE_ADDR="203.0.113.238")
        codes.append(r.status_code)
    assert codes == [302, 429]
    assert "ask the event&#x27;s registrar to register you" in r.content.decode().lower()
