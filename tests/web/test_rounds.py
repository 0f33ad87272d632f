"""Round life cycle through the services: pair, publish, results, close, re-pair, edits."""

import io
import re

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tournament import services
from tournament.bridges import standings_bridge
from tournament.models import Event, Result
from tournament.printing.data import cell_text

pytestmark = pytest.mark.django_db

SCORES = ({"R": 9, "G": 12, "B": 10, "O": 11, "Y": 13, "P": 14},
          {"R": 8, "G": 18, "B": 18, "O": 18, "Y": 18, "P": 18})


def finish(round_):
    for board, result in services.boards_with_results(round_):
        if result is None:
            services.record_result(board, "played", first_scores=SCORES[0],
                                   second_scores=SCORES[1])


def test_round_k_plus_one_cannot_be_paired_while_round_k_has_missing_results(event):
    round1 = services.pair_next_round(event)
    with pytest.raises(services.ServiceError, match="Publish round 1"):
        services.pair_next_round(event)
    services.publish_round(round1)
    with pytest.raises(services.ServiceError, match="without a result"):
        services.pair_next_round(event)
    finish(round1)
    round2 = services.pair_next_round(event)
    round1.refresh_from_db()
    assert round2.number == 2 and round1.status == "closed"


def test_an_open_dispute_holds_the_next_pairing_until_resolved_or_overridden(event, arbiter):
    round1 = services.pair_next_round(event)
    services.publish_round(round1)
    finish(round1)
    disputed = round1.boards.exclude(second=None).order_by("number").last()
    services.record_result(disputed, "played", first_scores=SCORES[1], second_scores=SCORES[0])
    assert services.next_action(event)[0] == "conflicts"
    with pytest.raises(services.ServiceError, match=rf"open dispute \(board {disputed.number}\)"):
        services.pair_next_round(event)
    with pytest.raises(services.ServiceError, match="open disputes"):
        services.close_round(round1)
    with pytest.raises(services.ServiceError, match="open dispute"):
        services.pair_next_round(event, over_disputes="   ")
    round2 = services.pair_next_round(event, over_disputes="players at lunch", user=arbiter)
    round1.refresh_from_db()
    assert round2.number == 2 and round1.status == "closed"
    entry = event.history.get(action="paired_over_disputes")
    assert (entry.reason, entry.details) == ("players at lunch", {
        "round": 2, "previous": 1, "boards": [disputed.number]})
    assert "while round 1 had open disputes" in entry.summary


def test_the_round_page_shows_pairing_numbers_and_vp_before_the_round(arbiter_client, event):
    """#23: the draw can be checked before publishing: who plays whom by pairing number and
    score, as the pairing program saw them."""
    round1 = services.pair_next_round(event)
    services.publish_round(round1)
    finish(round1)
    round2 = services.pair_next_round(event)
    page = arbiter_client.get(reverse("arbiter_round", args=[event.slug, 2])).content.decode()
    for board in round2.boards.exclude(second=None).select_related("first", "second"):
        for player in (board.first, board.second):
            assert (f'<td class="num muted">{player.seed}</td>'
                    f'<td class="wrap">{player.name}</td>') in page
    assert re.search(r'<td class="num">(1|0|½)</td>', page)


def test_a_later_correction_does_not_change_what_the_round_was_paired_on(
        arbiter_client, client, event):
    """#36, item 14: after a correction of round 1, round 2's pages and print show the VP the
    round was paired on; the arbiter's round page also says what the standings count now."""
    round1 = services.pair_next_round(event)
    services.publish_round(round1)
    finish(round1)
    round2 = services.pair_next_round(event)
    services.publish_round(round2)
    board = round1.boards.exclude(second=None).select_related("first", "second").first()
    winner, loser = board.first, board.second  # SCORES[0] beat SCORES[1]
    services.record_result(board, "played", first_scores=SCORES[1], second_scores=SCORES[0],
                           correction=True, reason="scores swapped on the slip")
    assert round2.__class__.objects.get(pk=round2.pk).paired_on[str(winner.seed)] == "1"
    page = arbiter_client.get(reverse("arbiter_round", args=[event.slug, 2])).content.decode()
    assert "as the round was paired on" in page and "to check the draw" not in page
    assert re.search(r'<td class="num">1 <span class="vp-now" title="[^"]+">now 0</span>', page)
    assert re.search(r'<td class="num">0 <span class="vp-now" title="[^"]+">now 1</span>', page)
    assert page.count('class="vp-now"') == 2
    public = client.get(reverse("event_pairings", args=[event.slug])).content.decode()
    assert "vp-now" not in public
    pdf = arbiter_client.get(reverse("print_document", args=[event.slug, "pairings"]),
                             {"round": 2}).content
    text = re.sub(r"\s+", " ", " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages))
    row = re.search(rf"{winner.seed} {re.escape(winner.name)} (\S+)", text)
    assert row and row.group(1) == "1", text
    assert loser.name in text


def test_swiss_round_one_pairs_every_player_once(event):
    round_ = services.pair_next_round(event)
    seen = [p for b in round_.boards.all() for p in (b.first_id, b.second_id)]
    assert sorted(seen) == sorted(event.players.values_list("pk", flat=True))
    assert services.pairing_review(round_)[0] == []


def test_repairing_is_allowed_only_without_results(event):
    round_ = services.pair_next_round(event)
    with pytest.raises(services.ServiceError, match="reason"):
        services.repair_round(round_, reason="")
    services.repair_round(round_, reason="wrong player list")
    assert "wrong player list" in round_.__class__.objects.get(pk=round_.pk).pairing_note
    services.publish_round(round_)
    board = round_.boards.first()
    services.record_result(board, "played", first_scores=SCORES[0], second_scores=SCORES[1])
    with pytest.raises(services.ServiceError, match="already has results"):
        services.repair_round(round_, reason="again")


def test_a_hand_edit_is_recorded_and_the_validator_warns(event):
    round1 = services.pair_next_round(event)
    services.publish_round(round1)
    finish(round1)
    round2 = services.pair_next_round(event)
    old = round1.boards.first()
    board = services.edit_pairing(round2, first_id=old.first_id, second_id=old.second_id,
                                  board_number=1, reason="arbiter's choice")
    assert board.manual_reason == "arbiter's choice"
    warnings = services.pairing_review(round2)[0]
    assert any("must not meet again" in w for w in warnings)
    assert any("is neither paired nor given the bye" in w for w in warnings)


def test_withdrawn_players_are_not_paired_again_and_late_entries_join(event):
    round1 = services.pair_next_round(event)
    services.publish_round(round1)
    finish(round1)
    gone = event.players.get(name="Ada")
    services.withdraw_player(gone, reason="ill")
    late = services.add_player(event, name="Zed")
    assert late.joined_round == 2
    round2 = services.pair_next_round(event)
    paired = {p for b in round2.boards.all() for p in (b.first_id, b.second_id) if p}
    assert gone.pk not in paired and late.pk in paired
    # The late entry's missed round reads "abs 0" in the crosstable, as its legend says
    # (#36, item 14), not an empty cell.
    _table, rows = standings_bridge.crosstable(event, 1)
    row = next(r for r in rows if r.player_id == late.pk)
    assert cell_text(row.cells[0]) == "abs 0"


def test_a_withdrawal_is_undone_until_a_round_is_played_without_the_player(
        arbiter_client, event):
    """#36, item 12: Withdraw has an undo on the players page. Undone before the next round is
    paired, the player is simply back; undone while that round is a draft, the draft is paired
    again with them; once a round was played without them, the withdrawal stands."""
    round1 = services.pair_next_round(event)
    services.publish_round(round1)
    finish(round1)
    ada = event.players.get(name="Ada")
    services.withdraw_player(ada, reason="wrong row clicked")
    page = arbiter_client.get(reverse("arbiter_players", args=[event.slug])).content.decode()
    assert "Undo the withdrawal of Ada" in page
    assert arbiter_client.post(reverse("arbiter_player_reinstate",
                                       args=[event.slug, ada.pk])).status_code == 302
    ada.refresh_from_db()
    assert ada.withdrawn_after_round is None and ada.withdrawal_reason == ""
    assert "Ada's withdrawal after round 1 undone." in [
        h.summary for h in event.history.filter(action="player_reinstated")]

    # Withdrawn while round 2 is a draft (paired again without her), then undone: the draft
    # is paired again with her.
    round2 = services.pair_next_round(event)
    services.withdraw_player(ada, reason="ill")
    assert not round2.boards.filter(first=ada).exists() | round2.boards.filter(
        second=ada).exists()
    done = services.reinstate_player(ada)
    assert done.draft == round2 and done.repaired
    assert round2.boards.filter(first=ada).exists() or round2.boards.filter(second=ada).exists()
    assert services.pairing_review(round2)[0] == []

    # Withdrawn, then round 2 played without her: no undo any more.
    services.withdraw_player(ada, reason="left for good")
    services.publish_round(round2)
    page = arbiter_client.get(reverse("arbiter_players", args=[event.slug])).content.decode()
    assert "Undo the withdrawal of Ada" not in page
    with pytest.raises(services.ServiceError, match="played without Ada"):
        services.reinstate_player(ada)
    response = arbiter_client.post(reverse("arbiter_player_reinstate", args=[event.slug, ada.pk]),
                                   follow=True)
    assert "played without Ada" in response.content.decode()
    with pytest.raises(services.ServiceError, match="has not withdrawn"):
        services.reinstate_player(event.players.get(name="Ben"))


def test_the_players_page_is_one_line_per_player_with_the_actions_one_step_away(
        arbiter_client, event):
    """#36, item 12: number, name, country, club, rating, status, and "Actions" folding the
    absence, invitation and withdrawal forms, the withdrawal last."""
    services.update_player(event.players.get(name="Ada"), name="Ada", country="POL")
    page = arbiter_client.get(reverse("arbiter_players", args=[event.slug])).content.decode()
    assert "<td>POL</td>" in page
    rows = re.findall(r"<tr class=\"[^\"]*\">.*?</tr>", page, re.S)
    assert len(rows) == 12
    for row in rows:
        actions = row.split('<details class="row-actions">', 1)
        assert len(actions) == 2, row
        assert "Withdraw" not in actions[0] and "Record absence" not in actions[0]
        assert actions[1].index("Record absence") < actions[1].index(">Withdraw<")


def test_a_requested_absence_scores_the_absence_vp_and_is_not_paired(event):
    round1 = services.pair_next_round(event)
    services.publish_round(round1)
    finish(round1)
    away = event.players.get(name="Ben")
    services.set_absence(away, 2, vp="0.5", reason="family")
    round2 = services.pair_next_round(event)
    paired = {p for b in round2.boards.all() for p in (b.first_id, b.second_id) if p}
    assert away.pk not in paired
    services.publish_round(round2)
    finish(round2)
    from tournament.bridges import standings_bridge

    table = standings_bridge.standings(event, 2)
    row = table.row(away.pk)
    played_vp = Result.objects.get(board__round=round1, status="accepted",
                                   board__in=away.boards_first.all() | away.boards_second.all())
    own = played_vp.first_vp if played_vp.board.first_id == away.pk else played_vp.second_vp
    assert row.vp == own + type(own)("0.5")


def test_round_robin_of_nine_gives_everyone_one_bye_and_forfeits_a_withdrawn_player(arbiter):
    event = services.create_event(name="RR", arbiter=arbiter, rounds_planned=9,
                                  pairing_system=Event.PairingSystem.ROUND_ROBIN)
    for n in range(9):
        services.add_player(event, name=f"P{n}")
    byes = []
    for number in range(1, 10):
        round_ = services.pair_next_round(event)
        services.publish_round(round_)
        byes += [b.first_id for b in round_.boards.filter(second__isnull=True)]
        if number == 3:
            services.withdraw_player(event.players.get(name="P0"), reason="left")
        finish(round_)
    assert sorted(byes) == sorted(event.players.values_list("pk", flat=True))
    forfeits = Result.objects.filter(board__round__event=event, kind="forfeit",
                                     source="pairing")
    assert forfeits.exists()
    assert all((r.board.first.name == "P0" and r.loser_seat == "first")
               or (r.board.second.name == "P0" and r.loser_seat == "second") for r in forfeits)
    with pytest.raises(services.ServiceError, match="planned rounds"):
        services.pair_next_round(event)


def test_round_robin_refuses_late_entries(arbiter):
    event = services.create_event(name="RR2", arbiter=arbiter, rounds_planned=3,
                                  pairing_system=Event.PairingSystem.ROUND_ROBIN)
    for n in range(4):
        services.add_player(event, name=f"P{n}")
    round_ = services.pair_next_round(event)
    services.publish_round(round_)
    finish(round_)
    with pytest.raises(services.ServiceError, match="late entries"):
        services.add_player(event, name="Late")
    assert not event.players.filter(name="Late").exists()


def test_a_small_swiss_that_runs_out_of_pairings_says_so(arbiter):
    event = services.create_event(name="Tiny", arbiter=arbiter, rounds_planned=5,
                                  pairing_system=Event.PairingSystem.SWISS)
    for n in range(4):
        services.add_player(event, name=f"P{n}")
    with pytest.raises(services.ServiceError, match="by hand"):
        for _ in range(5):
            round_ = services.pair_next_round(event)
            services.publish_round(round_)
            finish(round_)
    manual = services.start_manual_round(event, reason="no legal pairing left")
    assert manual.boards.count() == 0 and "by hand" in manual.pairing_note


def test_players_import_all_or_nothing(event):
    with pytest.raises(services.ServiceError, match="Line 3"):
        services.import_players(event, "name,club,rating\nNew One,X,1500\nBad,Y,strong\n")
    assert not event.players.filter(name="New One").exists()
    added = services.import_players(event, "name,club,rating\nNew One,X,1500\nNew Two,,\n")
    assert [p.name for p in added] == ["New One", "New Two"]
    with pytest.raises(services.ServiceError, match="already"):
        services.add_player(event, name="new one")


def test_pairing_by_hand_from_the_dashboard(arbiter_client, event):

    url = reverse("arbiter_round_pair", args=[event.slug])
    response = arbiter_client.post(url, {"manual": "1", "reason": "club tradition"})
    assert response.status_code == 302
    round_ = event.rounds.get(number=1)
    assert round_.boards.count() == 0
    players = list(event.players.all())
    edit = reverse("arbiter_round_action", args=[event.slug, 1, "edit"])
    arbiter_client.post(edit, {"board": 1, "first": players[0].pk, "second": players[1].pk,
                               "reason": "by hand"})
    page = arbiter_client.get(reverse("arbiter_round", args=[event.slug, 1]))
    assert page.status_code == 200 and b"is neither paired nor given the bye" in page.content
    russian = arbiter_client.get(reverse("arbiter_round", args=[event.slug, 1]),
                                 HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "не стоит ни в паре, ни на бае" in russian
    assert "missing:" not in russian and "is neither paired" not in russian
    schedule = reverse("arbiter_round_action", args=[event.slug, 1, "schedule"])
    arbiter_client.post(schedule, {"starts_at": "2026-12-01T14:30"})
    round_.refresh_from_db()
    assert round_.starts_at is not None and round_.starts_at.hour in (14, 13, 15)


@pytest.mark.parametrize(("round_number", "vp", "message"),
                         [(1, "1", "0 or ½"), (1, "lots", "0 or ½"), (99, None, "rounds 1 to")])
def test_a_bad_absence_is_refused(event, round_number, vp, message):
    with pytest.raises(services.ServiceError, match=message):
        services.set_absence(event.players.first(), round_number, vp=vp)


@pytest.mark.parametrize(("rounds", "warned"), [(3, True), (7, False), (9, False), (12, True)])
def test_a_swiss_outside_the_mso_rounds_is_kept_with_a_warning(arbiter_client, event, rounds,
                                                               warned):
    """#23: the rules say 7–9 rounds; another count is saved (events may need it) and the
    settings page and the dashboard say so, before and after round 1."""
    url = reverse("arbiter_settings", args=[event.slug])
    form = {"name": event.name, "pairing_system": "swiss", "rounds_planned": rounds,
            "pairing_order": event.pairing_order, "rules_profile": event.rules_profile,
            "time_control": event.time_control, "bye_vp": "1", "absence_vp": "0",
            "late_entry_vp": "0", "clock_compensation_s": 180,
            "first_mover": event.first_mover, "token_grace_minutes": event.token_grace_minutes,
            "print_language": event.print_language}
    saved = arbiter_client.post(url, form, follow=True).content.decode()
    event.refresh_from_db()
    assert event.rounds_planned == rounds
    said = f"7 to 9 rounds; this event has {rounds}"
    assert (said in saved) is warned
    services.pair_next_round(event)
    dashboard = arbiter_client.get(reverse("arbiter_dashboard", args=[event.slug]))
    assert (said in dashboard.content.decode()) is warned


def test_a_reason_for_another_number_of_rounds_is_kept_shown_and_logged(arbiter_client, event):
    """#23 item 15: the choice is kept with a reason; the warning gives way to the reason, on
    the settings page and the dashboard, and the reason goes to the history."""
    url = reverse("arbiter_settings", args=[event.slug])
    form = {"name": event.name, "pairing_system": "swiss", "rounds_planned": 5,
            "rounds_note": "  a one-day qualifier  ",
            "pairing_order": event.pairing_order, "rules_profile": event.rules_profile,
            "time_control": event.time_control, "bye_vp": "1", "absence_vp": "0",
            "late_entry_vp": "0", "clock_compensation_s": 180,
            "first_mover": event.first_mover, "token_grace_minutes": event.token_grace_minutes,
            "print_language": event.print_language}
    saved = arbiter_client.post(url, form, follow=True).content.decode()
    event.refresh_from_db()
    assert event.rounds_note == "a one-day qualifier"
    kept = "5 Swiss rounds (the MSO rules play 7 to 9), kept because: a one-day qualifier"
    for page in (saved, arbiter_client.get(reverse("arbiter_dashboard",
                                                   args=[event.slug])).content.decode()):
        assert kept in page and "this event has 5" not in page
    entry = event.history.get(action="rounds_noted")
    assert entry.reason == "a one-day qualifier" and "5 Swiss rounds kept" in entry.summary
    arbiter_client.post(url, form)  # saved again unchanged: no second entry
    assert event.history.filter(action="rounds_noted").count() == 1
    # back to 7 rounds: nothing to explain, the note is not shown
    arbiter_client.post(url, {**form, "rounds_planned": 7})
    assert kept not in arbiter_client.get(reverse("arbiter_dashboard",
                                                  args=[event.slug])).content.decode()
