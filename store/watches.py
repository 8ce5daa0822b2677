"""Saved questions ("watches"): kept in ``<home>/watches.json``, with the papers each has reported.

``paperchat watch "QUESTION"``, the page's *Watch this question*, the MCP tools and the API save a
question here; after every ingest each one is asked again over the papers just added or updated
(:mod:`rag.route.watch`), and the papers it then matches are recorded as reported, so that no
paper is reported twice. The file survives restarts and is shared by every process on the data
directory: each change is a read-modify-write under ``<home>/watches.lock`` (a ``filelock`` lock,
released by the operating system when its process ends), written to a temporary file and moved
into place, so a reader never sees half a file.

The reports of the last ingests are kept too (:meth:`Watches.report`, the last :data:`KEPT_REPORTS`),
numbered, so that a page open meanwhile shows what an ingest through another entry found.

File shape: ``{"watches": [{"question": str, "added": "YYYY-MM-DD HH:MM:SS", "reported": [paper id,
...]}], "reports": [{"n": int, "at": "YYYY-MM-DD HH:MM:SS", "lines": [str]}]}``, in the order saved.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from filelock import FileLock

__all__ = ["KEPT_REPORTS", "WATCH_FILE", "Report", "Watch", "WatchError", "Watches"]

WATCH_FILE = "watches.json"
"""The file of the data directory that holds the saved questions."""

KEPT_REPORTS = 20
"""Reports of ingests kept in the file (the oldest go first): a page shows those made since it last looked."""

_LOCK_TIMEOUT = 10.0
"""Seconds a change waits for another process's change to the file (each takes milliseconds)."""


class WatchError(ValueError):
    """A question that cannot be saved or removed; the message says why and what to do."""


@dataclass
class Watch:
    """One saved question.

    Attributes:
        question: The question as saved (normalised text, as asked).
        added: When it was saved, local time ``YYYY-MM-DD HH:MM:SS``.
        reported: Ids of the papers already reported as matching it, in the order reported.
    """

    question: str
    added: str = ""
    reported: list[str] = field(default_factory=list)


@dataclass
class Report:
    """What the saved questions found after one ingest.

    Attributes:
        n: Its number, from 1, increasing with every report of this data directory.
        at: When, local time ``YYYY-MM-DD HH:MM:SS``.
        lines: One line per saved question (:meth:`rag.route.watch.WatchReport.line`).
    """

    n: int
    at: str
    lines: list[str]


@dataclass
class _State:
    watches: list[Watch]
    reports: list[Report]


def _now() -> str:
    return datetime.now().astimezone().strftime("%Y-%m-%d %H:%M:%S")


def _key(question: str) -> str:
    """How two saved questions are told apart: case and white space ignored."""
    return " ".join(question.casefold().split())


class Watches:
    """The saved questions of one data directory.

    Args:
        home: The data directory (``settings.home``); the file is created on the first save.
    """

    def __init__(self, home: Path):
        self.home = Path(home)
        self.path = self.home / WATCH_FILE
        self._lock_path = self.home / "watches.lock"

    def _read(self) -> _State:
        """Everything the file holds (nothing when it is missing or unreadable)."""
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return _State([], [])
        data = data if isinstance(data, dict) else {}
        watches = []
        for it in data.get("watches", []):
            if isinstance(it, dict) and isinstance(it.get("question"), str) and it["question"].strip():
                reported = [str(x) for x in it.get("reported", []) if isinstance(x, str)]
                watches.append(Watch(it["question"], str(it.get("added", "")), reported))
        reports = [
            Report(int(r["n"]), str(r.get("at", "")), [str(x) for x in r.get("lines", [])])
            for r in data.get("reports", [])
            if isinstance(r, dict) and isinstance(r.get("n"), int)
        ]
        return _State(watches, reports)

    def load(self) -> list[Watch]:
        """The saved questions, in the order saved (``[]`` when none or the file is unreadable)."""
        return self._read().watches

    def __bool__(self) -> bool:
        return bool(self.load())

    @contextmanager
    def _changing(self) -> Iterator[_State]:
        """The file's content to change in place; written back when the block ends without error."""
        self.home.mkdir(parents=True, exist_ok=True)
        with FileLock(self._lock_path, timeout=_LOCK_TIMEOUT):
            state = self._read()
            yield state
            body = {
                "watches": [{"question": w.question, "added": w.added, "reported": w.reported} for w in state.watches],
                "reports": [{"n": r.n, "at": r.at, "lines": r.lines} for r in state.reports[-KEPT_REPORTS:]],
            }
            fd, tmp = tempfile.mkstemp(dir=self.home, prefix=".watches-", suffix=".json")
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    json.dump(body, f, ensure_ascii=False, indent=1)
                os.replace(tmp, self.path)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise

    def report(self, lines: Iterable[str]) -> int:
        """Keep the report of one ingest; returns its number (0 for no line: nothing kept)."""
        kept = list(lines)
        if not kept:
            return 0
        with self._changing() as state:
            n = (state.reports[-1].n if state.reports else 0) + 1
            state.reports.append(Report(n, _now(), kept))
            return n

    def reports_after(self, n: int) -> list[Report]:
        """The kept reports numbered above ``n``, oldest first."""
        return [r for r in self._read().reports if r.n > n]

    def last_report(self) -> int:
        """The number of the latest report (0 when none was kept)."""
        reports = self._read().reports
        return reports[-1].n if reports else 0

    def add(self, question: str) -> tuple[Watch, bool]:
        """Save a question.

        Args:
            question: The question (normalised text; surrounding white space is dropped).

        Returns:
            ``(watch, added)``: ``added`` False when the same question (case and spacing aside)
            was already saved; that one is returned unchanged.

        Raises:
            WatchError: the question is empty.
        """
        text = " ".join(question.split())
        if not text:
            raise WatchError('give the question to watch, e.g. paperchat watch "reinforcement learning for LLM agents"')
        with self._changing() as state:
            for w in state.watches:
                if _key(w.question) == _key(text):
                    return w, False
            w = Watch(text, _now())
            state.watches.append(w)
            return w, True

    def find(self, which: str) -> Watch:
        """The saved question ``which`` names: its text (case and spacing aside) or its number in
        :meth:`load`'s order, from 1.

        Raises:
            WatchError: none is saved under that text or number (the message lists what is saved).
        """
        watches = self.load()
        text = which.strip()
        if text.isdigit() and 1 <= int(text) <= len(watches):
            return watches[int(text) - 1]
        for w in watches:
            if _key(w.question) == _key(text):
                return w
        saved = "; ".join(f"{i}. {w.question}" for i, w in enumerate(watches, start=1)) or "none"
        raise WatchError(f"no saved question “{text}” (saved: {saved}); give its text or number")

    def remove(self, which: str) -> Watch:
        """Remove the saved question ``which`` names (see :meth:`find`) and return it.

        Raises:
            WatchError: none is saved under that text or number.
        """
        target = self.find(which)
        with self._changing() as state:
            state.watches = [w for w in state.watches if _key(w.question) != _key(target.question)]
        return target

    def record(self, question: str, paper_ids: Iterable[str]) -> None:
        """Record papers as reported for a saved question (ids already recorded are not repeated;
        a question removed meanwhile is left removed)."""
        ids = list(paper_ids)
        if not ids:
            return
        with self._changing() as state:
            for w in state.watches:
                if _key(w.question) == _key(question):
                    w.reported += [pid for pid in dict.fromkeys(ids) if pid not in w.reported]
