"""The TRF round trip: messy Swiss events played through the services
(``tests.messy_swiss``: absences at 0 and ½, late entries at ½, withdrawals, forfeits, double
forfeits, ½–0, 0–½ and 1–1 decisions, a bye worth a full point before byes became worth ½;
``bench/scripts/audit_pairing.py`` plays eleven larger ones). Before each round the TRF the
arbiter downloads is given to bbpPairings as it is, and the round the product then pairs must
be the very draw bbpPairings made from it: the same boards in the same order, the same first
moves, the same bye. bbpPairings is the program ``make setup`` builds from
``vendor/bbpPairings``, the FIDE (Dutch) System as amended in 2025.
"""

from __future__ import annotations

import random
from decimal import Decimal

import pytest

from tests import messy_swiss
from tests.bbpairings import bbpairings
from tournament import services
from tournament.bridges import pairing_bridge, pairing_check
from tournament.models import Event, HistoryEntry
from tournament.pairing import engine_for, import_trf

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("seed", "players", "rounds"), [(1, 13, 7), (2, 23, 9)])
def test_the_downloaded_trf_pairs_the_next_round_in_bbpairings_as_the_product_did(
        seed, players, rounds):
    files = []
    for paired in messy_swiss.play(f"Round trip {seed}", seed, players, rounds, bbpairings(),
                                   bye_change=seed == 2):
        assert paired.stored == paired.engines, (paired.number, paired.trf)
        assert paired.round.paired_by == "bbpairings:2025"
        files.append(paired.trf)
    assert len(files) == rounds
    assert any("0000 - H" in text for text in files)  # absences and late entries at ½
    assert any(" - Z" in text and "XXZ" in text for text in files) or seed == 1
    assert any("XXA" in text for text in files) == (seed == 2)


def test_record_explains_a_bye_raised_mid_event_is_refused_and_an_older_one_is_said():
    """A pairing bye given at ½ before byes became worth 1 counts ½ in the standings: the
    correction is negative and bbpPairings cannot read it. Raising the bye's value once a
    bye was given is refused with the reason (the pairing never changes rules in silence);
    an event that reached that state before the rule (a backup, an older server) is paired on
    the true points by the 2017 edition, and the round says so."""
    rng = random.Random(5)
    event = services.create_event(name="Bye raised", pairing_system="swiss", rounds_planned=5,
                                  bye_vp="0.5")
    for index in range(9):
        services.add_player(event, name=f"Player {index + 1}")
    round_ = services.pair_next_round(event)
    assert round_.paired_by == "bbpairings:2025"
    services.publish_round(round_)
    messy_swiss.results(round_, rng)
    refusal = r"A pairing bye was given at ½ VP in round 1: raised to 1, .*\(bbpPairings\) cannot"
    with pytest.raises(services.ServiceError, match=refusal):
        services.update_event(event, {"bye_vp": Decimal("1")})
    with pytest.raises(services.ServiceError, match="fixed once round 1 is paired"):
        services.update_event(event, {"pairing_edition": "2017"})
    Event.objects.filter(pk=event.pk).update(bye_vp=Decimal("1"))  # as an older server let it
    event.refresh_from_db()
    second = services.pair_next_round(event)
    assert second.paired_by == "dutch:2017:unreadable"
    assert "bbpPairings cannot read it" in pairing_bridge.paired_by_text(second.paired_by)
    # the change of rules is in the history and on the dashboard, and the TRF names the
    # rules that paired the round: py4swiss given the file pairs it as the server did
    said = event.history.get(action=HistoryEntry.Action.PAIRING_RULES)
    assert said.summary == ("Round 2 paired by the FIDE (Dutch) System 2017, not the event's "
                            "2025: bbpPairings cannot read the event as the standings count "
                            "it (a score below what its results' codes give).")
    assert "2017" in pairing_bridge.other_rules_text(second.paired_by)
    text = pairing_bridge.export_trf(event)
    assert {"192 FIDE_DUTCH_2017", "092 Swiss, FIDE_DUTCH_2017"} <= set(text.splitlines())
    assert any(line.startswith("XXA") and "-0.5" in line for line in text.splitlines())
    edition = import_trf(text).settings.edition
    assert edition == "2017"
    theirs = engine_for(edition).pair(text)
    ours = pairing_bridge.round_pairing(second)
    assert theirs == [*((b.first, b.second) for b in ours.boards), (ours.bye, 0)]
    check = pairing_check.check_round(second)
    assert check.identical and "FIDE (Dutch) System 2017" in check.engine
    services.repair_round(second, reason="the same rules again")  # nothing new to say
    assert event.history.filter(action=HistoryEntry.Action.PAIRING_RULES).count() == 1
