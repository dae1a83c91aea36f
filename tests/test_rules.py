"""RuleSet: defaults, the shipped preset, TOML round trips and every validation message.

Messages are compared exactly: docs/rules.md promises ``field=value: allowed ...``.
"""

from __future__ import annotations

import dataclasses
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from spades_sim.rules import (
    RULES_FILE_FORMS,
    BlindNil,
    Deck,
    FailedContract,
    Mode,
    RulesError,
    RuleSet,
    dumps,
    from_dict,
    is_rules_path,
    load_preset,
    load_rules,
    loads,
    parse_override,
    preset_names,
    resolve_rules,
    save_rules,
)

FIELDS = [spec.name for spec in dataclasses.fields(RuleSet)]
OPTIONAL_FIELDS = [spec.name for spec in dataclasses.fields(RuleSet) if spec.type == "int | None"]
"""Fields that may be None (off); TOML has no null, so a file leaves them out when off."""


# --- defaults and presets ---


def test_defaults_are_rules_md_baseline() -> None:
    r = RuleSet()
    assert r.mode is Mode.PARTNERSHIP and r.deck is Deck.STANDARD
    assert (r.min_bid, r.nil_value, r.blind_nil, r.blind_nil_threshold, r.blind_nil_value) == (
        0, 100, BlindNil.WHEN_BEHIND, 100, 200)
    assert r.failed_contract is FailedContract.MINUS_TEN_PER_BID
    assert (r.overtrick_points, r.bag_limit, r.bag_penalty, r.target) == (1, 10, 100, 500)
    assert (r.seat_count, r.hand_size, r.side_count) == (4, 13, 2)
    assert [r.seat_side(s) for s in range(4)] == [0, 1, 0, 1]


def test_defaults_equal_standard_preset() -> None:
    preset = load_preset("standard")
    for name in FIELDS:
        assert getattr(preset, name) == getattr(RuleSet(), name), name
    assert preset == RuleSet()
    assert preset.description != ""


def test_optional_fields_are_the_options_off_by_default() -> None:
    assert OPTIONAL_FIELDS == ["side_max_bid", "elimination", "hand_limit", "blind_bid_threshold"]


@pytest.mark.parametrize("name", preset_names())
def test_preset_file_lists_only_what_differs_from_standard(name: str) -> None:
    """A preset file gives its name and description and only the fields where it differs from
    standard, which are RuleSet's defaults: a new rule option needs its default in one place."""
    text = (resources.files("spades_sim.presets") / f"{name}.toml").read_text(encoding="utf-8")
    listed = tomllib.loads(text)
    assert {"name", "description"} <= listed.keys()
    standard = RuleSet().to_dict()
    same = sorted(key for key, value in listed.items()
                  if key not in ("name", "description") and value == standard.get(key))
    assert same == [], f"{name}.toml lists fields at standard's value: {same}"


TODAYS_STANDARD: dict[str, Any] = {
    "mode": "partnership", "deck": "standard", "min_bid": 0, "nil_value": 100,
    "blind_nil": "when_behind", "blind_nil_threshold": 100, "blind_nil_value": 200,
    "failed_contract": "minus_ten_per_bid", "overtrick_points": 1, "bag_limit": 10,
    "bag_penalty": 100, "target": 500, "joker_deuces": "clubs_diamonds",
    "first_bidder": "dealer_left", "first_lead": "dealer_left_no_spade",
    "spades_lead": "must_break", "nil_tricks": "bags_only", "forced_mode": "none",
    "side_min_bid": 0, "sum_of_bids_not_hand_size": False, "both_partners_nil": "allowed",
    "ten_for_two_hundred": False, "bid_thirteen": "off", "elimination": None, "hand_limit": None,
    "blind_nil_pass": 0, "blind_nil_solo": False, "draw_second_card_seen": True,
    "two_player_first": "non_dealer",
}
"""Every rule field of the standard preset when the preset files spelled out all 29 fields."""

TODAYS_PRESETS: dict[str, dict[str, Any]] = {
    "app-settings": {"blind_nil_threshold": 200, "blind_nil_pass": 1},
    "classic": {"min_bid": 1, "blind_nil": "off", "failed_contract": "zero", "bag_penalty": 0},
    "deuce-high": {"deck": "deuce-high"},
    "five-player": {"mode": "five-player", "deck": "jokers", "min_bid": 1, "blind_nil": "off",
                    "failed_contract": "zero", "bag_penalty": 0, "joker_deuces": "all"},
    "head-to-head": {"mode": "two-player", "blind_nil": "off", "bag_limit": 5, "bag_penalty": 50,
                     "target": 300},
    "joker-joker-deuce-ace": {"deck": "joker-joker-deuce-ace"},
    "joker-joker-deuce-deuce": {"deck": "joker-joker-deuce-deuce"},
    "jokers": {"deck": "jokers"},
    "mirror": {"blind_nil": "off", "forced_mode": "mirror"},
    "online-table": {"blind_nil": "after_first_hand", "elimination": -200},
    "solo": {"mode": "solo", "nil_value": 50, "blind_nil": "off"},
    "standard": {},
    "suicide": {"blind_nil": "off", "forced_mode": "suicide"},
    "three-player": {"mode": "three-player", "blind_nil": "off", "first_lead": "two_of_clubs"},
    "whiz": {"blind_nil": "off", "forced_mode": "whiz"},
}
"""Where each preset differed from TODAYS_STANDARD then (36 values in all)."""


@pytest.mark.parametrize("name", sorted(TODAYS_PRESETS))
def test_presets_keep_the_values_they_had_when_spelled_out(name: str) -> None:
    """Loaded on top of RuleSet's defaults, each preset has, field by field, the values its file
    spelled out before the files listed only their differences (a rule option added since is
    not in the record, and needs no edit here)."""
    loaded = load_preset(name).to_dict()
    expected = TODAYS_STANDARD | TODAYS_PRESETS[name]
    differing = {field: (loaded.get(field), value) for field, value in expected.items()
                 if loaded.get(field) != value}
    assert differing == {}, f"{name}: field: (loaded, recorded) {differing}"


def test_preset_names_include_standard() -> None:
    assert "standard" in preset_names()
    assert preset_names() == sorted(preset_names())


@pytest.mark.parametrize("name", preset_names())
def test_every_preset_round_trips(name: str) -> None:
    preset = load_preset(name)
    assert preset.name == name
    assert loads(dumps(preset)) == preset


def test_enum_fields_are_coerced_from_strings() -> None:
    r = RuleSet(blind_nil="off", failed_contract="zero")
    assert r.blind_nil is BlindNil.OFF and r.failed_contract is FailedContract.ZERO
    assert r == RuleSet(blind_nil=BlindNil.OFF, failed_contract=FailedContract.ZERO)


def test_rule_set_is_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        RuleSet().target = 300  # type: ignore[misc]


# --- TOML round trip ---

NON_DEFAULT = RuleSet(name="house", description="Our table", min_bid=0, nil_value=50,
                      blind_nil="after_first_hand", blind_nil_threshold=0, blind_nil_value=150,
                      failed_contract="zero", overtrick_points=-1, bag_limit=5, bag_penalty=50,
                      target=300)


@pytest.mark.parametrize("rule_set", [RuleSet(), NON_DEFAULT, RuleSet(min_bid=1, blind_nil="off")],
                         ids=["default", "house", "no-nil"])
def test_toml_round_trip(rule_set: RuleSet) -> None:
    assert loads(dumps(rule_set)) == rule_set


def test_dumps_is_plain_toml_with_every_field() -> None:
    raw = tomllib.loads(dumps(NON_DEFAULT))
    assert sorted(raw) == sorted(set(FIELDS) - set(OPTIONAL_FIELDS))  # all off: left out
    every = NON_DEFAULT.replace(elimination=-200, hand_limit=8, side_max_bid=13,
                                blind_bid_threshold=100)
    assert sorted(tomllib.loads(dumps(every))) == sorted(FIELDS)
    assert raw["blind_nil"] == "after_first_hand" and raw["failed_contract"] == "zero"
    assert raw["overtrick_points"] == -1 and raw["target"] == 300


def test_save_and_load_rules(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    save_rules(NON_DEFAULT, path)
    assert load_rules(path) == NON_DEFAULT
    assert load_rules(str(path)) == NON_DEFAULT


def test_partial_file_takes_defaults(tmp_path: Path) -> None:
    path = tmp_path / "short.toml"
    path.write_text('target = 300\nblind_nil = "off"\n', encoding="utf-8")
    assert load_rules(path) == RuleSet(target=300, blind_nil="off")


def test_from_dict_starts_from_base() -> None:
    assert from_dict({"target": 300}, base=NON_DEFAULT) == dataclasses.replace(NON_DEFAULT, target=300)
    assert from_dict({}) == RuleSet()


def test_resolve_rules_layers_preset_file_and_overrides(tmp_path: Path) -> None:
    assert resolve_rules("standard") == load_preset("standard")
    assert resolve_rules("standard", {"nil_value": 50}).nil_value == 50
    path = tmp_path / "house.toml"
    save_rules(NON_DEFAULT, path)
    assert resolve_rules(str(path)) == NON_DEFAULT
    assert resolve_rules(str(path), {"target": 200}) == dataclasses.replace(NON_DEFAULT, target=200)
    assert resolve_rules(NON_DEFAULT) is NON_DEFAULT


# --- every bad value: RulesError with the exact message ---


@pytest.mark.parametrize(("changes", "message"), [
    ({"target": 0}, "target=0: allowed 1 to 1000000"),
    ({"target": -500}, "target=-500: allowed 1 to 1000000"),
    ({"target": "abc"}, "target='abc': allowed a whole number"),
    ({"target": True}, "target=True: allowed a whole number"),
    ({"target": 1.5}, "target=1.5: allowed a whole number"),
    ({"min_bid": 2}, "min_bid=2: allowed 0 or 1"),
    ({"min_bid": 1}, "blind_nil='when_behind': allowed 'off' when min_bid=1 (no nil means no blind nil)"),
    ({"min_bid": 1, "blind_nil": "anytime"},
     "blind_nil='anytime': allowed 'off' when min_bid=1 (no nil means no blind nil)"),
    ({"blind_nil": "sometimes"},
     "blind_nil='sometimes': allowed off, anytime, after_first_hand, when_behind"),
    ({"bag_limit": 0}, "bag_limit=0: allowed 1 to 100"),
    ({"bag_limit": 101}, "bag_limit=101: allowed 1 to 100"),
    ({"bag_penalty": -1}, "bag_penalty=-1: allowed 0 to 10000 (0 = no penalty)"),
    ({"overtrick_points": 2}, "overtrick_points=2: allowed -1, 0 or 1"),
    ({"nil_value": -5}, "nil_value=-5: allowed 1 to 10000"),
    ({"nil_value": 0}, "nil_value=0: allowed 1 to 10000"),
    ({"blind_nil_value": 0}, "blind_nil_value=0: allowed 1 to 10000"),
    ({"blind_nil_threshold": -1}, "blind_nil_threshold=-1: allowed 0 to 1000000"),
    ({"failed_contract": "half"}, "failed_contract='half': allowed minus_ten_per_bid, zero"),
    ({"mode": "cutthroat"},
     "mode='cutthroat': allowed partnership, solo, two-player, three-player, five-player"),
    ({"deck": "pinochle"},
     "deck='pinochle': allowed standard, jokers, joker-joker-deuce-deuce, joker-joker-deuce-ace, deuce-high"),
    ({"name": 5}, "name=5: allowed a string"),
])
def test_bad_value_message(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(RulesError) as raised:
        RuleSet(**changes)
    assert str(raised.value) == message
    # The same check applies through replace() and TOML.
    with pytest.raises(RulesError) as raised:
        RuleSet().replace(**changes)
    assert str(raised.value) == message


def test_bad_value_through_toml() -> None:
    with pytest.raises(RulesError) as raised:
        loads('target = "abc"\n')
    assert str(raised.value) == "target='abc': allowed a whole number"


def test_rules_error_fields() -> None:
    with pytest.raises(RulesError) as raised:
        RuleSet(bag_limit=0)
    error = raised.value
    assert isinstance(error, ValueError)
    assert (error.field_name, error.value, error.allowed) == ("bag_limit", 0, "1 to 100")


def test_unknown_field_message() -> None:
    allowed = "a RuleSet field: " + ", ".join(sorted(FIELDS))
    with pytest.raises(RulesError) as raised:
        RuleSet().replace(foo=1)
    assert str(raised.value) == f"unknown key 'foo': allowed {allowed}"
    with pytest.raises(RulesError) as raised:
        loads("foo = 1\n")
    assert str(raised.value) == f"unknown key 'foo': allowed {allowed}"
    with pytest.raises(RulesError) as raised:
        from_dict({"nil": 50})
    assert str(raised.value) == f"unknown key 'nil': allowed {allowed}"


def test_broken_toml_file_message(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    text = "target = \n"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(tomllib.TOMLDecodeError) as toml_error:
        tomllib.loads(text)
    with pytest.raises(RulesError) as raised:
        load_rules(path)
    assert str(raised.value) == f"file={str(path)!r}: allowed valid TOML ({toml_error.value})"


def test_broken_toml_string_message() -> None:
    with pytest.raises(RulesError) as raised:
        loads("[unclosed\n")
    assert str(raised.value).startswith("file='<string>': allowed valid TOML (")


def test_missing_file_message(tmp_path: Path) -> None:
    path = tmp_path / "nope.toml"
    message = f"rules={str(path)!r}: allowed a readable TOML file (No such file or directory)"
    with pytest.raises(RulesError) as raised:
        load_rules(path)
    assert str(raised.value) == message
    # resolve_rules treats a .toml name as a file, even when it does not exist.
    with pytest.raises(RulesError) as raised:
        resolve_rules(str(path))
    assert str(raised.value) == message


def test_unknown_preset_message() -> None:
    names = ", ".join(preset_names())
    with pytest.raises(RulesError) as raised:
        load_preset("nosuch")
    assert str(raised.value) == f"rules='nosuch': allowed a preset ({names}) or {RULES_FILE_FORMS}"
    with pytest.raises(RulesError) as raised:
        resolve_rules("nosuch")
    assert str(raised.value) == f"rules='nosuch': allowed a preset ({names}) or {RULES_FILE_FORMS}"


# --- which values name files: a bare word is a preset, a file only where the user pointed ---

TARGET_300 = 'name = "t300"\ntarget = 300\n'


def refusal(raw_rules: str) -> str:
    """The message with which resolve_rules refuses ``raw_rules``."""
    with pytest.raises(RulesError) as raised:
        resolve_rules(raw_rules)
    return str(raised.value)


def test_a_file_named_like_a_preset_is_refused_as_ambiguous(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("standard").write_text(TARGET_300, encoding="utf-8")
    assert refusal("standard") == (
        "rules='standard': allowed './standard' for the file in the working folder; the preset "
        "only where no file has this name (it names both)")
    # Given as a path, the same file is read; a folder of that name is no file.
    assert resolve_rules("./standard").target == 300
    Path("standard").unlink()
    Path("standard").mkdir()
    assert resolve_rules("standard") == load_preset("standard")


def test_a_toml_name_or_a_path_is_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("standard.toml").write_text(TARGET_300, encoding="utf-8")
    (tmp_path / "sub").mkdir()
    Path("sub/house").write_text(TARGET_300, encoding="utf-8")
    assert resolve_rules("standard.toml").name == "t300"
    assert resolve_rules("sub/house").name == "t300"
    assert resolve_rules("standard") == load_preset("standard")  # no file is called "standard"
    assert [is_rules_path(text) for text in ("standard", "./standard", "a/b", "x.toml")] == [
        False, True, True, True]


def test_a_bare_word_that_is_no_preset_is_refused_even_when_a_file_has_that_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("house").write_text(TARGET_300, encoding="utf-8")
    assert refusal("house") == (f"rules='house': allowed a preset ({', '.join(preset_names())}) "
                                "or a rules file given as ./NAME or NAME.toml")


def test_an_unknown_key_is_named_without_its_value(tmp_path: Path) -> None:
    path = tmp_path / "leak.toml"
    path.write_text('target = 300\napi_token = "s3cr3t-value-123"\n', encoding="utf-8")
    with pytest.raises(RulesError) as raised:
        load_rules(path)
    message = str(raised.value)
    assert message.startswith("unknown key 'api_token': allowed a RuleSet field: ")
    assert "s3cr3t" not in message
    long_key = "k" * 100
    with pytest.raises(RulesError) as raised:
        loads(f'{long_key} = "s3cr3t"\n')
    assert str(raised.value).startswith(f"unknown key '{long_key[:37]}...': allowed")
    assert "s3cr3t" not in str(raised.value)


def test_a_file_that_is_not_text_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "binary.toml"
    path.write_bytes(b"\xff\xfe\x00secret")
    with pytest.raises(RulesError) as raised:
        load_rules(path)
    assert str(raised.value) == f"rules={str(path)!r}: allowed a UTF-8 TOML file"


# --- --rule FIELD=VALUE overrides ---


@pytest.mark.parametrize(("text", "parsed"), [
    ("nil_value=50", ("nil_value", 50)),
    ("blind_nil=off", ("blind_nil", "off")),
    ("blind_nil='off'", ("blind_nil", "off")),
    ("overtrick_points=-1", ("overtrick_points", -1)),
    ("name=my table", ("name", "my table")),
    ("target=1.5", ("target", 1.5)),
    ("flag=true", ("flag", True)),
    ("description=a=b", ("description", "a=b")),
])
def test_parse_override(text: str, parsed: tuple[str, Any]) -> None:
    assert parse_override(text) == parsed


@pytest.mark.parametrize("text", ["nil_value", "=50", " =50", "", "nil_value=",
                                  " target = 300 ", "target=300 ", "target= 300", " target=300"])
def test_parse_override_refuses_missing_field_sign_or_stray_space(text: str) -> None:
    with pytest.raises(RulesError) as raised:
        parse_override(text)
    assert str(raised.value) == (f"rule={text!r}: allowed FIELD=VALUE on one line with no "
                                  "space around the = sign, for example nil_value=50")


def test_override_then_validate() -> None:
    key, value = parse_override("nil_value=-1")
    with pytest.raises(RulesError) as raised:
        resolve_rules("standard", {key: value})
    assert str(raised.value) == "nil_value=-1: allowed 1 to 10000"


@pytest.mark.parametrize(("changes", "message"), [
    ({"forced_mode": "mirror"},
     "blind_nil='when_behind': allowed 'off' with forced_mode='mirror' "
     "(a forced mode sets every bid itself)"),
    ({"forced_mode": "suicide", "blind_nil": "off", "side_min_bid": 4},
     "side_min_bid=4: allowed 0 with forced_mode='suicide' (a forced mode sets every bid itself)"),
    ({"forced_mode": "whiz", "blind_nil": "off", "sum_of_bids_not_hand_size": True},
     "sum_of_bids_not_hand_size=True: allowed False with forced_mode='whiz' "
     "(a forced mode sets every bid itself)"),
    ({"side_min_bid": 5}, "side_min_bid=5: allowed 0 to 4"),
    ({"side_max_bid": 12}, "side_max_bid=12: allowed 13 to 25 (the hand size to twice it less one), "
                           "or leave it out for off"),
    ({"side_max_bid": 26}, "side_max_bid=26: allowed 13 to 25 (the hand size to twice it less one), "
                           "or leave it out for off"),
    ({"side_max_bid": 13, "min_bid": 1}, "min_bid=1: allowed 0 with side_max_bid=13"),
    ({"side_max_bid": 14, "forced_mode": "mirror", "blind_nil": "off"},
     "forced_mode='mirror': allowed 'none' with side_max_bid=14"),
    ({"side_max_bid": 13, "sum_of_bids_not_hand_size": True},
     "sum_of_bids_not_hand_size=True: allowed False with side_max_bid=13"),
    ({"side_max_bid": 13, "mode": "solo", "blind_nil": "off"},
     "side_max_bid=13: allowed left out (off) with mode='solo' (no partners)"),
])
def test_impossible_bidding_combinations_refused(changes: dict, message: str) -> None:
    with pytest.raises(RulesError) as raised:
        RuleSet(**changes)
    assert str(raised.value) == message


# --- table modes (docs/scoring.md "Table modes and the blind-nil exchange"): what each refuses ---

ALONE = {"blind_nil": "off"}


@pytest.mark.parametrize(("changes", "message"), [
    ({"mode": "solo"},
     "blind_nil='when_behind': allowed 'off' with mode='solo' unless blind_nil_solo=true"),
    ({"mode": "three-player", "blind_nil": "anytime"},
     "blind_nil='anytime': allowed 'off' with mode='three-player' unless blind_nil_solo=true"),
    ({"mode": "three-player", "deck": "jokers", **ALONE},
     "joker_deuces='clubs_diamonds': allowed 'none' with deck='jokers' and mode='three-player'"
     " (3 players)"),
    ({"mode": "five-player", "deck": "jokers", "joker_deuces": "clubs_hearts", **ALONE},
     "joker_deuces='clubs_hearts': allowed 'all' with deck='jokers' and mode='five-player'"
     " (5 players)"),
    ({"deck": "jokers", "joker_deuces": "all"},
     "joker_deuces='all': allowed 'clubs_diamonds' or 'clubs_hearts' with deck='jokers' and"
     " mode='partnership' (4 players)"),
    ({"mode": "two-player", "deck": "jokers", "joker_deuces": "none", **ALONE},
     "joker_deuces='none': allowed 'clubs_diamonds' or 'clubs_hearts' with deck='jokers' and"
     " mode='two-player' (2 players)"),
    ({"mode": "five-player", **ALONE}, "deck='standard': allowed 'jokers' with mode='five-player'"),
    ({"mode": "three-player", "deck": "joker-joker-deuce-deuce", **ALONE},
     "deck='joker-joker-deuce-deuce': allowed 'standard' or 'jokers' or 'deuce-high'"
     " with mode='three-player'"),
    ({"mode": "solo", "side_min_bid": 2, **ALONE},
     "side_min_bid=2: allowed 0 with mode='solo' (no partners)"),
    ({"mode": "two-player", "nil_tricks": "count_for_partner", **ALONE},
     "nil_tricks='count_for_partner': allowed 'bags_only' with mode='two-player' (no partners)"),
    ({"mode": "solo", "both_partners_nil": "forbidden", **ALONE},
     "both_partners_nil='forbidden': allowed 'allowed' with mode='solo' (no partners)"),
    ({"mode": "solo", "blind_nil": "anytime", "blind_nil_solo": True, "blind_nil_pass": 1},
     "blind_nil_pass=1: allowed 0 with mode='solo' (no partners)"),
    ({"mode": "solo", "forced_mode": "suicide", **ALONE},
     "forced_mode='suicide': allowed 'none', 'mirror' or 'whiz' with mode='solo'"
     " (suicide needs partners)"),
    ({"blind_nil_solo": True},
     "blind_nil_solo=True: allowed false with mode='partnership' (an individual-mode option)"),
    ({"blind_nil_pass": 4}, "blind_nil_pass=4: allowed 0 to 3"),
    ({"blind_nil_pass": 2, "blind_nil": "off"}, "blind_nil_pass=2: allowed 0 when blind_nil='off'"),
    ({"mode": "three-player", "bid_thirteen": "wins_game", **ALONE},
     "bid_thirteen='wins_game': allowed 'off' with mode='three-player' (17 tricks a hand)"),
    ({"mode": "five-player", "deck": "jokers", "joker_deuces": "all", "bid_thirteen": "scores_200",
      **ALONE},
     "bid_thirteen='scores_200': allowed 'off' with mode='five-player' (10 tricks a hand)"),
    ({"draw_second_card_seen": False},
     "draw_second_card_seen=False: allowed True with mode='partnership' (a two-player option)"),
    ({"mode": "solo", "two_player_first": "dealer", **ALONE},
     "two_player_first='dealer': allowed 'non_dealer' with mode='solo' (a two-player option)"),
    ({"mode": "two-player", "first_lead": "two_of_clubs", **ALONE},
     "first_lead='two_of_clubs': allowed 'dealer_left_no_spade' with mode='two-player'"
     " (two_player_first chooses who bids and leads first)"),
    ({"mode": "two-player", "first_bidder": "dealer_right", **ALONE},
     "first_bidder='dealer_right': allowed 'dealer_left' with mode='two-player'"
     " (two_player_first chooses who bids and leads first)"),
    ({"hand_limit": 0}, "hand_limit=0: allowed 1 to 10000"),
    ({"forced_mode": "mirror", "min_bid": 1, "blind_nil": "off"},
     "min_bid=1: allowed 0 with forced_mode='mirror' (a forced mode sets every bid itself)"),
])
def test_mode_refusals(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(RulesError) as raised:
        RuleSet(**changes)
    assert str(raised.value) == message


@pytest.mark.parametrize(("changes", "shape"), [
    ({}, (4, 13, 2, 52)),
    ({"mode": "solo", **ALONE}, (4, 13, 4, 52)),
    ({"mode": "two-player", **ALONE}, (2, 13, 2, 52)),
    ({"mode": "three-player", **ALONE}, (3, 17, 3, 51)),
    ({"mode": "three-player", "deck": "deuce-high", **ALONE}, (3, 17, 3, 51)),
    ({"mode": "three-player", "deck": "jokers", "joker_deuces": "none", **ALONE}, (3, 18, 3, 54)),
    ({"mode": "five-player", "deck": "jokers", "joker_deuces": "all", **ALONE}, (5, 10, 5, 50)),
    ({"mode": "solo", "blind_nil": "when_behind", "blind_nil_solo": True}, (4, 13, 4, 52)),
])
def test_mode_table_shape(changes: dict[str, Any], shape: tuple[int, int, int, int]) -> None:
    """(seats, hand size, sides, cards in the deck), counted by hand from docs/rules.md."""
    rules = RuleSet(**changes)
    assert (rules.seat_count, rules.hand_size, rules.side_count, rules.deck_size) == shape


def test_new_presets_say_what_rules_md_asks() -> None:
    solo = load_preset("solo")
    assert (solo.mode, solo.nil_value, solo.blind_nil) == ("solo", 50, "off")
    h2h = load_preset("head-to-head")
    assert (h2h.mode, h2h.target, h2h.bag_limit, h2h.bag_penalty) == ("two-player", 300, 5, 50)
    three = load_preset("three-player")
    assert (three.mode, three.hand_size, three.deck_size) == ("three-player", 17, 51)
    five = load_preset("five-player")
    assert (five.mode, five.deck, five.joker_deuces, five.hand_size) == (
        "five-player", "jokers", "all", 10)
    app = load_preset("app-settings")
    assert (app.blind_nil, app.blind_nil_threshold, app.blind_nil_pass) == ("when_behind", 200, 1)
    assert {"solo", "head-to-head", "three-player", "five-player", "app-settings"} <= set(
        preset_names())


def test_a_file_with_the_old_name_of_a_field_still_loads() -> None:
    """side_min_bid was team_min_bid: files written then still load; both names at once are
    refused."""
    assert loads("team_min_bid = 3").side_min_bid == 3
    with pytest.raises(RulesError, match=r"unknown key .team_min_bid."):
        loads("team_min_bid = 3\nside_min_bid = 2")
