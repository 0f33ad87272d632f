"""Sentences about the event, made in the reader's language when they are shown.

The event's history keeps what happened as data (an action and its details), not as a
sentence: an arbiter reading the settings page in Korean sees Korean, whatever language the
arbiter who caused the change was using. ``summary`` makes the sentence; the services store
the English one as well (``HistoryEntry.summary``), for the JSON backup and for entries of
older versions whose details lack what a sentence needs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from django.utils.translation import gettext as _

from tournament.models import Event, HistoryEntry
from tournament.texts.formatting import vp


def order_words(order: str, lot_seed: int | None) -> str:
    """How the pairing numbers are (or will be) given, with the lot's seed when there is one."""
    if order == Event.PairingOrder.LOT and lot_seed is not None:
        return _("by lot (seed %(seed)d)") % {"seed": lot_seed}
    return {
        Event.PairingOrder.RATING: _("by rating"),
        Event.PairingOrder.LOT: _("by lot"),
        Event.PairingOrder.ENTRY: _("as entered"),
    }[Event.PairingOrder(order)]


def _format_settled(d: Mapping) -> str:
    return _("%(system)s; rounds: %(rounds)d; players: %(n)d; pairing numbers "
             "%(order)s.") % {
        "system": Event.PairingSystem(d["system"]).label, "rounds": d["rounds"],
        "n": len(d["numbers"]), "order": order_words(d["pairing_order"], d["lot_seed"]),
    }


def _rounds_changed(d: Mapping) -> str:
    return _("Rounds changed from %(old)d to %(new)d.") % {"old": d["old"], "new": d["new"]}


def _round_repaired(d: Mapping) -> str:
    return _("Round %(n)d paired again.") % {"n": d["round"]}


def _pairing_edited(d: Mapping) -> str:
    return _("Round %(n)d, board %(b)d paired by hand: %(names)s.") % {
        "n": d["round"], "b": d["board"], "names": " – ".join(d["names"])}


def _absence_forfeited(d: Mapping) -> str:
    return _("Round %(n)d: %(name)s's requested absence is a forfeit in the round robin (or "
             "the bye where the table gives one).") % {"n": d["round"], "name": d["player"]}


def _login_given(d: Mapping) -> str:
    return _("%(name)s logs in as %(account)s.") % {"name": d["player"], "account": d["account"]}


def _login_withdrawn(d: Mapping) -> str:
    return _("%(name)s's login (%(account)s) withdrawn.") % {
        "name": d["player"], "account": d["account"]}


def _player_withdrawn(d: Mapping) -> str:
    text = _("%(name)s withdrew after round %(n)d.") % {"name": d["player"], "n": d["after"]}
    draft = d.get("draft")
    if draft is None:
        return text
    if draft["repaired"]:
        return text + " " + _("Round %(n)d was a draft: paired again without them.") % {
            "n": draft["round"]}
    return text + " " + _("Round %(n)d was a draft paired by hand: their board removed.") % {
        "n": draft["round"]}


def _player_reinstated(d: Mapping) -> str:
    text = _("%(name)s's withdrawal after round %(n)d undone.") % {
        "name": d["player"], "n": d["after"]}
    draft = d.get("draft")
    if draft is None:
        return text
    if draft["repaired"]:
        return text + " " + _("Round %(n)d was a draft: paired again with them.") % {
            "n": draft["round"]}
    return text + " " + _("Round %(n)d was a draft paired by hand: place them on its page.") % {
        "n": draft["round"]}


def _rules_changed(d: Mapping) -> str:
    def value(text: str) -> str:
        if text in ("True", "False"):
            return _("yes") if text == "True" else _("no")
        return vp(text)

    parts = [_("%(field)s from %(old)s to %(new)s") % {
        "field": Event._meta.get_field(name).verbose_name, "old": value(old), "new": value(new)}
        for name, (old, new) in d["changes"].items()]
    return _("Changed once round 1 was paired: %(changes)s.") % {"changes": "; ".join(parts)}


def _pairing_rules(d: Mapping) -> str:
    if not d["why"]:
        return _("Round %(n)d paired by the event's own rules again: the FIDE (Dutch) System "
                 "%(edition)s.") % {"n": d["round"], "edition": d["edition"]}
    why = (_("bbpPairings is not installed on this server") if d["why"] == "missing" else
           _("bbpPairings cannot read the event as the standings count it (a score below "
             "what its results' codes give)"))
    return _("Round %(n)d paired by the FIDE (Dutch) System %(edition)s, not the event's "
             "%(own)s: %(why)s.") % {"n": d["round"], "edition": d["edition"],
                                     "own": d["own"], "why": why}


def _no_shows_decided(d: Mapping) -> str:
    parts = []
    for key, words in (("withdrawn", _("withdrawn: %(names)s")),
                       ("absent", _("absent again: %(names)s")),
                       ("kept", _("paired all the same: %(names)s"))):
        if d.get(f"{key}_names"):
            parts.append(words % {"names": ", ".join(d[f"{key}_names"])})
    return _("Before round %(n)d, the players who never appeared: %(what)s.") % {
        "n": d["round"], "what": "; ".join(parts)}


def _paired_over_disputes(d: Mapping) -> str:
    return _("Round %(n)d paired while round %(previous)d had open disputes (boards "
             "%(boards)s).") % {"n": d["round"], "previous": d["previous"],
                                "boards": ", ".join(str(b) for b in d["boards"])}


def _rounds_noted(d: Mapping) -> str:
    return _("%(r)d Swiss rounds kept (the MSO rules: 7 to 9).") % {"r": d["rounds"]}


def _paired_with_checkin_open(d: Mapping) -> str:
    if not d["names"]:
        return _("Round %(n)d paired while its check-in was open; everyone had checked in.") % {
            "n": d["round"]}
    return _("Round %(n)d paired while its check-in was open (%(checked)d of %(expected)d "
             "checked in); not checked in: %(names)s.") % {
        "n": d["round"], "checked": d["checked"], "expected": d["expected"],
        "names": ", ".join(d["names"])}


def _checkin_absent(d: Mapping) -> str:
    return _("Round %(n)d: marked absent for not checking in: %(names)s.") % {
        "n": d["round"], "names": ", ".join(d["names"])}


def _cards_issued(d: Mapping) -> str:
    if d.get("revoked") and not d.get("issued"):
        return _("%(name)s's player card revoked.") % {"name": d["player"]}
    return _("%(name)s's player card reissued (the old one no longer works).") % {
        "name": d["player"]}


def _automatic(d: Mapping) -> str:
    """A self-running event's step (``autopilot.runner``)."""
    n = d.get("round")
    step = d["step"]
    if step == "paired":
        text = _("Round %(n)d paired automatically: %(boards)d games.") % {
            "n": n, "boards": d["boards"]}
        if d.get("check"):
            text += " " + _("The pairing check could not run: %(why)s") % {"why": d["check"]}
        return text
    if step == "forfeited":
        return _("Round %(n)d: forfeits for not appearing recorded automatically on "
                 "%(games)s.") % {"n": n, "games": "; ".join(
                     _("board %(b)d (%(names)s)") % {"b": g["board"],
                                                     "names": ", ".join(g["names"])}
                     for g in d["games"])}
    if step == "closed":
        text = _("Round %(n)d closed automatically.") % {"n": n}
        if d.get("withdrawn"):
            text += " " + _("Withdrawn after %(count)d missed games: %(names)s.") % {
                "count": d["limit"], "names": ", ".join(d["withdrawn"])}
        return text
    if step == "paused":
        if d["by"] == "automatic":
            return _("Automation paused by itself: %(why)s") % {"why": d["reason"]}
        return _("Automation paused by %(who)s: %(why)s") % {
            "who": d["by"], "why": d["reason"] or "—"}
    if step == "resumed":
        return _("Automation resumed by %(who)s.") % {"who": d["by"]}
    if step == "waiting" and d.get("why") == "draft":
        return _("Round %(n)d was paired by hand: the automation waits for the arbiter to "
                 "publish it.") % {"n": n}
    if step == "enabled":
        return _("The event runs itself: round 1 at %(at)s.") % {"at": d["first_round"]}
    if step == "settings":
        return _("Settings of the automation changed by %(who)s: %(changes)s.") % {
            "who": d["by"] or "—", "changes": "; ".join(
                f"{_(label)}: {_setting(old)} → {_setting(new)}"
                for label, old, new in d["changes"])}
    simple = {
        "published": _("Round %(n)d published automatically."),
        "dealt": _("Round %(n)d: games dealt automatically."),
        "started": _("Round %(n)d: clocks started automatically."),
        "finished": _("Round %(n)d was the last: the final standings are published."),
        "waiting": _("Round %(n)d has an open dispute: the automation waits for the arbiter."),
    }
    return simple[step] % {"n": n}


def _setting(value) -> str:
    """A setting's value in a history line: yes or no, the schedule's kind in words, else as
    kept (a number, a time)."""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if value is None:
        return "—"
    return {"after": _("after the last game"), "fixed": _("fixed times")}.get(value, str(value))


def _player_registered(d: Mapping) -> str:
    if d.get("waiting"):
        return _("%(name)s registered (account %(account)s); waiting for approval.") % d
    if d.get("refused"):
        return _("%(name)s's registration refused.") % d
    return _("%(name)s registered (account %(account)s) and joins in round %(round)d.") % d


_SENTENCES: dict[str, Callable[[Mapping], str]] = {
    HistoryEntry.Action.FORMAT_SETTLED: _format_settled,
    HistoryEntry.Action.ROUNDS_CHANGED: _rounds_changed,
    HistoryEntry.Action.ROUND_REPAIRED: _round_repaired,
    HistoryEntry.Action.PAIRING_EDITED: _pairing_edited,
    HistoryEntry.Action.ABSENCE_FORFEITED: _absence_forfeited,
    HistoryEntry.Action.LOGIN_GIVEN: _login_given,
    HistoryEntry.Action.LOGIN_WITHDRAWN: _login_withdrawn,
    HistoryEntry.Action.PAIRED_OVER_DISPUTES: _paired_over_disputes,
    HistoryEntry.Action.ROUNDS_NOTED: _rounds_noted,
    HistoryEntry.Action.PAIRED_WITH_CHECKIN_OPEN: _paired_with_checkin_open,
    HistoryEntry.Action.CHECKIN_ABSENT: _checkin_absent,
    HistoryEntry.Action.CARDS_ISSUED: _cards_issued,
    HistoryEntry.Action.PLAYER_WITHDRAWN: _player_withdrawn,
    HistoryEntry.Action.PLAYER_REINSTATED: _player_reinstated,
    HistoryEntry.Action.NO_SHOWS_DECIDED: _no_shows_decided,
    HistoryEntry.Action.PAIRING_RULES: _pairing_rules,
    HistoryEntry.Action.RULES_CHANGED: _rules_changed,
    HistoryEntry.Action.AUTOMATIC: _automatic,
    HistoryEntry.Action.PLAYER_REGISTERED: _player_registered,
}


def sentence(action: str, details: Mapping) -> str:
    """The summary of a change, in the active language (``KeyError``: details too thin)."""
    return _SENTENCES[action](details)


def summary(entry: HistoryEntry) -> str:
    """An entry's summary in the active language; the stored one when its details (from an
    older version or a backup) do not say enough."""
    try:
        return sentence(entry.action, entry.details)
    except (KeyError, TypeError, ValueError):
        return entry.summary
