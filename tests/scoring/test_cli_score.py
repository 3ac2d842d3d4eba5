"""``talu score`` end to end (CLI contract): the example games, errors, and bad arguments."""

from __future__ import annotations

import json

import pytest

from talu_cli.main import main

from .test_examples_scores import EXAMPLES, LEGAL, assert_side, load

ILLEGAL = sorted(EXAMPLES.glob("illegal-*.json"))


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def cli_cases():
    for path in LEGAL:
        example = load(path)
        for k, entry in enumerate(example["score"]):
            yield pytest.param(path, example, entry, id=f"{path.stem}-{k}")


@pytest.mark.parametrize(("path", "example", "entry"), cli_cases())
def test_score_command_on_examples(capsys, path, example, entry):
    stgn = path.with_suffix(".stgn")
    code, out, _ = run(capsys, "score", str(stgn), *entry["args"],
                       "--variant", example["variant"], "--json")  # fmt: skip
    assert code == 0
    report = json.loads(out)
    assert report["ok"] is True
    for side in "IO":
        got = report[side]
        assert set(got) >= {"model", "old", "new", "coefficient", "points"}
        assert got["model"] == entry[side]["model"] and got["old"] == entry[side]["old"]
        assert_side(got["new"], got["coefficient"], got["points"], entry[side])


@pytest.mark.parametrize("path", ILLEGAL, ids=lambda p: p.stem)
def test_score_command_reports_the_failing_line(capsys, path):
    example = load(path)
    code, out, _ = run(capsys, "score", str(path.with_suffix(".stgn")), "--model-I", "S1",
                       "--rating-I", "250", "--model-O", "S3", "--rating-O", "1000",
                       "--variant", example["variant"], "--json")  # fmt: skip
    assert code == 1
    report = json.loads(out)
    assert report["ok"] is False and report["line"] == example["replay"]["line"]
    assert report["error"]


def test_unreadable_file_is_an_error_not_a_traceback(capsys, tmp_path):
    missing = str(tmp_path / "missing.stgn")
    code, out, _ = run(capsys, "score", missing, "--model-I", "S1", "--rating-I", "250",
                       "--model-O", "S1", "--rating-O", "250", "--json")  # fmt: skip
    assert code == 1
    assert json.loads(out)["ok"] is False


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--model-I", "S4", "--rating-I", "250"], "S1, S2 or S3"),
        (["--model-I", "S1", "--rating-I", "abc"], "whole number"),
        (["--model-I", "S1", "--rating-I", "-3"], "negative"),
        (["--model-I", "S1", "--rating-I", "12.5"], "whole number"),
        (["--model-I", "S1"], "--rating-I"),
    ],
)
def test_bad_arguments_get_a_clear_message(capsys, tmp_path, args, message):
    stgn = tmp_path / "g.stgn"
    stgn.write_text("")
    with pytest.raises(SystemExit) as exit_info:
        main(["score", str(stgn), *args, "--model-O", "S1", "--rating-O", "250", "--json"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_empty_game_is_unfinished_and_changes_nothing(capsys, tmp_path):
    stgn = tmp_path / "empty.stgn"
    stgn.write_text("# no turns yet\n")
    code, out, _ = run(capsys, "score", str(stgn), "--model-I", "S3", "--rating-I", "1500",
                       "--model-O", "S2", "--rating-O", "700", "--json")  # fmt: skip
    report = json.loads(out)
    assert code == 0 and report["rated"] is False
    assert report["I"]["new"] == 1500 and report["O"]["new"] == 700
    assert report["I"]["coefficient"] is None and report["O"]["coefficient"] is None


def test_text_output_explains_the_change(capsys):
    path = EXAMPLES / "legal-003-standard-normal.stgn"
    if not path.exists():
        pytest.skip("example games not available")
    code, out, _ = run(capsys, "score", str(path), "--model-I", "S1", "--rating-I", "250",
                       "--model-O", "S2", "--rating-O", "600")  # fmt: skip
    assert code == 0
    assert "I: S1 250 -> 316 (+66), 66 points" in out
    assert "O: S2 600 ->" in out and "Pc" in out


def test_score_offers_exactly_the_variants_the_site_plays():
    """Variant names live in one place (``play.games.registry``, issue 19); ``talu score``
    keeps its own tuple only so that ``--help`` imports no engine, and it must not drift: a
    variant added to the rules and missing here would be refused by the command."""
    from play.games.registry import VARIANT_NAMES
    from talu_cli import score

    assert score.VARIANT_NAMES == VARIANT_NAMES
