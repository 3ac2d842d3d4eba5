"""The registry's REST API (issue 6): players, games, records, ratings, leaderboards, bodies.

Django REST framework views over the registry models; the schema is drf-spectacular's, served at
``/api/schema/`` with an interactive page at ``/api/docs/`` (see ``docs/api.md``). Reads are
public; writes need an affiliated body's token (``Authorization: Token <key>``) or the login of
a staff member or of one of the body's registrars. The API only translates HTTP: submitting,
annulling and correcting are ``registry.submission`` / ``registry.ledger``'s.
"""
