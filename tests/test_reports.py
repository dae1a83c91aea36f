"""The analysis commands: ``bags``, ``bids``, ``compare-rules``, ``report``, ``--svg``
and table economics. Each writes its data and figures; the data must equal the library's
tables for the same seed, and the figures must carry the expected titles, axes and series."""

from __future__ import annotations

import io
import math
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest
import tomli_w
from clirun import assert_ok, assert_one_line_error, invoke

from spades_sim import simulate_hands
from spades_sim.analysis.bids import bid_profiles
from spades_sim.analysis.compare import compare_strategies
from spades_sim.analysis.league import play_league
from spades_sim.analysis.metrics import (
    bid_minus_tricks,
    bid_profile,
    compare_game_frames,
    economics,
    hand_metrics,
)
from spades_sim.analysis.report import (
    DEFAULT_STUDY,
    EDGE_KEYS,
    EDGE_POOLED,
    Study,
    StudyError,
    load_study,
    run_study,
)
from spades_sim.analysis.variants import (
    BAG_RULES,
    BAGS_FIGURE_METRICS,
    RULES_FIGURE_METRICS,
    bag_variants,
    compare_rules,
    leave_out_unplayed,
    per_side,
)
from spades_sim.rules import load_preset
from spades_sim.run.catalogue import METRICS, TABLE_COLUMNS, select
from spades_sim.run.simulate import simulate_games

COMPARE_COLUMNS = ["run", *TABLE_COLUMNS, "difference", "diff_low", "diff_high"]


def _svg_text(path: Path) -> str:
    """The text of a matplotlib SVG (its labels are kept as comments beside the glyphs)."""
    return path.read_text()


def test_identical_rule_sets_show_no_difference() -> None:
    """The same rules twice, same seed: the same games, so every difference is exactly 0 with
    an interval of zero width, and both columns agree value for value."""
    result = compare_rules(["standard", "standard"], ["expert", "basic"], 150, seed=4)
    assert result.labels == ["standard", "standard (2)"]
    table = result.table
    assert (table["difference"].dropna() == 0).all()
    assert (table["diff_low"].dropna() == 0).all() and (table["diff_high"].dropna() == 0).all()
    first, second = (table[table["run"] == label].reset_index(drop=True) for label in result.labels)
    pd.testing.assert_frame_equal(first.drop(columns="run"), second.drop(columns="run"))


def test_rule_sets_that_differ_show_a_difference() -> None:
    """No bag penalty against 10 bags -100 on the same deals: penalty points per game fall to
    exactly 0, and the paired interval of the difference excludes 0."""
    rules, labels = bag_variants(load_preset("standard"), ["10:100", "10:0"])
    assert labels == ["10 bags -100", "no bag penalty"]
    result = compare_rules(rules, "expert", 200, seed=4, labels=labels)
    row = select(result.table, "penalty_per_game").set_index("run").loc["no bag penalty"]
    assert row["value"] == 0
    assert row["diff_high"] < 0


def test_compare_rules_command_writes_table_data_and_figures(tmp_path: Path) -> None:
    data, figure = tmp_path / "rules.csv", tmp_path / "rules.png"
    result = invoke(["compare-rules", "standard", "classic", "--games", "120", "--seed", "3",
                     "--strategy", "expert", "--strategy", "basic", "--quiet", "--out", str(data),
                     "--figure", str(figure), "--svg"])
    assert_ok(result)
    lines = result.output.splitlines()
    assert lines[0] == ("rules standard, classic, strategy expert vs basic, seed 3: 120 games "
                        "under each of 2 rule sets")
    assert lines[-3:] == [f"wrote {figure}", f"wrote {tmp_path / 'rules.svg'}", f"wrote {data}"]
    written = pd.read_csv(data)
    assert list(written.columns) == COMPARE_COLUMNS
    frames = {label: simulate_games(label, ["expert", "basic"], 120, seed=3,
                                    keep_records=True).records()
              for label in ("standard", "classic")}
    pd.testing.assert_frame_equal(written, compare_game_frames(frames), check_dtype=False)
    # Classic has no nil: its nil success is "-" in the table, NaN in the data.
    assert math.isnan(select(written, "nil_success").set_index("run").loc["classic", "value"])
    assert figure.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    svg = _svg_text(tmp_path / "rules.svg")
    panels = [METRICS[key].label for key, _ in RULES_FIGURE_METRICS]
    for label in (*panels, "standard", "classic", "95% interval", "n/a",
                  "minus standard (percentage points)", "minus standard (hands)"):
        assert label in svg, label


def test_bags_command_compares_bag_rules_on_the_same_deals(tmp_path: Path) -> None:
    data, figure = tmp_path / "bags.parquet", tmp_path / "bags.svg"
    result = invoke(["bags", "--games", "150", "--seed", "5", "--quiet", "--out", str(data),
                     "--figure", str(figure)])
    assert_ok(result)
    assert result.output.splitlines()[0] == (
        "rules standard by bag rule, strategy expert, seed 5: 150 games under each of 4 rule sets")
    written = pd.read_parquet(data)
    labels = ["10 bags -100", "5 bags -50", "1 bag -10", "no bag penalty"]
    assert list(dict.fromkeys(written["run"])) == labels
    variants, _ = bag_variants(load_preset("standard"), BAG_RULES)
    assert [(r.bag_limit, r.bag_penalty) for r in variants] == [(10, 100), (5, 50), (1, 10),
                                                                 (10, 0)]
    expected = compare_rules(variants, "expert", 150, seed=5, labels=labels).table
    pd.testing.assert_frame_equal(written, expected, check_dtype=False)
    penalty = select(written, "penalty_per_game").set_index("run")
    # Every bag is worth 10 points under "1 bag -10": at least as costly as 10 bags -100.
    assert penalty.loc["1 bag -10", "value"] >= penalty.loc["10 bags -100", "value"]
    assert penalty.loc["no bag penalty", "value"] == 0
    svg = _svg_text(figure)
    for label in (*[METRICS[key].label for key, _ in BAGS_FIGURE_METRICS], *labels):
        assert label in svg, label


def test_bids_command_profiles_each_strategy(tmp_path: Path) -> None:
    data = tmp_path / "bids.csv"
    figure = tmp_path / "bids.png"
    result = invoke(["bids", "expert", "nil-happy", "--against", "basic", "--hands", "2000",
                     "--seed", "6", "--quiet", "--out", str(data), "--figure", str(figure),
                     "--svg"])
    assert_ok(result)
    written = pd.read_csv(data, keep_default_na=False, na_values=[""])
    assert list(written.columns) == ["table", "strategy", "key", "value", "low", "high", "n"]
    assert set(written["table"]) == {"metric", "bid profile", "bid minus tricks"}
    expected = bid_profiles("standard", ["expert", "nil-happy"], "basic", 2000, seed=6)
    profile = written[written["table"] == "bid profile"]
    for name in ("expert", "nil-happy"):
        mine = profile[profile["strategy"] == name]
        assert mine["n"].sum() == 2 * 2000  # side 0's two seats bid in every hand
        assert mine["value"].sum() == pytest.approx(1.0)
        assert mine["key"].tolist() == expected.profile[
            expected.profile["strategy"] == name]["bid"].tolist()
    metrics = written[written["table"] == "metric"].set_index(["strategy", "key"])
    nil_rate = metrics.loc[("nil-happy", "nil_bid_rate"), "value"]
    assert nil_rate > metrics.loc[("expert", "nil_bid_rate"), "value"]
    assert nil_rate == pytest.approx(expected.metrics.set_index(["strategy", "key"]).loc[
        ("nil-happy", "nil_bid_rate"), "value"])
    svg = _svg_text(tmp_path / "bids.svg")
    for label in ("bidding profile", "bid minus tricks", "share of seat-hands (%)", "expert",
                  "nil-happy", "95% intervals"):
        assert label in svg, label


@pytest.mark.parametrize("rules", ["standard", "three-player"])
def test_bid_profiles_match_the_whole_records(rules: str) -> None:
    # bid_profiles takes the metrics from the run's totals and the profiles from a few record
    # columns (a report's memory): the tables must be those of the whole records.
    profiles = bid_profiles(rules, ["expert", "nil-happy"], "basic", 600, seed=4)
    for name in ("expert", "nil-happy"):
        run = simulate_hands(rules, [name, "basic"], 600, seed=4, keep_records=True)
        frame = run.records()
        own = frame[frame["side"] == 0]
        for table, expected in ((profiles.metrics, hand_metrics(frame, side=0)),
                                (profiles.profile, bid_profile(own)),
                                (profiles.errors, bid_minus_tricks(own))):
            mine = table[table["strategy"] == name].drop(columns="strategy")
            pd.testing.assert_frame_equal(mine.reset_index(drop=True), expected)


@pytest.mark.parametrize(("args", "message"), [
    (["compare-rules", "standard", "nosuch"], "rules='nosuch': allowed"),
    (["compare-rules", "standard", "--games", "0"], "games=0: allowed 1 to 1,000,000,000"),
    (["compare-rules", "standard", "three-player"],
     "mode='three-player': allowed the table of standard (4 seats, 2 sides) for every rule set"),
    (["compare-rules", "standard", "--out", "x.txt"], "out='x.txt': allowed a file ending in"),
    (["bags", "--bag-rule", "5-50"], "bag-rule='5-50': allowed LIMIT:PENALTY"),
    (["bags", "--bag-rule", "0:50"], "bag_limit=0: allowed"),
    (["bags", "--figure", "b.jpg"], "figure='b.jpg': allowed a file ending in .png or .svg"),
    (["bids", "nosuch"], "strategy='nosuch': allowed"),
    (["bids", "--against", "nosuch"], "strategy='nosuch': allowed"),
    (["bids", "--hands", "-3"], "hands=-3: allowed 1 to 10,000,000,000"),
    (["compare-strategies", "expert", "basic", "--rake", "15%"],
     "rake='15%': allowed only together with --buy-in"),
    (["compare-strategies", "expert", "basic", "--buy-in", "100", "--rake", "150%"],
     "rake='150%': allowed a share of the buy-in from 0 to under 1, e.g. 15% or 0.15"),
    (["compare-strategies", "expert", "basic", "--buy-in", "0"],
     "buy-in=0.0: allowed a positive amount up to 1,000,000,000"),
    (["simulate", "--hands", "10", "--buy-in", "10"],
     "buy-in=10: allowed only together with --games N"),
])
def test_bad_input_is_one_line(args: list[str], message: str) -> None:
    assert_one_line_error(invoke([*args, "--quiet"] if args[0] != "simulate" else args), message,
                          prefix_only=True)


def test_compare_strategies_economics(tmp_path: Path) -> None:
    """Expected profit per game from the duplicate results: buy-in 100, rake 15%, so a winner
    gets 170 and breaks even at 100/170 = 58.82%."""
    result = invoke(["compare-strategies", "expert", "basic", "--games", "150", "--seed", "8",
                     "--quiet", "--buy-in", "100", "--rake", "15%",
                     "--figure", str(tmp_path / "c.png"), "--svg"])
    assert_ok(result)
    svg = _svg_text(tmp_path / "c.svg")
    for label in ("expert", "basic", "paired 95% interval", "even (50%)",
                  "win share in duplicate (win 1, unfinished ½)", "standard: 150 deal sequences",
                  "break-even win rate 58.82%", "A − B (points)"):
        assert label in svg, label
    lines = result.output.splitlines()
    start = lines.index("table economics: buy-in 100.00, rake 15% (not in the pool); a winning "
                        "player gets 170.00")
    comparison = compare_strategies("standard", "expert", "basic", 150, seed=8)
    money = comparison.economics(100, 0.15)
    for line, row in zip(lines[start + 1:start + 3], money.itertuples(index=False)):
        assert line.split() == [row.label, "win", "rate", f"{100 * row.win_rate:.2f}%",
                                "expected", "profit", "per", "game", f"{row.profit:+.2f}",
                                f"[{row.low:+.2f},", f"{row.high:+.2f}]", "break-even", "win",
                                "rate", "58.82%"]
    # No unfinished games here, so each game pays 170 or nothing: the profits are 170 × win
    # rate − 100, and the two strategies' win rates add up to 1.
    assert money["win_rate"].sum() == pytest.approx(1.0)
    assert money["profit"].tolist() == pytest.approx((170 * money["win_rate"] - 100).tolist())


def test_simulate_economics_in_solo() -> None:
    """Solo: the second place gets its 85 back, so the winner gets 4 × 85 − 85 = 255."""
    result = invoke(["simulate", "--rules", "solo", "--games", "200", "--seed", "9", "--quiet",
                     "--buy-in", "100"])
    assert_ok(result)
    lines = result.output.splitlines()
    start = lines.index("table economics: buy-in 100.00, rake 15% (not in the pool); a winning "
                        "player gets 255.00, the second 85.00")
    games = simulate_games("solo", "expert", 200, seed=9, keep_records=True).records()
    expected = economics(games, 100, 0.15, 4)
    for line, row in zip(lines[start + 1:], expected.itertuples(index=False)):
        assert line.startswith(f"  side {row.side} (seat {row.side}, expert)")
        assert f"{row.profit:+.2f} [{row.low:+.2f}, {row.high:+.2f}]" in line
        assert line.endswith(f"break-even win rate {100 * row.break_even:.2f}%")
    # The house keeps 15 of every 100 paid in: the four seats' profits add up to -60 a game.
    assert expected["profit"].sum() == pytest.approx(-60)


def test_nil_command_svg_beside_png(tmp_path: Path) -> None:
    figure = tmp_path / "n.png"
    result = invoke(["nil", "--hands", "500", "--seed", "1", "--quiet", "--figure", str(figure),
                     "--svg"])
    assert_ok(result)
    assert result.output.splitlines()[-2:] == [f"wrote {figure}", f"wrote {tmp_path / 'n.svg'}"]
    assert (tmp_path / "n.svg").read_text().startswith("<?xml")


SMALL_STUDY = """
name = "small"
title = "A small study"
seed = 2
games = 60
self_play_games = 40
pairs = 40
hands = 2000
rules = ["standard", "classic"]
bag_rules = ["10:100", "5:50"]
strategies = ["expert", "basic", "conservative"]
anchor = "basic"
buy_in = 50
rake = 0.1
"""


def test_report_writes_an_offline_page_with_every_figure_and_table(tmp_path: Path) -> None:
    config = tmp_path / "study.toml"
    config.write_text(SMALL_STUDY)
    result = invoke(["report", "--config", str(config), "--out-dir", str(tmp_path)])
    assert_ok(result)
    folder = tmp_path / "small"
    assert result.output.splitlines()[-1] == f"wrote {folder / 'index.html'} (19 files)"
    assert result.stdout == ""  # a report prints status lines only, on stderr
    page = (folder / "index.html").read_text()
    assert "<h1>A small study</h1>" in page
    # Offline: nothing is fetched from elsewhere; every image is a file in the folder.
    assert not re.search(r"(src|href)=\"(https?:|//)", page)
    images = re.findall(r'<img src="([^"]+)"', page)
    assert images == ["rules-self-play.png", "rules.png", "bags-self-play.png", "bags.png",
                      "league.png", "strategies.png", "bids.png", "nil.png"]
    for name in images:
        assert (folder / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # A table of contents links every section's heading.
    anchors = {"rule-variants": "Rule variants", "bag-rules": "Bag rules",
               "strategies": "Strategies", "bidding": "Bidding", "nil": "Nil"}
    for anchor, heading in anchors.items():
        assert f'<li><a href="#{anchor}">{heading}</a></li>' in page
        assert f'<h2 id="{anchor}">{heading}</h2>' in page
    # The data beside the page equal the library's tables for the study's seed: the edge of
    # expert over basic per side (no row pools the two), classic's nil rows left out.
    rules = pd.read_csv(folder / "rules.csv")
    compared = compare_rules(["standard", "classic"], ["expert", "basic"], 60, seed=2)
    expected, unplayed = leave_out_unplayed(
        per_side(compared, ["expert", "basic"], EDGE_POOLED, EDGE_KEYS), compared.rules,
        compared.labels)
    pd.testing.assert_frame_equal(rules, expected, check_dtype=False)
    assert set(rules[rules["side"].isna()]["key"]) == set(EDGE_POOLED)
    assert "nil_bid_rate" in unplayed["classic"]
    classic_nil = rules[(rules["run"] == "classic") & (rules["key"] == "nil_bid_rate")]
    assert len(classic_nil) == 2 and classic_nil["value"].isna().all()
    assert "Not played under these rules (left out): classic: nil bids per seat-hand" in page
    # The game for equal players: expert at every seat, with the comebacks.
    equal = pd.read_csv(folder / "rules-self-play.csv")
    assert list(dict.fromkeys(equal["run"])) == ["standard", "classic"]
    assert "comebacks" in set(equal["key"]) and "hands_per_game" in set(equal["key"])
    matches = pd.read_csv(folder / "strategies.csv")
    assert len(matches) == 6  # three pairs, each seen from both sides
    pair = compare_strategies("standard", "expert", "conservative", 40, seed=2)
    row = matches[(matches["strategy"] == "expert") & (matches["opponent"] == "conservative")]
    assert row["win_share"].item() == pytest.approx(float(pair.share.mean()))
    assert row["profit"].item() == pytest.approx(pair.economics(50, 0.10)["profit"][0])
    # The strategies section is a league: its ratings are the library's, anchored at basic.
    ratings = pd.read_csv(folder / "ratings.csv")
    league = play_league("standard", ["expert", "basic", "conservative"], 40, seed=2,
                         anchor="basic")
    pd.testing.assert_frame_equal(ratings, league.rating_table(), check_dtype=False)
    assert ratings.set_index("name").loc["basic", "elo"] == 0
    assert "Ratings (Elo, Bradley–Terry)" in page
    money = pd.read_csv(folder / "economics.csv")
    # Buy-in 50, rake 10%: a winner gets 2 × 45 = 90, break-even 50/90.
    assert money["break_even"].tolist() == pytest.approx([50 / 90] * 3)
    assert "the break-even win rate is 55.56%" in page
    # Every table links its data, and every linked file is beside the page.
    links = [link for link in re.findall(r'<a href="([^"]+)"', page)
             if not link.startswith("#")]  # the table of contents, checked above
    assert {"rules.csv", "bags.csv", "rules-self-play.csv", "bags-self-play.csv", "ratings.csv",
            "strategies.csv", "economics.csv", "bids.csv", "nil.csv", "study.toml"} == set(links)
    assert all((folder / name).is_file() for name in links)
    # The study beside the page is the study that ran.
    assert load_study(folder / "study.toml") == load_study(config)


def test_report_runs_from_any_folder_and_makes_its_folder(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """In a fresh folder, with an output folder that does not exist yet; a rules file named
    relative to where the study was started is written into study.toml by its full path."""
    monkeypatch.chdir(tmp_path)
    Path("house.toml").write_text(tomli_w.dumps({"name": "house", "nil_value": 50}))
    Path("study.toml").write_text(tomli_w.dumps({
        "name": "fresh", "rules": ["standard", "house.toml"], "bag_rules": ["10:100"],
        "strategies": ["basic", "random"], "strategy": "basic", "opponent": "random",
        "games": 4, "self_play_games": 4, "pairs": 3, "hands": 400}))
    result = invoke(["report", "--config", "study.toml", "--out-dir", "out/deeper"])
    assert_ok(result)
    folder = tmp_path / "out" / "deeper" / "fresh"
    assert (folder / "index.html").is_file()
    again = load_study(folder / "study.toml")
    assert again.rules == ("standard", str(tmp_path / "house.toml"))
    monkeypatch.chdir(folder)  # the written study runs from its own folder
    assert_ok(invoke(["report", "--config", "study.toml", "--out-dir", "again"]))


HOSTILE = '<script>alert(1)</script>"><img src=x onerror=alert(1)> $x$ $\\frac$'
"""Markup that must stay text on the page, and mathtext that must stay text in the figures
(``$\\frac$`` alone cannot be typeset: drawn as mathematics it stops the figure)."""


class _Tags(HTMLParser):
    """The tags and attributes of a page, as a browser would read them."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))


def test_report_escapes_every_text_a_study_sets(tmp_path: Path) -> None:
    """A study and a rules file with markup in every text they can set: the page holds it
    as text only (no tag or attribute of it), and every figure is drawn."""
    rules_file = tmp_path / '"><img src=x onerror=alert(1)>.toml'
    rules_file.write_text(tomli_w.dumps({"name": HOSTILE, "description": HOSTILE}),
                          encoding="utf-8")
    config = tmp_path / "study.toml"
    config.write_text(tomli_w.dumps({
        "name": '"><img src=x onerror=alert(1)> $x$', "title": HOSTILE, "seed": 3,
        "rules": [str(rules_file), "classic"], "bag_rules": ["10:100"],
        "strategies": ["basic", "random"], "strategy": "basic", "opponent": "random",
        "games": 2, "self_play_games": 2, "pairs": 2, "hands": 500}), encoding="utf-8")
    result = invoke(["report", "--config", str(config), "--out-dir", str(tmp_path)])
    assert_ok(result)
    folder = tmp_path / '"><img src=x onerror=alert(1)> $x$'
    pages = list(folder.glob("*.html"))
    assert [page.name for page in pages] == ["index.html"]
    page = pages[0].read_text(encoding="utf-8")
    parser = _Tags()
    parser.feed(page)
    figures = ["rules-self-play.png", "rules.png", "bags-self-play.png", "bags.png", "league.png",
               "strategies.png", "bids.png", "nil.png"]
    assert [dict(attrs)["src"] for tag, attrs in parser.tags if tag == "img"] == figures
    assert "script" not in {tag for tag, _ in parser.tags}
    assert not [name for _, attrs in parser.tags for name, _ in attrs if name.startswith("on")]
    assert "<script" not in page.lower() and "<img src=x" not in page
    escaped = "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"
    assert page.count(escaped) >= 5  # title twice, rule set names in the section texts
    assert "$x$ $\\frac$" in page
    for name in figures:
        assert (folder / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_report_keeps_a_reproducible_page(tmp_path: Path) -> None:
    """Same study, same seed: the same page and data, word for word."""
    study = Study(name="again", games=30, self_play_games=20, pairs=20, hands=1000, rules=("standard",),
                  bag_rules=("10:100",), strategies=("expert", "basic"))
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
    first, second = run_study(study, tmp_path / "a"), run_study(study, tmp_path / "b")
    for path in first.files:
        twin = second.folder / path.name
        if path.suffix in (".html", ".csv"):
            assert path.read_text() == twin.read_text(), path.name


@pytest.mark.parametrize(("text", "message"), [
    ("colour = 'red'", "unknown key 'colour': allowed a study field: "),
    ("games = 'many'", "games='many': allowed a whole number"),
    ("games = 0", "games=0: allowed a whole number from 1 to 1000000000"),
    ("seed = -1", "seed=-1: allowed a whole number from 0 to 9223372036854775807"),
    ("rules = ['standard', 'solo']", "mode='solo': allowed the table of standard"),
    ("strategies = ['expert']", "strategies=['expert']: allowed two or more"),
    ("strategies = ['expert', 'wild']", "strategy='wild': allowed"),
    ("rules = ['standard', 'nosuch']", "rules='nosuch': allowed"),
    ("bag_rules = ['5:x']", "bag-rule='5:x': allowed LIMIT:PENALTY"),
    ("rake = '1.5'", "rake='1.5': allowed a share of the buy-in"),
    ("nil_feature = 'clubs'", "nil_feature='clubs': allowed spades"),
    ("name = '../up'", "name='../up': allowed a folder name (no slashes)"),
    ("games = [", "config="),
])
def test_bad_study_files_are_refused_in_one_line(tmp_path: Path, text: str, message: str) -> None:
    config = tmp_path / "study.toml"
    config.write_text(text + "\n")
    assert_one_line_error(invoke(["report", "--config", str(config), "--out-dir", str(tmp_path)]),
                          message, prefix_only=True)


def test_report_refuses_an_output_folder_it_cannot_make(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    assert_one_line_error(invoke(["report", "--out-dir", str(tmp_path / "file" / "under")]),
                          f"out-dir={str(tmp_path / 'file' / 'under')!r}: allowed a folder "
                          f"({tmp_path / 'file'} is a file)")
    assert not (tmp_path / "file").is_dir()


@pytest.fixture
def preset_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working folder with a file named after each preset the default study plays."""
    monkeypatch.chdir(tmp_path)
    for name in DEFAULT_STUDY.rules:
        (tmp_path / name).write_text("x\n")
    return tmp_path


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["rules", "list"],
                                  ["strategies", "list"], ["report", "--help"]])
def test_a_file_named_like_a_preset_breaks_no_command(preset_files: Path,
                                                      args: list[str]) -> None:
    """Importing the package reads nothing in the working folder: a fresh process (the
    default study is made at import) starts, answers and exits 0."""
    result = subprocess.run([sys.executable, "-m", "spades_sim", *args], cwd=preset_files,
                            capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr and result.stdout
    assert sorted(path.name for path in preset_files.iterdir()) == sorted(DEFAULT_STUDY.rules)


def test_the_default_study_plays_its_presets_whatever_the_folder_holds(
        preset_files: Path) -> None:
    """The default study's words are presets (the user named no file), so are those of a study
    file that does not set ``rules``; a study file that names a preset beside a file of that
    name is refused as ambiguous, as on the command line."""
    rule_sets, labels = DEFAULT_STUDY.rule_sets()
    assert rule_sets == [load_preset(name) for name in DEFAULT_STUDY.rules]
    assert labels == [rules.name for rules in rule_sets]
    assert DEFAULT_STUDY.baseline() == load_preset("standard")
    (preset_files / "games.toml").write_text("games = 10\n")
    assert load_study("games.toml").rule_sets() == (rule_sets, labels)
    (preset_files / "named.toml").write_text("rules = ['standard']\n")
    with pytest.raises(StudyError, match=r"^rules='standard': allowed './standard' for the file"):
        load_study("named.toml")
    # report with the default study gets past every rule set to the next check, and stops
    # there before its first line: nothing written, the files untouched.
    assert_one_line_error(invoke(["report", "--threads", "1000000"]),
                          "threads=1000000: allowed 1 to", prefix_only=True)
    assert sorted(path.name for path in preset_files.iterdir()) == sorted(
        [*DEFAULT_STUDY.rules, "games.toml", "named.toml"])
    assert all((preset_files / name).read_text() == "x\n" for name in DEFAULT_STUDY.rules)


@pytest.mark.parametrize(("args", "files", "message"), [
    (["report", "--threads", "1000000"], {}, "threads=1000000: allowed 1 to"),
    (["report", "--config", "study.toml"],
     {"study.toml": 'name = "d"\nvariants = ["a:nil_value=50", "a:nil_value=60"]\n'},
     "labels='a': allowed a different label for each rule set"),
    (["report", "--config", "study.toml", "--variant", "classic:target=300"],
     {"study.toml": 'name = "d"\nrules = ["standard", "classic"]\n'},
     "labels='classic': allowed a different label for each rule set"),
    (["report", "--config", "study.toml", "--out-dir", "out"],
     {"study.toml": 'title = "two\\nlines"\n'}, "title='two\\nlines': allowed printable text"),
])
def test_report_checks_everything_before_its_first_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str],
        files: dict[str, str], message: str) -> None:
    """Refused before the study's first status line: one line on stdout and stderr together,
    exit 2, and no study.toml or report folder left behind."""
    monkeypatch.chdir(tmp_path)
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    assert_one_line_error(invoke(args), message, prefix_only=True)
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(files)


def test_the_committed_example_is_the_default_study() -> None:
    """reports/default/ (regenerated by scripts/example_report.py) was written by the default
    study: its settings table lists the default's values."""
    example = Path(__file__).resolve().parent.parent / "reports" / "default" / "index.html"
    page = example.read_text()
    for name in ("seed", "games", "pairs", "hands", "strategy", "opponent"):
        assert f"<tr><th>{name}</th><td>{getattr(DEFAULT_STUDY, name)}</td></tr>" in page, name
    assert f"<tr><th>rules</th><td>{', '.join(DEFAULT_STUDY.rules)}</td></tr>" in page


def test_interrupted_rule_comparison_keeps_the_games_every_rule_set_finished(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C in the second rule set's third block: both keep their first 100 games."""
    from spades_sim.run import simulate

    monkeypatch.setattr(simulate, "BLOCK_GAMES", 50)
    calls = []

    def stop(count: int) -> None:
        calls.append(count)
        if len(calls) == 6:  # 4 blocks of standard, then 2 of classic
            raise KeyboardInterrupt

    result = compare_rules(["standard", "classic"], "expert", 200, seed=11, on_block=stop)
    assert result.interrupted and result.games == 100
    full = compare_rules(["standard", "classic"], "expert", 100, seed=11)
    pd.testing.assert_frame_equal(result.table, full.table)


def test_interrupted_report_writes_the_sections_it_finished(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from spades_sim.analysis import report

    def interrupted(*_args):
        raise KeyboardInterrupt

    monkeypatch.setattr(report, "_bags_section", interrupted)
    study = Study(name="cut", games=30, self_play_games=20, rules=("standard",), bag_rules=("10:100",))
    written = run_study(study, tmp_path)
    assert written.interrupted
    page = written.index.read_text()
    assert "Interrupted: only the sections below were finished." in page
    assert '<h2 id="rule-variants">Rule variants</h2>' in page and "Bag rules" not in page
    assert [path.name for path in written.files] == ["index.html", "study.toml",
                                                     "rules-self-play.png", "rules.png",
                                                     "rules-self-play.csv", "rules.csv"]


def test_compare_rules_takes_overrides_per_rule_set_and_variants() -> None:
    """``--rule classic:target=300`` changes classic only, ``--rule nil_value=50`` every rule set,
    and a ``--variant`` is the first rule set (as the overrides for all leave it) with its own
    changes: the table is the library's for those rule sets."""
    result = invoke(["compare-rules", "standard", "classic", "--rule", "classic:target=300",
                     "--rule", "nil_value=50", "--variant", "late:blind_nil=off",
                     "--games", "40", "--seed", "8", "--quiet", "--no-figure",
                     "--format", "csv"])
    assert_ok(result)
    written = pd.read_csv(io.StringIO(result.stdout))
    labels = ["standard", "classic target=300", "late"]
    assert list(dict.fromkeys(written["run"])) == labels
    standard = load_preset("standard").replace(nil_value=50)
    rule_sets = [standard, load_preset("classic").replace(nil_value=50, target=300),
                 standard.replace(blind_nil="off")]
    expected = compare_rules(rule_sets, "expert", 40, seed=8, labels=labels).table
    pd.testing.assert_frame_equal(written, expected, check_dtype=False)


def test_compare_rules_prints_the_house_rake_beside_each_side() -> None:
    """Buy-in 100, rake 15%: the house takes 4 × 15 = 60 a game under every rule set, and 60
    over the hands a game lasts under each."""
    result = invoke(["compare-rules", "standard", "classic", "--games", "30", "--seed", "2",
                     "--quiet", "--no-figure", "--buy-in", "100"])
    assert_ok(result)
    comparison = compare_rules(["standard", "classic"], "expert", 30, seed=2)
    table = comparison.economics(100, 0.15)
    lines = result.stdout.splitlines()
    start = lines.index("table economics: buy-in 100.00, rake 15% (not in the pool); a winning "
                        "player gets 170.00")
    for label in ("standard", "classic"):
        hands = comparison.frames[label]["hands"].mean()
        line = f"  {label}: the house takes 60.00 a game, {60 / hands:,.2f} a hand"
        assert line in lines[start:], line
        rows = table[table["run"] == label]
        assert rows["profit"].sum() == pytest.approx(-30)  # a player of each side: 15 rake each
    assert (table["rake_per_game"] == 60).all()


def test_the_nil_section_names_the_top_spade_as_a_card() -> None:
    """By the top spade held, the nil sentences name cards (none, 2S … AS), not ranks -1 … 12."""
    import pandas as pd

    from spades_sim.analysis.report import _nil_findings
    from spades_sim.rules import RuleSet

    table = pd.DataFrame({"top_spade": [-1, 5, 12], "seat_hands": [400, 400, 400],
                          "bids": [200, 60, 40], "bid_rate": [0.5, 0.15, 0.1],
                          "bid_low": [0.45, 0.12, 0.07], "bid_high": [0.55, 0.18, 0.13],
                          "success": [0.9, 0.7, 0.2], "low": [0.85, 0.6, 0.1],
                          "high": [0.94, 0.8, 0.35]})
    first, last = (finding.text for finding in _nil_findings(table, "top_spade", "expert",
                                                               RuleSet()))
    assert first.startswith("expert bids nil most often with no trump: on 50.0% [45.0, 55.0]")
    assert last.startswith("Its lowest measured nil rate is with AS as the highest trump: 10.0%")
