"""What the papers a question refers to are: names, ids, ``[n]``, "the second one", "it",
"both", descriptions ("the ride-hailing paper") and "the two federated learning papers".

:class:`ReferenceResolver` is the part of :class:`rag.route.conversation.Conversation` that maps the
references of a :class:`rag.question.reader.QuestionPlan` to paper ids, using the catalogue, the
conversation's citation numbers and earlier turns, and retrieval for descriptions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from rag.citations import format_marker
from rag.question.comparison import TWO
from rag.question.phrasing import split_frame, verdict_only
from rag.question.reader import QuestionPlan
from rag.text import content_terms
from rag.types import Citation
from store.papers import Paper

if TYPE_CHECKING:
    from rag.route.answer import AnswerPipeline
    from rag.route.conversation import Turn

__all__ = [
    "ReferenceResolver", "Resolution", "and_reference", "asks_of_reference", "chooses_among_discussed", "display_name",
    "what_about",
]


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


def display_name(paper: Paper) -> str:
    """How a spelled-out question names a paper: its label, quoted when it is a description
    (:attr:`store.papers.Paper.describes`), so it is read as words of the topic, not a name."""
    label = paper.label or paper.id
    if paper.describes:
        return f"“{label.rstrip('…').strip()}”"
    return label


_AND = re.compile(r"^\s*(?:and|but|also|or)\s+(?:for\s+|of\s+)?(?P<x>.+?)\s*[?.!]*\s*$", re.I)


def and_reference(plan: QuestionPlan) -> re.Match[str] | None:
    """The match of a message that is only "and" and a reference to a paper ("and the first one?",
    "and [3]?"): it asks the previous question of that paper, as "what about ...?" does;
    ``None`` for any other message ("and which use RL?")."""
    m = _AND.match(plan.query)
    if not m or not plan.refs:
        return None
    rest = m.group("x")
    for r in plan.refs:
        rest = rest.replace(r.text, " ")
    return None if content_terms(rest) else m


# A question that chooses among papers already discussed ("which one needs less memory?",
# "which of them uses ALFWorld?"): one class with "which is better?".
_WHICH_OF_THEM = re.compile(
    r"^\W*(?:(?:so|and|but|then|ok|okay)\W+)?which\s+(?:one|of\s+(?:them|the\s+two|these|those|both))\b", re.I
)
_WHAT_ABOUT = re.compile(r"^\s*(?:and\s+|but\s+)?(?:what|how)\s+about\s+(?P<x>.+?)\s*\??\s*$", re.I)


def chooses_among_discussed(query: str) -> bool:
    """Whether a question chooses among papers already discussed ("which one needs less memory?")."""
    return bool(_WHICH_OF_THEM.match(query))


def what_about(plan: QuestionPlan) -> re.Match[str] | None:
    """The match of "what about X?" or "and <reference>?" (group ``x``), else ``None``."""
    return _WHAT_ABOUT.match(plan.query) or and_reference(plan)


def asks_of_reference(plan: QuestionPlan, x: str) -> bool:
    """Whether "what about X?" asks something of a paper referred to by a pronoun ("its
    limitations", "their data"), rather than naming what to ask the previous question about."""
    refs = [r.text for r in plan.refs if r.kind in ("pronoun", "plural") and r.text.lower() in x.lower()]
    rest = x
    for r in refs:
        rest = re.sub(rf"\b{re.escape(r)}\b", " ", rest, flags=re.I)
    return bool(refs) and bool(content_terms(rest))


_FIRST_N = re.compile(r"\b(?:first|top)\s+(two|three|four|five|[2-5])\b", re.I)
_COUNT = {"two": 2, "three": 3, "four": 4, "five": 5}
MAX_COMPARED = 5
"""Most papers one comparison puts side by side (columns of its table); more named are left out."""


class ReferenceResolver:
    """Resolves a plan's references; mixed into :class:`rag.route.conversation.Conversation`, whose
    ``pipeline``, ``turns``, ``papers`` and numbering it reads."""

    pipeline: AnswerPipeline
    turns: list[Turn]

    @property
    def papers(self) -> dict[str, Paper]:
        """Every paper of the collection, by id."""
        return self.pipeline.catalogue.papers

    def paper_with_number(self, number: int) -> str | None:  # pragma: no cover - provided by Conversation
        raise NotImplementedError

    def number_of(self, paper_id: str) -> int | None:  # pragma: no cover - provided by Conversation
        raise NotImplementedError

    def known_numbers(self) -> list[int]:  # pragma: no cover - provided by Conversation
        raise NotImplementedError

    def _recent(self) -> list[Citation]:
        """Citations of the latest turn that cited anything (order of the answer)."""
        return next((list(t.citations) for t in reversed(self.turns) if t.citations), [])

    def _discussed(self, n: int = 2) -> list[Citation]:
        """The papers "them", "both" or "which is better?" mean: the latest answer's when it cited
        ``n`` or more; else the distinct papers of the latest answers, most recent first, until
        ``n`` are gathered (after a list, "the second one" and "and the first one?", those two)."""
        out: dict[str, Citation] = {}
        for t in reversed(self.turns):
            if not out and len(t.citations) >= n:
                return list(t.citations)
            for c in t.citations:
                out.setdefault(c.paper_id, c)
                if len(out) >= n:
                    return list(out.values())
        return list(out.values())

    def _listed(self, index: int) -> list[Citation]:
        """The citations an ordinal ("the second one", ``index`` 1; "the last one", -1) counts in:
        those of the latest answer that listed two or more papers and holds it, else of the latest
        answer that cited anything when it holds it; ``[]`` when no earlier answer does. After
        a list and an answer about its first paper, "the second one" is the list's second."""
        need = index + 1 if index >= 0 else 1
        listed = next((list(t.citations) for t in reversed(self.turns) if len(t.citations) >= max(2, need)), [])
        if listed:
            return listed
        recent = self._recent()
        return recent if len(recent) >= need else []

    def _referred(self, plan: QuestionPlan) -> tuple[list[str], str, Resolution | None]:
        """The papers a question is about: ``(ids, the question with references spelled out, a
        reference to clarify or None)``. Names and ids come first; earlier-turn references
        (``[2]``, "the second one", "it", "they") count only when the question names no paper."""
        ids = list(plan.named_ids)
        text = plan.query
        recent = self._recent()
        unlisted: Resolution | None = None
        for r in plan.refs:
            if r.kind == "number" and r.index is not None:
                pid = self.paper_with_number(r.index)
                if pid:
                    ids.append(pid)
                    text = text.replace(r.text, display_name(self.papers[pid]), 1)
            elif r.kind == "ordinal" and r.index is not None:
                listed = self._listed(r.index)
                if not listed:
                    msg = f"no earlier answer lists papers to count in, so “{r.text}” refers to no paper"
                    unlisted = unlisted or Resolution(r.text, (), "earlier turn", msg)
                    continue
                pid = listed[r.index].paper_id
                ids.append(pid)
                text = text.replace(r.text, display_name(self.papers[pid]), 1)
        if not ids and unlisted is not None:
            return [], text, unlisted
        described = any(r.kind == "description" for r in plan.refs)
        if not ids:
            # "What does the SAT paper propose, and how much does it improve?": "it" is the paper
            # the question describes, not one of an earlier turn.
            pronouns = [] if described else [r for r in plan.refs if r.kind in ("pronoun", "plural")]
            if pronouns and recent:
                plural = any(r.kind == "plural" for r in pronouns)
                discussed = self._discussed() if plural else recent
                many = plural and len(discussed) > 1
                chosen = [c.paper_id for c in (discussed[:3] if many else recent[:1])]
                ids.extend(chosen)
                label = " and ".join(display_name(self.papers[p]) for p in chosen)
                for r in pronouns:
                    sub = f"{label}'s" if r.text.lower() in ("its", "their") else label
                    text = re.sub(rf"(?<!\w){re.escape(r.text)}(?!\w)", sub, text, count=1)
            elif pronouns and len([t for t in content_terms(plan.query) if t not in ("it", "they")]) < 2:
                ref = pronouns[0].text
                msg = f"nothing was cited before, so “{ref}” refers to no paper"
                return [], text, Resolution(ref, (), "earlier turn", msg)
            elif not plan.refs and plan.detail_only and recent:
                # "who are the authors?", "when was the paper published?": a detail with no topic of
                # its own is asked of the papers of the previous answer, as "their authors" would be
                chosen = [c.paper_id for c in recent[:3]]
                ids.extend(chosen)
                label = " and ".join(display_name(self.papers[p]) for p in chosen)
                text = f"{text.strip().rstrip('?.! ')} — {label}?"
        return list(dict.fromkeys(ids)), text, None

    def resolve(self, ref: str) -> Resolution:
        """Which paper a reference means: an id, ``[n]``, an earlier-turn reference, a name
        (exact, any case, one edit; then rapidfuzz ratio >= ``retrieval.name_match_min`` over
        labels), or a description (resolved when the best hit is relevant and clearly ahead)."""
        ref = ref.strip().strip("“”\"'").strip()
        if not ref:
            return Resolution(ref, (), "", "the reference is empty")
        plan = self.pipeline.read(ref)
        if plan.named_ids:
            ids = plan.named_ids
            if len(ids) == 1:
                return Resolution(ref, ids, "id" if plan.refs[0].kind == "id" else "name")
            return Resolution(ref, ids[:5], "name", f"“{ref}” names {len(ids)} papers")
        m = re.fullmatch(r"\[?\s*(\d+)\s*\]?|(?:paper|source|reference|number|no\.?|#)\s*#?(\d+)", ref, re.I)
        if m:
            n = int(m.group(1) or m.group(2))
            pid = self.paper_with_number(n)
            if pid is None:
                known = ", ".join(format_marker(k) for k in self.known_numbers()) or "none yet"
                msg = f"no paper is cited as {format_marker(n)} in this conversation (cited so far: {known})"
                return Resolution(ref, (), "number", msg)
            return Resolution(ref, (pid,), "number")
        recent = self._recent()
        back = [r for r in plan.refs if r.kind in ("pronoun", "ordinal")]
        if back and len(content_terms(ref)) <= 1:
            idx = back[0].index or 0
            if back[0].kind == "ordinal":
                recent = self._listed(idx)
            if recent and idx < len(recent):
                return Resolution(ref, (recent[idx].paper_id,), "earlier turn")
            return Resolution(ref, (), "earlier turn", f"nothing was cited before, so “{ref}” refers to no paper")
        fuzzy = self.pipeline.catalogue.fuzzy_names(ref, self.pipeline.settings.retrieval.name_match_min)
        if len(fuzzy) == 1:
            return Resolution(ref, (fuzzy[0],), "name")
        if len(fuzzy) > 1:
            return Resolution(ref, tuple(fuzzy[:5]), "name", f"“{ref}” is close to the names of {len(fuzzy)} papers")
        return self._by_description(ref)

    def _by_description(self, ref: str) -> Resolution:
        rs = self.pipeline.settings.retrieval
        topic, _ = split_frame(ref)
        hits = self.pipeline.retriever.search(topic).hits
        if not hits or not content_terms(ref):
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

    def _named(self, paper_id: str) -> str:
        """How a rewritten question names a cited paper: its label, or its ``[n]`` when the label is
        a description (a description is read as words of a topic, a marker as that paper)."""
        paper, n = self.papers[paper_id], self.number_of(paper_id)
        return format_marker(n) if paper.describes and n is not None else display_name(paper)

    def _follow_up(self, plan: QuestionPlan) -> QuestionPlan:
        """The plan of a follow-up as if asked alone: "and what about its limitations?" asks that of
        the paper discussed; "what about X?" and "and the first one?" ask the previous question of
        X; "which is better?", "which one wins?", "which one needs less memory?" after answers
        about two or more papers are asked of the two last discussed, in the question's own words.
        Any other plan is returned as it is."""
        follow = what_about(plan)
        if follow and asks_of_reference(plan, follow.group("x")):
            return replace(self.pipeline.read(f"What are {follow.group('x')}?"), asked=plan.asked)
        prev = next((t for t in reversed(self.turns) if t.kind == "answer" and t.plan and t.citations), None)
        if follow and prev is not None and not plan.named_ids and not plan.detail_only:
            return self._what_about(plan, prev, follow.group("x"))
        # "which one needs less memory?" chooses among the latest answer's papers, not older ones
        choice = verdict_only(plan.query) and not plan.refs or (
            chooses_among_discussed(plan.query) and len(self._recent()) > 1
        )
        if plan.intent == "ask" and not plan.named_ids and choice and len(among := self._discussed()) > 1:
            # every paper of a comparison ("compare A, B and C" then "which one is faster?"); the
            # first two of a longer list
            names = [self._named(c.paper_id) for c in (among if len(among) <= MAX_COMPARED else among[:2])]
            choices = f"{', '.join(names[:-1])} or {names[-1]}"
            return replace(self.pipeline.read(f"{plan.query.strip().rstrip('?.! ')}: {choices}?"), asked=plan.asked)
        return plan

    def _what_about(self, plan: QuestionPlan, prev: Turn, x: str) -> QuestionPlan:
        """"What about X?" after an answer: the previous question about X instead. An ordinal X ("and
        the third?") is put in as the paper it counts to: in the rewritten question "the third use"
        reads as no reference."""
        ordinal = next((r for r in plan.refs if r.kind == "ordinal" and r.index is not None), None)
        if ordinal is not None and ordinal.index is not None and (listed := self._listed(ordinal.index)):
            x = self._named(listed[ordinal.index].paper_id)
        label = display_name(self.papers[prev.citations[0].paper_id])
        base = prev.standalone
        text = base.replace(label, x) if label in base else f"{base.rstrip('?. ')} — {x}?"
        return replace(self.pipeline.read(text), asked=plan.asked)

    # --- comparisons and summaries -------------------------------------------------------

    def _pair(self, plan: QuestionPlan) -> tuple[list[Resolution], bool]:
        """The two compared papers (every named one when the question asks which is better), and
        whether the question asked for a comparison of two."""
        ids = list(plan.named_ids)
        for r in plan.refs:
            if r.kind == "number" and r.index is not None and (pid := self.paper_with_number(r.index)):
                ids.append(pid)
            elif r.kind == "ordinal" and r.index is not None and (listed := self._listed(r.index)):
                ids.append(listed[r.index].paper_id)
        ids = list(dict.fromkeys(ids))
        if len(ids) >= 2:  # "compare A, B and C", "which performs best among A, B and C": all three
            return [Resolution(self.papers[p].label, (p,), "name") for p in ids[:MAX_COMPARED]], True
        two = TWO.search(plan.query)
        if not ids and two:  # "the two federated learning papers": the two likeliest members of that set
            topic = two.group("topic").strip()
            hits = self.pipeline.retriever.search(topic).hits[: self.pipeline.settings.retrieval.candidates]
            members = [h for h, _ in self.pipeline.membership.members(topic, (), hits, 0.0)][:2]
            if len(members) == 2:
                return [Resolution(topic, (h.paper.id,), "description") for h in members], True
        first_n = next((int(m.group(1)) if m.group(1).isdigit() else _COUNT[m.group(1).lower()]
                        for r in plan.refs if r.kind == "plural" and (m := _FIRST_N.search(r.text))), 0)
        if not ids and first_n and len(listed := self._listed(first_n - 1)) >= first_n:  # "compare the first three"
            return [Resolution(c.label, (c.paper_id,), "earlier turn") for c in listed[:first_n]], True
        discussed = self._discussed()
        plural = [r.text.lower() for r in plan.refs if r.kind == "plural"]
        if not ids and plural and len(discussed) >= 2:
            # "compare them" after a list of three compares all three (up to five); "both", two
            take = 2 if "both" in plural or len(discussed) > MAX_COMPARED else MAX_COMPARED
            return [Resolution(c.label, (c.paper_id,), "earlier turn") for c in discussed[:take]], True
        first: list[Resolution] = []
        for a, b in plan.sides[:5]:
            ra, rb = self.resolve(a), self.resolve(b)
            if ra.resolved and rb.resolved and ra.paper_ids != rb.paper_ids:
                return [ra, rb], True
            first = first or [ra, rb]
        if first:
            return first, False
        if ids:
            return [Resolution(self.papers[ids[0]].label, (ids[0],), "name")], False
        return [], False

