"""A player sets their own aNPc (R27 "may be set by the player") on their profile page; it
moves their PSF; bad values are refused with a message and change nothing; nobody else can."""

from __future__ import annotations

import pytest
from django.urls import reverse

from registry.models import Player
from registry.services import player_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def s3_player(django_user_model):
    user = django_user_model.objects.create_user(username="sara", password="pw-sara-x1")
    p = player_of(user)
    Player.objects.filter(pk=p.pk).update(stratum=3, rating=1500, start_stratum=3,
                                          start_rating=1500)
    return user


def psf_shown(client, player_id: str) -> str:
    html = client.get(reverse("profile", args=[player_id])).content.decode()
    return html.split('data-testid="psf">', 1)[1].split("<", 1)[0]


def test_own_anpc_moves_the_psf(client, s3_player):
    client.force_login(s3_player)
    pid = player_of(s3_player).player_id
    assert psf_shown(client, pid) == "1500"  # default aNPc 1.0 with no S3 game: 1500 x (2 - 1)
    page = client.get(reverse("profile", args=[pid])).content.decode()
    assert 'data-testid="anpc-form"' in page

    res = client.post(reverse("set_anpc"), {"anpc": "1.2"}, follow=True)
    assert "Your aNPc is saved." in res.content.decode()
    assert Player.objects.get(user=s3_player).anpc == 1.2
    assert psf_shown(client, pid) == "1000"  # 1500 x (2 / 1.2 - 1)

    client.post(reverse("set_anpc"), {"anpc": ""})
    assert Player.objects.get(user=s3_player).anpc is None
    assert psf_shown(client, pid) == "1500"


@pytest.mark.parametrize("value", ["0", "2.5", "-1", "lots"])
def test_an_impossible_anpc_is_refused_and_changes_nothing(client, s3_player, value):
    client.force_login(s3_player)
    client.post(reverse("set_anpc"), {"anpc": "1.5"})
    res = client.post(reverse("set_anpc"), {"anpc": value}, follow=True)
    assert "aNPc:" in res.content.decode()
    assert Player.objects.get(user=s3_player).anpc == 1.5


def test_only_the_player_sees_the_form_and_anonymous_cannot_post(client, s3_player,
                                                                 django_user_model):
    pid = player_of(s3_player).player_id
    other = django_user_model.objects.create_user(username="otto", password="pw-otto-x1")
    client.force_login(other)
    assert 'data-testid="anpc-form"' not in client.get(
        reverse("profile", args=[pid])).content.decode()
    client.logout()
    res = client.post(reverse("set_anpc"), {"anpc": "1.2"})
    assert res.status_code == 302 and reverse("login") in res["Location"]
    assert Player.objects.get(user=s3_player).anpc is None
