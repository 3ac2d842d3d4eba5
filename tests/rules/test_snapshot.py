"""The snapshot a server sends after every step says what the engine's own questions say.

``TaluGame.snapshot`` computes the board's sets itself (it runs after every step a server applies),
so it is checked against the methods a reader would ask one by one, after every step of random
games of every variant, passes included (R9, R12), and with an arbiter's warning (R14).
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from play.games.talu import SIDES, VARIANTS, Step, TaluGame

SETTINGS = settings(max_examples=30, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _expected(game: TaluGame) -> dict:
    """The snapshot's derived parts, asked of the engine one question at a time."""
    return {
        "board": game.board(),
        "legal_steps": [s.to_dict() for s in game.legal_steps()],
        "overlaps": {x.value: game.overlaps(x) for x in SIDES},
        "threatened": {x.value: game.threatened(x) for x in SIDES},
        "defended": {x.value: game.defended(x) for x in SIDES},
        "invaders": {x.value: game.invaders(x) for x in SIDES},
        "pass_turns": [t.label for t in game.turns if t.counts_as_pass],
    }


@SETTINGS
@given(data=st.data(), variant=st.sampled_from(sorted(VARIANTS)))
def test_snapshot_after_every_step_matches_the_engine(data, variant):
    game = TaluGame(variant)
    warn_at = data.draw(st.integers(0, 60))
    for n in range(data.draw(st.integers(0, 150))):
        snap = game.snapshot()
        for key, value in _expected(game).items():
            assert snap[key] == value, key
        legal = game.legal_steps()
        if not legal:
            break
        if n == warn_at:
            game.warn("I", "non-engagement")  # later non-engaging turns count as passes (R14)
        if data.draw(st.integers(0, 9)) == 0:
            step = Step("pass") if game.steps_used == 0 else Step("end")
        else:
            step = legal[data.draw(st.integers(0, len(legal) - 1))]
        try:
            game.play(step)
        except ValueError:  # a pass or an end this position does not allow (R9)
            game.play(legal[0])


def test_pass_turns_are_read_again_after_more_turns():
    """The kept list grows with the game and a caller's copy is its own."""
    game = TaluGame("standard")
    game.play(Step("pass"))
    first = game.pass_turns
    assert first == [game.turns[0].label]
    first.append("tampered")
    game.play(Step("pass"))
    assert game.pass_turns == [t.label for t in game.turns]
