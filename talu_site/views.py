"""Error pages that never show a traceback, whatever DEBUG says for other pages."""

from django.shortcuts import render


def not_found(request, exception=None):
    ctx = {"title": "Not found", "message": "No such page."}
    return render(request, "error.html", ctx, status=404)


def server_error(request):
    return render(
        request,
        "error.html",
        {"title": "Something went wrong", "message": "The server could not answer this request."},
        status=500,
    )
