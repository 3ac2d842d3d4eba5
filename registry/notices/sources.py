"""The words of the notices the registry itself sends (issue 39): an arbiter's decision on a
game (``play_directory.arbiter_acted``, after the audit's entry) and the federation's reply to
a club application (``registry.clubs.notify``). Play's own notices, your turn, a challenge, a
round started, come through ``play.ports`` (``RegistryDirectory.notify``) with their words."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from registry.notices.services import notify

#: What each arbiter's action did, in words (R39; the commands of ``play.games``).
ACTIONS = {
    "warn": "a warning to {player}",
    "count_as_pass": "a turn of {player} counted as a pass",
    "forfeit": "{player} loses by forfeit",
    "null": "the game is null",
    "add_time": "time added for {player}",
    "adjourn": "the game is adjourned",
    "resume": "the game resumes",
    "annul": "the game is annulled: it counts for no rating (R30)",
}


def arbiter_decided(game: Any, command: dict[str, Any]) -> None:
    """R39: tell each player of ``game`` what its arbiter decided, and why."""
    seats = game.holders()
    names = {seat: user.get_username() for seat, user in seats}
    player = names.get(command.get("side") or "", "a player")
    words = ACTIONS.get(command.get("type", ""), "a decision").format(player=player)
    reason = str(command.get("reason") or "").strip()
    url = reverse("game", args=[game.uuid])
    for _, user in seats:
        others = ", ".join(n for n in names.values() if n != user.get_username())
        text = (f"An arbiter's decision on your game against {others}: {words}"
                + (f" ({reason})" if reason else "") + ".")
        notify(user, "decision", text, url)


def club_decided(application: Any) -> None:
    """Book 5.3.4: tell the applicant the federation's reply, and where to go from it."""
    if application.status == "approved" and application.body is not None:
        text = (f"Your club application for {application.name} was approved: you are its "
                f"first registrar.")
        url = reverse("club", args=[application.body.registrar_id])
    elif application.status == "refused":
        reason = f": {application.reason}" if application.reason else "."
        text = f"Your club application for {application.name} was refused{reason}"
        url = reverse("club_apply")
    else:
        return
    notify(application.applicant, "club", text, url)
