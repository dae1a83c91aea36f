"""The expert bidder's calibration tables: the shipped ones cover every preset, record how they
were made, and a small rebuild from them agrees with them within its intervals."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from clirun import assert_one_line_error, invoke

from spades_sim.analysis.calibrate import FAMILY_PRESETS, nil_counts, trick_counts, write_tables
from spades_sim.kernel import calibration
from spades_sim.kernel.strategies import load_strategy
from spades_sim.rules import load_preset, preset_names

FAMILY = "partnership-standard"
SEED = 9_191


def test_every_preset_has_its_familys_tables() -> None:
    shipped = set(calibration.shipped_families())
    assert shipped == set(FAMILY_PRESETS)
    for name in preset_names():
        assert calibration.family(load_preset(name)) in shipped, name


def test_every_shipped_table_records_the_command_and_seed_that_made_it() -> None:
    made_by = calibration.provenance()
    for name in FAMILY_PRESETS:
        entry = made_by[name]
        assert entry["command"].startswith(f"spades-sim calibrate {name} ")
        assert f"--seed {entry['seed']}" in entry["command"]
        assert str(calibration.load_family(name)["family"]) == name


def _mean_and_variance(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per distribution (last axis = tricks): count, mean and variance of the mean."""
    k = np.arange(counts.shape[-1])
    n = counts.sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = (counts * k).sum(axis=-1) / n
        var = (counts * k**2).sum(axis=-1) / n - mean**2
    return n, mean, var / np.maximum(n, 1)


def test_a_small_rebuild_agrees_with_the_shipped_table() -> None:
    """65,536 hands of self-play of the expert the tables were made with (its nil parameters of
    before the tuning, which was done on these tables; the tuned expert's own self-play, with
    more nils, shifts some trick distributions by up to 9 standard errors), bidding from the
    shipped tables, with the shipped strength and nil weights: every trick distribution with
    400 or more hands has the mean of the shipped one within 4.5 standard errors of the
    difference (about 80 cells: a Bonferroni bound for a 5% family error is 3.5; the rest allows
    for the rebuild bidding from the final tables while the shipped counts came from the round
    before), and so has every nil-score bin's success rate with 300 or more nils."""
    rules = load_preset(FAMILY_PRESETS[FAMILY])
    shipped = calibration.load_family(FAMILY)
    expert = load_strategy(Path(__file__).parent.parent / "examples" / "expert-before-tuning.toml")
    rebuilt = trick_counts(rules, expert, shipped, 65_536, SEED, strength_w=shipped["strength_w"])
    checked = 0
    for table in ("own", "joint"):
        n_new, mean_new, var_new = _mean_and_variance(rebuilt[table])
        n_old, mean_old, var_old = _mean_and_variance(shipped[table])
        cells = (n_new >= 400) & (n_old >= 400)
        z = (mean_new - mean_old)[cells] / np.sqrt(var_new + var_old)[cells]
        assert np.abs(z).max() < 4.5, (table, np.abs(z).max())
        checked += int(cells.sum())
    assert checked >= 60

    nils = nil_counts(rules, expert, shipped, 65_536, SEED + 1, nil_w=shipped["nil_w"])
    n_new, n_old = nils["nil_bids"], shipped["nil_bids"]
    cells = (n_new >= 300) & (n_old >= 300)
    p_new = nils["nil_made"][cells] / n_new[cells]
    p_old = shipped["nil_made"][cells] / n_old[cells]
    pooled = (nils["nil_made"][cells] + shipped["nil_made"][cells]) / (n_new + n_old)[cells]
    z = (p_new - p_old) / np.sqrt(pooled * (1 - pooled) * (1 / n_new[cells] + 1 / n_old[cells]))
    assert cells.sum() >= 5 and np.abs(z).max() < 4.5, np.abs(z).max()


def test_calibrate_writes_the_tables_and_their_command(tmp_path) -> None:
    result = invoke(["calibrate", "three-player-standard", "--out-dir", str(tmp_path),
                     "--rounds", "1", "--hands", "20000", "--nil-hands", "20000", "--quiet"])
    assert result.exit_code == 0, result.output
    assert result.output == f"wrote {tmp_path / 'three-player-standard.npz'}\n"
    arrays = calibration.load_family("three-player-standard", tmp_path)
    assert arrays["own"].sum() > 0 and str(arrays["family"]) == "three-player-standard"
    entry = calibration.tomllib.loads((tmp_path / "tables.toml").read_text())[
        "three-player-standard"]
    assert entry["seed"] == 1 and entry["hands"] == 20_000 and entry["rounds"] == 1
    # A second family keeps the first one's entry.
    write_tables(tmp_path, "solo-standard", arrays, {"command": "x"})
    assert set(calibration.tomllib.loads((tmp_path / "tables.toml").read_text())) == {
        "three-player-standard", "solo-standard"}


@pytest.mark.parametrize(("args", "message"), [
    (["nope"], "family='nope': allowed " + ", ".join(FAMILY_PRESETS)),
    ([], "family: allowed one or more of " + ", ".join(FAMILY_PRESETS) + " (or --all)"),
    (["solo-standard", "--rounds", "0"], "rounds=0: allowed a whole number 1 to 10^9"),
    (["solo-standard", "--hands", "5"], "hands=5: allowed a whole number 10,000 to 10^9"),
])
def test_calibrate_refuses_bad_input(tmp_path, args: list[str], message: str) -> None:
    assert_one_line_error(invoke(["calibrate", *args, "--out-dir", str(tmp_path)]), message)


def test_calibrate_refuses_a_missing_folder(tmp_path) -> None:
    assert_one_line_error(
        invoke(["calibrate", "solo-standard", "--out-dir", str(tmp_path / "no")]),
        f"out-dir={str(tmp_path / 'no')!r}: allowed an existing folder")
