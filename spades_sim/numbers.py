"""Numbers typed by a user: ASCII digits only, nothing around them, and never more digits
than any size needs.

Python's ``int`` and ``float`` read other scripts' digits (``int("١٢") == 12``), and
``str.isdigit`` says yes to ``"²"``, which ``int`` then refuses. Every number a user types
(an option, a field of ``--score``, ``--bids``, ``--log-deals``, a seat of a log's action)
is read here instead, so that ``0``-``9`` are the only digits anywhere. A space before or
after the digits (``--seed '5 '``) is refused too: it is a sign of a value cut or pasted wrongly,
and Python's ``int`` would silently drop it.
"""

from __future__ import annotations

import math
import re

MAX_DIGITS = 30
"""The most digits a whole number may have (every size and seed fits in far fewer)."""

_DIGITS = re.compile(rf"[0-9]{{1,{MAX_DIGITS}}}")
_WHOLE = re.compile(rf"[+-]?{_DIGITS.pattern}")
_DECIMAL = re.compile(rf"[+-]?(?:{_DIGITS.pattern}(?:\.[0-9]{{0,{MAX_DIGITS}}})?|\.{_DIGITS.pattern})"
                      r"(?:[eE][+-]?[0-9]{1,3})?")


def whole_number(text: str) -> int:
    """A whole number written in ASCII digits, with an optional sign and nothing around it.

    >>> whole_number("12"), whole_number("-3")
    (12, -3)
    >>> whole_number("5 ")
    Traceback (most recent call last):
    ...
    ValueError: not a whole number in ASCII digits: '5 '
    >>> whole_number("²")
    Traceback (most recent call last):
    ...
    ValueError: not a whole number in ASCII digits: '²'
    """
    return int(_matched(_WHOLE, text, "a whole number"))


def is_digits(text: str) -> bool:
    """Whether ``text`` is nothing but ASCII digits (a count or a seat: no sign, no spaces).

    >>> is_digits("12"), is_digits("²"), is_digits("١٢"), is_digits("")
    (True, False, False, False)
    """
    return _DIGITS.fullmatch(text) is not None


def decimal_number(text: str) -> float:
    """A finite decimal number in ASCII digits (``0.5``, ``-1``, ``1e3``), nothing around it.

    >>> decimal_number("0.25"), decimal_number("-1e2")
    (0.25, -100.0)
    >>> decimal_number("nan")
    Traceback (most recent call last):
    ...
    ValueError: not a decimal number in ASCII digits: 'nan'
    """
    value = float(_matched(_DECIMAL, text, "a decimal number"))
    if not math.isfinite(value):  # 1e999
        raise ValueError(f"not a decimal number in ASCII digits: {text[:40]!r}")
    return value


def _matched(pattern: re.Pattern[str], text: str, what: str) -> str:
    """``text`` if ``pattern`` matches all of it (a space around it included)."""
    if not pattern.fullmatch(text):
        raise ValueError(f"not {what} in ASCII digits: {text[:40]!r}")
    return text
