"""Board and hall pages (being built: replaced by the clock shell)."""

from django.http import HttpResponse


def board_page(request, token):
    return HttpResponse("board")


def clock_hall(request, slug, number):
    return HttpResponse("hall")
