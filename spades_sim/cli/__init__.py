"""The command line: a Click group of thin commands over the library."""

from .commands import cli

__all__ = ["cli"]
