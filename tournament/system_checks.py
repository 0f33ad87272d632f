"""Django system checks: what ``manage.py check`` (and every ``make run``) warns about.

A server without bbpPairings pairs events set to the 2025 edition by the 2017 one; the rounds
say so, and this check says it before the first round is paired.
"""

from __future__ import annotations

from django.core import checks

from tournament.pairing.engines import bbpairings_program


@checks.register(checks.Tags.compatibility)
def pairing_engine_installed(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    program = bbpairings_program()
    if program.is_file():
        return []
    return [checks.Warning(
        f"bbpPairings, the engine of the FIDE (Dutch) System 2025, is not installed ({program})",
        hint="Install make and g++ and run `make setup` (or set BBPAIRINGS to the program). "
             "Until then Swiss rounds are paired by the 2017 edition, and each round says so.",
        id="tournament.W001",
    )]
