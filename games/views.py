from django.http import HttpResponse


def game_viewer(request, record_id):
    return HttpResponse("viewer")
