"""A related-work draft as files: LaTeX (``\\cite{key}``) or Markdown (``[@key]``) and the ``.bib``
entries it cites, with the user's own citation keys.

The keys are :func:`ui.exports.bibtex_keys` of the whole collection (the key the user's ``.bib`` or
Zotero library gave a paper, else the stable ``authorYEARword`` key every BibTeX export gives it);
with the user's ``.bib`` (``--bib refs.bib``), a paper that file holds (matched by DOI, arXiv id
or title, as the importers match records: :func:`store.merge.paper_keys`) takes that file's key and
its entry is shipped as the file writes it. Before anything is returned, every key the text cites
is looked up in the ``.bib`` it ships (:func:`check_citations`): a key that does not resolve is an
error, never a silent gap.

:func:`related_work` is the one function the command line, the API and the MCP server draft
through; the page exports a draft turn of its chat with :func:`draft_files`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from rag.route.conversation import Conversation, Turn
from rag.route.filters import Filters
from rag.route.related_work import RelatedWork, Statement
from rag.types import Citation
from store.merge import paper_keys
from store.papers import Paper
from store.readers.bibtex import bib_identities
from ui.exports import bibtex, bibtex_keys
from ui.wire import answer_json

__all__ = [
    "FORMATS",
    "CitationError",
    "DraftFiles",
    "Format",
    "check_citations",
    "draft_files",
    "draft_json",
    "related_work",
    "user_keys",
]

Format = Literal["latex", "markdown"]
FORMATS: tuple[Format, ...] = ("latex", "markdown")

_LATEX_CITE = re.compile(r"\\cite[a-zA-Z]*\*?(?:\[[^\]]*\])*\{([^}]*)\}")
_MD_CITE = re.compile(r"\[(@[^\[\]]+)\]")  # pandoc's [@a; @b]: a quoted "@user" in an abstract is none
_MATH = re.compile(r"(\$\$.+?\$\$|\$[^$]+\$|\\\(.+?\\\))", re.S)
_LATEX_SPECIAL = re.compile(r"(?<!\\)([%&#_])")


class CitationError(ValueError):
    """A citation key of a draft that its ``.bib`` does not hold."""


@dataclass(frozen=True)
class DraftFiles:
    """A draft ready to save.

    Attributes:
        text: The draft (``.tex`` or ``.md`` content), ending with a newline.
        bib: The ``.bib`` entries it cites, one per paper, ending with a newline.
        keys: ``{paper id: citation key}`` of every cited paper.
        fmt: ``latex`` or ``markdown``.
        from_bib: Paper ids whose key and entry came from the user's ``.bib``.
    """

    text: str
    bib: str
    keys: dict[str, str]
    fmt: Format
    from_bib: frozenset[str] = frozenset()

    @property
    def text_name(self) -> str:
        """``related-work.tex`` or ``related-work.md``."""
        return "related-work.tex" if self.fmt == "latex" else "related-work.md"


def user_keys(bib_text: str, papers: Iterable[Paper]) -> dict[str, tuple[str, Any]]:
    """The papers of the collection a user's ``.bib`` holds, with that file's key and entry.

    A ``.bib`` entry is the collection's paper that has its DOI, else its arXiv id, else its title
    (normalised; a title two papers of the collection share matches neither), the identities the
    importers merge records by (:func:`store.merge.paper_keys`); entries need no abstract.

    Args:
        bib_text: The ``.bib`` file's text.
        papers: The collection.

    Returns:
        ``{paper id: (key, bibtexparser Entry)}``; the first entry wins when two hold one paper.

    Raises:
        ValueError: the text is no BibTeX or holds no entry.
    """
    index: list[dict[str, str | None]] = [{}, {}, {}]
    for p in papers:
        for kind, k in enumerate(paper_keys(p)):
            if k:
                index[kind][k] = None if k in index[kind] else p.id  # a key two papers share matches neither
    out: dict[str, tuple[str, Any]] = {}
    for record, entry in bib_identities(bib_text):
        for kind, k in enumerate(paper_keys(record)):
            pid = index[kind].get(k) if k else None
            if pid:
                out.setdefault(pid, (record.cite_key, entry))
                break
    return out


def check_citations(text: str, bib: str, fmt: Format) -> set[str]:
    """The keys ``text`` cites, each checked against the entries of ``bib``.

    Raises:
        CitationError: a cited key has no entry in ``bib`` (the message names them), or the text
            cites nothing.
    """
    import bibtexparser

    if fmt == "latex":
        cited = {k.strip() for m in _LATEX_CITE.finditer(text) for k in m.group(1).split(",") if k.strip()}
    else:
        cited = {k.strip().removeprefix("@") for m in _MD_CITE.finditer(text) for k in m.group(1).split(";")}
        cited.discard("")
    held = {e.key for e in bibtexparser.parse_string(bib).entries}
    missing = sorted(cited - held)
    if missing:
        raise CitationError(f"cited keys with no entry in the .bib: {', '.join(missing)}")
    if not cited:
        raise CitationError("the draft cites no paper")
    return cited


def _latex(text: str) -> str:
    """Abstract text for LaTeX: math kept as written; outside it, ``% & # _`` not already escaped
    are escaped and white space folded."""
    parts = _MATH.split(" ".join(text.split()))
    return "".join(p if i % 2 else _LATEX_SPECIAL.sub(r"\\\1", p) for i, p in enumerate(parts))


def _statement(s: Statement, keys: Mapping[str, str], labels: Mapping[str, str], fmt: Format) -> str:
    """One statement: ``Label \\cite{key}: ``sentence''`` (quoted) or ``sentence \\cite{a,b}.`` (prose)."""
    ks = [keys[pid] for pid in s.paper_ids]
    if fmt == "latex":
        cite = "~\\cite{" + ",".join(ks) + "}"
        if s.quoted:
            return f"{_latex(labels[s.paper_ids[0]])}{cite}: ``{_latex(s.text)}''"
        body = _latex(s.text).rstrip()
    else:
        cite = " [" + "; ".join(f"@{k}" for k in ks) + "]"
        if s.quoted:
            return f"{labels[s.paper_ids[0]]}{cite}: “{' '.join(s.text.split())}”"
        body = " ".join(s.text.split())
    end = body[-1] if body[-1:] in (".", "!", "?") else "."
    return f"{body.rstrip('.!?').rstrip()}{cite}{end}"


def _render(draft: RelatedWork, keys: Mapping[str, str], labels: Mapping[str, str], fmt: Format) -> str:
    how = (
        "each statement quotes its paper's abstract"
        if draft.backend == "none"
        else "LLM sentences checked against the abstracts they cite; quoted statements where a check failed"
    )
    if fmt == "latex":
        lines = [
            f"% Related work on “{draft.subject}”, drafted by paperchat from {len(draft.paper_ids)} abstracts ({how}).",
            "% Every \\cite key is in related-work.bib: \\bibliography{related-work}.",
            "\\section{Related Work}",
            "",
        ]
        for g in draft.groups:
            body = " ".join(_statement(s, keys, labels, fmt) for s in g.statements)
            lines += [f"\\paragraph{{{_latex(g.name)}.}} {body}", ""]
    else:
        lines = [
            f"<!-- Related work on “{draft.subject}”, drafted by paperchat from {len(draft.paper_ids)} abstracts "
            f"({how}). Citations resolve in related-work.bib: pandoc --citeproc --bibliography related-work.bib -->",
            "",
            "## Related work",
            "",
        ]
        for g in draft.groups:
            body = " ".join(_statement(s, keys, labels, fmt) for s in g.statements)
            lines += [f"**{g.name}.** {body}", ""]
    return "\n".join(lines).rstrip() + "\n"


def draft_files(
    draft: RelatedWork, papers: Mapping[str, Paper], *, fmt: Format = "latex", bib: str | None = None
) -> DraftFiles:
    """The draft as LaTeX or Markdown with its ``.bib`` (see the module docstring).

    Args:
        draft: The draft (:mod:`rag.route.related_work`).
        papers: The whole collection by id (the keys are told apart over it).
        fmt: ``latex`` (``\\cite{key}``) or ``markdown`` (``[@key]``, pandoc's citations).
        bib: The text of the user's ``.bib``: its keys (and entries) for the papers it holds.

    Returns:
        The files; every key cited is in ``bib`` (checked).

    Raises:
        ValueError: ``fmt`` is neither format, or ``bib`` is no BibTeX.
        CitationError: a cited key is missing from the ``.bib`` (a bug, never silent).
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}: use latex or markdown")
    own = user_keys(bib, papers.values()) if bib is not None else {}
    keyed = {pid: replace(p, cite_key=own[pid][0]) if pid in own else p for pid, p in papers.items()}
    keys = bibtex_keys(keyed.values())
    cited = list(draft.paper_ids)
    used = {pid: keys[pid] for pid in cited}
    labels = {pid: papers[pid].label for pid in cited}
    text = _render(draft, used, labels, fmt)
    mine = [pid for pid in cited if pid in own and used[pid] == own[pid][0]]
    theirs = [pid for pid in cited if pid not in mine]
    chunks = []
    if mine:
        import bibtexparser

        library = bibtexparser.Library()
        for pid in mine:
            library.add(own[pid][1])
        fmt_ = bibtexparser.BibtexFormat()
        fmt_.indent, fmt_.block_separator = "  ", "\n"
        chunks.append(bibtexparser.write_string(library, bibtex_format=fmt_).strip("\n"))
    if theirs:
        p_ = [keyed[pid] for pid in theirs]
        cits = [
            Citation(i, p.id, p.label, (), url=p.url, authors=p.author_line, year=p.year)
            for i, p in enumerate(p_, start=1)
        ]
        chunks.append(bibtex(cits, keyed).strip("\n"))
    bib_text = "\n\n".join(chunks) + "\n"
    check_citations(text, bib_text, fmt)
    return DraftFiles(text, bib_text, used, fmt, frozenset(mine))


def related_work(
    conversation: Conversation,
    topic: str,
    *,
    fmt: Format = "latex",
    bib: str | None = None,
    filters: Filters | None = None,
) -> tuple[Turn, DraftFiles | None]:
    """Draft related work on ``topic`` through the one route and make its files: the function
    ``paperchat related-work``, the API and the MCP tool share.

    Args:
        conversation: The conversation to draft in (its pipeline's LLM, if any, writes prose).
        topic: What the related work is on (filters it states are read).
        fmt: ``latex`` or ``markdown``.
        bib: The user's ``.bib`` text, for its keys.
        filters: Year / venue / author restrictions (``None``: the ones ``topic`` states).

    Returns:
        ``(turn, files)``; ``files`` is ``None`` when the turn is a refusal (its text says why).

    Raises:
        ValueError: an unknown format, an empty topic or a ``.bib`` that is no BibTeX (before
            anything is drafted).
        CitationError: see :func:`draft_files`.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}: use latex or markdown")
    if not topic.strip():
        raise ValueError("give the topic the related work is on")
    if bib is not None:
        bib_identities(bib)  # a file that is no BibTeX is said before the draft is made
    turn = conversation.related_work(topic, filters=filters)
    if turn.related_work is None:
        return turn, None
    return turn, draft_files(turn.related_work, conversation.papers, fmt=fmt, bib=bib)


def draft_json(turn: Turn, files: DraftFiles | None) -> dict[str, Any]:
    """A draft as the API and the MCP tool return it: the answer's fields (:func:`ui.wire.answer_json`:
    text with ``[n]`` markers, citations with evidence spans, refused, note) and ``draft``
    (``None`` for a refusal): the format, the ``text`` and ``bib`` files, the key of each paper,
    those from the user's ``.bib``, and the groups, each with its statements (text, quoted or not,
    the papers and keys it cites, and its evidence: paper id, character span, sentence)."""
    out = answer_json(turn)
    draft = turn.related_work
    if draft is None or files is None:
        return {**out, "draft": None}
    groups = [
        {
            "name": g.name,
            "papers": [{"paper_id": pid, "key": files.keys[pid]} for pid in g.paper_ids],
            "statements": [
                {
                    "text": s.text,
                    "quoted": s.quoted,
                    "paper_ids": list(s.paper_ids),
                    "keys": [files.keys[pid] for pid in s.paper_ids],
                    "evidence": [
                        {"paper_id": e.paper_id, "start": e.start, "end": e.end, "sentence": e.sentence}
                        for e in s.evidence
                    ],
                }
                for s in g.statements
            ],
        }
        for g in draft.groups
    ]
    return {
        **out,
        "draft": {
            "subject": draft.subject,
            "format": files.fmt,
            "text": files.text,
            "bib": files.bib,
            "keys": files.keys,
            "from_bib": sorted(files.from_bib),
            "backend": draft.backend,
            "groups": groups,
        },
    }
