"""Read-only admin for clocks and their log: changes go through ``clocks.services`` only."""

from django.contrib import admin

from clocks.models import Clock, ClockLogEntry


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Clock)
class ClockAdmin(ReadOnly):
    list_display = ("board", "version", "deadline_ms", "updated_at")
    list_select_related = ("board__round__event", "board__first", "board__second")
    search_fields = ("board__first__name", "board__second__name", "board__round__event__slug")


@admin.register(ClockLogEntry)
class ClockLogEntryAdmin(ReadOnly):
    list_display = ("clock", "version", "action", "who", "server_ms", "created_at")
    list_filter = ("action",)
    list_select_related = ("clock__board",)
