"""Shipped calibration tables of the expert bidder; see spades_sim.kernel.calibration."""
