"""``talu verify``, ``talu slip`` (CLI contract) and ``talu keygen``.

* ``talu verify [--keyring DIR] PATH...``: exit 0 and ``PATH: ok (FORMAT)`` per file when all
  is good; exit 1 and one ``FILE: field.path: what is wrong`` line per fault on stdout. Besides
  the book's records it takes the signed record of another game's finished game
  (``talu-game-record/1``, :mod:`registry.records.game_record`): its content, hash and the
  site's signature.
* ``talu slip GAME_ENTRY SESSION_ENTRY...``: the STDGS YAML on stdout, exit 0; exit 1 with the
  faults on stderr and nothing on stdout.
* ``talu keygen [--keyring DIR] --registrar-id ID --name NAME [--email E]``: create an
  affiliated body's signing key and print its ``key_id`` (R33); exit 1 with the reason.
  ``--public-key FILE`` also writes its ASCII-armoured public key, the file a registrar
  uploads on the club's keys page (issue 38); ``--rotate`` makes a new key although the
  keyring has one for the body (the newest signs; the older ones still verify).

The keyring is a GnuPG home directory: ``--keyring``, else ``$TALU_KEYRING``, else
``./var/keyring``.
"""

from __future__ import annotations

import argparse
import sys

from registry.records import game_record
from registry.records.errors import RecordError
from registry.records.keys import ALGORITHMS, ENV_VAR, KeyringError, create_body_key
from registry.records.verify import SignatureChecker, load_record, verify_records

KEYRING_HELP = (f"GnuPG home directory with the public keys (default: ${ENV_VAR}, "
                "else ./var/keyring)")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("verify", help="check STGE/STSE/STDGS files (hashes, chain, notation, "
                                      "signatures) and other games' signed records")
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
    p.add_argument("--public-key", metavar="FILE", default=None,
                   help="also write the ASCII-armoured public key to FILE (to upload on the "
                        "club's keys page)")
    p.add_argument("--rotate", action="store_true",
                   help="make a new key although the keyring has one for this registrar id")
    p.set_defaults(func=run_keygen)


def _is_game_record(path: str) -> bool:
    """Whether ``path`` holds a game record of another game (JSON, ``talu-game-record/``);
    anything else, unreadable files too, goes to the book's records' checks."""
    try:
        with open(path, "rb") as fh:
            return game_record.looks_like_record(fh.read())
    except OSError:
        return False


def run_verify(args: argparse.Namespace) -> int:
    """The book's records (STGE, STSE, STDGS) are checked together, by game; each game record
    of another game on its own, against the same keyring. The output is the contract's either
    way: ``PATH: ok (FORMAT)`` lines, or one line per fault."""
    kinds = [_is_game_record(p) for p in args.paths]
    records = [load_record(p) for p, other in zip(args.paths, kinds, strict=True) if not other]
    faults = verify_records(records, keyring=args.keyring) if records else []
    checker = SignatureChecker(args.keyring)
    for path, other in zip(args.paths, kinds, strict=True):
        if other:
            faults += game_record.verify_file(path, signatures=checker)
    if faults:
        for fault in faults:
            print(fault)
        return 1
    books = iter(records)
    for path, other in zip(args.paths, kinds, strict=True):
        rec = None if other else next(books)
        print(f"{path}: ok ({game_record.FORMAT})" if rec is None
              else f"{rec.name}: ok ({rec.format})")
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
    from registry.records.keys import default_keyring, export_public_key

    try:
        keyring = args.keyring or default_keyring()
        info = create_body_key(keyring, registrar_id=args.registrar_id, name=args.name,
                               email=args.email, algorithm=args.algorithm,
                               rotate=args.rotate)
    except KeyringError as exc:
        print(f"talu keygen: {exc}", file=sys.stderr)
        return 1
    if args.public_key:
        try:
            with open(args.public_key, "w", encoding="utf-8") as fh:
                fh.write(export_public_key(keyring, info.fingerprint))
        except (OSError, KeyringError) as exc:
            print(f"talu keygen: key {info.key_id} made, but its public key could not be "
                  f"written to {args.public_key}: {exc}", file=sys.stderr)
            return 1
    print(info.key_id)
    return 0
