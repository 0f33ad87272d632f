"""The tiebreaks' translatable words (tournament/texts/tiebreak_texts.py) follow the standings
core."""

from django.utils import translation

from tournament.standings import TIEBREAKS
from tournament.texts import tiebreak_texts


def test_every_criterion_has_the_cores_english_words():
    with translation.override("en"):
        for key, core in TIEBREAKS.items():
            text = tiebreak_texts.text_for(core)
            assert (text.key, str(text.label), str(text.definition)) == (
                key, core.label, core.definition)


def test_the_words_follow_the_language():
    with translation.override("de"):
        label = str(tiebreak_texts.text_for("buchholz").label)
    with translation.override("en"):
        assert str(tiebreak_texts.text_for("buchholz").label) == "BH"
    assert label  # German has no translation of its own yet: the English stands in
