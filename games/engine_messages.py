"""The rules engine's refusals in the player's language.

The engine (a pure core) gives every error a ``code`` and ``params`` and renders its own English
reason from them (``games.engine.messages``: for ``verify_log``, the golden files and the
tests). Here each code has a gettext msgid with the params as named placeholders, counted ones
through ngettext; :func:`engine_text` translates an error, nested reasons included, wherever it
reaches a person: the record submission pages and the JSON API (``games.services``), the live
scoresheet (``games.live``). tests/web/languages/test_translated_refusals.py fails when a code has
no
msgid here or a msgid's placeholders differ from the code's params.

Cell names, seat letters, colour letters and tiles stay as the record writes them (``f10``,
``A``, ``R``, ``OY``): they are notation, the same on every scoresheet.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy, pgettext_lazy

from games.dealt import MoveRefused
from games.engine import EngineError
from games.engine.messages import Message
from tournament.inputs.json_input import JSONRefused
from tournament.texts.core_messages import JSON_DETAILS, json_text, say

__all__ = ["JSON_DETAILS", "MOVE_MSGIDS", "MSGIDS", "engine_text", "move_refusal_text"]

MSGIDS: dict[str, Promise] = {
    "end_capped": _("all six colours at %(cap)s"),
    "end_resignation": pgettext_lazy("why the game ended", "resignation"),
    "end_no_placement": _("no legal placement left"),
    "end_all_stopped": _("every seat has stopped"),
    "end_no_tiles": _("no tiles left to place"),
    "not_utf8": _("the record is not UTF-8 text (invalid byte at offset %(offset)s)"),
    "unreadable_type": _("cannot read a game record from a %(type)s"),
    "unknown_form": _("unknown record form '%(form)s' (text or json)"),
    "too_large": _("the record is too large (%(size)s characters; the limit is %(limit)s)"),
    "json_invalid": _("not valid JSON: %(detail)s"),
    "json_refused": _("not accepted as a JSON record: %(reason)s"),
    "tag_after_action": _("tag after the first action (tags come first)"),
    "tag_twice": _("tag '%(name)s' appears twice"),
    "tag_malformed": _("malformed tag '%(text)s' (expected [Name \"value\"])"),
    "claim_item_malformed": _("malformed claim item '%(item)s' (expected colour+points like "
                              "'R+2')"),
    "claim_item_zero": _("claim item '%(item)s' moves nothing (list only colours whose track "
                         "moved)"),
    "claim_colour_twice": _("colour %(colour)s appears twice in the claim '{%(claim)s}'"),
    "number_without_action": _("a move number with no action after it"),
    "seat_expected": _("expected a seat letter A-D, found '%(text)s'"),
    "seat_without_action": _("seat %(seat)s with no action after it"),
    "not_a_tile_in_line": _("'%(text)s' is not a tile (two colour letters like 'OY')"),
    "draw_lists_no_tiles": _("'draw' lists no tiles"),
    "not_an_action": _("'%(text)s' is neither a placement like 'f10R-f9G' nor one of swap, "
                       "draw, flag, resign"),
    "claim_unclosed": _("claim '%(text)s' has no closing '}'"),
    "not_understood": _("'%(text)s' is not understood here (%(what)s)"),
    "clock_note_last": _("clock notes go last, like '@9:12'"),
    "unexpected": pgettext_lazy("a token in a record line", "unexpected"),
    "json_not_object": _("a JSON record must be an object with 'tags' and 'actions'"),
    "json_unknown_key": _("unknown key '%(key)s' in the JSON record"),
    "json_tags_not_object": _("'tags' must be an object of strings"),
    "json_actions_not_list": _("'actions' must be a list"),
    "tag_name_invalid": _("tag name '%(name)s' must be a letter then letters or digits"),
    "tag_value_not_text": _("tag '%(name)s' must have a string value, not %(value)s"),
    "tag_control_char": _("tag '%(name)s' holds a control character (line break?)"),
    "json_action_not_object": _("an action must be an object, not %(type)s"),
    "json_unknown_seat": _("unknown seat '%(seat)s' (seats are A, B, C, D)"),
    "json_unknown_action": _("unknown action '%(kind)s' (one of %(kinds)s)"),
    "json_key_misplaced": _("key '%(key)s' does not belong in a '%(kind)s' action"),
    "json_clock_invalid": _("clock '%(clock)s' must be whole seconds from 0 to %(limit)s"),
    "json_placement_missing": _("a 'place' action needs a 'placement' string like "
                                "'f10R-f9G'"),
    "json_tiles_missing": _("a '%(kind)s' action needs 'tiles', a list of strings like 'OY'"),
    "json_draw_empty": _("a 'draw' action lists at least one tile"),
    "json_claim_not_object": _("'claim' must be an object like {\"R\": 2, \"B\": 1}"),
    "json_claim_colour": _("unknown colour '%(colour)s' in the claim"),
    "json_claim_points": _("claimed points '%(points)s' for %(colour)s must be 1 to 999"),
    "tile_letters": _("tile '%(tile)s' must be two colour letters from %(colours)s"),
    "tile_order": _("tile '%(tile)s' is not in canonical order; use Tile.parse('%(tile)s')"),
    "not_a_tile": _("'%(text)s' is not a tile (two colour letters from %(colours)s, e.g. "
                    "'OY')"),
    "not_a_placement": _("'%(text)s' is not a placement (expected two cell+colour halves "
                         "like 'f10R-f9G')"),
    "unknown_tile_set": _("unknown tile set '%(name)s' (valid: %(valid)s)"),
    "unknown_profile": _("unknown rules profile '%(name)s' (valid: %(valid)s)"),
    "players_unsupported": _("number of players '%(players)s' is not supported (1, 2, 3 or "
                             "4)"),
    "radius_unsupported": _("board radius '%(radius)s' is not supported (5, 6 or 7)"),
    "unknown_cell": _("unknown cell '%(cell)s': not on the board of radius %(radius)s"),
    "coords_off_board": _("cell (%(q)s, %(r)s) is not on the board of radius %(radius)s"),
    "players_tag": _("'Players' must be 1, 2, 3 or 4, not '%(value)s'"),
    "partnership_tag": _("'Partnership' must be 'yes' or 'no', not '%(value)s'"),
    "time_control_tag": _("'TimeControl' '%(value)s' is not seconds with an optional '+N' "
                          "increment or 'dN' delay (e.g. 600, 300+5, 600d10)"),
    "result_tag": _("'Result' '%(value)s' is not %(expected)s"),
    "result_two_sided": _("1-0, 0-1, ½-½ (or 1/2-1/2) or *"),
    "result_solo": _("the final score (a number) or *"),
    "result_places": _("the %(sides)s seats' places like '2-1-3' or *"),
    "tile_set_players": ngettext_lazy(
        "the %(tile_set)s tile set is for at most %(limit)s player, not %(players)s",
        "the %(tile_set)s tile set is for at most %(limit)s players, not %(players)s", "limit"),
    "partnership_players": _("a partnership game needs 4 players, not %(players)s"),
    "seat_not_playing": _("seat '%(seat)s' does not play in this %(players)s-player game "
                          "(seats %(seats)s)"),
    "after_end": _("action after the end of the game"),
    "wrong_seat": _("wrong seat to act: %(seat)s cannot place a tile; %(why)s"),
    "seat_flagged": _("seat %(seat)s has flagged and takes no further turns"),
    "seat_resigned": _("seat %(seat)s has resigned"),
    "seat_to_act": _("seat %(seat)s is to act"),
    "seat_to_act_bonus": _("seat %(seat)s is to act (bonus play)"),
    "cell_is_start_symbol": _("cell '%(cell)s' is a start symbol (%(colour)s)"),
    "cell_occupied": _("cell '%(cell)s' is occupied (%(colour)s)"),
    "not_adjacent": _("cells '%(first)s' and '%(second)s' are not adjacent"),
    "same_cell": _("both halves are on cell '%(cell)s'"),
    "first_round_rule": _("placement rule broken: a first-round tile must touch a start "
                          "symbol that no earlier first-round tile touches (%(free)s still "
                          "free)"),
    "no_symbol_free": pgettext_lazy("start symbols still free", "none"),
    "touch_rule": _("placement rule broken: the tile must touch a tile on the board or a "
                    "start symbol"),
    "tile_not_in_rack": _("tile '%(tile)s' is not in seat %(seat)s's rack (holds %(tiles)s)"),
    "tile_not_in_empty_rack": _("tile '%(tile)s' is not in seat %(seat)s's rack (holds "
                                "nothing)"),
    "too_many_in_set": _("more tiles '%(tile)s' than the %(tile_set)s set holds (%(count)s)"),
    "too_many_drawn": ngettext_lazy(
        "more tiles '%(tile)s' than the bag held when seat %(seat)s drew its six new tiles "
        "(the %(count)s shown goes back only after the draw)",
        "more tiles '%(tile)s' than the bag held when seat %(seat)s drew its six new tiles "
        "(the %(count)s shown go back only after the draw)", "count"),
    "nothing_to_draw": _("seat %(seat)s has drawn no tiles since its last action, so there "
                         "is nothing to draw now"),
    "draw_count": ngettext_lazy(
        "draw lists %(count)s tile but seat %(seat)s drew %(drawn)s at this point",
        "draw lists %(count)s tiles but seat %(seat)s drew %(drawn)s at this point", "count"),
    "swap_bonus_first": _("swap not allowed now: seat %(seat)s must make its bonus play "
                          "first"),
    "swap_already": _("swap not allowed now: seat %(seat)s already swapped this turn"),
    "swap_timing": _("swap not allowed now: a swap must follow the seat's own last "
                     "placement of its turn"),
    "swap_bag": ngettext_lazy(
        "swap not allowed now: the bag holds only %(count)s tile, and a swap draws six new "
        "tiles before the shown ones go back",
        "swap not allowed now: the bag holds only %(count)s tiles, and a swap draws six new "
        "tiles before the shown ones go back", "count"),
    "swap_shows_lowest": _("swap not allowed with that rack: tile '%(tile)s' shows one of "
                           "seat %(seat)s's lowest colours (%(colours)s)"),
    "swap_count": ngettext_lazy(
        "swap not allowed with that rack: it shows %(count)s tile (%(shown)s) but seat "
        "%(seat)s holds %(holding)s",
        "swap not allowed with that rack: it shows %(count)s tiles (%(shown)s) but seat "
        "%(seat)s holds %(holding)s", "count"),
    "swap_hides_tile": _("swap not allowed with that rack: seat %(seat)s's rack holds "
                         "'%(tile)s', which is not shown (%(shown)s)"),
    "nothing_shown": pgettext_lazy("tiles shown", "nothing"),
    "already_stopped": _("seat %(seat)s has already stopped playing"),
    "flag_not_running": _("flag for seat %(seat)s not allowed now: its clock is not running "
                          "(seat %(to_act)s is to act)"),
    "claim_differs": _("claim %(claim)s differs from the true score %(gains)s"),
    "unfinished": ngettext_lazy(
        "unfinished record: the game is not over after %(count)s action (seat %(seat)s to "
        "move)",
        "unfinished record: the game is not over after %(count)s actions (seat %(seat)s to "
        "move)", "count"),
    "result_differs": _("claimed result '%(claimed)s' differs from the true result "
                        "'%(result)s'"),
    "unknown_action_kind": _("unknown action kind '%(kind)s'"),
    "file_unreadable": _("cannot read '%(name)s': %(why)s"),
}


def engine_text(error: EngineError | Message) -> str:
    """The engine's reason in the active language, a reason nested in it translated too."""
    params = error.params
    if error.code == "json_invalid":
        params = {**params, "detail": JSON_DETAILS.get(params["detail"], params["detail"])}
    elif error.code == "json_refused" and isinstance(params["reason"], JSONRefused):
        params = {**params, "reason": json_text(params["reason"])}
    return say(MSGIDS, error.code, params, _inner)


def _inner(value: object) -> object:
    return engine_text(value) if isinstance(value, Message) else value


#: The online game's own refusals (``games.dealt.REFUSALS``), beside the engine's.
MOVE_MSGIDS: dict[str, Promise] = {
    "not_object": _("a move must be an object"),
    "bad_seat": _("seat must be A or B, not %(seat)s"),
    "bad_move": _("unknown move %(move)s (one of %(moves)s)"),
    "bad_placement": _("a placement looks like 'f10R-f9G'"),
    "bad_number": _("'number' is the count of moves the client has seen (0, 1, ...)"),
    "bad_clock": _("a clock note is whole seconds"),
    "over": _("the game is over"),
    "stale": _("stale move: it was sent after move %(sent)s, but the game is at move %(now)s; "
               "nothing changed, look at the board again"),
    "ahead": _("this move answers move %(sent)s, but the game is at move %(now)s: the client "
               "is ahead of the game; nothing changed, reload the game"),
    "choose_first": _("seat %(seat)s must first choose: swap or refill"),
    "flagged": _("seat %(seat)s has flagged and takes no further turns"),
    "no_open_turn": _("%(kind)s not allowed now: seat %(seat)s has no open turn to close (the "
                      "rack is refilled at once when no swap is allowed)"),
    "other_chooses": _("wrong seat to act: seat %(seat)s must choose swap or refill"),
}


def move_refusal_text(error: MoveRefused) -> str:
    """An online move's refusal in the active language, whether the engine or the online
    game's own rules refused it."""
    if error.by_engine:
        return engine_text(error.message)
    return say(MOVE_MSGIDS, error.message.code, error.message.params)
