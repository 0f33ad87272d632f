"""What the server heard of a board's device bounds a late press's credit: worked examples,
then properties over random traffic checked against a batch reading of the same arrivals:

- a press is credited at most the allowance plus the silence beyond the page's heartbeat that
  the server observed before it, from a message heard at the device's pace;
- a link heard at the page's pace (every heartbeat) gets the allowance, whatever it sends;
- an honest device whose bytes were kept through an outage and delivered late (old socket,
  then a new socket with its queue) is credited its offline time within a quarter second.
"""

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from clocks.core.hearing import (
    ALLOWANCE_MS,
    HEARTBEAT_MS,
    Hearing,
    Silence,
    credit_bound,
)


def bound_after(hearing: Hearing) -> int:
    return credit_bound(hearing.silence())


def test_a_link_at_the_pages_pace_gets_the_allowance():
    hearing = Hearing.opened(0)
    for t in range(HEARTBEAT_MS, 60_000, HEARTBEAT_MS):  # a ping at every heartbeat
        hearing = hearing.heard(t)
        assert bound_after(hearing) == ALLOWANCE_MS
        assert bound_after(hearing.heard(t + 900)) == ALLOWANCE_MS  # a press 0.9 s later


def test_a_slower_pace_earns_the_gap_less_the_heartbeat():
    """The issue's door: pinging every 2 s and pressing 0.9 s after a ping was credited 2.9 s a
    press. Now a press gets the allowance and the 0.75 s the link was silent beyond the
    page's heartbeat, sent instead of a ping or after it."""
    hearing = Hearing.opened(0)
    for t in range(2_000, 40_000, 2_000):
        hearing = hearing.heard(t)
        assert bound_after(hearing) == ALLOWANCE_MS + 2_000 - HEARTBEAT_MS
        assert bound_after(hearing.heard(t + 900)) == ALLOWANCE_MS + 2_000 - HEARTBEAT_MS
        assert bound_after(hearing.heard(t + 1_100)) == ALLOWANCE_MS


def test_presses_sent_together_after_an_outage_share_its_silence():
    hearing = Hearing.opened(0).heard(1_000)  # last ping at 1 s, then the Wi-Fi drops
    hearing = hearing.heard(41_000)  # the first queued press arrives at 41 s (same socket)
    assert hearing.silence() == Silence(1_000, 41_000)
    hearing = hearing.heard(41_004)  # the second, 4 ms later
    assert hearing.silence() == Silence(1_000, 41_000)
    hearing = hearing.heard(41_900)  # a press at the end of the burst: no more than the first
    assert bound_after(hearing) == ALLOWANCE_MS + 40_000 - HEARTBEAT_MS
    hearing = hearing.heard(43_000).heard(43_500)  # back at its pace: a ping, a live press
    assert bound_after(hearing) == ALLOWANCE_MS


def test_late_bytes_on_the_old_socket_do_not_end_the_silence():
    """The page's ping written during the outage, kept by TCP and delivered as the network
    returns, is heard alone on the socket the page has dropped; the page's presses come on its
    new socket seconds later (its reconnection's backoff): still the same silence."""
    old = Hearing.opened(0).heard(1_250).heard(2_500)  # at its pace until 2.5 s
    old = old.heard(17_000)  # the late ping, at the network's return
    assert old.silence() == Silence(2_500, 17_000) and old.paced_ms == 2_500
    new = Hearing.opened(20_500, old.paced_ms)  # the new socket, 3.5 s later
    assert new.heard(20_530).silence() == Silence(2_500, 20_500)
    # the same on one socket: the burst heard alone, then more silence
    assert old.heard(25_000).silence() == Silence(2_500, 25_000)


def test_a_new_socket_starts_from_the_devices_last_message_at_its_pace():
    hearing = Hearing.opened(60_000, paced_ms=20_000).heard(60_010)
    assert bound_after(hearing) == ALLOWANCE_MS + 40_000 - HEARTBEAT_MS
    unknown = Hearing.opened(60_000).heard(60_010)  # the old socket's pace not known
    assert bound_after(unknown) == ALLOWANCE_MS
    reload = Hearing.opened(3_100, paced_ms=2_700).heard(3_200)  # a reload at the pace
    assert bound_after(reload) == ALLOWANCE_MS


def test_the_holders_silence_starts_when_it_took_the_clock():
    silence = Silence(1_000, 191_000)  # a phone that watched for 190 s, then took over
    assert silence.since(190_900).bound() == ALLOWANCE_MS  # and pressed at once
    assert silence.since(191_000) is None
    assert silence.since(None) == silence and silence.since(500) == silence
    assert silence.since(100_000) == Silence(100_000, 191_000)


# --- properties ---------------------------------------------------------------------------

#: the board page drops a socket silent for this long, and opens a new one (static/js/clock.js)
PAGE_DROPS_MS = 2_750

#: the traffic of one device: gaps between its messages, some on a new socket
traffic = st.lists(st.tuples(st.integers(0, 8_000), st.booleans()), min_size=1, max_size=40)


def replay(start: int, known: int | None, gaps: list[tuple[int, bool]]):
    hearing = Hearing.opened(start, known)
    arrivals, t = [(start, True)], start
    for gap, opening in gaps:
        t += gap
        hearing = Hearing.opened(t, hearing.paced_ms) if opening else hearing.heard(t)
        arrivals.append((t, opening))
        yield hearing, arrivals


@settings(deadline=None, max_examples=400)
@given(start=st.integers(0, 10**6), before=st.none() | st.integers(0, 60_000), gaps=traffic)
def test_the_credit_never_exceeds_the_silence_observed(start, before, gaps):
    """Credit beyond the allowance needs a silence the server observed: it starts at a message
    it heard (or the device's pace before its socket opened), nothing came for more than the
    heartbeat after it, and it ends at a message or an opening no later than the press; the
    credit is at most that gap less the heartbeat, plus the allowance."""
    known = None if before is None else start - before
    for hearing, arrivals in replay(start, known, gaps):
        bound = bound_after(hearing)
        assert bound >= ALLOWANCE_MS
        if bound == ALLOWANCE_MS:
            continue
        silence = hearing.silence()
        heard = ([] if known is None else [known]) + [t for t, _opening in arrivals]
        assert silence.from_ms in heard and silence.to_ms in heard
        after = min(t for t in heard if t > silence.from_ms)
        assert after - silence.from_ms > HEARTBEAT_MS
        assert silence.to_ms <= arrivals[-1][0]
        assert bound == ALLOWANCE_MS + silence.to_ms - silence.from_ms - HEARTBEAT_MS


@settings(deadline=None, max_examples=300)
@given(start=st.integers(0, 10**6), pings=st.lists(st.integers(0, HEARTBEAT_MS), min_size=1,
                                                   max_size=40),
       presses=st.lists(st.integers(0, HEARTBEAT_MS), max_size=40))
def test_a_link_heard_at_the_pages_pace_never_earns_more_than_the_allowance(start, pings,
                                                                          presses):
    hearing, t = Hearing.opened(start), start
    for gap, press in itertools.zip_longest(pings, presses):
        t += gap or 0
        hearing = hearing.heard(t)
        assert bound_after(hearing) == ALLOWANCE_MS
        if press is not None and press < (gap or 0):  # a press between two pings
            assert bound_after(hearing.heard(t - (gap or 0) + press)) == ALLOWANCE_MS


@settings(deadline=None, max_examples=300)
@given(start=st.integers(0, 10**6), paced=st.integers(1, 30),
       cut_after=st.integers(0, HEARTBEAT_MS), pressed_after=st.integers(0, 60_000),
       outage=st.integers(PAGE_DROPS_MS + 1, 300_000), reopen_after=st.integers(0, 5_000),
       late_bytes=st.booleans())
def test_an_honest_outage_is_credited_within_a_quarter_second(
        start, paced, cut_after, pressed_after, outage, reopen_after, late_bytes):
    """A page at its pace, cut off ``cut_after`` ms after its last message was heard; it
    presses during the outage, and drops its socket (the page opens a new one only after
    ``PAGE_DROPS_MS`` without a message); the network returns, TCP delivers the old socket's
    kept ping (or not), and the page's new socket opens and sends the press at once."""
    hearing, t = Hearing.opened(start), start
    for _ping in range(paced):
        t += HEARTBEAT_MS
        hearing = hearing.heard(t)
    cut = t + cut_after
    pressed = cut + min(pressed_after, outage)
    back = max(cut + outage, pressed)
    if late_bytes:
        hearing = hearing.heard(back)
    opened = back + reopen_after
    hearing = Hearing.opened(opened, hearing.paced_ms).heard(opened)
    claimed = opened - pressed
    assert bound_after(hearing) >= claimed - (HEARTBEAT_MS - ALLOWANCE_MS)


@settings(deadline=None, max_examples=200)
@given(start=st.integers(0, 10**6), gaps=traffic)
def test_the_same_traffic_gives_the_same_bounds(start, gaps):
    def bounds():
        return [bound_after(h) for h, _a in replay(start, None, gaps)]

    assert bounds() == bounds()
