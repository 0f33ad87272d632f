"""The backup pages: the arbiter's export page of an event, the organiser's import."""

from django.urls import path

from backups import views

urlpatterns = [
    path("events/import/", views.import_json, name="event_import"),
    path("e/<slug:slug>/arbiter/export/", views.export_page, name="arbiter_export"),
    path("e/<slug:slug>/arbiter/export/event.json", views.export_json,
         name="arbiter_export_json"),
    path("e/<slug:slug>/arbiter/export/backups/<str:name>/restore/", views.restore_backup,
         name="arbiter_restore_backup"),
]
