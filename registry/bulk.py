"""Bulk writes for the ledger: PostgreSQL ``COPY`` where it matters, Django's bulk API elsewhere.

A full recompute (R30) may rewrite 200,000 rating changes. Django's ``bulk_create`` and
``bulk_update`` (one ``CASE`` per column) spend most of that time building SQL; ``COPY`` into the
table (inserts) or into a temporary table joined by ``UPDATE ... FROM`` (updates) is several
times faster. On other databases (SQLite in tests) the plain bulk API is used, so both paths
write the same rows.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from django.db import connection, models

BATCH = 2000


def _column_values(model: type[models.Model], fields: Sequence[str], row: dict[str, Any]
                   ) -> tuple:
    out = []
    for name in fields:
        value = row[name]
        field = model._meta.get_field(name)
        if isinstance(field, models.JSONField):
            value = json.dumps(value, separators=(",", ":"))
        out.append(value)
    return tuple(out)


def _columns(model: type[models.Model], fields: Sequence[str]) -> list[str]:
    return [model._meta.get_field(f).column for f in fields]


def insert_rows(model: type[models.Model], rows: Sequence[dict[str, Any]],
                fields: Sequence[str]) -> None:
    """Insert ``rows`` (dicts keyed by field name, foreign keys as ``<name>_id``)."""
    if not rows:
        return
    if connection.vendor != "postgresql":
        model.objects.bulk_create([model(**r) for r in rows], batch_size=BATCH)
        return
    table = model._meta.db_table
    cols = ", ".join(f'"{c}"' for c in _columns(model, fields))
    with connection.cursor() as cur, cur.cursor.copy(
            f'COPY "{table}" ({cols}) FROM STDIN') as copy:
        for r in rows:
            copy.write_row(_column_values(model, fields, r))


def update_rows(model: type[models.Model], rows: Sequence[dict[str, Any]],
                fields: Sequence[str]) -> None:
    """Update ``fields`` of existing rows (each dict has ``pk``)."""
    if not rows:
        return
    if connection.vendor != "postgresql" or len(rows) < 200:
        objs = [model(pk=r["pk"], **{f: r[f] for f in fields}) for r in rows]
        model.objects.bulk_update(objs, list(fields), batch_size=500)
        return
    table = model._meta.db_table
    pk_col = model._meta.pk.column
    cols = _columns(model, fields)
    select = ", ".join([f'"{pk_col}"', *(f'"{c}"' for c in cols)])
    tmp = f"tmp_upd_{table}"
    sets = ", ".join(f'"{c}" = t."{c}"' for c in cols)
    with connection.cursor() as cur:
        cur.execute(f'DROP TABLE IF EXISTS "{tmp}"')
        cur.execute(f'CREATE TEMP TABLE "{tmp}" AS SELECT {select} FROM "{table}" WITH NO DATA')
        with cur.cursor.copy(f'COPY "{tmp}" ({select}) FROM STDIN') as copy:
            for r in rows:
                copy.write_row((r["pk"], *_column_values(model, fields, r)))
        cur.execute(f'UPDATE "{table}" AS m SET {sets} FROM "{tmp}" AS t '
                    f'WHERE m."{pk_col}" = t."{pk_col}"')
        cur.execute(f'DROP TABLE "{tmp}"')


def delete_pks(model: type[models.Model], pks: Sequence[int]) -> None:
    """Delete rows by primary key, without Django's cascade collection (the ledger only
    deletes rows nothing points to)."""
    for i in range(0, len(pks), BATCH * 5):
        model.objects.filter(pk__in=pks[i:i + BATCH * 5])._raw_delete(model.objects.db)
