"""Public pages: anyone may read them (no login); every table exports to CSV and XLSX."""

from __future__ import annotations

import time

from django.db.models import Count, Exists, OuterRef, Q
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.cache import add_never_cache_headers
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django_tables2 import RequestConfig
from django_tables2.export import TableExport

from tournament import permissions, services
from tournament.boards import links, seats
from tournament.bridges import standings_bridge
from tournament.inputs import name_search
from tournament.inputs.request_input import column_range, whole_number
from tournament.models import Absence, Board, Event, Player, PlayerLogin, Result, Round
from tournament.tables import (
    PairingsByNameTable,
    PairingsTable,
    ResultsTable,
    StandingsTable,
)
from tournament.texts import tiebreak_texts
from tournament.texts.formatting import absence_text, lowest_text, name_key, vp
from tournament.views.my_games import seat_context


def home(request):
    """The list of events, the newest first."""
    events = Event.objects.annotate(
        entrants=Count("players"), settled=Exists(Round.objects.filter(event=OuterRef("pk"))),
    )
    listed = [
        (event, services.event_format(event, entrants=event.entrants, settled=event.settled))
        for event in events
    ]
    if request.user.is_authenticated and not request.user.is_superuser:
        mine = set(request.user.arbitrated_events.values_list("pk", flat=True))
    else:
        mine = set()
    return render(request, "tournament/home.html", {"events": listed, "mine": mine})


def _event(request, slug) -> Event:
    event = get_object_or_404(Event, slug=slug)
    request.is_arbiter = event.is_arbiter(request.user)
    return event


def _ctx(request, event, **extra):
    return {"event": event, "is_arbiter": request.is_arbiter, **extra}


def _visible_rounds(request, event) -> list[Round]:
    """Drafted pairings are the arbiter's until published (``permissions.visible_rounds``);
    read once a page, which chooses its round from them and lists them as links."""
    return list(permissions.visible_rounds(event, request.user))


def _chosen_round(request, rounds) -> Round | None:
    rounds = list(rounds)
    if not rounds:
        return None
    wanted = _round_number(request)
    if wanted is not None:
        for r in rounds:
            if r.number == wanted:
                return r
        raise Http404(_("No such round."))
    return rounds[-1]


def _round_number(request) -> int | None:
    """The ``?round=N`` of a public page, if given."""
    return whole_number(request.GET.get("round"), label=_("Round"),
                        column=column_range(Round, "number"), required=False)


def _pdf_url(event, document, number) -> str:
    url = reverse("print_document", args=[event.slug, document])
    return f"{url}?round={number}" if number else url


def _export(request, table, name):
    fmt = request.GET.get("_export")
    if fmt and TableExport.is_valid_format(fmt) and fmt in ("csv", "xlsx"):
        return TableExport(fmt, table, exclude_columns=()).response(f"{name}.{fmt}")
    return None


def event_home(request, slug):
    event = _event(request, slug)
    rounds = _visible_rounds(request, event)
    # Control characters cannot be in a name (and PostgreSQL refuses NUL even in a search).
    query = "".join(c for c in request.GET.get("q", "") if c.isprintable()).strip()[:100]
    found = []
    current = rounds[-1] if rounds else None
    players = (name_search.matching(
        query, sorted(event.players.all(), key=lambda p: name_key(p.name)), lambda p: p.name)
               if query else [])
    if players and current is not None:
        boards = {
            p: b for b in current.boards.select_related("first", "second")
            for p in (b.first_id, b.second_id)
        }
        for p in players:
            board = boards.get(p.pk)
            found.append((p, board))
    else:
        found = [(p, None) for p in players]
    response = render(request, "tournament/event_home.html", _ctx(
        request, event, rounds=rounds, current=current, query=query, found=found,
        players=event.players.count(), format=services.event_format(event),
        entry=links.event_entries.links([event.pk]).get(event.pk),
        mine=_my_seat(request, event), server_ms=time.time_ns() // 1_000_000,
    ))
    add_never_cache_headers(response)  # a player's own section follows the event live
    return response


def _my_seat(request, event) -> dict | None:
    """The logged-in player's own section of the event (as on My games), kept live by the
    page's news socket; None for anyone else."""
    if not request.user.is_authenticated:
        return None
    login = (PlayerLogin.objects.filter(user=request.user, player__event=event,
                                        withdrawn_at__isnull=True)
             .select_related("player__event").first())
    if login is None:
        return None

    now = timezone.now()
    seat = seats.with_personal_links([seats.current_seat(login.player, now)])[0]
    schedule = links.player_schedules.links([login.player_id]).get(login.player_id)
    return seat_context(seat, None, schedule, now)


def _board_rows(event, round_, *, arbiter: bool) -> list[dict]:
    """The pairings by board; for the event's arbiters with each seat's personal link where
    another app keeps one (``links.personal_links``: an online game's), to hand out."""
    before = standings_bridge.vp_when_paired(round_)
    boards = services.boards_with_results(round_)
    pages = links.board_pages.links(board.pk for board, _result in boards)
    seats = links.personal_links.links(
        (board.pk, player) for board, _result in boards
        for player in (board.first_id, board.second_id) if player) if arbiter else {}
    rows = []
    for board, _result in boards:
        rows.append({
            "board": board.number if not board.is_bye else "–",
            "first": board.first.name, "first_vp": before.get(board.first_id, 0),
            "second": board.second.name if board.second else "",
            "second_vp": before.get(board.second_id, 0) if board.second else None,
            "page": pages.get(board.pk),
            "first_link": seats.get((board.pk, board.first_id)),
            "second_link": seats.get((board.pk, board.second_id)),
        })
    return rows


def _name_rows(event, round_, not_paired) -> list[dict]:
    rows = []
    for board, _result in services.boards_with_results(round_):
        if board.is_bye:
            rows.append({"name": board.first.name, "board": "–", "opponent": _("bye"),
                         "plays": ""})
            continue
        rows.append({"name": board.first.name, "board": board.number,
                     "opponent": board.second.name, "plays": pgettext("plays first", "first")})
        rows.append({"name": board.second.name, "board": board.number,
                     "opponent": board.first.name, "plays": pgettext("plays second", "second")})
    for item in not_paired:  # a player looking for their name finds it
        rows.append({"name": item.player.name, "board": "–", "opponent": item.text(),
                     "plays": ""})
    for row in rows:  # the table sorts by it (PairingsByNameTable, order_by="name")
        row["sort_name"] = name_key(row["name"])
    return rows


def _pairings_page(request, slug, *, by_name: bool):
    """Pairings of a round by board (the Dutch or Berger order) or alphabetically by name."""
    event = _event(request, slug)
    rounds = _visible_rounds(request, event)
    round_ = _chosen_round(request, rounds)
    out = services.not_paired(round_) if round_ else []
    if by_name:
        table = PairingsByNameTable(_name_rows(event, round_, out) if round_ else [],
                                    order_by="name")
    else:
        table = PairingsTable(_board_rows(event, round_, arbiter=request.is_arbiter)
                              if round_ else [])
    RequestConfig(request, paginate=False).configure(table)
    name = f"{event.slug}-pairings" + ("-by-name" if by_name else "")
    response = _export(request, table, name) or render(
        request, "tournament/pairings.html", _ctx(
            request, event, round=round_, table=table,
            rounds=rounds, by_name=by_name, not_paired=out,
            pdf=_pdf_url(event, "pairings", round_.number if round_ else None),
        ))
    if request.is_arbiter:  # the arbiters' copy has every seat's personal link
        add_never_cache_headers(response)
    return response


def pairings(request, slug):
    return _pairings_page(request, slug, by_name=False)


def pairings_by_name(request, slug):
    return _pairings_page(request, slug, by_name=True)


def _kind_text(result) -> str:
    """The result's kind, and "confirmed by both players" where the players stored it."""
    if result is None:
        return ""
    if result.source == Result.Source.PLAYERS:
        return f"{result.get_kind_display()} · {result.get_source_display()}"
    return result.get_kind_display()


def results(request, slug):
    event = _event(request, slug)
    rounds = _visible_rounds(request, event)
    round_ = _chosen_round(request, rounds)
    rows = []
    if round_ is not None:
        boards = services.boards_with_results(round_)
        origins = links.result_sources.links(result.pk for _board, result in boards if result)
        for board, result in boards:
            rows.append({
                "board": board.number if not board.is_bye else "–",
                "first": board.first.name,
                "second": board.second.name if board.second else _("bye"),
                "result": _result_text(board, result),
                "lowest": lowest_text(result.first_scores, result.second_scores) if result else "",
                "kind": _kind_text(result),
                "game": origins[result.pk].url if result and result.pk in origins else "",
            })
        # an absence scores too (its VP are in the standings): the round's results say so
        for absence in Absence.objects.filter(player__event=event,
                                              round_number=round_.number).select_related(
                                                  "player").order_by("player__name"):
            rows.append({"board": "–", "first": absence.player.name, "second": _("absent"),
                         "result": vp(absence.vp), "lowest": "", "kind": absence_text(absence),
                         "game": ""})
    table = ResultsTable(rows)
    RequestConfig(request, paginate=False).configure(table)
    return _export(request, table, f"{event.slug}-results") or render(
        request, "tournament/results.html", _ctx(
            request, event, round=round_, table=table, rounds=rounds,
        ))


def _result_text(board: Board, result: Result | None) -> str:
    if result is None:
        return ""
    if board.is_bye:
        return vp(result.first_vp)
    return f"{vp(result.first_vp)}–{vp(result.second_vp)}"


def _standings_round(request, event, last: int) -> int:
    """The round asked for (``?round=``) if it is published (``last`` rounds are), else the
    last complete one."""
    wanted = _round_number(request)
    if wanted and wanted <= last:
        return wanted
    return standings_bridge.complete_rounds(event)


def _standings_allowed(request, event) -> None:
    if not event.publish_standings and not request.is_arbiter:
        raise Http404(_("The standings of this event are not published."))


def standings(request, slug):
    event = _event(request, slug)
    _standings_allowed(request, event)
    last = standings_bridge.last_round(event)
    after = _standings_round(request, event, last)
    table_core = standings_bridge.standings(event, after)
    decided = standings_bridge.decisions(table_core)
    left = standings_bridge.withdrawn(event, table_core.rounds)
    rows = []
    for row in table_core:
        item = {
            "place": row.place, "rank": row.rank, "name": row.name, "club": row.club or "",
            "vp": row.vp_display, "vp_sort": row.vp, "games": row.games_played,
            "url": reverse("player_detail", args=[event.slug, row.player_id]),
            "withdrawn": left.get(row.player_id),
        }
        if row.player_id in decided:
            label, text = decided[row.player_id]
            item["decided"] = format_html("<details><summary>{}</summary>{}</details>",
                                          label, text)
            item["decided_text"] = text
        for value in row.tiebreaks:
            item[f"tb_{value.key}"] = value.display
            item[f"tb_{value.key}_sort"] = value.sort_key
        rows.append(item)
    table = StandingsTable(rows, table_core.tiebreaks)
    RequestConfig(request, paginate=False).configure(table)
    return _export(request, table, f"{event.slug}-standings-r{table_core.rounds}") or render(
        request, "tournament/standings.html", _ctx(
            request, event, table=table, after=table_core.rounds, wanted=after,
            tiebreaks=tiebreak_texts.texts(table_core.tiebreaks),
            readings=standings_bridge.reading_notes(event),
            pdf=_pdf_url(event, "standings", after), rounds=range(1, last + 1),
        ))


def crosstable(request, slug):
    event = _event(request, slug)
    _standings_allowed(request, event)
    last = standings_bridge.last_round(event)
    after = _standings_round(request, event, last)
    table_core, rows = standings_bridge.crosstable(event, after)
    left = standings_bridge.withdrawn(event, table_core.rounds)
    return render(request, "tournament/crosstable.html", _ctx(
        request, event, rows=[(row, left.get(row.player_id)) for row in rows],
        after=table_core.rounds, wanted=after,
        round_numbers=range(1, table_core.rounds + 1),
        rounds=range(1, last + 1), standings=table_core,
    ))


def player_detail(request, slug, player_id):
    """A player's rounds: games, byes and requested absences, with the running VP total."""
    event = _event(request, slug)
    player = get_object_or_404(Player, pk=player_id, event=event)
    visible = permissions.visible_rounds(event, request.user)  # a query of the ones below
    boards = (
        Board.objects.filter(Q(first=player) | Q(second=player), round__in=visible)
        .select_related("round", "first", "second")
    )
    accepted = {
        r.board_id: r for r in Result.objects.filter(board__in=boards, status="accepted")
    }
    last = max(visible.values_list("number", flat=True), default=0)
    rows = [(board.round.number, board) for board in boards]
    rows += [(a.round_number, a) for a in player.absences.filter(round_number__lte=last)]
    games, total = [], 0
    for number, item in sorted(rows, key=lambda row: row[0]):
        if not isinstance(item, Board):
            total += item.vp
            games.append({"round": number, "absence": item, "vp": item.vp, "total": total,
                          "why": absence_text(item)})
            continue
        result = accepted.get(item.pk)
        is_first = item.first_id == player.pk
        own_vp = own_scores = opp_scores = None
        if result is not None:
            own_vp = result.first_vp if is_first else result.second_vp
            total += own_vp or 0
            own_scores = result.first_scores if is_first else result.second_scores
            opp_scores = result.second_scores if is_first else result.first_scores
        games.append({
            "round": number, "board": item, "first": is_first,
            "opponent": (item.second if is_first else item.first),
            "result": result, "vp": own_vp, "total": total,
            "own_scores": own_scores, "opp_scores": opp_scores,
            "lowest": lowest_text(own_scores, opp_scores),
        })
    return render(request, "tournament/player.html", _ctx(
        request, event, player=player, games=games,
    ))


def projector(request, slug):
    """Pairings and standings in large type, paging and refreshing by themselves.

    In the event's print language, like the printouts: the hall's screen does not follow the
    browser of whoever opened it.
    """
    event = _event(request, slug)
    round_ = _chosen_round(request, _visible_rounds(request, event))
    boards = services.boards_with_results(round_) if round_ else []
    table = []
    if event.publish_standings or request.is_arbiter:
        table = standings_bridge.standings(event)
    with translation.override(event.print_language):
        response = render(request, "tournament/projector.html", _ctx(
            request, event, round=round_, boards=boards, standings=table,
            tiebreaks=tiebreak_texts.texts(table.tiebreaks) if table else [],
        ))
    response.headers["Content-Language"] = event.print_language
    return response
