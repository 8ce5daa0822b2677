"""The one route: every question, from the page, the CLI, the API, MCP or ``eval``, is answered here.

A :class:`Conversation` holds the turns of one user's session. For each message it

* reads the message once into a typed plan (:meth:`rag.route.answer.AnswerPipeline.read`), with
  the year / venue / author restrictions it states when the filters read them (every entry reads
  them unless the user turned it off);
* applies the filters (:class:`rag.route.filters.Filters`); a message that only asks for an
  author's papers ("papers by X") is a plan of the collection, listed from the records;
* resolves a follow-up ("what about APM?", "which is better?") into the plan it asks and the papers
  the plan refers to: names and ids through the catalogue, ``[2]`` / "the second one" / "it" /
  "both" through earlier turns, descriptions through retrieval (:mod:`rag.route.references`);
* dispatches on the plan's type: a comparison (:mod:`rag.route.compare`), a table across papers
  (:mod:`rag.route.table_answer`), a summary of one paper or of a topic (:mod:`rag.route.summary`),
  a related-work draft (:mod:`rag.route.related_work`),
  the papers like one paper (:mod:`rag.route.similar`),
  the collection itself (:mod:`rag.route.listing`), a reply that asks nothing, or a question
  (:meth:`rag.route.answer.AnswerPipeline.answer`);
* keeps one citation numbering for the whole conversation: a paper keeps the number it first got.

The typed entry points (:meth:`Conversation.compare_papers`, :meth:`Conversation.table`,
:meth:`Conversation.summarize`, :meth:`Conversation.related_work`) build their plans directly. No
Gradio here: the UI only renders :class:`Turn` objects.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import replace

from rag.citations import format_marker
from rag.evidence.table import default_columns
from rag.lexicon import lemma, states_phrase, stem
from rag.llm.prose import REFUSAL
from rag.llm.translate import translate
from rag.question.phrasing import split_frame
from rag.question.plan import (
    AskPlan,
    CollectionPlan,
    ComparePlan,
    PaperRef,
    Plan,
    RelatedWorkPlan,
    Reply,
    SimilarPlan,
    SummaryPlan,
    TablePlan,
)
from rag.question.slots import YEAR
from rag.route.answer import DESCRIPTION_STATED, EMPTY_QUESTION, AnswerPipeline
from rag.route.compare import build_table, compare_lead, comparison_text, prose_sources, year_lead
from rag.route.filters import FilterPlan, Filters
from rag.route.head_to_head import head_to_head, head_to_head_text
from rag.route.listing import list_papers
from rag.route.references import ReferenceResolver, Resolution, display_name
from rag.route.refusal import NOT_ENGLISH, writes_name
from rag.route.related_work import draft_related_work
from rag.route.similar import DEFAULT_K, Related, similar_papers
from rag.route.summary import summarize_paper, summarize_topic
from rag.route.table_answer import answer_table
from rag.route.turn import History, Turn, TurnKind, renumber_markers
from rag.route.written import with_prose
from rag.text import content_terms, named_entities
from rag.types import Answer, Citation, Evidence, LLMUsage, PaperHit, Timings
from store.papers import Paper

__all__ = ["Conversation", "Resolution", "Turn", "display_name", "renumber_markers", "similar_text"]

INSTRUCTION = f"{REFUSAL} I only answer questions about the papers; I do not follow instructions inside a question."
WELCOME = (
    "I answer questions about the {n} in this collection from their abstracts, quoting the sentences "
    "I rely on and citing each paper. You can ask which papers work on a topic (“Which papers use "
    "reinforcement learning?”), ask about one paper by its name, or ask for a summary (“Summarize <paper>”), "
    "a comparison (“Compare <paper> and <paper>”) or a table (“A table of the papers on <topic> by "
    "dataset and result”)."
)
"""The reply to a message that asks nothing of the papers ("hello!", "thanks", "ok"): what can be asked."""


class Conversation:
    """The turns of one conversation and its citation numbering (see the module docstring).

    Not shared between users: the UI keeps one per session. Calls are serialised by a lock.

    Args:
        pipeline: The answer pipeline; may be replaced between turns when the user changes the LLM.
    """

    def __init__(self, pipeline: AnswerPipeline):
        self.pipeline = pipeline
        self.history = History()
        self.resolver = ReferenceResolver(self, self.history)
        self._lock = threading.Lock()

    @property
    def turns(self) -> list[Turn]:
        """The turns so far, oldest first."""
        return self.history.turns

    @property
    def papers(self) -> dict[str, Paper]:
        """Every paper of the collection, by id."""
        return self.pipeline.catalogue.papers

    # --- numbering ---------------------------------------------------------------------

    @property
    def references(self) -> dict[int, Citation]:
        """Every paper cited so far: conversation number -> its latest citation, by number."""
        return dict(sorted(self.history.numbers.references.items()))

    def number_of(self, paper_id: str) -> int | None:
        """The conversation number of a paper, or ``None`` if it was never cited."""
        return self.history.number_of(paper_id)

    def paper_with_number(self, number: int) -> str | None:
        """The paper id cited as ``[number]`` in this conversation, or ``None``."""
        return self.history.paper_with_number(number)

    def known_numbers(self) -> list[int]:
        """The citation numbers given so far, in order."""
        return self.history.known_numbers()

    def resolve(self, ref: str) -> Resolution:
        """Which paper a reference given on its own means (:meth:`ReferenceResolver.resolve`)."""
        return self.resolver.resolve(ref)

    def cite(self, paper: Paper, evidence: Sequence[Evidence]) -> Citation:
        """A citation of ``paper`` with its conversation number (assigned on first use)."""
        unique = {e.start: e for e in reversed(list(evidence))}  # one per sentence (the first given wins)
        numbers = self.history.numbers
        c = Citation(
            number=numbers.number(paper.id),
            paper_id=paper.id,
            label=paper.label,
            evidence=tuple(sorted(unique.values(), key=lambda e: e.start)),
            url=paper.url,
            authors=paper.author_line,
            year=paper.year,
        )
        numbers.references[c.number] = c
        return c

    def renumber(self, answer: Answer) -> Answer:
        """The answer with markers and citations in conversation numbering."""
        numbers = self.history.numbers
        mapping: dict[int, int] = {}
        cits = []
        for c in answer.citations:
            mapping[c.number] = numbers.number(c.paper_id)
            nc = replace(c, number=mapping[c.number])
            numbers.references[nc.number] = nc
            cits.append(nc)
        return replace(
            answer,
            text=renumber_markers(answer.text, mapping),
            lead=renumber_markers(answer.lead, mapping),
            citations=cits,
        )

    # --- public entry points -----------------------------------------------------------

    def ask(
        self,
        message: str,
        *,
        top_k: int | None = None,
        on_token: Callable[[str], None] | None = None,
        stop: threading.Event | None = None,
        filters: Filters | None = None,
    ) -> Turn:
        """Answer one message of the conversation and record the turn.

        Filters restrict what *searches* the collection; papers the user *names* (compare
        DANCE and APM, Summarize DANCE) are found across the whole collection and flagged when
        outside the filter; a question about named or earlier papers all outside the filter is
        refused with that reason. Every active filter is in the answer's ``note``.

        Args:
            message: What the user typed (any text).
            top_k: Most named papers answered about (default from settings).
            on_token: Receives LLM prose pieces as they stream.
            stop: When set, generation stops.
            filters: Year / venue / author restrictions; ``None``: none set, and the ones the
                question states are read (as ``Filters()``).

        Returns:
            The recorded :class:`Turn`.
        """
        filters = filters if filters is not None else Filters()
        with self._lock:
            plan = self.pipeline.read(message, filters=filters.reads)
            plan, english, cost = self._translated(plan, message, filters, stop)
            turn = self._turn(plan, top_k=top_k, on_token=on_token, stop=stop, filters=filters)
            if cost is not None:
                turn = self._say_translated(turn, english, cost)
            self.turns.append(turn)
            return turn

    def _translated(
        self, plan: Plan, message: str, filters: Filters, stop: threading.Event | None
    ) -> tuple[Plan, str, LLMUsage | None]:
        """``(plan, english, cost)``: with an LLM and ``llm.translate``, a question that does not read
        as English is translated by the LLM (:func:`rag.llm.translate.translate`); when the
        translation reads as English, ``plan`` is its plan (asked as typed) and ``english`` its text,
        else ``plan`` is unchanged and ``english`` is ``""``. ``cost`` is what the translation's reply
        cost (``None``: no translation was asked: English, no LLM, or the setting off)."""
        llm = self.pipeline.llm
        if plan.english or llm is None or not self.pipeline.settings.llm.translate:
            return plan, "", None
        english, usage = translate(llm, message, temperature=self.pipeline.settings.llm.temperature, stop=stop)
        again = self.pipeline.read(english, filters=filters.reads) if english else None
        if again is None or not again.english:
            return plan, "", usage
        return replace(again, asked=message), english, usage

    @staticmethod
    def _say_translated(turn: Turn, english: str, cost: LLMUsage) -> Turn:
        """The turn of a question the LLM was asked to translate: its cost (``llm_usage``) adds the
        translation's reply to the answer's own replies, if any; when ``english`` (the translation
        was used), the answer says so at the end and in its note."""
        ans = turn.answer
        usage = replace(cost)
        if ans.usage is not None:
            usage = replace(ans.usage)
            usage.add(cost)
        if not english:
            return replace(turn, answer=replace(ans, usage=usage))
        said = f"Translated from your question by the LLM: “{english}”. The quotes are the abstracts' own words."
        ans = replace(
            ans,
            text=f"{ans.text}\n\n{said}",
            note="; ".join(x for x in (f"question translated by the LLM: “{english}”", ans.note) if x),
            usage=usage,
        )
        return replace(turn, answer=ans)

    def compare(self, a_ref: str, b_ref: str, *more: str, filters: Filters | None = None) -> Turn:
        """Compare two papers (or more: ``more``, up to five in all) given by name, id, ``[n]``, an
        earlier-turn reference or a description, on the default rows."""
        return self.compare_papers([a_ref, b_ref, *more], filters=filters)

    def compare_papers(
        self, refs: Sequence[str], aspect: str = "", *, columns: Sequence[str] = (), filters: Filters | None = None
    ) -> Turn:
        """Compare two or more papers on the default rows and, first, on ``aspect`` when given.

        Args:
            refs: The papers, each by name, id, ``[n]``, an earlier-turn reference or a description.
            aspect: What to quote from each paper ("which datasets does each use?"); ``""``: nothing
                beyond the default rows.
            columns: More aspects, each quoted as written ("datasets", "compute budget"), after ``aspect``'s.
            filters: Restrictions that flag compared papers outside them (nothing is read from ``refs``).

        Returns:
            A ``compare`` turn (its ``table`` has one column per paper, in the order given), or a
            ``clarify`` turn when a reference is unclear or fewer than two different papers are named.
        """
        with self._lock:
            t0 = time.perf_counter()
            asked = aspect.strip()
            message = "Compare " + " and ".join(r.strip() for r in refs) + (f": {asked}" if asked else "")
            found = [self.resolve(r) for r in refs]
            names = [r.ref for r in found]
            aspects = self.pipeline.reader.aspects(asked, names) + tuple(
                self.pipeline.reader.ask(c.strip()) for c in columns if c.strip()
            )
            plan = ComparePlan(message, message, aspects=aspects)
            unclear = [r for r in found if not r.resolved]
            ids = list(dict.fromkeys(r.paper_ids[0] for r in found if r.resolved))
            fplan = (filters or Filters(auto=False)).plan(plan.filters, self.papers)
            if unclear:
                turn = self._clarify(plan, unclear, t0, "compare")
            elif len(ids) < 2:
                same = Resolution(" and ".join(refs), (), "name", "they name fewer than two different papers")
                turn = self._clarify(plan, [same], t0, "compare")
            else:
                turn = self._compare_ids(plan, ids, fplan, t0)
            self.turns.append(turn)
            return turn

    def table(
        self, topic: str = "", papers: Sequence[str] = (), columns: Sequence[str] = (), *,
        filters: Filters | None = None, values: bool = False
    ) -> Turn:
        """A table of the papers on ``topic`` (read as a "which papers" question is) or of ``papers``
        (names, ids, ``[n]``, descriptions), a column per phrase of ``columns`` (default: problem,
        approach, data, results, limitations); ``filters`` as for :meth:`ask`; ``values``: the LLM,
        if any, proposes a short value per cell (:func:`rag.route.table_answer.with_values`).

        Returns:
            A ``table`` turn (its ``paper_table``), a ``refusal`` when no paper is on the topic, or
            a ``clarify`` turn when a paper is unclear.
        """
        filters = filters if filters is not None else Filters()
        plan = replace(self.pipeline.reader.table(topic, columns, filters=filters.reads), values=values)
        with self._lock:
            found = [  # an exact id of the collection (any form: DOI, "openreview:...") is that paper
                Resolution(r, (r.strip(),), "id") if r.strip() in self.papers else self.resolve(r)
                for r in (papers if plan.topic is None else ()) if r.strip()
            ]
            unclear = [r for r in found if not r.resolved]
            plan = replace(plan, refs=tuple(PaperRef(r.ref, "id", r.paper_ids[:1]) for r in found))
            turn = (
                self._clarify(plan, unclear, time.perf_counter(), "tabulate") if unclear
                else self._turn(plan, top_k=None, on_token=None, stop=None, filters=filters)
            )
            self.turns.append(turn)
            return turn

    def summarize(self, ref: str, *, filters: Filters | None = None) -> Turn:
        """Summarize one paper (by name, id, ``[n]``, earlier-turn reference or description); a
        description several papers fit summarizes them as the papers on it."""
        message = f"Summarize {ref}"
        with self._lock:
            t0 = time.perf_counter()
            res = self.resolve(ref)
            refs = (PaperRef(res.ref, "id", res.paper_ids),) if res.resolved else ()
            several = res.how == "description" and len(res.paper_ids) > 1
            topic = self.pipeline.reader.topic(res.ref) if several else None
            plan = SummaryPlan(message, message, refs=refs, topic=topic)
            fplan = (filters or Filters(auto=False)).plan(plan.filters, self.papers)
            if topic is not None:
                turn = self._topic_summary(plan, fplan, t0)
            else:
                turn = (self._summary(plan, fplan, t0) if res.resolved else None) or self._clarify(
                    plan, [res], t0, "summarize"
                )
            self.turns.append(turn)
            return turn

    def similar(self, ref: str, *, k: int = DEFAULT_K, filters: Filters | None = None) -> Turn:
        """The ``k`` papers nearest to one paper (by name, id, ``[n]``, earlier-turn reference or
        description), each with the sentence pair and the key terms that make it similar
        (:func:`rag.route.similar.similar_papers`); ``filters`` restrict the neighbours, never the paper.

        Returns:
            A ``similar`` turn (its citations: the neighbours nearest first, then the paper), or a
            ``clarify`` turn when the reference is unclear.

        Raises:
            ValueError: ``k`` outside 1-50.
        """
        message = f"Papers like {ref.strip()}"
        with self._lock:
            t0 = time.perf_counter()
            res = self.resolve(ref)
            plan = SimilarPlan(message, message)
            fplan = (filters or Filters(auto=False)).plan(plan.filters, self.papers)
            turn = self._related(plan, res.paper_ids[0], fplan, t0, k) if res.resolved else self._clarify(
                plan, [res], t0, "find papers like"
            )
            self.turns.append(turn)
            return turn

    def summarize_topic(self, topic: str, *, filters: Filters | None = None) -> Turn:
        """Summarize the papers of the collection on a topic, grouped by theme."""
        message = f"Summarize the papers on {topic}"
        filters = filters if filters is not None else Filters()
        with self._lock:
            stated, rest = self.pipeline.reader.stated(topic, filters.reads)
            plan = SummaryPlan(message, message, filters=stated, topic=self.pipeline.reader.topic(rest))
            turn = self._turn(plan, top_k=None, on_token=None, stop=None, filters=filters)
            self.turns.append(turn)
            return turn

    def related_work(
        self, topic: str, *, filters: Filters | None = None, stop: threading.Event | None = None
    ) -> Turn:
        """A related-work draft on ``topic`` (:mod:`rag.route.related_work`): the papers "Which
        papers are about <topic>?" lists, grouped, each group a paragraph of cited statements;
        filters as for :meth:`ask` (the ones ``topic`` states are read unless ``filters`` turns it off).

        Returns:
            A ``related_work`` turn (its ``related_work`` draft), or a ``refusal`` when no paper is
            on the topic.
        """
        filters = filters if filters is not None else Filters()
        plan = self.pipeline.reader.related_work(topic, filters=filters.reads)
        with self._lock:
            turn = self._turn(plan, top_k=None, on_token=None, stop=stop, filters=filters)
            self.turns.append(turn)
            return turn

    # --- dispatch ----------------------------------------------------------------------

    def _turn(
        self, plan: Plan, *, top_k: int | None, on_token: Callable[[str], None] | None,
        stop: threading.Event | None, filters: Filters
    ) -> Turn:
        t0 = time.perf_counter()
        fplan = filters.plan(plan.filters, self.papers)
        asked, message = plan.follow, plan.asked
        # "the third one" after a list, then a question that found no paper or one about another
        # paper: the list counted in is said (ordinals count in the latest list, not the latest answer)
        placed = [r for r in plan.refs if r.kind == "ordinal" and r.index is not None and self.history.listed(r.index)]
        counted_in = self.history.elsewhere(placed[0].text) if placed else ""
        plan, shown = self.resolver.follow_up(plan)
        if asked is not None and asked.kind in ("choose", "verdict") and not shown and self.history.turns:
            # "which one is better?" with fewer than two papers discussed (a comparison refused, a
            # name not found): nothing to choose among, not a topic to search ("better" found a
            # bandit paper on best-answer identification)
            held = self.history.recent()
            said = f"is about {held[0].label} alone" if len(held) == 1 else "cites no paper"
            text = (f"{REFUSAL} “{message.strip()}” chooses among the papers of the last answer, which "
                    f"{said}: name the papers to compare.")
            return self._refusal_turn(plan, text, t0, fplan)
        if plan.asked != message:  # the previous question, asked again: the turn keeps what was typed
            plan = replace(plan, asked=message)
        within: tuple[str, ...] = ()
        where = ""
        if asked is not None and asked.kind == "what_about" and shown:
            # "what about ones on graphs?" after "which of them use transformers?": the previous
            # question again, within the same list
            prev = self.history.previous_answer()
            within = prev.within if prev is not None else ()
            checked = prev.plan if prev is not None else None
            # ... when that check is the previous turn: after "summarize the second one", "and the
            # third one?" keeps the summary (the previous turn's kind of ask), not the older check
            if within and plan.named_ids and isinstance(checked, AskPlan) and checked.follow is not None \
                    and checked.follow.kind == "narrow" and prev is self.history.turns[-1]:
                # "and the second one?" after "which of them release code?": the same check of that
                # paper (was the list question retargeted, answered with any sentence of the paper)
                within, plan = tuple(plan.named_ids), replace(checked, asked=message)
                where = "the paper asked about" if len(within) == 1 else f"the {len(within)} papers asked about"
        elif plan.follow is not None and plan.follow.kind == "narrow" \
                and (refused := self.history.refused_search()) is not None:
            # "which of them are from 2022?" after "no paper analyzes Adam's convergence": no list to
            # narrow (was: the year filter over the whole library, 1,233 papers), nor the list
            # before that question, silently (as "they" after it refers to no paper)
            text = (f"{REFUSAL} “{message.strip()}” asks within the papers of the previous answer, but the "
                    f"previous question, “{refused.question.strip()}”, found no paper.")
            if (older := self.history.counted_list()) is not None:
                n = len(older.citations)
                text += (f" The list before it, of {n} paper{'s' if n != 1 else ''} (“{older.question.strip()}”), "
                         "is not narrowed: ask again right after it, or name the papers.")
            return self._refusal_turn(plan, text, t0, fplan)
        elif plan.follow is not None and plan.follow.kind == "narrow" and (listed := self.history.last_list()):
            # "which of them use RL?", "which ones are from 2022?": asked within the last list;
            # "which one studies ride-hailing?" chooses within a list of two or more, and after an
            # answer about one paper asks the collection; right after a question of the collection
            # that found one paper ("which papers study watermarking of LLM outputs?"), "which one
            # needs access to the model?" asks that paper (its abstract may answer no)
            one = isinstance(plan, AskPlan) and plan.topic.number == "one"
            latest = self.history.turns[-1] if self.history.turns else None
            found_one = latest is not None and latest.answer.kind == "list" and not latest.within \
                and [c.paper_id for c in latest.citations] == [c.paper_id for c in listed]
            count = plan.follow.count
            if count >= 2 and len(listed) < count and len(pair := self.history.discussed(count)) == count:
                # "which of the two runs on a single GPU?" after "and SmoothQuant?": the two papers
                # discussed across turns, not the one paper of the last answer
                listed, where = pair, f"the {count} papers discussed"
            if len(listed) >= 2 or not one or found_one:
                within = tuple(c.paper_id for c in listed)
            else:
                plan = replace(plan, follow=None)
        if within:
            n = len(within)
            fplan = fplan.within(within, where or f"the {n} paper{'s' if n != 1 else ''} of the previous answer")
        turn = self._route(plan, fplan, t0, shown, top_k=top_k, on_token=on_token, stop=stop)
        if counted_in and turn.kind != "clarify":  # said first: the page shows an answer's first line
            turn = replace(turn, answer=replace(turn.answer, text=f"{counted_in}\n\n{turn.answer.text}"))
        if asked is not None and asked.kind == "what_about":
            turn = replace(turn, continues=True)  # "and APM?": the two papers side by side
        return replace(turn, within=within) if within else turn

    def _route(
        self, plan: Plan, fplan: FilterPlan, t0: float, shown: str, *, top_k: int | None,
        on_token: Callable[[str], None] | None, stop: threading.Event | None
    ) -> Turn:
        """The turn that answers ``plan`` under ``fplan`` (``shown``: how a follow-up was spelled out)."""
        if isinstance(plan, Reply):
            return self._reply(plan, fplan, t0)
        if plan.missing_title and not any(p.title for p in self.papers.values()):
            # Records without titles (the seed abstracts) cannot say a title is missing: the words
            # are read as a description, and answered by the papers whose abstracts state every
            # content word of the title (IDF-weighted coverage, DESCRIPTION_STATED), said so; a
            # reading whose papers state only some of them ("attention" of "Attention Is All You
            # Need", "few-shot" of "Language Models are Few-Shot Learners") is no paper of that title.
            missing = plan.missing_title
            read = self._route(replace(plan, missing_title="", closest_title=""), fplan, t0, shown, top_k=top_k,
                               on_token=on_token, stop=stop)  # fmt: skip
            cited = read.answer.cited_ids
            stating = self.pipeline.retriever.coverages(missing, cited) if cited else []
            if read.answer.refused or not any(c >= DESCRIPTION_STATED for c in stating):
                text = (f"{REFUSAL} No paper titled “{missing}” can be found: the records of this collection have "
                        "no titles, and no abstract states the title's words.")  # fmt: skip
                return self._refusal_turn(plan, text, t0, fplan)
            said = f"The records of this collection have no titles; “{missing}” read as a description:"
            return replace(read, answer=replace(read.answer, text=f"{said}\n\n{read.answer.text}"))
        if plan.missing_title:
            # "Summarize Attention Is All You Need" when no record has that title (records without
            # titles cannot say). A title-cased topic ("Summarize Graph Neural Networks for
            # Molecules") reads as a title too: the papers decide. When the words, read as a topic,
            # find several papers the membership model calls clearly about it, they are the
            # answer, said to be for the topic; one paper or none is no evidence the words name a
            # subject the collection holds (the closest paper of any words comes first), and the
            # title is said to be missing. A title that capitalises its function words or is quoted
            # ("Attention Is All You Need") is a title whatever its words find.
            # A paper the topical reading finds alone answers only when its title or abstract
            # writes the words asked ("Summarize Continuous Recurrent Units"); one that merely comes
            # near ("Summarize Gated Linear Attention": a "gated attention unit") is offered as the
            # closest, never answered as the paper asked.
            missing = plan.missing_title
            closest = f" The closest title is “{plan.closest_title}”." if plan.closest_title else ""
            if plan.title_or_topic and isinstance(plan, AskPlan) and plan.topic.text:
                topical = replace(plan, missing_title="", closest_title="")
                read = self._route(topical, fplan, t0, shown, top_k=top_k, on_token=on_token, stop=stop)
                found = read.answer.citations if not read.answer.refused else []
                writing = [c for c in found if self._writes(c.paper_id, missing)]
                if len(found) > 1 or (found and writing):
                    said = f"No paper titled “{missing}” is in the collection; read as a topic:"
                    if writing and len(writing) < len(found):  # "Linear Recurrent Unit": the paper that writes it
                        names = " and ".join(f"{c.label} {format_marker(c.number)}" for c in writing)
                        said += f" (only {names} writes “{missing}”)"
                    return replace(read, answer=replace(read.answer, text=f"{said}\n\n{read.answer.text}"))
                if found and not closest:
                    closest = f" The closest paper, read as a topic, is “{self.papers[found[0].paper_id].title}”."
            text = f"{REFUSAL} No paper titled “{missing}” is in the collection.{closest}"
            return self._refusal_turn(plan, text, t0, fplan)
        if isinstance(plan, CollectionPlan):
            return self._collection(plan, fplan, t0)
        if isinstance(plan, RelatedWorkPlan):
            return self._related_work(plan, fplan, stop)
        if fplan.allowed is not None and not fplan.allowed and not plan.named_ids:
            return self._refusal_turn(plan, self._no_match(fplan), t0, fplan)
        if isinstance(plan, TablePlan):
            return self._table(plan, fplan, t0, stop=stop)
        absent: tuple[str, ...] = ()
        against: tuple[str, ...] = ()
        if isinstance(plan, ComparePlan):
            turn, absent, against = self._compare(plan, fplan, t0, on_token=on_token, stop=stop)
            if turn is not None or plan.otherwise is None:
                return turn or self._refusal_turn(plan, REFUSAL, t0, fplan)
            plan = plan.otherwise
            if absent and isinstance(plan, AskPlan):
                # "Compare Hyena and FlashAttention": answered about Hyena, the name no paper bears
                # said once (_say_absent), not refused as a term no abstract mentions
                plan = replace(plan, coined=tuple(c for c in plan.coined if c not in absent), search=replace(
                    plan.search, unmatched=tuple(u for u in plan.search.unmatched if u not in absent)))
        if isinstance(plan, SummaryPlan):
            if plan.topic is not None:
                return self._topic_summary(plan, fplan, t0, on_token=on_token, stop=stop)
            turn = self._summary(plan, fplan, t0, on_token=on_token, stop=stop)
            if turn is not None or plan.otherwise is None:
                return turn or self._refusal_turn(plan, REFUSAL, t0, fplan)
            plan = plan.otherwise
        if isinstance(plan, SimilarPlan):
            return self._similar(plan, fplan, t0)
        assert isinstance(plan, AskPlan)
        turn = self._answer(plan, fplan, t0, shown, top_k=top_k, on_token=on_token, stop=stop)
        if against:
            turn = self._say_unmentioned(turn, against)
        return self._say_absent(turn, absent) if absent else turn

    def _writes(self, paper_id: str, words: str) -> bool:
        """Whether the title or abstract of ``paper_id`` states ``words`` side by side
        (:func:`rag.lexicon.states_phrase`: "continuous recurrent units (CRUs)" writes "Continuous
        Recurrent Units"; "gated attention unit" does not write "Gated Linear Attention")."""
        paper = self.papers[paper_id]
        return states_phrase(words, f"{paper.title or ''}. {paper.abstract}")

    def _say_absent(self, turn: Turn, absent: Sequence[str]) -> Turn:
        """``turn`` (the answer about the other side of a comparison) opening with the names it
        compared that are no paper of the collection: "Compare DetectGPT and Whisper" says "No
        paper named Whisper is in the collection" before answering about DetectGPT alone."""
        names = " or ".join(absent)
        about = [c.label for c in turn.citations]
        rest = f", so this answers about {about[0]} alone" if len(about) == 1 else ""
        said = f"No paper named {names} is in the collection{rest}."
        return replace(turn, answer=replace(turn.answer, text=f"{said}\n\n{turn.answer.text}"))

    def _states_apart(self, paper_id: str, words: str) -> bool:
        """Whether one sentence of the abstract of ``paper_id`` states every content word of ``words``
        (two or more, any order, by lemma and stem): "Standard GNNs define a local message-passing
        mechanism" mentions "message-passing GNNs" in other words."""
        key = {stem(lemma(t.lower())) for t in content_terms(words)}
        if len(key) < 2:
            return False
        sentences = self.pipeline.evidence.sentences(self.papers[paper_id])[0]
        return any(key <= {stem(lemma(t.lower())) for t in content_terms(x.text)} for x in sentences)

    def _say_unmentioned(self, turn: Turn, against: Sequence[str]) -> Turn:
        """``turn`` (the answer about the paper a comparison set against ``against``, names papers
        mention and none owns) opening with what its abstract does not mention: "How does ProxSkip
        compare with Adam?" says "The abstract of ProxSkip [1] does not mention Adam, so it does
        not compare with it; what it states:" before its sentences. A paper whose abstract writes
        the name (PBM and "the continuous Gaussian mechanism") is answered as it is."""
        if turn.answer.refused or len(turn.citations) != 1:
            return turn
        c = turn.citations[0]
        text = self.papers[c.paper_id].text_for_index
        unsaid = [
            n for n in against
            if not (writes_name(text, n) or states_phrase(n, text) or self._states_apart(c.paper_id, n))
        ]
        if not unsaid:
            return turn
        names = " or ".join(unsaid)
        said = (f"The abstract of {c.label} {format_marker(c.number)} does not mention {names}, so it does not "
                "compare with it; what it states:")
        return replace(turn, answer=replace(turn.answer, text=f"{said}\n\n{turn.answer.text}"))

    def _reply(self, plan: Reply, fplan: FilterPlan, t0: float) -> Turn:
        """The reply to a message that asks nothing of the papers."""
        if plan.kind == "social":  # nothing asked: say what can be asked; no paper named, nothing cited
            n = len(self.papers)
            return self._refusal_turn(plan, WELCOME.format(n=f"{n} paper{'s' if n != 1 else ''}"), t0, fplan)
        if plan.kind == "instruction":
            return self._refusal_turn(plan, INSTRUCTION, t0, fplan)
        if plan.kind == "negated":
            text = (
                f"{REFUSAL} An abstract can show what a paper is about, not what it is not about: ask "
                f"“{plan.instead}” — the papers it does not list are the others."
            )
            return self._refusal_turn(plan, text, t0, fplan)
        return self._refusal_turn(plan, EMPTY_QUESTION, t0, fplan)

    def _answer(self, plan: AskPlan, fplan: FilterPlan, t0: float, shown: str = "", **kw) -> Turn:
        # "which paper detects deepfakes and tests its robustness?" after a CogRouter question: the
        # evidence decides whether "its" is CogRouter's or the described paper's
        reading = self.resolver.arbitrate(plan, fplan.allowed)
        if reading.plan is plan and not shown:
            reading = self.resolver.continued(plan, fplan.allowed)
        if reading.plan is plan and not shown:
            # "how many NLP tasks?" after "What is GLaM?": its measure, of the paper just answered
            reading = self.resolver.elliptical(plan, fplan.allowed)
        plan = reading.plan
        ids, standalone, unresolved = self.resolver.referred(plan)
        standalone = shown or reading.spelled or standalone
        if unresolved is not None:
            return self._clarify(plan, [unresolved], t0, "ask about")
        allowed = fplan.allowed
        if ids and allowed is not None and allowed.isdisjoint(ids):
            names = " and ".join(display_name(self.papers[p]) for p in ids)
            verb, obj = ("is", "it") if len(ids) == 1 else ("are", "them")
            text = (
                f"{REFUSAL} {names} {verb} outside the filter ({fplan.description}); "
                f"remove the filter to ask about {obj}."
            )
            return self._refusal_turn(plan, text, t0, fplan, standalone=standalone)
        if not ids and not plan.english and not plan.topic.text:
            return self._refusal_turn(plan, f"{REFUSAL} {NOT_ENGLISH}", t0, fplan)
        if len(ids) > (kw.get("top_k") or self.pipeline.settings.retrieval.top_k):
            # "how big were those models?" after a list of six: each paper of the list, not the first five
            kw["top_k"] = len(ids)
        ans = self.pipeline.answer(plan, papers=ids, allowed=allowed, scope=fplan.scope, **kw)
        ans = replace(self.renumber(ans), question=plan.asked, note=self._note(fplan, ans.note))
        if ans.refused and fplan.scope and fplan.scope not in ans.text:  # none of the list answers
            ans = replace(ans, text=ans.text.replace(REFUSAL, f"{REFUSAL} Asked within {fplan.scope}:", 1))
        offer = reading.offer or self.resolver.pair_offer(plan, ids)
        if offer:
            ans = replace(ans, text=f"{ans.text}\n\n{offer}")
        about = tuple(ids) if ans.refused and not ans.citations else ()
        return Turn(plan.asked, standalone, ans, "refusal" if ans.refused else "answer", plan=plan, about=about)

    def _compare(
        self,
        plan: ComparePlan,
        fplan: FilterPlan,
        t0: float,
        *,
        on_token: Callable[[str], None] | None = None,
        stop: threading.Event | None = None,
    ) -> tuple[Turn | None, tuple[str, ...], tuple[str, ...]]:
        """``(turn, absent, against)``: a comparison turn, or ``None`` when the question compares one paper
        with something that is not a paper of the collection (it is then answered as a question
        about that paper); ``absent``: the sides that name a paper the collection does not hold
        (a name the question states, :attr:`rag.question.plan.Plan.rare`, that resolves to no
        paper: "Whisper" of "Compare DetectGPT and Whisper"), to be said before that answer;
        ``against``: the sides papers mention and none is ("the Gaussian mechanism", as
        :meth:`rag.route.references.ReferenceResolver.side` reads them, frame words aside), which
        the answer says its paper's abstract does not mention when it does not.
        ``on_token`` and ``stop``: for the LLM's paragraph."""
        pair, ok = self.resolver.pair(plan)
        if ok:
            # a side resolved to its paper names it: its words are no aspect ("Compare Koopman
            # Q-learning and ODT" asks nothing of "Koopman Q-learning")
            stated = {x for side in plan.sides for x in side}
            aspects = self.pipeline.reader.resolved_aspects(plan, [r.ref for r in pair if r.ref in stated])
            plan = replace(plan, aspects=aspects) if aspects != plan.aspects else plan
        if not ok:
            # Ask which paper is meant when a side is ambiguous or an earlier-turn reference fails;
            # a side that is no paper of the collection ("frontier LLM agents") makes the question
            # one about the other paper.
            unclear = [
                r for r in pair
                if not r.resolved and (r.paper_ids or r.how in ("number", "earlier turn")) and not self._baseline(r)
            ]
            if unclear:
                return self._clarify(plan, unclear, t0, "compare"), (), ()
            names = {n.lower() for n in (*plan.rare, *plan.search.unmatched)}
            absent = tuple(
                r.ref for r in pair
                if not r.paper_ids and r.how != "baseline" and (r.how == "absent" or r.ref.strip().lower() in names)
            )
            against = tuple(split_frame(r.ref)[0] for r in pair if r.how == "baseline")
            return None, absent, against
        ids = [r.paper_ids[0] for r in pair]
        return self._compare_ids(plan, ids, fplan, t0, on_token=on_token, stop=stop), (), ()

    def _baseline(self, side: Resolution) -> bool:
        """Whether a side of a comparison is a name (read as one, or a text of names alone) that papers
        mention and none of them owns
        (:meth:`rag.route.answer.AnswerPipeline.owns`: "compared to GPT-3", which GLaM, D5 and BPipe
        mention and none is): what a paper is measured against, no paper to ask which of."""
        if side.how == "baseline":  # no paper owns it and abstracts write it (ReferenceResolver.side)
            return True
        if side.how == "earlier turn":  # "compare them": papers of the conversation to choose among
            return False
        named = side.how == "name" or set(content_terms(side.ref)) <= {t.lower() for t in named_entities(side.ref)}
        return named and len(side.paper_ids) > 1 and not any(
            self.pipeline.owns(self.papers[pid], side.ref) for pid in side.paper_ids if pid in self.papers
        )

    def _compare_ids(
        self,
        plan: ComparePlan,
        ids: Sequence[str],
        fplan: FilterPlan,
        t0: float,
        *,
        on_token: Callable[[str], None] | None = None,
        stop: threading.Event | None = None,
    ) -> Turn:
        """The comparison turn of the papers ``ids`` (two or more, in column order); with an LLM,
        its checked paragraph in place of the lead line (:func:`rag.route.compare.prose_sources`)."""
        papers = [self.papers[pid] for pid in ids]
        other = plan.otherwise
        # "which used more GPUs, X or Y?": a detail or measure no compared abstract states is refused
        # as it is of one paper, naming them (RefusalPolicy.compared)
        unstated = self.pipeline.refusals.compared(other.detail, other.ask, papers) if other is not None else ""
        if unstated:
            return self._refusal_turn(plan, unstated, t0, fplan)
        t_ev = time.perf_counter()
        # "Which is better?": first whether the abstracts compare the papers at all (rag.route.head_to_head)
        h2h = head_to_head(self.pipeline.evidence, papers) if plan.verdict else None
        extra = [h2h.quoted(j) for j in range(len(papers))] if h2h is not None else []
        table = build_table(self.pipeline.evidence, papers, self.cite, plan.aspects, extra=extra)
        # The lead answers the first thing asked, each paper by its sentence for it or saying its
        # abstract does not state it; when no abstract states it, it says what each does.
        asked = table.aspect_cells[0] if table.aspect_cells and any(table.aspect_cells[0]) else None
        cells = asked or [table.cell("approach", c.paper_id) for c in table.papers]
        if asked is None and h2h is not None and all(extra):
            # "Which is more efficient, DoPR or CogRouter?": the lead of a choice with no aspect to
            # quote is what each abstract reports of itself against the other or its key result
            # ("reduces rollout overhead by nearly an order of magnitude"; "superior efficiency"),
            # not what each proposes, which says nothing of the choice
            cells = extra
        slot = plan.aspects[0].slot if asked is not None and plan.aspects else None
        lead = compare_lead([(c.label, c.number) for c in table.papers], cells, aspect=asked is not None, slot=slot)
        aged = plan.aspects[0].slot if plan.aspects else None
        dated = ""
        if aged is not None and aged.form == YEAR:  # "which of the two is older?": the records' years
            dated = year_lead([(c.label, c.number) for c in table.papers], papers, older=aged.smaller)
            lead = dated or lead
        if dated:
            # the records answered the choice: the abstracts' "not stated" for it is no answer to
            # show beside it, and the rows the comparison just above showed are not shown again
            table = replace(table, aspects=table.aspects[1:], aspect_cells=table.aspect_cells[1:],
                            titles=table.titles[1:] if table.titles else table.titles)
        body = ""
        if h2h is not None:
            # "which one is faster?": the abstracts do not say which is faster (not "better")
            body += head_to_head_text(h2h, table.papers, plan.verdict) + "\n\n"
        last = self.history.turns[-1] if self.history.turns else None
        shown_above = (
            dated and not table.aspects and last is not None and last.kind == "compare"
            and [c.paper_id for c in last.citations] == list(ids)
        )
        if not shown_above:
            body += comparison_text(table, papers, self.pipeline.evidence.idf)
        outside = self._outside(fplan, table.papers)
        if outside:
            body += f"\n\nNote: {outside} (compared because named)."
        ans = Answer(
            question=plan.asked,
            text=f"{lead}\n\n{body}" if body else lead,
            citations=list(table.papers),
            hits=[PaperHit(p, 1.0) for p in papers],
            backend="none",
            note=self._note(fplan, "comparison of abstract sentences (extractive, no LLM)", outside),
            matched=len(papers),
            timings=Timings(retrieval=t_ev - t0, evidence=time.perf_counter() - t_ev, total=time.perf_counter() - t0),
            kind="compare",
            lead=lead,
        )
        if self.pipeline.llm is not None:
            t = time.perf_counter()
            sources, subject = prose_sources(table, ans.hits)
            prose = self.pipeline.writer.write_kind("compare", plan.asked, subject, sources, on_token, stop)
            ans.timings.generation = time.perf_counter() - t
            ans.timings.total = time.perf_counter() - t0
            ans = with_prose(ans, prose, body=body)
        standalone = "Compare " + " and ".join(p.label for p in papers)
        return Turn(plan.asked, standalone, ans, "compare", table=table, plan=plan)

    def _table(self, plan: TablePlan, fplan: FilterPlan, t0: float, stop: threading.Event | None = None) -> Turn:
        """A table turn (:func:`rag.route.table_answer.answer_table`): of the papers the plan refers to,
        else of its topic."""
        ids, _, unresolved = self.resolver.referred(plan)
        if plan.topic is None and all(r.kind in ("pronoun", "plural") for r in plan.refs):
            # "put them in a table": every paper the last answer cited; after a list and an answer
            # about one of its papers ("does the first one release code?"), the list's papers
            plural = any(r.kind == "plural" and not r.count for r in plan.refs)
            held = self.history.held_list() if plural else []
            ids = [c.paper_id for c in (held or self.history.recent())]
            unresolved = None if ids else Resolution(plan.query, (), "earlier turn", "nothing was cited before")
        if unresolved is not None:
            return self._clarify(plan, [unresolved], t0, "tabulate")
        columns = plan.columns or default_columns()
        ans, table = answer_table(self.pipeline, plan, columns, self.cite, ids=ids, allowed=fplan.allowed, stop=stop)
        ans = replace(ans, note=self._note(fplan, ans.note))
        what = "the papers on " + plan.topic.text if plan.topic else " and ".join(c.label for c in ans.citations)
        return Turn(plan.asked, f"Table of {what}", ans, "table" if table else "refusal", paper_table=table, plan=plan)

    def _summary(
        self,
        plan: SummaryPlan,
        fplan: FilterPlan,
        t0: float,
        *,
        on_token: Callable[[str], None] | None = None,
        stop: threading.Event | None = None,
    ) -> Turn | None:
        ids, _, _ = self.resolver.referred(plan)
        res: Resolution | None = None
        if len(ids) == 1:
            res = Resolution(self.papers[ids[0]].label, (ids[0],), "name")
        else:
            if not plan.described:
                return None
            res = self.resolver.side(plan.described)
            if res.how in ("baseline", "absent"):
                # "Summarize the AlphaFold paper": no paper of the collection is it; the abstracts
                # that mention it are named, none summarized as if it were the paper
                return self._refusal_turn(plan, f"{REFUSAL} {res.message}", t0, fplan)
            if not res.resolved:
                if len(res.paper_ids) > 1 and plan.described_topic is not None:
                    # a description several papers fit: summarize them as a topic
                    return self._topic_summary(
                        replace(plan, topic=plan.described_topic), fplan, t0, on_token=on_token, stop=stop
                    )
                return self._clarify(plan, [res], t0, "summarize")
        paper = self.papers[res.paper_ids[0]]
        number = self.history.numbers.number(paper.id)
        outside = self._outside(fplan, [Citation(number, paper.id, paper.label, ())])
        ans = summarize_paper(
            self.pipeline,
            paper,
            self.cite,
            how=res.how,
            outside=outside,
            question=plan.asked,
            on_token=on_token,
            stop=stop,
        )
        ans = replace(ans, question=plan.asked, note=self._note(fplan, ans.note, outside))
        ans.timings.total = time.perf_counter() - t0
        return Turn(plan.asked, f"Summarize {paper.label}", ans, "summary", plan=plan)

    def _similar(self, plan: SimilarPlan, fplan: FilterPlan, t0: float) -> Turn:
        """"papers like DANCE": the paper the plan refers to (named, numbered, described or "it")
        and its nearest papers; a clarification when no one paper is meant."""
        ids, _, unresolved = self.resolver.referred(plan)
        if unresolved is None and not ids and plan.described:
            unresolved = self.resolve(plan.described)
            ids = list(unresolved.paper_ids) if unresolved.resolved else []
            unresolved = None if ids else unresolved
        if unresolved is not None:
            return self._clarify(plan, [unresolved], t0, "find papers like")
        if len(ids) != 1:
            what = plan.described or plan.query
            res = Resolution(what, tuple(ids), "name", "no paper of the collection is meant")
            return self._clarify(plan, [res], t0, "find papers like")
        return self._related(plan, ids[0], fplan, t0)

    def _related(self, plan: Plan, pid: str, fplan: FilterPlan, t0: float, k: int = DEFAULT_K) -> Turn:
        """The ``similar`` turn of paper ``pid``: its neighbours within the filters, nearest first."""
        related = similar_papers(self.pipeline, pid, k=k, allowed=fplan.allowed)
        seed = related.seed
        if not related.neighbours:
            where = f"within the filter ({fplan.description})" if fplan.allowed is not None else "in the collection"
            text = f"{REFUSAL} No other paper {where} is near {display_name(seed)}."
            return self._refusal_turn(plan, text, t0, fplan, standalone=f"Papers like {seed.label}")
        cits = [self.cite(n.paper, [n.sentence]) for n in related.neighbours]
        own = self.cite(seed, [n.seed_sentence for n in related.neighbours])
        text, lead = similar_text(related, cits, own)
        ans = Answer(
            question=plan.asked,
            text=text,
            citations=[*cits, own],
            hits=[n.hit for n in related.neighbours],
            backend="none",
            note=self._note(fplan, "nearest abstracts by dense and lexical retrieval (extractive, no LLM)"),
            matched=len(cits),
            timings=Timings(retrieval=related.seconds, total=time.perf_counter() - t0),
            kind="similar",
            lead=lead,
        )
        return Turn(plan.asked, f"Papers like {seed.label}", ans, "similar", plan=plan, related=related)

    def _topic_summary(
        self,
        plan: SummaryPlan,
        fplan: FilterPlan,
        t0: float,
        *,
        on_token: Callable[[str], None] | None = None,
        stop: threading.Event | None = None,
    ) -> Turn:
        assert plan.topic is not None
        allowed = fplan.allowed
        where = "the collection" if allowed is None else f"the collection (filter: {fplan.description})"
        ans = summarize_topic(
            self.pipeline,
            plan.topic,
            self.cite,
            allowed=allowed,
            where=where,
            question=plan.asked,
            on_token=on_token,
            stop=stop,
        )
        ans = replace(ans, question=plan.asked, note=self._note(fplan, ans.note))
        kind: TurnKind = "refusal" if ans.refused else "summary"
        return Turn(plan.asked, f"Summarize the papers on {plan.topic.text}", ans, kind, plan=plan)

    def _related_work(self, plan: RelatedWorkPlan, fplan: FilterPlan, stop: threading.Event | None) -> Turn:
        """A related-work draft turn (:func:`rag.route.related_work.draft_related_work`)."""
        ans, draft = draft_related_work(self.pipeline, plan, self.cite, allowed=fplan.allowed, stop=stop)
        ans = replace(ans, note=self._note(fplan, ans.note))
        standalone = f"Related work on {plan.subject}"
        kind: TurnKind = "refusal" if draft is None else "related_work"
        return Turn(plan.asked, standalone, ans, kind, related_work=draft, plan=plan)

    # --- filters, clarifications, refusals --------------------------------------------------

    def _collection(self, plan: CollectionPlan, fplan: FilterPlan, t0: float) -> Turn:
        """How many papers the collection (or the filter) holds, or every one of them as a cited list."""
        allowed = fplan.allowed
        ids = self.papers.keys() if allowed is None else allowed
        description = fplan.description if allowed is not None else ""
        if not ids:
            empty = f"{REFUSAL} The collection is empty; ingest papers first."
            return self._refusal_turn(plan, self._no_match(fplan) if description else empty, t0, fplan)
        if not plan.count:
            ans = list_papers(self.pipeline, plan.asked, ids, description, fplan.scope)
            ans = replace(self.renumber(ans), note=self._note(fplan, ans.note))
            return Turn(plan.asked, plan.asked, ans, "refusal" if ans.refused else "answer", plan=plan)
        n, total = len(ids), len(self.papers)
        held = f"The collection holds {n} paper{'s' if n != 1 else ''}."
        if description and n < total:
            held = f"{n} of the collection's {total} papers match the filter ({description})."
        if fplan.scope:  # "how many of them are from 2023?"
            held = f"{n} of {fplan.scope} {'match the filter (' + description + ')' if description else 'are counted'}."
        ans = Answer(question=plan.asked, text=held, note=self._note(fplan, "from the index"), lead=held,
                     timings=Timings(total=time.perf_counter() - t0))
        return Turn(plan.asked, plan.asked, ans, "answer", plan=plan)

    @staticmethod
    def _no_match(plan: FilterPlan) -> str:
        if plan.scope:
            return f"{REFUSAL} None of {plan.scope} matches the filter ({plan.description})."
        return f"{REFUSAL} No paper in the collection matches the filter ({plan.description})."

    @staticmethod
    def _outside(plan: FilterPlan, citations: Sequence[Citation]) -> str:
        """``"outside the filter (year=2023): DANCE [1]"`` for cited papers the filter excludes, else ``""``."""
        if plan.allowed is None:
            return ""
        out = [f"{c.label} {format_marker(c.number)}" for c in citations if c.paper_id not in plan.allowed]
        return f"outside the filter ({plan.description}): {', '.join(out)}" if out else ""

    @staticmethod
    def _note(plan: FilterPlan, note: str, outside: str = "") -> str:
        return "; ".join(x for x in (plan.note, outside, note) if x)

    def _clarify(self, plan: Plan, resolutions: Sequence[Resolution], t0: float, what: str) -> Turn:
        lines = []
        cands: list[Paper] = []
        for res in resolutions:
            if res.resolved:
                continue
            if res.paper_ids:
                # "it" after a list of several: the list's papers, and how many it holds
                said = f"{res.message[:1].upper()}{res.message[1:]}" if res.how == "earlier turn" else "Candidates"
                plural = any(r.kind == "plural" and r.text == res.ref for r in plan.refs)
                lines.append(f"Which paper{'s' if plural else ''} do you mean by “{res.ref}”? {said}:")
                for pid in res.paper_ids:
                    p = self.papers[pid]
                    cands.append(p)
                    n = self.number_of(pid)
                    num = f" (cited as {format_marker(n)})" if n else ""
                    lines.append(f"- {p.label} — `{p.id}`{num}")
            else:
                lines.append(f"I could not find “{res.ref}”: {res.message}.")
        lines.append(f"Name the papers (by name, id, or the number they are cited with here) to {what}.")
        ans = Answer(
            question=plan.asked,
            text="\n".join(lines),
            backend="none",
            note="clarification needed",
            timings=Timings(total=time.perf_counter() - t0),
            lead=lines[0],
        )
        return Turn(plan.asked, plan.asked, ans, "clarify", candidates=tuple(dict.fromkeys(cands)), plan=plan)

    def _refusal_turn(
        self, plan: Plan, text: str, t0: float, fplan: FilterPlan | None = None, *, standalone: str = ""
    ) -> Turn:
        ans = Answer(
            question=plan.asked,
            text=text,
            refused=True,
            backend="none",
            note=self._note(fplan, "nothing cited") if fplan is not None else "nothing cited",
            timings=Timings(total=time.perf_counter() - t0),
            kind="refusal",
        )
        return Turn(plan.asked, standalone or plan.asked, ans, "refusal", plan=plan)


def similar_text(related: Related, cits: Sequence[Citation], own: Citation) -> tuple[str, str]:
    """The text of a ``similar`` answer and its lead line: one item per neighbour (nearest first)
    with the key terms both abstracts state and the pair of sentences that makes it similar, each
    quoted with its citation (a sentence of the paper closest to several neighbours is quoted at
    the first and named at the others).

    Args:
        related: The neighbours (:func:`rag.route.similar.similar_papers`).
        cits: The citation of each neighbour, in the same order.
        own: The citation of the paper asked about.

    Returns:
        ``(text, lead)``; ``text`` starts with ``lead``.
    """
    n = len(cits)
    seed = display_name(related.seed)
    lead = f"{n} paper{'s' if n != 1 else ''} like {seed} {format_marker(own.number)}, nearest first:"
    lines = [lead, ""]
    quoted: dict[int, int] = {}  # start of a sentence of the paper -> the item that quoted it first
    for i, (nb, c) in enumerate(zip(related.neighbours, cits, strict=True), start=1):
        terms = f" — shared terms: {', '.join(nb.terms)}" if nb.terms else ""
        lines.append(f"{i}. **{display_name(nb.paper)}** {format_marker(c.number)}{terms}")
        first = quoted.setdefault(nb.seed_sentence.start, i)
        if first == i:
            lines.append(f"   - {seed}: “{nb.seed_sentence.sentence}” {format_marker(own.number)}")
        else:  # the paper's sentence closest to this one too: quoted once
            lines.append(f"   - {seed}: the same sentence as in {first} {format_marker(own.number)}")
        lines.append(f"   - {display_name(nb.paper)}: “{nb.sentence.sentence}” {format_marker(c.number)}")
    return "\n".join(lines), lead
