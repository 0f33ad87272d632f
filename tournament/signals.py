"""What the event app announces to the apps that stand on it.

The event app never imports ``games``, ``clocks`` or ``backups`` (``tests/test_layers.py``).
When one of them must act on something the event app did, in the same transaction, it
connects a receiver here in its ``AppConfig.ready``. Signals fit where the event app needs no
answer; where it does (what hangs on a board, where a result came from) it asks a registry
instead (``board_attachments``, ``links``).
"""

from django.dispatch import Signal

result_stored = Signal()
"""A new result version was stored (accepted or a conflict). Arguments: ``event``,
``result``. The automatic backups count them."""

result_carried_over = Signal()
"""A new version repeats an earlier one (an accepted conflict), so what the earlier one came
from, the new one came from too. Arguments: ``result`` (the new version), ``source``."""

round_closed = Signal()
"""A round was closed. Arguments: ``event``, ``number``."""

players_changed = Signal()
"""A player's place in the event changed: withdrawn, reinstated, an absence asked or taken
back (sent inside the transaction). Arguments: ``event``. The players' open pages follow it."""

round_published = Signal()
"""A round was published (sent inside the publishing transaction). Arguments: ``round``.
An online event's rounds go online here."""
