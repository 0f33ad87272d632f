"""Reading pages the way a browser does: forms with their current values, table rows, messages.

The scenarios never hard-code a form's field list: they read the form as served (hidden fields,
the CSRF token, selected options, checked boxes, textareas), change only what the story says,
and post the rest back unchanged. So a new field with a sensible default on, say, the event
settings form does not break a story that does not mention it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser


@dataclass
class Select:
    name: str
    multiple: bool
    disabled: bool = False
    options: list[tuple[str, str, bool]] = field(default_factory=list)
    """(value, label, selected) in page order."""

    def current(self) -> list[str]:
        chosen = [value for value, _label, selected in self.options if selected]
        if chosen or self.multiple or not self.options:
            return chosen
        return [self.options[0][0]]  # a single select without `selected` shows its first option

    def value_for_label(self, wanted: str) -> str:
        """The option's value whose value is ``wanted``, else whose label starts with it, else
        whose label contains it (any case)."""
        wanted = wanted.casefold()
        tests = (lambda v, lab: v.casefold() == wanted, lambda v, lab: lab.startswith(wanted),
                 lambda v, lab: wanted in lab)
        for test in tests:
            for value, label, _selected in self.options:
                if test(value, label.casefold()):
                    return value
        raise LookupError(f"select {self.name!r} has no option like {wanted!r}: {self.options}")


@dataclass
class Form:
    action: str
    method: str
    fields: list[tuple[str, str]] = field(default_factory=list)
    """Successful controls in page order, as a browser would submit them (no buttons)."""
    selects: dict[str, Select] = field(default_factory=dict)
    checkboxes: dict[str, str] = field(default_factory=dict)
    """Every checkbox by name with the value it sends when checked."""
    buttons: list[tuple[str, str, str]] = field(default_factory=list)
    """Named submit buttons: (name, value, label)."""

    def names(self) -> set[str]:
        return {name for name, _value in self.fields} | set(self.selects) | set(self.checkboxes)

    def data(self, overrides: dict | None = None) -> dict[str, object]:
        """The post data: the page's values with ``overrides`` applied.

        An override of ``True``/``False`` checks or unchecks a checkbox, ``None`` drops the
        field, a list sets a multiple select, anything else becomes the field's text.
        """
        values: dict[str, list[str]] = {}
        for name, value in self.fields:
            values.setdefault(name, []).append(value)
        for name, value in (overrides or {}).items():
            if value is None:
                values.pop(name, None)
            elif value is True:
                values[name] = [self.checkboxes.get(name, "on")]
            elif value is False:
                values.pop(name, None)
            elif isinstance(value, (list, tuple)):
                values[name] = [str(v) for v in value]
            else:
                values[name] = [str(value)]
        return {name: (v[0] if len(v) == 1 else v) for name, v in values.items()}


@dataclass
class Row:
    cells: list[str]
    links: list[str]


class PageParser(HTMLParser):
    """Forms, table rows (cell texts and link targets) and flash messages of one page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.html = ""
        self.forms: list[Form] = []
        self.rows: list[Row] = []
        self.messages: list[tuple[str, str]] = []
        self.errors: list[str] = []
        self._form: Form | None = None
        self._select: Select | None = None
        self._option: list | None = None
        self._textarea: list | None = None
        self._button: list | None = None
        self._row: Row | None = None
        self._cell: list[str] | None = None
        self._message: list | None = None
        self._error_depth = 0
        self._error_text: list[str] = []

    # -- tags ------------------------------------------------------------------------------

    def handle_starttag(self, tag, attrs):
        a = {k: (v if v is not None else "") for k, v in attrs}
        if tag == "form":
            self._form = Form(a.get("action", ""), a.get("method", "get").lower())
            self.forms.append(self._form)
        elif tag == "input" and self._form is not None:
            self._input(a)
        elif tag == "select" and self._form is not None and "name" in a:
            self._select = Select(a["name"], "multiple" in a, "disabled" in a)
            self._form.selects[a["name"]] = self._select
        elif tag == "option" and self._select is not None:
            self._option = [a.get("value"), [], "selected" in a]
        elif tag == "textarea" and self._form is not None and "name" in a and (
                "disabled" not in a):
            self._textarea = [a["name"], []]
        elif tag == "button" and self._form is not None:
            self._button = [a.get("name", ""), a.get("value", ""), []]
        elif tag == "tr":
            self._row = Row([], [])
            self.rows.append(self._row)
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []
        elif tag == "a" and self._row is not None and "href" in a:
            self._row.links.append(a["href"])
        elif tag == "li" and "msg-" in a.get("class", ""):
            self._message = [a["class"].split("msg-")[1].split()[0], []]
        if "errorlist" in a.get("class", "") or a.get("role") == "alert" or self._error_depth:
            self._error_depth += 1

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if self._error_depth:
            self._error_depth -= 1

    def handle_endtag(self, tag):
        if self._error_depth:
            self._error_depth -= 1
            if not self._error_depth:
                self.errors.append(" ".join("".join(self._error_text).split()))
                self._error_text = []
        if tag == "form":
            self._form = None
        elif tag == "select":
            self._select = None
        elif tag == "option" and self._option is not None:
            value, label, selected = self._option
            label = " ".join("".join(label).split())
            self._select.options.append((label if value is None else value, label, selected))
            self._option = None
        elif tag == "textarea" and self._textarea is not None:
            name, text = self._textarea
            self._form.fields.append((name, "".join(text).removeprefix("\n")))
            self._textarea = None
        elif tag == "button" and self._button is not None:
            name, value, label = self._button
            if name:
                self._form.buttons.append((name, value, " ".join("".join(label).split())))
            self._button = None
        elif tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.cells.append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "li" and self._message is not None:
            level, text = self._message
            self.messages.append((level, " ".join("".join(text).split())))
            self._message = None

    def handle_data(self, data):
        for sink in (self._option, self._textarea):
            if sink is not None:
                sink[1].append(data)
        if self._button is not None:
            self._button[2].append(data)
        if self._cell is not None:
            self._cell.append(data)
        if self._message is not None:
            self._message[1].append(data)
        if self._error_depth:
            self._error_text.append(data)

    def close(self):
        super().close()
        for form in self.forms:  # selects become fields in page order at the end
            for select in form.selects.values():
                if not select.disabled:  # a browser sends no disabled control
                    form.fields.extend((select.name, value) for value in select.current())

    def _input(self, a: dict) -> None:
        kind = a.get("type", "text").lower()
        name = a.get("name")
        if not name or "disabled" in a or kind in ("submit", "button", "image", "reset", "file"):
            return
        if kind in ("checkbox", "radio"):
            if kind == "checkbox":
                self._form.checkboxes[name] = a.get("value", "on")
            if "checked" in a:
                self._form.fields.append((name, a.get("value", "on")))
            return
        self._form.fields.append((name, a.get("value", "")))


def parse(html: str) -> PageParser:
    parser = PageParser()
    parser.html = html
    parser.feed(html)
    parser.close()
    return parser
