"""Long text is cut to its box in one pass (issue #12: quadratic cutting took minutes)."""

from hypothesis import given
from hypothesis import strategies as st

from tournament.printing.common import BOLD, SANS, fit, register_fonts, text_width

register_fonts()


@given(st.text(max_size=200), st.sampled_from([SANS, BOLD]), st.floats(6, 14),
       st.floats(20, 400))
def test_the_cut_text_fits_and_keeps_the_start(text, font, size, width):
    """Measured as drawn: DejaVu, with Nanum Gothic for the characters only it has."""
    cut = fit(text, font, size, width)
    if cut == text:
        assert text_width(text, font, size) <= width
    else:
        assert cut.endswith("…")
        assert text.startswith(cut[:-1])
        assert text_width(cut, font, size) <= width + 0.01


def test_a_name_of_a_hundred_thousand_characters_is_cut_to_its_column():
    cut = fit("Ж" * 100_000, SANS, 10, 120)
    assert 5 < len(cut) < 40 and cut.endswith("…")
