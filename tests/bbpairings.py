"""bbpPairings for the tests: the program ``make setup`` builds from ``vendor/bbpPairings``
(or the one ``BBPAIRINGS`` names). The product pairs by it, so a test that needs it fails with
the way to build it rather than skip: a red suite on a machine without a compiler says what
the README says, that the 2025 rules need one."""

from __future__ import annotations

import pytest

from tournament.pairing.engines import ExternalEngine, bbpairings_program


def bbpairings() -> ExternalEngine:
    program = bbpairings_program()
    if not program.is_file():
        pytest.fail(f"bbpPairings is not built ({program}): install make and g++, run make setup")
    return ExternalEngine(program)
