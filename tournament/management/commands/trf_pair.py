"""``manage.py trf_pair FILE.trf``: print the next round of a TRF file, engine-style.

The output is what FIDE engines write: the number of lines that follow, then ``first second``
per board in board order (the first player moves first), the bye as ``N 0``.
"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.pairing import NoLegalPairing, PairingError, get_engine, import_trf, pair_swiss
from tournament.pairing.engines import ENGINES


class Command(BaseCommand):
    requires_system_checks: list[str] = []  # pure core only: no models, no URLs
    help = "Pair the next round of a TRF(x) file (results so far, XXR, XXC) and print it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="TRF-16 file with the results so far")
        parser.add_argument(
            "--engine", default="dutch", choices=sorted(ENGINES), help="pairing engine"
        )
        parser.add_argument(
            "--engine-command", help="program of the external engine (JaVaFo, bbpPairings)"
        )

    def handle(self, *args: object, **options: object) -> None:
        path = options["file"]
        assert isinstance(path, Path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise CommandError(f"cannot read {path}: {exc.strerror or exc}") from None
        except UnicodeDecodeError as exc:
            raise CommandError(f"{path} is not UTF-8 text: {exc}") from None
        engine_options = {}
        if options["engine_command"]:
            engine_options["command"] = options["engine_command"]
        try:
            engine = get_engine(str(options["engine"]), **engine_options)
            pairing = pair_swiss(import_trf(text), engine)
        except NoLegalPairing as exc:
            raise CommandError(f"{path}: no legal pairing: {exc}") from None
        except PairingError as exc:
            raise CommandError(f"{path}: {exc}") from None
        self.stdout.write(pairing.to_text(), ending="")
