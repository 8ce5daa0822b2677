"""Paper records and the readers that turn corpus files into them.

Formats read here:

* the seed text format: a header line, then abstracts separated by blank lines;
  paper ids are ``<file stem>#<n>`` with ``n`` the 1-based position after the header;
* JSONL: one object per line with ``id``, ``title``, ``abstract`` and optional
  ``authors``, ``year``, ``venue``, ``url``;
* any format read here or registered in :data:`READERS`, compressed with gzip
  (``papers.jsonl.gz``: the format is the suffix before ``.gz``, see :mod:`store.compressed`).

A bad record never aborts a file: it becomes an :class:`IngestProblem` naming the
file, the line and the reason, and the remaining records are read.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import re
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from store.compressed import format_suffix, gunzip, inner_name, is_compressed
from store.encoding import read_text
from store.guard import neutralize_markers
from store.labels import (  # noqa: F401 - re-exported: the label helpers were defined here before
    choose_label,
    derive_label,
    find_code_url,
    is_code_link,
    is_name_token,
    is_opening,
    strip_markup,
    title_name,
)
from store.textin import CollectionWords, TextEdit, clean_text, count_lone_surrogates, repair_all, undo_edits

__all__ = [
    "IngestProblem",
    "Paper",
    "ReadResult",
    "derive_label",
    "find_code_url",
    "has_opening_label",
    "is_code_link",
    "make_paper",
    "mend_collection",
    "read_jsonl",
    "read_path",
    "read_seed_text",
    "repair_line_breaks",
    "strip_markup",
]


@dataclass(frozen=True)
class Paper:
    """One paper of the collection.

    Attributes:
        id: Stable paper id, e.g. ``000_6b930c46f6674b66#1`` or ``icml-0a1b2c3d4e5f``.
        abstract: The abstract as written in the source (may hold LaTeX/Markdown), normalised by
            :func:`store.textin.clean_text` (NFC, no control characters, spaces folded).
        title: Title when the source has one, else ``""``.
        label: Display label (:func:`store.labels.choose_label`): the method/system name the
            record states, else its title, else a short descriptive phrase of its abstract.
        authors: Author names in source order (may be empty).
        year: Publication year, or ``None``.
        venue: Venue name such as ``"ICML"``, or ``""``.
        url: Code/project/paper URL (the abstract's first URL when it states one).
        source: File the record came from (file name only).
        aliases: Other names the abstract gives the method (long form, companions).
        doi: The paper's DOI as the source writes it (``10.1145/3292500.3330701``), or ``""``.
        label_kind: What the label is: ``"name"`` (a name the record states), ``"title"`` or
            ``"phrase"`` (a description of the abstract, see :attr:`describes`).
        cite_key: The citation key the user's own reference library gave the record (a ``.bib``
            entry key, a Zotero / Better BibTeX citation key, CSL's ``citation-key``), or ``""``:
            BibTeX exports use it as the entry key (:func:`ui.exports.bibtex_keys`).
        edits: The line-break artefacts ingest mended in the title and abstract
            (:func:`repair_line_breaks`), each ``("title" | "abstract", edit)``; the source's
            own text is :meth:`source_text`. Empty for a paper with none (or stored before).
    """

    id: str
    abstract: str
    title: str = ""
    label: str = ""
    authors: tuple[str, ...] = ()
    year: int | None = None
    venue: str = ""
    url: str = ""
    source: str = ""
    aliases: tuple[str, ...] = field(default=())
    doi: str = ""
    label_kind: str = "name"
    cite_key: str = ""
    edits: tuple[tuple[str, TextEdit], ...] = ()

    def source_text(self, part: str = "abstract") -> str:
        """The ``"abstract"`` or ``"title"`` as the source wrote it, before :attr:`edits`."""
        text = self.title if part == "title" else self.abstract
        return undo_edits(text, [e for f, e in self.edits if f == part])

    @property
    def describes(self) -> bool:
        """Whether the label is a description of the abstract, not a name or title: quoted when a
        question spells it out, never matched as a name (also the older cut-sentence form)."""
        return self.label_kind == "phrase" or self.label.endswith("…")

    @property
    def content_hash(self) -> str:
        """SHA-256 (hex, 16 characters) of every field that reaches the index.

        The DOI and the citation key join the hashed fields only when there is one, so papers
        without them keep the hashes they had before the fields existed (no re-embedding after an
        upgrade); a paper whose import gives it a key is written again once, with its key.
        """
        fields = [self.id, self.title, self.abstract, list(self.authors), self.year, self.venue, self.url]
        if self.cite_key:
            fields += [self.doi, self.cite_key]
        elif self.doi:
            fields.append(self.doi)
        payload = json.dumps(fields, ensure_ascii=False)
        return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:16]

    @property
    def author_line(self) -> str:
        """Authors for a citation: ``"A. Author"``, ``"A. Author and B. Other"`` or ``"A. Author et al."``."""
        if not self.authors:
            return ""
        if len(self.authors) == 1:
            return self.authors[0]
        if len(self.authors) == 2:
            return f"{self.authors[0]} and {self.authors[1]}"
        return f"{self.authors[0]} et al."

    @property
    def text_for_index(self) -> str:
        """Title (when any) and abstract, the text that lexical retrieval reads."""
        return f"{self.title}\n{self.abstract}" if self.title else self.abstract


@dataclass(frozen=True)
class IngestProblem:
    """A record that could not be read: where it is and why.

    Attributes:
        file: File name.
        line: Line the record starts on (``None``: the whole file, or no line known).
        reason: Why, naming the record (row, record number, entry key) where there is one.
        records: How many records of the file this problem fails: 1, or every row of a
            table whose header makes none of them readable (no abstract column).
    """

    file: str
    line: int | None
    reason: str
    records: int = 1

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line is not None else self.file
        return f"{where}: {self.reason}"


@dataclass
class ReadResult:
    """Papers read from one file plus the records that failed.

    Attributes:
        file: File name.
        papers: Papers read, in file order.
        problems: Records (or the whole file) that could not be read; each fails one record,
            or :attr:`IngestProblem.records` records.
        repairs: Records read after a repair (a lone surrogate replaced, a line decoded from
            another encoding, NUL characters removed): ingested, and reported.
        encoding: How the file was decoded (:class:`store.encoding.Decoded`), ``""`` when unread.
    """

    file: str
    papers: list[Paper] = field(default_factory=list)
    problems: list[IngestProblem] = field(default_factory=list)
    repairs: list[IngestProblem] = field(default_factory=list)
    encoding: str = ""


def decode_file(path: Path, result: ReadResult) -> str | None:
    """The text of a corpus file, whatever its encoding (:func:`store.encoding.read_text`).

    Sets ``result.encoding`` and adds a repair per line that needed one; returns ``None``
    after adding a problem when the file cannot be read or holds only white space.
    """
    try:
        decoded = read_text(path)
    except OSError as exc:
        result.problems.append(IngestProblem(path.name, None, f"cannot read file: {exc.strerror or exc}"))
        return None
    result.encoding = decoded.encoding
    result.repairs += [IngestProblem(path.name, line, why) for line, why in decoded.notes]
    if not decoded.text.strip():
        result.problems.append(IngestProblem(path.name, None, "empty file"))
        return None
    return decoded.text


def surrogate_repair(value: object) -> int:
    """Lone surrogates in a parsed record (strings, keys, lists and dicts, recursively)."""
    if isinstance(value, str):
        return count_lone_surrogates(value)
    if isinstance(value, dict):
        return sum(surrogate_repair(k) + surrogate_repair(v) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return sum(surrogate_repair(v) for v in value)
    return 0


def note_surrogates(result: ReadResult, line: int | None, n: int, record: object) -> None:
    """Report record ``n`` at ``line`` when it held lone surrogates (they become U+FFFD)."""
    k = surrogate_repair(record)
    if k:
        what = f"{k} lone surrogate{'s' if k != 1 else ''}"
        result.repairs.append(IngestProblem(result.file, line, f"record {n}: {what} replaced with U+FFFD"))


def has_opening_label(paper: Paper) -> bool:
    """Whether the paper's label is derived from its abstract (no name, no title): a short
    description, so a list entry quotes what the paper does in its own words."""
    return not paper.title and paper.describes


def make_paper(
    id: str,
    abstract: str,
    *,
    title: str = "",
    authors: Iterable[str] = (),
    year: int | None = None,
    venue: str = "",
    url: str = "",
    source: str = "",
    doi: str = "",
    cite_key: str = "",
) -> Paper:
    """Build a :class:`Paper`, deriving its label (:func:`store.labels.choose_label`), aliases
    and code URL from the record. A name the title states before a colon is the label; the name
    the abstract introduces then stays an alias when it is a coined name. Every text field is
    normalised first (:func:`store.textin.clean_text`: NFC, lone surrogates to U+FFFD,
    control characters dropped, white space folded), so whatever a reader decoded can be
    hashed, embedded and stored. ``cite_key`` is the key the user's reference library gave the
    record (``""``: none).

    Raises:
        ValueError: the id or the abstract is empty after normalisation.
    """
    id, abstract, title = clean_text(id), clean_text(abstract, multiline=True), clean_text(title)
    venue, url, source = clean_text(venue), clean_text(url), clean_text(source)
    authors = [clean_text(a) for a in authors if a]
    if not id or not abstract:
        raise ValueError("no id" if not id else "no abstract (nothing readable left in it)")
    label, aliases, kind = choose_label(abstract, title)
    label = neutralize_markers(label or title or id)  # an abstract made only of instructions names nothing
    return Paper(
        id=id,
        abstract=abstract,
        title=title,
        label=label,
        authors=tuple(a.strip() for a in authors if a and a.strip()),
        year=year,
        venue=venue,
        url=url or find_code_url(abstract),
        source=source,
        aliases=aliases,
        doi=doi,
        label_kind=kind,
        cite_key=clean_text(cite_key),
    )


def repair_line_breaks(papers: Sequence[Paper], others: Iterable[Paper] = ()) -> list[Paper]:
    """``papers`` with the line-break artefacts of their titles and abstracts mended
    (:func:`store.textin.repair_breaks`): "atmo- spheric" -> "atmospheric", "two- stage" ->
    "two-stage", "moreefficient" -> "more efficient", as the dictionary and the collection show.

    Args:
        papers: Papers read, as the source wrote them.
        others: The rest of the collection (stored papers not read again): evidence only.

    Returns:
        The papers in order; a repaired one has its :attr:`Paper.edits` and its label, aliases
        and code URL derived again from the repaired text, the others are the same objects.
    """
    return mend_collection(papers, others)[0]


def mend_collection(papers: Sequence[Paper], others: Iterable[Paper] = ()) -> tuple[list[Paper], list[Paper]]:
    """:func:`repair_line_breaks` of ``papers``, and the ``others`` (stored papers not read again)
    whose text the repair would change: stored before it existed, mended only when their files are
    ingested again (the stored chunks and vectors are of the stored text).

    Returns:
        ``(mended papers, others still to mend)``.
    """
    papers, others = list(papers), list(others)
    texts = [p.text_for_index for p in papers]
    old = [p.text_for_index for p in others]
    words = CollectionWords([*texts, *old])
    results = repair_all([*texts, *old], words)
    stale = [p for p, (_, edits) in zip(others, results[len(texts) :], strict=True) if edits]
    out = []
    for p, (text, edits) in zip(papers, results[: len(texts)], strict=True):
        if not edits:
            out.append(p)
            continue
        cut = len(text) if not p.title else text.index("\n")
        title, abstract = (text[:cut], text[cut + 1 :]) if p.title else ("", text)
        shift = cut + 1 if p.title else 0
        tagged = tuple(
            ("title", e) if p.title and e.start < cut else ("abstract", replace(e, start=e.start - shift))
            for e in edits
        )
        label, aliases, kind = p.label, p.aliases, p.label_kind
        if label == neutralize_markers(choose_label(p.abstract, p.title)[0] or p.title or p.id):  # derived, not given
            label, aliases, kind = choose_label(abstract, title)
            label = neutralize_markers(label or title or p.id)
        url = find_code_url(abstract) if p.url and p.url == find_code_url(p.abstract) else p.url
        out.append(replace(p, title=title, abstract=abstract, label=label, aliases=aliases, label_kind=kind))
        out[-1] = replace(out[-1], url=url, edits=tagged)
    return out, stale


# --- readers -----------------------------------------------------------------------


def read_seed_text(path: Path) -> ReadResult:
    """Read the seed text format: a header line, then abstracts separated by blank lines.

    The header's venue and year ("ICML 2026 Papers") are those of every abstract. Ids are
    ``<file stem>#<n>``, ``n`` counting abstracts from 1 after the header.
    Any encoding is read (:func:`decode_file`); an empty file is reported as a problem;
    nothing raises.
    """
    result = ReadResult(file=path.name)
    text = decode_file(path, result)
    if text is None:
        return result
    lines = text.splitlines()
    n = start = 0
    block: list[str] = []
    for lineno, line in enumerate([*lines[1:], ""], start=2):
        if line.strip():
            start = start if block else lineno
            block.append(line.strip())
            continue
        if block:
            n += 1
            try:
                venue, year = _venue_from_header(lines[0])
                result.papers.append(
                    make_paper(f"{path.stem}#{n}", " ".join(block), source=path.name, venue=venue, year=year)
                )
            except ValueError as exc:
                result.problems.append(IngestProblem(path.name, start, f"abstract {n}: {exc}"))
            block = []
    if n == 0:
        result.problems.append(IngestProblem(path.name, 1, "header only, no abstracts"))
    return result


def _venue_from_header(header: str) -> tuple[str, int | None]:
    """The venue and year a seed file's header states for all its abstracts: ``"ICML 2026 Papers"``
    -> ``("ICML", 2026)``; ``("", None)`` for what it does not state."""
    m = re.match(r"\s*([A-Z][A-Za-z]+)\b", header)
    year = re.search(r"\b(19[5-9]\d|20\d\d)\b", header)
    return (m.group(1) if m else ""), (int(year.group(1)) if year else None)


def _as_authors(value: object) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [a.strip() for a in re.split(r"\s+and\s+|;", value) if a.strip()]
    if isinstance(value, list):
        out = []
        for a in value:
            if isinstance(a, dict):
                a = a.get("name") or " ".join(str(a.get(k, "")) for k in ("given", "family")).strip()
            out.append(str(a))
        return out
    return [str(value)]


def paper_from_mapping(rec: dict, *, source: str, fallback_id: str) -> Paper:
    """Build a paper from a JSON-like record; raises ``ValueError`` naming what is missing."""
    abstract = rec.get("abstract")
    if not isinstance(abstract, str) or not abstract.strip():
        raise ValueError("record has no abstract")
    pid = rec.get("id")
    pid = clean_text(str(pid)) if pid not in (None, "") else ""
    raw_year = rec.get("year")
    try:
        year = int(raw_year) if raw_year is not None and raw_year != "" else None
    except (TypeError, ValueError, OverflowError) as exc:
        raise ValueError(f"year is not a number: {str(raw_year)[:40]!r}") from exc
    if year is not None and not 0 < year < 10000:
        raise ValueError(f"year is not a year: {str(year)[:40]}")
    return make_paper(
        pid or fallback_id,
        abstract.strip(),
        title=str(rec.get("title") or "").strip(),
        authors=_as_authors(rec.get("authors")),
        year=year,
        venue=str(rec.get("venue") or ""),
        url=str(rec.get("url") or ""),
        source=source,
    )


def read_jsonl(path: Path) -> ReadResult:
    """Read JSONL records (``id``, ``title``, ``abstract`` + optional fields).

    Any encoding is read (:func:`decode_file`; a byte-order mark never costs the first
    record). A line that is not JSON, not an object or lacks an abstract is reported with
    its line number; a truncated last line is reported the same way. Control characters
    inside strings are accepted (and dropped by :func:`make_paper`); a record holding lone
    surrogates (``"\\ud800"``) is read with U+FFFD in their place and reported as repaired.
    """
    result = ReadResult(file=path.name)
    text = decode_file(path, result)
    if text is None:
        return result
    decoder = json.JSONDecoder(strict=False)
    n = 0
    for lineno, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        n += 1
        try:
            rec = decoder.decode(line)
            if not isinstance(rec, dict):
                raise ValueError("line is not a JSON object")
            result.papers.append(paper_from_mapping(rec, source=path.name, fallback_id=f"{path.stem}#{lineno}"))
            note_surrogates(result, lineno, n, rec)
        except json.JSONDecodeError as exc:  # its own "line 1 column 5 (char 4)" counts within the line
            reason = f"invalid JSON at column {exc.colno}: {exc.msg}"
            result.problems.append(IngestProblem(path.name, lineno, reason))
        except ValueError as exc:
            result.problems.append(IngestProblem(path.name, lineno, str(exc)))
    return result


READERS = {".txt": read_seed_text, ".jsonl": read_jsonl}

#: Readers chosen by a file's content before its extension: each sniffer gets the path and the
#: file's first 4,096 bytes and returns a reader, or ``None`` when the content is not its format
#: (:mod:`store.formats` registers the SQLite and Atom sniffers).
SNIFFERS: list[Callable[[Path, bytes], Callable[..., ReadResult] | None]] = []


def _sniffed_reader(path: Path) -> Callable[..., ReadResult] | None:
    """The reader a registered sniffer picks from the file's first bytes, or ``None``."""
    if not SNIFFERS or not path.is_file():
        return None
    try:
        with path.open("rb") as handle:
            head = handle.read(4096)
    except OSError:
        return None  # the suffix's reader reports why the file cannot be read
    return next((r for r in (sniff(path, head) for sniff in SNIFFERS) if r is not None), None)


def iter_corpus_files(paths: Iterable[Path]) -> Iterator[Path]:
    """Yield readable corpus files under ``paths`` (folders are walked recursively, sorted; a file
    there is read when its format suffix, before any ``.gz``, is one of :data:`READERS`)."""
    for p in paths:
        if p.is_dir():
            for child in sorted(p.rglob("*")):
                if child.is_file() and format_suffix(child) in READERS and not child.name.startswith("."):
                    yield child
        else:
            yield p


def read_path(
    path: Path, field_map: dict[str, str] | None = None, *, collection: str | None = None
) -> ReadResult:
    """Read one corpus file with the reader its content (see :data:`SNIFFERS`) or extension selects.

    Unknown extensions and missing files become a problem in the result; nothing raises. A
    gzip-compressed file (``a.jsonl.gz``) is read as the file inside it (:func:`_read_compressed`).

    Args:
        path: The corpus file.
        field_map: Field -> column/key overrides (``--map abstract=Summary``), passed to
            the readers that take one (JSON, CSV/TSV, BibTeX); the others ignore it.
        collection: Name of the collection to read, passed to the readers that take one (a
            Zotero database); the others ignore it.
    """
    if not path.exists():
        return ReadResult(file=path.name, problems=[IngestProblem(str(path), None, "no such file")])
    if is_compressed(path):
        return _read_compressed(path, field_map, collection)
    reader = _sniffed_reader(path) or READERS.get(path.suffix.lower())
    if reader is None:
        return ReadResult(file=path.name, problems=[_unsupported(path.name, path.suffix)])
    params = inspect.signature(reader).parameters
    kwargs: dict = {}
    if field_map and "field_map" in params:
        kwargs["field_map"] = field_map
    if collection is not None and "collection" in params:
        kwargs["collection"] = collection
    return reader(path, **kwargs)


def _unsupported(file: str, suffix: str) -> IngestProblem:
    return IngestProblem(
        file, None, f"unsupported format {suffix!r} (use {', '.join(READERS)}, or any of them gzipped: .jsonl.gz)"
    )


def _read_compressed(path: Path, field_map: dict[str, str] | None, collection: str | None) -> ReadResult:
    """Read a gzip-compressed corpus file as the file inside it (:mod:`store.compressed`).

    The inner file is decompressed into a temporary folder under its own name and read by
    :func:`read_path`; the result, its problems, repairs and papers' sources then name ``path``
    (line numbers are those of the decompressed text). Data that ends early or is damaged keeps
    the records before the cut, and the file gets one more problem saying so (it fails no counted
    record: how many were lost is unknown). Nothing raises.
    """
    suffix = format_suffix(path)
    if not suffix:
        reason = f"compressed file without a format suffix: name it as the file inside, e.g. {path.stem}.jsonl.gz"
        return ReadResult(file=path.name, problems=[IngestProblem(path.name, None, reason)])
    if suffix not in READERS:
        return ReadResult(file=path.name, problems=[_unsupported(path.name, suffix)])
    inner = inner_name(path)
    with tempfile.TemporaryDirectory(prefix="paperchat-gz-") as tmp:
        plain = Path(tmp) / inner
        try:
            cut = gunzip(path, plain)
        except OSError as exc:
            reason = f"cannot decompress file: {exc.strerror or exc}"
            return ReadResult(file=path.name, problems=[IngestProblem(path.name, None, reason)])
        except ValueError as exc:
            return ReadResult(file=path.name, problems=[IngestProblem(path.name, None, str(exc))])
        result = read_path(plain, field_map, collection=collection)

    def named(problem: IngestProblem) -> IngestProblem:
        return replace(problem, file=path.name) if problem.file in (inner, str(plain)) else problem

    papers = [replace(p, source=path.name) if p.source == inner else p for p in result.papers]
    problems = [named(q) for q in result.problems]
    if cut:
        problems.append(IngestProblem(path.name, None, cut, records=0))
    return replace(result, file=path.name, papers=papers, problems=problems, repairs=[named(q) for q in result.repairs])
