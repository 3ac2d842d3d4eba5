"""Small builders shared by the rules tests."""

from __future__ import annotations

from play.games.talu import Step, TaluGame


def position(i: list[str], o: list[str], to_move: str = "I", variant: str = "standard") -> TaluGame:
    return TaluGame.from_position({"I": i, "O": o}, to_move, variant)


def steps_text(game: TaluGame) -> set[str]:
    return {str(s) if s.kind != "exit" else f"-{s.to}" for s in game.legal_steps()}


def play(game: TaluGame, *texts: str) -> None:
    """Play steps written as 'A2-A3', 'A2xB3', '-B4', 'stay', 'end', 'pass'."""
    for t in texts:
        if t in ("stay", "end", "pass"):
            game.play(Step(t))
        elif t.startswith("-"):
            game.play(Step.exit(t[1:]))
        elif "x" in t:
            a, b = t.split("x")
            game.play(Step.capture(a, b))
        else:
            a, b = t.split("-")
            game.play(Step.move(a, b))
