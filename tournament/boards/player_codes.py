"""Player codes: the secret on a player card that opens the player's personal page.

A code is ``key`` + ``mac``: ``key`` is random and stored (``PlayerCard.key``), ``mac`` is an
HMAC-SHA256 of it under the site's ``SECRET_KEY``, never stored. So a copy of the database
opens no personal page, and the arbiter can still print the same card again. Both halves are
Crockford base32 (no I, L, O, U: nothing to misread on paper), upper case, 16 characters in
all. The 10-character mac is 50 bits: guessing is hopeless at the kiosk's and the personal
page's rate limit.

The card shows the code in two forms: printed in groups of four, ``K7QF-M2XA-9PLR-4T0B``, for
typing, and as its QR code, the address of the personal page
(``http://192.168.1.20:8000/card/K7QFM2XA9PLR4T0B/``), which is what a barcode scanner at the
kiosk types. The personal page's address holds a code whatever it says (``normalise`` mends
case, separators and misread letters). The kiosk's search box takes names as well, so there a
text is a code only in a code's own form (``code_in``): the printed groups, the 16 characters
alone, or the card's address. Reducing to 16 code characters is not enough: "Rosalind
Franklin" does, and would count as a wrong code each time she searched for her name.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.models import Player, PlayerCard

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
KEY_LENGTH = 6
MAC_LENGTH = 10
CODE_LENGTH = KEY_LENGTH + MAC_LENGTH
#: What people misread or type for Crockford's letters.
_READ_AS = str.maketrans({"O": "0", "I": "1", "L": "1", "U": "V"})


class CodeRefused(Exception):
    """A code that opens no personal page (here, or no longer); the message says why.

    ``status`` is the HTTP status a page answers with: 404 for a code that is no code of
    this site, 403 for a real card that may not be used here (revoked, another event's)."""

    def __init__(self, message: str, status: int = 404) -> None:
        super().__init__(message)
        self.status = status


def _mac(key: str) -> str:
    digest = hmac.new(settings.SECRET_KEY.encode(), f"player-card:{key}".encode(),
                      hashlib.sha256).digest()
    number = int.from_bytes(digest[:8], "big")
    return "".join(ALPHABET[(number >> (5 * i)) & 31] for i in range(MAC_LENGTH))


def code_for(card: PlayerCard) -> str:
    """The full code of a card, as printed (the QR code carries the personal page's URL)."""
    return card.key + _mac(card.key)


def grouped(code: str) -> str:
    """The code in groups of four for the eye: ``K7QF-M2XA-9PLR-4T0B``."""
    return "-".join(code[i:i + 4] for i in range(0, len(code), 4))


def normalise(text: str) -> str:
    """A typed or scanned code without separators, upper case, misreadings mended."""
    if not isinstance(text, str) or len(text) > 64:
        return ""
    kept = "".join(ch for ch in text.upper() if ch.isalnum())
    return kept.translate(_READ_AS)


_CHAR = "[0-9A-Za-z]"  # Crockford's alphabet and the letters ``normalise`` mends, any case
#: A code's own forms (ASCII only): the card's printed groups, the 16 characters alone, and
#: the card's QR code, the personal page's address, as a scanner types it.
_CODE_FORMS = re.compile(
    rf"(?P<groups>{_CHAR}{{4}}(?:-{_CHAR}{{4}}){{3}})|(?P<bare>{_CHAR}{{16}})"
    rf"|(?:https?://[^/\s]+)?/card/(?P<address>{_CHAR}{{16}})/?", re.ASCII)


def code_in(text: str) -> str | None:
    """The code a kiosk's input holds in one of a code's own forms (the module says which),
    separators gone, upper case, misread letters mended; None for any other text, such as a
    name being searched."""
    if not isinstance(text, str) or len(text) > 300:
        return None
    form = _CODE_FORMS.fullmatch(text.strip())
    if form is None:
        return None
    return normalise(form.group("groups") or form.group("bare") or form.group("address"))


def resembles_code(text: str) -> bool:
    """Whether a text that is not in a code's form still reduces to 16 code characters (a
    code typed with spaces, or a name such as "Rosalind Franklin"): worth a hint, never a
    lookup."""
    code = normalise(text)
    return len(code) == CODE_LENGTH and all(ch in ALPHABET for ch in code)


def player_for_code(text: str, event=None) -> Player:
    """The player a code opens, or ``CodeRefused`` with the reason.

    ``event`` (the kiosk's, for instance) refuses another event's card by name, so that a
    player holding last month's card is told so rather than "not valid".
    """
    code = normalise(text)
    if len(code) != CODE_LENGTH or any(ch not in ALPHABET for ch in code):
        raise CodeRefused(_("This is not a player code: it has 16 letters and digits."))
    key, mac = code[:KEY_LENGTH], code[KEY_LENGTH:]
    card = (PlayerCard.objects.select_related("player__event").filter(key=key).first())
    if card is None or not hmac.compare_digest(mac, _mac(key)):
        raise CodeRefused(_("This player code is not valid."))
    if card.revoked_at is not None:
        raise CodeRefused(_("This player card was replaced by a new one; use the newest "
                            "card or ask the arbiter."), status=403)
    if event is not None and card.player.event_id != event.pk:
        raise CodeRefused(_("This card is for another event (%(event)s).")
                          % {"event": card.player.event.name}, status=403)
    return card.player


def live_card(player: Player) -> PlayerCard | None:
    """The player's current card; None once the arbiter revoked it without a new one."""
    return player.cards.filter(revoked_at__isnull=True).first()


def new_key() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(KEY_LENGTH))


def first_cards(players) -> list[PlayerCard]:
    """A card for each new player, in one statement: every player has a card from the moment
    they are entered, so printing the cards (a GET) only reads."""
    players = list(players)
    keys: set[str] = set()
    while len(keys) < len(players):
        wanted = {new_key() for _ in range(len(players) - len(keys))}
        keys |= wanted - set(PlayerCard.objects.filter(key__in=wanted)
                             .values_list("key", flat=True))
    return PlayerCard.objects.bulk_create(
        [PlayerCard(player=p, key=k) for p, k in zip(players, sorted(keys), strict=True)])


@transaction.atomic
def issue_card(player: Player) -> PlayerCard:
    """A new card for the player; the previous one, if any, is revoked (a lost card)."""
    Player.objects.select_for_update().get(pk=player.pk)
    player.cards.filter(revoked_at__isnull=True).update(revoked_at=timezone.now())
    while True:
        key = new_key()
        if not PlayerCard.objects.filter(key=key).exists():
            return PlayerCard.objects.create(player=player, key=key)


@transaction.atomic
def revoke_card(player: Player) -> int:
    """Revoke the player's card without a new one; answers how many were live (0 or 1)."""
    return player.cards.filter(revoked_at__isnull=True).update(revoked_at=timezone.now())
