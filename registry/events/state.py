"""An event's rows as the pure core's ``Tournament`` (and nothing else: one translation)."""

from __future__ import annotations

from registry.events.models import Event, Pairing
from registry.events.pairing import model as core
from registry.events.pairing.berger import rounds_of


def total_rounds(event: Event, entrants: int) -> int:
    if event.system in ("swiss", "hettlandic"):  # R43 its rounds; R44 20
        return event.rounds
    return rounds_of(event.system, entrants)


def tournament(event: Event) -> core.Tournament:
    entries = list(event.entries.all())
    entrants = [core.Entrant(e.key, e.name, int(e.rating), e.joined_round, e.withdrawn_after)
                for e in entries]
    keys = {e.pk: e.key for e in entries}
    rounds: dict[int, core.Round] = {}
    for r in event.event_rounds.all():
        rounds[r.pk] = core.Round(r.number)
    for p in Pairing.objects.filter(round__event=event).order_by("round__number", "board"):
        rnd = rounds[p.round_id]
        if p.black_id is None:
            rnd.byes.append(core.Bye(keys[p.white_id], p.bye))
        else:
            rnd.games.append(core.BoardPairing(keys[p.white_id], keys[p.black_id], p.result or None,
                                       p.board))
    return core.Tournament(entrants, event.system, total_rounds(event, len(entrants)),
                           sorted(rounds.values(), key=lambda r: r.number),
                           event.initial_colour or "white")
