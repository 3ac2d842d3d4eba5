"""The API against its own schema (issue 6): schemathesis generates requests for every
operation from the served OpenAPI document and checks each answer: never a server error, and
status, content type, headers and body as documented.

The database holds two bodies, players and rated games with records, and an over-the-board
event with a paired round; half the generated requests have their path parameters replaced by
ids that exist (so detail pages, records and histories are exercised, not only 404s) and a third
each carry body A's token or the HTTP basic credentials of a person who runs the event (so
writes get past authentication into validation). Examples per operation are few and
derandomized: the run is reproducible and takes a few minutes on a loaded machine. A refused
write (4xx) must change nothing, the events' rows included, and no request may log an ERROR (a
traceback) on the server (issue 27); in the PostgreSQL and Redis run (the services lane of
``tests/lanes.py``) too.
"""

from __future__ import annotations

import base64
import logging

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationConfig
from schemathesis.specs.openapi import checks as oas

from tests.api import helpers

EXAMPLES = 100
CHECKS = (
    schemathesis.checks.not_a_server_error,
    oas.status_code_conformance,
    oas.content_type_conformance,
    oas.response_headers_conformance,
    oas.response_schema_conformance,
)


@pytest.fixture
def wsgi_app():
    """Django's WSGI app inside the test transaction: like Django's test client, keep it from
    closing the connection (and so the transaction) at the end of each request."""
    from talu_site.wsgi import application

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield application
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def seeded(body_a, body_b, pair, token_a, body_keys, django_user_model):
    """Real data: a submitted game (records, rating changes), rated and plain games; an
    over-the-board event with players and a paired round, run by a person (a registrar of
    body A, site staff) whose session the generated requests may carry."""
    from registry.events import rounds
    from registry.events import services as events
    from registry.submission import submit_game

    stge, stses = helpers.records(body_keys.signer(), pair, splits=(20,))
    submitted = submit_game(body_a, stge, stses)
    helpers.add_game(body_b, pair[1], pair[0])
    helpers.seed_games(body_a, pair, 5, records=True)
    # The person signs every request (HTTP basic: no session, so no CSRF token; the test
    # client drops a Cookie header of its own); their password is hashed cheaply, as every
    # test process's are (tests/site/conftest.py).
    person = django_user_model.objects.create_user("reggie", password="pw-reggie-x1",
                                                   is_staff=True)
    body_a.registrars.add(person)
    event = events.create_event(person, body_a, name="Board night", system="swiss", rounds=3,
                                venue="board")
    entries = [events.enter_player(person, event, f"Guest {n}", 1500 - n) for n in range(4)]
    rounds.pair_round(person, event)
    return {"game_id": str(submitted.game_id), "player_id": pair[0].player_id,
            "registrar_id": body_a.registrar_id, "name": "stse-2", "code": "S1",
            "event_id": event.pk, "number": 1, "key": entries[0].key,
            "username": person.username, "token": token_a,
            "basic": base64.b64encode(b"reggie:pw-reggie-x1").decode()}


def _state() -> tuple:
    """The registry's state (``helpers.registry_state``) and the events'."""
    from registry.events.models import Entry, Event, Pairing

    return (helpers.registry_state(),
            sorted(Event.objects.values_list("pk", "revision", "status", "name")),
            sorted(Entry.objects.values_list("pk", "withdrawn_after")),
            sorted(Pairing.objects.values_list("pk", "result", "note")))


def test_every_operation_conforms_to_the_schema(db, wsgi_app, seeded, caplog):
    # Credentials are ours to choose (below): no generated Authorization headers or cookies.
    schema = schemathesis.from_wsgi(
        "/api/schema/?format=json", wsgi_app,
        generation_config=GenerationConfig(with_security_parameters=False))
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 13
    known = {k: v for k, v in seeded.items() if k not in ("token", "basic")}
    identities = {
        "anonymous": None,
        "body": {"Authorization": f"Token {seeded['token']}"},
        # A person (the event's arbiter, a registrar, staff): the events' and arbiters'
        # writes get past their permission checks into their own checks (issue 27).
        "person": {"Authorization": f"Basic {seeded['basic']}"},
    }
    calls = {"count": 0}
    person_writes: set[int] = set()  # statuses of the person's writes

    for operation in operations:
        @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(case=operation.as_strategy(), use_known=st.booleans(),
               who=st.sampled_from(sorted(identities)))
        def check(case, use_known, who):
            if use_known and case.path_parameters:
                case.path_parameters = {k: known.get(k, v)
                                        for k, v in case.path_parameters.items()}
            headers = identities[who]
            before = _state() if case.method != "GET" else None
            response = case.call(headers=dict(headers) if headers else None)
            case.validate_response(response, checks=CHECKS)
            if before is not None and response.status_code >= 400:
                # A refused write changed nothing (issue 27).
                assert _state() == before, (case.method, case.path, who)
            if who == "person" and before is not None:
                person_writes.add(response.status_code)
            calls["count"] += 1

        check()
    # Nothing the generator sent reached a traceback: any ERROR log line fails (issue 27).
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, errors[:5]
    assert calls["count"] >= EXAMPLES * len(operations) // 2
    # The person's session got past authentication and CSRF: writes accepted and refused in
    # validation, not only 401/403.
    assert person_writes & {200, 201} and 400 in person_writes, person_writes
