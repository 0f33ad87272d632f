"""Every player holds a card from the moment they are entered (``player_codes.first_cards``):
players entered before the cards existed get theirs here, so that printing the cards only
reads."""

import secrets

from django.db import migrations

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # player_codes.ALPHABET, frozen here
KEY_LENGTH = 6


def first_cards(apps, schema_editor):
    Player = apps.get_model("tournament", "Player")
    PlayerCard = apps.get_model("tournament", "PlayerCard")
    taken = set(PlayerCard.objects.values_list("key", flat=True))
    new = []
    for player_id in Player.objects.filter(cards__isnull=True).values_list("pk", flat=True):
        key = ""
        while not key or key in taken:
            key = "".join(secrets.choice(ALPHABET) for _ in range(KEY_LENGTH))
        taken.add(key)
        new.append(PlayerCard(player_id=player_id, key=key))
    PlayerCard.objects.bulk_create(new, batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("tournament", "0014_checkin_cards_confirmations")]

    operations = [migrations.RunPython(first_cards, migrations.RunPython.noop)]
