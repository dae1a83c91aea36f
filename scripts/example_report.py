"""Regenerate the example report committed in reports/default/ (the default study, seed 1).

    python scripts/example_report.py

The same as ``spades-sim report`` run from the top of the repository: the study's
seed is fixed, so a second run writes the same tables and figures. It ends by printing
the sentences each section of the page opens with, to read before committing.
"""

from pathlib import Path

from spades_sim.analysis.report import DEFAULT_STUDY, run_study

if __name__ == "__main__":
    report = run_study(DEFAULT_STUDY, Path(__file__).resolve().parent.parent / "reports",
                       on_progress=lambda name: print(f"  {name} ...", flush=True))
    print(f"wrote {report.index} ({len(report.files)} files)")
    for section in report.sections:
        print(f"\n{section.heading}")
        for finding in section.findings:
            print(f"- {finding.text}")
