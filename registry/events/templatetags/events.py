"""``{% event_banner %}``: on every page (but that game's own), the signed-in player's event
game that is waiting for them (an online round has started and their game has no result
yet, ``registry.events.live_round``)."""

from __future__ import annotations

from django import template

from registry.events.live_round import entries_open, live_pairing, words

register = template.Library()


@register.inclusion_tag("events/_banner.html", takes_context=True)
def event_banner(context):
    request = context.get("request")
    user = getattr(request, "user", None)
    match = getattr(request, "resolver_match", None)
    entries = entries_open(user)
    pairing = live_pairing(entries)
    # ``entrant``: the page's bell asks every few seconds whether a round has started
    # (static/notices/bell.js), and shows this banner with a sound on a page already open
    if pairing is not None and match and match.url_name == "game" and \
            str(match.kwargs.get("game_id")) == str(pairing.game.uuid):
        return {"pairing": None, "entrant": True, "here": str(pairing.game.uuid)}
    return {"pairing": pairing, "words": words(pairing) if pairing is not None else "",
            "entrant": bool(entries), "here": ""}


@register.inclusion_tag("events/_game_event.html")
def game_event(game):
    """On a game's page: the event, round and board the game belongs to and its result in the
    event, and whether the game was annulled (R30/R39: it then counts for no rating, and in
    its event as unplayed unless the arbiter sets a result)."""
    from registry.events.models import Pairing
    from registry.events.results import ANNULLED
    from registry.events.views import RESULT_WORDS
    from registry.models import RegistryGame

    # an aborted game (R37) is annulled in the registry as a matter of course: it never
    # started, and its page says "aborted", not "annulled by the arbiter"
    annulled = game.reason != "aborted" and RegistryGame.objects.filter(
        live_id=game.pk, status=RegistryGame.ANNULLED).exists()
    pairing = (Pairing.objects.filter(game_id=game.pk).select_related("round__event")
               .first())
    words = RESULT_WORDS.get(pairing.result, "") if pairing else ""
    return {"annulled": annulled, "pairing": pairing, "words": words,
            "by_annulment": bool(pairing and pairing.decided_by == ANNULLED)}
