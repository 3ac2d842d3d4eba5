"""Results of online event games: a finished game's result reaches its pairing at once (the
"game finished" subscription, after the registry's archive), and an arbiter's decision on a
game still live is announced at the game through the one command path (R40).
"""

from __future__ import annotations

import logging

from django.db import transaction

from play.commands.arbiter import store_action
from play.commands.path import execute
from play.commands.submission import Submission
from play.games.protocol import Announce, system
from play.games.registry import variant_of
from registry.events.models import Pairing
from registry.events.revision import touch

log = logging.getLogger(__name__)

# the live game's winner -> the pairing's result, white (`I`, R43) first; a null game is a draw
FROM_WINNER = {"I": "1-0", "O": "0-1", "-": "="}
# R41: an event game whose side did not complete its opening turn in time (the game's cause
# ``unplayed``) is an unplayed game lost by that side: 1 to the present side, 0 to the absent
UNPLAYED_WINNER = {"I": "+-", "O": "-+"}


def result_of(game) -> str | None:
    """The pairing's result for finished ``game`` (None: it ended without one)."""
    winner = game.winner or ""
    if winner not in ("", "-"):  # any two-seat game: white holds its first seat (talu's I)
        winner = "I" if winner == game.played_seats()[0] else "O"
    if game.cause == "unplayed":
        return UNPLAYED_WINNER.get(winner)
    return FROM_WINNER.get(winner)


def game_finished(game) -> None:
    """Idempotent: a result the arbiter already decided or corrected is left alone. An event
    game a side lost by not completing its opening turn in time (R41) is an unplayed game
    (``+-``/``-+``); a game that ended without a result (an aborted one, R37, which an event
    game no longer is) waits for the arbiter."""
    with transaction.atomic():
        pairing = (Pairing.objects.select_for_update().filter(game_id=game.pk)
                   .select_related("round__event").first())
        if pairing is None or pairing.decided_by in ("arbiter", ANNULLED):
            return
        if pairing.round.event.status == "closed":
            return
        result = result_of(game)
        if result is None:
            pairing.note = "the game ended without a result: the arbiter decides"
            pairing.save(update_fields=["note"])
            return
        pairing.result = result
        pairing.decided_by = "game"
        if game.cause == "unplayed":
            # the seat that lost it, as its game calls it (talu: light or dark)
            loser = variant_of(game.variant_key).label(
                next(s for s in game.played_seats() if s != game.winner))
            pairing.note = f"unplayed: {loser} did not complete the opening turn in time (R41)"
        pairing.save(update_fields=["result", "decided_by", "note"])
        touch(pairing.round.event_id)


#: the note an annulled game's pairing carries (R30/R39): the pages say "annulled" by it
ANNULLED = "annulled"


def game_annulled(archived) -> Pairing | None:
    """R39/R30: an annulled event game leaves the event's standings as an unplayed game
    (``--``, no points to either side), until the arbiter sets a result (``set_result``).
    Called by the annulment (``registry.corrections.annul_game``) in its transaction, for a
    game played on the site (its pairing's ``game``) or one matched to its pairing by its
    records (over the board). A result the arbiter decided by hand (an absent player, R41)
    is not the game's, so it stands; a closed event's results are final (R41)."""
    from registry.events.hettlandic import RECORDS

    found = Pairing.objects.select_for_update().select_related("round__event")
    pairing = (found.filter(game_id=archived.live_id).first() if archived.live_id else None) \
        or found.filter(note=f"{RECORDS}{archived.game_id}").first()
    if pairing is None or pairing.round.event.status == "closed" or \
            pairing.decided_by == ANNULLED:
        return None
    if pairing.decided_by == "arbiter" and not pairing.note.startswith(RECORDS):
        return None
    pairing.result, pairing.decided_by = "--", ANNULLED
    if not pairing.note.startswith(RECORDS):  # the records' link stays (over the board)
        pairing.note = ANNULLED
    pairing.save(update_fields=["result", "decided_by", "note"])
    touch(pairing.round.event_id)
    return pairing


def announce_decision(game, pairing: Pairing, user) -> None:
    """Tell everyone at a live game that the arbiter decided it for the event (an absent
    player, R41), then end the game as decided, by the arbiter's own action through the one
    command path (R39, R40: audited, its players told): the absent side forfeits (both
    absent: a null game). Before, the game stayed live after the decision, in an untimed
    event for good, even once the event was closed (issue 38's walk-through). Its event
    result stands as decided (``game_finished`` leaves an arbiter's result alone), and it is
    not rated (``not_rated``, marked with the decision)."""
    words = {"+-": "I wins, O absent", "-+": "O wins, I absent", "--": "both absent"}
    message = (f"The arbiter {user.get_username()} decided this event game: "
               f"{words.get(pairing.result, pairing.result)} (unplayed, R41).")
    outcome = execute(Submission(game.uuid, system("events"), Announce(message)))
    if not outcome.ok:
        log.info("event decision not announced at %s: %s", game.uuid, outcome.reason)
    played = variant_of(game.variant_key).played  # white first (R43: I plays White)
    reason = "absent: the event's arbiter decided the game as unplayed (R41)"
    action = {"+-": {"type": "forfeit", "side": played[1], "reason": reason},
              "-+": {"type": "forfeit", "side": played[0], "reason": reason},
              "--": {"type": "null", "reason": reason}}.get(pairing.result)
    if action is None:
        return
    ended = store_action(game.uuid, user, action, announce=True)
    if not ended.ok:
        log.info("event decision did not end %s: %s", game.uuid, ended.reason)


def not_rated(game) -> None:
    """R41: the arbiter decided this event game as unplayed (an absent player), so it is not
    rated, whatever the game does afterwards: a live game that later ends with a result (the
    present player plays on, or resigns) must not move a rating. The registry's row exists
    from the game's start; marked here, under its lock, the archive keeps the mark when the
    game ends (it reads the row under the same lock) and the ledger never rates it. A game
    already finished is marked only while its ratings have not moved (a game of an open rating
    phase, R45: Hettlandic phase 1); a game already rated leaves the list by annulment (R30)."""
    from play.models import Game
    from registry.models import RatingPhase, RegistryGame

    row = RegistryGame.objects.select_for_update().filter(live=game).first()
    if row is None or not row.rated:
        return
    open_phase = row.phase_id is not None and RatingPhase.objects.filter(
        pk=row.phase_id, status=RatingPhase.OPEN).exists()
    if row.status == RegistryGame.PLAYING or (row.status == RegistryGame.FINISHED
                                              and open_phase):
        row.rated = False
        row.save(update_fields=["rated", "updated"])
        Game.objects.filter(pk=game.pk).update(rated=False)  # its pages say so too
