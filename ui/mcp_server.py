"""paperchat as an MCP server (``paperchat mcp``): tools and resources over one loaded pipeline.

Built on the official MCP Python SDK (:class:`mcp.server.mcpserver.MCPServer`); served over stdio,
or streamable HTTP on 127.0.0.1. The tools return what the CLI's ``--json`` prints
(:mod:`ui.wire`): answers go through the conversation route, so an agent gets paperchat's
guarantees, not raw passages to cite by itself.

The server answers ``initialize`` before the collection is loaded: given a
:class:`ui.deferred.Deferred` library, it starts loading it when the server starts and every
tool, resource read and resource listing waits for it. Nothing of the pipeline is imported by
this module (the tools import :mod:`ui.wire` when first called).
"""

from __future__ import annotations

import base64
import binascii
import bisect
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Annotated, Any
from urllib.parse import quote

import anyio.to_thread
from mcp.server.context import ServerRequestContext
from mcp.server.mcpserver import MCPServer, ResourceSecurity
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError, ToolError
from mcp.shared.exceptions import MCPError
from mcp_types import INTERNAL_ERROR, INVALID_PARAMS, ListResourcesResult, PaginatedRequestParams, Resource
from pydantic import Field

from rag.llm.prose import REFUSAL
from rag.route.filters import Filters
from ui.deferred import Deferred, NotLoaded

if TYPE_CHECKING:
    from store.papers import Paper
    from ui.service import Library

__all__ = ["GUARANTEES", "PAPERS_PER_PAGE", "build_server", "paper_uri"]

PAPERS_PER_PAGE = 100
"""Papers per page of ``resources/list``. MCP leaves the page size to the server (a client asks
for the next page with the ``nextCursor`` of the last): 100 papers make a page of about 25 KB of
JSON, and a 3,000-paper library lists in 31 requests."""

GUARANTEES = (
    "Every [n] marker in an answer resolves to a citation (validated: markers an LLM invents are removed); "
    "every evidence sentence is an exact span of that paper's abstract (abstract[start:end] == sentence, "
    "0-based character offsets); when the collection does not answer, refused is true, nothing is cited and "
    f"the text starts with the one refusal phrase “{REFUSAL}”."
)

INSTRUCTIONS = (
    "paperchat answers questions about a local collection of ML paper abstracts, with citations. "
    "Use search_papers to find papers, ask for a cited answer, compare or table for papers side by side, "
    "similar_papers for the papers like one paper, watch_question to be told of new papers that match, "
    "get_paper for a full record and bibtex for references. Quote its evidence sentences rather than "
    "paraphrasing them as the papers' words. " + GUARANTEES
)

Year = Annotated[int | None, Field(ge=1900, le=2100, description="Only papers of this year.")]
Venue = Annotated[str, Field(description="Only papers whose venue contains this (case-insensitive), e.g. ICML.")]
Author = Annotated[str, Field(description="Only papers with an author whose name contains this.")]
Question = Annotated[str, Field(description="The question, in English, e.g. 'What accuracy gain does DANCE report?'")]
Refs = Annotated[list[str], Field(description="Papers: names, ids or short descriptions.")]
Aspect = Annotated[str, Field(description="What to quote from each, e.g. 'which datasets does each use?'")]
Topic = Annotated[str, Field(description="A topic or topic question, e.g. 'Which papers study dataset distillation?'")]
Columns = Annotated[list[str], Field(description="Column phrases, e.g. ['benchmark', 'main result', 'code'].")]


AutoFilter = Annotated[bool, Field(
    description="Also take a year, venue or author the question states as a filter ('papers from 2022 on ...'), "
    "as `paperchat ask` and the page do; the answer's note names it."
)]

MCP_AUTO_HINT = "remove with auto_filter=false"
"""How an MCP client undoes an automatic filter; shown in the answer's note."""


def _filters(year: int | None, venue: str, author: str, *, auto: bool = False) -> Filters:
    """The tool's filters; ``auto``: also those the question states (:attr:`Filters.auto`)."""
    return Filters(year=year, venue=venue.strip(), author=author.strip(), auto=auto, auto_hint=MCP_AUTO_HINT)


def paper_uri(paper_id: str) -> str:
    """The resource URI of a paper: ``paper://`` and its id percent-encoded where a URI needs it
    (``#`` as ``%23``; ``/`` and ``:`` kept), which the template ``paper://{+paper_id}`` reads back.

    >>> paper_uri("000_6b930c46f6674b66#1")
    'paper://000_6b930c46f6674b66%231'
    """
    return "paper://" + quote(paper_id, safe="/:@!$&'()*+,;=")


def _cursor(paper_id: str) -> str:
    """An opaque cursor: the last listed paper id, base64url (the next page starts after it)."""
    return base64.urlsafe_b64encode(paper_id.encode("utf-8")).decode("ascii")


def _after(cursor: str) -> str:
    """The paper id a cursor of :func:`_cursor` holds.

    Raises:
        MCPError: ``INVALID_PARAMS`` (-32602, as MCP requires) for a cursor it did not give.
    """
    try:
        return base64.urlsafe_b64decode(cursor.encode("ascii")).decode("utf-8")
    except (ValueError, binascii.Error, UnicodeError) as exc:
        raise MCPError(INVALID_PARAMS, "invalid cursor: pass the nextCursor of the previous page as given") from exc


def papers_page(papers: dict[str, Paper], cursor: str | None, size: int = PAPERS_PER_PAGE) -> ListResourcesResult:
    """One page of ``resources/list``: papers in id order, after the cursor's paper.

    The cursor names the last paper listed, not a position, so a page asked for after an ingest
    or a removal neither repeats nor skips a paper that was there before.

    Args:
        papers: The collection by id.
        cursor: ``None`` for the first page, else the ``nextCursor`` of the page before.
        size: Papers per page, >= 1.

    Returns:
        Up to ``size`` resources (URI :func:`paper_uri`, name the label, title the record's title
        else the label, description authors · year · venue, JSON), with ``next_cursor`` when more follow.

    Raises:
        MCPError: ``INVALID_PARAMS`` for a cursor this server did not give.
    """
    ids = sorted(papers)
    start = bisect.bisect_right(ids, _after(cursor)) if cursor else 0
    page = ids[start : start + size]
    resources = []
    for pid in page:
        p = papers[pid]
        about = " · ".join(x for x in (p.author_line, str(p.year) if p.year else "", p.venue) if x)
        resources.append(
            Resource(
                uri=paper_uri(pid),
                name=p.label or pid,
                title=p.title or p.label or pid,
                description=about or None,
                mime_type="application/json",
            )
        )
    more = start + size < len(ids)
    return ListResourcesResult(resources=resources, next_cursor=_cursor(page[-1]) if more and page else None)


class _PaperServer(MCPServer[None]):
    """:class:`MCPServer` whose ``resources/list`` lists the collection's papers a page at a time.

    MCPServer 2.x lists the resources registered on it, in one page; the papers are many and
    change with every ingest, so this class serves the listing itself (the SDK's handler for the
    method, overridden) with MCP's cursor pagination (:func:`papers_page`).
    """

    def __init__(self, library: Deferred[Library], **kwargs: Any):
        super().__init__(**kwargs)
        self._library = library

    async def _handle_list_resources(
        self, ctx: ServerRequestContext[None], params: PaginatedRequestParams | None
    ) -> ListResourcesResult:
        try:
            library = await anyio.to_thread.run_sync(self._library.get)
        except NotLoaded as exc:
            raise MCPError(INTERNAL_ERROR, f"paperchat could not load the collection: {exc}") from exc
        papers = await anyio.to_thread.run_sync(lambda: library.papers)
        return papers_page(papers, params.cursor if params else None)


def build_server(library: Library | Deferred[Library]) -> MCPServer:
    """The MCP server over ``library`` (tools ``search_papers``, ``ask``, ``compare``, ``table``,
    ``related_work``, ``similar_papers``, ``watch_question``, ``list_watches``, ``remove_watch``, ``get_paper``,
    ``bibtex``; the papers as resources, paged, and the template ``paper://{id}``).

    Args:
        library: The loaded collection, or a :class:`~ui.deferred.Deferred` one: its load starts
            when the server starts (``initialize`` is answered at once) and the calls wait for it.

    Errors a caller can fix come back as tool errors whose message says how (a collection that
    could not be loaded too: its message, tried again at the next call).
    """
    deferred: Deferred[Library] = library if isinstance(library, Deferred) else Deferred(lambda: library)

    @asynccontextmanager
    async def loading(_: MCPServer[None]) -> AsyncIterator[None]:
        deferred.start()  # the stdio transport holds stdout by now: what loading prints goes to stderr
        yield None

    server = _PaperServer(deferred, name="paperchat", instructions=INSTRUCTIONS, log_level="WARNING", lifespan=loading)

    def loaded() -> Library:
        try:
            return deferred.get()
        except NotLoaded as exc:
            raise ToolError(f"paperchat could not load the collection: {exc}") from exc

    @server.tool(
        description="Find the papers of the collection that best match a query, best first, each with its "
        "best evidence sentences (exact spans of its abstract: abstract[start:end] == sentence) and its scores; "
        "'relevant' says whether it passes the relevance floors an answer applies. No answer is written and "
        "nothing is refused: use ask for a cited answer. Filters restrict by year, venue and author."
    )
    def search_papers(
        query: Annotated[str, Field(description="What to look for: a topic, a method name, a question.")],
        year: Year = None,
        venue: Venue = "",
        author: Author = "",
        k: Annotated[int, Field(ge=1, le=50, description="Most papers returned.")] = 5,
    ) -> dict[str, Any]:
        from ui.wire import found_json

        found, note = loaded().search(query, k=k, filters=_filters(year, venue, author))
        return {"query": query, "note": note, "papers": [found_json(f) for f in found]}

    @server.tool(
        description="A cited answer to one question about the papers, from the same route as the chat page "
        "and `paperchat ask --json` (same fields): text with [n] markers, citations (paper id, label, url, "
        "evidence sentences with character spans), refused, note, retrieved papers. Each call is a fresh "
        "conversation: name the paper instead of writing 'it'. " + GUARANTEES
    )
    def ask(
        question: Question,
        year: Year = None,
        venue: Venue = "",
        author: Author = "",
        auto_filter: AutoFilter = True,
    ) -> dict[str, Any]:
        from ui.wire import answer_json

        return answer_json(loaded().ask(question, filters=_filters(year, venue, author, auto=auto_filter)))

    @server.tool(
        description="Compare two or more papers (by name, id or short description) on abstract sentences: what "
        "the aspect asks first (when given), then the rows problem, approach, data, results and limitations. "
        "Every cell is an exact sentence of that paper's abstract, or empty when the abstract does not state "
        "it. Returns the comparison text with [n] markers, its citations and the table (rows x papers, with "
        "evidence spans). An unclear or unknown paper gives turn 'clarify' with candidates instead."
    )
    def compare(
        papers: Refs,
        aspect: Aspect = "",
    ) -> dict[str, Any]:
        from ui.wire import answer_json, table_json

        try:
            turn = loaded().compare(papers, aspect)
        except ValueError as exc:
            raise ToolError(str(exc)) from exc
        return {**answer_json(turn), "table": table_json(turn) if turn.table is not None else None}

    @server.tool(
        description="A table across papers: one row per paper, one column per phrase. The rows are every paper "
        "the relevance model accepts for the topic (the count is in 'matched'), or the papers named. Columns are "
        "free phrases (default problem, approach, data, results, limitations); known kinds get sharper evidence: "
        "name, code link (the URL the abstract gives), dataset/benchmark, metric and number, model size, "
        "limitation. Every cell is the sentence(s) of that paper's abstract that answer the column, exact spans "
        "(abstract[start:end] == sentence) with the row's citation number, or stated=false ('not stated in the "
        "abstract'); a short 'value' (the name, the URL, the numbers) is given only when every word of it stands "
        "in the quoted sentence. Give either topic or papers."
    )
    def table(
        topic: Topic = "",
        papers: Refs | None = None,
        columns: Columns | None = None,
    ) -> dict[str, Any]:
        from ui.wire import answer_json

        try:
            turn = loaded().table(topic=topic, papers=papers or (), columns=columns or ())
        except ValueError as exc:
            raise ToolError(str(exc)) from exc
        return answer_json(turn)

    @server.tool(
        description="A related-work draft on a topic: the papers 'which papers are about <topic>?' lists, "
        "grouped by the key phrases of what they do (each paper in one group), each group a paragraph of "
        "statements: the paper's own sentence for the topic quoted verbatim (an exact span, with its "
        "evidence), or, with an LLM, prose checked sentence by sentence. Returns the draft as LaTeX "
        "(\\cite{key}) or Markdown ([@key]) with the .bib entries it cites; keys are the user's own "
        "(their .bib or Zotero key, or those of the .bib text given, matched by DOI, arXiv id or title), "
        "else the key the bibtex tool gives; every cited key is checked to resolve in the .bib."
    )
    def related_work(
        topic: Topic,
        format: Annotated[  # noqa: A002 - the option's name in the CLI and the API
            str, Field(description="latex (\\cite{key}) or markdown ([@key], pandoc).")
        ] = "latex",
        bib: Annotated[
            str, Field(description="The text of the user's .bib: its keys for the papers it holds (optional).")
        ] = "",
    ) -> dict[str, Any]:
        from ui.related_work import CitationError

        try:
            return loaded().related_work(topic, fmt=format, bib=bib or None)
        except (ValueError, CitationError) as exc:
            raise ToolError(str(exc)) from exc

    @server.tool(
        description="The papers of the collection nearest to one paper by abstract (dense and lexical retrieval "
        "fused, as search_papers), nearest first, never the paper itself. Each comes with the pair of sentences, "
        "one of each abstract, that are closest (exact spans: abstract[start:end] == sentence) and the key terms "
        "both abstracts state, in the field 'similar'; the text lists them with [n] markers. An unclear paper "
        "gives turn 'clarify' with candidates instead. Filters restrict the related papers."
    )
    def similar_papers(
        paper: Annotated[str, Field(description="The paper: a name (DANCE), an id or a short description.")],
        k: Annotated[int, Field(ge=1, le=50, description="How many related papers.")] = 5,
        year: Year = None,
        venue: Venue = "",
        author: Author = "",
    ) -> dict[str, Any]:
        from ui.wire import answer_json

        try:
            return answer_json(loaded().similar(paper, k=k, filters=_filters(year, venue, author)))
        except ValueError as exc:
            raise ToolError(str(exc)) from exc

    @server.tool(
        description="Save a question to watch: after every ingest (CLI, page upload, API, a synced folder) it is "
        "asked again over the papers just added or updated, and the ingest's report names the new papers that "
        "match, each with its evidence sentence (never the same paper twice). Saved in the data directory."
    )
    def watch_question(question: Question) -> dict[str, Any]:
        from store.watches import WatchError
        from ui.wire import watch_json

        try:
            w, added = loaded().watches.add(question)
        except WatchError as exc:
            raise ToolError(str(exc)) from exc
        return {"watch": watch_json(w), "added": added}

    @server.tool(description="The saved questions (watch_question), in the order saved, each with the ids of the "
                 "papers it has reported.")
    def list_watches() -> dict[str, Any]:
        from ui.wire import watch_json

        return {"watches": [watch_json(w) for w in loaded().watches.load()]}

    @server.tool(description="Stop watching a saved question: its text, or its number in list_watches (from 1).")
    def remove_watch(
        question: Annotated[str, Field(description="The saved question's text, or its number from 1.")],
    ) -> dict[str, Any]:
        from store.watches import WatchError
        from ui.wire import watch_json

        try:
            return {"removed": watch_json(loaded().watches.remove(question))}
        except WatchError as exc:
            raise ToolError(str(exc)) from exc

    @server.tool(description="The full record of one paper by id: title, label, authors, year, venue, url, DOI, "
                 "citation key, source file and the abstract that evidence spans index into.")
    def get_paper(
        id: Annotated[str, Field(description="A paper id as search_papers and citations give it.")],  # noqa: A002
    ) -> dict[str, Any]:
        from ui.service import UnknownPaper
        from ui.wire import paper_json

        try:
            return paper_json(loaded().paper(id))
        except UnknownPaper as exc:
            raise ToolError(str(exc)) from exc

    @server.tool(
        description="BibTeX of papers by id: one @misc entry each with the record's own fields only (title when "
        "the record has one, authors, year, DOI, url; a note with the paper id, and the label for a record without "
        "a title). Keys are stable: the key the user's own .bib or Zotero library gave the paper, else "
        "authorYEARword (a, b, c told apart), else from the paper id."
    )
    def bibtex(ids: Annotated[list[str], Field(description="Paper ids.")]) -> str:
        from ui.service import UnknownPaper

        try:
            return loaded().bibtex(ids)
        except (UnknownPaper, ValueError) as exc:
            raise ToolError(str(exc)) from exc

    @server.resource(
        "paper://{+paper_id}",
        name="paper",
        description="One paper's record and abstract as JSON (percent-encode '#' in the id as %23).",
        mime_type="application/json",
        security=ResourceSecurity(exempt_params={"paper_id"}),  # ids are looked up, never used as paths
    )
    def paper(paper_id: str) -> str:
        from ui.service import UnknownPaper
        from ui.wire import paper_json

        try:
            return json.dumps(paper_json(loaded().paper(paper_id)), ensure_ascii=False)
        except UnknownPaper as exc:
            raise ResourceNotFoundError(str(exc)) from exc
        except ToolError as exc:  # the collection could not be loaded
            raise ResourceError(str(exc)) from exc

    return server
