"""The API against its own schema (issue 6): schemathesis generates requests for every
operation from the served OpenAPI document and checks each answer: never a server error, and
status, content type, headers and body as documented.

The database holds two bodies, players and rated games with records; half the generated
requests have their path parameters replaced by ids that exist (so detail pages, records and
histories are exercised, not only 404s) and half carry body A's token (so writes get past
authentication into validation). Examples per operation are few and derandomized: the run is
reproducible and takes about a minute. A refused write (4xx) must change nothing, and no
request may log an ERROR (a traceback) on the server (issue 27); in the PostgreSQL run
(``test_postgresql.py``) too.
"""

from __future__ import annotations

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
def seeded(body_a, body_b, pair, token_a, body_keys):
    """Real data: a submitted game (records, rating changes), rated and plain games."""
    from registry.submission import submit_game

    stge, stses = helpers.records(body_keys.signer(), pair, splits=(20,))
    submitted = submit_game(body_a, stge, stses)
    helpers.add_game(body_b, pair[1], pair[0])
    helpers.seed_games(body_a, pair, 5, records=True)
    return {"game_id": str(submitted.game_id), "player_id": pair[0].player_id,
            "registrar_id": body_a.registrar_id, "name": "stse-2", "code": "S1",
            "token": token_a}


def test_every_operation_conforms_to_the_schema(db, wsgi_app, seeded, caplog):
    # Credentials are ours to choose (below): no generated Authorization headers or cookies.
    schema = schemathesis.from_wsgi(
        "/api/schema/?format=json", wsgi_app,
        generation_config=GenerationConfig(with_security_parameters=False))
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 13
    known = {k: v for k, v in seeded.items() if k != "token"}
    auth = {"Authorization": f"Token {seeded['token']}"}
    calls = {"count": 0}

    for operation in operations:
        @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(case=operation.as_strategy(), use_known=st.booleans(), with_token=st.booleans())
        def check(case, use_known, with_token):
            if use_known and case.path_parameters:
                case.path_parameters = {k: known.get(k, v)
                                        for k, v in case.path_parameters.items()}
            headers = dict(auth) if with_token else None
            before = helpers.registry_state() if case.method != "GET" else None
            response = case.call(headers=headers)
            case.validate_response(response, checks=CHECKS)
            if before is not None and response.status_code >= 400:
                # A refused write changed nothing (issue 27).
                assert helpers.registry_state() == before, (case.method, case.path)
            calls["count"] += 1

        check()
    # Nothing the generator sent reached a traceback: any ERROR log line fails (issue 27).
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, errors[:5]
    assert calls["count"] >= EXAMPLES * len(operations) // 2
