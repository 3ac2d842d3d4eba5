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


def _encoder(model: type[models.Model], fields: Sequence[str]):
    """A function turning a row dict into the COPY tuple of ``fields`` (JSON encoded)."""
    is_json = [isinstance(model._meta.get_field(f), models.JSONField) for f in fields]
    dumps = json.JSONEncoder(separators=(",", ":")).encode
    pairs = list(zip(fields, is_json, strict=True))

    def encode(row: dict[str, Any]) -> tuple:
        return tuple(dumps(row[f]) if j else row[f] for f, j in pairs)

    return encode


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
        encode = _encoder(model, fields)
        for r in rows:
            copy.write_row(encode(r))


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
            encode = _encoder(model, fields)
            for r in rows:
                copy.write_row((r["pk"], *encode(r)))
        cur.execute(f'UPDATE "{table}" AS m SET {sets} FROM "{tmp}" AS t '
                    f'WHERE m."{pk_col}" = t."{pk_col}"')
        cur.execute(f'DROP TABLE "{tmp}"')


def delete_pks(model: type[models.Model], pks: Sequence[int]) -> None:
    """Delete rows by primary key, without Django's cascade collection (the ledger only
    deletes rows nothing points to)."""
    for i in range(0, len(pks), BATCH * 5):
        model.objects.filter(pk__in=pks[i:i + BATCH * 5])._raw_delete(model.objects.db)


def sync_rows(model: type[models.Model], rows: Sequence[dict[str, Any]],
              key_fields: Sequence[str], value_fields: Sequence[str], scope: Any,
              extra: dict[str, Any] | None = None) -> tuple[int, int, int]:
    """PostgreSQL: make the rows of ``scope`` (a queryset of ``model``) equal ``rows``,
    compared in the database: rows that differ are updated, missing ones inserted (with the
    constant ``extra`` columns, e.g. ``created``), rows of the scope absent from ``rows``
    deleted. Unchanged rows are not written. Returns (updated, inserted, deleted)."""
    table = model._meta.db_table
    pk_col = model._meta.pk.column
    keys = _columns(model, key_fields)
    vals = _columns(model, value_fields)
    cols = [*keys, *vals]
    select = ", ".join(f'"{c}"' for c in cols)
    tmp = f"tmp_sync_{table}"
    on = " AND ".join(f'm."{k}" = t."{k}"' for k in keys)
    sets = ", ".join(f'"{c}" = t."{c}"' for c in vals)
    differs = (f"({', '.join(f'm.{chr(34)}{c}{chr(34)}' for c in vals)}) IS DISTINCT FROM "
               f"({', '.join(f't.{chr(34)}{c}{chr(34)}' for c in vals)})")
    extra = extra or {}
    extra_cols = _columns(model, list(extra))
    scope_sql, scope_params = scope.values("pk").query.sql_with_params()
    with connection.cursor() as cur:
        cur.execute(f'DROP TABLE IF EXISTS "{tmp}"')
        cur.execute(f'CREATE TEMP TABLE "{tmp}" AS SELECT {select} FROM "{table}" WITH NO DATA')
        with cur.cursor.copy(f'COPY "{tmp}" ({select}) FROM STDIN') as copy:
            encode = _encoder(model, [*key_fields, *value_fields])
            for r in rows:
                copy.write_row(encode(r))
        cur.execute(f'ANALYZE "{tmp}"')
        cur.execute(f'DELETE FROM "{table}" AS m WHERE m."{pk_col}" IN ({scope_sql}) AND NOT '
                    f'EXISTS (SELECT 1 FROM "{tmp}" AS t WHERE {on})', scope_params)
        deleted = cur.rowcount
        cur.execute(f'UPDATE "{table}" AS m SET {sets} FROM "{tmp}" AS t WHERE {on} AND '
                    f'{differs}')
        updated = cur.rowcount
        insert_cols = ", ".join(f'"{c}"' for c in [*cols, *extra_cols])
        select_t = ", ".join([*(f't."{c}"' for c in cols), *(["%s"] * len(extra_cols))])
        cur.execute(f'INSERT INTO "{table}" ({insert_cols}) SELECT {select_t} FROM "{tmp}" '
                    f'AS t WHERE NOT EXISTS (SELECT 1 FROM "{table}" AS m WHERE {on})',
                    list(extra.values()))
        inserted = cur.rowcount
        cur.execute(f'DROP TABLE "{tmp}"')
    return updated, inserted, deleted


def sync_rows_in_python(model: type[models.Model], rows: Sequence[dict[str, Any]],
                        key_fields: Sequence[str], value_fields: Sequence[str], scope: Any,
                        extra: dict[str, Any] | None = None) -> tuple[int, int, int]:
    """:func:`sync_rows` on any database, compared here: the rows of ``scope`` are read
    (their keys and values only) and only those that differ are written. For SQLite, and for
    tables too small for a temporary table to pay. Returns (updated, inserted, deleted)."""
    wanted = {tuple(r[k] for k in key_fields): r for r in rows}
    n = len(key_fields)
    to_update: list[dict[str, Any]] = []
    to_delete: list[int] = []
    seen: set[tuple] = set()
    for pk, *values in scope.values_list("pk", *key_fields, *value_fields).iterator(
            chunk_size=BATCH):
        key = tuple(values[:n])
        want = wanted.get(key)
        if want is None:
            to_delete.append(pk)
            continue
        seen.add(key)
        if any(want[f] != v for f, v in zip(value_fields, values[n:], strict=True)):
            to_update.append({"pk": pk, **want})
    delete_pks(model, to_delete)
    update_rows(model, to_update, value_fields)
    extra = extra or {}
    creates = [{**r, **extra} for k, r in wanted.items() if k not in seen]
    insert_rows(model, creates, (*key_fields, *value_fields, *extra))
    return len(to_update), len(creates), len(to_delete)
