"""Hettlandic phase 1 after the fact: corrections and results that carry no coefficient.

- R30/R44: annulling a phase-1 game after the close recomputes the ratings and the
  co-champions follow the recomputed victory scores (the table, the title, phase 2's field,
  the profile), audited; once phase 2 has begun its field stays, the title still follows, and
  the awards go to the co-champions only (docs/events.md).
- R41/R39: a live phase-1 game the arbiter decides as unplayed is not rated, even when the
  game later ends with a result.
- R23/R45: a board result typed without its records has an Ec but no NPc (NPc comes from the
  game's tally): the table says so, and phase 1 cannot close until its records are matched or
  it is decided as unplayed.
"""

from __future__ import annotations

import math

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.utils import timezone

from registry.corrections import annul_game
from registry.events import hettlandic
from registry.events.models import CoChampion, Entry, Event, Hettlandic, Pairing
from registry.events.pairing.hettlandic import ROUNDS
from registry.figcache import tally_from_json
from registry.models import AuditEntry, PhaseRatingChange, Player
from registry.scoring.figures import figures_from_tally
from tests.registry.helpers import I_WINS, O_ELIMINATES, add_game, example
from tests.site import test_hettlandic_event as base
from tests.site.pairing import run_pairing
from tests.site.test_events_online import archived, pair_and_start, resign
from tests.site.test_hettlandic_event import announce, api, champions_of, play_medals, registered

club = base.club  # the fixture: a body and its arbiter

RA, RB = 2200, 1800  # A, the higher rating, plays I in round 1 and every odd round (R44)


def npc(name: str, side: str) -> float:
    return figures_from_tally(tally_from_json(example(name)[2])).sides[side].npc


def apc_of_a(won_as: str | None) -> float:
    """A's APc (R23) with Ec = 2 x 2200 / 4000 = 1.1 from the start ratings (R45): a win as
    `I` (example I_WINS), a win as `O` (O_ELIMINATES), or (None) a loss as `O` (B wins as `I`,
    I_WINS)."""
    n = {"I": npc(I_WINS, "I"), "O": npc(O_ELIMINATES, "O"), None: npc(I_WINS, "O")}[won_as]
    ec = 2 * RA / (RA + RB)
    return 2 * n / (n + ec)


def r28(apcs: list[float]) -> int:
    return math.floor(100 * math.exp(sum(map(math.log, apcs)) / len(apcs)) + 0.5)


def board_phase(club, make_user, *, typed: dict[int, str] | None = None, player_a=None):
    """A two-player board phase 1 of 20 rounds: A wins every game but round 2's (B as `I`
    wins it); each game's records matched to its pairing, except the rounds in ``typed``,
    whose result the arbiter types without records. The games by round."""
    body, arbiter = club
    event = announce(arbiter, body, venue="board")
    (ua, a) = (player_a.user, player_a) if player_a else registered(make_user, "pa", RA)
    (ub, b) = registered(make_user, "pb", RB)
    for u in (ua, ub):
        assert api(u).post(f"/api/v1/events/{event.pk}/entries/", {},
                           format="json").status_code == 201
    games = {}
    for number in range(1, ROUNDS + 1):
        r = api(arbiter).post(f"/api/v1/events/{event.pk}/rounds/", {}, format="json")
        assert r.status_code == 202, r.json()
        run_pairing(event)
        p = Pairing.objects.select_related("white__player", "black__player").get(
            round__event=event, round__number=number)
        a_is_i = p.white.player_id == a.pk
        assert a_is_i == (number % 2 == 1)
        if typed and number in typed:
            r = api(arbiter).post(f"/api/v1/events/{event.pk}/rounds/{number}/results/",
                                  {"pairing": p.pk, "result": typed[number]}, format="json")
            assert r.status_code == 200, r.json()
            continue
        games[number] = add_game(body, p.white.player, p.black.player,
                                 I_WINS if a_is_i or number == 2 else O_ELIMINATES,
                                 at=timezone.now())
        r = api(arbiter).post(f"/api/v1/events/{event.pk}/rounds/{number}/results/",
                              {"pairing": p.pk, "game_id": str(games[number].game_id)},
                              format="json")
        assert r.status_code == 200, r.json()
    return event, arbiter, (ua, a), (ub, b), games


def a_apcs(skip: tuple[int, ...] = ()) -> list[float]:
    return [apc_of_a(None if n == 2 else "I" if n % 2 else "O")
            for n in range(1, ROUNDS + 1) if n not in skip]


# --- gap 1: the co-champions follow an annulment (R30, R44) --------------------------------------

@pytest.mark.django_db
def test_annulling_a_phase_game_after_the_close_renames_the_co_champions(club, make_user):
    event, arbiter, (ua, a), (_ub, b), games = board_phase(club, make_user)
    # by hand: A's victory score is 114 with the round-2 loss, 117 without it (R28)
    assert (r28(a_apcs()), r28(a_apcs(skip=(2,)))) == (114, 117)
    r = api(arbiter).post(f"/api/v1/events/{event.pk}/hettlandic/close-phase-1/")
    assert r.status_code == 200, r.json()
    assert r.json()["co_champions"] == []
    assert Player.objects.get(pk=a.pk).rating == math.floor(
        RA * math.exp(sum(map(math.log, a_apcs())) / 20) + 0.5)
    assert "No player reached a victory score of 115" in Client().get(
        f"/events/{event.pk}/").content.decode()

    # the round-2 game was wrongly recorded: the body annuls it (R30)
    annul_game(games[2], reason="the wrong game was submitted", actor_user=arbiter)
    # the ratings follow (R30) ...
    assert Player.objects.get(pk=a.pk).rating == math.floor(
        RA * math.exp(sum(map(math.log, a_apcs(skip=(2,)))) / 19) + 0.5)
    # ... and so does the title: A now stands at 117 (R44), named, audited
    got = api().get(f"/api/v1/events/{event.pk}/hettlandic/").json()
    assert [(c["key"], c["victory_score"], c["answer"]) for c in got["co_champions"]] == [
        (a.player_id, 117, None)]
    row = next(t for t in got["phase1"]["table"] if t["key"] == a.player_id)
    assert (row["games"], row["victory_score"], row["at_115"]) == (19, 117, True)
    second = row["lines"][1]  # R39: the annulled game is out, shown as such
    assert (second["round"], second["uncounted"], second["apc"]) == (2, "annulled", None)
    follow = AuditEntry.objects.filter(action=AuditEntry.PHASE).last()
    assert "co-champions follow" in follow.reason
    assert follow.before["co_champions"] == [] and follow.after["named"] == [a.player_id]
    annul = AuditEntry.objects.get(action=AuditEntry.ANNUL)
    assert annul.actor_user_id == arbiter.pk
    assert annul.after["followed"]["hettlandic"][str(event.pk)]["named"] == [a.player_id]
    # the page, A's profile, and A may now answer for phase 2, which A alone plays: Bronze
    c = Client()
    c.force_login(ua)
    page = c.get(f"/events/{event.pk}/").content.decode()
    assert "Talu Co-Champions" in page and 'data-testid="accept"' in page
    assert "Talu Co-Champion" in Client().get(f"/players/{a.player_id}/").content.decode()
    assert "Talu Co-Champion" not in Client().get(f"/players/{b.player_id}/").content.decode()
    r = api(ua).post(f"/api/v1/events/{event.pk}/hettlandic/answer/", {"accept": True},
                     format="json")
    assert r.status_code == 200, r.json()
    r = api(arbiter).post(f"/api/v1/events/{event.pk}/hettlandic/phase-2/", {}, format="json")
    assert r.status_code == 201, r.json()
    assert [c["award"] for c in r.json()["co_champions"]] == ["Bronze"]


def entrant_below_the_title(event, het, make_user):
    """A player "n0" entered in ``event`` whose phase-1 victory score is 110 (below 115)."""
    user, player = registered(make_user, "n0", 1990)
    Entry.objects.create(event=event, player=player, key=player.player_id, name="n0",
                         rating=player.rating)
    PhaseRatingChange.objects.create(
        player=player, phase=het.phase, stratum=3, start_rating=1990, old_rating=1990,
        new_rating=1990, rating_after=1990, games=20, wins=9, final_coefficient=1.1,
        victory_score=110, played_at=timezone.now())
    return user, player


@pytest.mark.django_db
def test_before_phase_two_a_title_lost_and_one_won_change_phase_twos_field(club, make_user):
    """Phase 2 not begun: a co-champion who falls below 115 leaves (with their answer), one
    who reaches it joins and must answer; phase 2 is then among the co-champions who accept."""
    event, arbiter, users = champions_of(club, make_user, 2)
    het = Hettlandic.objects.get(event=event)
    newcomer, player = entrant_below_the_title(event, het, make_user)
    # a recompute (R30) moved the scores: c1 to 114, n0 to 116
    PhaseRatingChange.objects.filter(phase=het.phase, player=users[1].player).update(
        victory_score=114)
    PhaseRatingChange.objects.filter(phase=het.phase, player=player).update(victory_score=116)
    changed = hettlandic.phases_rerated([het.phase_id])
    assert changed[str(event.pk)]["named"] == [player.player_id]
    assert changed[str(event.pk)]["withdrawn"] == [users[1].player.player_id]
    assert dict(CoChampion.objects.values_list("entry__name", "answer")) == {
        "c0": "accepted", "n0": ""}
    r = api(arbiter).post(f"/api/v1/events/{event.pk}/hettlandic/phase-2/", {}, format="json")
    assert r.status_code == 409 and "waiting for n0" in r.json()["detail"]
    assert api(newcomer).post(f"/api/v1/events/{event.pk}/hettlandic/answer/",
                              {"accept": True}, format="json").status_code == 200
    medals = play_medals(event, arbiter)
    assert set(medals.entries.values_list("name", flat=True)) == {"c0", "n0"}
    assert "Talu Co-Champion" not in Client().get(
        f"/players/{users[1].player.player_id}/").content.decode()
    assert hettlandic.phases_rerated([het.phase_id]) is None  # nothing more to follow


@pytest.mark.django_db
def test_after_phase_two_began_the_title_follows_and_only_co_champions_get_awards(club,
                                                                                  make_user):
    """Phase 2 begun (R46): its field stays; a player newly at 115 holds the title without an
    award, one below it loses title and award but their games stand; awards already given
    are given again among the co-champions."""
    event, arbiter, users = champions_of(club, make_user, 3)
    het = Hettlandic.objects.get(event=event)
    _, player = entrant_below_the_title(event, het, make_user)
    r = api(arbiter).post(f"/api/v1/events/{event.pk}/hettlandic/phase-2/", {}, format="json")
    assert r.status_code == 201, r.json()
    medals = Event.objects.get(pk=r.json()["phase2"]["event"])
    # corrections after phase 2 began: c2 down to 112, n0 up to 116
    PhaseRatingChange.objects.filter(phase=het.phase, player=users[2].player).update(
        victory_score=112)
    PhaseRatingChange.objects.filter(phase=het.phase, player=player).update(victory_score=116)
    hettlandic.phases_rerated([het.phase_id])
    got = api().get(f"/api/v1/events/{event.pk}/hettlandic/").json()
    assert {c["name"]: (c["victory_score"], c["named_after_phase2"])
            for c in got["co_champions"]} == {"c0": (130, False), "c1": (129, False),
                                              "n0": (116, True)}
    assert medals.entries.count() == 3  # phase 2's field is what it was
    page = Client().get(f"/events/{event.pk}/").content.decode()
    assert 'data-testid="named-late"' in page
    assert "named after the medal matches began" in Client().get(
        f"/players/{player.player_id}/").content.decode()
    # phase 2 played out (white wins every game): c2 plays on but gets no award
    for number in range(1, medals.rounds + 1):
        r = api(arbiter).post(f"/api/v1/events/{medals.pk}/rounds/", {}, format="json")
        assert r.status_code == 202, r.json()
        run_pairing(medals)
        for p in Pairing.objects.filter(round__event=medals, round__number=number,
                                        black__isnull=False):
            assert api(arbiter).post(f"/api/v1/events/{medals.pk}/rounds/{number}/results/",
                                     {"pairing": p.pk, "result": "1-0"},
                                     format="json").status_code == 200
    assert api(arbiter).post(f"/api/v1/events/{medals.pk}/close/").status_code == 200
    ranking = api().get(f"/api/v1/events/{event.pk}/hettlandic/").json()["phase2"]["ranking"]
    names = dict(Entry.objects.filter(event=medals).values_list("key", "name"))
    awards = {names[p["key"]]: p["award"] for p in ranking}
    assert awards["c2"] == ""
    assert sorted(a for a in awards.values() if a) == ["Bronze", "Silver"]
    assert dict(CoChampion.objects.values_list("entry__name", "award"))["n0"] == ""
    # after the awards: c1 falls below 115 too; the awards are given again (c0: Bronze)
    PhaseRatingChange.objects.filter(phase=het.phase, player=users[1].player).update(
        victory_score=100)
    hettlandic.phases_rerated([het.phase_id])
    assert dict(CoChampion.objects.values_list("entry__name", "award")) == {
        "c0": "Bronze", "n0": ""}


@pytest.mark.django_db
def test_an_annulment_before_the_phase_moves_its_start_ratings_and_the_table(club, make_user):
    """R45: Ec uses the ratings at the phase's opening; annulling an ordinary game played
    before it (R30) moves them: the ledger re-rates the phase from the new start ratings, and
    the entries' start ratings and the table's Ec follow, audited."""
    body, _ = club
    _, c = registered(make_user, "pc", 2000)
    _, a0 = registered(make_user, "pa0", RA)
    before = add_game(body, a0, c, I_WINS, at=timezone.now())  # A's game before the phase
    moved = Player.objects.get(pk=a0.pk).rating
    assert moved != RA
    event, arbiter, (_ua, a), _b, _games = board_phase(club, make_user, player_a=a0)
    assert Entry.objects.get(event=event, player=a).rating == moved
    assert api(arbiter).post(
        f"/api/v1/events/{event.pk}/hettlandic/close-phase-1/").status_code == 200
    annul_game(before, reason="played under the wrong name", actor_user=arbiter)
    prc = PhaseRatingChange.objects.get(player=a)
    assert prc.start_rating == RA  # the ledger's start rating without that game
    assert Entry.objects.get(event=event, player=a).rating == RA  # the entry's follows
    row = next(t for t in api().get(f"/api/v1/events/{event.pk}/hettlandic/").json()
               ["phase1"]["table"] if t["key"] == a.player_id)
    assert row["start_rating"] == RA
    assert row["lines"][0]["ec"] == pytest.approx(2 * RA / (RA + RB))
    assert row["victory_score"] == prc.victory_score
    follow = AuditEntry.objects.filter(action=AuditEntry.PHASE).last()
    assert follow.after["start_ratings"] == {a.player_id: [moved, RA]}


# --- gap 2: an unplayed game is not rated (R41) ---------------------------------------------------

@database_sync_to_async
def online_pair(make_user):
    from registry.models import AffiliatedBody

    body = AffiliatedBody.objects.create(registrar_id="GTF-HETT-03", name="Erikville club",
                                         stratum=3)
    arbiter = make_user("arbiter")
    body.registrars.add(arbiter)
    event = announce(arbiter, body)
    users = {}
    for name, rating in (("A", RA), ("B", RB)):
        users[name] = registered(make_user, name, rating)[0]
        assert api(users[name]).post(f"/api/v1/events/{event.pk}/entries/", {},
                                     format="json").status_code == 201
    return event, arbiter, users


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_live_game_decided_unplayed_is_not_rated_when_it_ends(make_user, cookies,
                                                                     worker):
    event, arbiter, users = await online_pair(make_user)
    keys = {n: (await Player.objects.aget(user=u)).player_id for n, u in users.items()}
    [p] = await pair_and_start(event, arbiter, 1)
    assert p.white.key == keys["A"]
    # B is not there: the arbiter decides the game unplayed, A winning (R41) ...
    r = await database_sync_to_async(api(arbiter).post)(
        f"/api/v1/events/{event.pk}/rounds/1/results/", {"pairing": p.pk, "result": "+-"},
        format="json")
    assert r.status_code == 200, r.json()
    # ... which ends the game too: B forfeits, by the arbiter's action (R39)
    row = await archived(p.game_id)
    assert (row.status, row.winner, row.rated) == ("finished", "I", False)
    assert (await Pairing.objects.aget(pk=p.pk)).result == "+-"  # the decision stands
    table = (await database_sync_to_async(api().get)(
        f"/api/v1/events/{event.pk}/hettlandic/")).json()["phase1"]["table"]
    line = next(t for t in table if t["key"] == keys["A"])["lines"][0]
    assert (line["uncounted"], line["won"], line["npc"], line["apc"]) == (
        "unplayed", True, None, None)
    # the other 19 rounds are played (the loser resigns); then the close rates 19 games each
    for number in range(2, ROUNDS + 1):
        [p] = await pair_and_start(event, arbiter, number)
        loser = "B" if p.white.key == keys["A"] else "A"
        await resign(p.game, users[loser], cookies)
    r = await database_sync_to_async(api(arbiter).post)(
        f"/api/v1/events/{event.pk}/hettlandic/close-phase-1/")
    assert r.status_code == 200, r.json()
    games = {c.player_id: c.games async for c in PhaseRatingChange.objects.filter(
        phase__hettlandic__event=event)}
    assert sorted(games.values()) == [19, 19]


@database_sync_to_async
def swiss_pair(make_user):
    from registry.models import AffiliatedBody

    body = AffiliatedBody.objects.create(registrar_id="CLUB-R41", name="Online club")
    arbiter = make_user("arbiter")
    body.registrars.add(arbiter)
    r = api(arbiter).post("/api/v1/events/", {
        "body": body.registrar_id, "name": "Online Swiss", "system": "swiss", "rounds": 1,
        "venue": "online", "rated": True, "scoring_model": "S2"}, format="json")
    assert r.status_code == 201, r.json()
    event = Event.objects.get(pk=r.json()["id"])
    users = [make_user(f"s{i}") for i in range(2)]
    for u in users:
        assert api(u).post(f"/api/v1/events/{event.pk}/entries/", {},
                           format="json").status_code == 201
    return event, arbiter, users


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_in_any_rated_event_a_game_decided_unplayed_is_not_rated(make_user, cookies,
                                                                      worker):
    """R41 is every event's rule: the arbiter's unplayed decision stands and rates nothing;
    the game ends with it (the absent side forfeits)."""
    from play.models import Game
    from registry.models import RatingChange

    event, arbiter, _ = await swiss_pair(make_user)
    [p] = await pair_and_start(event, arbiter, 1)
    r = await database_sync_to_async(api(arbiter).post)(
        f"/api/v1/events/{event.pk}/rounds/1/results/", {"pairing": p.pk, "result": "-+"},
        format="json")
    assert r.status_code == 200, r.json()
    row = await archived(p.game_id)  # the decision ended the game: white forfeits (R39)
    assert (row.status, row.winner, row.rated) == ("finished", "O", False)
    assert not (await Game.objects.aget(pk=p.game_id)).rated  # its page says so
    assert not await RatingChange.objects.filter(game=row).aexists()
    assert (await Pairing.objects.aget(pk=p.pk)).result == "-+"


# --- gap 3: a board result without records (R23, R45) ---------------------------------------------

@pytest.mark.django_db
def test_a_result_typed_without_records_shows_its_ec_and_says_why_it_has_no_npc(club,
                                                                               make_user):
    event, arbiter, (_ua, a), _b, _games = board_phase(club, make_user, typed={1: "1-0"})
    table = api().get(f"/api/v1/events/{event.pk}/hettlandic/").json()["phase1"]["table"]
    row = next(t for t in table if t["key"] == a.player_id)
    first = row["lines"][0]
    assert (first["round"], first["uncounted"], first["won"], first["npc"], first["apc"]) == (
        1, "no records", True, None, None)
    assert first["ec"] == pytest.approx(2 * RA / (RA + RB))  # the ratings give Ec (R23)
    assert row["games"] == 19 and row["victory_score"] == r28(a_apcs(skip=(1,)))
    page = Client().get(f"/events/{event.pk}/").content.decode()
    assert 'data-testid="no-records"' in page and "no record yet" in page
    # the phase is rated from records: it cannot close with a result that has none
    r = api(arbiter).post(f"/api/v1/events/{event.pk}/hettlandic/close-phase-1/")
    assert r.status_code == 409 and "round 1" in r.json()["detail"] \
        and "no records" in r.json()["detail"]
    assert Hettlandic.objects.get(event=event).phase1_closed is None
    # the records arrive and are matched: the line has its NPc and APc, and the phase closes
    p = Pairing.objects.select_related("white__player", "black__player").get(
        round__event=event, round__number=1)
    game = add_game(club[0], p.white.player, p.black.player, I_WINS, at=timezone.now())
    r = api(arbiter).post(f"/api/v1/events/{event.pk}/rounds/1/results/",
                          {"pairing": p.pk, "game_id": str(game.game_id)}, format="json")
    assert r.status_code == 200, r.json()
    table = api().get(f"/api/v1/events/{event.pk}/hettlandic/").json()["phase1"]["table"]
    first = next(t for t in table if t["key"] == a.player_id)["lines"][0]
    assert first["uncounted"] is None and first["apc"] == pytest.approx(apc_of_a("I"))
    r = api(arbiter).post(f"/api/v1/events/{event.pk}/hettlandic/close-phase-1/")
    assert r.status_code == 200, r.json()
    assert PhaseRatingChange.objects.get(player=a).victory_score == r28(a_apcs()) == 114
