"""Property tests: the legal-step list and the validator agree; notation round-trips."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from play.games.talu import (
    VARIANTS,
    IllegalStepError,
    Step,
    StepFormatError,
    TaluError,
    TaluGame,
    read_stgn,
)

VARIANT_NAMES = sorted(VARIANTS)
SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _random_game(data: st.DataObject, variant: str, max_steps: int = 160) -> TaluGame:
    """Play random steps drawn from the legal-step list, preferring captures and advances."""
    game = TaluGame(variant)
    for _ in range(max_steps):
        legal = game.legal_steps()
        if not legal:
            break
        captures = [s for s in legal if s.kind in ("capture", "exit", "stay")]
        pool = captures if captures and data.draw(st.booleans()) else legal
        step = pool[data.draw(st.integers(0, len(pool) - 1))]
        game.play(step)  # must never raise: it came from the list
    return game


@SETTINGS
@given(data=st.data(), variant=st.sampled_from(VARIANT_NAMES))
def test_every_listed_step_is_accepted(data, variant):
    _random_game(data, variant)


def _state(game: TaluGame):
    return (game.bits, game.turn.used, game.turn.chain, game.side_to_move, len(game.turns),
            game.outcome)


@SETTINGS
@given(data=st.data(), variant=st.sampled_from(VARIANT_NAMES))
def test_steps_not_in_the_list_are_rejected_and_change_nothing(data, variant):
    game = _random_game(data, variant, max_steps=data.draw(st.integers(0, 80)))
    if game.outcome:
        return
    legal = set(game.legal_steps())
    g = game.geometry
    names = [n for n in g.names if n]
    for _ in range(25):
        kind = data.draw(st.sampled_from(["move", "capture", "exit", "stay", "end", "pass"]))
        frm = data.draw(st.sampled_from(names))
        to = data.draw(st.sampled_from(names))
        step = Step(kind, frm, to) if kind in ("move", "capture") else (
            Step(kind, None, to) if kind == "exit" else Step(kind))
        listed = step in legal or (kind == "exit" and any(
            s.kind == "exit" and s.to == to for s in legal))
        if listed:
            continue
        before = _state(game)
        with pytest.raises((IllegalStepError, StepFormatError)):
            game.play(step)
        assert _state(game) == before


@SETTINGS
@given(data=st.data(), variant=st.sampled_from(VARIANT_NAMES))
def test_written_notation_replays_to_the_same_game(data, variant):
    game = _random_game(data, variant)
    if game.turn.used:  # notation holds finished turns only
        if game.turn.chain >= 0:
            return
        game.play(Step.end())
    text = game.stgn()
    again = read_stgn(text, variant)
    assert again.bits == game.bits
    assert again.side_to_move == game.side_to_move
    assert again.outcome == game.outcome
    assert again.pass_turns == game.pass_turns
    assert again.stgn() == text


@SETTINGS
@given(data=st.data(), variant=st.sampled_from(VARIANT_NAMES))
def test_notation_asked_after_every_step_is_the_notation_asked_once(data, variant):
    """A live game's snapshot asks for the notation after every step, and finished turns'
    lines are kept from one asking to the next: they must be what a game asked only at the
    end writes, the decisive mark and the result line included."""
    watched, played = TaluGame(variant), []
    for _ in range(data.draw(st.integers(0, 200))):
        legal = watched.legal_steps()
        if not legal:
            break
        step = legal[data.draw(st.integers(0, len(legal) - 1))]
        watched.play(step)
        played.append(step)
        watched.stgn_lines()
    twin = TaluGame(variant)
    for step in played:
        twin.play(step)
    assert watched.outcome == twin.outcome
    assert watched.stgn_lines() == twin.stgn_lines()
    if watched.outcome is not None:
        assert watched.stgn_lines()[-2].endswith(" !")
        assert watched.stgn() == read_stgn(twin.stgn(), variant).stgn()


LINE = st.one_of(
    st.text(max_size=40),
    st.from_regex(r"\A[0-9]{1,4} [IO0io]: ([A-Ma-m][0-9]{1,2}[-x]){1,4}[A-Ma-m][0-9]{1,2}( !)?\Z"),
    st.from_regex(r"\A!: [IO\-X]\Z"),
    st.just("001 I: ."),
)


@settings(max_examples=200, deadline=None)
@given(lines=st.lists(LINE, max_size=8), variant=st.sampled_from(VARIANT_NAMES))
def test_replay_of_arbitrary_text_raises_only_engine_errors(lines, variant):
    with contextlib.suppress(TaluError):
        read_stgn("\n".join(lines), variant)
