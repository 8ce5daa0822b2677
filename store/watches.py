"""Saved questions ("watches"): kept in ``<home>/watches.json``, with the papers each has reported.

``paperchat watch "QUESTION"``, the page's *Watch this question*, the MCP tools and the API save a
question here; after every ingest each one is asked again over the papers just added or updated
(:mod:`rag.route.watch`), and the papers it then matches are recorded as reported, so that no
paper is reported twice. The file survives restarts and is shared by every process on the data
directory: each change is a read-modify-write under ``<home>/watches.lock`` (a ``filelock`` lock,
released by the operating system when its process ends), written to a temporary file and moved
into place, so a reader never sees half a file.

File shape: ``{"watches": [{"question": str, "added": "YYYY-MM-DD HH:MM:SS", "reported": [paper id,
...]}]}``, in the order saved.
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

__all__ = ["WATCH_FILE", "Watch", "WatchError", "Watches"]

WATCH_FILE = "watches.json"
"""The file of the data directory that holds the saved questions."""

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

    def load(self) -> list[Watch]:
        """The saved questions, in the order saved (``[]`` when none or the file is unreadable)."""
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return []
        items = data.get("watches", []) if isinstance(data, dict) else []
        out = []
        for it in items:
            if isinstance(it, dict) and isinstance(it.get("question"), str) and it["question"].strip():
                reported = [str(x) for x in it.get("reported", []) if isinstance(x, str)]
                out.append(Watch(it["question"], str(it.get("added", "")), reported))
        return out

    def __bool__(self) -> bool:
        return bool(self.load())

    @contextmanager
    def _changing(self) -> Iterator[list[Watch]]:
        """The saved questions to change in place; written back when the block ends without error."""
        self.home.mkdir(parents=True, exist_ok=True)
        with FileLock(self._lock_path, timeout=_LOCK_TIMEOUT):
            watches = self.load()
            yield watches
            body = {"watches": [{"question": w.question, "added": w.added, "reported": w.reported} for w in watches]}
            fd, tmp = tempfile.mkstemp(dir=self.home, prefix=".watches-", suffix=".json")
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    json.dump(body, f, ensure_ascii=False, indent=1)
                os.replace(tmp, self.path)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise

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
        with self._changing() as watches:
            for w in watches:
                if _key(w.question) == _key(text):
                    return w, False
            w = Watch(text, datetime.now().astimezone().strftime("%Y-%m-%d %H:%M:%S"))
            watches.append(w)
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
        with self._changing() as watches:
            kept = [w for w in watches if _key(w.question) != _key(target.question)]
            watches[:] = kept
        return target

    def record(self, question: str, paper_ids: Iterable[str]) -> None:
        """Record papers as reported for a saved question (ids already recorded are not repeated;
        a question removed meanwhile is left removed)."""
        ids = list(paper_ids)
        if not ids:
            return
        with self._changing() as watches:
            for w in watches:
                if _key(w.question) == _key(question):
                    w.reported += [pid for pid in dict.fromkeys(ids) if pid not in w.reported]
