"""Django admin for the event app: a back door for arbiters, not the main interface."""

from django.contrib import admin

from tournament.models import Absence, Board, Event, HistoryEntry, Player, Result, Round


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "start_date", "pairing_system", "rounds_planned")
    search_fields = ("name", "slug")
    filter_horizontal = ("arbiters",)
    inlines = [PlayerInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "event", "seed", "club", "rating", "withdrawn_after_round")
    list_filter = ("event",)
    search_fields = ("name", "club")


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("event", "number", "status", "published_at", "closed_at")
    list_filter = ("event", "status")


@admin.register(Board)
class BoardAdmin(admin.ModelAdmin):
    list_display = ("round", "number", "first", "second")
    list_filter = ("round__event",)
    exclude = ("token",)


@admin.register(Result)
class ResultAdmin(admin.ModelAdmin):
    """Results are append-only: the admin shows them but does not edit them."""

    list_display = ("board", "version", "kind", "status", "first_vp", "second_vp", "entered_at")
    list_filter = ("status", "kind", "board__round__event")

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


admin.site.register(Absence)


@admin.register(HistoryEntry)
class HistoryEntryAdmin(admin.ModelAdmin):
    """The event's history is a record: readable here, never edited."""

    list_display = ("event", "at", "action", "summary", "user_label")
    list_filter = ("event", "action")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
