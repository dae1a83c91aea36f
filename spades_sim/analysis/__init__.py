"""The analysis tier: metrics and intervals over runs, the studies (compare, tune, variants, nil,
bids, what-if), figures, formatting, export and the HTML report."""
