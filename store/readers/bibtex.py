"""The BibTeX reader (bibtexparser 2.x): one paper per entry, LaTeX accents and braces decoded,
each garbled block or entry without an abstract named by its line and key."""

from __future__ import annotations

import logging
import re
import threading
import warnings
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from store.papers import IngestProblem, Paper, ReadResult, decode_file, make_paper
from store.readers.fields import lookup, parse_year

__all__ = ["bib_identities", "latex_to_text", "read_bibtex"]

log = logging.getLogger(__name__)

#: Loggers of the libraries a BibTeX file is read with; what they say while a file is read is
#: collected, never printed (a garbled entry is reported as that entry's problem instead).
_LIBRARY_LOGGERS = ("bibtexparser", "pylatexenc")
_capturing = threading.Lock()
#: bibtexparser's message for a block it gave up on (the block also becomes a ParsingFailedBlock).
_ABORTED = re.compile(r"Parsing of `@?(\w*)[^`]*` block \(line (\d+)\) aborted on line \d+[^:]*:\s*(.*)", re.S)


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.messages.append(f"{record.name}: {record.getMessage()}")
        except Exception:  # noqa: BLE001 - a message that cannot be formatted is dropped, never raised
            self.messages.append(f"{record.name}: {record.msg!r}")


@contextmanager
def _library_messages() -> Iterator[list[str]]:
    """Collect what the BibTeX libraries log or warn meanwhile, instead of letting it reach the console.

    Yields the list the messages are appended to (``"logger: message"``; warnings as
    ``"warning: message"`` once the block ends). One file is read at a time under this.
    """
    handler = _Collect()
    loggers = [logging.getLogger(name) for name in _LIBRARY_LOGGERS]
    with _capturing, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        saved = [lg.propagate for lg in loggers]
        for lg in loggers:
            lg.addHandler(handler)
            lg.propagate = False
        try:
            yield handler.messages
        finally:
            for lg, propagate in zip(loggers, saved, strict=True):
                lg.removeHandler(handler)
                lg.propagate = propagate
            handler.messages.extend(f"warning: {w.message}" for w in caught)


def _unbrace(value: str) -> str:
    r"""Plain text of a BibTeX title/name: braces dropped, accents decoded, whitespace collapsed.

    ``{DANCE}: {T}ext`` -> ``DANCE: Text``; ``M{\"u}ller`` -> ``Müller`` (through
    pylatexenc, a bibtexparser dependency, only when the value holds a backslash).
    """
    if "\\" in value:
        value = latex_to_text(value)
    return " ".join(re.sub(r"(?<!\\)[{}]", "", value).split())


def latex_to_text(value: str) -> str:
    """Decode LaTeX accents and commands; undecodable LaTeX is returned as written."""
    try:
        from pylatexenc.latex2text import LatexNodes2Text

        escaped = re.sub(r"(?<!\\)%", r"\\%", value)  # a bare % would start a LaTeX comment
        return LatexNodes2Text(math_mode="verbatim").latex_to_text(escaped).replace("\xa0", " ")
    except Exception:  # noqa: BLE001 - pylatexenc missing or failing: keep the text
        return value


def _bib_authors(value: str) -> list[str]:
    """``"Last, First and First Last"`` -> ``["First Last", "First Last"]``."""
    from bibtexparser.middlewares.names import parse_single_name_into_parts, split_multiple_persons_names

    names = []
    for raw in split_multiple_persons_names(value):
        try:
            name = parse_single_name_into_parts(raw, strict=False).merge_first_name_first
        except Exception:  # noqa: BLE001 - a name the splitter cannot handle is kept as written
            name = raw
        name = _unbrace(name)
        if name:
            names.append(name)
    return names


def _bib_url(fields: Mapping[str, str]) -> str:
    if fields.get("url"):
        return _unbrace(fields["url"])
    doi = _unbrace(fields.get("doi", ""))
    if doi:
        return doi if doi.startswith("http") else f"https://doi.org/{doi}"
    eprint = _unbrace(fields.get("eprint", ""))
    if eprint and fields.get("archiveprefix", "").strip("{} ").lower() == "arxiv":
        return f"https://arxiv.org/abs/{eprint}"
    return ""


def _failed_reason(block: Any) -> str:
    err = block.error
    detail = getattr(err, "abort_reason", None) or getattr(err, "message", None) or str(err) or type(err).__name__
    detail = " ".join(str(detail).split())
    if type(block).__name__ == "DuplicateBlockKeyBlock":
        return f"duplicate entry key {block.key!r}; only the first is read"
    m = re.match(r"\s*@\s*(\w+)\s*[{(]\s*([^,\s{}()=]*)", block.raw or "")
    if m and m.group(1).lower() not in ("string", "preamble", "comment"):
        what = f"entry {m.group(2)!r}" if m.group(2) else f"@{m.group(1)} entry"
        return f"garbled {what}: {detail}"
    return f"garbled block: {detail}"


def read_bibtex(path: Path, field_map: dict[str, str] | None = None) -> ReadResult:
    """Read a BibTeX file with bibtexparser 2.x; the entry key is the paper id and its citation key
    (:attr:`~store.papers.Paper.cite_key`, kept when a merge gives the paper another id).

    ``title`` (braces stripped), ``author`` (``"Last, First and ..."`` to
    ``"First Last"``), ``year``, ``booktitle``/``journal`` as venue and
    ``url``/``doi`` are read; the abstract keeps its text, with line breaks joined.
    An entry without an abstract and a block the parser could not read are problems
    with their line (the entry key is in the reason).

    Args:
        path: The ``.bib`` file.
        field_map: Field -> BibTeX field overrides, e.g. ``{"abstract": "annote"}``.

    Returns:
        The papers read and one problem per bad entry or block, in file order.

    """
    result = ReadResult(file=path.name)
    text = decode_file(path, result)
    if text is None:
        return result
    with _library_messages() as messages:
        _read_entries(text, path, field_map, result)
    _account_for(messages, result)
    return result


def _read_entries(text: str, path: Path, field_map: dict[str, str] | None, result: ReadResult) -> None:
    """Parse ``text`` and add its papers and problems to ``result``."""
    try:
        import bibtexparser
        from bibtexparser.model import DuplicateFieldKeyBlock, Entry, ParsingFailedBlock
    except ImportError:
        result.problems.append(IngestProblem(path.name, None, "cannot read BibTeX: bibtexparser is not installed"))
        return
    try:
        library = bibtexparser.parse_string(text)
    except Exception as exc:  # noqa: BLE001 - a parser crash is a problem for this file only
        result.problems.append(IngestProblem(path.name, None, f"cannot parse BibTeX: {exc}"))
        return

    n_entries = 0
    for block in library.blocks:
        line = block.start_line + 1 if block.start_line is not None else None
        if isinstance(block, DuplicateFieldKeyBlock) and isinstance(block.ignore_error_block, Entry):
            block = block.ignore_error_block  # read it; the first of the duplicate fields wins
        elif isinstance(block, ParsingFailedBlock):
            result.problems.append(IngestProblem(path.name, line, _failed_reason(block)))
            continue
        if not isinstance(block, Entry):
            continue  # @string, @preamble, comments
        n_entries += 1
        try:
            result.papers.append(_paper_from_entry(block, field_map, source=path.name))
        except ValueError as exc:
            result.problems.append(IngestProblem(path.name, line, str(exc)))
    if n_entries == 0 and not result.problems:
        result.problems.append(IngestProblem(path.name, None, "no BibTeX entries found"))


def _account_for(messages: list[str], result: ReadResult) -> None:
    """Turn what the libraries said while reading into problems, or into debug log lines.

    bibtexparser's "Parsing of `@article` block (line 5) aborted ... Unexpectedly reached end
    of file." means an entry failed: it already is a problem of its line (the parser keeps the
    block as failed), else it becomes one. Anything else is only logged at debug level.
    """
    lines = {q.line for q in result.problems}
    added = False
    for message in messages:
        m = _ABORTED.search(message)
        if m and int(m.group(2)) + 1 not in lines:
            kind, line, detail = m.group(1) or "entry", int(m.group(2)) + 1, " ".join(m.group(3).split())
            result.problems.append(IngestProblem(result.file, line, f"garbled @{kind} block: {detail}"))
            lines.add(line)
            added = True
        elif not m:
            log.debug("%s: %s", result.file, message)
    if added:
        result.problems.sort(key=lambda q: (q.line is None, q.line or 0))  # back in file order


def _paper_from_entry(entry: Any, field_map: Mapping[str, str] | None, *, source: str) -> Paper:
    """Build a paper from a bibtexparser ``Entry``; raises ``ValueError`` naming the entry key."""
    fields: dict[str, str] = {}
    for f in entry.fields:
        fields.setdefault(f.key.strip().lower(), f.value if isinstance(f.value, str) else str(f.value))
    abstract = lookup(fields, "abstract", field_map)
    if not abstract or not abstract.strip():
        raise ValueError(f"entry {entry.key!r} has no abstract")
    try:
        year = parse_year(_unbrace(lookup(fields, "year", field_map) or ""))
    except ValueError as exc:
        raise ValueError(f"entry {entry.key!r}: {exc}") from exc
    mapped_url = (field_map or {}).get("url", "").strip().lower()
    return make_paper(
        entry.key,
        re.sub(r"\s*\n\s*", " ", abstract.strip()),
        title=_unbrace(lookup(fields, "title", field_map) or ""),
        authors=_bib_authors(lookup(fields, "authors", field_map) or ""),
        year=year,
        venue=_unbrace(lookup(fields, "venue", field_map) or ""),
        url=_unbrace(fields.get(mapped_url, "")) or _bib_url(fields),
        source=source,
        cite_key=entry.key,
    )


def bib_identities(text: str) -> list[tuple[Paper, Any]]:
    """The entries of a ``.bib`` text as records to match papers by, abstract or not: one
    ``(record, entry)`` per entry, the record holding what identifies the paper (id and
    :attr:`~store.papers.Paper.cite_key` the entry key, ``title``, ``doi``, ``url`` read as
    :func:`read_bibtex` reads them; arXiv ``eprint`` in the URL) and ``entry`` the bibtexparser
    ``Entry`` as parsed (to write it again as the user wrote it). Blocks that are no entry, and
    entries the parser gave up on, are left out.

    Raises:
        ValueError: the text cannot be parsed as BibTeX at all, or holds no entry.
    """
    import bibtexparser
    from bibtexparser.model import DuplicateFieldKeyBlock, Entry

    with _library_messages():
        try:
            library = bibtexparser.parse_string(text)
        except Exception as exc:  # noqa: BLE001 - the parser's own crash, said as bad input
            raise ValueError(f"cannot parse BibTeX: {exc}") from exc
    out = []
    for block in library.blocks:
        if isinstance(block, DuplicateFieldKeyBlock) and isinstance(block.ignore_error_block, Entry):
            block = block.ignore_error_block
        if not isinstance(block, Entry):
            continue
        fields = {f.key.strip().lower(): f.value if isinstance(f.value, str) else str(f.value) for f in block.fields}
        record = Paper(
            id=block.key,
            abstract="",
            title=_unbrace(fields.get("title", "")),
            doi=_unbrace(fields.get("doi", "")),
            url=_bib_url(fields),
            cite_key=block.key,
        )
        out.append((record, block))
    if not out:
        raise ValueError("no BibTeX entries found")
    return out
