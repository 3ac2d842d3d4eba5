"""Page-number pagination with a client-chosen page size (bounded)."""

from __future__ import annotations

from rest_framework.pagination import PageNumberPagination


class Pagination(PageNumberPagination):
    """``?page=N&page_size=M`` (M at most 200); the response carries count/next/previous."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200
