"""``python manage.py demo``: the demo event and its two logins, safe to run again.

- ``arbiter``: an ordinary account, arbiter of the demo event, with the organiser permission
  (``tournament.add_event``: creating and importing events), as the one person running a
  small event usually is. Not staff, not a superuser.
- ``admin``: a superuser for the admin site (accounts, permissions, login lockouts).

Each password is generated on the first run and kept in ``DATA_DIR`` (readable by the owner
only); later runs print it again and fix the accounts' roles, so an older demo database whose
arbiter was a superuser is brought in line.
"""

import secrets
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management.base import BaseCommand
from django.db import transaction

from games.demo import DEMO_SLUG, build_demo_event

ARBITER = "arbiter"
ADMIN = "admin"


def demo_account(username: str, password_file: Path, *, superuser: bool):
    """The account with its demo role, and its password (made and saved on first use)."""
    user, created = get_user_model().objects.get_or_create(username=username)
    user.is_staff = user.is_superuser = superuser
    if created or not password_file.exists():
        password = secrets.token_urlsafe(9)
        user.set_password(password)
        password_file.write_text(password + "\n")
        password_file.chmod(0o600)
    user.save()
    return user, password_file.read_text().strip()


class Command(BaseCommand):
    help = "Create the demo event (once) and print the demo arbiter's and admin's logins."

    def handle(self, *args, **options):
        with transaction.atomic():
            arbiter, arbiter_password = demo_account(
                ARBITER, settings.DATA_DIR / "demo-arbiter-password.txt", superuser=False)
            arbiter.user_permissions.add(
                Permission.objects.get(content_type__app_label="tournament",
                                       codename="add_event"))
            _admin, admin_password = demo_account(
                ADMIN, settings.DATA_DIR / "demo-admin-password.txt", superuser=True)
        event, made = build_demo_event(arbiter)
        state = "created" if made else "already there"
        self.stdout.write(f"Demo event {event.name!r} {state}: /e/{DEMO_SLUG}/")
        self.stdout.write(self.style.SUCCESS(
            f"Arbiter login: {ARBITER} / {arbiter_password}  (runs the demo event, may create "
            "and import events)"))
        self.stdout.write(self.style.SUCCESS(
            f"Admin login (/admin/): {ADMIN} / {admin_password}"))
