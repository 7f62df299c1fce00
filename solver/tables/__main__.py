"""``python -m solver.tables build``: the field build's old command, kept because the
README documents it; the build is :mod:`solver.training.tables`.  ``import solver``
never runs this file, so it loads no training module."""

from ..training.tables import main

raise SystemExit(main())
