"""A body's keys and API tokens page (issue 38), ``/clubs/<registrar id>/keys/``, for its
registrars and the federation's staff; and the body's public keys, ``/clubs/<id>/keys.asc``,
for anyone who verifies its records (``talu verify``).

What cannot be undone is asked again on a page of its own first (a rotation retires the
current key; a revocation; rotating or revoking a token). A generated secret key and a new
token are shown once, on pages never cached (``never_cache``), and stored nowhere."""

from __future__ import annotations

from urllib.parse import quote

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from registry.clubs import keys, services, tokens
from registry.clubs.services import ClubError, FormError
from registry.models import AffiliatedBody
from registry.records import keys as gpg


def _body(registrar_id: str) -> AffiliatedBody:
    return get_object_or_404(AffiliatedBody, registrar_id=registrar_id)


def _refused(request, err: ClubError):
    return render(request, "error.html", {"title": "Not allowed", "message": str(err)},
                  status=err.status)


def _page(request, body: AffiliatedBody, *, errors=None, typed="", status=200):
    return render(request, "clubs/keys.html", {
        "body": body, "keys": keys.keys_of(body), "tokens": tokens.tokens_of(body),
        "current": body.key_id, "errors": errors or {}, "typed": typed,
        "own_keys": body.registrar_id != settings.TALU_REGISTRAR_ID},
        status=status)


@login_required
def keys_page(request, registrar_id: str):
    body = _body(registrar_id)
    try:
        services.require_registrar(request.user, body)
    except ClubError as err:
        return _refused(request, err)
    keys.record_unrecorded(body)
    return _page(request, body)


def _confirm(request, body, question: str, button: str, fields, *, danger=True,
             reason=False):
    return render(request, "clubs/confirm.html", {
        "body": body, "question": question, "button": button, "danger": danger,
        "fields": fields, "reason": reason,
        "act": reverse("club_keys_act", args=[body.registrar_id]),
        "back": reverse("club_keys", args=[body.registrar_id]),
        "back_label": "the keys and tokens"})


def _uploaded_text(request) -> str:
    upload = request.FILES.get("file")
    if upload is None:
        return request.POST.get("key", "")
    raw = upload.read(gpg.MAX_PUBLIC_KEY + 1)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise FormError({"key": "The public key is refused: the file is not text (an "
                                "ASCII-armoured key, .asc, is expected)."}) from None


@never_cache
def _shown_once(request, body, template: str, **context):
    return render(request, template, {"body": body, **context})


@login_required
@require_http_methods(["POST"])
def keys_act(request, registrar_id: str):
    body, post, user = _body(registrar_id), request.POST, request.user
    action = post.get("action", "")
    confirmed = post.get("confirm") == "1"
    typed = ""
    try:
        services.require_registrar(user, body)
        if action in ("upload", "generate", "revoke-key"):
            keys.require_own_key(body)
        if action == "upload":
            typed = _uploaded_text(request)
            public = keys.check_upload(typed)  # refused in words before any question
            if body.key_id and not confirmed:
                return _confirm(request, body, (
                    f"Make key {public.key_id} ({public.fingerprint}) the current key of "
                    f"{body.name}? Key {body.key_id} is retired: it still verifies the records "
                    "it signed before now, and signs nothing new."), f"Rotate to {public.key_id}",
                    [("action", "upload"), ("key", public.armored)])
            key = keys.upload(user, body, typed)
            messages.success(request, f"Key {key.key_id} is the current key of {body.name}.")
        elif action == "generate":
            if body.key_id and not confirmed:
                return _confirm(request, body, (
                    f"Make a new key for {body.name}? Key {body.key_id} is retired: it still "
                    "verifies the records it signed before now. The new secret key is shown "
                    "once: save it before you leave the page."), "Generate a new key",
                    [("action", "generate")])
            key, secret = keys.generate(user, body)
            return _shown_once(request, body, "clubs/key_secret.html", key=key, secret=secret,
                               href="data:application/pgp-keys;charset=utf-8,"
                                    + quote(secret, safe=""),
                               filename=f"{body.registrar_id}-{key.key_id}-secret.asc")
        elif action == "revoke-key":
            key = keys.find(body, post.get("fingerprint"))
            if not confirmed:
                return _confirm(request, body, (
                    f"Revoke key {key.key_id} ({key.fingerprint}) of {body.name} for good? "
                    "No record signed with it is accepted any more, whatever its date; the "
                    "games accepted already stay. This cannot be undone."),
                    f"Revoke {key.key_id}", [("action", "revoke-key"),
                                             ("fingerprint", key.fingerprint)], reason=True)
            key = keys.revoke(user, body, key.fingerprint, post.get("reason"))
            messages.success(request, f"Key {key.key_id} is revoked.")
        elif action == "new-token":
            token, plain = tokens.create(user, body, post.get("label"))
            return _shown_once(request, body, "clubs/token_shown.html", token=token,
                               plain=plain, replaced=None)
        elif action in ("rotate-token", "revoke-token"):
            token = next((t for t in tokens.tokens_of(body)
                          if str(t.pk) == str(post.get("token")) and not t.revoked), None)
            if token is None:
                raise ClubError("No such live token of this body.", 404)
            if not confirmed:
                words = ("Replace the token {l}? It stops working at once; the new one is shown "
                         "once." if action == "rotate-token" else
                         "Revoke the token {l}? It stops working at once, for good.")
                return _confirm(request, body, words.format(l=repr(token.label)),
                                "Rotate the token" if action == "rotate-token"
                                else "Revoke the token",
                                [("action", action), ("token", token.pk)])
            if action == "rotate-token":
                new, plain = tokens.rotate(user, body, token.pk)
                return _shown_once(request, body, "clubs/token_shown.html", token=new,
                                   plain=plain, replaced=token)
            tokens.revoke(user, body, token.pk)
            messages.success(request, f"The token {token.label!r} is revoked.")
        else:
            raise ClubError(f"Unknown action {action[:20]!r}.")
    except FormError as err:
        if gpg.PRIVATE_BEGIN in typed:  # a secret key pasted by mistake is not shown again
            typed = ""
        return _page(request, body, errors=err.errors, typed=typed[:gpg.MAX_PUBLIC_KEY],
                     status=400)
    except ClubError as err:
        if err.status == 403:
            return _refused(request, err)
        messages.error(request, str(err))
        return _page(request, body, status=err.status)
    return redirect("club_keys", body.registrar_id)


def public_keys(request, registrar_id: str):
    """Every public key the body has had (current, retired, revoked), for ``gpg --import``."""
    body = _body(registrar_id)
    text = keys.published(body)
    response = HttpResponse(text, content_type="application/pgp-keys; charset=utf-8",
                            status=200 if text else 404)
    response["Content-Disposition"] = f'inline; filename="{body.registrar_id}-keys.asc"'
    return response
