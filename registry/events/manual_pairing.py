"""An arbiter's changes by hand to a paired round before it starts (issue 38), as arbiters
make them in Swiss-Manager: swap two boards, pair two players by hand, swap a board's colours.

Each change is one transaction under the event's lock, needs a reason in words, is audited
(``AuditEntry`` ``arbitrate``, R39: an arbiter's action), is shown beside the boards it touched
("changed by hand: reason") and is written as a comment line (``###``) of the event's TRF
(``comment_lines``), so whoever checks the round with a pairing program sees why it differs.

The rule of "pair A with B", which an arbiter can say in one sentence: where A plays C and B
plays D, the round becomes A-B (on A's board, A keeping their colour) and C-D (on B's board,
D keeping theirs): Swiss-Manager's exchange. If A (or B) has the pairing-allocated bye, the
player left without an opponent takes that bye. A player absent by request (H, Z, F byes) or
withdrawn is not paired by hand, and nobody's opponent is chosen by hand more than twice in an
event (``MAX_BY_HAND``): past that, the pairing is the arbiter's rather than the system's.
Two players who have met are not paired again, as the Dutch system's first absolute criterion
says (C.04.3 C.1).

Refused in words: after the round started (its games exist), once a later round is paired on
this one, in a round robin (R42: its schedule is the Berger table, fixed by the pairing
numbers) and in Hettlandic phase 1 (R44: its pairing is the minimum-cost matching).
"""

from __future__ import annotations

from django.db import transaction

from play.games.text import problem
from registry.events.access import EventError, manage
from registry.events.models import Entry, Event, ManualChange, Pairing, Round
from registry.events.revision import touch

MAX_BY_HAND = 2  # times a player's opponent may be chosen by hand in one event
KINDS = (ManualChange.SWAP_BOARDS, ManualChange.PAIR, ManualChange.COLOURS)


def _reason(reason) -> str:
    if not isinstance(reason, str) or not reason.strip():
        raise EventError("give the reason for the change in words: it is shown beside the "
                         "boards and written in the TRF")
    if (why := problem(reason, max_length=200)) is not None:
        raise EventError(f"the reason {why}")
    return " ".join(reason.split())


def _round(user, event: Event, number) -> tuple[Event, Round]:
    """The event locked and its round, if it may still be changed by hand."""
    manage(user, event)
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.system in ("round_robin", "double_round_robin"):
        raise EventError("a round robin's pairings are its Berger table (R42): fixed by the "
                         "pairing numbers, so they are not changed by hand", "conflict")
    if event.system == "hettlandic":
        raise EventError("a Hettlandic round is paired by its minimum-cost matching (R44): "
                         "it is not changed by hand", "conflict")
    rnd = event.event_rounds.filter(number=number).first() if isinstance(number, int) \
        and not isinstance(number, bool) else None
    if rnd is None:
        raise EventError(f"no round {str(number)[:10]} is paired")
    if rnd.state != Round.PAIRED:
        raise EventError(f"round {rnd.number} has started: its pairings are played as they "
                         "are", "conflict")
    if event.event_rounds.filter(number__gt=rnd.number).exists():
        raise EventError(f"round {rnd.number + 1} is already paired on this round's pairings: "
                         f"round {rnd.number} is no longer changed by hand", "conflict")
    return event, rnd


def _board(rnd: Round, number) -> Pairing:
    found = rnd.pairings.select_related("white", "black").filter(
        board=number, black__isnull=False).first() if isinstance(number, int) \
        and not isinstance(number, bool) else None
    if found is None:
        raise EventError(f"round {rnd.number} has no board {str(number)[:10]}")
    if found.result:
        raise EventError(f"board {found.board} has a result already ({found.note or 'given'})"
                         ": it is not changed by hand", "conflict")
    return found


def _record(user, event: Event, rnd: Round, kind: str, summary: str, reason: str,
            pairings: list[Pairing], players: list[str], before: dict) -> ManualChange:
    from registry.models import AuditEntry

    change = ManualChange.objects.create(round=rnd, kind=kind, summary=summary[:300],
                                         reason=reason, players=players, by=user)
    change.pairings.set(pairings)
    AuditEntry.objects.create(
        action=AuditEntry.ARBITRATE, actor_user=user, reason=reason,
        before={"event": event.pk, "round": rnd.number, **before},
        after={"event": event.pk, "round": rnd.number, "type": f"pairing_{kind}",
               "change": summary, "boards": _boards(pairings)})
    touch(event.pk)
    return change


def _boards(pairings: list[Pairing]) -> list[dict]:
    return [{"board": p.board, "white": p.white.key,
             "black": p.black.key if p.black_id else None, "bye": p.bye or None}
            for p in pairings]


def swap_boards(user, event: Event, number, board_a, board_b, reason) -> ManualChange:
    """Two games change boards (a player who needs a particular table, the broadcast board):
    who plays whom, and with which colour, stay as paired."""
    reason = _reason(reason)
    with transaction.atomic():
        event, rnd = _round(user, event, number)
        a, b = _board(rnd, board_a), _board(rnd, board_b)
        if a.pk == b.pk:
            raise EventError("choose two different boards to swap")
        before = {"boards": _boards([a, b])}
        a.board, b.board = b.board, a.board
        Pairing.objects.filter(pk=a.pk).update(board=a.board)
        Pairing.objects.filter(pk=b.pk).update(board=b.board)
        summary = (f"boards {b.board} and {a.board} swapped: {a.white.name} - {a.black.name} "
                   f"now on board {a.board}, {b.white.name} - {b.black.name} on board "
                   f"{b.board}")
        return _record(user, event, rnd, ManualChange.SWAP_BOARDS, summary, reason, [a, b],
                       [], before)


def swap_colours(user, event: Event, number, board, reason) -> ManualChange:
    """A board's players change colours (sides: `I` is white, R43)."""
    reason = _reason(reason)
    with transaction.atomic():
        event, rnd = _round(user, event, number)
        p = _board(rnd, board)
        before = {"boards": _boards([p])}
        p.white, p.black = p.black, p.white
        Pairing.objects.filter(pk=p.pk).update(white=p.white, black=p.black)
        summary = (f"board {p.board} colours swapped: {p.white.name} now white (I), "
                   f"{p.black.name} black (O)")
        return _record(user, event, rnd, ManualChange.COLOURS, summary, reason, [p], [],
                       before)


def _seat(rnd: Round, entry: Entry) -> Pairing:
    """The player's row in the round (their board or their bye), if they may be paired by
    hand."""
    if entry.withdrawn_after is not None:
        raise EventError(f"{entry.name} has withdrawn: a withdrawn player is not paired by "
                         "hand", "conflict")
    from django.db.models import Q

    row = rnd.pairings.select_related("white", "black").filter(
        Q(white=entry) | Q(black=entry)).first()
    if row is None:
        raise EventError(f"{entry.name} is not in round {rnd.number}")
    if row.black_id is None and row.bye != "U":
        raise EventError(f"{entry.name} has a {_BYE_WORDS.get(row.bye, 'bye')} in round "
                         f"{rnd.number}: an absent player is not paired by hand", "conflict")
    if row.black_id is not None and row.result:
        raise EventError(f"board {row.board} has a result already ({row.note or 'given'}): "
                         "it is not changed by hand", "conflict")
    return row


_BYE_WORDS = {"H": "half-point bye", "Z": "zero-point bye (absent)", "F": "full-point bye",
              "U": "pairing-allocated bye"}


def _opponent(row: Pairing, entry: Entry) -> Entry | None:
    if row.black_id is None:
        return None
    return row.black if row.white_id == entry.pk else row.white


def _met(event: Event, rnd: Round, a: Entry, b: Entry) -> int | None:
    """The earlier round in which ``a`` and ``b`` met, if they did."""
    from django.db.models import Q

    met = Pairing.objects.filter(round__event=event, round__number__lt=rnd.number).filter(
        Q(white=a, black=b) | Q(white=b, black=a)).values_list("round__number", flat=True)
    return met.first()


def pair_players(user, event: Event, number, key_a, key_b, reason) -> ManualChange:
    """Pair A with B (the module's rule): A-B on A's board, the two they leave (C, D) on B's;
    a pairing-allocated bye goes to whoever is left without an opponent."""
    reason = _reason(reason)
    with transaction.atomic():
        event, rnd = _round(user, event, number)
        entries = {e.key: e for e in event.entries.filter(key__in=[str(key_a)[:40],
                                                                    str(key_b)[:40]])}
        for key in (key_a, key_b):
            if not isinstance(key, str) or key not in entries:
                raise EventError(f"{str(key)[:40]} is not a player of this event")
        a, b = entries[key_a], entries[key_b]
        if a.pk == b.pk:
            raise EventError(f"{a.name} cannot be paired against themselves")
        row_a, row_b = _seat(rnd, a), _seat(rnd, b)
        if row_a.pk == row_b.pk:
            raise EventError(f"{a.name} and {b.name} are already paired on board "
                             f"{row_a.board}", "conflict")
        c, d = _opponent(row_a, a), _opponent(row_b, b)
        if c is None and d is None:
            raise EventError("two byes cannot be paired together here", "conflict")
        if row_a.black_id is None:  # A has the bye: B's board, the bye to D
            row_a, row_b, a, b, c, d = row_b, row_a, b, a, d, c
        # now A plays C on row_a; B plays D on row_b, or has the bye (d is None)
        chosen = [a, b] + [x for x in (c, d) if x is not None]
        by_hand = _by_hand_counts(event)
        for e in chosen:
            if by_hand.get(e.key, 0) >= MAX_BY_HAND:
                raise EventError(f"{e.name} has already been paired by hand {MAX_BY_HAND} "
                                 "times in this event: the rest of their pairings are the "
                                 "system's (R43)", "conflict")
        pairs = [(a, b)] + ([(c, d)] if c is not None and d is not None else [])
        for x, y in pairs:
            if (met := _met(event, rnd, x, y)) is not None:
                raise EventError(f"{x.name} and {y.name} met in round {met}: two players "
                                 "meet once in a Swiss (C.04.3 C.1)", "conflict")
        before = {"boards": _boards([row_a, row_b])}
        # A keeps their colour on row_a, B takes C's seat
        if row_a.white_id == a.pk:
            row_a.black = b
        else:
            row_a.white = b
        # B had the pairing-allocated bye: C takes it; else D keeps their colour on row_b
        # and C takes B's seat
        if d is None or row_b.white_id == b.pk:
            row_b.white = c
        else:
            row_b.black = c
        Pairing.objects.filter(pk=row_a.pk).update(white=row_a.white, black=row_a.black)
        Pairing.objects.filter(pk=row_b.pk).update(white=row_b.white, black=row_b.black)
        left = (f"{c.name} - {d.name} on board {row_b.board}" if d is not None
                else f"{c.name} takes the pairing-allocated bye")
        summary = (f"{a.name} paired with {b.name} by hand on board {row_a.board}; {left}")
        return _record(user, event, rnd, ManualChange.PAIR, summary, reason, [row_a, row_b],
                       [e.key for e in chosen], before)


def _by_hand_counts(event: Event) -> dict[str, int]:
    counts: dict[str, int] = {}
    for players in ManualChange.objects.filter(round__event=event, kind=ManualChange.PAIR) \
            .values_list("players", flat=True):
        for key in players or []:
            counts[key] = counts.get(key, 0) + 1
    return counts


def change(user, event: Event, number, kind, **given) -> ManualChange:
    """One change by its kind (the page's and the API's one entry): ``boards`` for
    ``swap_boards``, ``players`` for ``pair``, ``board`` for ``colours``; ``reason``."""
    reason = given.get("reason")
    if kind == ManualChange.SWAP_BOARDS:
        boards = given.get("boards")
        if not isinstance(boards, (list, tuple)) or len(boards) != 2:
            raise EventError("swapping boards names two boards")
        return swap_boards(user, event, number, boards[0], boards[1], reason)
    if kind == ManualChange.PAIR:
        players = given.get("players")
        if not isinstance(players, (list, tuple)) or len(players) != 2:
            raise EventError("pairing by hand names two players")
        return pair_players(user, event, number, players[0], players[1], reason)
    if kind == ManualChange.COLOURS:
        return swap_colours(user, event, number, given.get("board"), reason)
    raise EventError(f"unknown change {str(kind)[:20]!r}: one of {', '.join(KINDS)}")


def of_round(rnd: Round) -> list[ManualChange]:
    return list(ManualChange.objects.filter(round=rnd).select_related("by")
                .prefetch_related("pairings"))


def notes(event: Event, number) -> dict[int, list[str]]:
    """Pairing id -> the reasons of the changes that touched it (the pages: "changed by
    hand: reason")."""
    out: dict[int, list[str]] = {}
    wanted = ManualChange.objects.filter(round__event=event)
    if number is not None:
        wanted = wanted.filter(round__number=number)
    for c in wanted.prefetch_related("pairings"):
        for p in c.pairings.all():
            out.setdefault(p.pk, []).append(c.reason)
    return out


def comment_lines(event: Event) -> list[str]:
    """The TRF's comment lines (``###``, skipped by every reader, ours included): one per
    change, round by round."""
    lines = []
    for c in ManualChange.objects.filter(round__event=event).select_related("round", "by"):
        who = c.by.get_username() if c.by else "an arbiter"
        lines.append(f"### round {c.round.number} changed by hand by {who} "
                     f"({c.created:%Y/%m/%d}): {c.summary}. Reason: {c.reason}")
    return lines
