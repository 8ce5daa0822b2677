"""A Zotero library's database (``zotero.sqlite``), read in place and read-only.

Format: Zotero's schema (repository zotero/zotero, ``resource/schema/userdata.sql``, Zotero 5
and later; field, item-type and creator-type names from its global schema). Items are rows of
``items`` (``itemID``, ``itemTypeID``, ``libraryID``, ``key``); their fields are
``itemData(itemID, fieldID, valueID)`` -> ``itemDataValues(valueID, value)`` with names in
``fields``/``fieldsCombined`` (``title``, ``abstractNote``, ``date``, ``DOI``, ``url``,
``extra``, ``publicationTitle``, ``proceedingsTitle``, ``conferenceName``, ``repository``,
``archiveID``, ...); creators are ``itemCreators(itemID, creatorID, creatorTypeID, orderIndex)``
-> ``creators(firstName, lastName, fieldMode)`` (``fieldMode`` 1: one-field name in
``lastName``) with types in ``creatorTypes``; collections are ``collections(collectionID,
collectionName, parentCollectionID)`` and ``collectionItems``; items in the trash are listed in
``deletedItems``; notes, attachments and annotations are items of those types; RSS feeds are
libraries of type ``feed``. Dates are stored as ``"2023-05-12 2023-05-12"`` or
``"2023-00-00 2023"`` (SQL date, then the date as typed).

The file is opened with ``mode=ro&immutable=1``: nothing is written and a running Zotero's lock
does not matter. Changes Zotero has not yet written back from its journal (the last seconds or
minutes of editing) may not be seen; close Zotero for an exact snapshot.
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from pathlib import Path

from store.formats.common import (
    arxiv_id,
    citation_key,
    clean_abstract,
    clean_title,
    doi_url,
    normalize_doi,
    person_name,
    stable_id,
    text,
    year_in,
)
from store.papers import IngestProblem, Paper, ReadResult, make_paper

__all__ = ["looks_like_sqlite", "read_zotero_sqlite"]

_SQLITE_MAGIC = b"SQLite format 3\x00"
_SKIPPED_TYPES = ("note", "attachment", "annotation")
_VENUE_FIELDS = ("publicationTitle", "proceedingsTitle", "conferenceName", "bookTitle", "repository", "publisher")
_FIELDS = (
    "title", "abstractNote", "date", "DOI", "url", "extra", "archiveID", "number", "citationKey", *_VENUE_FIELDS
)
_REQUIRED = ("items", "itemData", "itemDataValues", "creators", "itemCreators", "creatorTypes")


def looks_like_sqlite(head: bytes) -> bool:
    """Whether a file's first bytes are an SQLite database header."""
    return head.startswith(_SQLITE_MAGIC)


class _NotZotero(Exception):
    """The database lacks the Zotero tables; the message says which."""


def _tables(con: sqlite3.Connection) -> set[str]:
    return {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def _names(
    con: sqlite3.Connection, tables: set[str], combined: str, plain: str, id_col: str, name_col: str
) -> dict[int, str]:
    """``{id: name}`` from Zotero's ``...Combined`` table (custom types too) or its plain one."""
    for table in (combined, plain):
        if table in tables:
            rows = con.execute(f"SELECT {id_col}, {name_col} FROM {table}").fetchall()
            if rows:
                return dict(rows)
    raise _NotZotero(f"no {plain} table")


def _collection_items(con: sqlite3.Connection, tables: set[str], name: str) -> set[int]:
    """Ids of the items of every collection called ``name`` (case-insensitive) and its subcollections.

    Raises:
        _NotZotero: No collection has that name (the message lists the names there are).
    """
    if "collections" not in tables or "collectionItems" not in tables:
        raise _NotZotero("no collections table")
    deleted = "deletedCollections" in tables
    rows = con.execute(
        "SELECT collectionID, collectionName, parentCollectionID FROM collections"
        + (" WHERE collectionID NOT IN (SELECT collectionID FROM deletedCollections)" if deleted else "")
    ).fetchall()
    wanted = {cid for cid, cname, _ in rows if text(cname).casefold() == text(name).casefold()}
    if not wanted:
        names = sorted({text(c) for _, c, _ in rows}, key=str.casefold)
        listed = ", ".join(repr(n) for n in names[:20]) + (", ..." if len(names) > 20 else "")
        raise _NotZotero(f"no collection named {name!r} (collections: {listed or 'none'})")
    children: dict[int, list[int]] = defaultdict(list)
    for cid, _, parent in rows:
        if parent is not None:
            children[parent].append(cid)
    todo, seen = list(wanted), set()
    while todo:
        cid = todo.pop()
        if cid not in seen:
            seen.add(cid)
            todo.extend(children[cid])
    marks = ",".join("?" * len(seen))
    query = f"SELECT itemID FROM collectionItems WHERE collectionID IN ({marks})"
    return {r[0] for r in con.execute(query, sorted(seen))}


def _read(con: sqlite3.Connection, path: Path, collection: str | None, result: ReadResult) -> None:
    tables = _tables(con)
    missing = [t for t in _REQUIRED if t not in tables]
    if missing:
        raise _NotZotero(f"not a Zotero database (no {', '.join(missing)} table)")
    columns = {r[1] for r in con.execute("PRAGMA table_info(creators)")}
    if "lastName" not in columns:
        raise _NotZotero("a Zotero database older than Zotero 5 (creators without names); open it in Zotero 5+ first")
    types = _names(con, tables, "itemTypesCombined", "itemTypes", "itemTypeID", "typeName")
    fields = _names(con, tables, "fieldsCombined", "fields", "fieldID", "fieldName")
    creator_types = dict(con.execute("SELECT creatorTypeID, creatorType FROM creatorTypes").fetchall())
    in_scope = _collection_items(con, tables, collection) if collection else None

    where = []
    if "deletedItems" in tables:
        where.append("itemID NOT IN (SELECT itemID FROM deletedItems)")
    if "libraries" in tables and "type" in {r[1] for r in con.execute("PRAGMA table_info(libraries)")}:
        where.append("libraryID NOT IN (SELECT libraryID FROM libraries WHERE type = 'feed')")
    query = "SELECT itemID, key, itemTypeID FROM items" + (" WHERE " + " AND ".join(where) if where else "")
    items = [
        (iid, key, tid)
        for iid, key, tid in con.execute(query + " ORDER BY itemID")
        if types.get(tid) not in _SKIPPED_TYPES and (in_scope is None or iid in in_scope)
    ]
    wanted_fields = {fid: name for fid, name in fields.items() if name in _FIELDS}
    values: dict[int, dict[str, str]] = defaultdict(dict)
    marks = ",".join("?" * len(wanted_fields)) or "NULL"
    for iid, fid, value in con.execute(
        "SELECT d.itemID, d.fieldID, v.value FROM itemData d JOIN itemDataValues v ON v.valueID = d.valueID "
        f"WHERE d.fieldID IN ({marks})",
        list(wanted_fields),
    ):
        values[iid][wanted_fields[fid]] = value if isinstance(value, str) else str(value)
    creators: dict[int, list[str]] = defaultdict(list)
    for iid, first, last, mode, ctype in con.execute(
        "SELECT ic.itemID, c.firstName, c.lastName, c.fieldMode, ic.creatorTypeID "
        "FROM itemCreators ic JOIN creators c ON c.creatorID = ic.creatorID ORDER BY ic.itemID, ic.orderIndex"
    ):
        if creator_types.get(ctype) == "author":
            name = text(last) if mode == 1 else person_name(first, last)
            if name:
                creators[iid].append(name)
    for iid, key, _ in items:
        try:
            result.papers.append(_paper(key, values.get(iid, {}), creators.get(iid, []), source=path.name))
        except ValueError as exc:
            result.problems.append(IngestProblem(path.name, None, str(exc)))
    if not items:
        scope = f"collection {collection!r}" if collection else "the library"
        result.problems.append(IngestProblem(path.name, None, f"{scope} holds no items (notes and attachments aside)"))


def _paper(key: str, f: dict[str, str], authors: list[str], *, source: str) -> Paper:
    """Build a paper from one item's fields; raises ``ValueError`` naming the item key and title."""
    title = clean_title(f.get("title"))
    abstract = clean_abstract(f.get("abstractNote"))
    if not abstract:
        shown = f" ({title[:60]!r})" if title else ""
        raise ValueError(f"item {key}{shown} has no abstract")
    extra = f.get("extra", "")
    doi = normalize_doi(f.get("DOI"))
    if not doi:
        doi = next((normalize_doi(ln) for ln in extra.splitlines() if ln.strip().lower().startswith("doi:")), "")
    url = text(f.get("url"))
    arxiv = arxiv_id(f.get("archiveID"), f.get("number"), *extra.splitlines(), url, doi)
    venue = next((text(f[name]) for name in _VENUE_FIELDS if text(f.get(name))), "")
    return make_paper(
        stable_id(doi, arxiv, f"zotero:{key}"),
        abstract,
        title=title,
        authors=authors,
        year=year_in(f.get("date")),
        venue=venue,
        url=url or doi_url(doi),
        source=source,
        doi=doi,
        cite_key=citation_key(f.get("citationKey"), extra),
    )


def read_zotero_sqlite(path: Path, collection: str | None = None) -> ReadResult:
    """Read the regular items of a Zotero database (not notes, attachments, trashed or feed items).

    Args:
        path: ``zotero.sqlite`` (Zotero may be running).
        collection: Read only the items of the collection(s) of this name (case-insensitive)
            and of their subcollections; ``None`` reads the whole library, group libraries included.

    Returns:
        One paper per item with an abstract (id the DOI, else the arXiv id from the archive ID,
        Extra or URL, else ``zotero:<item key>``; citation key the ``citationKey`` field's, else
        the one Extra pins); one problem per item without an abstract,
        naming its key and title; one problem for a file that is not a Zotero database or a
        collection name that does not exist (the problem lists the collections).
    """
    result = ReadResult(file=path.name)
    try:
        con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True)
    except sqlite3.Error as exc:
        result.problems.append(IngestProblem(path.name, None, f"cannot open the database: {exc}"))
        return result
    try:
        _read(con, path, collection, result)
    except _NotZotero as exc:
        result.problems.append(IngestProblem(path.name, None, str(exc)))
    except sqlite3.Error as exc:
        result.problems.append(IngestProblem(path.name, None, f"cannot read the database: {exc}"))
    finally:
        con.close()
    return result
