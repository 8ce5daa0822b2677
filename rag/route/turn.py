"""A turn of a conversation (:class:`Turn`: the question, the answer and what it showed), the
conversation-wide citation numbering (:func:`renumber_markers`) and the history references are
resolved against (:class:`History`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from rag.citations import MARKER, format_marker
from rag.evidence.table import PaperTable
from rag.question.plan import AskPlan, Plan
from rag.route.compare import ComparisonTable
from rag.route.related_work import RelatedWork
from rag.route.similar import Related
from rag.types import Answer, Citation
from store.papers import Paper

__all__ = ["CitationNumbering", "History", "Turn", "TurnKind", "renumber_markers"]

TurnKind = Literal["answer", "compare", "table", "summary", "related_work", "clarify", "refusal", "similar"]


@dataclass
class Turn:
    """One question and what the conversation answered.

    Attributes:
        question: The text the user typed.
        standalone: The question with its references to earlier turns spelled out (equal to
            ``question`` when it has none; for comparisons and summaries, what was done).
        answer: The answer, with markers and citations in conversation numbering; its ``text``
            is what the page shows.
        kind: ``answer``, ``compare``, ``table``, ``summary``, ``related_work``, ``similar`` (papers like one
            paper), ``clarify`` or ``refusal``.
        table: The comparison table of a ``compare`` turn.
        paper_table: The table of a ``table`` turn (rows papers, columns phrases).
        related_work: The draft of a ``related_work`` turn (groups of cited statements; its
            LaTeX, Markdown and BibTeX are :mod:`ui.related_work`'s).
        candidates: Papers to choose from, for a ``clarify`` turn.
        plan: How the message was read.
        within: The papers of an earlier list the question was asked within ("which of them use
            RL?", and "what about X?" after it); ``()`` for a question asked of the collection.
        related: The neighbours of a ``similar`` turn (:func:`rag.route.similar.similar_papers`).
        about: The papers a refused question was asked of ("the third one: what benchmarks?" ->
            PrefixRL, whose abstract does not state them): "it" and "what about X?" after it continue
            that question and that paper, though nothing was cited; ``()`` otherwise.
        continues: The message asked the previous question again of another paper or topic ("and
            APM?", "what about ME-DLM?"): the two papers are then set side by side (:meth:`History.paired`).
    """

    question: str
    standalone: str
    answer: Answer
    kind: TurnKind = "answer"
    table: ComparisonTable | None = None
    paper_table: PaperTable | None = None
    related_work: RelatedWork | None = None
    candidates: tuple[Paper, ...] = ()
    plan: Plan | None = None
    within: tuple[str, ...] = ()
    related: Related | None = None
    about: tuple[str, ...] = ()
    continues: bool = False

    @property
    def citations(self) -> list[Citation]:
        """Citations of this turn (conversation numbers)."""
        return self.answer.citations

    @property
    def interpreted(self) -> str:
        """The spelled-out question as shown after "Interpreted as:", in quotation marks (once: a
        question that is only a quoted description is not quoted again)."""
        text = self.standalone.strip()
        return text if text.startswith("“") and text.endswith("”") else f"“{text}”"

    @property
    def rewritten(self) -> bool:
        """True when references to earlier turns were spelled out."""
        return self.kind == "answer" and self.standalone.strip() != self.question.strip()


def renumber_markers(text: str, mapping: dict[int, int]) -> str:
    """Rewrite ``[n]`` / ``[n, m]`` markers by ``mapping`` (numbers not in it are kept).

    >>> renumber_markers("A [1]. B [2, 1].", {1: 3, 2: 1})
    'A [3]. B [1, 3].'
    """

    def sub(m: re.Match[str]) -> str:
        nums = [mapping.get(int(p), int(p)) for p in m.group(1).split(",")]
        return format_marker(nums[0]) if len(nums) == 1 else "[" + ", ".join(str(n) for n in nums) + "]"

    return MARKER.sub(sub, text)


@dataclass
class CitationNumbering:
    """Conversation-wide citation numbers (a paper keeps its first number)."""

    by_paper: dict[str, int] = field(default_factory=dict)
    references: dict[int, Citation] = field(default_factory=dict)

    def number(self, paper_id: str) -> int:
        if paper_id not in self.by_paper:
            self.by_paper[paper_id] = len(self.by_paper) + 1
        return self.by_paper[paper_id]


def _picked_by_position(turn: Turn) -> bool:
    """Whether ``turn`` asked about papers by their place in a list: "the first two", "the second
    one", "[1] and [3]" (:class:`rag.question.plan.PaperRef` ``ordinal``, ``number``, or a counted
    ``plural`` that takes the first of a list)."""
    refs = getattr(turn.plan, "refs", ()) if turn.plan is not None else ()
    if any(r.kind in ("ordinal", "number") or (r.kind == "plural" and (r.first or r.last)) for r in refs):
        return True
    # "how about the 1st and the 3rd ones?" asks the previous question again of the papers it
    # places, named in the plan it answered: papers the question names are no list of their own
    return not turn.within and any(r.kind in ("name", "id") for r in refs)


@dataclass
class History:
    """The turns of one conversation and its citation numbers: what "it", "[2]", "the second one",
    "both" and "which is better?" are resolved against (:mod:`rag.route.references`)."""

    turns: list[Turn] = field(default_factory=list)
    numbers: CitationNumbering = field(default_factory=CitationNumbering)

    def number_of(self, paper_id: str) -> int | None:
        """The conversation number of a paper, or ``None`` if it was never cited."""
        return self.numbers.by_paper.get(paper_id)

    def paper_with_number(self, number: int) -> str | None:
        """The paper id cited as ``[number]`` in this conversation, or ``None``."""
        return next((pid for pid, n in self.numbers.by_paper.items() if n == number), None)

    def known_numbers(self) -> list[int]:
        """The citation numbers given so far, in order."""
        return sorted(self.numbers.references)

    def recent(self) -> list[Citation]:
        """Citations of the latest turn that cited anything (order of the answer), or the papers a
        later refused question was asked of (:attr:`Turn.about`: "and how much does it improve?"
        after "PrefixRL: what benchmarks?" was refused asks PrefixRL; a paper never cited is given
        with number 0 and its id as label, for its id). ``[]`` when a later question of the
        collection found no paper (:meth:`found_nothing`): "it" after "is there a paper on protein
        folding?" was refused is no paper of an older answer."""
        t = self.latest()
        if t is None:
            return []
        return list(t.citations) if t.citations else [self._citation_of(p) for p in t.about]

    def latest(self) -> Turn | None:
        """The turn :meth:`recent` draws its papers from: the latest that cited papers or refused a
        question asked of papers (:attr:`Turn.about`); ``None`` when there is none, or a question of
        the collection refused after it (:meth:`found_nothing`) ended what "it" and "they" can mean."""
        for t in reversed(self.turns):
            if t.citations or t.about:
                return t
            if self.found_nothing(t):
                return None
        return None

    @staticmethod
    def found_nothing(turn: Turn) -> bool:
        """Whether ``turn`` refused a question asked of the whole collection ("is there a paper on
        protein folding?" with none on it): a question of no paper, no earlier list ("which of them
        ...?" refused names the list's papers as checked) and no named or referred paper."""
        plan = turn.plan
        return (
            turn.kind == "refusal"
            and not turn.citations
            and not turn.about
            and not turn.within
            and isinstance(plan, AskPlan)
            and bool(plan.topic.text)
            and not plan.refs
            and plan.follow is None
        )

    def refused_search(self) -> Turn | None:
        """The refused question of the collection that ended what "it" and "they" can mean
        (:meth:`found_nothing`), when it is later than every turn that cited papers; else ``None``."""
        for t in reversed(self.turns):
            if t.citations or t.about:
                return None
            if self.found_nothing(t):
                return t
        return None

    def listing(self) -> Turn | None:
        """The latest turn :meth:`recent` draws from when it listed papers found for a topic ("is
        there a paper on federated learning?", "which of them use RL?", a summary of the papers on
        a topic), not papers the question named or referred to; ``None`` otherwise. "it" after a
        list of several asks which one; "they", "those models" mean exactly its papers."""
        t = self.latest()
        if t is None or not t.citations or t.kind not in ("answer", "summary", "table", "related_work"):
            return None
        plan = t.plan
        if t.within:
            return t
        if plan is None or plan.refs or (isinstance(plan, AskPlan) and plan.follow is not None):
            return None
        return t

    def _citation_of(self, paper_id: str) -> Citation:
        """The citation of ``paper_id`` in this conversation, or a stand-in (number 0) if never cited."""
        n = self.numbers.by_paper.get(paper_id)
        got = self.numbers.references.get(n) if n is not None else None
        return got if got is not None else Citation(0, paper_id, paper_id, ())

    def _papers_of(self, t: Turn) -> list[Citation]:
        """The papers turn ``t`` was about: its citations, or those a refused question was asked of
        (:attr:`Turn.about`: "and PrefixRL?" refused as its benchmarks are not stated)."""
        return list(t.citations) if t.citations else [self._citation_of(p) for p in t.about]

    def discussed(self, n: int = 2) -> list[Citation]:
        """The papers "them", "both" or "which is better?" mean: the latest answer's when it cited
        ``n`` or more; else the distinct papers of the latest answers (a refused question's papers
        too, :meth:`_papers_of`), most recent first, until ``n`` are gathered (after a list, "the
        second one" and "and the first one?", those two; after "what benchmarks does CogRouter
        use?" and "and PrefixRL?", refused, CogRouter and PrefixRL)."""
        out: dict[str, Citation] = {}
        for t in reversed(self.turns):
            if not out and self.found_nothing(t):
                return []  # "they" after a question that found no paper: none of an older answer
            if not out and len(t.citations) >= n:
                return list(t.citations)
            for c in self._papers_of(t):
                out.setdefault(c.paper_id, c)
                if len(out) >= n:
                    return list(out.values())
        return list(out.values())

    def _list_turns(self) -> list[Turn]:
        """The turns that list papers, latest first: those that cited two or more, and a question of
        the collection answered with one paper ("which papers study inductive matrix completion?"
        found one), not asked within an earlier list."""
        return [
            t for t in reversed(self.turns)
            if len(t.citations) >= 2 or (t.answer.kind == "list" and len(t.citations) == 1 and not t.within)
        ]

    def _list_turn(self) -> Turn | None:
        """The turn whose citations :meth:`last_list` gives (``None``: no turn lists papers)."""
        listing = self._list_turns()
        if not listing:
            return None
        if not _picked_by_position(listing[0]):
            return listing[0]  # "which of them are from 2023?" narrows the list: "these" are its answer
        picked = {c.paper_id for c in listing[0].citations}
        return next((t for t in listing[1:] if picked < {c.paper_id for c in t.citations}), listing[0])

    def counted_list(self) -> Turn | None:
        """The turn whose papers :meth:`last_list` gives when some turn lists papers; ``None`` otherwise."""
        return self._list_turn()

    def last_list(self) -> list[Citation]:
        """The list ordinals count in: the citations of the latest answer that listed papers (cited
        two or more, or answered a question of the collection with one), else of the latest answer
        that cited anything; ``[]`` when none did.

        Papers picked out of an earlier list by their place in it are no list of their own: after
        "which papers work on vision-language models?" (four) and "compare the first two",
        "summarize the third one" is the third of the four, as it is after an answer about one
        paper of the list. A question that narrows the list ("which of them are from 2023?")
        makes a list of its own, and so does a new question answered with one paper: after it,
        "the third one" refers to no paper (:meth:`beyond` says which earlier list has a third)."""
        turn = self._list_turn()
        return list(turn.citations) if turn is not None else self.recent()

    def listed(self, index: int) -> list[Citation]:
        """The citations an ordinal ("the second one", ``index`` 1; "the last one", -1) counts in:
        :meth:`last_list` when it holds it, ``[]`` otherwise (no earlier answer, or a shorter list:
        "the third one" after a new list of two refers to no paper, not to an older, longer one).
        After a list and an answer about its first paper, "the second one" is the list's second."""
        need = index + 1 if index >= 0 else 1
        listed = self.last_list()
        return listed if len(listed) >= need else []

    def beyond(self, text: str, indexes: Sequence[int] = ()) -> str:
        """Why an ordinal or count ``text`` ("the third one", "the first two") that :meth:`listed`
        cannot place refers to no paper: the last list is shorter, or nothing was listed. With the
        ``indexes`` the message places (0-based: "the first and fourth", (0, 3)), an earlier list
        that holds them all is offered with the papers they are there, by their numbers: the
        ordinals count in the latest list, and which list was meant is the user's to say."""
        listed = self.last_list()
        if not listed:
            return f"no earlier answer lists papers to count in, so “{text}” refers to no paper"
        names = ", ".join(f"{c.label} {format_marker(c.number)}" for c in listed[:6])
        if len(listed) > 6:
            names += f", … {listed[-1].label} {format_marker(listed[-1].number)}"
        n = len(listed)
        said = f"the last answer lists {n} paper{'s' if n != 1 else ''} ({names}), so “{text}” refers to no paper"
        need = max((i + 1 for i in indexes if i >= 0), default=0)
        latest = self._list_turn()
        older = self._list_turns()
        older = older[older.index(latest) + 1 :] if latest in older else []
        earlier = next((t for t in older if len(t.citations) >= need and not _picked_by_position(t)), None)
        if not need or earlier is None:
            return said
        placed = [earlier.citations[i] for i in dict.fromkeys(i for i in indexes if i >= 0)]
        them = " and ".join(f"{c.label} {format_marker(c.number)}" for c in placed)
        pronoun = ("it is", "it by that number") if len(placed) == 1 else ("they are", "them by those numbers")
        m = len(earlier.citations)
        return (f"{said}; in the list before it, of {m} papers (“{earlier.question.strip()}”), {pronoun[0]} "
                f"{them}: ask about {pronoun[1]}")

    def held_list(self) -> list[Citation]:
        """The papers "them" means in a request over a set ("compare them", "tabulate them") when
        the latest answer is about one paper of the last list: that list's papers, in its order. After
        "Which papers study watermarking of language models?" (two) and "does the first one release
        code?", "compare them" compares the two, not the first with itself. ``[]`` when the latest
        answer is the list itself, is about a paper outside it ("Summarize DocVAL" after a list of
        RL papers: which to set beside it is the user's to say), or about several papers, or when the
        answers since the list were about two of its papers ("what data does the second one use?",
        "and the first one?": "them" are those two, :meth:`discussed`)."""
        latest, listing = self.latest(), self._list_turn()
        if latest is None or listing is None or latest is listing or len(listing.citations) < 2:
            return []
        after = self.turns[self.turns.index(listing) + 1 :] if listing in self.turns else []
        own = {c.paper_id for t in after for c in self._papers_of(t)}
        listed = [c.paper_id for c in listing.citations]
        return list(listing.citations) if len(own) == 1 and own <= set(listed) else []

    def only_paper(self, paper_id: str) -> bool:
        """Whether ``paper_id`` is the one paper of the latest answer and no list holds another to
        count in ("Summarize DocVAL", or a question of the collection that found one): "and the
        first one?" then asks the same question again of the same paper (:meth:`alone` says so). An
        answer within a list ("which of them release code?" kept one) leaves the list it checked."""
        latest = self.latest()
        return (
            latest is not None and not latest.within
            and [c.paper_id for c in self.recent()] == [paper_id]
            and [c.paper_id for c in self.last_list()] == [paper_id]
        )

    def alone(self, text: str) -> str:
        """Why "and the first one?" after an answer about one paper ("Summarize DocVAL", or a
        question that found one) asks nothing new: that paper is the only one to count in, and the
        previous question of it is the answer above."""
        one = self.recent()[0]
        return (f"the last answer is about one paper, {one.label} {format_marker(one.number)}, and lists no other: "
                f"“{text}” is that paper, and the previous question of it is answered above")

    def too_few(self, text: str, count: int) -> str:
        """Why "both" / "compare them" (``count`` papers, 2 for "them") names fewer papers than it
        counts: the conversation has discussed only one (named), or none."""
        held = self.discussed(count)
        if not held:
            return f"no earlier answer is about a paper, so “{text}” refers to no paper"
        names = " and ".join(f"{c.label} {format_marker(c.number)}" for c in held)
        said = "one paper" if len(held) == 1 else f"{len(held)} papers"
        return f"the conversation has discussed {said} so far, {names}, so “{text}” names no other to set beside it"

    def elsewhere(self, text: str) -> str:
        """One line saying which list an ordinal ``text`` ("the third one") counted in when the
        latest turn lists none of it: a question that found no paper ("is there a paper on protein
        folding?"), or an answer about a paper outside the list ("Summarize DocVAL" after "Which
        papers use RL?"), came after the list :meth:`last_list` draws from. ``""`` when the latest
        turn is that list, or about papers of it ("what does the second one propose?"), or no turn
        lists papers (:meth:`beyond` then says so)."""
        listing = self._list_turn()
        if listing is None or not self.turns or self.turns[-1] is listing:
            return ""
        last = self.turns[-1]
        own = [c.paper_id for c in self._papers_of(last)]
        listed = [c.paper_id for c in listing.citations]
        if own and set(own) <= set(listed):
            return ""
        if last.kind == "clarify" or last.within:
            return ""  # "which of them use RL?" asked within the list: its papers are the list's
        if own:
            names = " and ".join(f"{c.label} {format_marker(c.number)}" for c in self._papers_of(last)[:2])
            why = f"the last answer is about {names}, no list"
        else:
            why = f"the last question, “{last.question.strip()}”, found no paper"
        n = len(listed)
        return (f"“{text}” counted in the list of {n} paper{'s' if n != 1 else ''} answering "
                f"“{listing.question.strip()}” ({why}).")

    def one_on_one(self) -> bool:
        """Whether the latest two turns about papers were each about one paper, not the same one
        ("summarize ClimaX", "and SFNO?", cited or refused, :meth:`_papers_of`): "which one ...?"
        then chooses between those two."""
        papers = [ps for t in reversed(self.turns) if (ps := self._papers_of(t))][:2]
        return len(papers) == 2 and all(len(ps) == 1 for ps in papers) and (
            papers[0][0].paper_id != papers[1][0].paper_id
        )

    def paired(self) -> bool:
        """Whether the latest two turns about papers set two papers side by side: each about one
        paper (:meth:`one_on_one`), the latest asking the question before it of its paper ("summarize
        ClimaX", "and SFNO?": :attr:`Turn.continues`). "they" then means both; after a question of its
        own about one paper ("Tell me about the Koopman Q-learning paper"), "which benchmarks do they
        use?" asks that paper (its authors), not an older one besides."""
        latest = self.latest()
        return self.one_on_one() and latest is not None and latest.continues

    def previous_answer(self) -> Turn | None:
        """The latest turn that answered a question and cited papers, or refused a question asked of
        papers (:attr:`Turn.about`: "who are the authors?" of DocVAL): what "what about X?" continues."""
        return next(
            (t for t in reversed(self.turns) if t.plan and ((t.kind == "answer" and t.citations) or t.about)), None
        )
