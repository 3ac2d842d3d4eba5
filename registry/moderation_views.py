"""The moderation page (``/moderation/``, issue 39): the chat reports a moderator deals with,
and their actions (``registry.moderation``). Staff see every report and the restrictions in
force; an event's arbiters see their event's games' reports. Anyone else: 403.

Plain forms, no script (the site's CSP); each action answers with a message and the page.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponseForbidden
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from play.models import ChatReport, Restriction
from registry import moderation

FORBIDDEN = ("The moderation page is for site staff, and for an event's arbiters (the chat "
             "beside their event's games).")
VERBS = {Restriction.CHAT: "chat", Restriction.RATED: "play rated games"}


@login_required
def page(request, status: int = 200):
    if not moderation.is_moderator(request.user):
        return HttpResponseForbidden(FORBIDDEN)
    reports = moderation.reports_for(request.user).order_by("-created")
    restrictions = []
    if request.user.is_staff:
        restrictions = list(Restriction.objects.filter(Restriction.in_force())
                            .select_related("user", "created_by").order_by("-created")[:100])
    return render(request, "registry/moderation.html", {
        "open": list(reports.filter(status=ChatReport.OPEN)[:100]),
        "handled": list(reports.exclude(status=ChatReport.OPEN).select_related(
            "handled_by")[:20]),
        "restrictions": restrictions, "kinds": Restriction.KINDS,
        "staff": request.user.is_staff}, status=status)


@login_required
@require_POST
def act(request):
    """One moderation action: ``action`` hide, dismiss, restrict or lift."""
    if not moderation.is_moderator(request.user):
        return HttpResponseForbidden(FORBIDDEN)
    post, user = request.POST, request.user
    action = post.get("action", "")
    try:
        if action == "hide":
            moderation.hide(user, post.get("message"), post.get("reason"))
            done = "The message is hidden for everyone."
        elif action == "dismiss":
            moderation.dismiss(user, post.get("report"), post.get("reason"))
            done = "The report is dismissed."
        elif action == "restrict":
            made = moderation.restrict(user, post.get("username"), post.get("kind"),
                                       post.get("days"), post.get("reason"))
            until = (f"until {made.until:%Y-%m-%d %H:%M} UTC" if made.until
                     else "until lifted")
            done = f"{made.user.get_username()} may not {VERBS[made.kind]} {until}."
        elif action == "lift":
            found = moderation.lift(user, post.get("restriction"), post.get("reason"))
            done = f"{found.user.get_username()}'s restriction is lifted."
        else:
            raise moderation.ModerationError(f"unknown action {action[:20]!r}")
    except moderation.ModerationError as err:
        if err.status == 403:
            return HttpResponseForbidden(str(err))
        messages.error(request, str(err))
        return page(request, status=err.status)
    messages.success(request, done)
    return redirect("moderation")
