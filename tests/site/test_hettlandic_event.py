"""The Hettlandic system as an event (R41, R44-R46, book 6.4.1).

A whole 6-player online phase 1 of 20 rounds (R44 fixes the number; no setting shortens it)
played by simulated clients over the websocket protocol: every game is resigned by the weaker
player at once, so every winner's and every loser's NPc is one number worked out here by hand
from the book's formulas; the table (NPc, Ec, APc, running victory score, R28), the
co-champions and the ratings after the arbiter closes the phase (R45) are checked against
numbers computed here, not by the code under test. Then the entry conditions (the GTT's
minimum rating 1500, book 6.4.1.1), and phase 2 (R46) for 1, 2, 3 and 9 co-champions: accept
and decline, a grand-master unrated Swiss of the ruled rounds through the events machinery, the
final ranking and the awards on the event page and on each winner's profile.
"""

from __future__ import annotations

import math
from collections import Counter

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from registry.events import hettlandic
from registry.events.models import CoChampion, Entry, Event, Hettlandic, Pairing
from registry.events.pairing import hettlandic as r44
from registry.events.pairing.hettlandic import ROUNDS
from registry.events.services import EventError
from registry.models import (
    AffiliatedBody,
    AuditEntry,
    PhaseRatingChange,
    Player,
    RatingChange,
    RatingPhase,
    RegistryGame,
)
from registry.services import player_of
from tests.site.pairing import run_pairing
from tests.site.test_events_online import pair_and_start, resign

# By hand (R22/R23), a game resigned before any turn: 0 rounds, no tally code. Every category
# is 0 v 0, ncr 1; speed 1 + (50 - 0)/50 = 2; no G code: one success entry, 2 for the winner
# and 1 for the loser. NPc = the geometric mean of these 7 entries.
NPC_WIN = (2 * 2) ** (1 / 7)
NPC_LOSS = (2 * 1) ** (1 / 7)


def api(user=None) -> APIClient:
    c = APIClient()
    if user is not None:
        c.force_authenticate(user)
    return c


def registered(make_user, name: str, rating: int, stratum: int = 3) -> tuple:
    """An account whose player has imported standings (the ledger's seed)."""
    user = make_user(name)
    player = player_of(user)
    Player.objects.filter(pk=player.pk).update(rating=rating, start_rating=rating,
                                               stratum=stratum, start_stratum=stratum)
    player.refresh_from_db()
    user.player = player
    return user, player


def announce(registrar, body, **settings) -> Event:
    r = api(registrar).post("/api/v1/events/", {
        "body": body.registrar_id, "name": "Hettland Open", "system": "hettlandic",
        "venue": "online", **settings}, format="json")
    assert r.status_code == 201, r.json()
    return Event.objects.get(pk=r.json()["id"])


@pytest.fixture
def club(make_user):
    body = AffiliatedBody.objects.create(registrar_id="GTF-HETT-01", name="Erikville club",
                                         stratum=3)
    arbiter = make_user("arbiter")
    body.registrars.add(arbiter)
    return body, arbiter


# --- settings and entry conditions (R41, R44, book 6.4.1.1) -------------------------------------

@pytest.mark.django_db
def test_settings_fixed_by_r44_and_entry_conditions(club, make_user):
    body, arbiter = club
    # phase 1 is standard talu, S3, rated, 20 rounds: anything else is refused in words
    for bad, words in (({"rounds": 12}, "20 rounds"), ({"scoring_model": "S2"}, "S3"),
                       ({"variant": "grand-master"}, "standard talu"),
                       ({"rated": False}, "rated")):
        r = api(arbiter).post("/api/v1/events/", {"body": body.registrar_id, "name": "X",
                                                  "system": "hettlandic", **bad},
                              format="json")
        assert r.status_code == 400 and words in r.json()["detail"], r.json()
    assert not Event.objects.exists()
    event = announce(arbiter, body, min_rating=1500)
    assert (event.rounds, event.variant, event.scoring_model, event.rated, event.min_rating) \
        == (20, "standard", "S3", True, 1500)

    low, _ = registered(make_user, "low", 1499)
    r = api(low).post(f"/api/v1/events/{event.pk}/entries/", {}, format="json")
    assert r.status_code == 409 and "at least 1500" in r.json()["detail"]
    # the arbiter cannot bring them in either, nor a guest without an account (R45 rates them)
    r = api(arbiter).post(f"/api/v1/events/{event.pk}/entries/",
                          {"player_id": low.player.player_id}, format="json")
    assert r.status_code == 409 and "at least 1500" in r.json()["detail"]
    r = api(arbiter).post(f"/api/v1/events/{event.pk}/entries/",
                          {"name": "Walk-in", "rating": 1800}, format="json")
    assert r.status_code == 400 and "player id" in r.json()["detail"]
    assert not event.entries.exists()

    users = [registered(make_user, f"h{i}", 1500 + 100 * i)[0] for i in range(3)]
    for u in users:
        assert api(u).post(f"/api/v1/events/{event.pk}/entries/", {},
                           format="json").status_code == 201
    # an arbiter's page form sends every setting: R44's are left to the system
    c = Client()
    c.force_login(arbiter)
    page = c.post(f"/events/{event.pk}/act/", {
        "action": "settings", "name": "Hettland Open 2026", "rounds": "5", "system":
        "hettlandic", "scoring_model": "S1", "venue": "online", "auto_arbiter": "warn",
        "time_control": "untimed"}, follow=True).content.decode()
    assert "Settings saved." in page
    event.refresh_from_db()
    assert (event.name, event.rounds, event.scoring_model, event.rated) == (
        "Hettland Open 2026", 20, "S3", True)

    # round 1 opens the rating phase; an odd field gives the R44 bye: the lowest rated
    r = api(arbiter).post(f"/api/v1/events/{event.pk}/rounds/", {}, format="json")
    assert r.status_code == 202, r.json()
    run_pairing(event)
    het = Hettlandic.objects.get(event=event)
    assert het.phase.status == RatingPhase.OPEN
    bye = Pairing.objects.get(round__event=event, black__isnull=True)
    assert (bye.white.key, bye.bye) == (users[0].player.player_id, "Z")
    late, _ = registered(make_user, "late", 2000)
    r = api(late).post(f"/api/v1/events/{event.pk}/entries/", {}, format="json")
    assert r.status_code == 409 and "R44" in r.json()["detail"]
    # requested byes are not R44's
    r = api(arbiter).post(f"/api/v1/events/{event.pk}/rounds/",
                          {"absent": {users[1].player.player_id: "H"}, "force": True},
                          format="json")
    assert r.status_code == 400 and "no byes on request" in r.json()["detail"]
    # closing phase 1 or the event before the 20 rounds: refused, nothing changed
    r = api(arbiter).post(f"/api/v1/events/{event.pk}/hettlandic/close-phase-1/")
    assert r.status_code == 409 and "20 rounds" in r.json()["detail"]
    assert api(users[1]).post(f"/api/v1/events/{event.pk}/hettlandic/close-phase-1/") \
        .status_code == 403
    het.refresh_from_db()
    assert het.phase.status == RatingPhase.OPEN and het.phase1_closed is None
    # a withdrawal (C.04.1): the two left are paired, no bye; the phase keeps its opening
    r = api(users[1]).post(f"/api/v1/events/{event.pk}/entries/"
                           f"{users[1].player.player_id}/withdraw/")
    assert r.status_code == 200, r.json()
    r = api(arbiter).post(f"/api/v1/events/{event.pk}/rounds/", {"force": True}, format="json")
    assert r.status_code == 202, r.json()
    run_pairing(event)
    second = Pairing.objects.get(round__event=event, round__number=2)
    assert {second.white.key, second.black.key} == {users[0].player.player_id,
                                                     users[2].player.player_id}
    assert Hettlandic.objects.get(event=event).phase_id == het.phase_id


# --- a whole phase 1, online, by simulated clients ----------------------------------------------

# ratings at the start of the phase; STRENGTH: who beats whom (earlier wins), not the ratings'
# order, so that the low-rated F, winning every game, reaches 115 (R28)
FIELD = {"A": 2300, "B": 2200, "C": 2100, "D": 2000, "E": 1900, "F": 1600}
STRENGTH = "FABCDE"


@database_sync_to_async
def setup_phase(make_user):
    body = AffiliatedBody.objects.create(registrar_id="GTF-HETT-02", name="Erikville club",
                                         stratum=3)
    arbiter = make_user("arbiter")
    body.registrars.add(arbiter)
    event = announce(arbiter, body, min_rating=1500)
    users = {}
    for name, rating in FIELD.items():
        users[name] = registered(make_user, name, rating)[0]
        r = api(users[name]).post(f"/api/v1/events/{event.pk}/entries/", {}, format="json")
        assert r.status_code == 201, r.json()
    return event, arbiter, users


@database_sync_to_async
def ratings_now(users) -> dict[str, int]:
    return {n: Player.objects.get(user=u).rating for n, u in users.items()}


def by_hand(games: list[tuple[str, str, str]]) -> dict[str, dict]:
    """Each player's APc per game, victory score, final coefficient and new rating, from the
    book's formulas (R23 Ec and APc, R28, R45), given (I, O, winner) of every game in order."""
    out = {}
    for p, rating in FIELD.items():
        apcs, running = [], []
        for i, o, winner in games:
            if p not in (i, o):
                continue
            opp = o if p == i else i
            npc = NPC_WIN if winner == p else NPC_LOSS
            ec = 2 * rating / (rating + FIELD[opp])
            apcs.append(2 * npc / (npc + ec))
            running.append(math.floor(100 * math.exp(
                sum(map(math.log, apcs)) / len(apcs)) + 0.5))
        fc = math.exp(sum(map(math.log, apcs)) / len(apcs))
        out[p] = {"apcs": apcs, "running": running, "score": running[-1],
                  "wins": sum(w == p for _, _, w in games), "new": math.floor(rating * fc + 0.5)}
    return out


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_whole_six_player_phase_one_online(make_user, cookies, worker):
    event, arbiter, users = await setup_phase(make_user)
    keys = {n: (await database_sync_to_async(player_of)(u)).player_id for n, u in users.items()}
    names = {k: n for n, k in keys.items()}
    played: list[tuple[str, str, str]] = []
    for number in range(1, ROUNDS + 1):
        boards = await pair_and_start(event, arbiter, number)
        # even field: no bye, three games, each created standard, rated (R44)
        assert len(boards) == 3 and all(p.black_id and p.game_id for p in boards)
        for p in boards:
            i, o = names[p.white.key], names[p.black.key]
            assert (p.game.variant, p.game.rated) == ("standard", True)
            winner = i if STRENGTH.index(i) < STRENGTH.index(o) else o
            loser = o if winner == i else i
            await resign(p.game, users[loser], cookies)
            assert (await Pairing.objects.aget(pk=p.pk)).result == (
                "1-0" if winner == i else "0-1")
            played.append((i, o, winner))
        if number == 10:  # R45: nothing moves during the phase
            assert await ratings_now(users) == FIELD
    assert await ratings_now(users) == FIELD
    assert not await RatingChange.objects.filter(
        game__phase__hettlandic__event=event).aexists()
    # R44: 20 games each, sides shared out; every round is the pure R44 core's answer to the
    # rounds before it (the event hands it the right field and history)
    per_player = Counter(p for i, o, _ in played for p in (i, o))
    assert per_player == dict.fromkeys(FIELD, 20)
    assert all(9 <= n <= 11 for n in Counter(i for i, _, _ in played).values())
    field = [r44.Entrant(n, r) for n, r in FIELD.items()]
    history = r44.History()
    for k in range(ROUNDS):
        core = r44.pair_round(field, history)
        assert {(g.i, g.o) for g in core.games} == {(i, o) for i, o, _ in played[3 * k:3 * k + 3]}
        history.add(core)
    r = await database_sync_to_async(api(arbiter).post)(f"/api/v1/events/{event.pk}/rounds/")
    assert r.status_code == 409 and "20 rounds" in r.json()["detail"]

    expected = by_hand(played)
    # the phase table, game by game (NPc, Ec, APc, running victory score)
    table = (await database_sync_to_async(api().get)(
        f"/api/v1/events/{event.pk}/hettlandic/")).json()["phase1"]["table"]
    assert {names[r["key"]]: r["victory_score"] for r in table} == {
        p: e["score"] for p, e in expected.items()}
    for row in table:
        p = names[row["key"]]
        lines = row["lines"]
        assert [ln["victory_score"] for ln in lines] == expected[p]["running"]
        assert [ln["apc"] for ln in lines] == pytest.approx(expected[p]["apcs"], rel=1e-12)
        assert lines[0]["npc"] == pytest.approx(NPC_WIN if lines[0]["won"] else NPC_LOSS)
        assert lines[0]["ec"] == pytest.approx(
            2 * FIELD[p] / (FIELD[p] + FIELD[names[lines[0]["opponent"]]]))
        assert row["wins"] == expected[p]["wins"] and row["at_115"] == (
            expected[p]["score"] >= 115)
    champions = sorted((p for p in FIELD if expected[p]["score"] >= 115),
                       key=lambda p: -expected[p]["score"])
    assert champions and "F" in champions and len(champions) < 6
    # the page shows the table and who is at 115 so far
    page = await database_sync_to_async(lambda: Client().get(f"/events/{event.pk}/")
                                        .content.decode())()
    assert 'data-testid="phase-table"' in page and page.count('data-testid="at-115"') == len(
        champions)

    # the arbiter closes phase 1: one R30 entry moves everyone by their final coefficient
    r = await database_sync_to_async(api(arbiter).post)(
        f"/api/v1/events/{event.pk}/hettlandic/close-phase-1/")
    assert r.status_code == 200, r.json()
    got = r.json()
    assert [names[c["key"]] for c in got["co_champions"]] == champions
    assert await ratings_now(users) == {p: e["new"] for p, e in expected.items()}
    changes = {names[c.player.player_id]: c async for c in PhaseRatingChange.objects.filter(
        phase__hettlandic__event=event).select_related("player")}
    assert {p: (c.games, c.wins, c.victory_score) for p, c in changes.items()} == {
        p: (20, e["wins"], e["score"]) for p, e in expected.items()}
    audit = await AuditEntry.objects.filter(action=AuditEntry.PHASE).alast()
    assert audit.actor_user_id == arbiter.pk
    assert await RegistryGame.objects.filter(phase__hettlandic__event=event,
                                             scoring_model="S3").acount() == 60

    # phase 2: the co-champions answer (only they may); one declining keeps the title
    outsider = next(u for p, u in users.items() if p not in champions)
    r = await database_sync_to_async(api(outsider).post)(
        f"/api/v1/events/{event.pk}/hettlandic/answer/", {"accept": True}, format="json")
    assert r.status_code == 403
    for p in champions:
        r = await database_sync_to_async(api(users[p]).post)(
            f"/api/v1/events/{event.pk}/hettlandic/answer/", {"accept": p == "F"},
            format="json")
        assert r.status_code == 200, r.json()
    r = await database_sync_to_async(api(arbiter).post)(
        f"/api/v1/events/{event.pk}/hettlandic/phase-2/", {}, format="json")
    assert r.status_code == 201, r.json()
    # one acceptor: no phase 2 (R46), the award at once
    awards = {names[c["key"]]: (c["answer"], c["award"]) for c in r.json()["co_champions"]}
    assert awards["F"] == ("accepted", "Bronze")
    assert all(awards[p] == ("declined", None) for p in champions if p != "F")
    r = await database_sync_to_async(api(arbiter).post)(f"/api/v1/events/{event.pk}/close/")
    assert r.status_code == 200 and r.json()["status"] == "closed"
    profile = await database_sync_to_async(lambda: Client().get(
        f"/players/{keys['F']}/").content.decode())()
    assert "Talu Co-Champion" in profile and "Bronze" in profile


# --- phase 2 (R46) with 1, 2, 3 and 9 co-champions ----------------------------------------------

def champions_of(club, make_user, n: int, declining: int = 0, answer: bool = True):
    """A Hettlandic event whose phase 1 closed with ``n`` + ``declining`` co-champions (the
    victory scores 130, 129, ...); over the board, so the arbiter enters phase 2's results."""
    body, arbiter = club
    event = announce(arbiter, body, venue="board")
    now = timezone.now()
    phase = RatingPhase.objects.create(name="phase 1", status=RatingPhase.CLOSED, opened_at=now,
                                       closed_at=now)
    het = Hettlandic.objects.create(event=event, phase=phase, phase1_closed=now)
    users = []
    for k in range(n + declining):
        user, player = registered(make_user, f"c{k}", 2000 + k)
        entry = Entry.objects.create(event=event, player=player, key=player.player_id,
                                     name=user.username, rating=player.rating)
        CoChampion.objects.create(hettlandic=het, entry=entry, victory_score=130 - k)
        PhaseRatingChange.objects.create(  # what the close left (R45)
            player=player, phase=phase, stratum=3, start_rating=player.rating,
            old_rating=player.rating, new_rating=player.rating, rating_after=player.rating,
            games=20, wins=15, final_coefficient=1.3 - k / 100, victory_score=130 - k,
            played_at=now)
        users.append(user)
    for k, user in enumerate(users if answer else []):
        r = api(user).post(f"/api/v1/events/{event.pk}/hettlandic/answer/",
                           {"accept": k < n}, format="json")
        assert r.status_code == 200, r.json()
    return event, arbiter, users


def play_medals(event, arbiter) -> Event:
    r = api(arbiter).post(f"/api/v1/events/{event.pk}/hettlandic/phase-2/", {}, format="json")
    assert r.status_code == 201, r.json()
    medals = Event.objects.get(pk=r.json()["phase2"]["event"])
    for number in range(1, medals.rounds + 1):
        r = api(arbiter).post(f"/api/v1/events/{medals.pk}/rounds/", {}, format="json")
        assert r.status_code == 202, r.json()
        run_pairing(medals)
        for p in Pairing.objects.filter(round__event=medals, round__number=number,
                                        black__isnull=False):
            r = api(arbiter).post(f"/api/v1/events/{medals.pk}/rounds/{number}/results/",
                                  {"pairing": p.pk, "result": "1-0"}, format="json")
            assert r.status_code == 200, r.json()
    # the parent cannot close while its phase 2 is open (its rounds here are not made up)
    with pytest.raises(EventError, match="phase 2 is still being played"):
        hettlandic.closing(event)
    assert api(arbiter).post(f"/api/v1/events/{medals.pk}/close/").status_code == 200
    return medals


@pytest.mark.django_db
def test_phase_two_with_one_champion_and_a_decliner(club, make_user):
    event, arbiter, users = champions_of(club, make_user, 1, declining=1)
    r = api(arbiter).post(f"/api/v1/events/{event.pk}/hettlandic/phase-2/", {}, format="json")
    assert r.status_code == 201 and r.json()["phase2"]["event"] is None
    got = {c["name"]: (c["answer"], c["award"]) for c in r.json()["co_champions"]}
    assert got == {"c0": ("accepted", "Bronze"), "c1": ("declined", None)}
    r = api(users[1]).post(f"/api/v1/events/{event.pk}/hettlandic/answer/",
                           {"accept": True}, format="json")
    assert r.status_code == 409 and "final" in r.json()["detail"]
    decliner = Client().get(f"/players/{users[1].player.player_id}/").content.decode()
    assert "Talu Co-Champion" in decliner and "declined the medal matches" in decliner
    assert 'data-testid="award"' not in decliner


@pytest.mark.django_db
def test_phase_two_waits_for_every_answer(club, make_user):
    event, arbiter, users = champions_of(club, make_user, 2)
    CoChampion.objects.filter(entry__name="c1").update(answer="")
    r = api(arbiter).post(f"/api/v1/events/{event.pk}/hettlandic/phase-2/", {}, format="json")
    assert r.status_code == 409 and "waiting for c1" in r.json()["detail"]
    assert Hettlandic.objects.get(event=event).phase2_started is None
    r = api(users[0]).post(f"/api/v1/events/{event.pk}/hettlandic/phase-2/", {}, format="json")
    assert r.status_code == 403
    r = api(arbiter).post(f"/api/v1/events/{event.pk}/hettlandic/phase-2/", {"force": True},
                          format="json")
    assert r.status_code == 201 and r.json()["phase2"]["event"] is None  # one left: no Swiss
    assert [c["award"] for c in r.json()["co_champions"]] == ["Bronze", None]


@pytest.mark.django_db
def test_a_body_that_is_not_an_object_is_refused_and_changes_nothing(club, make_user):
    """Issue 41: a list (or a string, a number, null) was read as an empty object, so a list
    to the phase-2 endpoint started phase 2 without ``force``. Every Hettlandic write answers
    400 in words, as the rest of the events API does, and nothing changes."""
    event, arbiter, users = champions_of(club, make_user, 2)

    def state():
        return (Event.objects.count(), Hettlandic.objects.get(event=event).phase2_started,
                list(CoChampion.objects.order_by("pk").values_list("answer", "answered")))

    before = state()
    for user, path in ((arbiter, "phase-2/"), (users[0], "answer/"),
                       (arbiter, "close-phase-1/")):
        for body in ("[]", '[{"accept": false, "force": true}]', '"yes"', "1", "null"):
            r = api(user).post(f"/api/v1/events/{event.pk}/hettlandic/{path}", body,
                               content_type="application/json")
            assert r.status_code == 400, (path, body, r.content)
            assert "JSON object" in r.json()["detail"]
    assert state() == before


@pytest.mark.django_db
def test_phase_two_of_two_is_a_match_of_two_games_sides_swapped(club, make_user):
    event, arbiter, users = champions_of(club, make_user, 2)
    medals = play_medals(event, arbiter)
    assert (medals.variant, medals.rated, medals.system, medals.rounds) == (
        "grand-master", False, "swiss", 2)
    games = list(Pairing.objects.filter(round__event=medals).order_by("round__number")
                 .values_list("white__name", "black__name"))
    # pairing number 1 (the higher rating: c1, 2001) plays I first; then sides swapped
    assert games == [("c1", "c0"), ("c0", "c1")]
    # 1-1: the phase-1 victory score decides (c0 130 > c1 129)
    ranking = api().get(f"/api/v1/events/{event.pk}/hettlandic/").json()["phase2"]["ranking"]
    assert [(r["rank"], r["points"], r["award"]) for r in ranking] == [
        (1, 1.0, "Silver"), (2, 1.0, "Bronze")]
    assert ranking[0]["key"] == users[0].player.player_id
    page = Client().get(f"/events/{event.pk}/").content.decode()
    assert 'data-testid="final-ranking"' in page and "Silver" in page


@pytest.mark.parametrize(("n", "rounds"), [(3, 2), (9, 6)])
@pytest.mark.django_db
def test_phase_two_swiss_awards_and_new_tiers(club, make_user, n, rounds):
    event, arbiter, _users = champions_of(club, make_user, n)
    medals = play_medals(event, arbiter)
    assert (medals.variant, medals.rated, medals.rounds) == ("grand-master", False, rounds)
    assert medals.entries.count() == n
    ranking = api().get(f"/api/v1/events/{event.pk}/hettlandic/").json()["phase2"]["ranking"]
    points = [r["points"] for r in ranking]
    assert points == sorted(points, reverse=True)
    assert sum(points) == pytest.approx(rounds * (n // 2) + rounds * (n % 2))  # byes 1 (R41)
    materials = ["Bronze", "Silver", "Gold", "Platinum", "Sapphire", "Emerald", "Ruby",
                 "Diamond", "Tier 9"]
    assert [r["award"] for r in ranking] == list(reversed(materials[:n]))
    top = Player.objects.get(player_id=ranking[0]["key"])
    profile = Client().get(f"/players/{top.player_id}/").content.decode()
    assert "Talu Co-Champion" in profile and materials[n - 1] in profile
    champ = CoChampion.objects.get(entry__key=top.player_id)
    assert (champ.rank, champ.award) == (1, materials[n - 1])
    hettlandic.closing(event)  # now it may close


# --- over the board: the records matched into the phase (R45) ------------------------------------

@pytest.mark.django_db
def test_over_the_board_records_join_the_phase_and_rate_at_its_close(club, make_user):
    from registry.ledger import tally_from_json
    from registry.scoring.cascade import PlayerState, RatedGame
    from registry.scoring.phase import PhaseStart, RatedPhase, replay
    from tests.registry.helpers import I_WINS, add_game

    body, arbiter = club
    event = announce(arbiter, body, venue="board")
    (ua, a), (ub, b) = registered(make_user, "pa", 1800), registered(make_user, "pb", 1700)
    for u in (ua, ub):
        assert api(u).post(f"/api/v1/events/{event.pk}/entries/", {},
                           format="json").status_code == 201
    games = []
    for number in range(1, ROUNDS + 1):
        r = api(arbiter).post(f"/api/v1/events/{event.pk}/rounds/", {}, format="json")
        assert r.status_code == 202, r.json()
        run_pairing(event)
        p = Pairing.objects.select_related("white__player", "black__player").get(
            round__event=event, round__number=number)
        game = add_game(body, p.white.player, p.black.player, I_WINS, at=timezone.now())
        if number == 1:  # submitted on its own, the ledger rated it at once
            assert RatingChange.objects.filter(game=game).exists()
        r = api(arbiter).post(f"/api/v1/events/{event.pk}/rounds/{number}/results/",
                              {"pairing": p.pk, "game_id": str(game.game_id)}, format="json")
        assert r.status_code == 200 and r.json()["result"] == "1-0", r.json()
        game.refresh_from_db()
        assert game.phase_id is not None and game.scoring_model == "S3"
        games.append(game)
        # R45: matched into the phase, it moves nothing until the close
        assert not RatingChange.objects.filter(game=game).exists()
        assert [Player.objects.get(pk=x.pk).rating for x in (a, b)] == [1800, 1700]
    table = api().get(f"/api/v1/events/{event.pk}/hettlandic/").json()["phase1"]["table"]
    assert [row["games"] for row in table] == [20, 20]
    r = api(arbiter).post(f"/api/v1/events/{event.pk}/hettlandic/close-phase-1/")
    assert r.status_code == 200, r.json()
    phase = Hettlandic.objects.get(event=event).phase
    seeds = {x.pk: PlayerState(x.pk, stratum=3, rating=x.start_rating) for x in (a, b)}
    expected = replay([PhaseStart(phase.pk, (a.pk, b.pk)), RatedPhase(phase.pk, tuple(
        RatedGame.from_tally(g.pk, g.player_i_id, g.player_o_id, tally_from_json(g.tally), "S3")
        for g in games))], seeds)
    assert {x.pk: Player.objects.get(pk=x.pk).rating for x in (a, b)} == {
        pk: s.rating for pk, s in expected.players.items()}
    assert {row["key"]: row["victory_score"] for row in table} == {
        c.player.player_id: c.victory_score
        for c in PhaseRatingChange.objects.filter(phase=phase).select_related("player")}


@pytest.mark.django_db
def test_accept_and_decline_on_the_event_page(club, make_user):
    event, arbiter, (c0, c1) = champions_of(club, make_user, 2, answer=False)
    url, act = f"/events/{event.pk}/", f"/events/{event.pk}/hettlandic/"

    def page(user, data=None) -> str:
        c = Client()
        c.force_login(user)
        if data is None:
            return c.get(url).content.decode()
        return c.post(act, data, follow=True).content.decode()

    assert 'data-testid="accept"' in page(c0) and 'data-testid="accept"' not in page(arbiter)
    assert "You accepted phase 2." in page(c0, {"action": "accept"})
    assert "you keep the title" in page(c1, {"action": "decline"})
    outsider, _ = registered(make_user, "outsider", 2500)
    assert "only a co-champion" in page(outsider, {"action": "accept"})
    answers = dict(CoChampion.objects.values_list("entry__name", "answer"))
    assert answers == {"c0": "accepted", "c1": "declined"}
    assert "only an arbiter" in page(c0, {"action": "phase2"})
    shown = page(arbiter, {"action": "phase2"})  # one acceptor: no games, the award at once
    assert "Phase 2 is settled." in shown and "Bronze" in shown
    assert 'data-testid="accept"' not in page(c0)


@pytest.mark.django_db
def test_the_phase_table_follows_an_annulment(club, make_user):
    """R30: an annulled phase game leaves the table (cached per change) and the phase's
    ratings are recomputed."""
    from registry.corrections import annul_game
    from tests.registry.helpers import I_WINS, add_game

    body, arbiter = club
    event = announce(arbiter, body, venue="board")
    for u in (registered(make_user, "pa", 1800)[0], registered(make_user, "pb", 1700)[0]):
        api(u).post(f"/api/v1/events/{event.pk}/entries/", {}, format="json")
    api(arbiter).post(f"/api/v1/events/{event.pk}/rounds/", {}, format="json")
    run_pairing(event)
    p = Pairing.objects.select_related("white__player", "black__player").get(round__event=event)
    game = add_game(body, p.white.player, p.black.player, I_WINS, at=timezone.now())
    api(arbiter).post(f"/api/v1/events/{event.pk}/rounds/1/results/",
                      {"pairing": p.pk, "game_id": str(game.game_id)}, format="json")
    url = f"/events/{event.pk}/"
    assert Client().get(url).content.decode().count("won</td>") == 1
    annul_game(game, reason="wrong players seated", actor_user=arbiter)
    assert Client().get(url).content.decode().count("won</td>") == 0
    table = api().get(f"/api/v1/events/{event.pk}/hettlandic/").json()["phase1"]["table"]
    assert [row["games"] for row in table] == [0, 0]
