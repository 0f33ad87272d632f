"""The printable documents by name: what each needs and who may print it.

The view and the ``export_pdf`` command both go through :func:`render`, so a document prints
the same, in the event's print language, from the browser and the command line. An unknown
name is refused with the list of valid ones.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import translation
from django.utils.translation import gettext as _

from tournament.models import Event
from tournament.printing import cards, data
from tournament.printing.common import page_size
from tournament.printing.crosstable import build_crosstable
from tournament.printing.pairings import build_pairings
from tournament.printing.round_record import build_round_record
from tournament.printing.scoresheet import build_scoresheets
from tournament.printing.slips import build_slips
from tournament.printing.standings import build_standings


@dataclass(frozen=True, slots=True)
class Document:
    """A printable document: whether it needs a round, who may print it."""

    name: str
    round_required: bool
    arbiter_only: bool
    """Scoresheets and slips carry the boards' secret tokens (in their QR codes)."""


DOCUMENTS: dict[str, Document] = {
    d.name: d
    for d in (
        Document("pairings", round_required=True, arbiter_only=False),
        Document("standings", round_required=False, arbiter_only=False),
        Document("crosstable", round_required=False, arbiter_only=False),
        Document("scoresheets", round_required=True, arbiter_only=True),
        Document("slips", round_required=True, arbiter_only=True),
        # every player's card carries the player's secret code (check-in, personal page)
        Document("cards", round_required=False, arbiter_only=True),
        # the reasons of the arbiter's decisions and the players' disputes are the arbiter's
        Document("record", round_required=True, arbiter_only=True),
    )
}


def get_document(name: str) -> Document:
    try:
        return DOCUMENTS[name]
    except KeyError:
        raise data.PrintError(
            _("Unknown document %(name)r; choose one of: %(valid)s.")
            % {"name": name, "valid": ", ".join(DOCUMENTS)}
        ) from None


def filename(event: Event, name: str, round_number: int | None) -> str:
    suffix = f"-round-{round_number}" if round_number is not None else ""
    return f"{event.slug}-{name}{suffix}.pdf"


def resolve_round(event: Event, name: str, round_arg: int | str | None) -> int:
    """The round a document is about (pairings of round N, standings after round N)."""
    document = get_document(name)
    if document.round_required:
        return data.find_round(event, round_arg).number
    return data.after_round(event, round_arg)


def render(event: Event, name: str, round_number: int, *, paper: str = "a4",
           base_url: str = "") -> bytes:
    """The PDF bytes of document ``name`` for ``round_number`` (see :func:`resolve_round`).

    ``base_url`` (scheme and host) makes the QR codes of scoresheets and slips absolute.
    Every document speaks the event's ``print_language``, whoever asks for it: a wall of
    printouts must not change language with the arbiter's browser.
    """
    document = get_document(name)
    page_size(paper)  # refuse an unknown paper before reading the database
    with translation.override(event.print_language):
        return _build(event, document, round_number, paper, base_url)


def _build(event: Event, document: Document, round_number: int, paper: str,
           base_url: str) -> bytes:
    if document.name == "cards":
        players = [p for p in event.players.order_by("name") if p.withdrawn_after_round is None]
        return cards.render(event, players, base_url=base_url, paper=paper)
    if document.name == "pairings":
        round_ = data.find_round(event, round_number)
        return build_pairings(data.pairings_doc(event, round_), paper)
    if document.name == "record":
        round_ = data.find_round(event, round_number)
        return build_round_record(data.record_doc(event, round_), paper)
    if document.name == "standings":
        return build_standings(data.standings_doc(event, round_number), paper)
    if document.name == "crosstable":
        return build_crosstable(data.crosstable_doc(event, round_number), paper)
    sheets = data.board_sheets(event, data.find_round(event, round_number), base_url)
    if document.name == "scoresheets":
        return build_scoresheets(sheets, paper)
    return build_slips(sheets, paper)
