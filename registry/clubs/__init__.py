"""Clubs online (issue 38, book 5.3.3-5.3.6): a club applies, the federation (site staff)
approves, refuses or suspends it, and from then on the club's registrars run it on the site:
its registrars and arbiters, its registered players (found by name, created with a claim code,
or imported from a CSV file). Pages under ``/clubs/`` (docs/clubs.md)."""
