"""A server clock the browser stories move forward: minutes of an outage in a moment.

The board page and the server keep time each on their own clock, and an outage story checks
that they agree on every press however long the outage lasted. A story that would wait out
minutes jumps both clocks instead: the page's with Playwright's clock
(``page.clock.fast_forward``), the server's with ``ServerTime.jump``. The server subprocess
serves ``tests.browser.shifted_asgi``, whose ``clocks.services.now_ms`` runs ahead by the
milliseconds this object writes to a file; this process reads the same clock (``now_ms``,
also put in place of its own ``services.now_ms`` by ``venue``).
"""

from __future__ import annotations

import time
from pathlib import Path

APPLICATION = "tests.browser.shifted_asgi:application"
VARIABLE = "INGENIOUS_TEST_SERVER_TIME"


class ServerTime:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.ahead = 0
        self._write()

    @property
    def env(self) -> dict[str, str]:
        """What the server subprocess needs to read this clock."""
        return {VARIABLE: str(self.path)}

    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000 + self.ahead

    def jump(self, ms: int) -> None:
        """The server's clock (and this process's) runs ``ms`` further ahead from now on."""
        self.ahead += ms
        self._write()

    def _write(self) -> None:
        self.path.write_text(str(self.ahead), encoding="ascii")
