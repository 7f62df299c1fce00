"""Writing ``manifest.json``, the description of a data directory's files.

The runtime reads the manifest (:func:`solver.tables.read_manifest`); the builds write
it, each recording the files it wrote.  It holds:

* ``play``: one entry per preset and field, what fast mode plays there: ``tables`` (the
  field file), ``removal`` (the removal file, or null), ``correction`` and
  ``hand_terms`` (the table sizes that add that file's per-tag correction and its hand
  terms), ``passes`` (the passes its correction was built with: the removal build's
  default when it rebuilds it), and ``why``, the measurements behind the choice;
* ``files``: one entry per file: ``holds`` (what it holds, in words), ``kind`` ("field"
  or "removal"), ``preset``, ``field``, ``arrays`` (each array's shape), ``sha256`` of
  the file, and ``builds``, the builds that made it, in order, each with its command,
  parameters and figures.  A build record's numbers name the file's arrays: a scalar
  under an array's name equals that array, and ``{"2": ..., "3": ..., "4": ...}`` under
  a name equals the arrays ``<name>_2`` and so on (tests/test_manifest.py checks it).

docs/training.md describes the format with an example.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import numpy as np

from ..tables import MANIFEST, TABLE_SIZES, read_manifest

FORMAT = 1
ABOUT = (
    "What each file in this directory holds, which build made it (seeds, sizes, figures), and what fast mode "
    "plays for each preset and field. Written by the builds of solver.training; read by solver.tables. "
    "See docs/training.md."
)
KINDS = ("field", "removal")
#: A JSON list of numbers only, spread over lines by ``indent``.
NUMBERS = re.compile(r"\[\s*([-+0-9.eE,\s]*?)\s*\]")


def load(directory: Path) -> dict[str, Any]:
    """The manifest of ``directory``, or an empty one when it has none yet."""
    if not (directory / MANIFEST).exists():
        return {"format": FORMAT, "about": ABOUT, "play": [], "files": {}}
    return read_manifest(directory)


def dumps(manifest: dict[str, Any]) -> str:
    """The manifest as stored: indented, play entries sorted, every list of numbers on one line."""
    manifest = dict(manifest, play=sorted(manifest["play"], key=lambda e: (e["preset"], e["field"])))
    manifest["files"] = dict(sorted(manifest["files"].items()))
    text = json.dumps(manifest, indent=2, ensure_ascii=False)
    return NUMBERS.sub(lambda m: "[" + ", ".join(m.group(1).replace(",", " ").split()) + "]", text) + "\n"


def save(directory: Path, manifest: dict[str, Any]) -> None:
    (directory / MANIFEST).write_text(dumps(manifest), encoding="utf-8")


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def array_shapes(path: Path) -> dict[str, list[int]]:
    """Each array's shape in an ``.npz`` file, in the file's order."""
    with np.load(path) as data:
        return {name: list(data[name].shape) for name in data.files}


def holds(kind: str, preset: str, field: str, arrays: dict[str, list[int]]) -> str:
    """What a file of this kind holds, in words, from its arrays."""
    found = [str(p) for p in TABLE_SIZES if any(a.endswith(f"_{p}") for a in arrays)]
    sizes = " and ".join([", ".join(found[:-1]), found[-1]] if len(found) > 1 else found)
    if kind == "field":
        text = (f"The row-class distributions (front 455, middle and back 12,376 classes) and the scoop rate of the "
                f"{preset} preset's {field} field at {sizes} players, with the distance the field moved at each "
                "best-response iteration of its build")  # fmt: skip
        if any(a.startswith("selfplay_") for a in arrays):
            text += ", and the figures of its self-play rounds"
        return text + "."
    text = (f"The card-removal corrections (3 rows x 512 row tags, chi per opponent) of the {preset} preset's "
            f"{field} field at {sizes} players")  # fmt: skip
    if any(a.startswith("hand_") for a in arrays):
        text += ", and its hand-term weights (16 hand features x 702 row-part terms)"
    if any(a.startswith("rerank_") for a in arrays):
        text += ", and the weights that re-rank fast mode's 8 best sets (18 features)"
    return text + ", with the sizes and seeds of its build."


def per_size(arrays: dict[str, Any], name: str) -> dict[str, Any]:
    """``{"2": <name>_2, ...}`` as JSON numbers, for every table size the arrays have."""
    return {str(p): jsonable(arrays[f"{name}_{p}"]) for p in TABLE_SIZES if f"{name}_{p}" in arrays}


def jsonable(value: Any) -> Any:
    """A numpy scalar or array as JSON numbers (floats round-trip exactly)."""
    array = np.asarray(value)
    return array.tolist()


def record_file(
    manifest: dict[str, Any],
    directory: Path,
    name: str,
    kind: str,
    preset: str,
    field: str,
    builds: list[dict[str, Any]],
) -> None:
    """Describe the file ``directory / name`` as it is now, made by ``builds``."""
    path = directory / name
    arrays = array_shapes(path)
    manifest["files"][name] = {
        "holds": holds(kind, preset, field, arrays),
        "kind": kind,
        "preset": preset,
        "field": field,
        "arrays": arrays,
        "sha256": sha256(path),
        "builds": builds,
    }


def builds_of(manifest: dict[str, Any], name: str) -> list[dict[str, Any]]:
    """The build records of a file so far (none for a file the manifest does not list)."""
    entry = manifest["files"].get(name)
    return list(entry["builds"]) if entry else []


def set_play(manifest: dict[str, Any], preset: str, field: str, **changes: Any) -> None:
    """Update the play entry of one preset and field (made, playing the tables alone, if missing)."""
    for entry in manifest["play"]:
        if (entry["preset"], entry["field"]) == (preset, field):
            entry.update(changes)
            return
    entry = {"preset": preset, "field": field, "tables": None, "removal": None, "correction": [], "hand_terms": [],
             "passes": None, "why": ""}  # fmt: skip
    entry.update(changes)
    manifest["play"].append(entry)
