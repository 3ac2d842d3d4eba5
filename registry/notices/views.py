"""``/notifications/``: a player's notices, newest first; opening the page marks those shown
read, "mark all read" the rest. ``unread.json``: the bell's count, for its slow poll."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from registry.events.live_round import entries_open, live_pairing, words
from registry.notices import services
from registry.notices.models import Notification

PER_PAGE = 30


@login_required
def notifications_page(request: HttpRequest) -> HttpResponse:
    page = Paginator(Notification.objects.filter(user=request.user), PER_PAGE).get_page(
        request.GET.get("page"))
    notices = list(page.object_list)
    fresh = [n.pk for n in notices if not n.read]
    if fresh:  # seen now; shown as new this once
        services.mark_read(request.user, fresh)
        services.push(request.user.pk)
    return render(request, "notices/list.html", {
        "page": page, "notices": notices, "fresh": set(fresh),
        "unread_elsewhere": services.unread(request.user)})


@login_required
@require_POST
def mark_all_read(request: HttpRequest) -> HttpResponse:
    if services.mark_read(request.user):
        services.push(request.user.pk)
    return redirect("notifications")


def unread_json(request: HttpRequest) -> JsonResponse:
    """The bell's poll: the unread count and the newest unread notice (nothing for a
    visitor); and, for a player entered in a running event, ``fast`` (poll every few
    seconds: a round's opening turn is short, R36/R41) and ``round``, their event game
    waiting now, which the page shows as the banner with a sound (issue 38, finding 3)."""
    if not request.user.is_authenticated:
        return JsonResponse({"unread": 0, "text": "", "url": ""})
    newest = Notification.objects.filter(user=request.user, read=False).first()
    entries = entries_open(request.user)
    pairing = live_pairing(entries)
    waiting = None
    if pairing is not None:
        waiting = {"game": str(pairing.game.uuid), "text": words(pairing),
                   "url": reverse("game", args=[pairing.game.uuid])}
    return JsonResponse({"unread": services.unread(request.user),
                         "text": newest.text if newest else "",
                         "url": newest.url if newest else "",
                         "fast": bool(entries), "round": waiting})
