"""Build the test Zotero database from ``fixtures/imports/zotero_library.sql``."""

from __future__ import annotations

import sqlite3
from pathlib import Path

IMPORTS = Path(__file__).resolve().parent / "fixtures" / "imports"
ZOTERO_SQL = IMPORTS / "zotero_library.sql"


def build_zotero_db(folder: Path, name: str = "zotero.sqlite") -> Path:
    """Create ``folder/name`` from the SQL script and return its path."""
    path = folder / name
    path.unlink(missing_ok=True)
    con = sqlite3.connect(path)
    try:
        con.executescript(ZOTERO_SQL.read_text(encoding="utf-8"))
        con.commit()
    finally:
        con.close()
    return path
