"""The lobby's quick pairing and PSF hints (R47, R27, R23): buttons per preset, join/cancel
from the page, and for an S3 player only their PSF and the expected change at their aNPc on
the challenge form, each open challenge and in the pool, checked against numbers by hand."""

from __future__ import annotations

import pytest
from django.urls import reverse

from play.lobby import challenges, pool
from registry import services
from registry.models import Player

pytestmark = pytest.mark.django_db(transaction=True)

BLITZ = "fischer 180+2"
JSON = {"HTTP_ACCEPT": "application/json"}


@pytest.fixture(autouse=True)
def _no_limits(settings):
    settings.TALU_RATES = {**settings.TALU_RATES, "pool_join": "off", "challenge": "off"}


def _rate(user, rating: int, stratum: int, anpc: float | None = None) -> None:
    services.player_of(user)
    Player.objects.filter(user=user).update(stratum=stratum, rating=rating, anpc=anpc)


def test_quick_pairing_buttons_join_and_cancel(client, make_user):
    ann = make_user("ann")
    client.force_login(ann)
    page = client.get(reverse("lobby")).content.decode()
    for label in ("pool-3+2-rated", "pool-10+5-freeplay", "pool-30+20-rated"):
        assert f'data-testid="{label}"' in page
    r = client.post(reverse("pool_join"), {"variant": "dynamic", "pool": f"{BLITZ}|0"}, **JSON)
    assert r.status_code == 200
    st = r.json()["pairing"]
    assert st["status"] == "waiting" and st["pool"]["variant"] == "dynamic"
    assert st["pool"]["rated"] is False and st["in_range"] == 0
    state = client.get(reverse("lobby_state")).json()
    assert state["pairing"]["status"] == "waiting"
    row = next(p for p in state["pools"] if p["variant"] == "dynamic"
               and p["time_control"] == BLITZ and not p["rated"])
    assert row["waiting"] == 1
    assert client.post(reverse("pool_leave"), **JSON).json()["ok"] is True
    assert pool.state(ann) == {"status": "idle"}
    # the page's beacon when it is left: out at once, silently (no message on the next page)
    pool.join(ann, "standard", BLITZ)
    assert client.post(reverse("pool_leave"), {"beacon": "1"}).status_code == 204
    assert pool.state(ann) == {"status": "idle"}
    assert client.post(reverse("pool_leave"), {"beacon": "1"}).status_code == 204
    assert "not waiting" not in client.get(reverse("lobby")).content.decode()
    bad = client.post(reverse("pool_join"), {"pool": "fischer 1+0|1"}, **JSON)
    assert bad.status_code == 400 and "no pool" in bad.json()["message"]
    # without the script: a plain form post comes back to the lobby with the message
    r = client.post(reverse("pool_join"), {"variant": "standard", "pool": f"{BLITZ}|1"},
                    follow=True)
    assert "Looking for an opponent" in r.content.decode()


def test_s3_player_sees_psf_marks_and_expected_changes(client, make_user):
    strong, weak, peer = make_user("strong"), make_user("weak"), make_user("peer")
    _rate(strong, 1800, 3, anpc=1.2)  # PSF = 1800 x (2/1.2 - 1) = 1200 (R27)
    _rate(weak, 1000, 3)
    _rate(peer, 1500, 3)
    challenges.open_challenge(weak, time_control=BLITZ)
    challenges.open_challenge(peer, time_control=BLITZ)
    client.force_login(strong)
    page = client.get(reverse("lobby")).content.decode()
    assert "Your PSF is ~1200 (aNPc 1.20)" in page
    # vs 1000: Ec = 9/7, APc = 2.4/(1.2 + 9/7), 1800 -> 1738: -62, and below the PSF
    assert 'data-testid="psf-weak">1000 <strong class="psf-below">below your PSF</strong>' \
        ' · at your aNPc -62' in page
    # vs 1500: Ec = 12/11, 1800 -> 1886: +86, not below
    assert 'data-testid="psf-peer">1500 · at your aNPc +86' in page
    assert 'data-testid="psf-only"' in page
    marks = {c["creator"]: c["psf"] for c in client.get(reverse("lobby_state")).json()[
        "challenges"]}
    assert marks["weak"] == {"opponent": 1000, "expected": 1738, "change": -62, "below": True}
    assert marks["peer"]["change"] == 86 and marks["peer"]["below"] is False
    # in the pool: the weakest opponent of the range (1800 - 100 = 1700) at aNPc 1.2:
    # Ec = 3600/3500 = 36/35, APc = 2.4/(1.2 + 36/35) = 84/78, 1800 -> 1938.46 -> 1938
    st = client.post(reverse("pool_join"), {"pool": f"{BLITZ}|1", "psf_only": "1"},
                     **JSON).json()["pairing"]
    assert st["psf_only"] is True
    assert st["psf"] == {"psf": 1200, "anpc": 1.2, "lowest": 1700, "expected": 1938,
                         "change": 138, "below": False}


def test_nothing_s3_specific_for_s1_and_s2_players(client, make_user):
    s1, s2, strong = make_user("s1"), make_user("s2"), make_user("strong")
    _rate(s2, 900, 2)
    _rate(strong, 1800, 3, anpc=1.2)
    challenges.open_challenge(strong, time_control=BLITZ)
    anonymous = client.get(reverse("lobby_state")).json()  # a visitor: no marks, no error
    assert anonymous["challenges"][0]["creator"] == "strong"
    assert "psf" not in anonymous["challenges"][0] and anonymous["pairing"]["status"] == "idle"
    for user in (s1, s2):
        client.force_login(user)
        page = client.get(reverse("lobby")).content.decode()
        assert "PSF" not in page and "aNPc" not in page
        assert "psf" not in client.get(reverse("lobby_state")).json()["challenges"][0]
        r = client.post(reverse("pool_join"), {"pool": f"{BLITZ}|1"}, **JSON).json()
        assert "psf" not in r["pairing"]
        refused = client.post(reverse("pool_join"), {"pool": f"{BLITZ}|1", "psf_only": "1"},
                              **JSON)
        assert refused.status_code == 400 and "S3" in refused.json()["message"]
