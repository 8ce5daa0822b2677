"""Each evidence sentence is quoted once in a chat message.

The answer's text (:mod:`rag.route.answer`, :mod:`rag.route.compare`) is what the evaluation, the
command line and the exports read, and it quotes a sentence more than once: an extractive answer's
lead quotes the key clause of a sentence that its ``Evidence:`` list then quotes whole; a comparison
quotes the same sentence in its lead, in the aspect asked and in two rows of its table. The page
shows each sentence once (the evidence panel shows it in its abstract): :class:`Quoted` keeps
what a message has quoted so far, by evidence span, and

* :func:`drop_repeated_quotes` drops a repeated quotation from the lists of the text (a bullet
  left with nothing quoted goes, and a list left empty goes with its heading);
* a table's cell whose sentences were all quoted before says where instead ("quoted above", "same
  as Data / benchmarks", :func:`repeat_note`).

Quotations are found by the exact string the route writes for a sentence (:func:`quote`), and a
lead's shorter quotations by being part of one sentence of the answer's evidence.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from rag.types import Citation, Evidence
from store.papers import strip_markup

__all__ = [
    "ABOVE",
    "MAX_LABEL",
    "MIN_FRAGMENT",
    "EvidenceKey",
    "Quoted",
    "drop_repeated_quotes",
    "evidence_key",
    "quote",
    "repeat_note",
]

EvidenceKey = tuple[str, int, int]
"""An evidence sentence by ``(paper id, start, end)``: its span in the stored abstract."""

ABOVE = ""
"""Where a sentence quoted in the text of the message (not in a table row) was quoted."""

MIN_FRAGMENT = 20
"""Fewest characters of a lead's quotation that count as quoting the sentence it is part of
(a shorter one counts when it is at least half the sentence)."""

_QUOTATION = re.compile(r"“([^“”]+)”")


def evidence_key(e: Evidence) -> EvidenceKey:
    """The key of an evidence sentence (:data:`EvidenceKey`)."""
    return (e.paper_id, e.start, e.end)


def quote(e: Evidence) -> str:
    """A sentence quoted as every route quotes it: ``“`` + :func:`store.papers.strip_markup` + ``”``."""
    return f"“{strip_markup(e.sentence)}”"


class Quoted:
    """The sentences a message has quoted so far, and where (:data:`ABOVE` or a table row's title).

    Args:
        citations: The message's citations; their evidence is what can be quoted.
    """

    def __init__(self, citations: Iterable[Citation]):
        """Start with nothing quoted."""
        self.evidence: list[Evidence] = [e for c in citations for e in c.evidence]
        self.where: dict[EvidenceKey, str] = {}

    def read_lead(self, lead: str) -> None:
        """Count as quoted (:data:`ABOVE`) each sentence the lead quotes, whole or in part: a
        quotation (without its ``…``) that stands in the sentence and has at least
        :data:`MIN_FRAGMENT` characters or half the sentence's."""
        for m in _QUOTATION.finditer(lead):
            frag = m.group(1).strip().rstrip("…").strip()
            if not frag:
                continue
            for e in self.evidence:
                sentence = strip_markup(e.sentence)
                if frag in sentence and (len(frag) >= MIN_FRAGMENT or 2 * len(frag) >= len(sentence)):
                    self.where.setdefault(evidence_key(e), ABOVE)

    def seen(self, e: Evidence) -> str | None:
        """Where ``e`` was quoted, or ``None`` when it was not."""
        return self.where.get(evidence_key(e))

    def show(self, e: Evidence, where: str = ABOVE) -> None:
        """Record that ``e`` is quoted now, at ``where`` (the first place is kept)."""
        self.where.setdefault(evidence_key(e), where)

    def repeated(self, evidence: Sequence[Evidence]) -> list[str]:
        """Where each of ``evidence`` already quoted was quoted, in order, each place once."""
        places = [w for e in evidence if (w := self.seen(e)) is not None]
        return list(dict.fromkeys(places))


def repeat_note(places: Sequence[str], *, partly: bool = False) -> str:
    """What a table cell says instead of sentences quoted before (Markdown, italic).

    Args:
        places: Where they were quoted (:meth:`Quoted.repeated`), non-empty.
        partly: The cell quotes other sentences too (the note then follows them).

    >>> repeat_note(["Data / benchmarks"])
    '_same as **Data / benchmarks**_'
    >>> repeat_note([""], partly=True)
    '_(and a sentence quoted above)_'
    """
    rows = [p for p in places if p != ABOVE]
    where = "quoted above" if ABOVE in places or not rows else "same as " + " and ".join(f"**{r}**" for r in rows)
    if partly:
        return f"_(and a sentence {where.replace('same as', 'as in')})_"
    return f"_{where}_"


def _is_bullet(line: str) -> bool:
    return line.startswith("- ")


MAX_LABEL = 60
"""Most characters of a line ending with ``:`` that only introduces a list (``Evidence:``, "Here is
what each reports:"); a longer one says something (a verdict) and stays when its list goes."""


def _is_label(line: str) -> bool:
    """A line that only introduces a list: ``Evidence:``, a bold heading ``**Data**``."""
    s = line.strip()
    return (s.endswith(":") and len(s) <= MAX_LABEL) or (len(s) > 4 and s.startswith("**") and s.endswith("**"))


def _drop_from_line(line: str, quoted: Quoted) -> tuple[str, bool]:
    """The line without the quotations it repeats; whether it quoted something and now quotes nothing."""
    found = sorted(((line.find(quote(e)), e) for e in quoted.evidence if quote(e) in line), key=lambda t: t[0])
    if not found:
        return line, False
    kept = line
    left = 0
    for _, e in found:
        q = quote(e)
        if quoted.seen(e) is not None:
            kept = re.sub(r"[ \t]*" + re.escape(q), "", kept, count=1)
        else:
            quoted.show(e)
            left += 1
    return kept, left == 0


def drop_repeated_quotes(text: str, quoted: Quoted) -> str:
    """``text`` without the quotations of sentences already quoted (see the module docstring).

    Paragraphs (separated by a blank line) are read in order. In each line, a quotation of a
    sentence ``quoted`` holds is removed, the others are recorded; a line that quoted something
    and is left with nothing quoted is dropped. A paragraph whose bullets were all dropped goes
    when the rest of it only introduces them (``Evidence:``, ``**Data**``); a line that only
    introduces lists ("A [1] and B [2] on what the question asks:") goes when all of them went.

    Args:
        text: Markdown of an answer, after its lead (Markdown tables are left alone).
        quoted: What the message quoted before ``text``; updated with what ``text`` quotes.
    """
    paragraphs = text.split("\n\n")
    kept: list[str | None] = []
    had_list: list[bool] = []
    for para in paragraphs:
        lines = para.split("\n")
        if any(line.startswith("|") for line in lines):  # a table: rendered by its own function
            kept.append(para)
            had_list.append(False)
            continue
        out, bullets = [], 0
        for line in lines:
            new, emptied = _drop_from_line(line, quoted)
            bullets += _is_bullet(line)
            if not emptied:
                out.append(new)
        gone = bullets > 0 and not any(_is_bullet(x) for x in out) and all(_is_label(x) for x in out)
        kept.append(None if gone else "\n".join(out))
        had_list.append(_is_bullet(lines[0]) or (len(lines) > 1 and _is_label(lines[0])))  # a list, or headed one
    # An introducing paragraph ("... on what the question asks:") goes when every list after it went.
    for i, intro in enumerate(kept):
        if intro is None or "\n" in intro or not intro.rstrip().endswith(":"):
            continue
        j = i + 1
        following = []
        while j < len(kept) and had_list[j]:
            following.append(kept[j])
            j += 1
        if following and all(p is None for p in following):
            kept[i] = None
    return "\n\n".join(p for p in kept if p is not None)
