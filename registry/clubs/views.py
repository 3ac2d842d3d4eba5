"""Clubs' pages, mounted at ``/clubs/`` (issue 38): the bodies, applying, the federation's page
(staff), a body's page, its people (registrars only), a CSV import, and claiming a player.

Every action posts to a view that calls one service (``registry.clubs.services``); a refusal
comes back in the service's words with its status (403 for a person who may not), never a
traceback, and changes nothing. Adding or removing a registrar or an arbiter is asked again on
a page of its own first (no script: the site's CSP runs none inline)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from registry.clubs import csv_import, services
from registry.clubs import keys as body_keys
from registry.clubs.models import BodyApplication
from registry.clubs.services import ARTICLE, ClubError, FormError
from registry.models import AffiliatedBody

EMPTY_APPLICATION = {"name": "", "place": "", "contact": "", "stratum": "1"}


def _refused(request, err: ClubError, title: str = "Not allowed"):
    return render(request, "error.html", {"title": title, "message": str(err)},
                  status=err.status)


def _body(registrar_id: str) -> AffiliatedBody:
    return get_object_or_404(AffiliatedBody, registrar_id=registrar_id)


def club_list(request):
    bodies = (AffiliatedBody.objects.annotate(event_count=Count("events"))
              .order_by("name"))
    return render(request, "clubs/list.html", {"bodies": bodies})


def _apply_page(request, form=None, errors=None, status=200):
    return render(request, "clubs/apply.html", {
        "form": form or EMPTY_APPLICATION, "errors": errors or {},
        "strata": sorted(services.STRATUM_WORDS.items()),
        "applications": BodyApplication.objects.filter(applicant=request.user)
        .select_related("body"),
        "pending": services.pending_of(request.user),
        "mine": request.user.registrar_of.order_by("name")}, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def apply(request):
    """The application form, and the state of the person's applications (pending, approved
    with the club's page, refused with the federation's reason)."""
    if request.method == "GET":
        return _apply_page(request)
    typed = {k: request.POST.get(k, "") for k in EMPTY_APPLICATION}
    try:
        application = services.apply(request.user, **typed)
    except FormError as err:
        return _apply_page(request, typed, err.errors, 400)
    except ClubError as err:
        messages.error(request, str(err))
        return _apply_page(request, typed, {}, err.status)
    messages.success(request, f"{application.name}'s application is sent: the federation "
                              "decides it, and this page shows its answer.")
    return redirect("club_apply")


@login_required
def federation(request):
    if not services.is_staff(request.user):
        return _refused(request, ClubError("This page is the federation's: only site staff "
                                           "may decide on applications and bodies.", 403))
    decided = BodyApplication.objects.exclude(status=BodyApplication.PENDING)
    return render(request, "clubs/federation.html", {
        "pending": BodyApplication.objects.filter(status=BodyApplication.PENDING)
        .select_related("applicant").order_by("created"),
        "decided": decided.select_related("applicant", "body", "decided_by")[:50],
        "bodies": AffiliatedBody.objects.annotate(event_count=Count("events", distinct=True),
                                                  member_count=Count("players", distinct=True))
        .order_by("name"), "site_body": settings.TALU_REGISTRAR_ID})


@login_required
@require_http_methods(["POST"])
def federation_act(request):
    post, user = request.POST, request.user
    action = post.get("action", "")
    try:
        if action == "approve":
            body = services.approve(user, post.get("application"))
            messages.success(request, f"{body.name} is certified as {body.registrar_id}.")
        elif action == "refuse":
            application = services.refuse(user, post.get("application"), post.get("reason"))
            messages.success(request, f"{application.name}'s application is refused.")
        elif action == "suspend":
            body = services.suspend(user, post.get("body"), post.get("reason"))
            messages.success(request, f"{body.name} is suspended.")
        elif action == "reinstate":
            body = services.reinstate(user, post.get("body"))
            messages.success(request, f"{body.name}'s suspension is lifted.")
        else:
            raise ClubError(f"Unknown action {action[:20]!r}.")
    except ClubError as err:
        if err.status == 403:
            return _refused(request, err)
        messages.error(request, str(err))
    return redirect("club_federation")


def body_page(request, registrar_id: str):
    body = _body(registrar_id)
    return render(request, "clubs/body.html", {
        "body": body, "events": body.events.order_by("-created")[:100],
        "registrars": body.registrars.order_by("username"),
        "arbiters": body.arbiter_users.order_by("username"),
        "members": services.members(body)[:500], "member_count": body.players.count(),
        "may_manage": services.is_registrar(request.user, body),
        "keys": body_keys.keys_of(body),
        "stratum_words": services.STRATUM_WORDS.get(body.stratum, "")})


@login_required
def people(request, registrar_id: str):
    body = _body(registrar_id)
    if not services.is_registrar(request.user, body):
        return _refused(request, ClubError(f"Only a registrar of {body.name} (or the "
                                           "federation's staff) may manage its people.", 403))
    query = request.GET.get("q", "")
    return render(request, "clubs/people.html", {
        "body": body, "q": query[:100], "found": services.find_accounts(query),
        "registrars": body.registrars.order_by("username"),
        "arbiters": body.arbiter_users.order_by("username"),
        "member_count": body.players.count()})


def _question(action: str, role: str, person, body: AffiliatedBody) -> tuple[str, str]:
    name = person.get_username()
    if action == "add":
        what = ("run the club: its people, players and events" if role == "registrar"
                else "be offered as an arbiter of its events (R39)")
        return (f"Make {name} {ARTICLE[role]} {role} of {body.name}? They will {what}.",
                f"Add {name}")
    return f"Remove {name} as {ARTICLE[role]} {role} of {body.name}?", f"Remove {name}"


@login_required
@require_http_methods(["POST"])
def people_act(request, registrar_id: str):
    """add / remove a registrar or arbiter (confirmed first), register an account, or a player
    without an account (their claim code shown once, on a printable page)."""
    body, post, user = _body(registrar_id), request.POST, request.user
    action = post.get("action", "")
    try:
        services.require_registrar(user, body)
        if action in ("add", "remove"):
            role, person = post.get("role", ""), services.account(post.get("user"))
            services.people_of(body, role)  # an unknown role is refused before the question
            if post.get("confirm") != "1":
                question, button = _question(action, role, person, body)
                return render(request, "clubs/confirm.html", {
                    "body": body, "question": question, "button": button,
                    "danger": action == "remove",
                    "fields": [("action", action), ("role", role), ("user", person.pk)],
                    "act": reverse("club_people_act", args=[body.registrar_id]),
                    "back": reverse("club_people", args=[body.registrar_id]),
                    "back_label": "the people"})
            if action == "add":
                services.add_person(user, body, role, person)
                messages.success(request, f"{person.get_username()} is {ARTICLE[role]} {role} "
                                          f"of {body.name}.")
            else:
                services.remove_person(user, body, role, person)
                messages.success(request, f"{person.get_username()} is no longer "
                                          f"{ARTICLE[role]} {role} of "
                                          f"{body.name}.")
        elif action == "register":
            person = services.account(post.get("user"))
            services.register_account(user, body, person)
            messages.success(request, f"{person.get_username()} is registered with {body.name}.")
        elif action == "new":
            player, code = services.register_unclaimed(user, body, post.get("name", ""),
                                                       post.get("rating", ""))
            return _codes(request, body, [(player, code)])
        else:
            raise ClubError(f"Unknown action {action[:20]!r}.")
    except ClubError as err:
        if err.status == 403:
            return _refused(request, err)
        messages.error(request, str(err))
    return redirect("club_people", body.registrar_id)


@never_cache
def _codes(request, body: AffiliatedBody, made) -> object:
    """The printable sheet of claim codes: shown this once, never stored in plain."""
    rows = [{"player": p, "code": services.shown_code(c) if c else ""} for p, c in made]
    return render(request, "clubs/codes.html", {"body": body, "rows": rows,
                                                "with_codes": any(c for _, c in made)})


@login_required
@require_http_methods(["GET", "POST"])
def import_players(request, registrar_id: str):
    """Upload a CSV: its preview with every row's problem (nothing written); confirm: every
    valid row written in one transaction, the claim codes printed once."""
    body = _body(registrar_id)
    try:
        services.require_registrar(request.user, body)
        services.require_active(body)
    except ClubError as err:
        return _refused(request, err)
    context = {"body": body, "columns": csv_import.COLUMNS, "max_rows": csv_import.MAX_ROWS}
    if request.method == "GET":
        return render(request, "clubs/import.html", context)
    if request.POST.get("confirm") == "1":
        try:
            _, made = csv_import.commit(request.user, body, request.POST.get("text", ""))
        except ClubError as err:
            messages.error(request, str(err))
            return render(request, "clubs/import.html", context, status=err.status)
        return _codes(request, body, made)
    upload = request.FILES.get("file")
    if upload is None:
        messages.error(request, "Choose a CSV file to import.")
        return render(request, "clubs/import.html", context, status=400)
    try:
        text = csv_import.decode(upload.read(csv_import.MAX_BYTES + 1))
    except ClubError as err:
        messages.error(request, str(err))
        return render(request, "clubs/import.html", context, status=400)
    preview = csv_import.read(body, text)
    return render(request, "clubs/import.html", {**context, "preview": preview, "text": text},
                  status=400 if preview.error else 200)


@login_required
@require_http_methods(["GET", "POST"])
def claim(request):
    """A person enters the claim code from their sheet: the player their club registered
    becomes their account's, with its over-the-board record."""
    if request.method == "POST":
        try:
            player = services.claim(request.user, request.POST.get("code", ""))
        except ClubError as err:
            messages.error(request, str(err))
            return render(request, "clubs/claim.html", {"code": request.POST.get("code", "")[:40]},
                          status=err.status)
        messages.success(request, f"Your account is now the registered player {player.player_id}"
                                  f"{' of ' + player.body.name if player.body else ''}: its "
                                  "record is on your profile.")
        return redirect("profile", player.player_id)
    return render(request, "clubs/claim.html", {"code": ""})
