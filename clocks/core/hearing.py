"""What the server heard of a board's device: the silence a late press may be credited for.

The board page keeps time through a Wi-Fi outage and sends its presses when the link comes
back, each with the time its device measured (``clocks.core.reconcile``). A device may claim
anything, so the server credits a press only for time it observed itself as silence on that
device's link: the time from the last message it heard from the device before the silence (a
ping, a press, anything) to the press's arrival. A press on a link heard throughout gets at
most ``ALLOWANCE_MS``, the transport allowance (lichess bounds its lag credit the same way).

A silence is a gap of more than ``ALLOWANCE_MS`` between two messages heard, or between the
device's last message on an earlier socket and the opening of a new one. The presses a page
kept through an outage arrive together right after the silence ends (the page sends them as
soon as its socket opens, or TCP delivers them when the Wi-Fi returns): each message heard
within ``ALLOWANCE_MS`` of a silence's end may be credited from its start; any later one
followed messages heard throughout, and gets the allowance.

>>> hearing = Hearing.opened(10_000, last_heard_ms=2_000)   # back after 8 s of silence
>>> hearing = hearing.heard(10_005)                        # its queued press
>>> hearing.silent_from(10_005), credit_bound(hearing.silent_from(10_005), 10_005)
(2000, 8005)
>>> hearing = hearing.heard(10_900).heard(11_500)          # pings; a press, heard throughout
>>> credit_bound(hearing.silent_from(11_500), 11_500)
1000
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ALLOWANCE_MS", "Hearing", "credit_bound"]

#: The credit a press gets on a link heard throughout, and the longest gap between two
#: messages that is not yet a silence: network transport, not an outage. The board page
#: pings after 1.25 s without a message, so a live link's gaps are about a second.
ALLOWANCE_MS = 1_000


@dataclass(frozen=True, slots=True)
class Hearing:
    """One socket's record of the device it serves: the last message heard, and the latest
    silence observed (``quiet_from_ms`` to ``quiet_to_ms``; empty when they are equal)."""

    last_ms: int
    quiet_from_ms: int
    quiet_to_ms: int

    @classmethod
    def opened(cls, now_ms: int, last_heard_ms: int | None = None) -> Hearing:
        """A socket opened at ``now_ms`` by a device last heard at ``last_heard_ms`` on an
        earlier socket (None: never, or not known: no silence observed)."""
        if last_heard_ms is None or now_ms - last_heard_ms <= ALLOWANCE_MS:
            return cls(now_ms, now_ms, now_ms)
        return cls(now_ms, last_heard_ms, now_ms)

    def heard(self, now_ms: int) -> Hearing:
        """A message arrived at ``now_ms``: it ends a silence if the gap before it was one."""
        now = max(now_ms, self.last_ms)
        if now - self.last_ms > ALLOWANCE_MS:
            return Hearing(now, self.last_ms, now)
        return Hearing(now, self.quiet_from_ms, self.quiet_to_ms)

    def silent_from(self, arrival_ms: int) -> int:
        """Where the silence a message heard at ``arrival_ms`` (noted with ``heard``) may be
        credited from: the start of the silence it ended, or of the one it followed within the
        allowance (presses queued through one outage, sent together); else its arrival."""
        if arrival_ms - self.quiet_to_ms <= ALLOWANCE_MS:
            return self.quiet_from_ms
        return arrival_ms


def credit_bound(silent_from_ms: int | None, arrival_ms: int) -> int:
    """The most a press arriving at ``arrival_ms`` may be dated before its arrival: the silence
    observed since ``silent_from_ms`` (``Hearing.silent_from``), at least the transport
    allowance. None: nothing was observed, and the press gets the allowance."""
    if silent_from_ms is None:
        return ALLOWANCE_MS
    return max(ALLOWANCE_MS, arrival_ms - silent_from_ms)
