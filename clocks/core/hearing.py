"""What the server heard of a board's device: the silence a late press may be credited for.

The board page keeps time through a Wi-Fi outage and sends its presses when the link comes
back, each with the time its device measured (``clocks.core.reconcile``). A device may claim
anything, so the server credits a press only for time it observed itself as silence on that
device's link, beyond the page's own pace:

- **The page's pace.** The board page of the device keeping the clock pings after
  ``HEARTBEAT_MS`` without a message from the server (static/js/clock.js, ``PACES.keeper``), and
  the server answers at once: on a live link the server hears the device at least every
  heartbeat, plus the network's transport. So the first heartbeat of any gap is no evidence of
  an outage, and a press is credited ``ALLOWANCE_MS`` (the transport) plus the gap before it
  less the heartbeat (``Silence.bound``): a device pinging at the page's pace gains the
  allowance and no more, however much it claims; an honest outage loses at most the heartbeat
  less the allowance (a quarter of a second).
- **A silence and its burst.** A gap of more than ``SILENCE_MS`` (the heartbeat plus the
  allowance) is a silence. What the page wrote during it arrives together when the network
  returns: the bytes TCP kept on the old socket (late pings, late presses), then the presses
  the page queued and sends as its new socket opens. None of that crossed a live link, so every
  message heard within ``BURST_MS`` of the silence's end (the first message after it, or a
  socket's opening) is credited for the silence as it stood when it ended; and the silence
  itself ends only where the device is heard at its own pace again: a burst followed by more
  silence (late bytes on a socket the page had already dropped) continues the silence from
  where it began.
- **A new socket.** A device's new socket starts a burst at its opening, from the device's last
  message heard at its pace on its older sockets (``Hearing.paced_ms``; None when it is not
  known: no silence is credited).

The credit of a press made by a device that took the clock over counts only from the moment it
did (``Silence.since``): time spent watching is not the holder's silence.

>>> hearing = Hearing.opened(0).heard(1_250).heard(2_400)    # pings at the page's pace
>>> credit_bound(hearing.heard(3_600).silence())             # a press instead of a ping
1000
>>> late = hearing.heard(12_000)                             # back after 9.6 s: a late ping
>>> late.silence(), late.heard(12_004).silence().bound()     # and a press in its burst
(Silence(from_ms=2400, to_ms=12000), 9350)
>>> reopened = Hearing.opened(14_500, late.paced_ms)         # the page's new socket
>>> reopened.heard(14_530).silence()                         # its queued press
Silence(from_ms=2400, to_ms=14500)
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ALLOWANCE_MS", "BURST_MS", "HEARTBEAT_MS", "SILENCE_MS", "Hearing", "Silence",
           "credit_bound"]

#: The board page's heartbeat: a ping after this long without a message from the server, on
#: the device keeping the clock (static/js/clock.js, ``PACES.keeper``).
HEARTBEAT_MS = 1_250
#: The network's transport: the credit a press gets on a link heard at the page's pace (as
#: lichess bounds its lag credit).
ALLOWANCE_MS = 1_000
#: A gap longer than the heartbeat and the transport together is a silence: the page would
#: have been heard within it, had its link been up.
SILENCE_MS = HEARTBEAT_MS + ALLOWANCE_MS
#: The messages that end a silence arrive together (TCP's kept bytes back to back, a queue sent
#: as a socket opens, within the round trip): those heard within this of its end belong to it.
BURST_MS = 1_000


@dataclass(frozen=True, slots=True)
class Silence:
    """What the server observed before a press: nothing at the device's pace from ``from_ms``
    (its last message at its pace) to ``to_ms`` (the end of the gap: the message or the socket
    opening that ended it)."""

    from_ms: int
    to_ms: int

    def bound(self) -> int:
        """The most a press heard in this silence's burst may be dated before its arrival: the
        transport allowance, plus the gap beyond the page's heartbeat."""
        return ALLOWANCE_MS + max(0, self.to_ms - self.from_ms - HEARTBEAT_MS)

    def since(self, start_ms: int | None) -> Silence | None:
        """The part of the silence after ``start_ms`` (the device took the clock then: what it
        did not hear before is not the holder's silence); None when nothing is left."""
        if start_ms is None or start_ms <= self.from_ms:
            return self
        if start_ms >= self.to_ms:
            return None
        return Silence(start_ms, self.to_ms)


def credit_bound(silence: Silence | None) -> int:
    """The most a press may be dated before its arrival (``Hearing.silence``; None: no silence
    observed, the transport allowance)."""
    return ALLOWANCE_MS if silence is None else silence.bound()


@dataclass(frozen=True, slots=True)
class Hearing:
    """One device's record as its socket hears it: the last message (``last_ms``), the latest
    silence (``from_ms`` to ``to_ms``; empty when they are equal) and whether the device has
    been heard at its pace since (``back``: a message after that silence's burst, within
    ``SILENCE_MS`` of the one before)."""

    last_ms: int
    from_ms: int
    to_ms: int
    back: bool

    @classmethod
    def opened(cls, now_ms: int, paced_ms: int | None = None) -> Hearing:
        """A socket opened at ``now_ms`` by a device last heard at its pace at ``paced_ms`` on
        an older socket (None: never, or not known: no silence is credited). After more than a
        heartbeat, the opening is the end of the silence since then, and what the page sends
        first is its burst; sooner (a reload), the device is at its pace."""
        if paced_ms is None or now_ms - paced_ms <= HEARTBEAT_MS:
            return cls(now_ms, now_ms, now_ms, True)
        return cls(now_ms, paced_ms, now_ms, False)

    @property
    def paced_ms(self) -> int:
        """The device's last message heard at its pace: where a silence now would begin."""
        return self.last_ms if self.back else self.from_ms

    def heard(self, now_ms: int) -> Hearing:
        """A message arrived at ``now_ms``."""
        now = max(now_ms, self.last_ms)
        if now - self.to_ms <= BURST_MS:  # in the burst that ended the latest silence
            return Hearing(now, self.from_ms, self.to_ms, self.back)
        gap = now - self.last_ms
        if gap > SILENCE_MS:  # a silence ends here; after a burst heard alone, the same goes on
            return Hearing(now, self.paced_ms, now, False)
        if gap > HEARTBEAT_MS:  # slower than the page's pace, within the transport
            return Hearing(now, self.last_ms, now, True)
        return Hearing(now, self.from_ms, self.to_ms, True)

    def silence(self) -> Silence | None:
        """The silence the message heard last may be credited for: the one whose burst it is
        in (None: it came at the device's pace)."""
        if self.last_ms - self.to_ms > BURST_MS or self.to_ms == self.from_ms:
            return None
        return Silence(self.from_ms, self.to_ms)
