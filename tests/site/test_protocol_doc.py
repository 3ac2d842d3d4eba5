"""docs/protocol.md, as someone writing an independent client reads it (issue 27, finding 13):
every code the server can answer with is documented, and the points that were ambiguous are
said plainly."""

from __future__ import annotations

import re
from pathlib import Path

from play.games import protocol

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "protocol.md").read_text()


def _documented_rejections() -> set[str]:
    table = DOC.split("Rejection codes:", 1)[1].split("###", 1)[0]
    return set(re.findall(r"^\| `([a-z_]+)` \|", table, re.M))


def _rejections_in_code() -> set[str]:
    codes = {cls.code for cls in vars(protocol).values()
             if isinstance(cls, type) and issubclass(cls, protocol.CommandError)}
    for path in (ROOT / "play").rglob("*.py"):
        codes |= set(re.findall(r'\b_?reject\(\s*"([a-z_]+)"', path.read_text()))
    return codes


def test_every_rejection_code_is_documented():
    missing = _rejections_in_code() - _documented_rejections()
    assert not missing, f"rejection codes the doc does not list: {missing}"


def test_every_close_code_and_error_of_the_consumer_is_documented():
    from play.live import admission

    for code in (admission.TRY_AGAIN_LATER, admission.RATE_LIMITED, 4404):
        assert f"| {code} |" in DOC
    source = (ROOT / "play" / "live" / "consumer.py").read_text()
    errors = DOC.split("### `error`", 1)[1].split("###", 1)[0]
    sent = set(re.findall(r'(?:_refuse|self\.error)\(\s*"([a-z_]+)"', source))
    sent |= set(re.findall(r'"type": "error", "code": "([a-z_]+)"', source))
    assert {"busy", "rate_limited", "slow_down"} <= sent  # the patterns still find them
    for code in sent:
        assert f"`{code}`" in errors, code


def test_the_points_that_were_ambiguous():
    # The exit step's square is where the capturer stands now, or nothing.
    assert "the square the capturer stands on now" in DOC
    # Both query parameters, written as a URL has them.
    assert "?last_version=11&ack=inline" in DOC
    # One message, several events; the ack names the last; a resend gets the same version.
    assert "The `ack` names the **last** of them" in DOC
    assert "one message, one answer" in DOC
    # A step after the turn's last step: not_your_turn, said so.
    assert re.search(r"`not_your_turn` \|[^\n]*after your turn spent its last step", DOC)
    # busy is not for steps only.
    assert "any message that changes the game can get it" in DOC
    # state.notation replays for every game, an arbitrated one too, and says how
    # (tests/rules/test_arbiter_actions.py checks that it does).
    assert "canonical STGN" not in DOC
    assert "Every game's notation replays (`talu replay`)" in DOC
    assert "decided off the board, reason `decision` (R15)" in DOC
