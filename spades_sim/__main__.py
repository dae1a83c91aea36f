"""``python -m spades_sim`` runs the command line."""

from .cli import cli

cli()
