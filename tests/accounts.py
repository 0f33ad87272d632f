"""Accounts as the tests need them: the organiser permission given the way the admin gives it."""

from django.contrib.auth.models import Permission


def make_organiser(user):
    """``user`` with ``tournament.add_event``: may create, import and restore events."""
    user.user_permissions.add(
        Permission.objects.get(content_type__app_label="tournament", codename="add_event"))
    return user
