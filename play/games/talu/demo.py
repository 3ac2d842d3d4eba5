"""Talu's sample game for the demo data (``manage.py demo_data``, issue 24): a real game.

The sample used to be a three-pass forfeit; this one is real play: both sides advance,
captures from turn 4 on, light's chain E5xD5 D5xC5 in round 10, and dark wins by invasion on
H1, a piece light cannot capture back (R10). The command replays it step by step through the
command path, as players would send the steps. Pure (no Django).
"""

from __future__ import annotations

from typing import Any

from .stgn import read_stgn

VARIANT = "talu/standard"
REASON = "invasion"  # how the sample ends (R10)

SAMPLE_STGN = """\
001 I: C1-D1 B2-B3-B4 A2-A3
001 O: H7-H6 E7-E6 A7-A6 B7-B6
002 I: A1-A2 D2-D3 C2-C3 D3-D4
002 O: F7-F6 C7-C6-C5 G7-G6
003 I: H2-H3 F2-F3 D4-D3 H3-H4
003 O: A8-A7 A6-A5 A7-A6 D7-D6
004 I: H4-H5 G2-G3 A3-A4 B4-B5
004 O: B6xB5-B4 B4xA4-A3
005 I: F3-F4 D1-D2 E2-E3 C3-C4
005 O: G6-G5 G5xH5-H4-H3
006 I: G1-G2 D3-D4 A2-A1 E1-E2
006 O: C8-C7 E6-E5 A3-A4 H6-H5
007 I: F4-F5 A1-A2 D2-D1 A2-A3
007 O: E5xF5-F4-F5 E8-E7
008 I: D1-C1-C2 G3-G4 G2-G3
008 O: G8-G7 H3-H2 D6-D5 G7-G6
009 I: G4-G5 G3-F3-F4 E3-E4
009 O: H5xG5-G4 F5xF4-F3
010 I: E4-E5 E5xD5 D5xC5-C6
010 O: F6-F5 H2-H1 E7-E6 C7-D7 !
!: O
"""


def sample_steps() -> list[tuple[str, dict[str, Any]]]:
    """The sample's steps as (side, step) in order, an ``end`` after a turn that left steps."""
    game = read_stgn(SAMPLE_STGN)
    out = []
    for turn in game.turns:
        for step in turn.steps:
            out.append((turn.side.value, step.to_dict()))
        if turn.steps and len(turn.steps) < game.variant.steps and not turn.decisive:
            out.append((turn.side.value, {"kind": "end"}))
        if not turn.steps:
            out.append((turn.side.value, {"kind": "pass"}))
    return out
