"""What the papers a plan refers to are: names, ids, ``[n]``, "the second one", "it", "both",
descriptions ("the ride-hailing paper") and "the two federated learning papers"; and what a
follow-up ("what about APM?", "which is better?") asks, as a plan.

:class:`ReferenceResolver` maps the references of a :class:`rag.question.plan.Plan` to paper ids,
using the catalogue, the conversation's :class:`rag.route.turn.History` (citation numbers and
earlier turns), and retrieval for descriptions. It reads no text: the question reader has read
every reference (:class:`rag.question.plan.PaperRef`, :class:`rag.question.reader.Reference`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Protocol

from rag.citations import format_marker
from rag.evidence.roles import proposes
from rag.lexicon import directions, reversed_direction, states_direction, states_phrase, term_key
from rag.question.names import bare_name, versioned_names
from rag.question.phrasing import definite_words, framed_reference, own_noun, split_frame
from rag.question.plan import AskPlan, ComparePlan, FollowUp, PaperRef, Plan, SummaryPlan, TablePlan
from rag.question.slots import INSTANCE, YEAR
from rag.route.compare import SIZE_FORMS
from rag.route.refusal import WHOLE_GAP
from rag.route.turn import History, Turn
from rag.text import content_terms
from rag.types import Ask, Citation, PaperHit, SearchQuery
from store.papers import Paper

if TYPE_CHECKING:
    from rag.route.answer import AnswerPipeline

__all__ = [
    "MAX_COMPARED",
    "MAX_REFERRED",
    "NO_PAPER",
    "AnswerPipelineSource",
    "Reading",
    "ReferenceResolver",
    "Resolution",
    "display_name",
]

MAX_COMPARED = 5
"""Most papers one comparison puts side by side (columns of its table); more named are left out."""

MAX_RANKED = 12
"""Most papers of the last answer a choice that ranks them by a stated size or a record's year
compares ("which one has the most parameters?" after a list of eight ranks all eight): a list shows
at most 12 papers, and ordinals reach the twelfth."""

RANKED_FORMS = SIZE_FORMS | {YEAR}
"""Slot forms a choice ranks every listed paper by (:data:`MAX_RANKED`): sizes the abstracts state
(:func:`rag.route.compare.size_verdict`) and the years the records give."""

MAX_REFERRED = 12
"""Most papers "they", "those models" or a detail with no topic ("who are the authors?") is asked
of: every paper of the previous answer, which lists at most ``retrieval.max_set_size`` (12 by
default); the same bound as the ordinals the reader knows ("the twelfth one")."""

NO_PAPER = frozenset({"baseline", "absent"})
"""How a side that is no paper of the collection was resolved (:meth:`ReferenceResolver.side`)."""

SIDE_CANDIDATES = 10
"""Papers the collection finds for a described side (:meth:`ReferenceResolver.side`) whose abstracts
are checked for stating the description: the papers a clarification could offer and a few more
("the secure aggregation attack paper": SRATTA came fourth of the five offered)."""

MAX_ASKED_BACK = 6
"""Most listed papers named when "it" after a list of several is asked back (the ones first in the
list; the rest are reached as "the seventh one" or by name): six lines keep the question short."""


@dataclass(frozen=True)
class Resolution:
    """What a reference (``"DANCE"``, ``"[2]"``, ``"it"``, ``"the quantum paper"``) points to.

    Attributes:
        ref: The reference as written.
        paper_ids: One id = resolved; several = ambiguous (candidates, best first); none = not found.
        how: ``"id"``, ``"number"``, ``"earlier turn"``, ``"name"`` or ``"description"``.
        message: Why it failed, for the clarification (``""`` when resolved).
    """

    ref: str
    paper_ids: tuple[str, ...]
    how: str = ""
    message: str = ""

    @property
    def resolved(self) -> bool:
        """Exactly one paper."""
        return len(self.paper_ids) == 1


def _slot_only(plan: AskPlan) -> bool:
    """Whether a question asks a measure, a count or a part of an abstract and nothing else ("how
    many tasks?", "how many benchmarks?", "what datasets are used?", "what are the results?"): its
    topic's words are the slot's own, or only name a row of a summary (:attr:`Ask.row`); never when
    its frame seeks a paper (:attr:`AskPlan.seeks`: "which paper ..., and how fast is it?")."""
    if plan.seeks:
        # "Which paper introduces speculative decoding, and what speedup does it give?": the frame
        # seeks a paper by its topic; a measure asked of it is no measure of the previous answer's
        return False
    if plan.topic.ask.row:
        return True
    slot = plan.ask.slot
    if slot is None or not (slot.amount or slot.count) or not slot.terms or plan.topic.number == "many":
        return False
    terms = {term_key(t) for t in content_terms(plan.topic.text)}
    return bool(terms) and terms <= {term_key(t) for t in slot.terms}


@dataclass(frozen=True)
class Reading:
    """The reading of a message the evidence supports (:meth:`ReferenceResolver.arbitrate`).

    Attributes:
        plan: The plan to answer: the message as asked of an earlier paper, or on its own.
        offer: One line offering the other reading when both are plausible ("Asked about
            CogRouter? Ask: “...”"); ``""`` otherwise.
        follow: Best sentence score, in [0, 1], of the ask in the papers referred to (0 when not weighed).
        alone: Best sentence score, in [0, 1], of the ask in the paper found on its own (0 when not weighed).
        spelled: How the message reads with the paper it continues named ("who wrote the paper? —
            DiffPure?"); ``""`` when :meth:`ReferenceResolver.referred` spells it.
    """

    plan: AskPlan
    offer: str = ""
    follow: float = 0.0
    alone: float = 0.0
    spelled: str = ""


def _asks_of(side: str, pronouns: Sequence[str]) -> bool:
    """Whether a comparison side asks something of a pronoun's paper ("what did they find about
    RL" of "... RL vs SFT"): it holds the pronoun and content words beside it. A side that is the
    pronoun alone ("how does it differ from APM?": "it") is a reference to compare."""
    words = side.lower().replace("?", " ").split()
    return any(p in words for p in pronouns) and len(content_terms(side)) >= 2


class AnswerPipelineSource(Protocol):
    """Anything that holds the current answer pipeline (a :class:`rag.route.conversation.Conversation`)."""

    pipeline: AnswerPipeline


def display_name(paper: Paper) -> str:
    """How a spelled-out question names a paper: its label, quoted when it is a description
    (:attr:`store.papers.Paper.describes`), so it is read as words of the topic, not a name."""
    label = paper.label or paper.id
    if paper.describes:
        return f"“{label.rstrip('…').strip()}”"
    return label


class ReferenceResolver:
    """Resolves the references of plans against a conversation's history (see the module docstring).

    Args:
        pipeline: Gives the current answer pipeline (the conversation may swap it between turns).
        history: The conversation's turns and citation numbers.
    """

    def __init__(self, pipeline: AnswerPipelineSource, history: History):
        self._pipeline = pipeline
        self.history = history

    @property
    def pipeline(self) -> AnswerPipeline:
        return self._pipeline.pipeline

    @property
    def papers(self) -> dict[str, Paper]:
        """Every paper of the collection, by id."""
        return self.pipeline.catalogue.papers

    def _named(self, paper_id: str) -> str:
        """How a spelled-out question names a cited paper: its label, or its ``[n]`` when the label is
        a description (a description is read as words of a topic, a marker as that paper)."""
        paper, n = self.papers[paper_id], self.history.number_of(paper_id)
        return format_marker(n) if paper.describes and n is not None else display_name(paper)

    # --- the papers of a plan -------------------------------------------------------------

    def referred(self, plan: Plan) -> tuple[list[str], str, Resolution | None]:
        """The papers a question is about: ``(ids, the question with references spelled out, a
        reference to clarify or None)``. Names and ids come first; earlier-turn references
        (``[2]``, "the second one", "it", "they") count only when the question names no paper."""
        h = self.history
        ids = list(plan.named_ids)
        spelled: dict[PaperRef, str] = {}
        recent = h.recent()
        unlisted: Resolution | None = None
        for r in plan.refs:
            if r.kind == "number" and r.index is not None:
                pid = h.paper_with_number(r.index)
                if pid:
                    ids.append(pid)
                    spelled[r] = display_name(self.papers[pid])
            elif r.kind == "ordinal" and r.index is not None:
                listed = h.listed(r.index)
                if not listed:
                    unlisted = unlisted or Resolution(r.text, (), "earlier turn", h.beyond(r.text, _places(plan)))
                    continue
                pid = listed[r.index].paper_id
                if plan.follow is not None and plan.follow.kind == "what_about" and h.only_paper(pid):
                    # "and the first one?" after an answer about one paper ("Summarize DocVAL", or a
                    # question that found one): no list to pick from, and the question again of
                    # the same paper is the answer above (it was asked again, silently)
                    unlisted = unlisted or Resolution(r.text, (), "earlier turn", h.alone(r.text))
                    continue
                last = h.turns[-1] if h.turns else None
                if plan.follow is not None and plan.follow.kind == "what_about" and last is not None \
                        and last.kind == "compare":
                    # "Compare APM and DANCE", then "and the first one?": no question to ask again of
                    # APM alone (was: "and APM?", answered with some sentence of it)
                    names = " and ".join(f"{c.label} {format_marker(c.number)}" for c in last.citations)
                    said = (f"the last answer compares {names}; “{r.text}” is {display_name(self.papers[pid])}, "
                            f"and a comparison is no question to ask of it alone: ask one of it (“summarize {r.text}”)")
                    unlisted = unlisted or Resolution(r.text, (), "earlier turn", said)
                    continue
                ids.append(pid)
                spelled[r] = display_name(self.papers[pid])
        if unlisted is not None:  # "what about the first and the ninth?" after a list of four: said, not half answered
            return [], plan.spelled_out(spelled), unlisted
        described = any(r.kind == "description" for r in plan.refs)
        if not ids and described:
            # "does the ride-hailing paper release code?", "I mean the augmentation one": the paper
            # the description finds, asked the rest (not every paper that releases code)
            polar = isinstance(plan, AskPlan) and plan.polar
            for r in plan.refs:
                if r.kind != "description":
                    continue
                if pid := self._described(r.text, polar):
                    ids.append(pid)
                    spelled[r] = display_name(self.papers[pid])
                elif said := self._wrong_way(r.text):
                    # "does the speech-to-text paper release code?" when the papers near it work the
                    # other way (MCLP, text-to-speech, was answered): said, not answered of it
                    return [], plan.spelled_out(spelled), Resolution(r.text, (), "description", said)
        detail_only = isinstance(plan, AskPlan) and (
            (plan.detail is not None and plan.detail.only) or _slot_only(plan)
        )
        if not ids:
            # "What does the SAT paper propose, and how much does it improve?": "it" is the paper
            # the question describes, not one of an earlier turn.
            pronouns = [] if described else [r for r in plan.refs if r.kind in ("pronoun", "plural")]
            listing = h.listing()
            refused = h.refused_search()
            edge = next((r for r in pronouns if r.kind == "plural" and (r.first or r.last) and r.count), None)
            if edge is not None and (recent or h.counted_list() is not None):
                # "the last three: what datasets do they use?", "the first two": those places of the
                # latest list, or said to be beyond it (was: every paper of the list, or a paper
                # the rest of the question found)
                listed = h.listed(edge.count - 1)
                if len(listed) < edge.count:
                    msg = h.beyond(edge.text, range(edge.count) if edge.first else ())
                    return [], plan.spelled_out(spelled), Resolution(edge.text, (), "earlier turn", msg)
                chosen = [c.paper_id for c in (listed[: edge.count] if edge.first else listed[-edge.count :])]
                label = " and ".join(display_name(self.papers[p]) for p in chosen)
                for r in pronouns:
                    spelled[r] = label
                return list(dict.fromkeys([*ids, *chosen])), plan.spelled_out(spelled), None
            if pronouns and recent:
                plural = any(r.kind == "plural" for r in pronouns)
                last = h.latest()
                # a comparison of several is as ambiguous as a list: "Compare DANCE and ME-DLM",
                # then "does it release code?" (it was the first, silently)
                several = listing or (last if last is not None and last.kind == "compare" else None)
                if not plural and several is not None and len(several.citations) > 1:
                    # "is there a paper on federated learning?" listed two; "what does it propose?"
                    # could mean either: ask which, naming them (the first is no more "it")
                    ref = pronouns[0].text
                    options = tuple(c.paper_id for c in several.citations[:MAX_ASKED_BACK])
                    n = len(several.citations)
                    first = f"; the first {len(options)}" if n > len(options) else ""
                    verb = "compares" if several is not listing else "lists"
                    msg = f"the last answer {verb} {n} papers{first}"
                    return [], plan.spelled_out(spelled), Resolution(ref, options, "earlier turn", msg)
                counted = any(r.kind == "plural" and r.count for r in pronouns)
                if plural and (listing is not None or not (counted or h.paired())):
                    # "how big were those models?": exactly the papers of the previous answer (a
                    # list, or the paper it was about), not one of an older turn besides; "both",
                    # or "they" after "summarize X" and "and Y?", mean the two papers discussed
                    # (after "summarize X" and "Tell me about Y", "they" are Y's authors: the two
                    # are offered, :meth:`pair_offer`)
                    discussed = recent
                    held = h.held_list()
                    over_set = isinstance(plan, (ComparePlan, SummaryPlan, TablePlan)) or (
                        isinstance(plan, AskPlan) and plan.ask.summary
                    )
                    if held and not counted and over_set:
                        # "tabulate them" after a list and "what does the second one propose?": the
                        # list's papers, not the one paper of the last answer (a table of one)
                        discussed = held
                else:
                    discussed = h.discussed() if plural else recent
                count = max((r.count for r in pronouns if r.kind == "plural"), default=0)
                if count >= 2 and len(discussed) < count:
                    # "what datasets do both of them use?" after an answer about one paper: no second
                    # paper ("CA-SOADD of CA-SOADD" was asked)
                    ref = next(r.text for r in pronouns if r.kind == "plural" and r.count)
                    return [], plan.spelled_out(spelled), Resolution(ref, (), "earlier turn", h.too_few(ref, count))
                if count >= 2 and len(discussed) > count:
                    # "both" after a list of four: which two is the user's to say, not the first two
                    ref = next(r.text for r in pronouns if r.kind == "plural" and r.count)
                    options = tuple(c.paper_id for c in discussed[:MAX_ASKED_BACK])
                    msg = self._among(discussed, len(options))
                    return [], plan.spelled_out(spelled), Resolution(ref, options, "earlier turn", msg)
                many = plural and len(discussed) > 1
                chosen = [c.paper_id for c in (discussed[:MAX_REFERRED] if many else recent[:1])]
                ids.extend(chosen)
                label = " and ".join(display_name(self.papers[p]) for p in chosen)
                for r in pronouns:
                    spelled[r] = label
            elif pronouns and refused is not None:
                # "is there a paper on protein folding?" (refused), then "does it release the
                # weights?": "it" is no paper of an older answer, nor whatever the rest finds
                ref = pronouns[0].text
                asked = refused.question.strip()
                msg = f"the previous question, “{asked}”, found no paper, so “{ref}” refers to no paper"
                return [], plan.spelled_out(spelled), Resolution(ref, (), "earlier turn", msg)
            elif pronouns and not plan.content_beyond_pronouns:
                ref = pronouns[0].text
                msg = f"nothing was cited before, so “{ref}” refers to no paper"
                return [], plan.spelled_out(spelled), Resolution(ref, (), "earlier turn", msg)
            elif not plan.refs and detail_only and recent:
                # "who are the authors?", "when was the paper published?", "how many tasks?": a detail
                # or measure with no topic of its own is asked of the papers of the previous answer,
                # as "their authors" would be
                chosen = [c.paper_id for c in recent[:MAX_REFERRED]]
                ids.extend(chosen)
                label = " and ".join(display_name(self.papers[p]) for p in chosen)
                return list(dict.fromkeys(ids)), f"{plan.query.strip().rstrip('?.! ')} — {label}?", None
        return list(dict.fromkeys(ids)), plan.spelled_out(spelled), None

    def pair_offer(self, plan: Plan, ids: Sequence[str]) -> str:
        """One line offering the other reading of "they" / "their" read as the one paper of the
        previous answer when the turn before it was about another single paper (:meth:`History.one_on_one`
        but not :meth:`History.paired`): "“their” read as ME-DLM; for ME-DLM and CogRouter, ask: “how
        big are ME-DLM and CogRouter's models?”". ``""`` when the message has no such pronoun, or
        names its papers."""
        h = self.history
        plural = [r for r in plan.refs if r.kind == "plural" and not r.count]
        if not plural or len(plan.refs) != len(plural) or len(ids) != 1 or h.paired() or not h.one_on_one():
            return ""
        pair = h.discussed()
        if len(pair) != 2 or pair[0].paper_id != ids[0]:
            return ""
        names = " and ".join(display_name(self.papers[c.paper_id]) for c in pair)
        asked = plan.spelled_out({r: names for r in plural})
        return f"“{plural[0].text}” read as {display_name(self.papers[ids[0]])}; for {names}, ask: “{asked}”"

    def resolve(self, ref: str) -> Resolution:
        """Which paper a reference means: an id, ``[n]``, an earlier-turn reference, a name
        (exact, any case, one edit; then rapidfuzz ratio >= ``retrieval.name_match_min`` over
        labels), or a description (resolved when the best hit is relevant and clearly ahead)."""
        rs = self.pipeline.settings.retrieval
        got = self.pipeline.reader.reference(ref, fuzzy_floor=rs.name_match_min)
        ref = got.text
        if not ref:
            return Resolution(ref, (), "", "the reference is empty")
        if got.named:
            if len(got.named) == 1:
                return Resolution(ref, got.named, "id" if got.by_id else "name")
            return Resolution(ref, got.named[:5], "name", f"“{ref}” names {len(got.named)} papers")
        if got.number is not None:
            pid = self.history.paper_with_number(got.number)
            if pid is None:
                known = ", ".join(format_marker(k) for k in self.history.known_numbers()) or "none yet"
                msg = f"no paper is cited as {format_marker(got.number)} in this conversation (cited so far: {known})"
                return Resolution(ref, (), "number", msg)
            return Resolution(ref, (pid,), "number")
        if got.back is not None:
            idx = got.back.index or 0
            recent = self.history.listed(idx) if got.back.kind == "ordinal" else self.history.recent()
            if recent and idx < len(recent):
                return Resolution(ref, (recent[idx].paper_id,), "earlier turn")
            if got.back.kind == "ordinal":
                return Resolution(ref, (), "earlier turn", self.history.beyond(ref, (idx,)))
            return Resolution(ref, (), "earlier turn", f"nothing was cited before, so “{ref}” refers to no paper")
        if len(got.fuzzy) == 1:
            return Resolution(ref, got.fuzzy, "name")
        if len(got.fuzzy) > 1:
            return Resolution(ref, got.fuzzy[:5], "name", f"“{ref}” is close to the names of {len(got.fuzzy)} papers")
        return self._by_description(ref, got.described, got.search)

    def _described(self, ref: str, polar: bool) -> str:
        """The one paper a description in a question means ("the augmentation one" after a list,
        "does the ride-hailing paper release code?"), or ``""``: among the papers the latest answer
        cited, the only one that states every word of it (a compound some abstract writes as one,
        within ``WHOLE_GAP`` words, written so: "the text-to-image one" is not APM's "image-text"
        benchmarks, :meth:`rag.route.refusal.RefusalPolicy.written`); else, for a yes/no question (which asks of
        a paper, never for a list), the paper the collection finds for it when relevant and clearly
        ahead (:meth:`_by_description`). Otherwise the description is read with the question's
        topic, which finds the paper it describes by every word the question states (``""``)."""
        got = self.pipeline.reader.reference(ref, fuzzy_floor=self.pipeline.settings.retrieval.name_match_min)
        if not got.described or got.named or got.number is not None or got.back is not None:
            return ""
        recent = [c.paper_id for c in self.history.recent()]
        if recent:
            phrase = got.search.text
            covered = self.pipeline.retriever.coverages(phrase, recent)
            # a paper that states the description's words only to deny them is not described by it
            terms = content_terms(phrase)
            # a compound some abstract writes as one ("text-to-image") is stated by a paper that
            # writes it so, not by one with its words apart or turned round ("image-text" retrieval)
            compound = self.pipeline.refusals.written(phrase, WHOLE_GAP)
            stating = [
                p for p, c in zip(recent, covered, strict=True)
                if c >= 1.0 and not self.pipeline.denies(self.papers[p], terms)
                and (not compound or states_phrase(phrase, self.papers[p].text_for_index, WHOLE_GAP))
            ]
            if len(stating) == 1:
                return stating[0]
        if not polar:
            return ""
        found = self._by_description(got.text, got.described, got.search)
        return found.paper_ids[0] if found.resolved else ""

    def _wrong_way(self, ref: str) -> str:
        """Why a description that writes a directional compound ("the speech-to-text paper")
        describes no paper: the paper the collection finds first for it works the other way
        (:meth:`rag.route.answer.AnswerPipeline.other_way`: MCLP, text-to-speech) and none of the
        :data:`SIDE_CANDIDATES` it finds states the compound asked (in its words or the glossary's);
        ``""`` otherwise (no compound, or a paper that states it)."""
        got = self.pipeline.reader.reference(ref, fuzzy_floor=self.pipeline.settings.retrieval.name_match_min)
        phrases = [w.strip(",.;:?!()[]\"'“”") for w in got.text.split() if directions(w)]
        if not got.described or not phrases:
            return ""
        hits = self.pipeline.retriever.search(got.search).hits[:SIDE_CANDIDATES]
        if not hits or not self.pipeline.other_way(got.text, hits[0].paper):
            return ""
        phrase = phrases[0]
        compound = directions(phrase)[0]
        for h in hits:
            texts = [h.paper.title or "", h.paper.abstract]
            if any(states_direction(compound, phrase, t) for t in texts):
                return ""
        top = hits[0].paper
        return (f"no paper in the collection states {phrase}; the closest, {display_name(top)} ({top.id}), works the "
                f"other way ({reversed_direction(phrase)})")

    def _by_description(self, ref: str, described: bool, search: SearchQuery) -> Resolution:
        rs = self.pipeline.settings.retrieval
        # "the speech-to-text paper": a paper of the other direction (text-to-speech) shares every
        # word of it and comes first; it is no paper described so
        hits = [h for h in self.pipeline.retriever.search(search).hits if not self.pipeline.other_way(ref, h.paper)]
        if not hits or not described:
            return Resolution(ref, (), "description", f"nothing in the collection matches “{ref}”")
        top = hits[0]
        if top.dense < rs.relevance_floor and top.coverage < rs.coverage_floor:
            msg = f"nothing in the collection is close to “{ref}” (best: {top.paper.label})"
            return Resolution(ref, (), "description", msg)
        close = [
            h.paper.id
            for h in hits[1:5]
            if h.score >= 0.9 * top.score
            or (h.score >= 0.65 * top.score and h.coverage >= rs.coverage_floor and h.dense >= rs.relevance_floor)
        ]
        if close:
            return Resolution(ref, (top.paper.id, *close), "description", f"“{ref}” fits several papers")
        return Resolution(ref, (top.paper.id,), "description")

    def side(self, ref: str) -> Resolution:
        """What a side of a comparison or the subject of a summary is, the evidence deciding when it is
        described or merely named (:meth:`resolve` otherwise: an id, ``[n]``, an earlier turn, a
        paper's name):

        * a name of no paper's label ("AlphaFold", "the GPT-4 paper", "Adam"): the paper that owns
          it (:meth:`rag.route.answer.AnswerPipeline.name_papers`: its title or the name its abstract
          gives its work); when none does, a ``"baseline"`` if abstracts write it (what papers are
          measured against: no paper to compare or summarize) or ``"absent"`` if none does;
        * a description ("the VLM knowledge distillation paper", "magnitude pruning"): among the
          :data:`SIDE_CANDIDATES` papers the collection finds for it, the one whose abstract states
          every part of it (:data:`rag.route.answer.DESCRIPTION_STATED`); a description asked bare,
          not as a paper ("compared with magnitude pruning", "with the Gaussian mechanism"), that
          several abstracts write side by side and none states as its title or its proposal, is a
          ``"baseline"``; several stating it are the candidates to ask among.

        Returns a :class:`Resolution` whose ``how`` is ``"baseline"`` or ``"absent"`` (no paper
        ids, ``message`` saying why) for a side that is no paper."""
        from rag.route.answer import DESCRIPTION_STATED

        rs = self.pipeline.settings.retrieval
        got = self.pipeline.reader.reference(ref, fuzzy_floor=rs.name_match_min)
        if not got.described or got.named or got.number is not None or got.back is not None or got.fuzzy:
            return self.resolve(ref)
        text = split_frame(got.text)[0].strip() or got.text
        framed = framed_reference(got.text)  # "the X paper": a paper asked for, not the thing
        versions = versioned_names(text)
        name = bare_name(text) or (versions[0] if len(versions) == 1 and versions[0] == text else "")
        if name:
            owners, writers = self.pipeline.name_papers(name, framed=framed)
            if len(owners) == 1:
                return Resolution(got.text, (owners[0].id,), "name")
            if owners:
                ids = tuple(p.id for p in owners[:5])
                return Resolution(got.text, ids, "name", f"“{name}” is the name of {len(owners)} papers")
            what = f"the {name} paper" if framed else name
            said = f"No paper in the collection is {what}: no title or name of its own work is {name}"
            if writers:
                lines = self.pipeline.mention_lines(name, writers)
                return Resolution(got.text, (), "baseline", f"{said}; abstracts that mention it: {lines}")
            return Resolution(got.text, (), "absent", f"{said}, and no abstract mentions it.")
        writers = self._writers(text)
        titled = [p for p in writers if p.title and states_phrase(text, p.title)]
        if len(titled) == 1:  # "the structurally sparse lottery ticket paper": the title that states it
            return Resolution(got.text, (titled[0].id,), "description")
        labelled = titled or [p for p in writers if self._labels(text, p)]
        if len(writers) >= 2 and not (labelled if framed else titled):
            # "with magnitude pruning", "the Gaussian mechanism paper": several abstracts write it
            # and none has it as its title (nor, for "the ... paper", as what it proposes)
            what = f"the {text} paper" if framed else text
            said = f"No paper in the collection is {what}: abstracts write “{text}” without proposing it"
            lines = self.pipeline.mention_lines(text, writers)
            return Resolution(got.text, (), "baseline", f"{said}; abstracts that mention it: {lines}")
        found = self.resolve(ref)
        if found.resolved and not found.message:
            shown = [self.papers[found.paper_ids[0]]]
        else:
            shown = [self.papers[pid] for pid in found.paper_ids]
        hits = [h.paper for h in self.pipeline.retriever.search(got.search).hits[:SIDE_CANDIDATES]]
        pool = list({p.id: p for p in (*shown, *hits)}.values())
        cov = self.pipeline.retriever.coverages(text, [p.id for p in pool])
        stating = [p for p, c in zip(pool, cov, strict=True) if c >= DESCRIPTION_STATED]
        if len(stating) == 1:  # "the VLM knowledge distillation paper": the one abstract that states it all
            return Resolution(got.text, (stating[0].id,), "description")
        if not stating or (found.resolved and found.paper_ids[0] in {p.id for p in stating}):
            return found
        ids = tuple(p.id for p in stating[:5])
        return Resolution(got.text, ids, "description", f"“{got.text}” fits several papers")

    def _besides(self, described: Resolution, other: Resolution) -> Resolution:
        """A side a description resolves to several papers (``described``), read beside the other
        side of the comparison, resolved to one paper (``other``): the paper named elsewhere in the
        message is not the one described, so the candidates are the others; one left is the side,
        and of several, the one whose membership probability on the description
        (:meth:`rag.route.membership.Membership.members`) no other reaches within
        ``retrieval.description_membership`` (as a description of one paper is answered alone:
        SinDDM 0.34 before UniDiffuser 0.20 for "the single-image diffusion paper"). ``described``
        unchanged otherwise."""
        if described.resolved or described.how != "description" or len(described.paper_ids) < 2:
            return described
        if not other.resolved or other.how in NO_PAPER or other.paper_ids[0] not in described.paper_ids:
            return described
        left = tuple(p for p in described.paper_ids if p != other.paper_ids[0])
        if len(left) == 1:
            return Resolution(described.ref, left, "description")
        got = self.pipeline.reader.reference(described.ref)
        text = split_frame(got.text)[0].strip() or got.text
        hits = [PaperHit(self.papers[p], 0.0) for p in left]
        scored = self.pipeline.membership.members(text, (), hits, 0.0)
        rs = self.pipeline.settings.retrieval
        if scored and all(p < rs.description_membership for _, p in scored[1:]):
            return Resolution(described.ref, (scored[0][0].paper.id,), "description")
        return replace(described, paper_ids=left)

    def _writers(self, text: str) -> list[Paper]:
        """The papers of the collection whose title or abstract writes ``text`` side by side
        (:func:`rag.lexicon.states_phrase`), in collection order."""
        words = [w[:4] for w in content_terms(text)]
        return [
            p for p in self.papers.values()
            if all(w in p.text_for_index.lower() for w in words) and states_phrase(text, p.text_for_index)
        ]

    def _labels(self, text: str, paper: Paper) -> bool:
        """Whether ``paper``'s title, or a sentence of its abstract saying what it proposes
        (:func:`rag.evidence.roles.proposes`), states the description ``text`` side by side."""
        if paper.title and states_phrase(text, paper.title):
            return True
        return any(proposes(x.text) and states_phrase(text, x.text) for x in self.pipeline.evidence.sentences(paper)[0])

    # --- two readings of one message -------------------------------------------------------

    def arbitrate(self, plan: AskPlan, allowed: set[str] | None = None) -> Reading:
        """Which reading of a message the papers support: as asked of the paper an earlier turn
        cited ("its" = CogRouter), or on its own (:attr:`AskPlan.alone`: "which paper detects audio
        deepfakes and tests its robustness?" finds CA-SOADD).

        Both readings are scored by what the papers state: the best sentence score
        (:meth:`rag.evidence.selector.EvidenceSelector.score`, in [0, 1]) of what the message asks,
        without its pronouns (the alone reading's topic), in the referred papers against the same in
        the paper the message finds on its own (its first hit, when the refusal check passes: the
        collection states what it describes). The reader's signal that the frame names the paper
        asked for (:attr:`AskPlan.seeks`) adds ``answer.reading_prior`` to the alone side. The better
        reading is answered; when the other is within ``answer.reading_band`` and its paper states
        something of the ask, it is offered in one line.

        Args:
            plan: The message's plan; only one with an :attr:`AskPlan.alone` reading is weighed.
            allowed: The ids the filters allow (the alone reading searches within them).

        Returns:
            The :class:`Reading` to answer; with no offer when there is nothing to weigh: ``plan``
            itself when it has no alone reading, nothing was cited before or the refusal check fails
            on its own; when both readings find the same paper, the alone reading if the frame asks
            for a paper ("which paper ... its ...?" after "their" meant two papers), else ``plan``.
        """
        alone = plan.alone
        if alone is None:
            return Reading(plan)
        ids, spelled, unresolved = self.referred(plan)
        if unresolved is not None and not self.history.recent():
            # "Which paper studies ride-hailing, and what does it improve?" as a first question:
            # nothing was cited, so "it" can only be the paper the message describes
            return Reading(alone)
        several = unresolved is not None and len(unresolved.paper_ids) > 1
        if several and unresolved is not None:
            # "it" after a list of several: weighed against each listed paper (the best of them);
            # if the message's own reading loses, which one is asked back
            ids = list(unresolved.paper_ids)
        elif unresolved is not None or not ids:
            return Reading(plan)
        pipeline = self.pipeline
        topic = alone.topic
        retrieval = pipeline.retriever.search(topic.search, allowed=allowed)
        if not retrieval.hits or pipeline.refusals.topic(alone, topic, retrieval, alone.detail):
            return Reading(plan)
        found = retrieval.hits[0].paper
        if found.id in ids:  # both readings find the paper; a frame that asks for one reads it as asked
            return Reading(alone if plan.seeks or several else plan)
        ask = topic.ask

        follow = max(self._best(ask, self.papers[p]) for p in ids)
        own = self._best(ask, found)
        cfg = pipeline.settings.answer
        margin = own - follow + (cfg.reading_prior if plan.seeks else 0.0)
        close = abs(margin) < cfg.reading_band
        referred = " and ".join(display_name(self.papers[p]) for p in ids)
        if margin > 0:
            offer = f"Asked about {referred}? Ask: “{spelled}”" if close and follow > 0 else ""
            return Reading(alone, offer, follow, own)
        offer = f"Not about {referred}? On its own the question finds {display_name(found)} ({found.id})."
        return Reading(plan, offer if close else "", follow, own)

    def _best(self, ask: Ask, paper: Paper) -> float:
        """The best sentence score of ``ask`` in ``paper``'s abstract, in [0, 1] (0 with no sentence):
        how well a paper states what a message asks, for weighing two readings."""
        scored = self.pipeline.evidence.score(ask, paper)
        return scored[0].score if scored else 0.0

    def continued(self, plan: AskPlan, allowed: set[str] | None = None) -> Reading:
        """Whether a message that names no paper and refers to none by a pronoun continues the
        conversation about the one paper just answered through a definite description of something
        of that paper: "is the adversary itself strong at Go?" after a summary of the Go-adversary
        paper, "what variables does the model forecast?" after ClimaX.

        A definite description may refer to something the conversation holds when its first word
        (:func:`rag.question.phrasing.definite_words`) names the paper's own contribution ("the
        model", "the method": :func:`rag.question.phrasing.own_noun`) or is a word the earlier paper
        states ("the adversary", "the curvature criterion"; not "the best model for X" after a
        paper that never says "best"). "The method", "the model" refer to it as a pronoun would: the
        earlier paper is answered. For another word, the evidence then weighs the two readings as
        :meth:`arbitrate` does: the best sentence score of what the message asks in the earlier
        paper against the same in the paper it finds on its own; the earlier paper is answered
        unless the other is ahead by more than ``answer.reading_band`` ("what is the best model
        for image segmentation?" after ClimaX finds a segmentation paper). The answer offers the
        other reading in one line. A frame that asks for a paper or papers ("which paper ...",
        :attr:`AskPlan.seeks`) is read on its own.

        Returns:
            The :class:`Reading`: the message asked of the earlier paper (a ``name`` reference to
            it), or ``plan`` itself.
        """
        if plan.refs or plan.seeks or plan.alone is not None or not plan.topic.text:
            return Reading(plan)
        recent = self.history.recent()
        if len(recent) != 1:
            return Reading(plan)
        earlier = self.papers[recent[0].paper_id]
        pipeline = self.pipeline
        cfg = pipeline.settings.answer
        retriever = pipeline.retriever
        words = definite_words(plan.query)
        own_word = any(own_noun(w) for w in words)
        if not own_word and not any(retriever.coverages(w, [earlier.id])[0] >= 1.0 for w in words):
            return Reading(plan)
        name = display_name(earlier)
        asked = replace(plan, refs=(PaperRef(name, "name", (earlier.id,)),))
        spelled = f"{plan.query.strip().rstrip('?.! ')} — {name}?"
        retrieval = retriever.search(plan.topic.search, allowed=allowed)
        if not retrieval.hits:
            return Reading(plan)
        found = retrieval.hits[0].paper
        if found.id == earlier.id:
            return Reading(asked, spelled=spelled)
        ask = plan.topic.ask

        follow, own = self._best(ask, earlier), self._best(ask, found)
        if own - follow > cfg.reading_band and not own_word:
            return Reading(plan)
        offer = f"Not about {name}? On its own the question finds {display_name(found)} ({found.id})."
        return Reading(asked, offer, follow, own, spelled)

    def elliptical(self, plan: AskPlan, allowed: set[str] | None = None) -> Reading:
        """Whether a message that names no paper, refers to none and describes none asks its measure
        of the papers just answered: "how many NLP tasks?" after "What is GLaM?", "how long does
        training take?" after a comparison.

        Weighed by what the papers state, as :meth:`arbitrate` weighs a pronoun: the message asks a
        slot (:attr:`rag.types.Ask.slot`; not a list of papers, :attr:`AskPlan.seeks`); it is
        asked of the earlier papers (at most :data:`MAX_COMPARED`, none of a list found for a
        topic) that state the slot (:meth:`rag.route.refusal.RefusalPolicy.states`), unless the
        paper it finds on its own (its first hit, when the refusal check passes) states it too and
        its best sentence score for the ask is ahead by more than ``answer.reading_band``. When
        no earlier paper states the slot the message is read on its own. The other reading is
        offered in one line when the message's own reading finds another paper.

        Returns:
            The :class:`Reading`: the message asked of the earlier papers (``name`` references to
            them), or ``plan`` itself.
        """
        slot = plan.ask.slot
        if (
            # a thing named by its instances ("which encoder?") is stated by any clause, so it says
            # nothing of which paper is asked (rag.question.slots.INSTANCE)
            slot is None or slot.form == INSTANCE or plan.refs or plan.seeks or plan.alone is not None
            or plan.follow is not None
            or not plan.topic.text or plan.topic.number == "many" or self.history.listing() is not None
        ):
            return Reading(plan)
        recent = self.history.recent()
        if not recent or len(recent) > MAX_COMPARED:
            return Reading(plan)
        pipeline = self.pipeline
        refusals = pipeline.refusals
        earlier = [p for c in recent if (p := self.papers.get(c.paper_id)) is not None and refusals.states(slot, p)]
        if not earlier:
            return Reading(plan)
        name = " and ".join(display_name(p) for p in earlier)
        asked = replace(plan, refs=tuple(PaperRef(display_name(p), "name", (p.id,)) for p in earlier))
        spelled = f"{plan.query.strip().rstrip('?.! ')} — {name}?"
        retrieval = pipeline.retriever.search(plan.topic.search, allowed=allowed)
        if not retrieval.hits or refusals.topic(plan, plan.topic, retrieval, plan.detail):
            return Reading(asked, spelled=spelled)
        found = retrieval.hits[0].paper
        if any(p.id == found.id for p in earlier) or not refusals.states(slot, found):
            return Reading(asked, spelled=spelled)
        ask = plan.topic.ask
        follow = max(self._best(ask, p) for p in earlier)
        own = self._best(ask, found)
        if own - follow > pipeline.settings.answer.reading_band:
            return Reading(plan, f"Asked about {name}? Ask: “{spelled}”", follow, own)
        offer = f"Not about {name}? On its own the question finds {display_name(found)} ({found.id})."
        return Reading(asked, offer, follow, own, spelled)

    # --- follow-ups -----------------------------------------------------------------------

    def follow_up(self, plan: Plan) -> tuple[Plan, str]:
        """The plan a follow-up asks, as if asked alone, and how it is spelled out (``""`` when
        ``plan`` is no follow-up or the conversation has nothing to continue).

        "what about X?" and "and the first one?" ask the previous question of X; "which is better?",
        "which one wins?", "which one needs less memory?" after answers about two or more papers
        compare the papers last discussed, in the question's own words."""
        clarified = self._clarified(plan)
        if clarified is not None:
            return clarified
        follow = plan.follow
        if follow is None:
            return plan, ""
        if follow.kind == "what_about":
            last = self.history.turns[-1] if self.history.turns else None
            placed = [
                self._named(listed[r.index].paper_id)
                for r in follow.target_refs
                if r.kind == "ordinal" and r.index is not None and (listed := self.history.listed(r.index))
            ]
            if (
                last is not None and last.kind == "summary" and isinstance(last.plan, SummaryPlan)
                and last.plan.topic is None and follow.target_refs
                and (
                    all(r.kind == "name" for r in follow.target_refs)
                    or (len(placed) == len(follow.target_refs) == 1 and last.citations
                        and placed[0] != self._named(last.citations[0].paper_id))
                )
            ):
                # "Summarize POET", then "and Moccasin?": the summary again, of the paper it names;
                # "Summarize the first one", then "and the second one?": of the list's second (was:
                # the list's question asked again of it)
                shown = f"Summarize {placed[0] if placed else follow.target}"
                return replace(self.pipeline.reader.read(shown, filters=()), asked=plan.asked), shown
            prev = self.history.previous_answer()
            if prev is None or not isinstance(prev.plan, AskPlan):
                return plan, ""
            return self._what_about(plan, prev, follow)
        if follow.kind == "amount":
            # "what does the first one reduce?" then "by how much?": that question, of the papers it
            # answered about, for its figure
            prev = self.history.previous_answer()
            if prev is None or not isinstance(prev.plan, AskPlan):
                return plan, ""
            cited = tuple(PaperRef(c.label, "name", (c.paper_id,)) for c in prev.citations[:MAX_COMPARED])
            refs = cited if prev.plan.refers_back else prev.plan.refs
            again = replace(prev.plan, asked=plan.asked, ask=replace(prev.plan.ask, amount=True), refs=refs)
            return again, f"{prev.standalone.strip().rstrip('?.! ')} — {plan.query.strip().rstrip('?.! ')}?"
        # "which one needs less memory?" chooses among the latest answer's papers, not older ones
        if follow.kind == "choose" and len(self.history.recent()) <= 1 and not self.history.one_on_one():
            return plan, ""
        among = self.history.discussed()
        if len(among) <= 1 or not isinstance(follow.plan, ComparePlan):
            return plan, ""
        # every paper of a comparison ("compare A, B and C" then "which one is faster?"); the
        # first two of a longer list, unless the choice ranks what each paper states or its record
        # gives ("which one has the most parameters?", "which is the newest?"): every listed paper
        chosen = among[:MAX_RANKED] if _ranks(follow.plan) else among if len(among) <= MAX_COMPARED else among[:2]
        names = [self._named(c.paper_id) for c in chosen]
        refs = tuple(PaperRef(self.papers[c.paper_id].label, "name", (c.paper_id,)) for c in chosen)
        compare = replace(follow.plan, asked=plan.asked, query=plan.query, refs=refs, filters=plan.filters)
        return compare, f"{plan.query.strip().rstrip('?.! ')}: {', '.join(names[:-1])} or {names[-1]}?"

    def _among(self, listed: Sequence[Citation], shown: int) -> str:
        """How a question asking which papers of ``listed`` (the latest answer's) are meant names
        them: "the last answer lists 4 papers" (and "; the first 6" when more are listed)."""
        n = len(listed)
        first = f"; the first {shown}" if n > shown else ""
        return f"the last answer lists {n} papers{first}"

    def _plural_pair(self, text: str, count: int, discussed: Sequence[Citation]) -> list[Resolution] | None:
        """The papers "compare them" / "compare both" means, or what to ask back (resolutions that
        do not resolve: the comparison is not made); ``None`` when no earlier paper is discussed
        (the sides are read instead).

        * The latest answer cites several: every one of them, up to :data:`MAX_COMPARED` ("compare
          them" after a list of three); when "both" or "these two" counts fewer than it lists, or it
          lists more than can be compared, which ones is asked, naming them (was: the first two).
        * It is about one paper and the answer before was about one other (:meth:`History.one_on_one`:
          "What is MCLP?", "What is DocVAL?"): those two.
        * It is about one paper of the last list, the only one asked about since (:meth:`History.held_list`:
          "Which papers study watermarking of LLMs?", "does the first one release code?"): every
          paper of that list, when it has at most :data:`MAX_COMPARED` (was: the first compared
          with itself).
        * It is about one paper and older answers list others ("Which papers use RL?", then "What
          does DoPR do?", a list longer than a comparison holds, or a paper outside the list):
          which one to set beside it is asked, naming them (was: the list's first, silently).
        * Only one paper was discussed: said, naming it (was: that paper answered alone as a
          "comparison")."""
        h = self.history
        recent = h.recent()
        if not discussed:
            return None
        if len(recent) >= 2:
            if (count and len(recent) > count) or (not count and len(recent) > MAX_COMPARED):
                options = tuple(c.paper_id for c in recent[:MAX_ASKED_BACK])
                return [Resolution(text, options, "earlier turn", self._among(recent, len(options)))]
            take = count or MAX_COMPARED
            return [Resolution(c.label, (c.paper_id,), "earlier turn") for c in recent[:take]]
        held = h.held_list()
        if held and len(held) <= MAX_COMPARED and (not count or count == len(held)):
            # "compare them" after a list and "does the first one release code?": the list the last
            # answer picked its paper from (was: that paper compared with itself); a longer list
            # asks which of it to set beside the paper, below
            return [Resolution(c.label, (c.paper_id,), "earlier turn") for c in held]
        if len(discussed) >= 2 and h.one_on_one():
            return [Resolution(c.label, (c.paper_id,), "earlier turn") for c in discussed[:2]]
        if len(discussed) < 2:
            return [Resolution(text, (), "earlier turn", h.too_few(text, count or 2))]
        # one paper now, a list before it: which of the list to set beside it is the user's to say
        listing = h.counted_list()
        before = listing.citations if listing is not None else discussed
        older = [c for c in before if c.paper_id != recent[0].paper_id]
        options = tuple(c.paper_id for c in older[:MAX_ASKED_BACK])
        one = f"{recent[0].label} {format_marker(recent[0].number)}"
        more = f" (“{listing.question.strip()}”, {len(listing.citations)} papers)" if listing is not None else ""
        msg = f"the last answer is about {one} alone; papers before it{more} to set beside it"
        return [Resolution(text, options, "earlier turn", msg)]

    def _clarified(self, plan: Plan) -> tuple[Plan, str] | None:
        """The question a clarification asked about, of the paper the reply names: after "Which
        paper do you mean by “it”?", the reply "the second one", "ME-DLM" or "I mean ME-DLM" asks
        that question ("does it release code?") of that paper, not what the paper is about.
        ``None`` when the last turn asked no clarification of a pronoun, or the reply says more
        than which paper (then it is a question of its own)."""
        last = self.history.turns[-1] if self.history.turns else None
        if last is None or last.kind != "clarify" or not isinstance(last.plan, AskPlan):
            return None
        if not isinstance(plan, AskPlan):
            return None
        follow = plan.follow
        if follow is not None and follow.kind != "what_about":
            return None
        refs = follow.target_refs if follow is not None else plan.refs
        if not refs or any(r.kind not in ("name", "id", "number", "ordinal") for r in refs):
            return None
        said = set(content_terms(" ".join(r.text for r in refs)))
        if follow is None and [t for t in content_terms(plan.query) if t not in said]:
            return None  # "the second one's datasets?": a question of its own about that paper
        options = [p.id for p in last.candidates]
        pids: list[str] = []
        for r in refs:
            if r.kind == "ordinal" and r.index is not None and r.index < len(options):
                pids.append(options[r.index])
            elif r.kind != "ordinal" and r.paper_ids:
                pids.append(r.paper_ids[0])
        pronouns = [r for r in last.plan.refs if r.kind == "pronoun"]
        if not pids or not pronouns:
            return None
        chosen = tuple(PaperRef(self.papers[p].label, "name", (p,)) for p in dict.fromkeys(pids))
        again = self.pipeline.reader.retarget(last.plan, [r.text for r in last.plan.refs], chosen)
        shown = last.plan.spelled_out({pronouns[0]: " and ".join(self._named(r.paper_ids[0]) for r in chosen)})
        return replace(again, asked=plan.asked), shown

    def _what_about(self, plan: Plan, prev: Turn, follow: FollowUp) -> tuple[Plan, str]:
        """"What about X?" after an answer: the previous question about X instead (another paper,
        or another topic when X names none)."""
        assert isinstance(prev.plan, AskPlan)
        x = follow.target
        refs: tuple[PaperRef, ...] = follow.target_refs
        ordinals = [r.index for r in plan.refs if r.kind == "ordinal" and r.index is not None]
        if ordinals and any(not self.history.listed(i) for i in ordinals):
            return plan, ""  # "and the ninth one?" after a list of four: referred() says the list is shorter
        if ordinals:
            # "and the second one?"; "how about the 2nd and 4th ones?": each of them
            pids = list(dict.fromkeys(self.history.listed(i)[i].paper_id for i in ordinals))
            if len(pids) == 1 and self.history.only_paper(pids[0]):
                return plan, ""  # the paper just answered: referred() says there is no list to pick from
            x = " and ".join(self._named(p) for p in pids)
            refs = tuple(PaperRef(self.papers[p].label, "name", (p,)) for p in pids)
        # "I mean the deepfake one", "what about the paper on causal discovery?": the paper the
        # description finds, as when a yes/no question describes it (clearly ahead, or the only one
        # of the latest answer that states it); else the description stays words of a topic
        # ... but "what about" turns to another paper: the paper the previous question was asked of
        # alone is not what its description means ("and the watermark paper?" after DetectGPT,
        # whose abstract says it needs no "watermarking")
        before = [c.paper_id for c in prev.citations] or list(prev.about)
        refs = tuple(
            PaperRef(self.papers[pid].label, "name", (pid,))
            if r.kind == "description" and (pid := self._described(r.text, True)) and before != [pid]
            else r
            for r in refs
        )
        described = [r for r in refs if r.kind == "description"]
        refs = tuple(r for r in refs if r.kind != "description")
        if refs:
            x = " and ".join(self._named(r.paper_ids[0]) if r.paper_ids else r.text for r in refs)
        label = display_name(self.papers[before[0]])
        base = prev.standalone
        shown = base.replace(label, x) if label in base else f"{base.rstrip('?. ')} — {x}?"
        reader = self.pipeline.reader
        if described and not refs and label in base and (prev.plan.refs or prev.plan.named_ids):
            # "and the watermark paper?" after "what models does DetectGPT evaluate on?": a paper
            # described that no single paper answers is another paper, not DetectGPT's topic
            # again (the DetectGPT refusal was repeated word for word); the previous question is
            # asked of the description on its own ("what models does the watermark paper evaluate on?")
            return replace(reader.read(shown, filters=()), asked=plan.asked), shown
        if refs:
            old = [n for pid in before for p in (self.papers[pid],) for n in (p.label, *p.aliases)]
            old += [r.text for r in prev.plan.refs]
            return reader.retarget(prev.plan, old, refs), shown
        aspect = self._aspect(plan, prev, x)
        if aspect is not None:
            return aspect
        return reader.retopic(prev.plan, x), shown

    def _aspect(self, plan: Plan, prev: Turn, x: str) -> tuple[Plan, str] | None:
        """"what about memory?", "and memory?" after "what speedup does SmoothQuant get?": X asked
        of the one paper the previous question was about, when that paper states every word of X
        (evidence, as :meth:`continued` weighs a definite description); a measure when the previous
        question asked one. ``None`` when X is another topic for the previous question ("what about
        graphs?" after "which papers use transformers?", or after a paper that never says "graphs")."""
        recent = self.history.recent()
        asked = prev.plan
        if (
            not isinstance(plan, AskPlan)
            or not isinstance(asked, AskPlan)
            or len(recent) != 1
            or asked.seeks
            or not (asked.refs or asked.named_ids)
        ):
            return None
        earlier = self.papers[recent[0].paper_id]
        if not content_terms(x) or self.pipeline.retriever.coverages(x, [earlier.id])[0] < 1.0:
            return None
        ask = plan.ask
        if asked.ask.amount and not ask.amount:
            # "what speedup ...?" then "and memory?": a figure is preferred, none is required (the
            # figure may stand with a metric's name, "retrieval tasks, e.g., 12.8 IR@1")
            ask = replace(ask, amount=True)
        name = display_name(earlier)
        again = replace(plan, refs=(PaperRef(name, "name", (earlier.id,)),), ask=ask, aspects=(ask,), follow=None)
        return again, f"{plan.query.strip().rstrip('?.! ')} — {name}?"

    # --- comparisons ----------------------------------------------------------------------

    def pair(self, plan: ComparePlan) -> tuple[list[Resolution], bool]:
        """The compared papers (every named one, up to :data:`MAX_COMPARED`), and whether the
        question asked for a comparison of papers of the collection."""
        h = self.history
        ids = list(plan.named_ids)
        for r in plan.refs:
            if r.kind == "number" and r.index is not None and (pid := h.paper_with_number(r.index)):
                ids.append(pid)
            elif r.kind == "ordinal" and r.index is not None and (listed := h.listed(r.index)):
                ids.append(listed[r.index].paper_id)
        ids = list(dict.fromkeys(ids))
        beyond = next(
            (r for r in plan.refs if r.kind == "ordinal" and r.index is not None and not h.listed(r.index)), None
        )
        if beyond is not None:  # "compare the first and the fifth" after a list of four
            return [Resolution(beyond.text, (), "earlier turn", h.beyond(beyond.text, _places(plan)))], False
        if len(ids) >= 2:  # "compare A, B and C", "which performs best among A, B and C": all three
            most = MAX_RANKED if _ranks(plan) else MAX_COMPARED
            return [Resolution(self.papers[p].label, (p,), "name") for p in ids[:most]], True
        if not ids and plan.set_topic is not None:  # "the two federated learning papers": the two likeliest
            topic = plan.set_topic
            hits = self.pipeline.retriever.search(topic.search).hits[: self.pipeline.settings.retrieval.candidates]
            members = [hit for hit, _ in self.pipeline.membership.members(topic.text, (), hits, 0.0)][:2]
            if len(members) == 2:
                return [Resolution(topic.text, (hit.paper.id,), "description") for hit in members], True
        first = next((r for r in plan.refs if r.kind == "plural" and (r.first or r.last) and r.count), None)
        if not ids and first is not None:  # "compare the first three", "the last two"; after a list of one, says so
            if len(listed := h.listed(first.count - 1)) >= first.count:
                took = listed[: first.count] if first.first else listed[-first.count :]
                return [Resolution(c.label, (c.paper_id,), "earlier turn") for c in took], True
            places = range(first.count) if first.first else ()
            return [Resolution(first.text, (), "earlier turn", h.beyond(first.text, places))], False
        discussed = h.discussed()
        back = [r.text.lower() for r in plan.refs if r.kind in ("pronoun", "plural") and not r.count]
        # "what did they find about RL vs SFT?": the pronoun is the subject of what a side asks,
        # so the previous paper is asked about two things; the sides are no papers
        asks_of = bool(back and discussed and any(_asks_of(x, back) for side in plan.sides[:1] for x in side))
        plural = [r for r in plan.refs if r.kind == "plural"]
        if not ids and plural and not (asks_of and len(discussed) < 2):
            told = self._plural_pair(plural[0].text, max(r.count for r in plural), discussed)
            if told is not None:
                return told, all(r.resolved for r in told) and len(told) >= 2
        if asks_of:
            return [], False
        tried: list[Resolution] = []
        for a, b in plan.sides[:5]:
            ra, rb = self.side(a), self.side(b)
            # "Compare the single-image diffusion paper with SinFusion": a description that fits
            # several papers, one of them the other side's, means another one (SinDDM)
            ra, rb = self._besides(ra, rb), self._besides(rb, ra)
            if ra.resolved and rb.resolved and ra.paper_ids != rb.paper_ids:
                return [ra, rb], True
            if any(r.resolved for r in (ra, rb)) and any(r.how in NO_PAPER for r in (ra, rb)):
                # "How does the mechanism with Poisson binomial noise compare with the Gaussian
                # mechanism?": a paper set against what papers mention (or no abstract writes) is
                # the reading; a later split ("the mechanism" | "Poisson binomial noise versus ...")
                # is not tried
                return [ra, rb], False
            tried = tried or [ra, rb]
        if tried:
            return tried, False
        if ids:
            return [Resolution(self.papers[ids[0]].label, (ids[0],), "name")], False
        return [], False


def _ranks(plan: ComparePlan) -> bool:
    """Whether ``plan`` chooses by what ranks every paper (:data:`RANKED_FORMS`: a stated size, a
    record's year), so that it takes up to :data:`MAX_RANKED` papers."""
    slot = plan.aspects[0].slot if plan.aspects else None
    return slot is not None and slot.form in RANKED_FORMS


def _places(plan: Plan) -> list[int]:
    """The 0-based places the ordinals of ``plan`` name ("the first and the fifth" -> [0, 4])."""
    return [r.index for r in plan.refs if r.kind == "ordinal" and r.index is not None]
