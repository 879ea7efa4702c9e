"""Rule cards: the catalogue entry of each rule ID a view cites, ready to show in the page.

A learner reading "discarded (EXP-23)" in a widget can open EXP-23's entry where it stands, in
JupyterLab, under Voila and offline alike: the entries come from the copy of ``docs/rules.md``
shipped in the package (``static/rules.md`` links to it), not from a URL that one of those cannot
reach. An entry is its heading and its paragraphs in HTML; the IBM pages its "Sources:" line names
link to IBM Documentation where the catalogue's source table gives a link. Only the small inline
Markdown the catalogue uses is rendered (code, bold, italics, links); everything else is escaped.
"""

from __future__ import annotations

import html
import re
from functools import cache
from importlib.resources import files

from mqlearn.rules import RULE_ID_PATTERN, RULE_IDS, rule_heading

_CATALOGUE = files("mqlearn.viz").joinpath("static", "rules.md")
_HEADING = re.compile(r"^### ((?:[A-Z]+)-[0-9]{2}) — ", re.MULTILINE)
_ANCHOR = re.compile(r'<a id="[a-z]+-[0-9]{2}"></a>')  # the next rule's anchor, not a paragraph
_SOURCE_ROW = re.compile(r"^\| (.+?) \| (https://\S+) \|$", re.MULTILINE)
_QUOTED = re.compile(r'"([^"]+)"')
_INLINE = re.compile(r"`([^`]+)`|\*\*(.+?)\*\*|\*(.+?)\*|\[([^\]]+)\]\(([^)\s]+)\)")


def cited_rules(*texts: str) -> list[str]:
    """The rule IDs the catalogue defines that ``texts`` cite, in order of first appearance."""
    seen: dict[str, None] = {}
    for text in texts:
        for found in RULE_ID_PATTERN.finditer(text):
            if found.group() in RULE_IDS:
                seen.setdefault(found.group())
    return list(seen)


def rule_cards(*texts: str) -> dict[str, dict[str, str]]:
    """``{rule ID: {"heading", "html"}}`` for every rule ``texts`` cite (what a view sends along
    with its text, so a click on an ID shows the entry without a round trip to the kernel)."""
    return {
        rule: {"heading": rule_heading(rule), "html": entry_html(rule)}
        for rule in cited_rules(*texts)
    }


@cache
def entry_html(rule_id: str) -> str:
    """The body of the rule's entry (below its heading) as HTML paragraphs."""
    rule_heading(rule_id)  # a ValueError naming a malformed or unknown ID
    body = _entries()[rule_id]
    return "".join(f"<p>{_paragraph(p)}</p>" for p in body)


@cache
def _catalogue() -> str:
    """The shipped catalogue's text, read once."""
    return _CATALOGUE.read_text(encoding="utf-8")


@cache
def _entries() -> dict[str, list[str]]:
    """Rule ID → its paragraphs (Markdown, lines joined)."""
    text = _catalogue()
    starts = list(_HEADING.finditer(text))
    out: dict[str, list[str]] = {}
    for here, after in zip(starts, [*starts[1:], None], strict=True):
        block = text[here.end() : after.start() if after else len(text)]
        block = block.split("\n## ", 1)[0]  # the last entry of a section ends at the next section
        paragraphs = [" ".join(p.split()) for p in block.split("\n\n")[1:]]
        out[here.group(1)] = [p for p in paragraphs if p and not _ANCHOR.fullmatch(p)]
    return out


@cache
def _source_links() -> dict[str, str]:
    """IBM page title → its link, from the catalogue's source table."""
    return {
        html.escape(title, quote=False): url for title, url in _SOURCE_ROW.findall(_catalogue())
    }


def _paragraph(markdown: str) -> str:
    out = html.escape(markdown, quote=False)
    if markdown.startswith("Sources:"):
        out = _QUOTED.sub(_source, out)
    return _INLINE.sub(_inline, out)


def _inline(found: re.Match[str]) -> str:
    code, bold, italic, label, target = found.groups()
    if code is not None:
        return f"<code>{code}</code>"
    if bold is not None:
        return f"<b>{bold}</b>"
    if italic is not None:
        return f"<i>{italic}</i>"
    if target.startswith("https://"):
        return f'<a href="{target}" target="_blank" rel="noopener">{label}</a>'
    return label  # a link into the repository's docs: its text alone, the page is not served here


def _source(found: re.Match[str]) -> str:
    title = found.group(1)
    url = _source_links().get(title)
    if url is None:
        return f"“{title}”"
    return f'<a href="{url}" target="_blank" rel="noopener">“{title}”</a>'
