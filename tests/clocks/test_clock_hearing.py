"""What the server heard of a board's device bounds a late press's credit (issue #35): worked
examples, then properties over random traffic: the credit never exceeds the silence the server
observed before the press (from a message it heard, through no other message, to the press's
arrival, the allowance apart), a link heard at least every allowance gets the allowance, and
the same traffic gives the same bounds."""

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from clocks.core.hearing import ALLOWANCE_MS, Hearing, credit_bound


def test_a_link_heard_throughout_gets_the_allowance():
    hearing = Hearing.opened(0)
    for t in range(900, 30_000, 900):  # pings every 0.9 s
        hearing = hearing.heard(t)
        assert credit_bound(hearing.silent_from(t), t) == ALLOWANCE_MS


def test_presses_sent_together_after_an_outage_share_its_silence():
    hearing = Hearing.opened(0).heard(1_000)  # last ping at 1 s, then the Wi-Fi drops
    hearing = hearing.heard(41_000)  # the first queued press arrives at 41 s (same socket)
    assert hearing.silent_from(41_000) == 1_000
    hearing = hearing.heard(41_004)  # the second, 4 ms later
    assert hearing.silent_from(41_004) == 1_000
    hearing = hearing.heard(42_000).heard(42_500)  # a ping, then a live press
    assert credit_bound(hearing.silent_from(42_500), 42_500) == ALLOWANCE_MS


def test_a_new_socket_starts_from_the_devices_last_message_on_the_old_one():
    hearing = Hearing.opened(60_000, last_heard_ms=20_000).heard(60_010)
    assert credit_bound(hearing.silent_from(60_010), 60_010) == 40_010
    unknown = Hearing.opened(60_000).heard(60_010)  # the old socket's last message not known
    assert credit_bound(unknown.silent_from(60_010), 60_010) == ALLOWANCE_MS


traffic = st.lists(st.integers(0, 8_000), min_size=1, max_size=40)


@settings(deadline=None, max_examples=400)
@given(opened=st.integers(0, 10**6), before=st.none() | st.integers(0, 60_000), gaps=traffic)
def test_the_credit_never_exceeds_the_silence_observed(opened, before, gaps):
    last = None if before is None else opened - before
    hearing = Hearing.opened(opened, last_heard_ms=last)
    heard = [opened] if last is None else [last, opened]  # what the server heard, in order
    t = opened
    for gap in gaps:
        t += gap
        hearing = hearing.heard(t)
        start = hearing.silent_from(t)
        bound = credit_bound(start, t)
        assert bound >= ALLOWANCE_MS
        if bound > ALLOWANCE_MS:
            # the credit starts at a message the server heard, and the silence after it is
            # real: nothing heard for more than the allowance, and the message that ended it
            # came within the allowance of this arrival
            assert start in heard
            ended = min(h for h in [*heard, t] if h > start)
            assert ended - start > ALLOWANCE_MS and t - ended <= ALLOWANCE_MS
            assert bound <= (ended - start) + ALLOWANCE_MS
        heard.append(t)
    if all(b - a <= ALLOWANCE_MS for a, b in itertools.pairwise(heard)):
        assert credit_bound(hearing.silent_from(t), t) == ALLOWANCE_MS


@settings(deadline=None, max_examples=200)
@given(opened=st.integers(0, 10**6), gaps=traffic)
def test_the_same_traffic_gives_the_same_bounds(opened, gaps):
    def bounds():
        hearing, t, out = Hearing.opened(opened), opened, []
        for gap in gaps:
            t += gap
            hearing = hearing.heard(t)
            out.append(credit_bound(hearing.silent_from(t), t))
        return out

    assert bounds() == bounds()
