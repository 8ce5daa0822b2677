"""The LLM's part of an answer: short prose between citations, validated and checked.

The LLM only connects evidence that retrieval and evidence selection chose: it sees the
numbered sources (each paper's label and evidence sentences, never a whole abstract) and the
request; its markers that point to no source are removed and counted; each sentence is checked
against the evidence it cites (:func:`rag.llm.claims.check_claims`), and unsupported sentences
are dropped. When no sentence survives, the answer is extractive.

Each kind of answer has its prompt (:data:`KINDS`, templates in ``prompts/``): a plain question
(``answer``), a summary of one paper (``summary``), of the papers on a topic (``topic``), a
comparison (``compare``) and a "which papers" list (``list``). Every prompt is fitted to
``llm.prompt_tokens`` (:meth:`ProseWriter.fit`).
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from prompts import load_prompt
from rag.citations import MARKER, format_marker, validate_markers
from rag.llm.claims import CHECKED, check_claims, is_degenerate
from rag.llm.clients import ChatLLM, LLMError, LLMIncomplete, Message, strip_reasoning
from rag.settings import Settings
from rag.text import normalize
from rag.types import ClaimCheck, Evidence, LLMUsage, PaperHit
from store.guard import echoes_injection
from store.papers import strip_markup

__all__ = ["KINDS", "REFUSAL", "STOPPED_NOTE", "Prose", "ProseWriter", "Source", "checked_note", "interleave"]

log = logging.getLogger(__name__)

REFUSAL = "The collection does not answer this question."
"""The one refusal phrase: prompt, code and tests share it."""

MAX_PROMPT_QUESTION = 1500
"""Characters of the question the prompt quotes (a longer one is cut with " …")."""

CONTEXT_RESERVE = 64
"""Tokens of the context window left free beside the prompt and the reply (the chat template's
own tokens: role headers, end-of-turn markers)."""

CLIP_WORDS = (32, 20)
"""Words of each evidence sentence a prompt keeps, in turn, when one sentence per paper is still
over budget (:meth:`ProseWriter.fit`): a list of five papers keeps a line for each instead of
losing its last papers. Set by hand: of the 279 sentences of the 38 seed abstracts the median has
22 words, three in four have at most 28 and one in eight more than 32, so the first cut shortens
only the long ones."""

STOPPED_NOTE = "The LLM's reply was stopped before it wrote a whole checked sentence; answered from the evidence."
"""Why an answer has no prose when the user stopped the reply (the page's Stop): what had streamed was
checked, and no sentence of it was whole and supported. Not a failure of the model, so not said as one."""

KINDS = {
    "summary": "a summary of one paper",
    "topic": "a summary of the papers on a topic",
    "compare": "a comparison",
    "list": "a list of papers",
}
"""The answer kinds besides a plain question that the LLM writes, each with its prompt
``prompts/<kind>.txt`` (variables ``sources``, ``question``, ``subject``), and how a note names it."""


@dataclass
class Source:
    """A numbered source of an answer: the paper and the evidence sentences quoted from it."""

    number: int
    hit: PaperHit
    evidence: list[Evidence]


@dataclass
class Prose:
    """What the LLM contributed to one answer.

    Attributes:
        text: Checked prose with valid markers in the sources' numbers (``""`` when nothing
            survived or no LLM ran).
        backend: ``"none"``, the LLM's name, or ``"<name> -> extractive"`` when its text was rejected.
        note: One line on what happened (claims supported, fallbacks).
        invented: Markers the LLM wrote that pointed to no source (removed).
        claims: Per-sentence claim checks (markers in the sources' numbers).
        prompt_tokens: Tokens of the prompt (0 when no LLM ran).
        incomplete: Why the LLM's reply never finished (``""`` when it did): its text is not used.
        usage: What the reply cost (``None`` when no LLM ran).
        sentences: The kept sentences of ``text``, in order (a list answer shows one per line).
    """

    text: str = ""
    backend: str = "none"
    note: str = ""
    invented: int = 0
    claims: list[ClaimCheck] = field(default_factory=list)
    prompt_tokens: int = 0
    incomplete: str = ""
    usage: LLMUsage | None = None
    sentences: list[str] = field(default_factory=list)


def _clipped(e: Evidence, words: int | None) -> Evidence:
    """``e`` with its sentence cut to its first ``words`` words and " …" (``None``: whole)."""
    parts = e.sentence.split()
    if words is None or len(parts) <= words:
        return e
    return replace(e, sentence=" ".join(parts[:words]) + " …")


def interleave(groups: Sequence[Sequence[Evidence]]) -> list[Evidence]:
    """The sentences of ``groups`` (one per theme or row of an answer) in the order a prompt should
    keep them: the first of every group, then the second of every group, and so on, each sentence
    once. :meth:`ProseWriter.fit` drops a source's last sentences first, so a prompt cut to its
    budget keeps one sentence per theme before a second of any."""
    out: dict[int, Evidence] = {}
    for rank in range(max((len(g) for g in groups), default=0)):
        for g in groups:
            if rank < len(g):
                out.setdefault(g[rank].start, g[rank])
    return list(out.values())


def checked_note(claims: Sequence[ClaimCheck]) -> str:
    """The status line's account of the claim checks: how many of the LLM's sentences were kept
    because they match their cited evidence, and what was checked; never more than was checked."""
    kept = sum(c.supported for c in claims)
    dropped = len(claims) - kept
    text = f"{kept} of {len(claims)} LLM sentences match their cited evidence ({CHECKED})"
    return text + (f"; {dropped} dropped" if dropped else "")


def _renumber(text: str, numbers: Sequence[int]) -> str:
    """``text`` with each marker ``[k]`` (k in 1..len(numbers), the prompt's numbering) as
    ``[numbers[k-1]]`` (the answer's)."""
    if list(numbers) == list(range(1, len(numbers) + 1)):
        return text

    def swap(m: re.Match[str]) -> str:
        return "".join(format_marker(numbers[int(n) - 1]) for n in m.group(1).split(","))

    return MARKER.sub(swap, text)


class ProseWriter:
    """Asks the LLM for connecting prose and checks it.

    Args:
        llm: The LLM, or ``None`` for extractive answers.
        settings: Generation limits and the claim-support floor.
        similarity: Cosine matrix of two text lists (the evidence selector's), for claim checks.
        sentences: All sentences of a source's abstract (claims may cite any of them).
        llm_note: Why this LLM was chosen (the note of an answer it writes).
    """

    def __init__(
        self,
        llm: ChatLLM | None,
        settings: Settings,
        similarity: Callable,
        sentences: Callable[[PaperHit], list[str]],
        llm_note: str = "",
    ):
        self.llm = llm
        self.settings = settings
        self.similarity = similarity
        self.sentences = sentences
        self.llm_note = llm_note
        self.system_prompt = load_prompt("system").format(refusal=REFUSAL)
        self.answer_prompt = load_prompt("answer")
        self.kind_prompts = {kind: load_prompt(kind) for kind in KINDS}

    @property
    def backend(self) -> str:
        """Name of the LLM backend, ``"none"`` when answers are extractive."""
        return self.llm.name if self.llm else "none"

    @property
    def budget(self) -> int:
        """Most tokens of one prompt: ``llm.prompt_tokens``, and never more than the context window
        leaves beside the reply (``context_tokens - max_answer_tokens -`` :data:`CONTEXT_RESERVE`)."""
        context = self.llm.context_tokens if self.llm else 4096
        room = context - self.settings.llm.max_answer_tokens - CONTEXT_RESERVE
        return max(1, min(self.settings.llm.prompt_tokens, room))

    def write(
        self,
        question: str,
        several: bool,
        sources: Sequence[Source],
        on_token: Callable[[str], None] | None = None,
        stop: threading.Event | None = None,
    ) -> Prose:
        """Prose for ``sources`` answering ``question`` (``several``: more than one paper asked for)."""
        if self.llm is None:
            return Prose(note=self.llm_note or "extractive answer (no LLM)")
        return self._run(self._answer_build(question, several), sources, on_token, stop)

    def write_kind(
        self,
        kind: str,
        question: str,
        subject: str,
        sources: Sequence[Source],
        on_token: Callable[[str], None] | None = None,
        stop: threading.Event | None = None,
    ) -> Prose:
        """Prose for one of the :data:`KINDS` of answer: the request ``question`` about ``subject``
        (a paper's label, a topic, the aspect compared), over ``sources`` (any numbers: the prompt
        numbers them 1..n and the prose comes back in theirs).

        Raises:
            ValueError: ``kind`` is not one of :data:`KINDS`.
        """
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {sorted(KINDS)}, not {kind!r}")
        if self.llm is None:
            return Prose(note=self.llm_note or "extractive answer (no LLM)")
        template = self.kind_prompts[kind]
        q = self._question(question)

        def build(shown: Sequence[Source]) -> str:
            return template.format(sources=self._blocks(shown), question=q, subject=subject)

        return self._run(build, sources, on_token, stop)

    @staticmethod
    def _question(question: str) -> str:
        return question if len(question) <= MAX_PROMPT_QUESTION else question[:MAX_PROMPT_QUESTION] + " …"

    @staticmethod
    def _blocks(shown: Sequence[Source]) -> str:
        """The sources as the prompt lists them: ``[k] <label>: <evidence sentences>``, k = 1..n."""
        return "\n".join(
            f"{format_marker(k)} {s.hit.paper.label}: " + " ".join(strip_markup(e.sentence) for e in s.evidence)
            for k, s in enumerate(shown, start=1)
        )

    def fit(
        self, build: Callable[[Sequence[Source]], str], sources: Sequence[Source]
    ) -> tuple[list[Message], list[Source], int]:
        """The messages for ``sources`` within :attr:`budget`.

        Evidence is dropped until the prompt fits: first the last sentences of every source
        (keeping the first ``per``, ``per`` falling to 1), then the end of each long sentence (its
        first :data:`CLIP_WORDS` words kept, then " …"), then the last sources (the least
        relevant: sources come most relevant first), down to one source with one clipped
        sentence, which is sent even when it does not fit (the status line then shows the prompt
        over budget). Only the prompt is cut: claims are checked against whole abstracts.

        Args:
            build: The user message for the sources shown (numbered 1..n in the prompt).
            sources: The answer's sources with all their evidence, most relevant first.

        Returns:
            ``(messages, sources shown, prompt tokens)``.
        """
        assert self.llm is not None
        per = max((len(s.evidence) for s in sources), default=1)
        keep = len(sources)
        clips = [None, *CLIP_WORDS]
        clip = 0
        while True:
            shown = [
                replace(s, evidence=[_clipped(e, clips[clip]) for e in s.evidence[:per]]) for s in sources[:keep]
            ]
            msgs: list[Message] = [
                {"role": "system", "content": self.system_prompt},
                {"role": "user", "content": build(shown)},
            ]
            used = sum(self.llm.count_tokens(m["content"]) for m in msgs)
            if used <= self.budget or (per <= 1 and clip == len(clips) - 1 and keep <= 1):
                return msgs, shown, used
            if per > 1:
                per -= 1
            elif clip < len(clips) - 1:
                clip += 1
            else:
                keep -= 1

    def _answer_build(self, question: str, several: bool) -> Callable[[Sequence[Source]], str]:
        """The user message of a plain answer for the sources shown (``prompts/answer.txt``)."""
        q = self._question(question)

        def build(shown: Sequence[Source]) -> str:
            one = (
                f"Use only the numbers {format_marker(1)} to {format_marker(len(shown))}."
                if len(shown) > 1
                else f"There is one source: cite it as {format_marker(1)}."
            )
            return self.answer_prompt.format(
                sources=self._blocks(shown),
                question=q,
                sentences="two to four" if several else "one to three",
                # The example states no fact: a small model copied "<label> reduces cost [1]" into answers.
                example=f'"<what source 1 states> {format_marker(1)}." ' + one,
            )

        return build

    def messages(self, question: str, several: bool, sources: Sequence[Source]) -> list[Message]:
        """System + user messages of a plain answer, fitted to the budget (:meth:`fit`).

        Raises:
            ValueError: there is no LLM (an extractive answer has no prompt).
        """
        if self.llm is None:
            raise ValueError("no LLM: an extractive answer has no prompt")
        return self.fit(self._answer_build(question, several), sources)[0]

    def _run(
        self,
        build: Callable[[Sequence[Source]], str],
        sources: Sequence[Source],
        on_token: Callable[[str], None] | None,
        stop: threading.Event | None,
    ) -> Prose:
        """Ask, stream, validate and check: the prose of one answer, or why there is none."""
        assert self.llm is not None
        messages, shown, ptoks = self.fit(build, sources)
        usage = LLMUsage(prompt_tokens=ptoks, budget=self.budget)
        numbers = [s.number for s in shown]
        pieces: list[str] = []
        rejected = f"{self.llm.name} -> extractive"
        try:
            for piece in self.llm.stream(
                messages,
                max_tokens=self.settings.llm.max_answer_tokens,
                temperature=self.settings.llm.temperature,
                stop=stop,
                usage=usage,
            ):
                pieces.append(piece)
                if on_token:
                    on_token(piece)
        except LLMIncomplete as exc:  # a reply that never finished is not an answer, nor checked as one
            log.warning("LLM reply incomplete: %s", exc.reason)
            return Prose(backend=rejected, note=exc.note, prompt_tokens=ptoks, incomplete=exc.reason, usage=usage)
        except LLMError as exc:
            log.warning("LLM failed: %s", exc)
            note = f"The LLM failed ({exc}); answered from the evidence."
            return Prose(backend=rejected, note=note, prompt_tokens=ptoks, usage=usage)
        stopped = stop is not None and stop.is_set()  # by the user: what came is checked, but is no failure
        raw = strip_reasoning("".join(pieces))
        injected = echoes_injection(raw, [s.hit.paper.abstract for s in shown])  # abstracts are data
        if injected:
            note = f"The LLM's text was not used: {injected}."
            return Prose(backend=rejected, note=note, prompt_tokens=ptoks, usage=usage)
        raw = self.drop_leaks(raw)
        clean, invented = validate_markers(raw, len(shown))
        if is_degenerate(clean):
            note = STOPPED_NOTE if stopped else "The LLM's text was empty or repetitive; answered from the evidence."
            return Prose(backend=rejected, note=note, invented=invented, prompt_tokens=ptoks, usage=usage)
        full = {k: self.sentences(s.hit) for k, s in enumerate(shown, start=1)}
        names = {k: (s.hit.paper.label, *s.hit.paper.aliases) for k, s in enumerate(shown, start=1)}
        floor = self.settings.answer.claim_support_floor
        checked = check_claims(clean, full, self.similarity, floor=floor, names=names)
        claims = [
            replace(c, sentence=_renumber(c.sentence, numbers), cited=tuple(numbers[n - 1] for n in c.cited))
            for c in checked.claims
        ]
        if not checked.text:
            note = f"No sentence of the LLM's matched its cited evidence ({CHECKED}); answered from the evidence."
            note = STOPPED_NOTE if stopped else note
            return Prose(
                backend=rejected, note=note, invented=invented, claims=claims, prompt_tokens=ptoks, usage=usage
            )
        note = (self.llm_note + "; " if self.llm_note else "") + checked_note(claims)
        kept = [c.sentence for c in claims if c.supported]
        return Prose(
            _renumber(checked.text, numbers), self.llm.name, note, invented, claims, ptoks, usage=usage, sentences=kept
        )

    def drop_leaks(self, text: str) -> str:
        """Remove sentences that repeat the system prompt (8-word overlap)."""
        sys_words = normalize(self.system_prompt).split()
        grams = {" ".join(sys_words[i : i + 8]) for i in range(max(0, len(sys_words) - 7))}
        out = []
        for sent in re.split(r"(?<=[.!?])\s+", text):
            w = normalize(sent).split()
            if any(" ".join(w[i : i + 8]) in grams for i in range(max(0, len(w) - 7))):
                continue
            out.append(sent)
        return " ".join(out)
