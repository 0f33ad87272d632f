"""What a page must show in Chromium, checked on the page as it stands, for any test to use.

Layout: the page never scrolls sideways as a whole; wide tables scroll inside their own
``.table-wrap`` with the lead columns (rank or board, and the name) kept in view and the rest
still visible beside them; at laptop width nothing needs scrolling at all; badges keep their pill
shape. Each breakage names the element that sticks out. Accessibility: axe-core's WCAG 2.1 A and
AA rules, each violation with its rule and the selector of each offending node.
"""

from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe

from tests.browser.live import TIMEOUT_MS

CLOCK_CONNECTED = '.connection[data-state="connected"]'
LAPTOP_WIDTH = 1366
WCAG_21_AA = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}}

#: The widest element whose right edge leaves the viewport, among elements that are the first
#: of their line of ancestors to do so (their parent still fits): that is the culprit, not the
#: body it pushes wide. Elements inside a scrolling or clipping container are not counted,
#: they scroll there; fixed elements never scroll the page.
OVERFLOW_JS = """
() => {
  const limit = window.innerWidth + 1;
  const page = document.documentElement.scrollWidth;
  const clipped = (el) => {
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const style = getComputedStyle(a);
      if (style.overflowX !== "visible" || style.position === "fixed") return true;
    }
    return getComputedStyle(el).position === "fixed";
  };
  const describe = (el) => {
    let text = el.tagName.toLowerCase();
    if (el.id) text += "#" + el.id;
    if (el.classList.length) text += "." + [...el.classList].join(".");
    const words = (el.innerText || "").trim().replace(/\\s+/g, " ").slice(0, 40);
    return words ? `${text} "${words}"` : text;
  };
  const culprits = [];
  for (const el of document.body.querySelectorAll("*")) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.right + window.scrollX <= limit || clipped(el)) continue;
    const parent = el.parentElement.getBoundingClientRect();
    if (parent.right + window.scrollX > limit && el.parentElement !== document.body) continue;
    culprits.push({what: describe(el), width: Math.round(box.width),
                   right: Math.round(box.right + window.scrollX)});
  }
  culprits.sort((a, b) => b.width - a.width);
  const bare = [...document.querySelectorAll("table")].filter(
    (t) => !t.closest(".table-wrap")).map(describe);
  return {page, viewport: window.innerWidth, culprits: culprits.slice(0, 3), bare};
}
"""

#: Scrolls each table that is wider than its ``.table-wrap`` to its right end and lists those
#: whose lead columns (the sticky ones: name, with rank or board before it) leave their frame,
#: or cover the rest of the row so that its last column cannot be seen beside them.
NAME_KEPT_JS = """
() => {
  const lost = [];
  for (const wrap of document.querySelectorAll(".table-wrap")) {
    const row = wrap.querySelector("tbody tr");
    if (!row || wrap.scrollWidth <= wrap.clientWidth + 1) continue;
    const table = "table." + wrap.querySelector("table").className.replace(/ /g, ".");
    const kept = [...row.cells].filter((c) => getComputedStyle(c).position === "sticky");
    if (!kept.length) { lost.push(`${table}: no column stays in view`); continue; }
    wrap.scrollLeft = wrap.scrollWidth;
    const frame = wrap.getBoundingClientRect();
    const edge = Math.max(...kept.map((c) => c.getBoundingClientRect().right));
    const last = row.cells[row.cells.length - 1].getBoundingClientRect();
    if (kept.some((c) => c.getBoundingClientRect().left < frame.left - 1)) {
      lost.push(`${table}: the kept columns scroll away`);
    } else if (last.left < edge - 1) {
      lost.push(`${table}: the kept columns (${Math.round(edge - frame.left)} px of `
                + `${Math.round(frame.width)}) cover the last column`);
    }
    wrap.scrollLeft = 0;
  }
  return lost;
}
"""

#: Pill badges (connection state, round status) taller than their text and padding: stretched
#: by the row they sit in instead of keeping their shape. An online game's status is a line of
#: two lines' height, not a pill.
BADGES_JS = """
() => [...document.querySelectorAll(".connection, .status:not(.online .status)")].filter((el) => {
  const style = getComputedStyle(el);
  const line = parseFloat(style.lineHeight) || 1.5 * parseFloat(style.fontSize);
  const padding = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
  return el.getBoundingClientRect().height > line + padding + 2;
}).map((el) => `${el.className} "${el.textContent.trim()}"`)
"""

#: Tables that scroll inside their container, with how far.
SCROLLING_TABLES_JS = """
() => [...document.querySelectorAll(".table-wrap")]
  .filter((wrap) => wrap.scrollWidth > wrap.clientWidth + 1)
  .map((wrap) => `table.${wrap.querySelector("table").className} needs ${wrap.scrollWidth} px`
                 + ` in ${wrap.clientWidth} px`)
"""


def open_settled(page, url: str) -> list[str]:
    """Open ``url`` and let its live parts settle (a clock page waits for its socket): nothing,
    or the status the page answered with instead of 200."""
    response = page.goto(url)
    if response.status != 200:
        return [f"answered {response.status}"]
    if page.locator(".connection").count():
        page.wait_for_selector(CLOCK_CONNECTED)
    return []


def layout_problems(page) -> list[str]:
    """What breaks the layout of the page as it stands at its current width. The projector's
    screens are all shown first, every row of them (so the page is changed: check it last)."""
    if page.locator("#pages .page").count():
        page.evaluate("document.querySelectorAll('#pages .page, #pages tr')"
                      ".forEach(e => { e.hidden = false; })")
    found = page.evaluate(OVERFLOW_JS)
    problems = []
    if found["page"] > found["viewport"] + 1:
        culprits = "; ".join(f"{c['what']} (width {c['width']}, right edge {c['right']})"
                             for c in found["culprits"])
        problems.append(f"scrolls sideways to {found['page']} px: {culprits or 'unknown'}")
    problems += [f"table outside a .table-wrap: {table}" for table in found["bare"]]
    problems += page.evaluate(NAME_KEPT_JS)
    problems += [f"misshapen badge {badge}" for badge in page.evaluate(BADGES_JS)]
    if page.viewport_size["width"] >= LAPTOP_WIDTH:
        problems += [f"cut off at laptop width: {table}"
                     for table in page.evaluate(SCROLLING_TABLES_JS)]
    return problems


def check(page, url: str) -> list[str]:
    """Open ``url`` and return what breaks its layout at the page's current width."""
    return open_settled(page, url) or layout_problems(page)


def axe_problems(axe: Axe, page) -> list[str]:
    """axe's WCAG 2.1 AA violations on the page as it stands, with each node's selector."""
    results = axe.run(page, options=WCAG_21_AA)
    return [f"{rule['id']}: {', '.join(' '.join(node['target']) for node in rule['nodes'])}"
            for rule in results.response["violations"]]


def pages_at(browser, server, visits, sizes):
    """Each page of ``visits`` (pairs of a session cookie or None and {label: path}) at each
    of ``sizes`` ({name: ((width, height), language)}), in a browser of that size and
    language holding the visit's cookie: (where, label, url, page), for the caller to open."""
    for size_name, ((width, height), language) in sizes.items():
        context = browser.new_context(viewport={"width": width, "height": height},
                                      locale=language)
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        for cookie, paths in visits:
            context.clear_cookies()
            if cookie:
                context.add_cookies([cookie])
            for label, path in paths.items():
                yield f"{size_name} {width}x{height}, {label} ({path})", label, \
                    server.url + path, page
        context.close()
