"""What the game socket sends is plain compact JSON, whichever encoder wrote it: the text
clients parse is the standard library's, integers of any size included (a rating past 64
bits, which orjson cannot hold, still goes out)."""

import json

import pytest

from play.live import wire
from tests.site.gameplay import store_only

pytestmark = pytest.mark.django_db


def test_an_update_is_encoded_as_the_standard_library_would(game, players):
    res = store_only(game.uuid, players[0], "step",
                          step={"kind": "move", "from": "A2", "to": "A3"}, version=0, seq="é-1")
    update = res.update()
    text = wire.encode(update)
    assert text == json.dumps(update, separators=(",", ":"), ensure_ascii=False)
    assert json.loads(text) == update


def test_an_integer_past_64_bits_is_encoded_too():
    big = {"type": "spectators", "count": 2**70, "rating": -(2**65)}
    assert json.loads(wire.encode(big)) == big
