"""The pure cores' test folders stay free of the database: CI's second pass leaves them out."""

import pytest

from tests.conftest import _mark_pure_cores


class _Item:
    def __init__(self, nodeid: str, fixturenames=(), marker=None) -> None:
        self.nodeid, self.fixturenames, self.marker, self.added = nodeid, fixturenames, marker, []

    def get_closest_marker(self, name):
        return self.marker if name == "django_db" else None

    def add_marker(self, marker) -> None:
        self.added.append(marker.name)


def test_a_pure_cores_test_is_marked_and_others_are_not():
    core, page = _Item("tests/engine/test_x.py::t"), _Item("tests/web/test_x.py::t", ["db"])
    _mark_pure_cores([core, page])
    assert core.added == ["pure_core"] and page.added == []


@pytest.mark.parametrize("item", [_Item("tests/pairing/test_x.py::t", ["transactional_db"]),
                                  _Item("tests/standings/test_x.py::t", marker=object())])
def test_a_pure_cores_test_that_asks_for_the_database_is_an_error(item):
    with pytest.raises(pytest.UsageError, match="uses the database"):
        _mark_pure_cores([item])
