"""Issue #12: the demo's arbiter is an ordinary arbiter (with the organiser permission); the
admin site has its own superuser. Both passwords are kept in DATA_DIR; running again changes
nothing but the roles of an older demo database."""

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from games.demo import DEMO_SLUG
from tournament.models import Event

pytestmark = pytest.mark.django_db


def run_demo(settings, tmp_path) -> str:
    settings.DATA_DIR = tmp_path
    out = io.StringIO()
    call_command("demo", stdout=out)
    return out.getvalue()


def test_two_accounts_with_their_own_roles_and_passwords(settings, tmp_path):
    User = get_user_model()
    User.objects.create_superuser("arbiter", password="from-an-older-demo")  # older demos
    first = run_demo(settings, tmp_path)
    arbiter, admin = User.objects.get(username="arbiter"), User.objects.get(username="admin")
    assert not arbiter.is_superuser and not arbiter.is_staff
    assert arbiter.has_perm("tournament.add_event") and not arbiter.has_perm("auth.add_user")
    assert Event.objects.get(slug=DEMO_SLUG).is_arbiter(arbiter)
    assert admin.is_superuser and admin.is_staff
    arbiter_password = (tmp_path / "demo-arbiter-password.txt").read_text().strip()
    admin_password = (tmp_path / "demo-admin-password.txt").read_text().strip()
    assert arbiter.check_password(arbiter_password) and admin.check_password(admin_password)
    assert arbiter_password != admin_password
    assert (tmp_path / "demo-admin-password.txt").stat().st_mode & 0o077 == 0
    assert f"arbiter / {arbiter_password}" in first and f"admin / {admin_password}" in first

    second = run_demo(settings, tmp_path)
    assert "already there" in second
    assert f"arbiter / {arbiter_password}" in second and f"admin / {admin_password}" in second
    assert Event.objects.filter(slug=DEMO_SLUG).count() == 1
    assert User.objects.filter(username__in=["arbiter", "admin"]).count() == 2
