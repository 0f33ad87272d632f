"""Swiss pairing engines behind one small interface: TRF text in, ordered pairs out.

The TRF is the contract because every FIDE-endorsed engine speaks it, so swapping py4swiss
for JaVaFo or bbpPairings is a setting, not a rewrite. Engines are chosen by name from
:data:`ENGINES`; an unknown name or option is refused with the valid choices listed.

An engine returns ``(first, second)`` pairing numbers in board order and ``(n, 0)`` for the
pairing-allocated bye; it raises :class:`NoLegalPairing` when the round cannot be paired.
"""

from __future__ import annotations

import io
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import ClassVar, Protocol

from py4swiss.engines import DutchEngine as _Py4SwissDutch
from py4swiss.engines.common import PairingError as _Py4SwissPairingError
from py4swiss.trf import ParsedTrf, TrfParser
from py4swiss.trf.exceptions import ConsistencyError, LineError, ParsingError

from tournament.pairing.boards import parse_pairs
from tournament.pairing.errors import (
    EngineConfigError,
    EngineError,
    NoLegalPairing,
    TrfError,
)
from tournament.pairing.model import Event, Status
from tournament.pairing.trf import export_trf, import_trf, points_columns


class Engine(Protocol):
    """What :func:`tournament.pairing.pair_swiss` needs from a pairing engine."""

    name: str

    def pair(self, trf: str) -> list[tuple[int, int]]:
        """Pair the round after the last one recorded in ``trf``."""
        ...


class _TextFile:
    """Lets ``TrfParser.parse`` (which opens a path) read a string without a temporary file."""

    def __init__(self, text: str) -> None:
        self._text = text

    def open(self, *args: object, **kwargs: object) -> io.StringIO:
        return io.StringIO(self._text)


class DutchEngine:
    """FIDE Dutch system (C.04.3) by py4swiss, in-process, with strict TRF parsing.

    py4swiss is tested against bbpPairings; it already sorts the boards by FIDE's publishing
    rule D.9 (higher player's score, sum of scores, higher player's pairing number).
    """

    name = "dutch"
    OPTIONS: ClassVar[tuple[str, ...]] = ()

    def pair(self, trf: str) -> list[tuple[int, int]]:
        """Pair the next round of ``trf``.

        Round 1 with players left out (absent, withdrawn) is paired among the others numbered
        1..k, as bbpPairings and JaVaFo number them: py4swiss gives first move by the parity
        of the full field's numbers, which swapped first move on whole halves of the boards.
        """
        event = import_trf(trf)
        numbers = _numbers_of_the_paired(event)
        if numbers is not None:
            trf = export_trf(_only(event, numbers))
        parsed = self.read(trf)
        try:
            pairings = _Py4SwissDutch.generate_pairings(parsed)
        except _Py4SwissPairingError as exc:
            raise NoLegalPairing(f"the Dutch engine found no legal pairing ({exc})") from None
        pairs = [(p.white, p.black) for p in pairings]
        if numbers is None:
            return pairs
        back = {new: old for old, new in numbers.items()} | {0: 0}
        return [(back[a], back[b]) for a, b in pairs]

    @staticmethod
    def read(trf: str) -> ParsedTrf:
        """``trf`` as py4swiss pairs it, every player's score the true one.

        The file is read by our own reader first (its errors name line and column, and it
        understands the true points on ``XXA`` lines). py4swiss checks the points column
        against the codes alone and misreads a negative ``XXA`` value, so it reads the codes'
        points and the true ones are put back in what it parsed: the column it orders boards
        by, and the accelerations it forms score groups with.
        """
        event = import_trf(trf)
        # py4swiss knows neither XXA corrections nor bbpPairings' points lines (BBW, ...)
        text = "".join(line for line in export_trf(event, true_points=False).splitlines(True)
                       if not line.startswith("BB"))
        try:
            parsed = TrfParser.parse(_TextFile(text), strict=True)  # type: ignore[arg-type]
        except ParsingError as exc:
            raise TrfError(exc.message, exc.row, exc.column) from None
        except (LineError, ConsistencyError, ValueError) as exc:
            raise TrfError(str(exc)) from None
        columns = points_columns(event)
        for section in parsed.player_sections:
            section.points_times_ten = columns[section.starting_number]
            corrections = event.corrections(section.starting_number)
            if any(corrections):
                parsed.x_section.accelerations[section.starting_number] = list(corrections)
        return parsed


def _numbers_of_the_paired(event: Event) -> dict[int, int] | None:
    """Round 1 with players left out: the players to pair, numbered 1..k in their order."""
    if any(p.history for p in event.players):
        return None
    paired = [p.number for p in event.players if p.status is Status.PLAYING]
    if len(paired) == len(event.players):
        return None
    return {old: new for new, old in enumerate(paired, start=1)}


def _only(event: Event, numbers: dict[int, int]) -> Event:
    """``event`` with only the players of ``numbers``, renumbered as it says."""
    players = tuple(replace(p, number=numbers[p.number]) for p in event.players
                    if p.number in numbers)
    forbidden = frozenset((numbers[a], numbers[b]) for a, b in event.forbidden
                          if a in numbers and b in numbers)
    return Event(event.settings, players, event.name, forbidden)


class ExternalEngine:
    """A FIDE engine program that reads a TRF file and writes the pairing to a file.

    ``command`` is the program (a path, or a list such as ``["java", "-jar", "javafo.jar"]``);
    ``args`` are appended with ``{input}`` and ``{output}`` replaced by file paths; the default
    is the JaVaFo / bbpPairings convention ``--dutch IN -p OUT``. An exit status in
    ``no_pairing_codes`` (bbpPairings: 1) means "no legal pairing".
    """

    name = "external"
    OPTIONS: ClassVar[tuple[str, ...]] = ("command", "args", "timeout", "no_pairing_codes")

    def __init__(
        self,
        command: str | Path | Sequence[str],
        args: Sequence[str] = ("--dutch", "{input}", "-p", "{output}"),
        timeout: float = 60.0,
        no_pairing_codes: Sequence[int] = (1,),
    ) -> None:
        if isinstance(command, str | Path):
            command = [str(command)]
        if not command:
            raise EngineConfigError("the external engine needs a command (path to the program)")
        self.command = [str(part) for part in command]
        self.args = list(args)
        self.timeout = timeout
        self.no_pairing_codes = frozenset(no_pairing_codes)

    def pair(self, trf: str) -> list[tuple[int, int]]:
        """Write ``trf`` to a temporary file, run the program, read its pairing file."""
        with tempfile.TemporaryDirectory(prefix="pairing-") as folder:
            source, target = Path(folder, "in.trf"), Path(folder, "out.txt")
            source.write_text(trf, encoding="utf-8")
            argv = [
                *self.command,
                *(a.format(input=source, output=target) for a in self.args),
            ]
            try:
                done = subprocess.run(
                    argv, capture_output=True, text=True, timeout=self.timeout, check=False
                )
            except FileNotFoundError:
                raise EngineError(f"pairing program {self.command[0]!r} not found") from None
            except subprocess.TimeoutExpired:
                raise EngineError(f"{argv[0]!r} did not answer in {self.timeout} s") from None
            said = (done.stderr or done.stdout).strip().splitlines()
            last = said[-1] if said else "no message"
            if done.returncode in self.no_pairing_codes:
                raise NoLegalPairing(f"the engine found no legal pairing ({last})")
            if done.returncode != 0:
                raise EngineError(f"{argv[0]!r} failed with status {done.returncode}: {last}")
            if not target.exists():
                raise EngineError(f"{argv[0]!r} wrote no pairing file")
            try:
                return parse_pairs(target.read_text(encoding="utf-8"))
            except TrfError as exc:
                raise EngineError(f"{argv[0]!r} wrote an unreadable pairing: {exc}") from None


#: Engines by name; :func:`get_engine` is the only way the rest of the code picks one.
ENGINES: dict[str, type[DutchEngine] | type[ExternalEngine]] = {
    "dutch": DutchEngine,
    "external": ExternalEngine,
}


def get_engine(name: str = "dutch", **options: object) -> Engine:
    """The engine called ``name`` built with ``options``; unknown names/options are refused."""
    try:
        factory = ENGINES[name]
    except KeyError:
        valid = ", ".join(sorted(ENGINES))
        raise EngineConfigError(f"unknown pairing engine {name!r}; valid: {valid}") from None
    unknown = sorted(set(options) - set(factory.OPTIONS))
    if unknown:
        valid = ", ".join(factory.OPTIONS) or "none"
        raise EngineConfigError(
            f"engine {name!r} has no option(s) {', '.join(map(repr, unknown))}; valid: {valid}"
        )
    try:
        return factory(**options)  # type: ignore[arg-type]
    except TypeError as exc:
        raise EngineConfigError(f"engine {name!r}: {exc}") from None
