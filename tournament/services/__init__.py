"""The only code that writes events, players, rounds and results.

Every function here is a transaction: it locks what it changes, checks, writes, and leaves
nothing half-done when it refuses. Views, commands and consumers call these; they never save
models themselves. Split by topic: ``events`` (events and players), ``results`` (result
versions), ``rounds`` (pairing and the round life cycle).
"""

from tournament.services.errors import (
    InvalidResult,
    NeedsConfirmation,
    Recorded,
    ResultRefused,
    ServiceError,
    StaleResult,
)
from tournament.services.events import (
    add_player,
    cancel_absence,
    create_event,
    ignored_columns,
    import_players,
    parse_players_csv,
    set_absence,
    unique_slug,
    update_event,
    update_player,
)
from tournament.services.format import event_format, order_text
from tournament.services.results import (
    current_result,
    enter_slip,
    record_result,
    register_result_guard,
    resolve_conflict,
)
from tournament.services.rounds import (
    boards_with_results,
    can_reinstate,
    close_round,
    decide_no_shows,
    edit_pairing,
    missing_results,
    next_action,
    next_board_without_result,
    next_round_number,
    not_paired,
    open_conflicts,
    pair_next_round,
    pairing_review,
    publish_round,
    reinstate_player,
    repair_round,
    schedule_round,
    start_manual_round,
    withdraw_player,
)

__all__ = [
    "InvalidResult",
    "NeedsConfirmation",
    "Recorded",
    "ResultRefused",
    "ServiceError",
    "StaleResult",
    "add_player",
    "boards_with_results",
    "can_reinstate",
    "cancel_absence",
    "close_round",
    "create_event",
    "current_result",
    "decide_no_shows",
    "edit_pairing",
    "enter_slip",
    "event_format",
    "ignored_columns",
    "import_players",
    "missing_results",
    "next_action",
    "next_board_without_result",
    "next_round_number",
    "not_paired",
    "open_conflicts",
    "order_text",
    "pair_next_round",
    "pairing_review",
    "parse_players_csv",
    "publish_round",
    "record_result",
    "register_result_guard",
    "reinstate_player",
    "repair_round",
    "resolve_conflict",
    "schedule_round",
    "set_absence",
    "start_manual_round",
    "unique_slug",
    "update_event",
    "update_player",
    "withdraw_player",
]  # fmt: skip
