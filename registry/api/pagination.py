"""Page-number pagination with a client-chosen page size (bounded)."""

from __future__ import annotations

from django.core.paginator import Paginator
from rest_framework.pagination import PageNumberPagination


class Pagination(PageNumberPagination):
    """``?page=N&page_size=M`` (M at most 200); the response carries count/next/previous."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200


class DeferredJoinPaginator(Paginator):
    """Pages that find their rows' keys first and join only those.

    A plain ``OFFSET`` makes the database build (join, fetch) every skipped row: page 1,000 of
    the game list joined 50,000 games with their players to throw them away (170 ms at 100,000
    games, BENCHMARKS.md issue 6). Here the page is ``WHERE id IN (SELECT id ... ORDER BY ...
    OFFSET ... LIMIT ...)``: the subquery walks a narrow index, the joins touch one page's
    rows. Still one query per page.
    """

    def page(self, number):
        number = self.validate_number(number)
        bottom = (number - 1) * self.per_page
        top = bottom + self.per_page
        if top + self.orphans >= self.count:
            top = self.count
        rows = self.object_list
        keys = rows.order_by(*rows.query.order_by).values("pk")[bottom:top]
        return self._get_page(rows.filter(pk__in=keys), number, self)


class DeferredJoinPagination(Pagination):
    """:class:`Pagination` with :class:`DeferredJoinPaginator` (for long, joined lists)."""

    django_paginator_class = DeferredJoinPaginator
