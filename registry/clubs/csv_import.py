"""Registering many players at once from a CSV file (issue 38): read and checked first, every
row's problem shown, nothing written; then, confirmed, every valid row written in one
transaction (the file is checked again then: the registry may have changed in between).

The columns, by the header's names in any order: ``name`` (required), ``username`` (optional:
an existing account, registered with the body) and ``rating`` (optional: the starting rating
of a player without an account, R26 S1). A row without a username makes a player without an
account, with a claim code printed once (``registry.clubs.services.create_unclaimed``).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.db import transaction

from registry.clubs import services
from registry.clubs.services import ClubError
from registry.models import AffiliatedBody, AuditEntry, Player

COLUMNS = ("name", "username", "rating")
MAX_BYTES = 256 * 1024
MAX_ROWS = 1000


@dataclass
class Row:
    line: int
    name: str
    username: str = ""
    rating: int | None = None
    error: str = ""
    account: object = None

    @property
    def kind(self) -> str:
        return "account" if self.username else "new player with a claim code"


@dataclass
class Preview:
    rows: list[Row] = field(default_factory=list)
    error: str = ""  # a problem of the whole file: nothing can be imported

    @property
    def valid(self) -> list[Row]:
        return [] if self.error else [r for r in self.rows if not r.error]

    @property
    def invalid(self) -> list[Row]:
        return [r for r in self.rows if r.error]


def decode(data: bytes) -> str:
    """The file's text (UTF-8, with or without a byte-order mark), or ClubError."""
    if len(data) > MAX_BYTES:
        raise ClubError(f"The file is larger than {MAX_BYTES // 1024} KB: split it "
                        f"(at most {MAX_ROWS} players a file).")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ClubError("The file is not UTF-8 text: save it as 'CSV UTF-8'.") from None


def read(body: AffiliatedBody, text: str) -> Preview:
    """Every row of ``text`` checked against ``body`` and the registry; nothing written."""
    preview = Preview()
    if "\x00" in text:
        preview.error = "The file is not a CSV text file (it holds NUL characters)."
        return preview
    lines = [r for r in csv.reader(io.StringIO(text)) if any(c.strip() for c in r)]
    if not lines:
        preview.error = "The file is empty: its first line names the columns (name,username," \
                        "rating)."
        return preview
    header = [c.strip().lower() for c in lines[0]]
    unknown = [c for c in header if c not in COLUMNS]
    if unknown:
        preview.error = (f"Unknown column {unknown[0][:40]!r} in the first line: the columns "
                         "are name, username (optional) and rating (optional).")
        return preview
    if "name" not in header:
        preview.error = ("The first line must name the columns, with a 'name' column "
                         "(e.g. name,username,rating).")
        return preview
    if len(set(header)) != len(header):
        preview.error = "A column is named twice in the first line."
        return preview
    if len(lines) - 1 > MAX_ROWS:
        preview.error = (f"The file has {len(lines) - 1} players: at most {MAX_ROWS} a file; "
                         "split it.")
        return preview
    seen_names: dict[str, int] = {}
    seen_users: dict[str, int] = {}
    users = get_user_model()
    for number, cells in enumerate(lines[1:], start=2):
        values = dict(zip(header, cells, strict=False))
        row = Row(line=number, name=values.get("name", "").strip()[:200],
                  username=values.get("username", "").strip()[:150])
        preview.rows.append(row)
        if len(cells) != len(header):
            row.error = f"{len(cells)} fields, the first line names {len(header)}."
            continue
        try:
            row.name = services.text_field(values.get("name", ""), "The name")
            row.rating = services.check_rating(values.get("rating", ""))
        except ClubError as err:
            row.error = str(err)
            continue
        if row.username:
            row.error = _account_problem(body, row, users, seen_users)
        else:
            key = row.name.casefold()
            if key in seen_names:
                row.error = f"{row.name} is on line {seen_names[key]} already."
            elif body.players.filter(display_name__iexact=row.name).exists():
                row.error = f"{row.name} is registered with {body.name} already."
            seen_names.setdefault(key, number)
    return preview


def _account_problem(body: AffiliatedBody, row: Row, users, seen: dict[str, int]) -> str:
    key = row.username.casefold()
    if key in seen:
        return f"{row.username} is on line {seen[key]} already."
    seen[key] = row.line
    if row.rating is not None:
        return ("An account's player keeps their rating on the site: leave the rating empty "
                "for a row with a username.")
    account = users.objects.filter(username__iexact=row.username, is_active=True).first()
    if account is None:
        return (f"No account {row.username!r}: leave the username empty to register the player "
                "with a claim code.")
    player = Player.objects.filter(user=account).select_related("body").first()
    if player is not None and player.body_id == body.pk:
        return f"{account.get_username()} is registered with {body.name} already."
    if player is not None and player.body_id is not None:
        return f"{account.get_username()} is registered with {player.body.name}."
    row.account = account
    return ""


def commit(user, body: AffiliatedBody, text: str) -> tuple[Preview, list[tuple[Player, str]]]:
    """Write every valid row of ``text`` in one transaction, after checking it again; the
    preview and the players made, each with its claim code ("" for an account's)."""
    services.require_registrar(user, body)
    services.require_active(body)
    made: list[tuple[Player, str]] = []
    with transaction.atomic():
        preview = read(body, text)
        if preview.error:
            raise ClubError(preview.error)
        if not preview.valid:
            raise ClubError("No row of the file can be imported: correct them and try again.")
        for row in preview.valid:
            if row.account is not None:
                made.append((services.register_account(user, body, row.account), ""))
            else:
                made.append(services.create_unclaimed(user, body, row.name, row.rating))
        AuditEntry.objects.create(
            action=AuditEntry.IMPORT, actor_user=user, actor_body=body,
            after={"body": body.registrar_id, "registered": len(made),
                   "skipped": len(preview.invalid)})
    return preview, made
