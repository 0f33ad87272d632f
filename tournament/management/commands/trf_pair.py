"""``manage.py trf_pair FILE.trf``: print the next round of a TRF file, engine-style.

By the FIDE (Dutch) System's edition the file names (line 192; none: the 2025 edition in
force), or ``--edition 2017``. The output is what FIDE engines write: the number of lines that
follow, then ``first second`` per board in board order (the first player moves first), the
bye as ``N 0``.
"""

from dataclasses import replace
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.pairing import (
    EDITIONS,
    NoLegalPairing,
    PairingError,
    engine_for,
    get_engine,
    import_trf,
    pair_swiss,
)
from tournament.pairing.engines import ENGINES


class Command(BaseCommand):
    requires_system_checks: list[str] = []  # pure core only: no models, no URLs
    help = "Pair the next round of a TRF(x) file (results so far, XXR, XXC) and print it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="TRF-16 file with the results so far")
        parser.add_argument(
            "--edition", choices=EDITIONS,
            help="the FIDE (Dutch) System's edition to pair by: the file's line 192, else "
                 f"{EDITIONS[0]} (in force); 2017 pairs with py4swiss, 2025 with bbpPairings",
        )
        parser.add_argument(
            "--engine", choices=sorted(ENGINES),
            help="a pairing engine instead of the edition's (external: --engine-command)",
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
            event = import_trf(text)
            if options["edition"]:
                event = replace(event, settings=replace(event.settings,
                                                        edition=str(options["edition"])))
            engine = (get_engine(str(options["engine"]), **engine_options)
                      if options["engine"] else engine_for(event.settings.edition))
            pairing = pair_swiss(event, engine)
        except NoLegalPairing as exc:
            raise CommandError(f"{path}: no legal pairing: {exc}") from None
        except PairingError as exc:
            raise CommandError(f"{path}: {exc}") from None
        self.stdout.write(pairing.to_text(), ending="")
