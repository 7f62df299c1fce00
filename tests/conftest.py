"""Shared fixtures: paths to the shared rules and vectors."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


def shared_dir() -> Path:
    """The shared/ folder beside the project (CI lays it next to the clone)."""
    for candidate in (ROOT.parent / "shared", ROOT / "shared"):
        if (candidate / "vectors").is_dir():
            return candidate
    raise FileNotFoundError(f"shared/vectors not found next to {ROOT}")


def load_public_vectors() -> list[dict[str, Any]]:
    with open(shared_dir() / "vectors" / "mau-binh-public.json", encoding="utf-8") as fh:
        return list(json.load(fh)["vectors"])


@pytest.fixture(scope="session")
def public_vectors() -> list[dict[str, Any]]:
    return load_public_vectors()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Leave ``slow`` tests out unless ``-m`` names them or MAU_BINH_SLOW=1 (deselected, not skipped)."""
    if "slow" in (config.getoption("-m") or "") or os.environ.get("MAU_BINH_SLOW") == "1":
        return
    slow = [item for item in items if item.get_closest_marker("slow")]
    if slow:
        items[:] = [item for item in items if not item.get_closest_marker("slow")]
        config.hook.pytest_deselected(items=slow)
