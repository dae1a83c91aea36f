"""The slots of a strategy's parameter vector, shared by every policy module (a policy's id is
its place in ``policies.TABLE``).

The names, defaults, ranges and meanings of the parameters are in
``spades_sim.kernel.strategies.PARAMS``; which policy reads which slot is said there too.
"""

# Slots read by basic and expert-v1 (and some by expert).
P_BID_OFFSET = 0
P_NIL_THRESHOLD = 1
P_BLIND_DEFICIT = 2
P_COVER_BONUS = 3
P_BLIND_NEAR = 4
P_SOLO_NIL_THRESHOLD = 5
P_BAG_NEAR = 6
P_BAG_BID = 7
P_SET_SLACK = 8
# Slots read by expert only.
P_NIL_MIN_CHANCE = 9
P_NIL_BONUS = 10
P_BLIND_MARGIN = 11
P_BAG_WEIGHT = 12
P_EXPLORE_NIL = 13
P_EXPLORE_BLIND = 14
P_BLIND_MIN_CHANCE = 15
P_NIL_PASS_REACH = 16
P_NIL_PASS_COVER = 17
PARAM_COUNT = 18
