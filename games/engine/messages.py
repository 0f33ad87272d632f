"""What the engine says, once: a stable code per message and its English text.

Every :class:`~.errors.EngineError` carries a ``code`` from :data:`MESSAGES` and the ``params``
its text needs, so that the English reason (``verify_log``, the golden files, the tests) is
rendered here while the Django shell (``games.engine_messages``) can say the same thing in the
player's language from the code and params alone, without parsing English. A param may itself
be a :class:`Message` (a reason inside a reason, like why a seat may not act): it is rendered,
or translated, in turn. The engine knows nothing about languages; it only keeps the text apart
from the facts.

>>> render(Message("wrong_seat", {"seat": "A", "why": Message("seat_to_act", {"seat": "B"})}))
'wrong seat to act: A cannot place a tile; seat B is to act'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from string import Formatter
from typing import Any

__all__ = ["MESSAGES", "Message", "param_names", "render"]

#: Code -> English template (``str.format`` fields, plain ``{name}`` only). Params are text or
#: numbers already shaped for the message (a repr, a joined list); see :func:`render`.
MESSAGES: dict[str, str] = {
    # why a game ended (game.py: ``Game.end``); not errors, said the same way
    "end_capped": "all six colours at {cap}",
    "end_resignation": "resignation",
    "end_no_placement": "no legal placement left",
    "end_all_stopped": "every seat has stopped",
    "end_no_tiles": "no tiles left to place",
    # reading the record (notation.py, record.py)
    "not_utf8": "the record is not UTF-8 text (invalid byte at offset {offset})",
    "unreadable_type": "cannot read a game record from a {type}",
    "unknown_form": "unknown record form '{form}' (text or json)",
    "too_large": "the record is too large ({size} characters; the limit is {limit})",
    "json_invalid": "not valid JSON: {detail}",
    "json_refused": "not accepted as a JSON record: {reason}",
    "tag_after_action": "tag after the first action (tags come first)",
    "tag_twice": "tag '{name}' appears twice",
    "tag_malformed": "malformed tag '{text}' (expected [Name \"value\"])",
    "claim_item_malformed": "malformed claim item '{item}' (expected colour+points like 'R+2')",
    "claim_item_zero": "claim item '{item}' moves nothing (list only colours whose track moved)",
    "claim_colour_twice": "colour {colour} appears twice in the claim '{{{claim}}}'",
    "number_without_action": "a move number with no action after it",
    "seat_expected": "expected a seat letter A-D, found '{text}'",
    "seat_without_action": "seat {seat} with no action after it",
    "not_a_tile_in_line": "'{text}' is not a tile (two colour letters like 'OY')",
    "draw_lists_no_tiles": "'draw' lists no tiles",
    "not_an_action": "'{text}' is neither a placement like 'f10R-f9G' nor one of "
    "swap, draw, flag, resign",
    "claim_unclosed": "claim '{text}' has no closing '}}'",
    "not_understood": "'{text}' is not understood here ({what})",
    "clock_note_last": "clock notes go last, like '@9:12'",
    "unexpected": "unexpected",
    "json_not_object": "a JSON record must be an object with 'tags' and 'actions'",
    "json_unknown_key": "unknown key '{key}' in the JSON record",
    "json_tags_not_object": "'tags' must be an object of strings",
    "json_actions_not_list": "'actions' must be a list",
    "tag_name_invalid": "tag name '{name}' must be a letter then letters or digits",
    "tag_value_not_text": "tag '{name}' must have a string value, not {value}",
    "tag_control_char": "tag '{name}' holds a control character (line break?)",
    "json_action_not_object": "an action must be an object, not {type}",
    "json_unknown_seat": "unknown seat '{seat}' (seats are A, B, C, D)",
    "json_unknown_action": "unknown action '{kind}' (one of {kinds})",
    "json_key_misplaced": "key '{key}' does not belong in a '{kind}' action",
    "json_clock_invalid": "clock '{clock}' must be whole seconds from 0 to {limit}",
    "json_placement_missing": "a 'place' action needs a 'placement' string like 'f10R-f9G'",
    "json_tiles_missing": "a '{kind}' action needs 'tiles', a list of strings like 'OY'",
    "json_draw_empty": "a 'draw' action lists at least one tile",
    "json_claim_not_object": "'claim' must be an object like {{\"R\": 2, \"B\": 1}}",
    "json_claim_colour": "unknown colour '{colour}' in the claim",
    "json_claim_points": "claimed points '{points}' for {colour} must be 1 to 999",
    # tiles, placements, tile sets, boards, profiles (tiles.py, board.py, rules.py)
    "tile_letters": "tile '{tile}' must be two colour letters from {colours}",
    "tile_order": "tile '{tile}' is not in canonical order; use Tile.parse('{tile}')",
    "not_a_tile": "'{text}' is not a tile (two colour letters from {colours}, e.g. 'OY')",
    "not_a_placement": "'{text}' is not a placement (expected two cell+colour halves like "
    "'f10R-f9G')",
    "unknown_tile_set": "unknown tile set '{name}' (valid: {valid})",
    "unknown_profile": "unknown rules profile '{name}' (valid: {valid})",
    "players_unsupported": "number of players '{players}' is not supported (1, 2, 3 or 4)",
    "radius_unsupported": "board radius '{radius}' is not supported (5, 6 or 7)",
    "unknown_cell": "unknown cell '{cell}': not on the board of radius {radius}",
    "coords_off_board": "cell ({q}, {r}) is not on the board of radius {radius}",
    # setting the game up from the tags (verify.py, game.py)
    "players_tag": "'Players' must be 1, 2, 3 or 4, not '{value}'",
    "partnership_tag": "'Partnership' must be 'yes' or 'no', not '{value}'",
    "time_control_tag": "'TimeControl' '{value}' is not seconds with an optional '+N' "
    "increment or 'dN' delay (e.g. 600, 300+5, 600d10)",
    "result_tag": "'Result' '{value}' is not {expected}",
    "result_two_sided": "1-0, 0-1, ½-½ (or 1/2-1/2) or *",
    "result_solo": "the final score (a number) or *",
    "result_places": "the {sides} seats' places like '2-1-3' or *",
    "tile_set_players": "the {tile_set} tile set is for at most {limit} players, not {players}",
    "partnership_players": "a partnership game needs 4 players, not {players}",
    # the game itself (game.py, position.py, racks.py, tiles.py, verify.py)
    "seat_not_playing": "seat '{seat}' does not play in this {players}-player game "
    "(seats {seats})",
    "after_end": "action after the end of the game",
    "wrong_seat": "wrong seat to act: {seat} cannot place a tile; {why}",
    "seat_flagged": "seat {seat} has flagged and takes no further turns",
    "seat_resigned": "seat {seat} has resigned",
    "seat_to_act": "seat {seat} is to act",
    "seat_to_act_bonus": "seat {seat} is to act (bonus play)",
    "cell_is_start_symbol": "cell '{cell}' is a start symbol ({colour})",
    "cell_occupied": "cell '{cell}' is occupied ({colour})",
    "not_adjacent": "cells '{first}' and '{second}' are not adjacent",
    "same_cell": "both halves are on cell '{cell}'",
    "first_round_rule": "placement rule broken: a first-round tile must touch a start symbol "
    "that no earlier first-round tile touches ({free} still free)",
    "no_symbol_free": "none",
    "touch_rule": "placement rule broken: the tile must touch a tile on the board or a start "
    "symbol",
    "tile_not_in_rack": "tile '{tile}' is not in seat {seat}'s rack (holds {tiles})",
    "tile_not_in_empty_rack": "tile '{tile}' is not in seat {seat}'s rack (holds nothing)",
    "too_many_in_set": "more tiles '{tile}' than the {tile_set} set holds ({count})",
    "too_many_drawn": "more tiles '{tile}' than the bag held when seat {seat} drew its six "
    "new tiles (the {count} shown go back only after the draw)",
    "nothing_to_draw": "seat {seat} has drawn no tiles since its last action, so there is "
    "nothing to draw now",
    "draw_count": "draw lists {count} tiles but seat {seat} drew {drawn} at this point",
    "swap_bonus_first": "swap not allowed now: seat {seat} must make its bonus play first",
    "swap_already": "swap not allowed now: seat {seat} already swapped this turn",
    "swap_timing": "swap not allowed now: a swap must follow the seat's own last placement "
    "of its turn",
    "swap_bag": "swap not allowed now: the bag holds only {count} tiles, and a swap draws six "
    "new tiles before the shown ones go back",
    "swap_shows_lowest": "swap not allowed with that rack: tile '{tile}' shows one of seat "
    "{seat}'s lowest colours ({colours})",
    "swap_count": "swap not allowed with that rack: it shows {count} tiles ({shown}) but seat "
    "{seat} holds {holding}",
    "swap_hides_tile": "swap not allowed with that rack: seat {seat}'s rack holds '{tile}', "
    "which is not shown ({shown})",
    "nothing_shown": "nothing",
    "already_stopped": "seat {seat} has already stopped playing",
    "flag_not_running": "flag for seat {seat} not allowed now: its clock is not running "
    "(seat {to_act} is to act)",
    "claim_differs": "claim {claim} differs from the true score {gains}",
    "unfinished": "unfinished record: the game is not over after {count} actions "
    "(seat {seat} to move)",
    "result_differs": "claimed result '{claimed}' differs from the true result '{result}'",
    "unknown_action_kind": "unknown action kind '{kind}'",
    # the command line (verify_log) reports a file it cannot read as a notation error
    "file_unreadable": "cannot read '{name}': {why}",
}

#: Codes whose English text quotes a value from a JSON record as it came (any length): the
#: text is cut at this many characters, as it always was.
_CUT = 200
_CUT_CODES = frozenset({
    "tag_value_not_text", "json_unknown_seat", "json_unknown_action", "json_clock_invalid",
    "json_claim_colour", "json_claim_points",
})


@dataclass(frozen=True, slots=True)
class Message:
    """A code and its params: what one error (or one part of it) says, language aside."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return render(self)


def render(message: Message) -> str:
    """The English text of a message (nested messages rendered in place)."""
    params = {
        name: render(value) if isinstance(value, Message) else value
        for name, value in message.params.items()
    }
    text = MESSAGES[message.code].format(**params)
    return text[:_CUT] if message.code in _CUT_CODES else text


def param_names(code: str) -> frozenset[str]:
    """The params the English text of ``code`` uses (for the shell's consistency test).

    >>> sorted(param_names("wrong_seat"))
    ['seat', 'why']
    """
    return frozenset(name for _, name, _, _ in Formatter().parse(MESSAGES[code]) if name)
