"""The ``score`` entries of every example game (../shared/examples), from its ``tally`` entry.

The examples were made by an independent reading of the book and the rulings; agreeing on all
of them (every model, null and unfinished games, forfeits, every success code) is a check on
both readings. The cascade is checked against the same numbers.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from registry.scoring.cascade import PlayerState, RatedGame, cascade
from registry.scoring.sx import score_game
from registry.scoring.tally import CODES, Tally

EXAMPLES = Path(
    os.environ.get("TALU_EXAMPLES", Path(__file__).resolve().parents[3] / "shared" / "examples")
)
LEGAL = sorted(EXAMPLES.glob("legal-*.json"))

pytestmark = pytest.mark.skipif(not LEGAL, reason=f"no example games in {EXAMPLES}")


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def tally_of(example: dict) -> Tally:
    t, result = example["tally"], example["replay"]["result"]
    codes = {side: {code: t[side][code] for code in CODES} for side in "IO"}
    return Tally(
        codes=codes,
        captures=dict(t["captures"]),
        rounds=example["replay"]["rounds"],
        winner=result["winner"],
        reason=result["reason"],
    )


def cases():
    for path in LEGAL:
        example = load(path)
        for k, entry in enumerate(example["score"]):
            yield pytest.param(example, entry, id=f"{path.stem}-{k}")


def parse_args(args: list[str]) -> tuple[dict[str, str], dict[str, int]]:
    opts = dict(zip(args[::2], args[1::2], strict=True))
    models = {"I": opts["--model-I"], "O": opts["--model-O"]}
    ratings = {"I": int(opts["--rating-I"]), "O": int(opts["--rating-O"])}
    return models, ratings


def assert_side(got_new, got_coefficient, got_points, expected: dict) -> None:
    assert got_new == expected["new"]
    assert got_points == expected["points"]
    if expected["coefficient"] is None:
        assert got_coefficient is None
    else:
        assert got_coefficient == pytest.approx(expected["coefficient"], abs=1e-9)


def test_every_legal_example_has_scores():
    assert len(LEGAL) >= 16
    assert all(len(load(p)["score"]) == 3 for p in LEGAL)


@pytest.mark.parametrize(("example", "entry"), cases())
def test_example_score(example, entry):
    models, ratings = parse_args(entry["args"])
    game = score_game(tally_of(example), models, ratings)
    for side in "IO":
        result = game[side]
        assert result.model == entry[side]["model"] and result.old == entry[side]["old"]
        assert_side(result.new, result.coefficient, result.points, entry[side])


@pytest.mark.parametrize(("example", "entry"), cases())
def test_example_score_through_the_cascade(example, entry):
    # Players seeded in the stratum of their model, so the cascade picks the same models.
    models, ratings = parse_args(entry["args"])
    seed = {
        f"P{side}": PlayerState(f"P{side}", stratum=int(models[side][1]), rating=ratings[side])
        for side in "IO"
    }
    record = RatedGame.from_tally("g", "PI", "PO", tally_of(example))
    change = cascade([record], seed).changes[0]
    for side in "IO":
        got = change[side]
        assert got.model == models[side]
        assert_side(got.new, got.coefficient, got.points, entry[side])
