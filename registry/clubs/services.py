"""What clubs and the federation do (issue 38, book 5.3.4-5.3.6), each checked, audited and in
one transaction: a refusal raises ``ClubError`` in words a person understands and changes
nothing.

* a signed-in person applies for their club (one pending application at a time);
* the federation (site staff) approves (the body is made by ``registry.jobs.new_body``, the
  applicant its first registrar), refuses with a reason, suspends and reinstates a body;
* a body's registrars (or staff) add and remove its registrars and arbiters, and register its
  players: existing accounts, or players without an account, each with a claim code the person
  later enters (``claim``) to make the player their account's.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import unicodedata

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from play.games.text import TextError, check, clean_name
from registry import jobs
from registry.clubs import notify
from registry.clubs.models import BodyApplication, PlayerClaim
from registry.models import AffiliatedBody, AuditEntry, Player, RegistryGame
from registry.scoring import strata
from registry.services import player_of

#: What a stratum means to a club (book 5.3.5, 6.4; R41): the scoring models its events may use.
STRATUM_WORDS = {
    1: "S1: your events score with S1, S2 or S3 (every club starts here)",
    2: "S2: your events score with S2 or S3, never the lower S1 (book 6.4)",
    3: "S3: your events score with S3 only (book 6.4)",
}
ROLES = ("registrar", "arbiter")
ARTICLE = {"registrar": "a", "arbiter": "an"}
MAX_RATING = 10**6
#: claim codes: no 0/O or 1/I to misread from paper; 10 of 32 characters (50 bits)
CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
CODE_LENGTH = 10


class ClubError(ValueError):
    """An action refused; ``status`` the page's HTTP answer (400, 403, 404 or 409)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class FormError(ClubError):
    """Refused form fields: ``errors`` maps a field to its words."""

    def __init__(self, errors: dict[str, str]) -> None:
        super().__init__(" ".join(errors.values()), 400)
        self.errors = errors


# --- who ----------------------------------------------------------------------------------------

def is_staff(user) -> bool:
    return bool(user is not None and getattr(user, "is_authenticated", False)
                and user.is_active and user.is_staff)


def is_registrar(user, body: AffiliatedBody) -> bool:
    """A registrar of ``body``, or the federation's staff (who certify bodies, book 5.3.3)."""
    if user is None or not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    return user.is_staff or body.registrars.filter(pk=user.pk).exists()


def require_registrar(user, body: AffiliatedBody) -> None:
    if not is_registrar(user, body):
        raise ClubError(f"Only a registrar of {body.name} (or the federation's staff) may do "
                        "that.", 403)


def require_staff(user) -> None:
    if not is_staff(user):
        raise ClubError("Only the federation's staff may decide on applications and bodies.",
                        403)


def require_active(body: AffiliatedBody) -> None:
    """A suspended body registers no players (nor announces events, nor submits records:
    ``registry.events.services``, ``registry.submission``)."""
    if body.suspended is not None:
        raise ClubError(f"{body.name} is suspended by the federation: it cannot register "
                        "players until the suspension is lifted.", 409)


def _audit(action: str, user, body: AffiliatedBody | None, *, reason: str = "",
           before: dict | None = None, **after) -> None:
    AuditEntry.objects.create(action=action, actor_user=user, actor_body=body, reason=reason,
                              before=before or {},
                              after={"body": body.registrar_id if body else None, **after})


def text_field(value, what: str, max_length: int = 200) -> str:
    try:
        return clean_name(value if isinstance(value, str) else "", max_length=max_length)
    except TextError as err:
        raise ClubError(f"{what} {err}.") from None


def _reason(value) -> str:
    value = value.strip() if isinstance(value, str) else ""
    if not value:
        raise ClubError("Give a reason: the club reads it.")
    try:
        return check(value, max_length=500, multiline=True)
    except TextError as err:
        raise ClubError(f"The reason {err}.") from None


# --- applications and the federation's decisions -----------------------------------------------

def pending_of(user) -> BodyApplication | None:
    return BodyApplication.objects.filter(applicant=user,
                                          status=BodyApplication.PENDING).first()


def apply(user, *, name, place, contact, stratum) -> BodyApplication:
    """A club's application (book 5.3.4); its stratum is the one it asks to score at (R41)."""
    errors: dict[str, str] = {}
    values: dict[str, object] = {}
    for field, what in (("name", "The club's name"), ("place", "The country or place"),
                        ("contact", "The contact")):
        try:
            values[field] = text_field({"name": name, "place": place, "contact": contact}[field],
                                  what)
        except ClubError as err:
            errors[field] = str(err)
    try:
        values["stratum"] = int(stratum)
        if values["stratum"] not in strata.STRATA:
            raise ValueError
    except (TypeError, ValueError):
        errors["stratum"] = "Choose the stratum S1, S2 or S3."
    taken = values.get("name")
    if isinstance(taken, str) and (
            AffiliatedBody.objects.filter(name__iexact=taken).exists()
            or BodyApplication.objects.filter(name__iexact=taken,
                                              status=BodyApplication.PENDING).exists()):
        errors["name"] = (f"A body named {taken!r} exists or has applied already: choose the "
                          "name that tells your club apart (add its town).")
    if errors:
        raise FormError(errors)
    if pending_of(user) is not None:
        raise ClubError("You have an application waiting already: the federation decides it "
                        "first.", 409)
    try:
        with transaction.atomic():
            application = BodyApplication.objects.create(applicant=user, **values)
            _audit(AuditEntry.APPLY, user, None, application=application.pk,
                   name=application.name, place=application.place,
                   stratum=application.stratum)
    except IntegrityError:  # a second tab's application at the same moment
        raise ClubError("You have an application waiting already: the federation decides it "
                        "first.", 409) from None
    return application


def _slug(text: str, length: int) -> str:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^A-Z0-9]+", "-", ascii_text.upper()).strip("-")[:length].strip("-")


def registrar_id_for(name: str, place: str) -> str:
    """A registrar id in the federation's form (GTF-<place>-<name>-NN, e.g. GTF-HU-SZEGED-01),
    the first number free; ``registry.jobs.new_body`` checks it as every body's id is."""
    where = _slug(place, 20)
    # the name's words, less those the place says already ("Szeged Talu Club", "HU Szeged")
    what = "-".join(w for w in _slug(name, 64).split("-") if w not in where.split("-"))[:24]
    stem = "-".join(p for p in ("GTF", where, what.strip("-")) if p)
    if stem == "GTF":
        stem = "GTF-CLUB"
    taken = set(AffiliatedBody.objects.filter(registrar_id__startswith=stem + "-")
                .values_list("registrar_id", flat=True))
    number = 1
    while f"{stem}-{number:02d}" in taken:
        number += 1
    return f"{stem}-{number:02d}"


def _pending(application_id) -> BodyApplication:
    application = (BodyApplication.objects.select_for_update()
                   .filter(pk=application_id).first())
    if application is None:
        raise ClubError("No such application.", 404)
    if application.status != BodyApplication.PENDING:
        raise ClubError(f"This application was {application.status} already.", 409)
    return application


def approve(staff, application_id) -> AffiliatedBody:
    """Certify the club (book 5.3.4): the body, at the stratum asked, with the applicant as its
    first registrar. It has no signing key yet (over-the-board records need one)."""
    require_staff(staff)
    with transaction.atomic():
        application = _pending(application_id)
        try:
            body = jobs.new_body(registrar_id_for(application.name, application.place),
                                 name=application.name, stratum=application.stratum,
                                 place=application.place)
        except jobs.JobError as err:
            raise ClubError(str(err), 409) from None
        body.registrars.add(application.applicant)
        application.status, application.body = BodyApplication.APPROVED, body
        application.decided, application.decided_by = timezone.now(), staff
        application.save()
        _audit(AuditEntry.APPROVE, staff, body, application=application.pk,
               registrar=application.applicant.get_username(), stratum=body.stratum)
    notify.application_decided(application)
    return body


def refuse(staff, application_id, reason) -> BodyApplication:
    require_staff(staff)
    reason = _reason(reason)
    with transaction.atomic():
        application = _pending(application_id)
        application.status, application.reason = BodyApplication.REFUSED, reason
        application.decided, application.decided_by = timezone.now(), staff
        application.save()
        _audit(AuditEntry.REFUSE, staff, None, reason=reason, application=application.pk,
               name=application.name)
    notify.application_decided(application)
    return application


def _body_for_update(body_id) -> AffiliatedBody:
    body = AffiliatedBody.objects.select_for_update().filter(pk=body_id).first()
    if body is None:
        raise ClubError("No such body.", 404)
    return body


def suspend(staff, body_id, reason) -> AffiliatedBody:
    """The federation suspends a body: it announces no events, registers no players and
    submits no records until reinstated; what it did stays."""
    require_staff(staff)
    reason = _reason(reason)
    with transaction.atomic():
        body = _body_for_update(body_id)
        if body.registrar_id == settings.TALU_REGISTRAR_ID:
            raise ClubError("The site's own body holds every online game: it cannot be "
                            "suspended.", 409)
        if body.suspended is not None:
            raise ClubError(f"{body.name} is suspended already.", 409)
        body.suspended, body.suspended_reason = timezone.now(), reason
        body.save(update_fields=["suspended", "suspended_reason"])
        _audit(AuditEntry.SUSPEND, staff, body, reason=reason)
    return body


def reinstate(staff, body_id) -> AffiliatedBody:
    require_staff(staff)
    with transaction.atomic():
        body = _body_for_update(body_id)
        if body.suspended is None:
            raise ClubError(f"{body.name} is not suspended.", 409)
        before = {"suspended": body.suspended.isoformat(), "reason": body.suspended_reason}
        body.suspended, body.suspended_reason = None, ""
        body.save(update_fields=["suspended", "suspended_reason"])
        _audit(AuditEntry.REINSTATE, staff, body, before=before)
    return body


# --- a body's people ----------------------------------------------------------------------------

def find_accounts(query: str, limit: int = 20) -> list:
    """Active accounts whose username or registered player's name contains ``query``."""
    query = (query or "").strip()[:100]
    if len(query) < 2:
        return []
    return list(get_user_model().objects.filter(is_active=True).filter(
        Q(username__icontains=query) | Q(player__display_name__icontains=query))
        .select_related("player").order_by("username")[:limit])


def account(user_id):
    found = get_user_model().objects.filter(pk=user_id if str(user_id).isdigit() else -1,
                                            is_active=True).first()
    if found is None:
        raise ClubError("No such account.", 404)
    return found


def people_of(body: AffiliatedBody, role: str):
    if role not in ROLES:
        raise ClubError(f"Unknown role {str(role)[:20]!r}: registrar or arbiter.")
    return body.registrars if role == "registrar" else body.arbiter_users


def add_person(user, body: AffiliatedBody, role: str, person) -> None:
    """Make ``person`` a registrar (manages the body, its events and players) or an arbiter
    (offered for its events, R39) of ``body``."""
    require_registrar(user, body)
    people = people_of(body, role)
    with transaction.atomic():
        if people.filter(pk=person.pk).exists():
            raise ClubError(f"{person.get_username()} is {ARTICLE[role]} {role} of {body.name} "
                            "already.", 409)
        people.add(person)
        _audit(AuditEntry.ADD_PERSON, user, body, role=role, person=person.get_username())


def remove_person(user, body: AffiliatedBody, role: str, person) -> None:
    require_registrar(user, body)
    people = people_of(body, role)
    with transaction.atomic():
        if not people.filter(pk=person.pk).exists():
            raise ClubError(f"{person.get_username()} is not {ARTICLE[role]} {role} of "
                            f"{body.name}.", 404)
        if role == "registrar" and body.registrars.count() == 1:
            raise ClubError(f"{person.get_username()} is {body.name}'s last registrar: add "
                            "another first, or nobody could run the club.", 409)
        people.remove(person)
        _audit(AuditEntry.DROP_PERSON, user, body, role=role, person=person.get_username())


# --- registered players -------------------------------------------------------------------------

def members(body: AffiliatedBody):
    return body.players.select_related("user").order_by("display_name", "player_id")


def register_account(user, body: AffiliatedBody, person) -> Player:
    """Register an existing account's player with ``body`` (book 5.3.6)."""
    require_registrar(user, body)
    require_active(body)
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player_of(person).pk)
        if player.body_id == body.pk:
            raise ClubError(f"{person.get_username()} is registered with {body.name} already.",
                            409)
        if player.body_id is not None:
            raise ClubError(f"{person.get_username()} is registered with {player.body.name}: "
                            "a player is registered through one body (book 5.3.6).", 409)
        player.body = body
        player.save(update_fields=["body"])
        _audit(AuditEntry.REGISTER, user, body, player=player.player_id,
               account=person.get_username())
    return player


def _new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def shown_code(code: str) -> str:
    """The code as printed: two groups of five."""
    return f"{code[:5]}-{code[5:]}"


def _hash(code: str) -> str:
    return hashlib.sha256(code.encode("ascii")).hexdigest()


def normal_code(text) -> str:
    """What a person typed, as stored: no spaces or dashes, upper case."""
    return re.sub(r"[\s\-]+", "", text if isinstance(text, str) else "").upper()[:40]


def check_rating(value) -> int | None:
    """An optional starting rating: a whole number 1 to a million, or None when empty."""
    text = str(value if value is not None else "").strip()
    if not text:
        return None
    if not re.fullmatch(r"\d{1,7}", text) or not 0 < int(text) <= MAX_RATING:
        raise ClubError(f"The rating {text[:20]!r} is not a whole number from 1 to "
                        f"{MAX_RATING}.")
    return int(text)


def create_unclaimed(user, body: AffiliatedBody, name: str, rating: int | None = None
                     ) -> tuple[Player, str]:
    """A player without an account (book 5.3.6: over the board) and their claim code, returned
    in plain once. Call inside a transaction to make many (the CSV import)."""
    try:
        player = jobs.register_player(name, body=body.registrar_id, rating=rating)
    except jobs.JobError as err:
        raise ClubError(str(err)) from None
    code = _new_code()
    PlayerClaim.objects.create(player=player, code_hash=_hash(code), created_by=user)
    _audit(AuditEntry.REGISTER, user, body, player=player.player_id, name=player.display_name,
           rating=player.rating, claim_code=True)
    return player, code


def register_unclaimed(user, body: AffiliatedBody, name: str, rating=None
                       ) -> tuple[Player, str]:
    require_registrar(user, body)
    require_active(body)
    name = text_field(name, "A player's name")
    start = check_rating(rating)
    if body.players.filter(display_name__iexact=name).exists():
        raise ClubError(f"{name} is registered with {body.name} already.", 409)
    with transaction.atomic():
        return create_unclaimed(user, body, name, start)


def _has_history(player: Player) -> bool:
    """Whether a player has anything of their own: games, ratings, event entries."""
    return bool(player.games or player.rating_changes.exists()
                or player.phase_rating_changes.exists() or player.event_entries.exists()
                or RegistryGame.objects.filter(Q(player_i=player) | Q(player_o=player)).exists())


def claim(user, code) -> Player:
    """The person signed in as ``user`` takes the player the code was printed for: the
    player, with its over-the-board record, becomes their account's (book 5.3.6). Their
    account's own player, when it has no history, gives way to it."""
    typed = normal_code(code)
    if not typed:
        raise ClubError("Type the code from your sheet (like K7QM4-3XPDA).")
    with transaction.atomic():
        found = (PlayerClaim.objects.select_for_update().select_related("player__body")
                 .filter(code_hash=_hash(typed)).first())
        if found is None:
            raise ClubError("No player has this code: check it against your sheet "
                            "(letters and digits, no O, 0, I or 1).", 404)
        if found.claimed is not None:
            raise ClubError("This code has been used already: its player belongs to an "
                            "account. Ask your club's registrar if it was not you.", 409)
        player = Player.objects.select_for_update().get(pk=found.player_id)
        own = Player.objects.filter(user=user).select_related("body").first()
        if own is not None and own.body_id is not None:
            raise ClubError(f"Your account is the registered player {own.player_id} of "
                            f"{own.body.name} already, and two records cannot be joined here: "
                            "write to the federation, with this code, to have them joined.",
                            409)
        if own is not None and _has_history(own):
            raise ClubError("Your account has games or ratings of its own, and two records "
                            "cannot be joined here: write to the federation, with this "
                            "code, to have them joined.", 409)
        if own is not None:
            own.delete()
        player.user = user
        player.save(update_fields=["user"])
        found.claimed, found.claimed_by = timezone.now(), user
        found.save(update_fields=["claimed", "claimed_by"])
        _audit(AuditEntry.CLAIM, user, player.body, player=player.player_id,
               account=user.get_username())
    user.player = player  # the account's cached player was the deleted one
    return player
