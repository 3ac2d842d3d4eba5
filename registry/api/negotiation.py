"""Content negotiation that never answers 406.

A client asking for a type the view cannot render (``Accept: text/html`` on a YAML record,
``Accept: application/xml`` anywhere) gets the view's first renderer, usually JSON: a useful
answer with an honest Content-Type beats a bare refusal.
"""

from __future__ import annotations

from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation


class LenientNegotiation(DefaultContentNegotiation):
    def select_renderer(self, request, renderers, format_suffix=None):
        try:
            return super().select_renderer(request, renderers, format_suffix)
        except NotAcceptable:
            return renderers[0], renderers[0].media_type
