"""Game records (book 6.5.2, rulings R31-R35): STGE, STSE and the digital game slip STDGS.

Pure Python, no Django. One job per module:

* :mod:`.schema`   structure and types, with field paths in every fault
* :mod:`.yamlio`   safe YAML reading, YAML writing that reads back the same under 1.1 and 1.2
* :mod:`.hashing`  R32 hash (RFC 8785 canonical JSON, SHA-256)
* :mod:`.keys`     keyrings (GnuPG homes) and the affiliated body's key
* :mod:`.signing`  R33 OpenPGP detached signatures over the hash
* :mod:`.builders` build, seal (hash + sign) and write STGE/STSE
* :mod:`.slip`     merge into the STDGS with the derived tally (R35)
* :mod:`.verify`   check records: hashes, chain, notation, signatures
* :mod:`.game_record` another game's signed record (issue 36): build, seal, verify

See ``docs/records.md``.
"""

from .errors import Fault, RecordError

__all__ = ["Fault", "RecordError"]
