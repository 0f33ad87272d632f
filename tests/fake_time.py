"""A hand-moved server clock for tests that replace ``clocks.services.now_ms``."""

T0 = 1_700_000_000_000


class FakeTime:
    """``now`` moves only when a test moves it; ``later`` lists the times the next calls
    return, one per call (to make time pass between two reads inside one service call)."""

    def __init__(self, now: int = T0) -> None:
        self.now = now
        self.later: list[int] = []

    def __call__(self) -> int:
        if self.later:
            self.now = self.later.pop(0)
        return self.now

    def advance(self, ms: int) -> int:
        self.now += ms
        return self.now
