"""``python -m solver``: the command line (see :mod:`solver.cli`)."""

from __future__ import annotations

from .cli import main

raise SystemExit(main())
