"""The OpenAPI schema: generated without warnings, valid OpenAPI 3, served with a docs page."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]


def test_spectacular_validates_without_warnings(tmp_path):
    """``manage.py spectacular --validate --fail-on-warn`` is the check CI relies on."""
    out = tmp_path / "schema.yaml"
    run = subprocess.run(
        [sys.executable, "manage.py", "spectacular", "--validate", "--fail-on-warn",
         "--file", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "talu_site.settings"},
    )
    assert run.returncode == 0, run.stderr
    schema = yaml.safe_load(out.read_text())
    assert schema["openapi"].startswith("3.")
    paths = set(schema["paths"])
    for p in ("/api/v1/players/", "/api/v1/players/{player_id}/",
              "/api/v1/players/{player_id}/ratings/", "/api/v1/games/",
              "/api/v1/games/{game_id}/", "/api/v1/games/{game_id}/annul/",
              "/api/v1/games/{game_id}/correct/", "/api/v1/games/{game_id}/records/",
              "/api/v1/games/{game_id}/records/{name}/", "/api/v1/leaderboards/{code}/",
              "/api/v1/bodies/", "/api/v1/bodies/{registrar_id}/"):
        assert p in paths, p


@pytest.fixture
def schema(client, db):
    response = client.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    return response.json()


def test_served_schema_documents_bodies_errors_and_record_types(schema):
    post = schema["paths"]["/api/v1/games/"]["post"]
    assert set(post["requestBody"]["content"]) == {"multipart/form-data", "application/json"}
    assert {"201", "401", "403", "422"} <= set(post["responses"])
    record = schema["paths"]["/api/v1/games/{game_id}/records/{name}/"]["get"]
    assert set(record["responses"]["200"]["content"]) == {"text/plain", "application/yaml"}
    error = schema["components"]["schemas"]["Error"]
    assert {"detail", "errors", "reasons"} <= set(error["properties"])
    assert "bodyToken" in schema["components"]["securitySchemes"]
    # Reads are public: "no credential" is among the accepted security options.
    assert {} in schema["paths"]["/api/v1/games/"]["get"]["security"]
    assert {} not in post["security"]
    assert "Retry-After" in post["responses"]["429"]["headers"]


def test_docs_page_works_offline(client, db):
    """The interactive page loads Swagger UI from the sidecar package, not a CDN."""
    page = client.get("/api/docs/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "swagger-ui" in html
    # Its start-up script is a file (the site's CSP runs no inline script), naming the schema.
    assert "/api/schema/" in client.get("/api/docs/?script=").content.decode()
    assert "cdn.jsdelivr" not in html and "unpkg" not in html
    bundle = next(part.split('"')[0] for part in html.split('src="')[1:]
                  if "swagger-ui-bundle" in part)
    assert bundle.startswith("/static/")
    assert client.get(bundle).status_code == 200
