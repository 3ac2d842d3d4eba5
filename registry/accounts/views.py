"""The accounts pages (issue 39): settings, an address's verification, unsubscribe, closing an
account, and Django's password views with the site's templates and the mail queue."""

from __future__ import annotations

from django.conf import settings as django_settings
from django.contrib import messages
from django.contrib.auth import get_user_model, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from registry.accounts import closing, prefs, tokens, verify
from registry.accounts.forms import CloseForm, EmailForm, QueuedPasswordResetForm, SettingsForm
from registry.accounts.models import AccountSettings


def _page(request, user, *, email_form=None, settings_form=None, status=200):
    settings = AccountSettings.of(user)
    return render(request, "accounts/settings.html", {
        "settings": settings,
        "email_form": email_form or EmailForm(),
        "settings_form": settings_form or SettingsForm(instance=settings),
    }, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def settings_page(request):
    """One page, three forms told apart by ``action``: a new address (verified by its link),
    the notices and board preferences, a new link for the address waiting. A form with
    errors is shown again with them (400), nothing saved."""
    user = request.user
    if request.method == "GET":
        return _page(request, user)
    action = request.POST.get("action")
    if action in ("email", "resend") and (refused := verify.refusal(user)) is not None:
        messages.error(request, refused)
        return _page(request, user, status=429)
    if action == "email":
        form = EmailForm(request.POST)
        if not form.is_valid():
            return _page(request, user, email_form=form, status=400)
        address = form.cleaned_data["email"]
        if user.email and address.lower() == user.email.lower():
            messages.info(request, f"{address} is already your confirmed address.")
        else:
            verify.ask(user, address)
            messages.success(request, f"We sent a link to {address}: open it to use this "
                                      f"address. Until then your mail goes where it went.")
        return redirect("accounts_settings")
    if action == "resend":
        pending = AccountSettings.of(user).pending_email
        if pending:
            verify.ask(user, pending)
            messages.success(request, f"We sent a new link to {pending}.")
        return redirect("accounts_settings")
    if action == "prefs":
        form = SettingsForm(request.POST, instance=AccountSettings.of(user))
        if not form.is_valid():
            return _page(request, user, settings_form=form, status=400)
        form.save()
        messages.success(request, "Your settings are saved.")
        return redirect("accounts_settings")
    messages.error(request, "Nothing was changed: that form is not one of this page's.")
    return _page(request, user, status=400)


_VERIFY_WORDS = {
    verify.VERIFIED: ("Address confirmed", "Your email address is confirmed: the notices you "
                                           "chose go there from now on."),
    verify.USED: ("Already confirmed", "This link has been used already: the address is your "
                                       "account's. Nothing more to do."),
    verify.SUPERSEDED: ("Link no longer valid", "This link is for an address your account no "
                                                "longer waits for (a newer one was asked for "
                                                "since). Nothing was changed."),
    verify.EXPIRED: ("Link expired", f"This link was older than "
                                     f"{tokens.VERIFY_MAX_AGE // 86400} days. Nothing was "
                                     f"changed: ask for a new one on your settings page."),
    verify.INVALID: ("Link not valid", "This link is not one the site sent (perhaps it was cut "
                                       "short when copied). Nothing was changed."),
}


def verify_email(request, token: str):
    """Following a verification link; no sign-in needed (the link is the proof). Every
    outcome gets a page that says what happened; only a verified address answers 200."""
    outcome, _ = verify.confirm(token)
    title, words = _VERIFY_WORDS[outcome]
    return render(request, "accounts/message.html",
                  {"title": title, "words": words, "ok": outcome == verify.VERIFIED,
                   "testid": f"verify-{outcome}"},
                  status=200 if outcome in (verify.VERIFIED, verify.USED) else 400)


@csrf_exempt  # RFC 8058: a mail client's one-click POST carries no CSRF token
@require_http_methods(["GET", "POST"])
def unsubscribe(request, token: str):
    """One click from a notice's mail, no sign-in: that kind of notice is no longer mailed
    to that account. The link is signed (``tokens``), so nobody can stop another's."""
    try:
        user_id, kind = tokens.read_unsubscribe(token)
    except tokens.Invalid:
        user_id, kind = None, None
    user = (get_user_model().objects.filter(pk=user_id).first()
            if kind in prefs.KINDS else None)
    if user is None:
        return render(request, "accounts/message.html", {
            "title": "Link not valid", "testid": "unsubscribe-invalid",
            "words": "This link is not one the site sent. Nothing was changed; you can choose "
                     "your notices on your settings page."}, status=400)
    settings = AccountSettings.of(user)
    notices = dict(settings.notices)
    notices[kind] = {**(notices.get(kind) or {}), prefs.EMAIL: False}
    settings.notices = notices
    settings.save(update_fields=["notices"])
    return render(request, "accounts/message.html", {
        "title": "Unsubscribed", "ok": True, "testid": "unsubscribed",
        "words": f"No more mails for \u201c{prefs.KINDS[kind][0]}\u201d. You can turn them on "
                 f"again, and choose your other notices, on your settings page."})


@login_required
@require_http_methods(["GET", "POST"])
def close_account(request):
    form = CloseForm(request.user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = request.user
        closing.close(user)
        logout(request)
        return render(request, "accounts/message.html", {
            "title": "Account closed", "ok": True, "testid": "account-closed",
            "words": f"The account {user.username} is closed: it can no longer sign in. Your "
                     f"player, your games and their signed records stay in the registry, "
                     f"as they must; your profile says the account is closed."})
    return render(request, "accounts/close.html", {"form": form},
                  status=400 if request.method == "POST" else 200)


# Django's own password views, with the site's templates (templates/registration/) and the
# reset mail through the queue; the addresses of mails from TALU_SITE_URL, never the Host.
class PasswordResetView(auth_views.PasswordResetView):
    form_class = QueuedPasswordResetForm
    email_template_name = "registration/password_reset_email.txt"
    subject_template_name = "registration/password_reset_subject.txt"
    success_url = reverse_lazy("password_reset_done")

    def form_valid(self, form):
        self.extra_email_context = {"site_url": django_settings.TALU_SITE_URL.rstrip("/")}
        return super().form_valid(form)


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    success_url = reverse_lazy("password_reset_complete")


class PasswordChangeView(auth_views.PasswordChangeView):
    success_url = reverse_lazy("password_change_done")
