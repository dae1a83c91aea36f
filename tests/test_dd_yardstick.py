"""scripts/dd_yardstick.py keeps what it reviewed: its hand files, the runs still to review and
the report section (the bulk run itself is a script, not a test)."""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
import dd_yardstick


def test_missing_chunks_are_the_runs_not_reviewed_cut_to_chunk_size(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # One hand a chunk: every hand reviewed is kept at once.
    assert dd_yardstick.missing_chunks({0, 2}, 5) == [range(1, 2), range(3, 4), range(4, 5)]
    monkeypatch.setattr(dd_yardstick, "CHUNK", 3)
    assert dd_yardstick.missing_chunks(set(), 9) == [range(3), range(3, 6), range(6, 9)]
    assert dd_yardstick.missing_chunks({0, 1, 5}, 8) == [range(2, 5), range(6, 8)]
    assert dd_yardstick.missing_chunks(set(range(10)), 10) == []


def test_one_chunk_reviewed_kept_and_not_reviewed_again(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Two hands of random self-play reviewed into the hand file; a second run with one hand
    more reviews only that one, and its totals are those of the review of all three."""
    first = dd_yardstick.review_hands("standard", ["random"], 2, 5, tmp_path)["random"]
    assert list(first["hand"]) == [0, 1]
    assert (first[[f"plays_{seat}" for seat in range(4)]] == 13).all().all()
    asked: list[range] = []
    review_chunk = dd_yardstick.review_chunk

    def counted(rules: str, strategy: str, seed: int, chunk: range) -> list[dict[str, object]]:
        asked.append(chunk)
        return review_chunk(rules, strategy, seed, chunk)

    monkeypatch.setattr(dd_yardstick, "review_chunk", counted)
    # a process pool would not see the counting stand-in: one job runs in-process
    monkeypatch.setattr(dd_yardstick, "ProcessPoolExecutor", _InProcess)
    second = dd_yardstick.review_hands("standard", ["random"], 3, 5, tmp_path)["random"]
    assert asked == [range(2, 3)]
    assert list(second["hand"]) == [0, 1, 2]
    pd.testing.assert_frame_equal(second.iloc[:2].reset_index(drop=True),
                                  first.reset_index(drop=True))
    again = dd_yardstick.review_chunk("standard", "random", 5, range(3))
    columns = [c for c in dd_yardstick.HAND_COLUMNS if c != "seconds"]
    pd.testing.assert_frame_equal(second[columns].reset_index(drop=True),
                                  pd.DataFrame(again)[columns], check_dtype=False)


def test_a_run_starts_where_told_and_skips_what_another_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """From ``start`` on, then the hands before it (down and then up with ``last_first``); a
    hand another run kept meanwhile is not reviewed again."""
    asked: list[int] = []
    path = dd_yardstick.hands_path(tmp_path, "standard", "random", 5)

    def stand_in(rules: str, strategy: str, seed: int, chunk: range) -> list[dict[str, object]]:
        asked.append(chunk.start)
        if chunk.start == 3:  # meanwhile another run keeps hand 4
            pd.DataFrame([_row(4)]).to_csv(path, mode="a", header=not path.exists(), index=False)
        return [_row(chunk.start)]

    monkeypatch.setattr(dd_yardstick, "review_chunk", stand_in)
    monkeypatch.setattr(dd_yardstick, "ProcessPoolExecutor", _InProcess)
    kept = dd_yardstick.review_hands("standard", ["random"], 6, 5, tmp_path, start=3)["random"]
    assert asked == [3, 5, 0, 1, 2]
    assert list(kept["hand"]) == [0, 1, 2, 3, 4, 5]
    path.unlink()
    asked.clear()
    dd_yardstick.review_hands("standard", ["random"], 6, 5, tmp_path, last_first=True, start=3)
    assert asked == [3, 2, 1, 0, 5]


def _row(hand: int) -> dict[str, object]:
    return {column: hand if column == "hand" else 0 for column in dd_yardstick.HAND_COLUMNS}


def test_section_says_a_run_is_not_finished() -> None:
    row = {"strategy": "basic", "rules": "standard", "seed": 1, "hands": 50,
           "target_hands": 2000, "seconds_review": 7200.0, "jobs": 2}
    for metric in dd_yardstick.METRICS:
        row.update({metric: 0.5, f"{metric}_low": 0.25, f"{metric}_high": 0.75})
    text = dd_yardstick.section(pd.DataFrame([row]))
    assert "--hands 2000 --seed 1" in text
    assert "| `basic` | 50 | 0.500 | [0.250, 0.750] |" in text
    assert "**Not finished**: `basic` 50 hands of the 2,000" in text
    assert "2.0 hours of one core" in text
    assert "Not finished" not in dd_yardstick.section(pd.DataFrame([{**row, "hands": 2000}]))


class _InProcess:
    """A stand-in for ProcessPoolExecutor that runs each task at once, in this process."""

    def __init__(self, workers: int) -> None:
        del workers

    def __enter__(self) -> _InProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def submit(self, function, *args):  # type: ignore[no-untyped-def]
        from concurrent.futures import Future

        future: Future[object] = Future()
        future.set_result(function(*args))
        return future
