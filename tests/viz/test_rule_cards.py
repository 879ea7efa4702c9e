"""Rule cards: the catalogue entry a widget shows when a learner clicks a rule ID it cites.

Expected texts are copied by hand from docs/rules.md and IBM's page links from its source table,
so a parser that drops, merges or mislinks paragraphs fails here.
"""

from __future__ import annotations

import fnmatch
import tomllib
from html.parser import HTMLParser
from importlib.resources import files
from pathlib import Path

import pytest

from mqlearn.rules import RULE_IDS
from mqlearn.viz.rule_cards import cited_rules, entry_html, rule_cards
from mqlearn.viz.text_view import TextView

UNDEFINED = "EXP-" + "99"  # well formed, in no catalogue (written so the catalogue test skips it)

ROOT = Path(__file__).resolve().parents[2]
EXPIRY_PAGE = "https://www.ibm.com/docs/en/SSFKSJ_9.2.0/com.ibm.mq.ref.dev.doc/q097490_.html"
CAPEXPRY_PAGE = "https://www.ibm.com/docs/SSFKSJ_9.4.0/administer/q097495_.html"


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parsed(markup: str) -> _Tags:
    found = _Tags()
    found.feed(markup)
    return found


def test_the_package_ships_the_catalogue_itself() -> None:
    shipped = files("mqlearn.viz").joinpath("static", "rules.md").read_text(encoding="utf-8")
    assert shipped == (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    package_data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"
    ]["mqlearn"]
    assert any(fnmatch.fnmatch("viz/static/rules.md", pattern) for pattern in package_data)


def test_exp22_card_has_its_paragraphs_code_and_ibm_link() -> None:
    card = parsed(entry_html("EXP-22"))
    text = "".join(card.text)
    assert text.startswith(
        "On a queue whose messages are delivered in FIFO order, a destructive get"
    )
    assert "behind the returned message, stay where they are." in text
    assert [tag for tag, _ in card.tags] == ["p", "code", "code", "p", "a"]
    assert card.tags[-1][1]["href"] == EXPIRY_PAGE
    assert "“MDEXP (10-digit signed integer)”" in text  # no link in the table: its title alone


def test_exp06_card_keeps_every_paragraph_and_links_its_own_page() -> None:
    card = parsed(entry_html("EXP-06"))
    text = "".join(card.text)
    assert text.startswith("An administrator can cap the lifetime of messages with the CAPEXPRY")
    assert "Profiles: CAPEXPRY first appeared in IBM MQ 8.0.0.4" in text
    assert CAPEXPRY_PAGE in [attrs.get("href") for tag, attrs in card.tags if tag == "a"]


def test_every_rule_has_a_card_made_of_safe_markup_only() -> None:
    for rule in RULE_IDS:
        card = parsed(entry_html(rule))
        assert card.tags and card.tags[0][0] == "p", rule
        assert {tag for tag, _ in card.tags} <= {"p", "code", "b", "i", "a"}, rule
        for tag, attrs in card.tags:
            if tag == "a":
                assert str(attrs["href"]).startswith("https://"), (rule, attrs)
        assert "Sources:" in "".join(card.text), rule
        assert "<a id=" not in "".join(card.text), rule  # the next entry's anchor is not text


def test_a_card_is_only_for_a_defined_rule() -> None:
    with pytest.raises(ValueError, match=f"unknown rule ID '{UNDEFINED}'"):
        entry_html(UNDEFINED)
    with pytest.raises(ValueError, match="malformed rule ID 'exp-22'"):
        entry_html("exp-22")


def test_cards_follow_the_text_in_order_and_skip_undefined_ids() -> None:
    text = f"discarded A (EXP-23); report for A (RPT-02); {UNDEFINED} is no rule; again EXP-23"
    assert cited_rules(text) == ["EXP-23", "RPT-02"]
    cards = rule_cards(text)
    assert list(cards) == ["EXP-23", "RPT-02"]
    assert cards["RPT-02"]["heading"] == "RPT-02 — The report is made at discard time"


def test_text_view_keeps_its_cards_in_step_with_its_text() -> None:
    view = TextView("MQPUT OK (CAPEXPRY lowered it to 50, rule EXP-06)")
    assert list(view.rules) == ["EXP-06"]
    view.value = "MQGET failed: 2033 (EXP-26)"
    assert list(view.rules) == ["EXP-26"]
    view.value = "(no call yet)"
    assert view.rules == {}
