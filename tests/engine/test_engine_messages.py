"""The engine's messages: every error names a code of the message table, and the English text
rendered from code and params is the reason the engine always gave (the shell translates from
the same code and params, see tests/web/languages/test_translated_refusals.py)."""

from __future__ import annotations

import ast
import pickle
from pathlib import Path

import pytest

from games.engine import Game, IllegalActionError, NotationError, verify
from games.engine.messages import MESSAGES, Message, param_names, render

ROOT = Path(__file__).resolve().parents[2]
#: The engine, and the command line that reports an unreadable file as a notation error.
SOURCES = [*sorted((ROOT / "games" / "engine").glob("*.py")),
           ROOT / "games" / "management" / "commands" / "verify_log.py"]
ERROR_TYPES = {"EngineError", "NotationError", "IllegalActionError", "UnknownProfileError"}


def _uses() -> list[tuple[str, int, str, frozenset[str]]]:
    """(file, line, code, keyword names) of every error or Message built in the engine with a
    literal code (``fail(...)`` in notation.py builds NotationErrors too)."""
    found = []
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if name not in ERROR_TYPES | {"Message", "fail"} or not node.args:
                continue
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                keywords = frozenset(k.arg for k in node.keywords if k.arg)
                if name == "Message" and len(node.args) > 1 and isinstance(node.args[1], ast.Dict):
                    keywords = frozenset(k.value for k in node.args[1].keys)
                found.append((path.name, node.lineno, first.value, keywords))
    return found


def test_every_raise_site_names_a_known_code_with_its_params():
    uses = _uses()
    assert len(uses) > 80  # the scan found the raise sites
    position = {"line", "column", "action", "token"}
    for file, line, code, keywords in uses:
        assert code in MESSAGES, f"{file}:{line}: {code!r} is not in messages.MESSAGES"
        assert keywords - position == param_names(code), f"{file}:{line}: {code}"


def test_every_code_of_the_table_is_used():
    used = {code for _file, _line, code, _keywords in _uses()}
    assert set(MESSAGES) - used == set()


def test_an_unknown_code_is_refused_at_once():
    with pytest.raises(ValueError, match="unknown engine message code 'no_such_code'"):
        IllegalActionError("no_such_code")


def test_nested_messages_render_in_place():
    game = Game()
    game.place("A", "e1R-f2O")
    with pytest.raises(IllegalActionError) as caught:
        game.place("A", "j10P-k10P")
    error = caught.value
    assert error.code == "wrong_seat"
    assert error.params == {"seat": "A", "why": Message("seat_to_act", {"seat": "B"})}
    assert error.reason == "wrong seat to act: A cannot place a tile; seat B is to act"


def test_position_and_pickling_keep_code_and_params():
    error = NotationError("tag_twice", token="Round", name="Round").at(line=3, column=1)
    again = pickle.loads(pickle.dumps(error))
    assert (again.code, again.params, again.line, again.column) == (
        "tag_twice", {"name": "Round"}, 3, 1)
    assert str(again) == "line 3, column 1: tag 'Round' appears twice"
    assert repr(again) == "NotationError('tag_twice', name='Round', line=3, column=1, action=None)"


def test_values_quoted_from_json_are_cut_as_before():
    value = "x" * 500
    verdict = verify({"tags": {}, "actions": [{"seat": value, "action": "flag"}]})
    assert verdict.error.code == "json_unknown_seat"
    assert verdict.error.reason == f"unknown seat '{value}' (seats are A, B, C, D)"[:200]
    assert render(Message("json_unknown_seat", {"seat": "E"})).endswith("(seats are A, B, C, D)")
