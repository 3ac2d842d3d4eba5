"""A game of talu: the one validated way to apply steps, the history, and the outcome.

The server restores a game by replaying its stored steps (or its STGN) through ``play``, so the
whole state, a turn in progress included, is a pure function of what was played.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .decisions import ArbiterDecision, decision_from_dict, turn_label
from .errors import GameOverError, IllegalStepError, SquareError, StepFormatError, TaluError
from .invasion import can_remove_all_invaders
from .notation import turn_body
from .outcome import SIDES, Outcome, Side, Termination, describe
from .steps import CAPTURE, END, EXIT, KINDS, MOVE, PASS, Step
from .turn import IStep, TurnState
from .variants import Variant, get_variant

_STEP_CACHE: dict[object, dict[IStep, Step]] = {}


@dataclass
class TurnRecord:
    """A finished turn, with what the passing conventions and the tally need to know."""

    round: int
    side: Side
    steps: list[Step]
    before: tuple[int, int]  # (I bits, O bits) when the turn began
    after: tuple[int, int]
    captures: list[tuple[int, int]]  # (target, capturer's pieces next to it just before) R16
    passed: bool = False  # written '.'
    stalling: bool = False  # R13
    non_engaging: bool = False  # R14
    counts_as_pass: bool = False  # R12
    decisive: bool = False  # the rules decided the game at the end of this turn

    @property
    def label(self) -> str:
        return f"{self.round:03d} {self.side.value}"


@dataclass
class _Pending:
    decisions: dict[str, list[ArbiterDecision]] = field(default_factory=dict)


class TaluGame:
    """A game in progress or finished. Create one, then ``play`` steps; nothing else mutates it."""

    def __init__(self, variant: str | Variant = "standard") -> None:
        self.variant: Variant = get_variant(variant)
        self.geometry = self.variant.geometry
        # Step values are immutable: one per (kind, a, b) per board size, shared by all games.
        self._steps: dict[IStep, Step] = _STEP_CACHE.setdefault(
            (self.geometry.files, self.geometry.ranks), {})
        light, dark = self.geometry.opening()
        self.round = 1
        self.turn = TurnState(self.variant, 0, light, dark)
        self.turns: list[TurnRecord] = []
        self._turn_lines: list[str] = []  # STGN of turns[:len(_turn_lines)] (stgn_lines)
        self._pass_labels: tuple[int, list[str]] = (0, [])  # (turns read, labels): pass_turns
        self.outcome: Outcome | None = None
        self.warned: set[Side] = set()
        self.arbiter: list[ArbiterDecision] = []
        self._pending = _Pending()
        self._non_engaging_run = [0, 0]
        self._seen: set[tuple[int, int, int]] = {(light, dark, 0)}  # R13, opening included
        self._origin = (light, dark)  # the board before the first turn

    def __getstate__(self) -> dict[str, Any]:
        """A pickled game (the computer's pool gets one, play.computer.think) leaves out the
        step values shared by every game of its board size: they are not the game's own, and
        the copy links to its own process's table instead."""
        state = self.__dict__.copy()
        del state["_steps"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._steps = _STEP_CACHE.setdefault((self.geometry.files, self.geometry.ranks), {})

    @classmethod
    def from_position(
        cls,
        board: dict[str, list[str]],
        side_to_move: Side | str = "I",
        variant: str | Variant = "standard",
        round: int = 1,
    ) -> TaluGame:
        """A game starting from an arbitrary position (analysis, puzzles, the book's diagrams).

        Pieces of the side not to move that stand on its goal row are invaders the side to
        move must remove this turn (R10), as if they had just arrived.
        """
        game = cls(variant)
        g = game.geometry
        try:
            light, dark = g.bits(board.get("I", [])), g.bits(board.get("O", []))
        except SquareError as e:
            raise TaluError(str(e)) from None
        if light & dark:
            raise TaluError(f"squares hold two pieces: {', '.join(g.squares(light & dark))}")
        side = Side.parse(side_to_move) if isinstance(side_to_move, str) else side_to_move
        me, op = (light, dark) if side is Side.I else (dark, light)
        game.round = round
        game.turn = TurnState(game.variant, side.index, me, op)
        game._seen = {(light, dark, side.index)}
        game._origin = (light, dark)
        return game

    # --- state --------------------------------------------------------------------------------
    @property
    def side_to_move(self) -> Side | None:
        return None if self.outcome else SIDES[self.turn.side]

    @property
    def steps_used(self) -> int:
        return self.turn.used

    @property
    def steps_left(self) -> int:
        return self.turn.left

    @property
    def bits(self) -> tuple[int, int]:
        """(I bits, O bits) of the board as it stands, the turn in progress included."""
        t = self.turn
        return (t.me, t.op) if t.side == 0 else (t.op, t.me)

    @property
    def rounds_played(self) -> int:
        """The round number of the last turn played (0 before any)."""
        return self.turns[-1].round if self.turns else 0

    @property
    def flagged(self) -> bool:
        """R14: both players have made at least three non-engaging turns in a row each."""
        return min(self._non_engaging_run) >= 3

    @property
    def pass_turns(self) -> list[str]:
        """Labels of the turns that counted as passes (R12); kept like ``stgn_lines``: a
        finished turn's flag never changes, and every snapshot read the whole game."""
        seen, labels = self._pass_labels
        if seen != len(self.turns):
            labels.extend(t.label for t in self.turns[seen:] if t.counts_as_pass)
            self._pass_labels = (len(self.turns), labels)
        return list(labels)

    def passing(self) -> dict[str, Any]:
        """Where the passing conventions stand (R12, R13), for a player about to pass or end a
        turn: the run of turns counting as passes of each side and of the game, and what a pass
        (or ending the turn in progress, when that would stall) would do now: ``null``,
        ``forfeit`` or nothing. A board warns before a turn that loses or nulls the game
        (issue 24: a third pass used to lose without a word)."""
        run = {"I": 0, "O": 0}
        for side in SIDES:
            for r in reversed(self.turns):
                if r.side is not side:
                    continue
                if not r.counts_as_pass:
                    break
                run[side.value] += 1
        game_run = 0
        for r in reversed(self.turns):
            if not r.counts_as_pass:
                break
            game_run += 1
        mover = self.side_to_move
        would = None
        if mover is not None:
            if game_run >= 2:
                would = "null"
            elif run[mover.value] >= 2:
                would = "forfeit"
        stalls = False
        t = self.turn
        if mover is not None and t.used and t.chain < 0:
            before = self.turns[-1].after if self.turns else self._origin
            after = self.bits
            stalls = after == before or (after[0], after[1], 1 - t.side) in self._seen
        # A step that spends the turn's last step ends the turn by itself (R9): when a pass
        # would lose or null the game, name the steps that would end it stalling too. Only
        # then: it costs a copy of the turn per such step, so never on an ordinary snapshot.
        last_steps: list[dict[str, Any]] = []
        if would is not None:
            before = self.turns[-1].after if self.turns else self._origin
            for kind, a, b in t.legal():
                if kind in (END, PASS):
                    continue
                child = t.copy()
                child.apply(kind, a, b)
                if not child.over:
                    continue
                after = (child.me, child.op) if t.side == 0 else (child.op, child.me)
                if after == before or (after[0], after[1], 1 - t.side) in self._seen:
                    last_steps.append(self._to_step((kind, a, b)).to_dict())
        return {"run": run, "game_run": game_run, "pass_would": would,
                "end_stalls": stalls, "end_would": would if stalls else None,
                "stalling_last_steps": last_steps}

    def board(self) -> dict[str, list[str]]:
        i, o = self.bits
        return {"I": self.geometry.squares(i), "O": self.geometry.squares(o)}

    def _side_bits(self, side: Side | str) -> tuple[int, int]:
        # A Side is a str too: parsing one again was a tenth of a snapshot.
        s = side if isinstance(side, Side) else Side.parse(side)
        i, o = self.bits
        return (i, o) if s is Side.I else (o, i)

    def overlaps(self, side: Side | str) -> list[str]:
        """Squares in ``side``'s overlap (R4)."""
        mine, _ = self._side_bits(side)
        return self.geometry.squares(self.geometry.overlap(mine))

    def threatened(self, side: Side | str) -> list[str]:
        """Pieces of ``side`` standing in the opponent's overlap (R4)."""
        mine, theirs = self._side_bits(side)
        return self.geometry.squares(mine & self.geometry.overlap(theirs))

    def defended(self, side: Side | str) -> list[str]:
        """Pieces of ``side`` standing in their own side's overlap (R4)."""
        mine, _ = self._side_bits(side)
        return self.geometry.squares(mine & self.geometry.overlap(mine))

    def invaders(self, side: Side | str) -> list[str]:
        """Pieces of ``side`` on its goal row (R10)."""
        s = side if isinstance(side, Side) else Side.parse(side)
        mine, _ = self._side_bits(s)
        return self.geometry.squares(mine & self.geometry.goal_row(s.index))

    def range_of(self, square: str) -> list[str]:
        g = self.geometry
        return g.squares(g.neighbours[g.square(square)])

    def honor_targets(self) -> list[str]:
        """Invaders the side to move must capture this turn (R10), still on the board."""
        if self.outcome:
            return []
        return self.geometry.squares(self.turn.honor & self.turn.op)

    # --- steps --------------------------------------------------------------------------------
    def _to_step(self, s: IStep) -> Step:
        try:
            return self._steps[s]
        except KeyError:
            kind, a, b = s
            name = self.geometry.name
            step = Step(kind, name(a), name(b)) if kind in (MOVE, CAPTURE, EXIT) else Step(kind)
            self._steps[s] = step
            return step

    def legal_steps(self) -> list[Step]:
        if self.outcome:
            return []
        cache = self._steps
        try:
            return list(map(cache.__getitem__, self.turn.legal()))
        except KeyError:
            return [self._to_step(s) for s in self.turn.legal()]

    def _to_istep(self, step: Step) -> IStep:
        if isinstance(step, dict):
            step = Step.from_dict(step)
        if not isinstance(step, tuple) or step[0] not in KINDS:
            raise StepFormatError(f"not a step: {step!r}")
        g = self.geometry
        kind = step.kind
        try:
            if kind in (MOVE, CAPTURE):
                if not step.frm or not step.to:
                    raise StepFormatError(f"a {kind} step needs 'from' and 'to'")
                return (kind, g.square(step.frm), g.square(step.to))
            if kind == EXIT:
                if not step.to:
                    raise StepFormatError("an exit step needs 'to'")
                b = g.square(step.to)
                if step.frm and self.turn.chain >= 0 and g.square(step.frm) != self.turn.chain:
                    raise IllegalStepError(
                        f"the capturer stands on {g.name(self.turn.chain)}, not on {step.frm}")
                return (kind, self.turn.chain, b)
        except SquareError as e:
            raise StepFormatError(str(e)) from None
        return (kind, -1, -1)

    def check(self, step: Step | dict[str, Any]) -> Step:
        """The step as the rules read it, if it may be played now; else the error ``play``
        would raise (StepFormatError, IllegalStepError, GameOverError). Changes nothing."""
        if self.outcome:
            raise GameOverError(f"the game is over ({self._outcome_text()})")
        kind, a, b = self._to_istep(step)  # type: ignore[arg-type]
        self.turn.check(kind, a, b)
        return self._to_step((kind, a, b))

    def play(self, step: Step | dict[str, Any]) -> None:
        """Validate and apply one step; raise IllegalStepError (nothing changed) if illegal.

        The turn ends by the ``end`` step, by ``pass``, or by itself when no step remains (R9);
        the end-of-turn rules (R10-R14) then run and may decide the game.
        """
        if self.outcome:
            raise GameOverError(f"the game is over ({self._outcome_text()})")
        kind, a, b = self._to_istep(step)  # type: ignore[arg-type]
        self._play(kind, a, b)

    def _play(self, kind: str, a: int, b: int) -> None:
        t = self.turn
        t.apply(kind, a, b)
        if kind in (END, PASS) or t.over:
            self._finish_turn()

    def _outcome_text(self) -> str:
        """The result in the words every page uses ("Dark won: light resigned"), not the
        side letters ("I won by decision": "I" read as the pronoun, issue 24)."""
        o = self.outcome
        assert o is not None
        return describe(o.winner, o.reason, o.detail)

    # --- arbiter and off-board decisions ------------------------------------------------------
    def _last_label(self) -> str:
        return self.turns[-1].label if self.turns else "000 O"

    def warn(self, side: Side | str, reason: str = "non-engagement") -> ArbiterDecision:
        """R14: from now on ``side``'s non-engaging turns count as passes."""
        s = Side.parse(side) if isinstance(side, str) else side
        if self.outcome:
            raise GameOverError(f"the game is over ({self._outcome_text()})")
        d = ArbiterDecision(self._last_label(), "warn", s, reason)
        self.warned.add(s)
        self.arbiter.append(d)
        return d

    def schedule(self, decisions: list[ArbiterDecision | dict[str, Any]]) -> None:
        """Queue recorded arbiter decisions (R34) to take effect at the end of their turn.

        ``warn`` takes effect after that turn, ``count_as_pass`` makes that turn count as a pass,
        ``forfeit`` and ``null`` end the game after it; ``adjourn``/``resume``/``add_time``
        change nothing on the board.
        """
        for raw in decisions:
            d = raw if isinstance(raw, ArbiterDecision) else decision_from_dict(raw)
            if d.moment == "000 O" and not self.turns:  # before the first turn
                self._apply_now(d)
                continue
            self._pending.decisions.setdefault(d.moment, []).append(d)

    def _apply_now(self, d: ArbiterDecision) -> None:
        """A recorded decision taken before the first turn: a warning, or an end by decision
        of the arbiter (a count_as_pass needs a turn already played)."""
        if d.action == "count_as_pass":
            raise TaluError(f"arbiter decision count_as_pass names turn {d.turn!r}, which was "
                            "not played before it")
        if self.outcome is not None and d.action in ("warn", "forfeit", "null"):
            raise TaluError(f"arbiter decision {d.action} after the end of the game")
        self.arbiter.append(d)
        if d.action == "warn" and d.side:
            self.warned.add(d.side)
        elif d.action == "forfeit" and d.side:
            self.outcome = Outcome(d.side.other, Termination.FORFEIT, "arbiter")
        elif d.action == "null":
            self.outcome = Outcome(None, Termination.NULL, "arbiter")

    # --- the arbiter's actions in play (R39) ---------------------------------------------------
    def _check_live(self) -> None:
        if self.outcome:
            raise GameOverError(f"the game is over ({self._outcome_text()})")

    def check_count_as_pass(self, turn: str) -> TurnRecord:
        """The finished turn labelled ``turn`` ("014 O") that an arbiter may count as a pass
        now; else the reason why not (the game over, no such turn, a turn still in progress,
        a turn that counts as a pass already). Changes nothing."""
        self._check_live()
        label = turn_label(turn)
        for rec in reversed(self.turns):
            if rec.label == label:
                if rec.counts_as_pass:
                    raise IllegalStepError(f"turn {label} counts as a pass already")
                return rec
        side = SIDES[self.turn.side]
        if label == f"{self.round:03d} {side.value}":
            raise IllegalStepError(f"turn {label} is still in progress; only a turn already "
                                   "played can count as a pass")
        raise IllegalStepError(f"there is no turn {label} in this game (the last is "
                               f"{self._last_label()})")

    def count_as_pass(self, turn: str, side: Side | str | None = None,
                      reason: str = "") -> ArbiterDecision:
        """R39: turn ``turn``, already played, counts as a pass (R12) from now on; the passing
        conventions are checked again at once and may end the game."""
        rec = self.check_count_as_pass(turn)
        s = Side.parse(side) if isinstance(side, str) else side
        if s is not None and s is not rec.side:
            raise IllegalStepError(f"turn {rec.label} is {rec.side.value}'s, not {s.value}'s")
        at = self._last_label()
        d = ArbiterDecision(rec.label, "count_as_pass", rec.side, reason,
                            at if at != rec.label else "")
        self.arbiter.append(d)
        self._count(rec)
        return d

    def _count(self, rec: TurnRecord) -> None:
        """Make ``rec`` count as a pass and check R12 again over the game as it stands."""
        rec.counts_as_pass = True
        self._pass_labels = (0, [])  # a finished turn's flag changed: read them again
        outcome = self._passing()
        if outcome is not None:
            self._end_after_last_turn(outcome)

    def _passing(self) -> Outcome | None:
        """R12 over the game as it stands: three turns of the game in a row counting as
        passes make it null; else a side whose own last three do forfeits (the side of the last
        turn first, as at the end of its turn, R11 (4))."""
        recent = self.turns[-3:]
        if len(recent) == 3 and all(r.counts_as_pass for r in recent):
            return Outcome(None, Termination.NULL)
        if not self.turns:
            return None
        last = self.turns[-1].side
        for side in (last, last.other):
            own = [r for r in self.turns if r.side is side][-3:]
            if len(own) == 3 and all(r.counts_as_pass for r in own):
                return Outcome(side.other, Termination.FORFEIT)
        return None

    def arbiter_end(self, action: str, side: Side | str | None = None,
                    reason: str = "") -> ArbiterDecision:
        """R39 ``forfeit`` (``side`` loses) or ``null``: the game ends by the arbiter's
        decision now. A turn in progress is discarded (it was never completed); the decision
        is recorded at the last turn played, where a replay applies it (``schedule``)."""
        self._check_live()
        if action not in ("forfeit", "null"):
            raise TaluError(f"not an ending decision: {action!r}")
        s = Side.parse(side) if isinstance(side, str) else side
        if action == "forfeit" and s is None:
            raise TaluError("a forfeit names the side that loses")
        d = ArbiterDecision(self._last_label(), action, s if action == "forfeit" else None,
                            reason)
        self._discard_open_turn()
        self.arbiter.append(d)
        outcome = (Outcome(s.other, Termination.FORFEIT, "arbiter") if action == "forfeit"
                   else Outcome(None, Termination.NULL, "arbiter"))
        if self.turns:
            self._end_after_last_turn(outcome)
        else:
            self.outcome = outcome
        return d

    def add_time(self, side: Side | str, seconds: int, reason: str = "") -> ArbiterDecision:
        """R39 ``add_time``: the arbiter adds ``seconds`` to ``side``'s clock, recorded at the
        last turn played. Nothing changes on the board; the clock is the server's
        (``play.games.clock.Clock.add``), the decision goes into the record (R34)."""
        self._check_live()
        s = Side.parse(side) if isinstance(side, str) else side
        if isinstance(seconds, bool) or not isinstance(seconds, int) or seconds <= 0:
            raise TaluError(f"add_time adds a whole number of seconds, not {seconds!r}")
        d = ArbiterDecision(self._last_label(), "add_time", s, reason, seconds=seconds)
        self.arbiter.append(d)
        return d

    def _end_after_last_turn(self, outcome: Outcome) -> None:
        """The game ends at the end of the last turn played (as a replay of the records ends
        it there): that turn becomes the deciding one (its STGN line gains ' !')."""
        self._discard_open_turn()
        rec = self.turns[-1]
        rec.decisive = True
        if len(self._turn_lines) == len(self.turns) and not self._turn_lines[-1].endswith(" !"):
            self._turn_lines[-1] += " !"
        self.outcome = outcome

    def _discard_open_turn(self) -> None:
        t = self.turn
        if t.used:
            i, o = self.turns[-1].after if self.turns else self._origin
            me, op = (i, o) if t.side == 0 else (o, i)
            self.turn = TurnState(self.variant, t.side, me, op)

    def decide(self, winner: Side | str | None, detail: str = "decision") -> Outcome:
        """End the game off the board (resignation, time, arbiter): reason ``decision`` (R15).

        A turn in progress is discarded: it was never completed, so it is not part of the record.
        """
        if self.outcome:
            raise GameOverError(f"the game is over ({self._outcome_text()})")
        w = Side.parse(winner) if isinstance(winner, str) else winner
        self._discard_open_turn()
        self.outcome = Outcome(w, Termination.DECISION, detail)
        return self.outcome

    # --- end of turn --------------------------------------------------------------------------
    def _finish_turn(self) -> None:
        t = self.turn
        g = self.geometry
        side = SIDES[t.side]
        s = t.side
        before = self.turns[-1].after if self.turns else self._origin
        after = (t.me, t.op) if s == 0 else (t.op, t.me)
        passed = t.used == 0
        key = (after[0], after[1], 1 - s)
        # R13: spent steps and changed nothing, or repeated any earlier position.
        stalling = not passed and (after == before or key in self._seen)
        self._seen.add(key)
        # R14: captured nothing, threatened nothing new, came no nearer to the goal row.
        non_engaging = False
        if not passed and not t.captures:
            my0, op0 = before[s], before[1 - s]
            threat0 = op0 & g.overlap(my0)
            threat1 = t.op & g.overlap(t.me)
            non_engaging = not (threat1 & ~threat0) and (
                g.distance_sum(t.me, s) >= g.distance_sum(my0, s))
        self._non_engaging_run[s] = self._non_engaging_run[s] + 1 if non_engaging else 0
        rec = TurnRecord(
            round=self.round, side=side, steps=[self._to_step(x) for x in t.steps],
            before=before, after=after, captures=t.captures, passed=passed,
            stalling=stalling, non_engaging=non_engaging,
        )
        pending = self._pending.decisions.pop(rec.label, [])
        rec.counts_as_pass = passed or stalling or (non_engaging and side in self.warned)
        self.turns.append(rec)

        outcome = self._judge(t, side)
        if s == 1:
            self.round += 1
        self.turn = TurnState(self.variant, 1 - s, t.op, t.me)
        if outcome:
            rec.decisive = True
            self.outcome = outcome
        for d in pending:  # the arbiter's decisions recorded at this turn (R34), in order
            self._replay_decision(d, rec)

    def _replay_decision(self, d: ArbiterDecision, rec: TurnRecord) -> None:
        """One recorded decision (R34) at the end of turn ``rec``, as it was taken in play."""
        if self.outcome is not None:
            if d.action == "count_as_pass" and not d.at and rec.counts_as_pass:
                self.arbiter.append(d)  # a pass already, of the turn that decided the game
                return
            raise TaluError(f"arbiter decision {d.action} at {d.moment} follows the end of "
                            "the game")
        if d.action == "count_as_pass":
            # In the order the decisions were taken: the turn counts from now on, and the
            # passing conventions are checked again at once (R39), as in play.
            target = next((r for r in self.turns if r.label == d.turn), None)
            if target is None:
                raise TaluError(f"arbiter decision count_as_pass names turn {d.turn!r}, "
                                f"which was not played before {d.moment}")
            self.arbiter.append(d)
            if not target.counts_as_pass:
                self._count(target)
            return
        self.arbiter.append(d)
        if d.action == "warn" and d.side:
            self.warned.add(d.side)
        elif d.action == "forfeit" and d.side:
            self._end_after_last_turn(Outcome(d.side.other, Termination.FORFEIT, "arbiter"))
        elif d.action == "null":
            self._end_after_last_turn(Outcome(None, Termination.NULL, "arbiter"))

    def _judge(self, t: TurnState, side: Side) -> Outcome | None:
        """R11: the checks at the end of every turn of P, in order."""
        g = self.geometry
        s = t.side
        if not t.op:
            return Outcome(side, Termination.ELIMINATION)  # (1)
        if t.op & g.home_row(s):
            return Outcome(side.other, Termination.INVASION, "honor")  # (2) honor failure
        if t.me & g.goal_row(s):  # (3) new invaders the opponent cannot all remove
            reply = TurnState(self.variant, 1 - s, t.op, t.me)
            if not can_remove_all_invaders(reply):
                return Outcome(side, Termination.INVASION)
        recent = self.turns[-3:]  # (4) passing conventions, R12
        if len(recent) == 3 and all(r.counts_as_pass for r in recent):
            return Outcome(None, Termination.NULL)
        own = self.turns[-5::2] if len(self.turns) >= 5 else []
        if len(own) == 3 and all(r.counts_as_pass for r in own):
            return Outcome(side.other, Termination.FORFEIT)
        return None

    # --- notation -----------------------------------------------------------------------------
    def stgn_lines(self) -> list[str]:
        """Canonical STGN (R15) of the finished turns, then the result line once decided.

        A finished turn's line never changes (``_finish_turn`` completes its record before
        returning), so each is written once and kept: a live game's snapshot after every step
        had rewritten the whole game's notation, most of a snapshot's cost late in a game.
        """
        done = self._turn_lines
        for r in self.turns[len(done):]:
            line = f"{r.label}: {turn_body(r.steps)}"
            if r.decisive:
                line += " !"
            done.append(line)
        lines = list(done)
        if self.outcome:
            lines.append(f"!: {self.outcome.result_text}")
        return lines

    def stgn(self) -> str:
        return "\n".join(self.stgn_lines()) + "\n"

    def open_turn(self) -> list[Step]:
        """The steps of the turn in progress."""
        return [self._to_step(x) for x in self.turn.steps]

    def snapshot(self) -> dict[str, Any]:
        """The whole state as JSON-ready data, what a client needs to draw and to play.

        Built after every step a server applies, so written for speed (it was a tenth of a
        loaded server's time, BENCHMARKS.md, issue 7): each side's bits and overlap computed
        once, the legal steps unpacked without a method call each. The same values as
        ``board``, ``overlaps``, ``threatened``, ``defended``, ``invaders`` and
        ``legal_steps`` (tests/rules/test_snapshot.py)."""
        open_steps = self.open_turn()
        side = self.side_to_move
        g = self.geometry
        squares = g.squares
        i, o = self.bits
        over_i, over_o = g.overlap(i), g.overlap(o)
        return {
            "variant": self.variant.name,
            "files": self.variant.files,
            "ranks": self.variant.ranks,
            "steps_per_turn": self.variant.steps,
            "round": self.round,
            "side_to_move": side.value if side else None,
            "steps_used": self.steps_used,
            "steps_left": self.steps_left,
            "board": {"I": squares(i), "O": squares(o)},
            "legal_steps": [{"kind": kind, "from": frm, "to": to}
                            for kind, frm, to in self.legal_steps()],
            "honor_targets": self.honor_targets(),
            "overlaps": {"I": squares(over_i), "O": squares(over_o)},
            "threatened": {"I": squares(i & over_o), "O": squares(o & over_i)},
            "defended": {"I": squares(i & over_i), "O": squares(o & over_o)},
            "invaders": {"I": squares(i & g.goal_row(0)), "O": squares(o & g.goal_row(1))},
            "notation": self.stgn_lines(),
            "open_turn": {
                "steps": [s.to_dict() for s in open_steps],
                "text": turn_body(open_steps) if open_steps else "",
            },
            "outcome": self.outcome.to_dict() if self.outcome else None,
            "pass_turns": self.pass_turns,
            "passing": self.passing(),
            "flagged": self.flagged,
            "warned": sorted(x.value for x in self.warned),
            "arbiter": [d.to_dict() for d in self.arbiter],
        }
