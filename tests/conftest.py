"""Shared fixtures: paths to the shared rules and vectors, and a data folder of the run's own."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
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


def worker_name() -> str:
    """This process's pytest-xdist worker ("gw0", "gw1", ...), or "main" in a serial run."""
    return os.environ.get("PYTEST_XDIST_WORKER", "main")


@pytest.fixture(scope="session", autouse=True)
def private_data_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Point MAU_BINH_DATA_DIR at a temporary folder for the whole run (and drop any
    MAU_BINH_DATABASE_URL), so no test, nor a server a browser test starts, writes to the
    real user data folder or database.  Under pytest-xdist each worker has a folder (and so
    an SQLite file) of its own: the servers of one worker share it, no two workers do."""
    folder = tmp_path_factory.mktemp(f"mau-binh-data-{worker_name()}")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MAU_BINH_DATA_DIR", str(folder))
        patch.delenv("MAU_BINH_DATABASE_URL", raising=False)
        yield folder


def load_public_vectors() -> list[dict[str, Any]]:
    with open(shared_dir() / "vectors" / "mau-binh-public.json", encoding="utf-8") as fh:
        return list(json.load(fh)["vectors"])


@pytest.fixture(scope="session")
def public_vectors() -> list[dict[str, Any]]:
    return load_public_vectors()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Leave ``slow`` tests out unless ``-m`` names them or MAU_BINH_SLOW=1, and ``postgres`` tests
    unless MAU_BINH_TEST_POSTGRES_URL names a server (deselected, not skipped)."""
    left_out = set()
    if "slow" not in (config.getoption("-m") or "") and os.environ.get("MAU_BINH_SLOW") != "1":
        left_out.add("slow")
    if not os.environ.get("MAU_BINH_TEST_POSTGRES_URL"):
        left_out.add("postgres")
    out = [item for item in items if any(item.get_closest_marker(name) for name in left_out)]
    if out:
        items[:] = [item for item in items if item not in out]
        config.hook.pytest_deselected(items=out)


def pytest_itemcollected(item: pytest.Item) -> None:
    """Keep each browser module on one pytest-xdist worker (``--dist loadgroup``, set in
    pyproject.toml): its module-scoped ``server`` and ``browser`` start once, not once on
    every worker that would get one of its tests.  The other tests go one by one to
    whichever worker is free."""
    if item.get_closest_marker("browser") or {"server", "browser"} & set(getattr(item, "fixturenames", ())):
        item.add_marker(pytest.mark.xdist_group(item.path.stem))


# --- the real-browser tests' server and browser (one of each per test module) ----------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app under ``streamlit run`` on a free loopback port (or MAU_BINH_APP_URL, a
    server you already run)."""
    existing = os.environ.get("MAU_BINH_APP_URL")
    if existing:
        yield existing.rstrip("/")
        return
    from tests.browser_support import streamlit_server

    with streamlit_server("streamlit_app.py", tmp_path_factory.mktemp("streamlit") / "server.log") as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's headless Chromium driven by Playwright (no browser download)."""
    from playwright import sync_api

    from tests.browser_support import CHROMIUM, CHROMIUM_ARGS, require_chromium

    require_chromium()
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()
