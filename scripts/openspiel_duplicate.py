"""OpenSpiel's information-set MCTS against spades-sim's ``expert``, in duplicate single hands.

The search bot (OpenSpiel's Python ``ISMCTSBot`` with random roll-outs) plays spades-sim's game
as registered in OpenSpiel (``spades_sim.agents.openspiel``), seated at spades-sim's Python
table as an agent (``OpenSpielAgent``); ``play_duplicate`` plays each deal twice, the sides
swapped. The figure is the search side's hand points less expert's, per pair of hands (the
mean over both seatings), with its paired 95% interval. Needs the ``openspiel`` extra.

    python scripts/openspiel_duplicate.py --pairs 30 --simulations 50 --rules standard
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from spades_sim.agents import agent, play_duplicate
from spades_sim.agents.openspiel import OpenSpielAgent
from spades_sim.intervals import paired_interval


def search_agent(rules: str, simulations: int, seed: int) -> OpenSpielAgent:
    """IS-MCTS with ``simulations`` simulations a decision, one random roll-out each."""

    def make_bot(game: object, seat: int) -> object:
        evaluator = mcts.RandomRolloutEvaluator(
            n_rollouts=1, random_state=np.random.RandomState(seed + seat))
        return ismcts.ISMCTSBot(game, evaluator, uct_c=200.0, max_simulations=simulations,
                                random_state=np.random.RandomState(seed + 10 + seat))

    return OpenSpielAgent(make_bot, rules, seed=seed, name=f"ismcts-{simulations}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=30, help="deals, each played both ways")
    parser.add_argument("--simulations", type=int, default=50, help="IS-MCTS simulations a move")
    parser.add_argument("--rules", default="standard", help="a partnership preset")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    start = time.perf_counter()
    run = play_duplicate(args.rules, search_agent(args.rules, args.simulations, args.seed),
                         lambda: agent("expert"), args.pairs, args.seed, kind="hands")
    assert run.fault is None, run.fault
    # Pair i: the search side's points less expert's, on side 0 in one run and side 1 in the other.
    differences = np.array([
        ((first.score[0] - first.score[1]) + (second.score[1] - second.score[0])) / 2
        for first, second in zip(run.a_first.games, run.b_first.games, strict=True)])
    mean, low, high = paired_interval(differences)
    print(f"{args.rules}: IS-MCTS ({args.simulations} simulations a move) less expert, points a "
          f"hand: {mean:+.1f} [{low:+.1f}, {high:+.1f}] over {len(differences)} pairs of hands "
          f"(seed {args.seed}, {time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
