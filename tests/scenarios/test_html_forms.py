"""The stories' form reader posts what a browser would: a worked example."""

from tests.scenarios.html import parse

PAGE = """
<ul class="messages"><li class="msg-error">Round 2 is already paired.</li></ul>
<form method="post" action="/save/">
  <input type="hidden" name="csrfmiddlewaretoken" value="tok">
  <input name="name" value="Club &amp; Co">
  <input type="number" name="rounds" value="7">
  <input type="checkbox" name="publish" checked>
  <input type="checkbox" name="private" value="yes">
  <input type="file" name="logo">
  <input name="fixed" value="x" disabled>
  <select name="system"><option value="auto" selected>Follow the field</option>
    <option value="round_robin">Round robin (Berger tables)</option>
    <option value="swiss">Swiss (FIDE Dutch)</option></select>
  <select name="bye"><option value="1">1</option><option value="0.5">½</option></select>
  <select name="order" disabled><option value="rating" selected>rating</option></select>
  <textarea name="notes">
two lines
here</textarea>
  <ul class="errorlist"><li>Give a name.</li></ul>
  <button name="accept" value="1">Accept</button>
</form>
<table><tr><td>1</td><td><a href="/p/3/">Ada</a></td></tr></table>
"""


def test_a_form_is_read_with_its_current_values_and_posted_with_overrides():
    page = parse(PAGE)
    (form,) = page.forms
    assert form.data() == {
        "csrfmiddlewaretoken": "tok", "name": "Club & Co", "rounds": "7", "publish": "on",
        "notes": "two lines\nhere", "system": "auto", "bye": "1",
    }
    assert form.data({"rounds": 5, "publish": False, "private": True})["private"] == "yes"
    assert "publish" not in form.data({"publish": False})
    assert form.selects["system"].value_for_label("round robin") == "round_robin"
    assert form.selects["system"].value_for_label("swiss") == "swiss"
    assert form.buttons == [("accept", "1", "Accept")]
    assert page.messages == [("error", "Round 2 is already paired.")]
    assert page.errors == ["Give a name."]
    assert [(row.cells, row.links) for row in page.rows] == [(["1", "Ada"], ["/p/3/"])]
