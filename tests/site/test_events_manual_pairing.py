"""An arbiter's changes by hand to a paired round before it starts (issue 38): swap two
boards, pair two players (A plays C, B plays D: A-B and C-D, Swiss-Manager's exchange), swap a
board's colours. Each with its reason: audited (R39), shown beside the boards, written as a
``###`` comment line of the TRF, which the import still reads back. Refused in words after
the round started, for a player against themselves, a player paired by hand twice, a
withdrawn player, two players who met (C.04.3 C.1), and in a round robin (R42)."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from registry.events import manual_pairing, rounds, services
from registry.events.access import EventError
from registry.events.models import Event, Pairing
from registry.events.pairing import trf
from registry.models import AffiliatedBody, AuditEntry

REASON = "Ann needs the table by the door"


def board_event(make_user, players: int = 6, system: str = "swiss"):
    """An over-the-board event of ``players`` guests, round 1 paired, not started."""
    body = AffiliatedBody.objects.create(registrar_id="CLUB-HAND", name="Hand club")
    arbiter = make_user("arbiter")
    body.registrars.add(arbiter)
    event = services.create_event(arbiter, body, name="Tuesday Swiss", system=system,
                                  rounds=4 if system == "swiss" else 0, venue="board")
    names = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"][:players]
    for i, name in enumerate(names):
        services.enter_player(arbiter, event, name, 2000 - 100 * i)
    rounds.pair_round(arbiter, event)
    return Event.objects.get(pk=event.pk), arbiter, body


def board_rows(event, number: int = 1) -> list[tuple[int, str, str]]:
    return [(p.board, p.white.name, p.black.name) for p in Pairing.objects.filter(
        round__event=event, round__number=number, black__isnull=False)
        .select_related("white", "black").order_by("board")]


def key(event, name: str) -> str:
    return event.entries.get(name=name).key


@pytest.mark.django_db
def test_swapping_two_boards_is_shown_audited_and_in_the_trf(make_user):
    event, arbiter, body = board_event(make_user)
    before = board_rows(event)
    change = manual_pairing.swap_boards(arbiter, event, 1, 1, 3, REASON)
    after = board_rows(event)
    assert after == [(1, *before[2][1:]), (2, *before[1][1:]), (3, *before[0][1:])]

    audit = AuditEntry.objects.get(action=AuditEntry.ARBITRATE)
    assert audit.reason == REASON and audit.actor_user == arbiter
    assert audit.after["event"] == event.pk and audit.after["type"] == "pairing_swap_boards"
    assert [b["board"] for b in audit.before["boards"]] == [1, 3]

    page = Client().get(f"/events/{event.pk}/").content.decode()
    assert page.count(f"(changed by hand: {REASON})") == 2  # beside both boards
    assert change.summary in page

    text = services.export_trf(event)
    comments = [ln for ln in text.splitlines() if ln.startswith("###")]
    assert comments == [f"### round 1 changed by hand by arbiter "
                        f"({change.created:%Y/%m/%d}): {change.summary}. Reason: {REASON}"]
    # the file reads back: the same games and colours, the comment skipped (TRF has no
    # board numbers: a reader numbers the boards itself)
    back = trf.parse(text)
    assert {(g.white, g.black) for g in back.rounds[0].games} == {
        (key(event, w), key(event, k)) for _, w, k in after}
    imported = services.import_trf(arbiter, body, text, name="Again")
    assert {r[1:] for r in board_rows(imported)} == {r[1:] for r in after}


@pytest.mark.django_db
def test_pairing_two_players_by_hand_pairs_the_two_they_leave(make_user):
    event, arbiter, _ = board_event(make_user)
    rows = board_rows(event)
    (_, a, c), (_, b, d) = rows[0], rows[1]  # A plays C on board 1, B plays D on board 2
    manual_pairing.pair_players(arbiter, event, 1, key(event, a), key(event, d),
                                "a family must not meet")
    # "pair A with D": A keeps white on board 1 against D; B and C meet on board 2, B
    # keeping their seat
    assert board_rows(event)[:2] == [(1, a, d), (2, b, c)]
    page = Client().get(f"/events/{event.pk}/").content.decode()
    assert "(changed by hand: a family must not meet)" in page
    assert f"{a} paired with {d} by hand on board 1; {c} - {b} on board 2" in page


@pytest.mark.django_db
def test_swapping_a_boards_colours(make_user):
    event, arbiter, _ = board_event(make_user)
    (_, w, b) = board_rows(event)[1]
    manual_pairing.change(arbiter, event, 1, "colours", board=2, reason="colour balance")
    assert board_rows(event)[1] == (2, b, w)
    assert "colours swapped" in services.export_trf(event)


@pytest.mark.django_db
def test_the_pairing_allocated_bye_goes_to_the_player_left_alone(make_user):
    event, arbiter, _ = board_event(make_user, players=5)
    bye = Pairing.objects.get(round__event=event, bye="U")
    alone = bye.white.name
    _, a, c = board_rows(event)[0]
    manual_pairing.pair_players(arbiter, event, 1, key(event, alone), key(event, a),
                                "the bye goes elsewhere")
    assert board_rows(event)[0] == (1, a, alone)  # A keeps white, C's seat to the bye's
    assert Pairing.objects.get(round__event=event, bye="U").white.name == c


@pytest.mark.django_db
def test_refusals_are_in_words_and_change_nothing(make_user, django_user_model):
    event, arbiter, _ = board_event(make_user)
    rows = board_rows(event)
    a, c = rows[0][1], rows[0][2]

    def refused(call, *words):
        with pytest.raises(EventError) as err:
            call()
        for w in words:
            assert w in str(err.value), str(err.value)
        assert board_rows(event) == rows

    refused(lambda: manual_pairing.swap_boards(arbiter, event, 1, 1, 2, "  "), "reason")
    refused(lambda: manual_pairing.pair_players(arbiter, event, 1, key(event, a),
                                                key(event, a), "x"), "against themselves")
    refused(lambda: manual_pairing.pair_players(arbiter, event, 1, key(event, a),
                                                key(event, c), "x"), "already paired")
    refused(lambda: manual_pairing.swap_boards(arbiter, event, 1, 1, 9, "x"), "no board 9")
    refused(lambda: manual_pairing.change(arbiter, event, 1, "shuffle", reason="x"),
            "unknown change")
    outsider = make_user("outsider")
    refused(lambda: manual_pairing.swap_boards(outsider, event, 1, 1, 2, "x"),
            "only an arbiter")
    services.withdraw(arbiter, event, event.entries.get(name=rows[2][1]))
    refused(lambda: manual_pairing.pair_players(arbiter, event, 1, key(event, a),
                                                key(event, rows[2][1]), "x"), "withdrawn")
    rounds.start_round(arbiter, event, 1)
    refused(lambda: manual_pairing.swap_boards(arbiter, event, 1, 1, 2, "x"), "has started")
    assert not AuditEntry.objects.exists()


@pytest.mark.django_db
def test_a_player_is_paired_by_hand_twice_at_most(make_user):
    event, arbiter, _ = board_event(make_user, players=8)
    rows = board_rows(event)
    ann = rows[0][1]
    others = [r[2] for r in rows[1:]]
    manual_pairing.pair_players(arbiter, event, 1, key(event, ann), key(event, others[0]), "one")
    manual_pairing.pair_players(arbiter, event, 1, key(event, ann), key(event, others[1]), "two")
    with pytest.raises(EventError, match="already been paired by hand 2 times"):
        manual_pairing.pair_players(arbiter, event, 1, key(event, ann), key(event, others[2]),
                                    "three")


@pytest.mark.django_db
def test_two_players_who_met_are_not_paired_again(make_user):
    event, arbiter, _ = board_event(make_user)
    first = board_rows(event)
    for p in Pairing.objects.filter(round__event=event, black__isnull=False):
        services.set_result(arbiter, event, p.pk, "1-0")
    rounds.start_round(arbiter, event, 1)
    rounds.pair_round(arbiter, event)
    _, w, b = first[0]
    with pytest.raises(EventError, match="met in round 1"):
        manual_pairing.pair_players(arbiter, event, 2, key(event, w), key(event, b), "again")
    # round 1 is not changed once round 2 is paired on it (it has started anyway)
    with pytest.raises(EventError):
        manual_pairing.swap_boards(arbiter, event, 1, 1, 2, "late")


@pytest.mark.django_db
def test_a_round_robin_is_not_changed_by_hand(make_user):
    event, arbiter, _ = board_event(make_user, players=4, system="round_robin")
    with pytest.raises(EventError, match="Berger table \\(R42\\)"):
        manual_pairing.swap_boards(arbiter, event, 1, 1, 2, "x")


@pytest.mark.django_db
def test_the_page_and_the_api_change_a_round(make_user):
    event, arbiter, _ = board_event(make_user)
    web = Client()
    web.force_login(arbiter)
    page = web.get(f"/events/{event.pk}/").content.decode()
    assert 'data-testid="change-by-hand"' in page
    rows = board_rows(event)
    r = web.post(f"/events/{event.pk}/act/", {"action": "change", "change": "colours",
                                              "round": "1", "board": "1",
                                              "reason": "the board's clock"}, follow=True)
    assert "changed by hand" in r.content.decode()
    assert board_rows(event)[0] == (1, rows[0][2], rows[0][1])
    r = web.post(f"/events/{event.pk}/act/", {"action": "change", "change": "swap_boards",
                                              "round": "1", "board_a": "1", "board_b": "1",
                                              "reason": "x"}, follow=True)
    assert "two different boards" in r.content.decode()

    api = APIClient()
    api.force_authenticate(arbiter)
    url = f"/api/v1/events/{event.pk}/rounds/1/changes/"
    r = api.post(url, {"change": "swap_boards", "boards": [2, 3], "reason": "broadcast"},
                 format="json")
    assert r.status_code == 201, r.json()
    assert r.json()["reason"] == "broadcast" and "boards 2 and 3 swapped" in r.json()["summary"]
    assert [c["change"] for c in api.get(url).json()["changes"]] == ["colours", "swap_boards"]
    r = api.post(url, {"change": "pair", "players": ["nobody", "else"], "reason": "x"},
                 format="json")
    assert r.status_code == 400 and "not a player" in r.json()["detail"]
    other = make_user("other")
    api.force_authenticate(other)
    assert api.post(url, {"change": "colours", "board": 1, "reason": "x"},
                    format="json").status_code == 403
    api.force_authenticate(arbiter)
    rounds.start_round(arbiter, event, 1)
    r = api.post(url, {"change": "colours", "board": 1, "reason": "x"}, format="json")
    assert r.status_code == 409 and "has started" in r.json()["detail"]
