"""What must hold after every step of every story, and the checks of particular stories.

``every_page_answers`` opens every page, download and PDF of the event the way people would
(the public without login, the arbiter logged in) and collects every server error.
``standings_vp_match`` compares the standings download with VP summed here, straight from the
stored rows, without the standings code; ``pairing_points_match`` compares the same sums with
the TRF download and the score the Dutch engine pairs on. Pages of a round are opened again only
when something they show may have changed (a fingerprint of the rows up to that round), so long
stories stay fast.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
import traceback
from collections import Counter, defaultdict
from decimal import Decimal
from itertools import combinations

from django.urls import reverse

from tests.scenarios.story import EventStory, Visitor
from tournament.models import Absence, Board, Event, Player, Result, Round

PDFS_WITH_ROUND = ("pairings", "scoresheets", "slips")
PDFS_AFTER_ROUND = ("standings", "crosstable")


class Opened:
    """The answers collected in one check, as one readable failure."""

    def __init__(self, story: EventStory) -> None:
        self.story = story
        self.failures: list[str] = []

    def get(self, visitor: Visitor, url: str, *, kind: str = "html", **params) -> None:
        """Open a page; a server error (the test client raises it) is noted with its place."""
        where = f"{url}{'?' + '&'.join(f'{k}={v}' for k, v in params.items()) if params else ''}"
        try:
            response = visitor.client.get(url, params or None)
        except Exception as exc:  # every crash is a finding; all are listed together
            frame = traceback.extract_tb(exc.__traceback__)[-1]
            self.failures.append(f"{where} crashed: {exc!r} at {frame.filename}:{frame.lineno}")
            return
        if response.status_code >= 500:
            self.failures.append(f"{where} answered {response.status_code}")
            return
        if response.status_code != 200:
            return
        body = response.content
        if kind == "pdf" and not body.startswith(b"%PDF"):
            self.failures.append(f"{where} is not a PDF")
        elif kind == "xlsx" and not body.startswith(b"PK"):
            self.failures.append(f"{where} is not an XLSX file")
        elif kind == "json":
            json.loads(body)

    def table(self, visitor: Visitor, url: str, **params) -> None:
        """A page with a table, and its CSV and XLSX downloads."""
        self.get(visitor, url, **params)
        self.get(visitor, url, kind="csv", **params, _export="csv")
        self.get(visitor, url, kind="xlsx", **params, _export="xlsx")

    def verdict(self) -> None:
        assert not self.failures, (
            f"after step {self.story.steps[-1]!r}:\n" + "\n".join(self.failures))


def sha1(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()


class Fingerprints:
    """Hashes of the stored rows, so a page is opened again only when what it shows changed.

    ``upto[k]``: everything up to round k (the pages of round k depend on the earlier rounds);
    ``shown[k]``: the same as the public sees it (published and closed look alike);
    ``whole``: everything; ``visible``: what the public sees (drafted rounds left out);
    ``boards[k]``: round k's boards and status, without results (what pairings print);
    ``player[pk]``: what a player's public page shows (the event, the players, the absences,
    and that player's boards of published rounds with their results);
    ``board[pk]``: what the arbiter's page of a played board shows (the event, the players,
    the absences, its round's status, the board and its results).
    """

    def __init__(self, event: Event) -> None:
        common = repr((
            list(Event.objects.filter(pk=event.pk).values_list()),
            list(event.players.values_list()),
            list(Absence.objects.filter(player__event=event).values_list()),
        ))
        rounds = {n: (n, status, note) for n, status, note in
                  event.rounds.values_list("number", "status", "pairing_note")}
        boards: dict[int, list] = defaultdict(list)
        for row in Board.objects.filter(round__event=event).order_by("pk").values_list(
                "round__number", "pk", "number", "first_id", "second_id", "token"):
            boards[row[0]].append(row)
        results: dict[int, list] = defaultdict(list)
        for row in Result.objects.filter(board__round__event=event).order_by("pk").values_list(
                "board__round__number", "pk", "status", "board_id"):
            results[row[0]].append(row)
        self.upto, self.shown, self.boards, self.board = {}, {}, {}, {}
        seats: dict[int, list] = defaultdict(list)
        running = visible = public = common
        for number in sorted(rounds):
            rows = repr((boards[number], results[number]))
            drafted = rounds[number][1] == Round.Status.DRAFTED
            running = sha1(running + repr(rounds[number]) + rows)
            public = sha1(public + repr(drafted) + rows)
            self.upto[number], self.shown[number] = running, public
            self.boards[number] = sha1(common + repr((rounds[number], boards[number])))
            own = {board[1]: [r for r in results[number] if r[3] == board[1]]
                   for board in boards[number]}
            self.board.update({board[1]: sha1(common + repr((rounds[number], board,
                                                             own[board[1]])))
                               for board in boards[number] if board[4] is not None})
            if not drafted:
                visible = sha1(visible + rows)
                for board in boards[number]:
                    for seat in board[3:5]:
                        seats[seat].append((board, own[board[1]]))
        self.whole = sha1(running)
        self.visible = sha1(visible)
        self.numbers = sorted(rounds)
        self.player = {pk: sha1(common + repr(seats[pk]))
                       for pk in event.players.values_list("pk", flat=True)}


def every_page_answers(story: EventStory) -> None:
    """Every public and arbiter page, download and PDF of the event answers below 500.

    Pages are grouped by what they show; a group is opened again when its fingerprint changed
    since the last check of this story (see ``Fingerprints``).
    """
    event = story.model()
    slug = event.slug
    opened = Opened(story)
    public, arbiter = story.public, story.arbiter
    prints = Fingerprints(event)
    seen = story.cache

    def changed(key, value) -> bool:
        if seen.get(key) == value:
            return False
        seen[key] = value
        return True

    def url(name, *args):
        return reverse(name, args=[slug, *args])

    for number in prints.numbers:
        if changed(("public round", number), prints.shown[number]):
            for name in ("event_pairings", "event_pairings_by_name", "event_results"):
                opened.get(public, url(name), round=number)
                opened.get(public, url(name), kind="csv", round=number, _export="csv")
            opened.get(public, url("event_standings"), round=number)
            opened.get(public, url("event_crosstable"), round=number)
            opened.get(arbiter, url("event_pairings"), round=number)
        if not changed(("round", number), prints.upto[number]):
            continue
        opened.get(arbiter, url("arbiter_round", number))
        opened.get(arbiter, url("arbiter_results", number))
        opened.get(arbiter, url("clock_hall", number))
        first = Board.objects.filter(round__event=event, round__number=number,
                                     second__isnull=False).order_by("number").first()
        if first is not None:  # the players' and spectators' pages of a board
            opened.get(public, reverse("board_page", args=[first.token]))
            opened.get(public, reverse("live_state", args=[first.token]), kind="json")
            opened.get(public, url("clock_spectate", number, first.number))

    if changed("public", prints.visible):
        opened.get(public, reverse("home"))
        opened.get(public, url("event_home"))
        opened.get(public, url("event_home"), q=event.players.values_list("name", flat=True)
                   .first() or "x")
        for name in ("event_pairings", "event_pairings_by_name", "event_results",
                     "event_standings"):
            opened.table(public, url(name))
        opened.get(public, url("event_crosstable"))
        opened.get(public, url("event_projector"))
    for pk, shown in prints.board.items():  # a board's arbiter page: when what it shows changed
        if changed(("board", pk), shown):
            opened.get(arbiter, url("arbiter_board", pk))
    for pk, shown in prints.player.items():  # a player's page: when what it shows changed
        if changed(("player", pk), shown):
            opened.get(public, url("player_detail", pk))

    if changed("arbiter", prints.whole):
        for name in ("arbiter_dashboard", "arbiter_settings", "arbiter_players", "arbiter_print",
                     "arbiter_export", "arbiter_records", "event_projector"):
            opened.get(arbiter, url(name))
        opened.get(arbiter, url("arbiter_export_json"), kind="json")
        opened.get(arbiter, url("arbiter_export_trf"), kind="trf")

    after = complete_rounds(event)
    if changed("pdf-standings", prints.upto.get(after, after)):
        for document in PDFS_AFTER_ROUND:
            opened.get(public, url("print_document", document), kind="pdf")
        if after:  # the record of the round just completed (or corrected): once per change
            opened.get(arbiter, url("print_document", "record"), kind="pdf", round=after)
    if prints.numbers:
        latest = prints.numbers[-1]
        if changed("pdf-round", prints.boards[latest]):
            for document in PDFS_WITH_ROUND:
                opened.get(arbiter, url("print_document", document), kind="pdf", round=latest)
    opened.verdict()


# -- VP, straight from the stored rows ------------------------------------------------------


def complete_rounds(event: Event) -> int:
    """The last published round whose every board has an accepted result, counted here (a
    draft counts nothing: issue #21)."""
    done = 0
    for round_ in event.rounds.exclude(status=Round.Status.DRAFTED).order_by("number"):
        boards = set(round_.boards.values_list("pk", flat=True))
        accepted = set(Result.objects.filter(board__round=round_, status="accepted")
                       .values_list("board_id", flat=True))
        if not boards or boards - accepted:
            break
        done = round_.number
    return done


def expected_vp(event: Event, after_round: int) -> dict[str, Decimal]:
    """Accepted results, byes, absences of rounds where the player sat at no board, and the
    event's VP for each round a late entry missed."""
    names = dict(event.players.values_list("pk", "name"))
    vp = {name: Decimal(0) for name in names.values()}
    seated = set()
    for first, second, rnd in Board.objects.filter(
            round__event=event, round__number__lte=after_round).values_list(
            "first_id", "second_id", "round__number"):
        seated |= {(first, rnd), (second, rnd)}
    for result in Result.objects.filter(board__round__event=event, status="accepted",
                                        board__round__number__lte=after_round
                                        ).select_related("board"):
        vp[names[result.board.first_id]] += result.first_vp
        if result.board.second_id is not None:
            vp[names[result.board.second_id]] += result.second_vp
    for absence in Absence.objects.filter(player__event=event, round_number__lte=after_round):
        if (absence.player_id, absence.round_number) not in seated:
            vp[names[absence.player_id]] += absence.vp
    for pk, joined in event.players.values_list("pk", "joined_round"):
        vp[names[pk]] += event.late_entry_vp * max(0, min(joined - 1, after_round))
    return vp


def standings_csv(story: EventStory, after_round: int | None = None) -> list[dict[str, str]]:
    """The standings as the public downloads them (the arbiter's if they are unpublished)."""
    params = {"_export": "csv"}
    if after_round:
        params["round"] = after_round
    where = reverse("event_standings", args=[story.slug])
    response = story.public.client.get(where, params)
    if response.status_code == 404:
        response = story.arbiter.client.get(where, params)
    assert response.status_code == 200, f"standings CSV answered {response.status_code}"
    return list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))


def standings_vp_match(story: EventStory) -> None:
    """The standings' VP equal the VP summed from the stored rows, player by player."""
    event = story.model()
    after = complete_rounds(event)
    rows = standings_csv(story, after)
    shown = {row["Name"]: Decimal(row["VP"]) for row in rows}
    assert len(shown) == len(rows), "a player appears twice in the standings"
    expected = expected_vp(event, after)
    assert shown == expected, (
        f"after step {story.steps[-1]!r}, standings after round {after}: "
        f"shown {dict(sorted(shown.items()))} expected {dict(sorted(expected.items()))}")


def pairing_points_match(story: EventStory) -> None:
    """Each player's score three more ways equals the VP summed from the stored rows: in the
    TRF the arbiter downloads (its points column, less a pre-entered absence), as our TRF
    reader counts it, and as the Dutch engine pairs on it (issue #36)."""
    from py4swiss.engines.dutch.player import get_player_infos_from_trf

    from tournament.pairing import import_trf
    from tournament.pairing.engines import DutchEngine

    event = story.model()
    if not event.players.exists():
        return
    after = complete_rounds(event)
    expected = {name: int(vp * 10) for name, vp in expected_vp(event, after).items()}
    response = story.arbiter.client.get(reverse("arbiter_export_trf", args=[story.slug]))
    trf = response.content.decode()
    imported = import_trf(trf)
    engine = {p.id: p.points_with_acceleration
              for p in get_player_infos_from_trf(DutchEngine.read(trf))}
    names = dict(event.players.values_list("seed", "name"))
    columns = {int(line[4:8]): round(float(line[80:84]) * 10)
               for line in trf.splitlines() if line.startswith("001")}
    seen = {}
    for player in imported.players:
        absence = player.status.absence
        prefill = imported.settings.tenths(absence) if absence else 0
        seen[names[player.number]] = (imported.tenths(player.number),
                                      columns[player.number] - prefill,
                                      engine.get(player.number, imported.tenths(player.number)))
    wrong = {name: (expected[name], got) for name, got in seen.items()
             if set(got) != {expected[name]}}
    assert not wrong, (
        f"after step {story.steps[-1]!r}, round {after}: tenths of VP (stored rows, then "
        f"TRF reader, TRF column, engine) differ: {wrong}")


def one_board_per_player_and_round(story: EventStory) -> None:
    """Nobody sits at two boards of a round (a bye is a board)."""
    seats = Counter()
    for first, second, rnd in Board.objects.filter(round__event__slug=story.slug).values_list(
            "first_id", "second_id", "round__number"):
        seats[(first, rnd)] += 1
        if second is not None:
            seats[(second, rnd)] += 1
    twice = {key: n for key, n in seats.items() if n > 1}
    assert not twice, f"after step {story.steps[-1]!r}: players at two boards: {twice}"


ALWAYS = [every_page_answers, standings_vp_match, pairing_points_match,
          one_board_per_player_and_round]


# -- checks of particular stories -----------------------------------------------------------


def pairings_csv(story: EventStory, number: int) -> list[tuple[str, str]]:
    """(plays first, plays second) of each board of round ``number``; a bye has ``""``."""
    response = story.public.client.get(reverse("event_pairings", args=[story.slug]),
                                       {"round": number, "_export": "csv"})
    assert response.status_code == 200, f"pairings of round {number}: {response.status_code}"
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    header = rows[0]
    first = header.index("Plays first")
    second = header.index("Plays second")
    return [(row[first], row[second]) for row in rows[1:]]


def everyone_met_everyone_once(story: EventStory, names: list[str], rounds: list[int]) -> None:
    """A round robin: each pair of players met exactly once; an odd field has one bye a round."""
    met = Counter()
    for number in rounds:
        boards = pairings_csv(story, number)
        byes = [first for first, second in boards if not second]
        assert len(byes) == len(names) % 2, f"round {number}: byes {byes}"
        seated = [p for board in boards for p in board if p]
        assert sorted(seated) == sorted(names), f"round {number} seats {sorted(seated)}"
        met.update(frozenset(board) for board in boards if board[1])
    pairs = {frozenset(pair) for pair in combinations(names, 2)}
    assert set(met) == pairs, f"pairs that never met: {pairs - set(met)}"
    assert set(met.values()) == {1}, f"pairs that met twice: {[p for p, n in met.items() if n > 1]}"


def every_round_closed(story: EventStory) -> None:
    statuses = list(Round.objects.filter(event__slug=story.slug).values_list("status",
                                                                              flat=True))
    assert statuses and set(statuses) == {Round.Status.CLOSED}, statuses


def results_of(story: EventStory, name: str, number: int) -> list[Result]:
    """Accepted results involving ``name`` in round ``number``."""
    player = Player.objects.get(event__slug=story.slug, name=name)
    return [r for r in Result.objects.filter(board__round__event__slug=story.slug,
                                             board__round__number=number, status="accepted")
            .select_related("board") if player.pk in (r.board.first_id, r.board.second_id)]


def vp_of(result: Result, name: str) -> Decimal:
    return result.first_vp if result.board.first.name == name else result.second_vp


def history(story: EventStory) -> list[str]:
    """The event's history as the arbiter reads it on the settings page, one text an entry."""
    page = story.arbiter.get(reverse("arbiter_settings", args=[story.slug])).content.decode()
    block = page.split('<ul class="history">', 1)[1].split("</ul>", 1)[0]
    return [re.sub(r"<[^>]+>", "", item).strip() for item in block.split("<li>")[1:]]
