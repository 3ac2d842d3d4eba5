"""The API's parsers: Django REST framework's JSON, multipart and form parsers, whose parsed
data is refused when any string in it (a key or a value, at any depth) cannot be stored or
shown: a NUL (PostgreSQL's text refuses it: a ``DataError`` and a 500 in whichever view
queried with it), a lone surrogate (it cannot be encoded as UTF-8) or another control
character but tabs and line breaks (issue 27: one check of every external string,
``play.games.text``). JSON nested past the decoder's recursion limit is a 400 too (a
RecursionError, where DRF's parser expects a ValueError: a 500 from a few kilobytes).

Why at the parser: many views read ``request.data`` field by field (events, arbiters,
results), and every one of them once had to remember the check; here no view sees such a
string at all. The refusal is a 400 naming the top-level field, as a serializer's would be.
Finer rules (a name is one line without bidirectional controls, a length) stay with each field.
"""

from __future__ import annotations

from typing import Any

from rest_framework import exceptions, parsers

from play.games import text

MAX_DEPTH = 64


def _problem(value: Any, depth: int = 0) -> str | None:
    if isinstance(value, str):
        return text.problem(value, multiline=True, allow_bidi=True)
    if depth > MAX_DEPTH:
        return "is nested too deeply"
    if isinstance(value, dict):
        for k, v in value.items():
            if (reason := _problem(k, depth + 1) or _problem(v, depth + 1)) is not None:
                return reason
    elif isinstance(value, (list, tuple)):
        for v in value:
            if (reason := _problem(v, depth + 1)) is not None:
                return reason
    return None


def check_data(data: Any) -> None:
    """ValidationError naming the first top-level field that holds a string no field takes."""
    if hasattr(data, "lists"):  # a QueryDict: every value of every key
        items = [(k, vs) for k, vs in data.lists()]
    elif isinstance(data, dict):
        items = list(data.items())
    else:
        items = [("non_field_errors", data)]
    for key, value in items:
        reason = _problem(key) or _problem(value)
        if reason is not None:
            name = key if text.problem(key) is None else "non_field_errors"
            raise exceptions.ValidationError({name: [f"text {reason}"]})


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:  # not the ValueError DRF's parser turns into a 400
            raise exceptions.ParseError("JSON parse error - nested too deeply") from None
        check_data(data)
        return data


class FormParser(parsers.FormParser):
    def parse(self, stream, media_type=None, parser_context=None):
        data = super().parse(stream, media_type, parser_context)
        check_data(data)
        return data


class MultiPartParser(parsers.MultiPartParser):
    def parse(self, stream, media_type=None, parser_context=None):
        result = super().parse(stream, media_type, parser_context)
        check_data(result.data)  # the form's fields; an uploaded file's text is its field's
        return result
