"""Bad input over every command, table-driven: one ``Error: field=value: allowed …`` line.

Every case is a distinct bad input (an option's value, a file it names, a log's line) with
the text its message must hold: the field, the value as shown (shortened when long) and what
is allowed. Each runs in an empty working folder holding only the files the case writes, and
must end in exit code 2 with exactly one short line, no traceback and no file left behind.
All of them are refused before any simulation starts.
"""

from __future__ import annotations

import json
from pathlib import Path

import numba
import pytest
from clirun import invoke

from spades_sim.analysis.metrics import MAX_BUY_IN
from spades_sim.analysis.tune import MAX_SETTINGS
from spades_sim.cli.commands import MESSAGE_MOST
from spades_sim.inputs import MAX_LOG_LINE, MAX_NESTING, MAX_TEXT_BYTES
from spades_sim.names import NAME_MOST
from spades_sim.outputs import shown
from spades_sim.run.deals import MAX_DEALS
from spades_sim.run.simulate import MAX_COUNT, MAX_HANDS_CAP, MAX_LOGGED

CARDS = "AS 7S 3S 9H 8H 4H 2H QD 6D 3D 8C 5C 2C"
THREADS = numba.config.NUMBA_NUM_THREADS
LONG = "x" * 1_000_000
"""A value far too long to quote whole: every message shortens it."""
WHOLE = "allowed a whole number in digits 0-9"
NOT_WHOLE = ["١٢", "²", "１２", "1_000", "12abc", "", "1.5", "0x10", "9" * 5000, "5 ", " 12",
             "3\t", "\n4"]
"""Not whole numbers in ASCII digits (Arabic-Indic, superscript, full-width digits, ...)."""

# Every command and the options that take a whole number; the words before make the rest
# of the command valid.
WHOLE_OPTIONS = {
    ("simulate",): ["--hands", "--games", "--seed", "--threads", "--max-hands"],
    ("nil",): ["--hands", "--seed", "--threads"],
    ("bids",): ["--hands", "--seed", "--threads"],
    ("compare-strategies", "basic", "random"): ["--games", "--seed", "--threads", "--max-hands"],
    ("tune", "basic", "--param", "bid_offset=0..1:0.5"): ["--games", "--seed", "--threads",
                                                         "--max-hands"],
    ("compare-rules", "standard", "classic"): ["--games", "--seed", "--threads", "--max-hands"],
    ("bags",): ["--games", "--seed", "--threads", "--max-hands"],
    ("hand", CARDS): ["--seat", "--dealer", "--hands-played", "--deals", "--seed", "--threads"],
    ("audit", "hands.jsonl"): ["--seat", "--list"],
    ("calibrate", "partnership-standard", "--out-dir", "."): [
        "--seed", "--rounds", "--hands", "--nil-hands", "--blind-hands", "--games",
        "--nil-pass-hands"],
    ("report",): ["--seed", "--threads"],
    ("dd",): ["--line", "--after", "--dealer"],
    ("review", "hands.jsonl"): ["--list"],
}


def _shown(value: str) -> str:
    """The value as a message quotes it (outputs.shown: long ones keep start and end)."""
    return repr(value if len(value) <= 100 else value[:48] + "..." + value[-49:])


def _whole_cases() -> list:
    cases = []
    options = [(command, option) for command, names in WHOLE_OPTIONS.items() for option in names]
    for index, (command, option) in enumerate(options):
        # Three of the bad texts an option, in turn: every text meets many options.
        for text in (NOT_WHOLE * 2)[3 * index % len(NOT_WHOLE):][:3]:
            cases.append(([*command, option, text], {}, f"{option[2:]}={_shown(text)}: {WHOLE}"))
    return cases


def _range_cases() -> list:
    """Whole numbers out of their field's range, the bound named in the message."""
    hands, games = MAX_COUNT["hands"], MAX_COUNT["games"]
    threads = f"allowed 1 to {THREADS} on this machine"
    seed = "allowed a whole number from 0 to 2**63-1"
    max_hands = f"allowed 1 to {MAX_HANDS_CAP:,}"
    cases = []
    for command in (("simulate",), ("nil",), ("bids",)):
        for value in ("0", "-1", str(hands + 1), str(2**64)):
            cases.append(([*command, "--hands", value], {},
                          f"hands={value}: allowed 1 to {hands:,}"))
    for command in (("simulate",), ("compare-strategies", "basic", "random"),
                    ("tune", "basic", "--param", "bid_offset=0..1:0.5"),
                    ("compare-rules", "standard", "classic"), ("bags",)):
        for value in ("0", "-5", str(games + 1), str(10**25)):
            cases.append(([*command, "--games", value], {},
                          f"games={value}: allowed 1 to {games:,}"))
        for value in ("0", str(MAX_HANDS_CAP + 1)):
            cases.append(([*command, "--games", "5", "--max-hands", value], {},
                          f"max_hands={value}: {max_hands}"))
    for command in (("simulate", "--hands", "10"), ("nil",), ("bids",),
                    ("compare-strategies", "basic", "random"),
                    ("tune", "basic", "--param", "bid_offset=0..1:0.5"),
                    ("compare-rules", "standard", "classic"), ("bags",), ("hand", CARDS)):
        for value in ("-1", str(2**63)):
            cases.append(([*command, "--seed", value], {}, f"seed={value}: {seed}"))
        for value in ("0", str(THREADS + 1), str(10**6)):
            cases.append(([*command, "--threads", value], {}, f"threads={value}: {threads}"))
    for value in ("-1", str(2**63)):  # report's --seed, refused as every command's
        cases.append((["report", "--seed", value], {}, f"seed={value}: {seed}"))
    for value in ("0", "-3", str(MAX_DEALS + 1), str(10**12)):
        cases.append((["hand", CARDS, "--deals", value], {},
                      f"deals={value}: allowed 1 to {MAX_DEALS:,}"))
    for value in ("-1", "1000", str(10**15)):
        cases.append((["hand", CARDS, "--hands-played", value], {},
                      f"hands-played={value}: allowed 0 to 999 (a game stops after 1000 hands)"))
    for option in ("--seat", "--dealer"):
        for value in ("4", "-1", str(10**20)):
            cases.append((["hand", CARDS, option, value], {},
                          f"{option[2:]}={value}: allowed 0 to 3"))
    for label, low in (("rounds", 1), ("hands", 10_000), ("nil-hands", 10_000),
                       ("blind-hands", 1_000), ("games", 0)):
        for value in (str(low - 1), str(10**9 + 1)):
            cases.append((["calibrate", "partnership-standard", "--out-dir", ".", f"--{label}",
                           value], {}, f"{label}={value}: allowed a whole number {low:,} to 10^9"))
    return cases


# --- TOML files: not UTF-8, empty, or not TOML at all ---

TOML = 'name = "héllo"\ntarget = 300\n'
NOT_UTF8 = {
    "latin-1": TOML.encode("latin-1"),
    "cp1252": 'name = "café – bar"\n'.encode("cp1252"),
    "utf-16": TOML.encode("utf-16"),
    "utf-16-le": TOML.encode("utf-16-le"),
    "utf-32": TOML.encode("utf-32"),
    "shift_jis": 'name = "日本"\n'.encode("shift_jis"),
    "gb18030": 'name = "中文"\n'.encode("gb18030"),
}
DEEP_TOML = f"TOML nested at most {MAX_NESTING} deep"
TOML_BEYOND_BOUNDS = [
    ("lists 5000 deep", b"v = " + b"[" * 5000 + b"]" * 5000 + b"\n", DEEP_TOML),
    ("tables 5000 deep", b"v = " + b"{a = " * 5000 + b"1" + b"}" * 5000 + b"\n", DEEP_TOML),
    ("dotted keys just too deep", b"a" + b".a" * MAX_NESTING + b" = 1\n", DEEP_TOML),
    ("5000 digits", b"target = " + b"9" * 5000 + b"\n", "TOML with numbers of at most 4300 digits"),
    ("over a MiB", b"# " + b"x" * MAX_TEXT_BYTES + b"\ntarget = 300\n",
     f"a file of at most 1 MiB ({MAX_TEXT_BYTES + 16:,} bytes)"),
]
"""Rules and study files beyond the bounds of spades_sim.inputs: nesting, digits, size."""
EMPTY_TOML = {"empty": b"", "blank lines": b"\n\n\n", "comment only": b"# nothing here\n",
              "spaces": b"   \n\t\n"}

# Where a rules file goes: (args with {} for the file's name).
RULES_PLACES = [
    ("rules", "validate", "{}"),
    ("rules", "show", "{}"),
    ("simulate", "--rules", "{}"),
    ("nil", "--rules", "{}"),
    ("bids", "--rules", "{}"),
    ("hand", CARDS, "--rules", "{}"),
    ("compare-strategies", "basic", "random", "--rules", "{}"),
    ("tune", "basic", "--param", "bid_offset=0..1:0.5", "--rules", "{}"),
    ("bags", "--rules", "{}"),
    ("compare-rules", "standard", "{}"),
    ("score", "hands.jsonl", "--rules", "{}"),
    ("audit", "hands.jsonl", "--rules", "{}"),
]


def _place(place: tuple[str, ...], name: str) -> list[str]:
    return [word.format(name) for word in place]


def _toml_cases() -> list:
    cases = []
    for place in RULES_PLACES:
        for encoding, data in NOT_UTF8.items():
            cases.append((_place(place, f"{encoding}.toml"), {f"{encoding}.toml": data},
                          f"rules='{encoding}.toml': allowed a UTF-8 TOML file"))
        for what, data in EMPTY_TOML.items():
            name = what.replace(" ", "-") + ".toml"
            cases.append((_place(place, name), {name: data},
                          f"rules='{name}': allowed a rules file that sets at least one field"))
    for place in RULES_PLACES[:4]:
        cases.append((_place(place, "bom.toml"), {"bom.toml": "\ufefftarget = 300\n".encode()},
                      "rules='bom.toml': allowed a UTF-8 TOML file without a byte-order mark"))
        cases.append((_place(place, "bad.toml"), {"bad.toml": b"target = = 3\n"},
                      "file='bad.toml': allowed valid TOML"))
        cases.append((_place(place, "./" + "r" * 300), {},
                      "rrrrr': allowed a readable TOML file (File name too long)"))
        for what, data, allowed in TOML_BEYOND_BOUNDS:
            name = what.replace(" ", "-") + ".toml"
            cases.append((_place(place, name), {name: data}, f"rules='{name}': allowed {allowed}"))
    for _, data, allowed in TOML_BEYOND_BOUNDS:
        cases.append((["report", "--config", "study.toml"], {"study.toml": data},
                      f"config='study.toml': allowed {allowed}"))
    for command in (("simulate",), ("bags",)):
        for text, allowed in (("[" * 5000, f"TOML nested at most {MAX_NESTING} deep"),
                              ("9" * 5000, "TOML with numbers of at most 4300 digits")):
            cases.append(([*command, "--rule", "target=" + text], {},
                          f"rule={shown(repr('target=' + text))}: allowed {allowed}"))
    for data in NOT_UTF8.values():
        cases.append((["report", "--config", "study.toml"], {"study.toml": data},
                      "config='study.toml': allowed a UTF-8 TOML file"))
    for data in EMPTY_TOML.values():
        cases.append((["report", "--config", "study.toml"], {"study.toml": data},
                      "config='study.toml': allowed a study that sets at least one field"))
    return cases


# --- hand logs, read by score and audit ---

GOOD_LINE = {"rules": "standard", "dealer": 1, "actions": [], "hands": [
    "AC KC QC JC 10C 9C 8C 7C 6C 5C 8H 7H 6H", "4C 3C 2C AD KD QD JD 10D 9D 8D JH 10H 9H",
    "7D 6D 5D 4D 3D 2D AH KH QH AS KS QS JS", "5H 4H 3H 2H 10S 9S 8S 7S 6S 5S 4S 3S 2S"]}
"""A line that is a hand (not yet played): the bad logs below spoil one thing of it."""


def _line(**changes) -> bytes:
    return (json.dumps({**GOOD_LINE, **changes}) + "\n").encode()


DEEP_JSON = f"JSON nested at most {MAX_NESTING} deep"


BAD_LOGS = {
    "empty": (b"", "log='hands.jsonl': allowed a JSONL file of one or more hands"),
    "blank lines": (b"\n \n\t\n", "log='hands.jsonl': allowed a JSONL file of one or more hands"),
    "5000 digits": (b"9" * 5000 + b"\n", "line 1: not a hand: allowed JSON with numbers of at most"),
    "5000 digits in a field": (b'{"dealer": ' + b"9" * 5000 + b"}\n",
                               "line 1: not a hand: allowed JSON with numbers of at most"),
    "deep lists": (b"[" * 100_000 + b"\n", f"line 1: not a hand: allowed {DEEP_JSON}"),
    "deep objects": (b'{"a":' * 100_000 + b"\n", f"line 1: not a hand: allowed {DEEP_JSON}"),
    "lists just too deep": (b"[" * (MAX_NESTING + 1) + b"]" * (MAX_NESTING + 1) + b"\n",
                            f"line 1: not a hand: allowed {DEEP_JSON}"),
    "a field just too deep": (_line(dealer=json.loads("[" * MAX_NESTING + "]" * MAX_NESTING)),
                              f"line 1: not a hand: allowed {DEEP_JSON}"),
    "1 MB of garbage": (b"x" * 1_000_000 + b"\n", "line 1: not JSON: Expecting value"),
    "10 MB of garbage": (b"x" * 10_000_000 + b"\n",
                         f"line 1: not a hand: allowed a line of at most {MAX_LOG_LINE:,} chara"),
    "a long blank line": (b" " * MAX_LOG_LINE + b"\n" + _line(),
                          f"line 1: not a hand: allowed a line of at most {MAX_LOG_LINE:,}"),
    "latin-1": ('{"rules": "café"}\n'.encode("latin-1"), "log='hands.jsonl': allowed a UTF-8"),
    "a seat in superscript": (_line(actions=["² b 4"]), "line 1: action '² b 4': seat '²'"),
    "an Arabic-Indic seat": (_line(actions=["١ b 4"]), "line 1: action '١ b 4': seat '١'"),
    "a superscript bid": (_line(actions=["0 b ²"]), "line 1: action '0 b ²': bid '²': allowed a"),
    "a long action": (_line(actions=["0 b " + "9" * 1_000_000]), "line 1: action '0 b 9999"),
    "a long rules name": (_line(rules="r" * 1_000_000), "rules='rrrrrr"),
}


def _log_cases() -> list:
    return [([command, "hands.jsonl"], {"hands.jsonl": data}, expected)
            for command in ("score", "audit") for data, expected in BAD_LOGS.values()]


# --- option texts: rules, parameters, counts within texts ---

RULE_OVERRIDES = {
    "target=300\nnil_value=50": "rule='target=300\\nnil_value=50': allowed FIELD=VALUE on one line",
    "target=300\rx=1": "rule='target=300\\rx=1': allowed FIELD=VALUE on one line",
    "target=300\x00": "rule='target=300\\x00': allowed FIELD=VALUE on one line",
    "=5": "rule='=5': allowed FIELD=VALUE",
    "target": "rule='target': allowed FIELD=VALUE",
    "nil_value=-1": "nil_value=-1: allowed 1 to 10000",
    "side_max_bid=12": "side_max_bid=12: allowed 13 to 25",
    "target=" + LONG: "target='xxxxx",
    LONG + "=1": "unknown key 'xxxxx",
    "target=١٠٠": "target='١٠٠': allowed",
}
RULE_COMMANDS = [("simulate",), ("nil",), ("bids",), ("hand", CARDS),
                 ("compare-strategies", "basic", "random"),
                 ("tune", "basic", "--param", "bid_offset=0..1:0.5"), ("bags",),
                 ("score", "hands.jsonl", "--rules", "standard"),
                 ("audit", "hands.jsonl", "--rules", "standard")]

PARAM_OVERRIDES = {
    "².bid_offset=1": "param='².bid_offset=1': allowed [SIDE.]NAME=VALUE",
    "١.bid_offset=1": "param='١.bid_offset=1': allowed [SIDE.]NAME=VALUE",
    "0.bid_offset=١": "param='0.bid_offset=١': allowed [SIDE.]NAME=VALUE",
    "0.bid_offset=nan": "param='0.bid_offset=nan': allowed [SIDE.]NAME=VALUE",
    "0.bid_offset=1e999": "param='0.bid_offset=1e999': allowed [SIDE.]NAME=VALUE",
    "0.bid_offset=0,1": "param='0.bid_offset=0,1': allowed one value",
    "0.bid_offset=9": "param bid_offset=9",
    "0." + LONG + "=1": "param xxxxx",
    LONG: "param='xxxxx",
}
PARAM_COMMANDS = [("simulate",), ("nil",), ("compare-strategies", "basic", "random"),
                  ("hand", CARDS)]


def _text_cases() -> list:
    cases = []
    for command in RULE_COMMANDS:
        for text, expected in RULE_OVERRIDES.items():
            cases.append(([*command, "--rule", text], {}, expected))
        cases.append(([*command, "--rules", "x" * 300], {}, "rules='xxxxx"))
    for command in PARAM_COMMANDS:
        for text, expected in PARAM_OVERRIDES.items():
            cases.append(([*command, "--param", text], {}, expected))
    for command in (("simulate",), ("nil",), ("hand", CARDS), ("bags",),
                    ("compare-rules", "standard", "classic")):
        cases.append(([*command, "--strategy", LONG], {}, "strategy='xxxxx"))
        cases.append(([*command, "--strategy", "nope"], {}, "strategy='nope': allowed random,"))
    return cases


def _tune_cases() -> list:
    grid = "allowed [SIDE.]NAME=VALUE with VALUE, a list A,B,… or a range LO..HI"
    ranges = {
        "bid_offset=0..1:5e-324": f"param bid_offset=0..1:5e-324: allowed at most {MAX_SETTINGS}",
        "bid_offset=-3..3:1e-300": f"param bid_offset=-3..3:1e-300: allowed at most {MAX_SETTINGS}",
        "bid_offset=-3..3:0.001": f"param bid_offset=-3..3:0.001: allowed at most {MAX_SETTINGS}",
        "bid_offset=0..1:0": "param bid_offset=0..1:0: allowed LO <= HI and STEP > 0",
        "bid_offset=0..1:-1": "param bid_offset=0..1:-1: allowed LO <= HI and STEP > 0",
        "bid_offset=1..0:0.5": "param bid_offset=1..0:0.5: allowed LO <= HI and STEP > 0",
        "bid_offset=0..9:1": "param bid_offset=0..9:1: allowed -3 to 3",
        "bid_offset=0,9": "param bid_offset=0,9: allowed -3 to 3",
        "bid_offset=0..1:nan": f"param='bid_offset=0..1:nan': {grid}",
        "bid_offset=0..1:inf": f"param='bid_offset=0..1:inf': {grid}",
        "bid_offset=٠..1:0.5": f"param='bid_offset=٠..1:0.5': {grid}",
        "bid_offset=0..1": "param='bid_offset=0..1': allowed NAME=LO..HI:STEP or a list NAME=A,B,… "
                           "with --method grid",
        "bid_offset=0,": f"param='bid_offset=0,': {grid}",
        "bid_offset": f"param='bid_offset': {grid}",
        "nope=0..1:1": "param nope=0..1:1: allowed a parameter",
        LONG + "=0..1:1": "param xxxxx",
        # the old form NAME=LO:HI:STEP, refused for another reason, in its new spelling
        "bid_offset=1:0:0.5": "param bid_offset=1..0:0.5: allowed LO <= HI and STEP > 0",
        "bid_offset=0:1": f"param='bid_offset=0:1': {grid}",
    }
    return [(["tune", "basic", "--param", text], {}, expected) for text, expected in ranges.items()]


def _economics_cases() -> list:
    cases = []
    for command in (("simulate", "--games", "10"), ("compare-strategies", "basic", "random")):
        for value in ("0", "-5", "1e308", str(MAX_BUY_IN + 1), "1e10"):
            cases.append(([*command, "--buy-in", value], {},
                          f": allowed a positive amount up to {MAX_BUY_IN:,}"))
        for value in ("nan", "inf", "-inf", "١٠٠", "100$", "1e999", "100 ", " 100"):
            cases.append(([*command, "--buy-in", value], {},
                          f"buy-in={value!r}: allowed a number in digits 0-9"))
        for value in ("150%", "-1", "1", "nan", "١٥%", "15%%", LONG):
            cases.append(([*command, "--buy-in", "100", "--rake", value], {},
                          f"rake={_shown(value)}: allowed a share of the buy-in"))
        cases.append(([*command, "--rake", "15%"], {}, "rake='15%': allowed only together with"))
    return cases


def _log_deals_cases() -> list:
    cases = []
    most = f"at most {MAX_LOGGED:,} hands"
    for text, expected in {
        "²": "log-deals='²': allowed START:STOP",
        "١:٢": "log-deals='١:٢': allowed START:STOP",
        "0:1e3": "log-deals='0:1e3': allowed START:STOP",
        "0:" + "9" * 5000: "log-deals='0:99999",
        "0:" + str(10**12): f"log-deals='0:{10**12}': allowed START:STOP with 0 <= START < STOP",
        f"0:{MAX_LOGGED + 1}": f"log-deals='0:{MAX_LOGGED + 1}': allowed START:STOP with 0 <= "
                               "START < STOP <= 10 (the run plays 10 hands), " + most,
        "5:5": "log-deals='5:5': allowed START:STOP with 0 <= START < STOP",
        "7:3": "log-deals='7:3': allowed START:STOP with 0 <= START < STOP",
        "-1:3": "log-deals='-1:3': allowed START:STOP with 0 <= START < STOP",
        f"{10**11}:{10**11 + 1}": f"log-deals='{10**11}:{10**11 + 1}': allowed",
    }.items():
        cases.append((["simulate", "--hands", "10", "--log", "hands.jsonl", "--log-deals", text],
                      {}, expected))
    cases.append((["simulate", "--games", "10", "--log", "hands.jsonl", "--log-deals",
                   f"0:{MAX_LOGGED + 1}"], {}, f"at most {MAX_LOGGED:,} games"))
    cases.append((["simulate", "--hands", "10", "--log-deals", "0:5"], {},
                  "log-deals='0:5': allowed only together with --log FILE"))
    inside = "allowed START:STOP with 0 <= START < STOP <= "
    for args, text, expected in (
            (["--hands", "10"], "20:25", f"'20:25': {inside}10 (the run plays 10 hands)"),
            (["--hands", "10"], "5:11", f"'5:11': {inside}10 (the run plays 10 hands)"),
            (["--hands", "10"], "10", f"'10:11': {inside}10 (the run plays 10 hands)"),
            (["--games", "3"], "0:4", f"'0:4': {inside}3 (the run plays 3 games)"),
            ([], "100000:100001", f"'100000:100001': {inside}100,000 (the run plays 100,000"),
            (["--hands", "10"], "0:5 ", "'0:5 ': allowed START:STOP, e.g. 0:100"),
            (["--hands", "10"], " 0:5", "' 0:5': allowed START:STOP, e.g. 0:100")):
        cases.append((["simulate", *args, "--log", "hands.jsonl", "--log-deals", text], {},
                      "log-deals=" + expected))
    cases.append((["simulate", "--hands", "0", "--log", "hands.jsonl", "--log-deals", "0:1"], {},
                  "hands=0: allowed 1 to"))
    return cases


def _hand_cases() -> list:
    sides = "allowed us=N,them=N or SIDE=N,… with every side 0 to 1 once"
    bids = "allowed SEAT:BID,… with seats 0 to 3 once each"
    constraint = "allowed SEAT:SUIT=LOW-HIGH"
    texts = {
        "--score": {"us=²": sides, "us=١٠": sides, "them=x": sides, "²=10": sides,
                    "us=" + "9" * 5000: sides,
                    "us=1000000,them=0": "score='us=1000000,them=0': allowed score -100,000 to "
                                         "100,000 for each side",
                    "us=10,them=": sides, "us=1": sides, "them=5": sides, "us=1,us=2": sides,
                    "us=1,0=2,them=3": sides, "us=1,them=2,bob=3": sides, "us= 1,them=2": sides},
        "--bags": {"us=²": sides, "them=١": sides, "us=99,them=0": "bags='us=99,them=0': allowed bags 0 to 9 "
                                                                     "for each side",
                   "us=1": sides, "us=1,them=1,them=2": sides},
        "--bids": {"²:4": bids, "1:١": bids, "9:4": bids, "1:4,1:5": bids, "1:x": bids,
                   "1: 4": bids,
                   "1:" + "9" * 5000: bids,
                   "3:14": "bids='3:14': allowed SEAT:BID,… with seats 0 to 3 once each and BID 0 "
                           "to 13"},
        "--constraint": {"²:spades=0-2": constraint, "1:spades=٠-2": constraint,
                         "1:spades=0-²": constraint, "1:spades": constraint,
                         "1:foo=0-2": "allowed a suit of", "1:spades=0-2 ": constraint,
                         " 1:spades=0-2": constraint},
    }
    cases = []
    for option, values in texts.items():
        for text, allowed in values.items():
            field = option[2:]
            cases.append((["hand", CARDS, option, text], {},
                          f"{field}={_shown(text)}: {allowed}" if allowed in (sides, bids,
                                                                           constraint)
                          else allowed))
    cases.append((["hand", "AS KS", "--deals", "10"], {}, "hand=2 cards: allowed 13"))
    cases.append((["hand", LONG], {}, "xxxxx"))
    return cases


SUIT_HANDS = ["AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S", "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H",
              "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D", "AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C"]


def _dd_cases() -> list:
    """dd and review: deals, positions and review options (tests/test_dd_cli.py and
    tests/test_review.py have the worked answers)."""
    hands = [word for text in SUIT_HANDS for word in ("--cards", text)]
    twice = [word for text in (SUIT_HANDS[0], *SUIT_HANDS[:3]) for word in ("--cards", text)]
    short = [word for text in (*SUIT_HANDS[:3], SUIT_HANDS[3][:-3]) for word in ("--cards", text)]
    return [
        (["dd", *twice], {}, "cards: card AS dealt twice (seats 0 and 1): each card is dealt once"),
        (["dd", *short], {}, "cards[3] has 12 cards: allowed 13; missing from the deal: 2C"),
        (["dd", *hands[:6]], {}, "cards: 3 given: allowed 4, one per seat"),
        (["dd", *hands, "--bids", "0:4,1:4,2:4,3:x"], {},
         "bids='0:4,1:4,2:4,3:x': allowed SEAT:BID,… with seats 0 to 3 once each"),
        (["dd", *hands, "--bags", "0=²,1=0"], {}, "bags='0=²,1=0': allowed SIDE=N,… with every "
                                                  "side 0 to 1 once"),
        # the old forms, refused for another reason: one line, in the new spelling
        (["dd", *hands, "--bids", "4,4,4,x"], {},
         "bids='0:4,1:4,2:4,3:x': allowed SEAT:BID,… with seats 0 to 3 once each"),
        (["dd", *hands, "--bags", "²,0"], {}, "bags='0=²,1=0': allowed SIDE=N,…"),
        (["dd", *hands, "--rules", "jokers"], {}, "cards[2]: card 2D is not in the jokers deck"),
        (["dd", *hands, "--format", "xml"], {}, "format='xml': allowed text, json, csv"),
        (["dd", "--log", "nope.jsonl"], {}, "log='nope.jsonl': allowed a readable JSONL file"),
        (["dd", "--after", "1", *hands], {}, "after=1: allowed only together with --log FILE"),
        (["dd"], {}, "cards: allowed --cards once per seat, or --log FILE"),
        (["review", "nope.jsonl"], {}, "log='nope.jsonl': allowed a readable JSONL file"),
        (["review", "hands.jsonl"], {"hands.jsonl": b"{}\n"}, "line 1: rules missing"),
        (["review", "hands.jsonl", "--mistakes", "m.txt"], {"hands.jsonl": b"{}\n"},
         "mistakes='m.txt': allowed a file ending in .parquet, .csv or .json"),
        (["review", "hands.jsonl", "--out", "t.txt"], {"hands.jsonl": b"{}\n"},
         "out='t.txt': allowed a file ending in .parquet, .csv or .json"),
        (["review", "hands.jsonl", "--strategies", "a,,b,c"], {"hands.jsonl": b"{}\n"},
         "strategies='a,,b,c': allowed one name per seat"),
    ]


def _other_cases() -> list:
    cases = [
        (["cache", "--format", "xml"], {}, "format='xml': allowed text, json, csv"),
        (["compare-rules", "standard", "standard"], {},
         "rules='standard': allowed each rule set once (given twice)"),
        (["compare-rules", "classic", "jokers", "classic"], {},
         "rules='classic': allowed each rule set once (given twice)"),
        (["compare-rules", "nope"], {}, "rules='nope': allowed a preset"),
        (["compare-rules", "standard", "five-player"], {}, "allowed the table of standard"),
        (["bags", "--bag-rule", "5:50", "--bag-rule", "5:50"], {},
         "bag-rule='5:50': allowed each bag rule once ('5 bags -50' is given twice)"),
        (["bags", "--bag-rule", "10:0", "--bag-rule", "5:0"], {},
         "bag-rule='5:0': allowed each bag rule once ('no bag penalty' is given twice)"),
        (["bags", "--bag-rule", "²:50"], {}, "bag-rule='²:50': allowed LIMIT:PENALTY"),
        (["bags", "--bag-rule", "5:٥٠"], {}, "bag-rule='5:٥٠': allowed LIMIT:PENALTY"),
        (["bags", "--bag-rule", "5"], {}, "bag-rule='5': allowed LIMIT:PENALTY"),
        (["bags", "--bag-rule", LONG], {}, "bag-rule='xxxxx"),
        (["bags", "--bag-rule", "5:-50"], {}, "bag_penalty=-50: allowed 0 to 10000"),
        (["nil", "--by", "nope"], {}, "by='nope': allowed"),
        (["nil", "--by", LONG], {}, "by='xxxxx"),
        (["strategies", "show", "nope"], {}, "strategy='nope': allowed random,"),
        (["strategies", "show", LONG], {}, "strategy='xxxxx"),
        (["strategies", "list", "extra"], {}, "Got unexpected extra argument (extra)"),
        (["rules", "list", "extra"], {}, "Got unexpected extra argument (extra)"),
        (["rules", "show", "nope"], {}, "rules='nope': allowed a preset"),
        (["rules", "validate", "missing.toml"], {}, "rules='missing.toml': allowed a readable"),
        (["simulate", "--rules", "./a\x00.toml"], {},
         "rules='./a\\x00.toml': allowed a path without NUL characters"),
        (["score", "missing.jsonl"], {}, "log='missing.jsonl': allowed a readable JSONL file"),
        (["audit", "missing.jsonl", "--list", "-1"], {}, "list=-1: allowed a whole number 0"),
        (["audit", "hands.jsonl", "--rules", "standard", "--seat", "4"], {"hands.jsonl": _line()},
         "seat=4: allowed 0-3"),
        (["audit", "hands.jsonl", "--rules", "standard", "--seat", "-1"], {"hands.jsonl": _line()},
         "seat=-1: allowed 0-3"),
        (["audit", "hands.jsonl", "--rules", "five-player", "--seat", str(10**20)],
         {"hands.jsonl": _line()}, f"seat={10**20}: allowed 0-4"),
        (["score", "hands.jsonl"], {"hands.jsonl": _line()},
         "line 1: actions: the hand is unfinished after 0 actions"),
        (["score", "hands.jsonl", "--rule", "target=300"], {},
         "rule: allowed only together with --rules"),
        (["calibrate", "--out-dir", "."], {}, "family: allowed one or more of"),
        (["calibrate", "nope", "--out-dir", "."], {}, "family='nope': allowed"),
        (["calibrate", LONG, "--out-dir", "."], {}, "family='xxxxx"),
        (["calibrate", "solo-standard", "--out-dir", "."], {"tables.toml": b"x = = 1\n"},
         "out-dir='tables.toml': allowed valid TOML"),
        (["calibrate", "solo-standard", "--out-dir", "."],
         {"tables.toml": b"x = " + b"[" * 5000 + b"]" * 5000 + b"\n"},
         f"out-dir='tables.toml': allowed TOML nested at most {MAX_NESTING} deep"),
        (["calibrate", "solo-standard", "--out-dir", "."], {"tables.toml": b"\xff\n"},
         "out-dir='tables.toml': allowed a UTF-8 TOML file"),
        (["calibrate", "--all", "solo-standard", "--out-dir", "."], {},
         "family='solo-standard': allowed FAMILY... or --all, not both"),
        (["nil", "--rule", "target=" + "9" * 50_000], {},
         "allowed TOML with numbers of at most 4300 digits"),
        (["report", "--config", "missing.toml"], {}, "config='missing.toml': allowed a readable"),
        (["report", "--config", "study.toml"], {"study.toml": b"games = [\n"},
         "config='study.toml': allowed valid TOML"),
        (["simulate", "--hands", "10", "--games", "10"], {}, "hands/games: allowed one of"),
        (["simulate", "--hands", "10", "--backend", "nope"], {}, "backend='nope': allowed local"),
        (["simulate", "--hands", "10", "--scheduler", "tcp://h:1"], {},
         "scheduler='tcp://h:1': allowed only with backend dask"),
    ]
    dask = "allowed the address of a running Dask scheduler"
    for address in ("garbage", "tcp://x", "foo://bar:1", "tcp://h:abc", "h:²", LONG):
        cases.append((["simulate", "--hands", "10", "--backend", "dask", "--scheduler", address],
                      {}, f"scheduler={_shown(address)}: {dask}"))
    for command in (("nil",), ("bids",), ("hand", CARDS), ("bags",),
                    ("compare-rules", "standard", "classic"),
                    ("compare-strategies", "basic", "random"),
                    ("tune", "basic", "--param", "bid_offset=0..1:0.5")):
        cases.append(([*command, "--figure", "figure.txt"], {},
                      "figure='figure.txt': allowed a file ending in .png or .svg"))
        cases.append(([*command, "--figure", LONG + ".png"], {}, "figure='xxxxx"))
    for command in (("nil",), ("bids",), ("hand", CARDS), ("bags",),
                    ("compare-rules", "standard", "classic")):
        cases.append(([*command, "--out", "table.txt"], {}, "out='table.txt': allowed"))
    cases.append((["simulate", "--hands", "10", "--records", "table.txt"], {},
                  "records='table.txt': allowed"))
    return cases


def _output_cases() -> list:
    """--format, --out, --variant and scoped --rule: the options of machine-readable output and
    of rule sets per comparison."""
    tables = (("simulate", "--hands", "10"), ("nil",), ("bids",), ("hand", CARDS), ("bags",),
              ("compare-rules", "standard", "classic"), ("compare-strategies", "basic", "random"),
              ("tune", "basic", "--param", "bid_offset=0..1:0.5"))
    cases = []
    for command in tables:
        for fmt in ("xml", "JSON", "", LONG):
            cases.append(([*command, "--format", fmt], {}, f"format={_shown(fmt)}: allowed text, "
                                                           "json, csv"))
        out = "records" if command[0] == "simulate" else "out"  # simulate's file is its records
        cases.append(([*command, f"--{out}", "-", "--format", "csv"], {},
                      f"{out}='-': allowed with --format text only"))
        cases.append(([*command, f"--{out}", "table.json/"], {}, f"{out}='table.json/': allowed"))
    variant = "allowed LABEL:FIELD=VALUE,…, e.g. nil50:nil_value=50,target=300"
    for command in (("compare-rules", "standard"), ("bags",), ("report",)):
        for text in ("nil50", "nil50:", ":nil_value=50", "nil50:nil_value", "nil50:,"):
            cases.append(([*command, "--variant", text], {}, f"variant={_shown(text)}: {variant}"))
        cases.append(([*command, "--variant", "x:nosuch=1"], {},
                      "unknown key 'nosuch': allowed a RuleSet field"))
        cases.append(([*command, "--variant", "x:nil_value=-5"], {}, "nil_value=-5: allowed"))
    cases += [
        (["compare-rules", "standard", "classic", "--rule", "jokers:target=300"], {},
         "rule='jokers': allowed the name of a rule set of the comparison: standard, classic"),
        (["compare-rules", "standard", "--rule", "standard:target=-1"], {}, "target=-1: allowed"),
        (["compare-rules", "standard", "--rule", "target"], {}, "rule='target': allowed"),
        (["compare-rules", "standard", "--variant", "standard:nil_value=50"], {},
         "labels='standard': allowed a different label for each rule set"),
        (["compare-rules", "standard", "--buy-in", "-5"], {}, "buy-in=-5.0: allowed a positive"),
        (["compare-rules", "standard", "--rake", "15%"], {},
         "rake='15%': allowed only together with --buy-in"),
        (["report", "--out-dir", "study.toml/under"], {"study.toml": b"name = 'x'\n"},
         "out-dir='study.toml/under': allowed a folder (study.toml is a file)"),
    ]
    return cases


UNPRINTABLE = "has a line break or another character that does not print"
BAD_NAMES = {"": "is empty", "   ": "is empty", "a\nb": UNPRINTABLE, "a\rb": UNPRINTABLE,
             "a\x00b": UNPRINTABLE, "a\tb": UNPRINTABLE, "a\u2028b": UNPRINTABLE,
             "a\x1b[31mred": UNPRINTABLE, "a\u00a0b": UNPRINTABLE,
             " padded": "has a space at an end", "padded ": "has a space at an end",
             "n" * (NAME_MOST + 1): f"has {NAME_MOST + 1}", "n" * 100_000: "has 100,000"}
"""Names no table can be headed with, and the reason each message gives."""


def _name_cases() -> list:
    """Rule set names (rules files, --rule name=), variant labels, study names and titles."""
    cases = []
    for index, (name, reason) in enumerate(BAD_NAMES.items()):
        expected = (f"allowed printable text of 1 to {NAME_MOST} characters on one line (this "
                    f"one {reason})")
        toml = f"name = {json.dumps(name)}\ntarget = 300\n".encode()
        place = RULES_PLACES[index % 10]  # the places that read no log
        cases.append((_place(place, "house.toml"), {"house.toml": toml}, expected))
        if name.isprintable() and name == name.strip() and name:  # --rule takes one line
            cases.append((["simulate", "--hands", "10", "--rule", f"name={name}"], {}, expected))
        if name == name.strip() and name:  # a variant's label is taken without its spaces
            for command in (("compare-rules", "standard"), ("bags",), ("report",)):
                cases.append(([*command, "--variant", f"{name}:nil_value=50"], {}, expected))
        for field in ("name", "title"):
            cases.append((["report", "--config", "study.toml"],
                          {"study.toml": f"{field} = {json.dumps(name)}\n".encode()}, expected))
    return cases


def _before_work_cases() -> list:
    """Checks that used to come after a command had started: each is refused before its first
    status line, block or file (nothing is left in the folder, one line)."""
    study = b'name = "d"\nvariants = ["a:nil_value=50", "a:nil_value=60"]\n'
    return [
        (["report", "--threads", "1000000"], {}, f"threads=1000000: allowed 1 to {THREADS}"),
        (["report", "--threads", "0"], {}, f"threads=0: allowed 1 to {THREADS}"),
        (["report", "--config", "study.toml"], {"study.toml": study},
         "labels='a': allowed a different label for each rule set"),
        (["report", "--variant", "standard:nil_value=50"], {},
         "labels='standard': allowed a different label for each rule set"),
        (["report", "--config", "study.toml", "--threads", "99999"],
         {"study.toml": b'name = "t"\n'}, "threads=99999: allowed"),
        (["report", "--config", "study.toml"],
         {"study.toml": b'strategies = ["basic", "random", "basic"]\n'},
         "strategies='basic': allowed each strategy once"),
        (["report", "--config", "study.toml"], {"study.toml": b'bag_rules = ["5:50", "5:50"]\n'},
         "bag-rule='5:50': allowed each bag rule once"),
        (["report", "--config", "study.toml"], {"study.toml": b'bag_rules = ["5: 50"]\n'},
         "bag-rule='5: 50': allowed LIMIT:PENALTY"),
        (["calibrate", "partnership-standard", "--out-dir", ".", "--seed", str(2**63 - 500)], {},
         f"seed={2**63 - 500}: allowed a whole number from 0 to"),
        (["calibrate", "partnership-standard", "solo-standard", "--out-dir", "."],
         {"tables.toml": b"x = [\n"}, "out-dir='tables.toml': allowed valid TOML"),
        (["calibrate", "solo-standard", "partnership-standard", "solo-standard", "--out-dir",
          "."], {}, "family='solo-standard': allowed each family once (given twice)"),
        (["simulate", "--hands", "5", "--log", "hands.jsonl",
          *[word for change in ("blind_nil_min_chance=0.5", "blind_nil_margin=0.25",
                                "nil_min_chance=0.5", "cover_bonus=2", "bag_weight=2",
                                "nil_bonus=-12.5", "set_slack=3", "bid_offset=0.25")
            for word in ("--param", f"0.{change}")]], {},
         "allowed in a hand log printable text of 1 to 100 characters on one line (this one "
         "has 144); fewer --param changes"),
        (["bids", "basic", "expert", "basic"], {},
         "strategy='basic': allowed each strategy once"),
        (["bids", "basic", "nope"], {}, "strategy='nope': allowed"),
    ]


def _key_value_cases() -> list:
    """Every key=value form complete: a key twice, a space around a value."""
    cases = []
    for command in RULE_COMMANDS:
        cases.append(([*command, "--rule", "target=300", "--rule", "target=400"], {},
                      "rule='target=400': allowed each field once ('target' is given twice)"))
        cases.append(([*command, "--rule", "target= 300"], {},
                      "rule='target= 300': allowed FIELD=VALUE on one line with no space"))
    for command in PARAM_COMMANDS:
        cases.append(([*command, "--param", "0.bid_offset=1", "--param", "0.bid_offset=2"], {},
                      "param=0.bid_offset: allowed each side's parameter once"))
    for command in (("compare-rules", "standard"), ("bags",), ("report",)):
        cases.append(([*command, "--variant", "a:nil_value=50,nil_value=60"], {},
                      "variant='nil_value=60': allowed each field once"))
    cases += [
        (["compare-rules", "standard", "classic", "--rule", "target=300", "--rule",
          "target=400"], {}, "allowed each field once ('target' is given twice)"),
        (["compare-rules", "standard", "classic", "--rule", "classic:target=300", "--rule",
          "classic:target=400"], {}, "allowed each field once ('target' is given twice)"),
        (["hand", CARDS, "--constraint", "1:spades=0-2", "--constraint", "1:spades=3-4"], {},
         "constraint='1:spades=3-4': allowed each seat and suit once"),
        (["tune", "basic", "--param", "bid_offset=0..1:0.5", "--param", "bid_offset=0:2:1"], {},
         "param: allowed each parameter once"),
        (["tune", "basic", "--param", "bid_offset=0..1:0.5 "], {}, "param='bid_offset=0..1:0.5 '"),
        (["simulate", "--games", "10", "--buy-in", "100", "--rake", "15% "], {},
         "rake='15% ': allowed a share"),
        (["bags", "--bag-rule", "5: 50"], {}, "bag-rule='5: 50': allowed LIMIT:PENALTY"),
    ]
    return cases


GOOD_STRATEGY = 'name = "mine"\nbase = "expert"\n'
"""The start of a good strategy file; each bad one below changes or adds one thing."""
BAD_STRATEGY_FILES = [
    ("", "name: allowed a strategy file that sets it (s.toml does not)"),
    ('name = "mine"\n', "base: allowed a strategy file that sets it"),
    ('base = "expert"\n', "name: allowed a strategy file that sets it"),
    ("name = \n", "strategy='s.toml': allowed valid TOML"),
    (GOOD_STRATEGY + 'colour = "red"\n',
     "unknown key 'colour' in s.toml: allowed name, description, base, bidding, play, params"),
    ('name = ""\nbase = "expert"\n', "name='': allowed printable text of 1 to 80 characters"),
    ('name = "a\\nb"\nbase = "expert"\n', "name='a\\nb': allowed printable text"),
    ("name = 5\nbase = \"expert\"\n", "name=5: allowed printable text of 1 to 80"),
    ('name = "expert"\nbase = "expert"\n', "name='expert': allowed a name of its own"),
    ('name = "x.toml"\nbase = "expert"\n', "name='x.toml': allowed a name of its own"),
    ('name = "mine"\nbase = "grandmaster"\n',
     "base='grandmaster': allowed a named strategy: random, basic, expert"),
    ('name = "mine"\nbase = "mine.toml"\n', "base='mine.toml': allowed a named strategy"),
    (GOOD_STRATEGY + "params = 3\n", "params=3: allowed a table of parameter = number"),
    (GOOD_STRATEGY + "[params]\nnil_bonus = 500\n", "param nil_bonus=500: allowed -200 to 200"),
    (GOOD_STRATEGY + '[params]\nnil_bonus = "high"\n', "param nil_bonus='high': allowed -200"),
    (GOOD_STRATEGY + "[params]\nluck = 1\n", "param luck=1: allowed a parameter bid_offset"),
    (GOOD_STRATEGY + "[params]\nnil_threshold = 0.5\n",
     "param nil_threshold=0.5: allowed only with the basic or expert-v1 policies"),
    (GOOD_STRATEGY + f'description = "{"x" * 600}"\n',
     "description='xxx"),
    (GOOD_STRATEGY + "description = 5\n", "description=5: allowed text"),
    (GOOD_STRATEGY + "play = 5\n", "play=5: allowed a built-in policy (random, basic"),
    (GOOD_STRATEGY + 'bidding = "grandmaster"\n',
     "bidding='grandmaster': allowed basic, expert, expert-v1, random, or path/to/file.py:NAME"),
    ('name = "mine"\nbidding = "nothing.py:P"\nplay = "basic"\n',
     "bidding='nothing.py:P': allowed path/to/file.py:NAME or package.module:NAME, the file a "
     "readable .py file"),
    ('name = "mine"\nbidding = "no_such_module_here:P"\nplay = "nothing.py:P"\n',
     "bidding='no_such_module_here:P': allowed a module that imports (ModuleNotFoundError"),
]
"""Bad strategy files (``s.toml``) and the start of what each is refused with."""
STRATEGY_PLACES = [
    ["simulate", "--games", "5", "--strategy", "s.toml"],
    ["compare-strategies", "s.toml", "basic", "--games", "5"],
    ["compare-strategies", "basic", "s.toml", "--games", "5", "--sprt", "0,10"],
    ["tune", "basic", "--param", "bid_offset=0..1:0.5", "--against", "s.toml", "--games", "5"],
    ["tune", "s.toml", "--param", "bid_offset=0..1:0.5", "--games", "5"],
    ["hand", "AS 7S 3S 9H 8H 4H 2H QD 6D 3D 8C 5C 2C", "--strategy", "s.toml", "--deals", "5"],
    ["strategies", "show", "s.toml"],
    ["bids", "s.toml", "--hands", "10"],
    ["nil", "--strategy", "s.toml", "--hands", "10"],
]
"""Commands that take a strategy, with a strategy file ``s.toml`` in it."""


def _strategy_file_cases() -> list:
    """A bad strategy file wherever a strategy is taken: refused in one line naming the field."""
    cases = []
    for index, (text, expected) in enumerate(BAD_STRATEGY_FILES):
        cases.append((STRATEGY_PLACES[index % len(STRATEGY_PLACES)], {"s.toml": text.encode()},
                      expected))
    for place in STRATEGY_PLACES:
        cases.append((place, {}, "strategy='s.toml': allowed a readable strategy file (No such "
                      "file or directory)"))
    cases += [
        (STRATEGY_PLACES[0], {"s.toml": b"\xff\xfe"}, "strategy='s.toml': allowed a UTF-8 TOML"),
        (STRATEGY_PLACES[1], {"s.toml": "\ufeff".encode() + GOOD_STRATEGY.encode()},
         "strategy='s.toml': allowed a UTF-8 TOML file without a byte-order mark"),
        (["report", "--config", "study.toml"],
         {"study.toml": b'strategies = ["expert", "s.toml"]\n', "s.toml": b'name = "mine"\n'},
         "base: allowed a strategy file that sets it"),
    ]
    return cases


def _league_cases() -> list:
    """league: two or more contenders, each once, an anchor among them, a two-sided table."""
    return [
        (["league", "expert"], {}, "strategies=1: allowed two or more contenders for a league"),
        (["league", "expert", "basic", "expert"], {},
         "strategy='expert': allowed each contender once"),
        (["league", "expert", "basic", "--anchor", "random"], {},
         "anchor='random': allowed one of the contenders: expert, basic"),
        (["league", "expert", "basic", "--bootstrap", "0"], {},
         "bootstrap=0: allowed 1 to 100,000 replicates"),
        (["league", "expert", "grandmaster"], {}, "strategy='grandmaster': allowed random"),
        (["league", "expert", "basic", "--rules", "three-player"], {},
         "allowed a two-sided table (partnership or two-player) for a league"),
        (["league", "expert", "basic", "--time-limit", "1"], {},
         "time-limit=1: allowed only when a contender is a bot"),
        (["league", "expert", "examples/high_low_bot.py:HighLowBot", "--threads", "1"], {},
         "threads=1: allowed only when every contender is a strategy of the kernel"),
        (["league", "expert", "basic", "--games", "0"], {}, "games=0: allowed"),
        (["report", "--config", "study.toml"],
         {"study.toml": b'strategies = ["expert", "basic"]\nanchor = "random"\n'},
         "anchor='random': allowed one of the study's strategies"),
    ]


def _sprt_cases() -> list:
    """compare-strategies --sprt: two Elo numbers, H0 below H1, error rates of a test."""
    compare = ["compare-strategies", "expert", "basic"]
    return [
        ([*compare, "--sprt", "5"], {}, "sprt='5': allowed ELO0,ELO1, two numbers"),
        ([*compare, "--sprt", "0,5,10"], {}, "sprt='0,5,10': allowed ELO0,ELO1"),
        ([*compare, "--sprt", "0, 5"], {}, "sprt='0, 5': allowed ELO0,ELO1"),
        ([*compare, "--sprt", "a,b"], {}, "sprt='a,b': allowed ELO0,ELO1"),
        ([*compare, "--sprt", "10,0"], {}, "sprt=10,0: allowed ELO0,ELO1 with ELO0 < ELO1"),
        ([*compare, "--sprt", "0,5000"], {}, "sprt=0,5000: allowed ELO0,ELO1 with each Elo"),
        ([*compare, "--sprt", "0,5", "--alpha", "0.7"], {},
         "alpha=0.7: allowed a probability between 0 and 0.5"),
        ([*compare, "--sprt", "0,5", "--beta", "0"], {},
         "beta=0: allowed a probability between 0 and 0.5"),
        ([*compare, "--alpha", "0.1"], {}, "alpha=0.1, beta=0.05: allowed only with --sprt"),
        (["compare-strategies", "examples/high_low_bot.py:HighLowBot", "random", "--sprt",
          "0,5"], {}, "sprt='0,5': allowed only when A and B are both strategies of the kernel"),
    ]


CASES = (_output_cases() + _whole_cases() + _range_cases() + _toml_cases() + _log_cases() + _text_cases()
         + _tune_cases() + _economics_cases() + _log_deals_cases() + _hand_cases()
         + _dd_cases() + _other_cases() + _name_cases() + _before_work_cases()
         + _key_value_cases() + _sprt_cases() + _strategy_file_cases()
         + _league_cases())


def _case_id(args: list[str], files: dict[str, bytes]) -> str:
    words = [arg if len(arg) <= 30 else arg[:12] + f"...({len(arg)})" for arg in args]
    words += [f"{name}={data[:12]!r}...({len(data)})" for name, data in files.items()]
    return " ".join(words)


def _files(folder: Path) -> set[str]:
    return {path.relative_to(folder).as_posix() for path in folder.rglob("*")}


def test_the_table_covers_every_command() -> None:
    from spades_sim.cli import cli

    covered = {args[0] for args, _, _ in CASES}
    assert covered == set(cli.commands), set(cli.commands) - covered
    assert len(CASES) >= 300
    assert len({(tuple(args), tuple(files.items())) for args, files, _ in CASES}) == len(CASES)


@pytest.mark.parametrize(("args", "files", "expected"), CASES,
                         ids=[_case_id(args, files) for args, files, _ in CASES])
def test_bad_input_ends_in_one_line(args: list[str], files: dict[str, bytes], expected: str,
                                    tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    result = invoke(args)
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 2, result.output[:2000]
    assert "Traceback" not in result.output
    lines = result.output.splitlines()
    assert len(lines) == 1, result.output[:2000]
    line = lines[0]
    assert line.startswith("Error: "), line
    assert len(line) <= len("Error: ") + MESSAGE_MOST, line[:300]
    assert expected in line, line
    assert _files(tmp_path) == set(files), "files left behind"


# --- the library refuses the same things, before anything is played ---


def test_compare_rules_refuses_a_repeated_label() -> None:
    from spades_sim.analysis.variants import compare_rules
    from spades_sim.rules import RulesError

    with pytest.raises(RulesError, match=r"^labels='a': allowed a different label for each"):
        compare_rules(["standard", "classic"], "expert", 10, seed=1, labels=["a", "a"])


def test_bag_variants_refuse_a_repeated_bag_rule() -> None:
    from spades_sim.analysis.variants import bag_variants
    from spades_sim.rules import RulesError, RuleSet

    with pytest.raises(RulesError, match=r"^bag-rule='5:50': allowed each bag rule once"):
        bag_variants(RuleSet(), ["5:50", "10:100", "5:50"])


@pytest.mark.parametrize("text", ["²", "١٢", "１２", "1_000", " ", "+", "9" * 31])
def test_whole_number_takes_ascii_digits_only(text: str) -> None:
    from spades_sim.numbers import whole_number

    with pytest.raises(ValueError, match="not a whole number in ASCII digits"):
        whole_number(text)
