"""Every shipped language is complete: no untranslated or fuzzy entry, all plural forms, the
same placeholders as the English, a compiled .mo that says what the .po says (issue #14), and
every string the code marks for translation present in every catalogue.

The .mo files are committed (a checkout runs without gettext); the .mo test is what notices a
.po edited without running ``compilemessages``. The msgid test runs Django's ``makemessages``
with the README's flags, so it needs GNU gettext (CI installs it; elsewhere it is skipped).
"""

from __future__ import annotations

import fnmatch
import re
import shutil
import tempfile
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings

DOMAINS = ("django", "djangojs")
SHIPPED = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
CATALOGUES = [(code, domain) for code in SHIPPED for domain in DOMAINS]
#: nplurals per language: Russian has one, few and many (1, 2–4, 5–20, 21, …).
PLURALS = {"ru": 3, "sv": 2, "ko": 1, "de": 2}
#: %(name)s / %(n)d, %s / %d, {name}: what the code fills in must survive translation.
PLACEHOLDER = re.compile(r"%\(\w+\)[sdfr]|%[sdfr]|\{\w*\}")
#: The README's ``makemessages --ignore`` flags: folders whose strings are not shipped.
IGNORED = (".venv", "tests", "data", "vendor")
#: The files makemessages reads for each domain (its default extensions).
SOURCES = {"django": (".py", ".html", ".txt"), "djangojs": (".js",)}


def path(code: str, domain: str, ext: str) -> Path:
    return Path(settings.LOCALE_PATHS[0]) / code / "LC_MESSAGES" / f"{domain}.{ext}"


def where(entry: polib.POEntry) -> str:
    context = f"[{entry.msgctxt}] " if entry.msgctxt else ""
    return f"{context}{entry.msgid!r} ({', '.join(f'{f}:{n}' for f, n in entry.occurrences[:2])})"


def placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text.replace("%%", "")))


@pytest.fixture(params=CATALOGUES, ids=[f"{c}-{d}" for c, d in CATALOGUES])
def catalogue(request):
    code, domain = request.param
    po_path = path(code, domain, "po")
    assert po_path.exists(), f"{po_path} is missing: run makemessages -l {code}"
    return code, domain, polib.pofile(str(po_path))


def test_every_language_of_the_switcher_ships_both_catalogues():
    assert set(SHIPPED) == set(PLURALS)
    for code, domain in CATALOGUES:
        assert path(code, domain, "po").exists() and path(code, domain, "mo").exists()


def test_the_plural_forms_header(catalogue):
    code, _domain, po = catalogue
    assert not po.metadata_is_fuzzy, "a fuzzy header is left out of the .mo (plural rules lost)"
    forms = po.metadata.get("Plural-Forms", "")
    assert f"nplurals={PLURALS[code]};" in forms.replace(" ", ""), forms


def test_no_entry_is_untranslated_or_fuzzy(catalogue):
    code, domain, po = catalogue
    live = [e for e in po if not e.obsolete]
    missing = [where(e) for e in live if not e.translated() and "fuzzy" not in e.flags]
    fuzzy = [where(e) for e in live if "fuzzy" in e.flags]
    assert not missing and not fuzzy, (
        f"{code}/{domain}.po: {len(missing)} of {len(live)} untranslated, {len(fuzzy)} fuzzy; "
        f"first: {(missing + fuzzy)[:5]}"
    )


def test_plural_entries_fill_every_form(catalogue):
    code, _domain, po = catalogue
    for entry in po:
        if entry.msgid_plural and not entry.obsolete:
            forms = entry.msgstr_plural
            assert sorted(forms) == list(range(PLURALS[code])), where(entry)
            assert all(forms.values()), (where(entry), forms)


def test_placeholders_survive_translation(catalogue):
    _code, _domain, po = catalogue
    for entry in po:
        if entry.obsolete:
            continue
        if entry.msgid_plural:
            # A form may drop the number ("one clock" for n=1), never add or rename one.
            allowed = set(placeholders(entry.msgid)) | set(placeholders(entry.msgid_plural))
            for text in entry.msgstr_plural.values():
                if text:
                    assert set(placeholders(text)) <= allowed, (where(entry), text)
        elif entry.msgstr:
            assert placeholders(entry.msgstr) == placeholders(entry.msgid), (
                where(entry), entry.msgstr)


def test_the_compiled_mo_matches_the_po(catalogue):
    """The committed .mo holds exactly the .po's usable translations (msgfmt leaves out
    untranslated and fuzzy entries): recompiled in memory with polib and compared."""
    code, domain, po = catalogue
    mo = polib.mofile(str(path(code, domain, "mo")))

    def table(entries):
        return {
            (e.msgctxt, e.msgid): (e.msgstr, tuple(sorted(e.msgstr_plural.items())))
            for e in entries if e.msgid
        }

    expected = table(
        e for e in po if not e.obsolete and "fuzzy" not in e.flags and e.translated()
    )
    assert table(mo) == expected, f"{code}/{domain}.mo is stale: run compilemessages"



def msgid_key(entry: polib.POEntry) -> tuple[str, str, str]:
    """What makes two entries the same message: context, singular and plural."""
    return (entry.msgctxt or "", entry.msgid, entry.msgid_plural or "")


def _source_copy(root: Path, into: Path) -> None:
    """The files makemessages would read, copied to ``into`` with their relative paths (so the
    .po locations stay the same): makemessages writes its .pot into the ``locale`` folder beside
    the sources and each template's templatized twin beside the template, which the committed
    tree must not see. Hidden folders and the ignored ones are left out as makemessages does."""
    readable = {ext for exts in SOURCES.values() for ext in exts}
    skipped = (*IGNORED, ".*", "locale", "__pycache__")

    def ignore(folder: str, names: list[str]) -> set[str]:
        return {
            name for name in names
            if any(fnmatch.fnmatchcase(name, pattern) for pattern in skipped)
            or (Path(folder, name).is_file() and Path(name).suffix not in readable)
        }

    shutil.copytree(root, into, ignore=ignore, dirs_exist_ok=True)


@pytest.fixture(scope="module")
def marked_in_code() -> dict[str, set[tuple[str, str, str]]]:
    """Per domain, the messages the code marks today: what ``makemessages`` (the README's
    flags) extracts into its .pot, run over a copy of the sources in a temporary folder that is
    removed afterwards; the committed catalogues are checked to be byte for byte unchanged."""
    if shutil.which("xgettext") is None:
        pytest.skip("GNU gettext is not installed: `apt-get install gettext` to compare the "
                    "catalogues with the code")
    locale = Path(settings.LOCALE_PATHS[0])
    before = {p: p.read_bytes() for p in locale.rglob("*") if p.is_file()}
    marked = {}
    with tempfile.TemporaryDirectory(prefix="makemessages-") as work:
        sources = Path(work)
        _source_copy(locale.parent, sources)
        (sources / "locale").mkdir()
        with pytest.MonkeyPatch.context() as patch, \
                override_settings(LOCALE_PATHS=[str(sources / "locale")]):
            patch.chdir(sources)
            for domain in DOMAINS:
                call_command("makemessages", domain=domain, locale=SHIPPED, keep_pot=True,
                             no_obsolete=True, ignore_patterns=list(IGNORED), verbosity=0)
                pot = polib.pofile(str(sources / "locale" / f"{domain}.pot"))
                marked[domain] = {msgid_key(e) for e in pot if not e.obsolete}
    after = {p: p.read_bytes() for p in locale.rglob("*") if p.is_file()}
    assert after == before, "makemessages touched the committed catalogues"
    return marked


def test_every_message_of_the_code_is_in_the_catalogue(catalogue, marked_in_code):
    """A string marked in the code but missing from a catalogue is shown in English; one the
    code no longer marks is dead weight that the next makemessages drops."""
    code, domain, po = catalogue
    held = {msgid_key(e) for e in po if not e.obsolete}
    missing = sorted(marked_in_code[domain] - held)
    stale = sorted(held - marked_in_code[domain])
    assert not missing and not stale, (
        f"{code}/{domain}.po differs from the code: run makemessages as the README says, then "
        f"translate; {len(missing)} missing: {[m[1] for m in missing[:10]]}; "
        f"{len(stale)} no longer in the code: {[s[1] for s in stale[:10]]}"
    )
