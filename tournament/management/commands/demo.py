"""``python manage.py demo``: a demo event and an arbiter login, safe to run again."""

import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from tournament.demo import DEMO_SLUG, build_demo_event

ARBITER = "arbiter"


class Command(BaseCommand):
    help = "Create the demo event (once) and print the demo arbiter's login."

    def handle(self, *args, **options):
        password_file = settings.DATA_DIR / "demo-arbiter-password.txt"
        with transaction.atomic():
            user, created = get_user_model().objects.get_or_create(
                username=ARBITER, defaults={"is_staff": True, "is_superuser": True}
            )
            if created or not password_file.exists():
                password = secrets.token_urlsafe(9)
                user.set_password(password)
                user.save()
                password_file.write_text(password + "\n")
                password_file.chmod(0o600)
            password = password_file.read_text().strip()
        event, made = build_demo_event(user)
        state = "created" if made else "already there"
        self.stdout.write(f"Demo event {event.name!r} {state}: /e/{DEMO_SLUG}/")
        self.stdout.write(self.style.SUCCESS(f"Arbiter login: {ARBITER} / {password}"))
