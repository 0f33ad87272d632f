"""Data migrations keep what deployed databases hold."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("games", "0002_initial"), ("tournament", "0004_print_language")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_the_result_record_links_move_to_the_games_app():
    """``Result.record`` (event app → games) becomes ``games.ResultRecord``: every link of a
    database migrated from before survives, and one without a record gets none."""
    apps = _migrate(BEFORE)
    event = apps.get_model("tournament", "Event").objects.create(slug="old", name="Old")
    first, second = (apps.get_model("tournament", "Player").objects.create(
        event=event, seed=seed, name=f"P{seed}") for seed in (1, 2))
    round_ = apps.get_model("tournament", "Round").objects.create(event=event, number=1)
    board = apps.get_model("tournament", "Board").objects.create(
        round=round_, number=1, first=first, second=second, token="t" * 20)
    record = apps.get_model("games", "GameRecord").objects.create(
        board=board, text="x", digest="d" * 64)
    Result = apps.get_model("tournament", "Result")
    linked = Result.objects.create(board=board, version=1, kind="played", status="superseded",
                                   source="record", first_vp=1, second_vp=0, record=record)
    plain = Result.objects.create(board=board, version=2, kind="forfeit", status="accepted",
                                  source="arbiter", first_vp=1, second_vp=0, loser_seat="second")
    try:
        leaves = MigrationExecutor(connection).loader.graph.leaf_nodes()
        apps = _migrate(leaves)
        links = apps.get_model("games", "ResultRecord").objects
        assert list(links.values_list("result_id", "record_id")) == [(linked.pk, record.pk)]
        assert not links.filter(result_id=plain.pk).exists()
    finally:
        _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_events_that_exist_keep_adding_nothing_for_unplayed_rounds():
    """The rule for unplayed rounds in the colour tiebreaks (issue #36): an event created
    before the rule keeps the one its standings were computed by; a new one gets the rule."""
    before = [("tournament", "0016_withdrawals_and_no_shows_in_history")]
    apps = _migrate(before)
    apps.get_model("tournament", "Event").objects.create(slug="begun", name="Begun")
    try:
        leaves = MigrationExecutor(connection).loader.graph.leaf_nodes()
        apps = _migrate(leaves)
        Event = apps.get_model("tournament", "Event")
        assert Event.objects.get(slug="begun").unplayed_colours == "nothing"
        assert Event.objects.create(slug="new", name="New").unplayed_colours == "widest"
    finally:
        _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
