"""Shared test set-up: this folder on the import path, for the helper module ``stacking``."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
