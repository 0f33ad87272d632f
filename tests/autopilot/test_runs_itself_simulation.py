"""``simulate_self_running``: bots run a whole self-running event; the final standings agree
with the independent recheck from the stored records."""

import json
from io import StringIO

import pytest
from django.core.management import call_command

from tournament.models import Event


@pytest.mark.long_story  # the runner's paths on PostgreSQL: the rest of tests/autopilot
@pytest.mark.django_db
def test_runs_itself_with_bots_to_rechecked_final_standings():
    out = StringIO()
    call_command("simulate_self_running", "--players", "6", "--rounds", "2", "--seed", "7",
                 "--json", stdout=out)
    report = json.loads(out.getvalue())
    assert report["problems"] == [] and report["rounds"] == 2
    assert report["late"] and report["disputed"] == "round 1, board 1"
    assert report["no_show_forfeits"] >= 2
    assert len(report["withdrawn"]) == 1  # the bot who never comes, after two missed games
    event = Event.objects.get(slug=report["event"])
    assert event.autopilot.finished_at is not None and event.autopilot.running
