"""R1-R4: coordinates, opening state, variants, and the overlap vocabulary."""

import pytest

from play.games.talu import SquareError, Step, TaluGame, UnknownVariantError, get_variant

from .helpers import play, position, steps_text


def test_r01_coordinates_and_square_colour():
    g = get_variant("standard").geometry
    assert (g.light >> g.square("A1")) & 1  # A1 is light
    assert not (g.light >> g.square("B1")) & 1
    assert (g.light >> g.square("H8")) & 1
    assert g.square("e3") == g.square("E3")  # readers accept lower case
    with pytest.raises(SquareError):
        g.square("I1")
    gm = get_variant("grand-master").geometry
    assert gm.name(gm.square("L12")) == "L12"
    assert TaluGame().side_to_move.value == "I"  # light moves first


def test_r02_opening_state():
    b = TaluGame().board()
    assert sorted(b["I"]) == sorted(["A1", "C1", "E1", "G1"] + [f"{f}2" for f in "ABCDEFGH"])
    assert sorted(b["O"]) == sorted(["A8", "C8", "E8", "G8"] + [f"{f}7" for f in "ABCDEFGH"])
    gm = TaluGame("grand-master").board()
    assert len(gm["I"]) == len(gm["O"]) == 18
    assert {"A1", "C1", "E1", "G1", "I1", "K1"} <= set(gm["I"])
    assert {"A12", "C12", "E12", "G12", "I12", "K12"} <= set(gm["O"])


@pytest.mark.parametrize(("name", "steps", "cost"), [
    ("standard", 4, 2), ("grand-master", 6, 3), ("dynamic", 6, 2)])
def test_r03_variant_parameters_drive_the_rules(name, steps, cost):
    v = get_variant(name)
    assert (v.steps, v.attack_cost) == (steps, cost)
    g = TaluGame(name)
    assert g.steps_left == steps
    # Spend all but (cost - 1) steps: a capture must then be unavailable.
    g2 = position(i=["D4", "A1"], o=["C4", "E4", "H8", "H6"], to_move="O", variant=name)
    path = ["H6-H5", "H5-H4", "H4-H3", "H3-H2", "H2-G2"][: steps - cost + 1]
    play(g2, *path)
    assert g2.steps_left == cost - 1
    assert not any(s.kind == "capture" for s in g2.legal_steps())


def test_r03_unknown_variant_is_a_clear_error():
    with pytest.raises(UnknownVariantError, match="unknown variant 'blitz'"):
        TaluGame("blitz")


def test_r04_overlap_threat_and_defence():
    g = position(i=["D4", "D3", "A1"], o=["C4", "E4"], to_move="I")
    # D4 is in O's overlap although a piece stands on it.
    assert "D4" in g.overlaps("O")
    assert g.threatened("I") == ["D4"]
    # D3-D4: light's own overlap squares are C3? no: squares next to both D3 and D4 - none.
    assert "D4" not in g.defended("I")
    g2 = position(i=["D4", "D3", "D5"], o=["C4", "E4"])
    assert "D4" in g2.defended("I")  # D3 and D5 both have D4 in range
    assert g2.range_of("A1") == ["B1", "A2"]


def test_r04_overlap_needs_two_distinct_pieces():
    g = position(i=["D4"], o=["C4", "H8"], to_move="O")
    assert g.overlaps("O") == []
    assert "C4xD4" not in steps_text(g)


def test_step_from_dict_rejects_malformed_input():
    from play.games.talu import StepFormatError

    with pytest.raises(StepFormatError):
        Step.from_dict({"kind": "teleport"})
    with pytest.raises(StepFormatError):
        Step.from_dict({"kind": "move", "from": "A2"})
    with pytest.raises(StepFormatError):
        Step.from_dict(["move"])
    assert Step.from_dict({"kind": "move", "from": "a2", "to": "a3"}) == Step.move("A2", "A3")
