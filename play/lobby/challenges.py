"""Challenges: a player offers a game, another accepts it, and the game starts."""

from __future__ import annotations

import random
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.urls import reverse

from play import ports
from play.chat import restrictions
from play.games import clock
from play.games.registry import checked_options, full_title, variant_of
from play.lifecycle import start_table
from play.models import Challenge, Game
from talu_site import ratelimit


class ChallengeError(ValueError):
    """A challenge request refused, with a message a user can read."""


def open_challenge(user, variant: str = "standard", rated: bool = True, opponent: str = "",
                   side: str = "random", time_control: str = "untimed",
                   address: str | None = None,
                   options: dict[str, Any] | None = None) -> Challenge:
    """``address``: where the request came from (``talu_site.clientaddr.limit_key``), counted
    against the limit per address too."""
    _within_limits(user, address)
    if rated:
        _may_play_rated(user)
    try:  # any game's two-seat variant, by key ("tafl/11x11"); talu's by its name too
        spec = variant_of(variant)
    except KeyError:
        raise ChallengeError(f"unknown variant {variant!r}") from None
    if len(spec.played) != 2:
        raise ChallengeError(f"{spec.title} is played by {len(spec.played)}: a challenge is "
                             "between two players")
    try:  # the variant's own options (tafl's immunity, T1), checked before anything is kept
        options = checked_options(variant, options or {})
    except ValueError as err:
        raise ChallengeError(str(err)) from None
    try:
        time_control = str(clock.parse(time_control))
    except clock.TimeControlError as err:
        raise ChallengeError(str(err)) from None
    if side not in ("random", "I", "O"):
        raise ChallengeError("side must be random, I or O")
    opp = None
    if opponent:
        opp = get_user_model().objects.filter(username__iexact=opponent.strip()).first()
        if opp is None:
            raise ChallengeError(f"there is no player called {opponent!r}")
        if opp.pk == user.pk:
            raise ChallengeError("you cannot challenge yourself")
    with transaction.atomic():
        # One player's openings take turns (their account's row locked; SQLite's immediate
        # transactions serialise them anyway): requests at the same moment each counted the
        # open ones before any was created, and all got past the cap.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        _within_cap(user)
        challenge = Challenge.objects.create(creator=user, opponent=opp, game_key=spec.game,
                                             variant=spec.name, options=options, rated=rated,
                                             side=side, time_control=time_control)
        if opp is not None:  # issue 39: a notice to the player named, as they chose
            ports.directory().notify(
                opp, "challenge", f"{user.get_username()} challenges you to a "
                f"{'rated' if rated else 'casual'} game of {full_title(spec.key)} "
                f"({challenge.time_label}).",
                reverse("lobby"))
        return challenge


def _within_limits(user, address: str | None = None) -> None:
    """One player may not fill the lobby (issue 27, finding 4: 200 challenges in 5 s pushed
    everyone else's out of the newest 50): a cap on those open at once, and on the rate of
    opening them (``talu_site.ratelimit``, shared by every server process)."""
    _within_cap(user)
    refusal = ratelimit.limit("challenge").hit(str(user.pk))
    if refusal is None and address is not None:  # many accounts from one place
        refusal = ratelimit.limit("challenge_address").hit(address)
    if refusal is not None:
        raise ChallengeError(refusal.message("challenges opened"))


def _may_play_rated(user, who: str = "you") -> None:
    """A moderator's restriction from rated play (issue 39) refuses a rated challenge, in
    words; casual ones stay open."""
    refusal = restrictions.rated_refusal(user, who)
    if refusal is not None:
        raise ChallengeError(refusal)


def _within_cap(user) -> None:
    cap = settings.TALU_MAX_OPEN_CHALLENGES
    if Challenge.objects.filter(creator=user, status=Challenge.OPEN).count() >= cap:
        raise ChallengeError(f"you already have {cap} open challenges: cancel one, or wait "
                             "until one is accepted")


def cancel_challenge(user, challenge_id: int) -> None:
    n = Challenge.objects.filter(pk=challenge_id, creator=user, status=Challenge.OPEN).update(
        status=Challenge.CANCELLED)
    if not n:
        raise ChallengeError("that challenge is no longer open")


def open_challenges_for(user):
    """Challenges ``user`` may accept: open ones by others, and those naming them."""
    qs = Challenge.objects.filter(status=Challenge.OPEN).select_related("creator", "opponent")
    if user.is_authenticated:
        return qs.exclude(creator=user).filter(Q(opponent__isnull=True) | Q(opponent=user))
    return qs.filter(opponent__isnull=True)


def accept_challenge(user, challenge_id: int, rng: random.Random | None = None) -> Game:
    """Accept a challenge: sides by coin toss unless the challenger chose; the game starts."""
    with transaction.atomic():
        ch = Challenge.objects.select_for_update().filter(pk=challenge_id).first()
        if ch is None or ch.status != Challenge.OPEN:
            raise ChallengeError("that challenge is no longer open")
        if ch.creator_id == user.pk:
            raise ChallengeError("you cannot accept your own challenge")
        if ch.opponent_id is not None and ch.opponent_id != user.pk:
            raise ChallengeError("that challenge is for another player")
        if ch.rated:
            _may_play_rated(user)
            _may_play_rated(ch.creator, ch.creator.get_username())
        side = ch.side
        if side == "random":
            side = (rng or random.SystemRandom()).choice(["I", "O"])
        # "I" is the first seat of any two-seat game (talu's light), "O" the second
        first, second = (ch.creator, user) if side == "I" else (user, ch.creator)
        game = start_table(f"{ch.game_key}/{ch.variant}", [first, second], rated=ch.rated,
                           time_control=ch.time_control, options=ch.options or None)
        ch.status = Challenge.ACCEPTED
        ch.game = game
        ch.save(update_fields=["status", "game"])
    return game
