"""Issue #21: the one JSON reader (``tournament.inputs.json_input``) refuses, with a code and where,
what made ``json.loads`` crash its callers (deep nesting, huge integers) or pass values no
column or clock can hold; and whatever text it is given, it raises nothing else."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import verify
from games.engine.messages import MESSAGES
from tournament.inputs.json_input import DEFAULT_LIMITS, ENGLISH, JSONRefused, Limits, read_json


def _refusal(data, limits: Limits = DEFAULT_LIMITS) -> JSONRefused:
    with pytest.raises(JSONRefused) as caught:
        read_json(data, limits)
    return caught.value


@pytest.mark.parametrize(("data", "code", "path"), [
    ("[" * 100_000, "too_deep", "$"),  # deeper than Python's stack: json.loads' RecursionError
    ("[" * 33 + "]" * 33, "too_deep", "$" + "[0]" * 32),
    ("1" * 5000, "long_integer", "$"),  # past Python's 4,300 digits: a ValueError before
    ('{"clock": {"ms": -1000000000000000}}', "long_integer", "$.clock.ms"),
    ('{"a": [1, NaN]}', "not_a_number", "$.a[1]"),
    ('[Infinity]', "not_a_number", "$[0]"),
    ('{"x": 1e999}', "bad_float", "$.x"),
    ('{"name": "\\ud800"}', "lone_surrogate", "$.name"),
    ('{"odd key": {"\\udc00": 1}}', "lone_surrogate", '$."odd key"'),
])
def test_a_refusal_names_the_code_and_the_path(data, code, path):
    refused = _refusal(data)
    assert (refused.code, refused.path) == (code, path)
    assert refused.path in str(refused)


def test_text_that_is_not_json_says_the_line_and_column():
    refused = _refusal('{\n  "a": 1,\n  "b" 2\n}')
    assert (refused.code, refused.line, refused.column) == ("syntax", 3, 7)
    assert str(refused) == "not valid JSON: Expecting ':' delimiter (at line 3, column 7)"


def test_size_and_encoding_are_checked_before_parsing():
    assert _refusal(b"[" + b"0," * 600_000 + b"0]").code == "too_large"
    assert _refusal("[" + '"\u00e9",' * 10 + "0]", Limits(max_bytes=40)).code == "too_large"
    refused = _refusal(b'["caf\xe9"]')
    assert (refused.code, refused.params["offset"]) == ("not_utf8", 5)
    assert _refusal(12).code == "not_text"


def test_within_the_limits_the_document_is_json_loads_own():
    text = '\ufeff{"n": -999999999999999, "f": -2.5e10, "s": "\\ud83d\\ude00", "l": [[[]]]}'
    assert read_json(text.encode()) == json.loads(text[1:])
    assert read_json("[" * 32 + "]" * 32, Limits(max_depth=32))


def test_the_limits_are_the_callers():
    assert read_json("1234567", Limits(max_digits=7)) == 1234567
    assert _refusal("12345678", Limits(max_digits=7)).params == {"digits": "8", "limit": 7}
    assert _refusal("[[1]]", Limits(max_depth=1)).path == "$[0]"


def test_every_code_has_english():
    assert set(ENGLISH) == {"not_text", "not_utf8", "too_large", "syntax", "too_deep",
                            "long_integer", "bad_float", "not_a_number", "lone_surrogate"}


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10**15 + 1, 10**15 - 1)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None)
@given(JSON_VALUES)
def test_property_every_value_within_the_limits_reads_back_as_written(value):
    text = json.dumps(value)
    assert read_json(text) == json.loads(text)
    assert read_json(text.encode()) == json.loads(text)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(alphabet='[]{}":,0123456789.eE-+ \\ud8nulNaI'), st.binary()))
def test_property_any_input_is_a_value_or_a_refusal_never_another_error(data):
    try:
        read_json(data)
    except JSONRefused as refused:
        assert refused.code in ENGLISH and str(refused)


RECORD_KEYS = st.sampled_from(["tags", "actions", "seat", "action", "placement", "tiles",
                               "claim", "clock", "Event", "Result", "Rules", "R", "x"])
RECORD_LEAVES = (st.none() | st.booleans() | st.integers(-10**15 + 1, 10**15 - 1)
                 | st.floats(allow_nan=False, allow_infinity=False)
                 | st.sampled_from(["A", "B", "C", "place", "swap", "draw", "flag", "resign",
                                    "f10R-f9G", "OY", "1-0", "*", "", "\n", "standard"])
                 | st.text(max_size=8))
RECORD_SHAPES = st.recursive(
    RECORD_LEAVES,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(RECORD_KEYS, inner, max_size=4),
    max_leaves=25,
)


@settings(max_examples=400, deadline=None)
@given(st.fixed_dictionaries({}, optional={"tags": RECORD_SHAPES, "actions": RECORD_SHAPES}))
def test_property_any_json_shape_as_a_record_is_a_verdict_never_an_exception(document):
    """Issue #21: a JSON record of tags and no actions crashed the verifier; every shape of
    document must end in a verdict (an error with its code), whatever it holds."""
    verdict = verify(json.dumps(document))
    assert verdict.ok or (verdict.error.code in MESSAGES and verdict.error.reason)
