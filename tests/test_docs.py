"""The documents: links that resolve, no pointers outside the repository, and docs/rules.md's table
of rule fields against the code.

Links are Markdown links ``[text](path)`` in README.md and docs/*.md, outside code; a link to a
web address or to an anchor of the same page is not checked, and ``path#anchor`` checks the path.
The repository must carry its own specification, so README.md, docs/ and spades_sim/ may not
point at documents kept elsewhere, nor at issue numbers.
"""

from __future__ import annotations

import dataclasses
import enum
import re
from pathlib import Path

import pytest

from spades_sim.rules import RulesError, RuleSet, preset_names

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SCANNED = [*DOCUMENTS, *sorted((ROOT / "spades_sim").rglob("*.py")),
           *sorted((ROOT / "data" / "rules").glob("*.toml"))]

FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
ELSEWHERE = re.compile(r"RULES\.md|DESIGN\.md|STYLE\.md|research/variants\.md")
ISSUE = re.compile(r"\bissues?\s*#?\d+", re.IGNORECASE)


def links(text: str) -> list[str]:
    """The targets of the Markdown links in ``text``, leaving out fenced code and code spans.

    >>> links("[a](docs/x.md#top) `[b](no.md)` [c](https://example.org) [d](#here)")
    ['docs/x.md#top', 'https://example.org', '#here']
    """
    return LINK.findall(CODE_SPAN.sub("", FENCE.sub("", text)))


def broken_links(text: str, folder: Path) -> list[str]:
    """The links of a document in ``folder`` whose file is not in the repository."""
    broken = []
    for target in links(text):
        if re.match(r"[a-z][a-z0-9+.-]*:", target, re.IGNORECASE) or target.startswith("#"):
            continue  # a web address (or mail) or an anchor of this page
        path = target.split("#", 1)[0]
        resolved = (ROOT / path.lstrip("/") if path.startswith("/") else folder / path).resolve()
        if not resolved.exists() or not resolved.is_relative_to(ROOT):
            broken.append(target)
    return broken


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_points_at_a_file_in_the_repository(document: Path) -> None:
    assert broken_links(document.read_text(encoding="utf-8"), document.parent) == []


def test_the_readme_links_every_page_of_docs() -> None:
    linked = {target.split("#", 1)[0] for target in links(DOCUMENTS[0].read_text(encoding="utf-8"))}
    pages = {path.relative_to(ROOT).as_posix() for path in (ROOT / "docs").glob("*.md")}
    assert sorted(pages - linked) == []


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens.

    >>> slug("Tuning a strategy's parameters"), slug("Rules: presets, files and overrides")
    ('tuning-a-strategys-parameters', 'rules-presets-files-and-overrides')
    """
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_the_readme_links_anchors_that_exist() -> None:
    """The README's links into a section of a page (its own, or the tour's) name a heading there."""
    missing = []
    for target in links(DOCUMENTS[0].read_text(encoding="utf-8")):
        if "#" not in target or re.match(r"[a-z]+:", target):
            continue
        path, anchor = target.split("#", 1)
        page = (ROOT / path) if path else DOCUMENTS[0]
        text = FENCE.sub("", page.read_text(encoding="utf-8"))
        if anchor not in {slug(line.lstrip("#")) for line in text.splitlines()
                          if line.startswith("#")}:
            missing.append(target)
    assert missing == []


def test_the_readme_is_a_front_page() -> None:
    """The command tour is docs/commands.md; the README is read in ten minutes (about 15 KB)."""
    assert len(DOCUMENTS[0].read_bytes()) <= 15_500


def test_a_link_to_a_missing_file_is_found() -> None:
    text = "[rules](rules.md#sources) [gone](missing.md#x) [up](../../elsewhere.md) [web](http://x.org)"
    assert broken_links(text, ROOT / "docs") == ["missing.md#x", "../../elsewhere.md"]


@pytest.mark.parametrize("path", SCANNED, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_pointer_outside_the_repository(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    found = [(text.count("\n", 0, m.start()) + 1, m.group())
             for pattern in (ELSEWHERE, ISSUE) for m in pattern.finditer(text)]
    assert found == [], f"{path.relative_to(ROOT)}: (line, text) {found}"


# --- docs/rules.md "Every field at a glance" and "The presets" against spades_sim/rules.py ---

RULES_DOC = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
FIELDS = {spec.name: spec for spec in dataclasses.fields(RuleSet)}


def table_rows(heading: str) -> list[list[str]]:
    """The body rows of the first table under ``## heading`` of docs/rules.md, cell by cell."""
    section = RULES_DOC.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows[2:]]


FIELD_ROWS = {row[0].strip("`"): row for row in table_rows("Every field at a glance")}


def toml_spelling(value: object) -> str:
    """A default as the table writes it."""
    if value is None:
        return "off"
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    return f"`{value.value if isinstance(value, enum.Enum) else value}`"


def refused_for(name: str, value: int) -> bool:
    """Whether ``name=value`` is refused because of that field itself (not another one)."""
    try:
        RuleSet().replace(**{name: value})
    except RulesError as error:
        return error.field_name == name
    return False


def test_the_field_table_lists_every_field() -> None:
    assert sorted(FIELD_ROWS) == sorted(FIELDS)


@pytest.mark.parametrize("name", sorted(set(FIELDS) - {"description"}))
def test_the_field_table_gives_each_default(name: str) -> None:
    assert FIELD_ROWS[name][2] == toml_spelling(getattr(RuleSet(), name))


RANGED = sorted(name for name, spec in FIELDS.items()
                if spec.type in ("int", "int | None") or isinstance(spec.default, enum.Enum))
"""The fields whose allowed values the table gives as a range or a list of choices."""


@pytest.mark.parametrize("name", RANGED)
def test_the_field_table_gives_each_range(name: str) -> None:
    values = FIELD_ROWS[name][1]
    default = getattr(RuleSet(), name)
    if isinstance(default, enum.Enum):
        assert set(re.findall(r"`([^`]+)`", values)) == {member.value for member in type(default)}
        return
    bounds = re.search(r"(-?[\d,]+) to (?:(-?[\d,]+)|`target` − 1)", values)
    if bounds:
        low = int(bounds[1].replace(",", ""))
        high = int(bounds[2].replace(",", "")) if bounds[2] else RuleSet().target - 1
    else:
        choices = [int(text) for text in re.findall(r"`(-?\d+)`", values)]
        assert choices, f"{name}: no range (LOW to HIGH) and no choices in {values!r}"
        low, high = min(choices), max(choices)
    assert not refused_for(name, low) and not refused_for(name, high), values
    assert refused_for(name, low - 1) and refused_for(name, high + 1), values


def test_the_preset_table_lists_every_preset() -> None:
    assert sorted(row[0].strip("`") for row in table_rows("The presets")) == preset_names()


# --- docs/rules.md "Not modelled yet" against spades_sim/rules.py ---------------------------

NOT_MODELLED_ITEM = re.compile(r"^- \*\*([^*]+)\*\* \(`([a-z][a-z0-9_]*)`\): (.*?)(?=^- |\Z)",
                               re.MULTILINE | re.DOTALL)


def not_modelled() -> list[tuple[str, str, str]]:
    """docs/rules.md's list of house rules not modelled yet: (title, field name, text) each."""
    section = RULES_DOC.split("\n## Not modelled yet\n", 1)[1]
    return NOT_MODELLED_ITEM.findall(section)


def test_rules_md_ends_with_what_is_not_modelled() -> None:
    assert RULES_DOC.rsplit("\n## ", 1)[1].startswith("Not modelled yet\n")
    titles = [title for title, _, _ in not_modelled()]
    for rule in ("A spoiler seat",):
        assert rule in titles


@pytest.mark.parametrize(("title", "name", "text"), not_modelled(), ids=lambda value: value[:30])
def test_a_rule_not_modelled_is_no_rule_field_and_has_a_source(title: str, name: str,
                                                               text: str) -> None:
    assert name not in FIELDS, (f"{name} is a RuleSet field now: move '{title}' from docs/rules.md's"
                                " 'Not modelled yet' to its section and to the field table")
    with pytest.raises(RulesError, match=name):
        RuleSet().replace(**{name: 1})  # what a --rule naming it meets
    assert "Source" in text and re.search(r"\]\(https?://", text), f"{title}: no source"


def test_the_not_modelled_list_names_each_rule_once() -> None:
    names = [name for _, name, _ in not_modelled()]
    assert len(names) >= 5 and len(names) == len(set(names))
