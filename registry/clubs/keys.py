"""A body's signing keys on the site (issue 38): generate, upload, rotate, revoke.

The book's body signs its own records (5.3.4; R33: "Every entry carries the affiliated body's
signature") and the federation checks them. So the site keeps only a body's **public** keys:

* **upload**: the public key a club made itself (``talu keygen --public-key FILE``, or any
  OpenPGP tool); checked first (``keys.read_public_key``: armoured OpenPGP, one key, not
  expired, not revoked, can sign, marked for no other registrar), nothing written otherwise;
* **generate**, for a club without GnuPG at hand: the key is made in a scratch keyring that is
  removed at once, its secret half handed to the registrar **once** (a page to save it from)
  and never stored. Were the site to keep it, the site could sign in the club's name, the
  signature would no longer say the club vouched for its records, and one stolen server would
  give away every club's key.

A new key while one is current is a **rotation**: the new key becomes current
(``AffiliatedBody.key_id``/``public_key``), the old one is *retired* and still verifies what it
signed before then (a record names its signer's ``key_id``, R33; ``registry.submission``
verifies against the key named). **Revoking** a key (lost, stolen) with a reason: R31-R35 are
silent on it, so the choice here is that records signed with it are refused from then on, even
those dated earlier (whoever holds a stolen key can date a record as they like), while the
games already accepted stay archived and rated: they were verified when they came, and the
revoked public key stays published (``/clubs/<id>/keys.asc``) so their signatures can still be
checked. Undoing an accepted game is the ledger's annulment, a federation's decision.

Every change is the body's registrars' (or staff's), audited, and done in one transaction.
"""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from registry.clubs.services import ClubError, FormError, _audit, _reason, require_registrar
from registry.models import AffiliatedBody, AuditEntry, BodyKey
from registry.records import keys as gpg

#: what a body's name may not hold in an OpenPGP user id (``keys.create_key``)
_UID_FORBIDDEN = str.maketrans({c: " " for c in "<>()"})


def require_own_key(body: AffiliatedBody) -> None:
    if body.registrar_id == settings.TALU_REGISTRAR_ID:
        raise ClubError("The site's own body signs with the site's key in its keyring: the "
                        "operator changes it, not this page.", 409)


def current_key(body: AffiliatedBody) -> BodyKey | None:
    return body.keys.filter(retired__isnull=True, revoked__isnull=True).first()


def _unrecorded(body: AffiliatedBody) -> BodyKey | None:
    """``AffiliatedBody.public_key`` as an unsaved ``BodyKey`` when no row holds it (a body
    made by ``manage.py create_body`` or the admin after the migration moved the keys)."""
    text = body.public_key.strip()
    if not text or not body.key_id or body.keys.filter(key_id=body.key_id).exists():
        return None
    return BodyKey(body=body, key_id=body.key_id, public_key=body.public_key,
                   origin=BodyKey.RECORDED, added=body.created)


def keys_of(body: AffiliatedBody) -> list[BodyKey]:
    """Every key the body has had, the current first; read only."""
    rows = list(body.keys.select_related("added_by", "revoked_by"))
    extra = _unrecorded(body)
    rows = ([extra] if extra is not None else []) + rows
    return sorted(rows, key=lambda k: (k.state != "current", -k.added.timestamp()))


def _record_unrecorded(body: AffiliatedBody) -> None:
    """Make the row of a key on file but not yet in the table (in the caller's transaction),
    so that a rotation retires it rather than forgetting it."""
    extra = _unrecorded(body)
    if extra is None:
        return
    with gpg.scratch_keyring("talu-key-record-") as ring:
        try:
            info = ring.find(gpg.import_public_keys(ring, body.public_key)[0])
        except gpg.KeyringError:
            return  # unreadable: nothing could verify with it anyway
    extra.fingerprint, extra.key_id = info.fingerprint, info.key_id
    extra.subkey_ids = " ".join(gpg.key_id_of(f) for f in info.subkey_fingerprints)[:400]
    if BodyKey.objects.filter(fingerprint=extra.fingerprint).exists():
        return
    old = current_key(body)
    if old is not None:  # the key on file was changed outside these pages: a rotation
        old.retired = timezone.now()
        old.save(update_fields=["retired"])
    extra.save()


def record_unrecorded(body: AffiliatedBody) -> None:
    """The key on file given its row (the keys page does it, so each key can be revoked)."""
    if _unrecorded(body) is not None:
        with transaction.atomic():
            _record_unrecorded(AffiliatedBody.objects.select_for_update().get(pk=body.pk))


def _add(user, body: AffiliatedBody, public: gpg.PublicKeyFile, origin: str) -> BodyKey:
    marked = public.registrars
    if marked and body.registrar_id not in marked:
        raise FormError({"key": f"Key {public.key_id} is marked for registrar "
                                f"{', '.join(marked)} (its user id), not for "
                                f"{body.registrar_id}: make the key for this body."})
    with transaction.atomic():
        body = AffiliatedBody.objects.select_for_update().get(pk=body.pk)
        _record_unrecorded(body)
        same = BodyKey.objects.filter(fingerprint=public.fingerprint).first()
        if same is not None:
            whose = ("this body's" if same.body_id == body.pk else "another body's")
            raise FormError({"key": f"Key {public.key_id} is {whose} already ({same.state}): "
                                    "a rotation needs a new key."})
        now = timezone.now()
        old = current_key(body)
        if old is not None:
            old.retired = now
            old.save(update_fields=["retired"])
        key = BodyKey.objects.create(
            body=body, fingerprint=public.fingerprint, key_id=public.key_id,
            subkey_ids=" ".join(public.subkey_ids)[:400], public_key=public.armored,
            uid=(public.uids[0] if public.uids else "")[:300],
            origin=origin, added=now, added_by=user)
        body.key_id, body.public_key = key.key_id, key.public_key
        body.save(update_fields=["key_id", "public_key"])
        _audit(AuditEntry.KEY, user, body, change="rotate" if old else "add", origin=origin,
               key=key.key_id, fingerprint=key.fingerprint,
               retired=old.key_id if old else None)
    return key


def check_upload(text) -> gpg.PublicKeyFile:
    """The uploaded text as a public key, or a ``FormError`` on the field ``key``."""
    try:
        return gpg.read_public_key(text if isinstance(text, str) else "")
    except gpg.KeyringError as err:
        raise FormError({"key": f"The public key is refused: {err}."}) from None


def upload(user, body: AffiliatedBody, text) -> BodyKey:
    require_registrar(user, body)
    require_own_key(body)
    return _add(user, body, check_upload(text), BodyKey.UPLOADED)


def generate(user, body: AffiliatedBody) -> tuple[BodyKey, str]:
    """A new key for the body: (its row, the ASCII-armoured secret key, shown once)."""
    require_registrar(user, body)
    require_own_key(body)
    name = " ".join(body.name.translate(_UID_FORBIDDEN).split()) or body.registrar_id
    try:
        public, secret = gpg.make_exportable_body_key(registrar_id=body.registrar_id,
                                                      name=name)
    except gpg.KeyringError as err:
        raise ClubError(f"The key could not be made: {err}.", 500) from None
    return _add(user, body, public, BodyKey.GENERATED), secret


def find(body: AffiliatedBody, fingerprint) -> BodyKey:
    key = body.keys.filter(fingerprint=str(fingerprint or "")[:64]).first()
    if key is None:
        raise ClubError("No such key of this body.", 404)
    return key


def revoke(user, body: AffiliatedBody, fingerprint, reason) -> BodyKey:
    """Withdraw a key (current or retired) for good, with a reason the page shows. A current
    key revoked leaves the body without one: it submits nothing until it adds a new key."""
    require_registrar(user, body)
    require_own_key(body)
    reason = _reason(reason)
    with transaction.atomic():
        body = AffiliatedBody.objects.select_for_update().get(pk=body.pk)
        _record_unrecorded(body)
        key = find(body, fingerprint)
        if key.revoked is not None:
            raise ClubError(f"Key {key.key_id} was revoked already.", 409)
        was = key.state
        key.revoked, key.revoked_by, key.revoked_reason = timezone.now(), user, reason
        key.save(update_fields=["revoked", "revoked_by", "revoked_reason"])
        if was == "current":
            body.key_id, body.public_key = "", ""
            body.save(update_fields=["key_id", "public_key"])
        _audit(AuditEntry.KEY, user, body, reason=reason, change="revoke", key=key.key_id,
               fingerprint=key.fingerprint, was=was)
    return key


def published(body: AffiliatedBody) -> str:
    """Every public key the body has had, armoured one after another: what a verifier imports
    (``gpg --import``) to check any of its records with ``talu verify``."""
    return "\n".join(k.public_key.strip() + "\n" for k in keys_of(body))
