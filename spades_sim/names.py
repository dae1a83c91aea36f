"""Names a user gives: what makes a name (a rule set's, a study's, a label) one that can head a
table.

A rule set's name, a study's name and title, a variant's label and a strategy's label head
the columns of the text tables, the legends of the figures, the report's sections and the
one-line error messages. An empty name leaves a column without a heading, a line break or a
control character breaks the table's rows (a NUL cuts the text short in many viewers), and a
name of thousands of characters pushes every other column off the screen. Every place such a
name enters (rules files, ``--rule name=…``, study files, ``--variant``) asks
:func:`name_fault` and refuses the name in its own error's one line.
"""

from __future__ import annotations

NAME_MOST = 80
"""The longest name, in characters: the width of a classic terminal line, so a title or a
column heading never wraps in an 80-column terminal, while the descriptive titles studies use
fit (the default study's is 47 characters; the presets' names are at most 15)."""


def name_fault(value: str, most: int = NAME_MOST) -> str | None:
    """What a name must be, with what is wrong with ``value``; None when it is a good name.

    A good name is 1 to ``most`` printable characters on one line (no line break, tab, NUL
    or other control character) with no space at either end. ``most`` is :data:`NAME_MOST`
    but for the strategy labels of hand logs, which name a strategy's changed parameters too
    (``expert[bid_offset=0.5]``) and take ``STRATEGY_NAME_MOST``.

    >>> name_fault("nil 50") is None
    True
    >>> name_fault("a\\nb").endswith("(this one has a line break or another character that does not print)")
    True
    >>> name_fault("")
    'printable text of 1 to 80 characters on one line (this one is empty)'
    """
    if not value.strip():
        reason = "is empty"
    elif not value.isprintable():  # str.isprintable is False for \n, \r, \t, NUL, U+2028 …
        reason = "has a line break or another character that does not print"
    elif value != value.strip():
        reason = "has a space at an end"
    elif len(value) > most:
        reason = f"has {len(value):,}"
    else:
        return None
    return f"printable text of 1 to {most} characters on one line (this one {reason})"


__all__ = ["NAME_MOST", "name_fault"]
