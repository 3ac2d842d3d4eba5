"""The records written when a live game ends are what anyone gets from its files.

The site builds the slip (STDGS) from the session entry's document as it made it, not from
its YAML read back (that reading was a large part of ending a long game, BENCHMARKS.md); so
the slip must be byte for byte what ``talu slip`` makes from the downloaded STGE and STSE.
"""

import pytest

from play.lifecycle import start_game
from registry.models import GameRecord
from registry.records import slip as slips
from registry.records import yamlio
from tests.site.gameplay import FORFEIT_BY_I, play_line

pytestmark = pytest.mark.django_db


def test_the_slip_is_the_one_made_from_the_stored_files(make_user, settings):
    settings.TALU_PLACE = "Győr — Ünnepi csarnok"  # in the session entry, taken from memory
    zoe, bob = make_user("zoë-ó"), make_user("bob")  # a name YAML must keep as written
    game = start_game(zoe, bob, variant="standard", rated=True)
    play_line(game, FORFEIT_BY_I)
    texts = {r.kind: r.content for r in GameRecord.objects.filter(game__live=game)}
    stored = yamlio.load_yaml(texts["STDGS"])
    again = slips.slip_yaml(yamlio.load_yaml(texts["STGE"]), [yamlio.load_yaml(texts["STSE"])],
                            generated_at=stored["tally"]["generated"]["at"],
                            generated_by=stored["tally"]["generated"]["by"])
    assert texts["STDGS"] == again
    assert "zoë-ó" in texts["STGE"] and "Győr — Ünnepi csarnok" in texts["STSE"]
    assert stored["tally"]["player_O"]["F.a"] == 4
