"""``python -m solver.tables build``: the command line of :mod:`solver.tables`.

A package's ``__main__`` runs beside the package rather than re-running it, so the tables
module that ``import solver`` loads is the one the command uses.
"""

from . import main

raise SystemExit(main())
