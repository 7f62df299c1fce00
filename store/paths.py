"""Where the store keeps its data: the data folder and the database URL.

Everything the app writes lives under one folder, ``MAU_BINH_DATA_DIR`` when it is set,
else the user's data folder as the platform names it (``platformdirs``: on Linux
``~/.local/share/mau-binh``).  The database is the SQLite file ``mau-binh.sqlite3`` in that
folder unless ``MAU_BINH_DATABASE_URL`` names another database (a PostgreSQL URL for a
deployment with several app processes).  A folder the store creates is private to the user
(mode 0700): the database holds the profile ids, which open the profiles.  Both are read at
call time, so a test (or a server it starts) that sets the variables gets its own folder.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

#: The environment variable naming the data folder.
DATA_DIR_ENV = "MAU_BINH_DATA_DIR"
#: The environment variable naming the database (an SQLAlchemy URL).
DATABASE_URL_ENV = "MAU_BINH_DATABASE_URL"
#: The SQLite file's name inside the data folder.
DATABASE_FILE = "mau-binh.sqlite3"


def data_dir() -> Path:
    """The data folder (``MAU_BINH_DATA_DIR``, else the user's data folder), created on demand."""
    configured = os.environ.get(DATA_DIR_ENV, "").strip()
    path = Path(configured).expanduser() if configured else Path(platformdirs.user_data_dir("mau-binh"))
    path.mkdir(mode=0o700, parents=True, exist_ok=True)  # profile ids open profiles: not for other users
    return path


def database_url() -> str:
    """The database URL: ``MAU_BINH_DATABASE_URL``, else the SQLite file in :func:`data_dir`."""
    configured = os.environ.get(DATABASE_URL_ENV, "").strip()
    if configured:
        return configured
    return f"sqlite:///{data_dir() / DATABASE_FILE}"
