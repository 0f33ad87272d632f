"""Swiss pairing engines behind one small interface: TRF text in, ordered pairs out.

The TRF is the contract because every FIDE-endorsed engine speaks it, so swapping py4swiss
for JaVaFo or bbpPairings is a setting, not a rewrite. Engines are chosen by name from
:data:`ENGINES`; an unknown name or option is refused with the valid choices listed.

An engine returns ``(first, second)`` pairing numbers in board order and ``(n, 0)`` for the
pairing-allocated bye; it raises :class:`NoLegalPairing` when the round cannot be paired.
"""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Sequence
from contextlib import contextmanager, suppress
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, Protocol

from tournament.pairing.boards import parse_pairs
from tournament.pairing.errors import (
    EngineConfigError,
    EngineError,
    EngineMissing,
    NoLegalPairing,
    TrfError,
)
from tournament.pairing.model import Event, Player, Result, Status
from tournament.pairing.trf import export_trf, import_trf, points_columns

if TYPE_CHECKING:
    from py4swiss.trf import ParsedTrf


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
    rule D.9 (higher player's score, sum of scores, higher player's pairing number). It is
    imported when a round is paired by it, not with the module: it is a fifth of a second of
    every server's start (a restart is downtime), and most events pair by bbpPairings.
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
        from py4swiss.engines import DutchEngine as Py4SwissDutch
        from py4swiss.engines.common import PairingError as Py4SwissPairingError

        parsed = self.read(trf)
        try:
            pairings = Py4SwissDutch.generate_pairings(parsed)
        except Py4SwissPairingError as exc:
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
        from py4swiss.trf import TrfParser
        from py4swiss.trf.exceptions import ConsistencyError, LineError, ParsingError

        event = _classic_codes(import_trf(trf))
        # py4swiss knows neither XXA corrections, nor bbpPairings' points lines (BBW, ...), nor
        # the header lines beyond the name (192: the edition)
        text = "".join(line for line in export_trf(event, true_points=False).splitlines(True)
                       if line.startswith(("001", "012", "XX")))
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


def _classic_codes(event: Event) -> Event:
    """``event`` with every played game coded win–loss or draw–draw, as py4swiss requires,
    each player keeping the points scored (an arbiter's ½–0 becomes a win by ½ and a loss:
    the difference is the correction :meth:`DutchEngine.read` gives py4swiss)."""
    settings = event.settings
    by_number = {p.number: p for p in event.players}
    classic = {Result.WIN: Result.LOSS, Result.LOSS: Result.WIN, Result.DRAW: Result.DRAW}

    def recoded(player: Player) -> Player:
        history = []
        for index, record in enumerate(player.history):
            if record.result in classic and record.opponent in by_number:
                theirs = by_number[record.opponent].history[index]
                mine, their = settings.scored(record), settings.scored(theirs)
                code = (Result.WIN if mine > their else Result.LOSS if mine < their
                        else Result.DRAW)
                record = replace(record, result=code, tenths=mine)
            history.append(record)
        return replace(player, history=tuple(history))

    return replace(event, players=tuple(recoded(p) for p in event.players))


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


#: How many answers of external programs are kept (see ``ExternalEngine.pair``).
ANSWERS_KEPT = 8
_answers: OrderedDict[tuple, tuple[tuple[int, int], ...]] = OrderedDict()
#: The files a program is working on now, each with what is set once it has answered: a
#: second asker of the same file waits for that answer instead of running the program again.
_working: dict[tuple, threading.Event] = {}
_lock = threading.Lock()
_background = threading.local()
#: The programs running ``in_background``, by the tag they were started under.
_background_runs: dict[object, set[subprocess.Popen]] = {}
#: The niceness of a program run ``in_background``: what the server does now goes first.
BACKGROUND_NICENESS = 10


@contextmanager
def in_background(tag: object):
    """Run the external programs this thread starts at a lower priority, under ``tag``: a
    pairing asked ahead of time (``autopilot.pair_ahead``) yields the processor to the games
    being played and to a pairing needed now, and :func:`stop_background` ends the runs no
    longer wanted."""
    _background.tag = tag
    try:
        yield
    finally:
        _background.tag = None


def stop_background(tag: object) -> int:
    """Kill the programs running in the background under ``tag`` (their askers get an
    ``EngineError``); how many there were."""
    with _lock:
        runs = list(_background_runs.pop(tag, ()))
    for process in runs:
        with suppress(ProcessLookupError):  # ended meanwhile
            os.killpg(process.pid, signal.SIGKILL)  # its session: a wrapper's children too
    return len(runs)


_NICE = shutil.which("nice")


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
        """Write ``trf`` to a temporary file, run the program, read its pairing file.

        The program's answers to the last few files are kept (``ANSWERS_KEPT``): the same
        program given the same file answers the same, and a round's pairing and its check
        (``tournament.bridges.pairing_check``) moments later ask the same question. At a
        thousand players bbpPairings takes most of a minute; an event that runs itself pairs
        and checks each round at once, so asking twice would double its wait."""
        key = (tuple(self.command), tuple(self.args), hashlib.sha256(trf.encode()).hexdigest())
        while True:
            with _lock:
                if key in _answers:
                    _answers.move_to_end(key)
                    return list(_answers[key])
                working = _working.get(key)
                if working is None:
                    _working[key] = threading.Event()
                    break
            # the same file is being paired (asked ahead of time): its answer, or, if that
            # run failed, a run of our own
            working.wait(self.timeout)
        try:
            pairs = self._run(trf)
            with _lock:
                _answers[key] = tuple(pairs)
                while len(_answers) > ANSWERS_KEPT:
                    _answers.popitem(last=False)
            return pairs
        finally:
            with _lock:
                _working.pop(key).set()

    def _run(self, trf: str) -> list[tuple[int, int]]:
        with tempfile.TemporaryDirectory(prefix="pairing-") as folder:
            source, target = Path(folder, "in.trf"), Path(folder, "out.txt")
            source.write_text(trf, encoding="utf-8")
            argv = [
                *self.command,
                *(a.format(input=source, output=target) for a in self.args),
            ]
            tag = getattr(_background, "tag", None)
            lowered = [_NICE, "-n", str(BACKGROUND_NICENESS)] if _NICE and tag is not None \
                else []
            try:
                done = _completed([*lowered, *argv], self.timeout, tag)
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


def _completed(argv: list[str], timeout: float, tag: object) -> subprocess.CompletedProcess:
    """``subprocess.run`` that a background run's ``tag`` can stop (:func:`stop_background`)."""
    with subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          start_new_session=tag is not None) as process:
        if tag is not None:
            with _lock:
                _background_runs.setdefault(tag, set()).add(process)
        try:
            out, err = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()
            raise
        finally:
            if tag is not None:
                with _lock:
                    _background_runs.get(tag, set()).discard(process)
    return subprocess.CompletedProcess(argv, process.returncode, out, err)


class BbpPairingsEngine(ExternalEngine):
    """bbpPairings, FIDE-endorsed, the FIDE (Dutch) System as amended in 2025: the program
    ``make setup`` builds from ``vendor/bbpPairings`` into the virtualenv, or ``command``.

    It reads the TRF we write as it is (``XXA`` as accelerations, the ``BBx`` points lines,
    ``192 FIDE_DUTCH_2025``). A missing program raises :class:`EngineMissing`, so the shell can
    say so rather than pair by another edition without a word.
    """

    name = "bbpairings"
    OPTIONS: ClassVar[tuple[str, ...]] = ("command", "timeout")

    #: A thousand players in one score group take bbpPairings most of a minute on a
    #: two-core machine (docs/benchmarks.md): the limit only catches a program that hangs.
    TIMEOUT_S = 180.0

    def __init__(self, command: str | Path | None = None, timeout: float = TIMEOUT_S) -> None:
        program = Path(command) if command else bbpairings_program()
        if not program.is_file():
            raise EngineMissing(
                f"bbpPairings, the engine of the FIDE (Dutch) System 2025, is not installed "
                f"({program}): run make setup on a machine with make and g++, or set BBPAIRINGS")
        super().__init__(program, timeout=timeout)

    def pair(self, trf: str) -> list[tuple[int, int]]:
        """Pair ``trf`` with bbpPairings, once our reader has checked it scores nothing that
        bbpPairings would read otherwise (:func:`bbpairings_reads`)."""
        problem = bbpairings_reads(import_trf(trf))
        if problem:
            raise EngineConfigError(f"bbpPairings cannot pair this event: {problem}")
        return super().pair(trf)


def bbpairings_reads(event: Event) -> str:
    """Why bbpPairings would read ``event``'s TRF otherwise than we do ('' when it reads it
    as we do): it scores ``H`` as a draw and ``F`` and ``+`` as a win whatever the file says,
    and reads ``XXA`` as an acceleration that is never negative."""
    settings = event.settings
    if settings.half_bye != settings.draw:
        return f"a half-point bye scores {settings.half_bye} but a draw {settings.draw}"
    for name in ("full_bye", "forfeit_win"):
        points = getattr(settings, name)
        if points != settings.win:
            return f"a {name.replace('_', ' ')} scores {points}, a win {settings.win}"
    for player in event.players:
        if min(event.corrections(player.number)) < 0:
            return (f"player {player.number} scored less than the results' codes give "
                    f"(a negative XXA line)")
    return ""


def bbpairings_program() -> Path:
    """Where bbpPairings is: ``BBPAIRINGS``, else where ``make setup`` builds it (beside this
    Python, in the virtualenv's ``bin``)."""
    return Path(os.environ.get("BBPAIRINGS") or Path(sys.prefix, "bin", "bbpPairings"))


#: Engines by name; :func:`get_engine` is the only way the rest of the code picks one.
ENGINES: dict[str, type[DutchEngine] | type[ExternalEngine]] = {
    "dutch": DutchEngine,
    "bbpairings": BbpPairingsEngine,
    "external": ExternalEngine,
}
#: The engine of each edition of the FIDE (Dutch) System (``Settings.edition``): bbpPairings
#: pairs by the 2025 amendment only; py4swiss 0.3.1 by the 2017 edition (its pairings equal
#: bbpPairings 5.0.1's on 1,106 of 1,108 rounds, docs/pairing.md).
EDITION_ENGINES = {"2025": "bbpairings", "2017": "dutch"}
#: How the round page and the history name what paired a round, by engine name.
ENGINE_LABELS = {"bbpairings": "bbpPairings", "dutch": "py4swiss", "external": "external engine"}


def engine_for(edition: str) -> Engine:
    """The engine that pairs by ``edition``; :class:`EngineMissing` when it is not installed."""
    try:
        return get_engine(EDITION_ENGINES[edition])
    except KeyError:
        raise EngineConfigError(f"no engine pairs by the {edition!r} edition; "
                                f"valid: {', '.join(EDITION_ENGINES)}") from None


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
