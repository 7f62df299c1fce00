"""Offline builds of the fast solver's data: everything that writes ``solver/data``.

The runtime (:mod:`solver.tables`) only loads the files and reads ``manifest.json``
beside them; the builds here make the files and record in the manifest what each holds,
which build made it, with which seeds, sizes and figures.  They depend on the runtime
(they solve hands with the models it makes), never the reverse: ``import solver``
imports none of them.  In the order they run:

* :mod:`solver.training.tables`: the field tables, by iterated best response
  (``python -m solver.training.tables build``);
* :mod:`solver.training.removal`: the card-removal corrections and hand terms learned on
  those tables (``python -m solver.training.removal build``);
* :mod:`solver.training.selfplay`: self-play rounds of the fields whose fast mode plays
  the hand terms (``python -m solver.training.selfplay build``).

:mod:`solver.training.rowsettle` settles plain rows one on one for the corrections and
the regret benchmark; :mod:`solver.training.manifest` writes the manifest.  docs/training.md
describes the whole pipeline.
"""
