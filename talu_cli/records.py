"""``talu verify``, ``talu slip`` (CLI contract) and ``talu keygen``.

* ``talu verify [--keyring DIR] PATH...``: exit 0 and ``PATH: ok (FORMAT)`` per file when all
  is good; exit 1 and one ``FILE: field.path: what is wrong`` line per fault on stdout.
* ``talu slip GAME_ENTRY SESSION_ENTRY...``: the STDGS YAML on stdout, exit 0; exit 1 with the
  faults on stderr and nothing on stdout.
* ``talu keygen [--keyring DIR] --registrar-id ID --name NAME [--email E]``: create an
  affiliated body's signing key and print its ``key_id`` (R33); exit 1 with the reason.

The keyring is a GnuPG home directory: ``--keyring``, else ``$TALU_KEYRING``, else
``./var/keyring``.
"""

from __future__ import annotations

import argparse
import sys

from registry.records.errors import RecordError
from registry.records.keys import ALGORITHMS, ENV_VAR, KeyringError, create_body_key
from registry.records.verify import load_record, verify_records

KEYRING_HELP = (f"GnuPG home directory with the public keys (default: ${ENV_VAR}, "
                "else ./var/keyring)")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("verify", help="check STGE/STSE/STDGS files: hashes, chain, notation, "
                                      "signatures")
    p.add_argument("--keyring", metavar="DIR", default=None, help=KEYRING_HELP)
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.set_defaults(func=run_verify)

    p = sub.add_parser("slip", help="merge a game entry and its session entries into the STDGS")
    p.add_argument("game_entry", metavar="GAME_ENTRY")
    p.add_argument("session_entries", nargs="+", metavar="SESSION_ENTRY")
    p.set_defaults(func=run_slip)

    p = sub.add_parser("keygen", help="create an affiliated body's signing key; print its key_id")
    p.add_argument("--keyring", metavar="DIR", default=None,
                   help=f"GnuPG home directory (default: ${ENV_VAR}, else ./var/keyring)")
    p.add_argument("--registrar-id", required=True, metavar="ID", help="e.g. GTF-HU-SZEGED-01")
    p.add_argument("--name", required=True, help="the body's name, e.g. 'Szeged Talu Club'")
    p.add_argument("--email", default=None)
    p.add_argument("--algorithm", choices=ALGORITHMS, default="ed25519")
    p.set_defaults(func=run_keygen)


def run_verify(args: argparse.Namespace) -> int:
    records = [load_record(p) for p in args.paths]
    faults = verify_records(records, keyring=args.keyring)
    if faults:
        for fault in faults:
            print(fault)
        return 1
    for rec in records:
        print(f"{rec.name}: ok ({rec.format})")
    return 0


def run_slip(args: argparse.Namespace) -> int:
    from registry.records.slip import slip_from_files

    try:
        text = slip_from_files(args.game_entry, args.session_entries)
    except RecordError as exc:
        for fault in exc.faults:
            print(fault, file=sys.stderr)
        return 1
    sys.stdout.write(text)
    return 0


def run_keygen(args: argparse.Namespace) -> int:
    from registry.records.keys import default_keyring

    try:
        keyring = args.keyring or default_keyring()
        info = create_body_key(keyring, registrar_id=args.registrar_id, name=args.name,
                               email=args.email, algorithm=args.algorithm)
    except KeyringError as exc:
        print(f"talu keygen: {exc}", file=sys.stderr)
        return 1
    print(info.key_id)
    return 0
