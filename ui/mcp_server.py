"""paperchat as an MCP server (``paperchat mcp``): tools and resources over one loaded pipeline.

Built on the official MCP Python SDK (:class:`mcp.server.mcpserver.MCPServer`); served over stdio,
or streamable HTTP on 127.0.0.1. The tools return what the CLI's ``--json`` prints
(:mod:`ui.wire`): answers go through the conversation route, so an agent gets paperchat's
guarantees, not raw passages to cite by itself.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer, ResourceSecurity
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from rag.llm.prose import REFUSAL
from rag.route.filters import Filters
from ui.service import Library, UnknownPaper
from ui.wire import answer_json, found_json, paper_json, table_json

__all__ = ["GUARANTEES", "build_server"]

GUARANTEES = (
    "Every [n] marker in an answer resolves to a citation (validated: markers an LLM invents are removed); "
    "every evidence sentence is an exact span of that paper's abstract (abstract[start:end] == sentence, "
    "0-based character offsets); when the collection does not answer, refused is true, nothing is cited and "
    f"the text starts with the one refusal phrase “{REFUSAL}”."
)

INSTRUCTIONS = (
    "paperchat answers questions about a local collection of ML paper abstracts, with citations. "
    "Use search_papers to find papers, ask for a cited answer, compare or table for papers side by side, "
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


def _filters(year: int | None, venue: str, author: str) -> Filters:
    return Filters(year=year, venue=venue.strip(), author=author.strip(), auto=False)


def build_server(library: Library) -> MCPServer:
    """The MCP server over ``library`` (tools ``search_papers``, ``ask``, ``compare``, ``table``,
    ``get_paper``, ``bibtex``; resource template ``paper://{id}``). Errors a caller can fix come
    back as tool errors whose message says how."""
    server: MCPServer = MCPServer("paperchat", instructions=INSTRUCTIONS, log_level="WARNING")

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
        found, note = library.search(query, k=k, filters=_filters(year, venue, author))
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
    ) -> dict[str, Any]:
        return answer_json(library.ask(question, filters=_filters(year, venue, author)))

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
        try:
            turn = library.compare(papers, aspect)
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
        try:
            turn = library.table(topic=topic, papers=papers or (), columns=columns or ())
        except ValueError as exc:
            raise ToolError(str(exc)) from exc
        return answer_json(turn)

    @server.tool(description="The full record of one paper by id: title, label, authors, year, venue, url, DOI, "
                 "citation key, source file and the abstract that evidence spans index into.")
    def get_paper(
        id: Annotated[str, Field(description="A paper id as search_papers and citations give it.")],  # noqa: A002
    ) -> dict[str, Any]:
        try:
            return paper_json(library.paper(id))
        except UnknownPaper as exc:
            raise ToolError(str(exc)) from exc

    @server.tool(
        description="BibTeX of papers by id: one @misc entry each with the record's own fields only (title when "
        "the record has one, authors, year, DOI, url; a note with the paper id, and the label for a record without "
        "a title). Keys are stable: the key the user's own .bib or Zotero library gave the paper, else "
        "authorYEARword (a, b, c told apart), else from the paper id."
    )
    def bibtex(ids: Annotated[list[str], Field(description="Paper ids.")]) -> str:
        try:
            return library.bibtex(ids)
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
        return json.dumps(paper_json(library.paper(paper_id)), ensure_ascii=False)

    return server
