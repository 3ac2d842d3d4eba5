"""A body's signing keys over time (issue 38, ``registry.clubs.keys``): ``BodyKey``, the
audit's actions for keys and tokens, and each body's current key moved into the new table.

The move reads the key's fingerprints from the armoured text itself (a v4 key's fingerprint is
the SHA-1 of its public-key packet, RFC 4880 12.2; its subkeys' likewise), because a migration
runs no live code and no gpg. A key it cannot read (not v4, damaged) is left to
``registry.clubs.keys``, which records ``AffiliatedBody.public_key`` as a key of the body when
its keys page is opened or its keys change, and submissions verify against it meanwhile
(``registry.submission``)."""

import base64
import binascii
import hashlib

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

SET_NULL = django.db.models.deletion.SET_NULL
ACTIONS = ["submit", "annul", "correct", "recompute", "phase", "appoint", "dismiss",
           "arbitrate", "apply", "approve", "refuse", "suspend", "reinstate", "add_person",
           "rm_person", "register", "claim", "import", "moderate", "key", "token"]


def _someone():
    return models.ForeignKey(blank=True, null=True, on_delete=SET_NULL, related_name="+",
                             to=settings.AUTH_USER_MODEL)


def _fingerprints(armored: str) -> tuple[str, list[str]] | None:
    """The v4 fingerprints of an armoured key: its primary key's, its subkeys'; or None."""
    lines = armored.strip().splitlines()
    try:
        start = next(i for i, ln in enumerate(lines) if ln.startswith("-----BEGIN PGP PUBLIC"))
    except StopIteration:
        return None
    rest = lines[start + 1:]
    if any(not ln.strip() for ln in rest):  # armour headers end at the first blank line
        rest = rest[next(i for i, ln in enumerate(rest) if not ln.strip()) + 1:]
    body = []
    for ln in rest:
        if ln.startswith(("=", "-----")):  # the checksum, the end
            break
        body.append(ln.strip())
    try:
        data = base64.b64decode("".join(body), validate=True)
    except (binascii.Error, ValueError):
        return None
    found: list[tuple[int, str]] = []
    at = 0
    while at < len(data):
        packet = _packet(data, at)
        if packet is None:
            return None
        tag, start, length = packet
        content = data[start:start + length]
        if tag in (6, 14) and len(content) == length and content[:1] == b"\x04":
            digest = hashlib.sha1(b"\x99" + length.to_bytes(2, "big") + content)
            found.append((tag, digest.hexdigest().upper()))
        at = start + length
    if not found or found[0][0] != 6:
        return None
    return found[0][1], [fp for tag, fp in found[1:] if tag == 14]


def _packet(data: bytes, at: int) -> tuple[int, int, int] | None:
    """(tag, where its content starts, its length) of the OpenPGP packet at ``at``."""
    first = data[at]
    if not first & 0x80 or at + 2 > len(data):
        return None
    if first & 0x40:  # new packet format
        tag, o1 = first & 0x3F, data[at + 1]
        if o1 < 192:
            return tag, at + 2, o1
        if o1 < 224 and at + 3 <= len(data):
            return tag, at + 3, ((o1 - 192) << 8) + data[at + 2] + 192
        if o1 == 255 and at + 6 <= len(data):
            return tag, at + 6, int.from_bytes(data[at + 2:at + 6], "big")
        return None  # partial lengths: not in a key
    tag, kind = (first >> 2) & 0x0F, first & 0x03
    size = {0: 1, 1: 2, 2: 4}.get(kind)
    if size is None or at + 1 + size > len(data):
        return None
    return tag, at + 1 + size, int.from_bytes(data[at + 1:at + 1 + size], "big")


def move_current_keys(apps, schema_editor):
    Body = apps.get_model("registry", "AffiliatedBody")
    BodyKey = apps.get_model("registry", "BodyKey")
    for body in Body.objects.exclude(public_key=""):
        read = _fingerprints(body.public_key)
        if read is None or BodyKey.objects.filter(fingerprint=read[0]).exists():
            continue
        fingerprint, subkeys = read
        BodyKey.objects.create(body=body, fingerprint=fingerprint,
                               key_id="0x" + fingerprint[-8:],
                               subkey_ids=" ".join("0x" + f[-8:] for f in subkeys)[:400],
                               public_key=body.public_key, origin="recorded",
                               added=body.created)


class Migration(migrations.Migration):

    dependencies = [
        ("registry", "0011_clubs"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterField(
            model_name="auditentry",
            name="action",
            field=models.CharField(choices=[(a, a) for a in ACTIONS], max_length=10),
        ),
        migrations.CreateModel(
            name="BodyKey",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True,
                                           serialize=False, verbose_name="ID")),
                ("fingerprint", models.CharField(max_length=64, unique=True)),
                ("key_id", models.CharField(max_length=20)),
                ("subkey_ids", models.CharField(blank=True, max_length=400)),
                ("public_key", models.TextField()),
                ("uid", models.CharField(blank=True, max_length=300)),
                ("origin", models.CharField(choices=[
                    ("generated", "generated on the site"), ("uploaded", "uploaded"),
                    ("recorded", "on file before keys were kept")], default="uploaded",
                    max_length=10)),
                ("added", models.DateTimeField()),
                ("retired", models.DateTimeField(blank=True, null=True)),
                ("revoked", models.DateTimeField(blank=True, null=True)),
                ("revoked_reason", models.CharField(blank=True, max_length=500)),
                ("added_by", _someone()),
                ("revoked_by", _someone()),
                ("body", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE,
                                           related_name="keys",
                                           to="registry.affiliatedbody")),
            ],
            options={"ordering": ["-added", "-id"]},
        ),
        migrations.AddConstraint(
            model_name="bodykey",
            constraint=models.UniqueConstraint(
                condition=models.Q(retired__isnull=True, revoked__isnull=True),
                fields=("body",), name="one_current_key_per_body"),
        ),
        migrations.RunPython(move_current_keys, migrations.RunPython.noop),
    ]
