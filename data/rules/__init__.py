"""Shipped rule presets (TOML files); see spades_sim.rules.load_preset."""
