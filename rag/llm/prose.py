"""The LLM's part of an answer: short prose between citations, validated and checked.

The LLM only connects evidence that retrieval and evidence selection chose: it sees the
numbered sources (each paper's label and evidence sentences) and the question; its markers
that point to no source are removed and counted; each sentence is checked against the evidence
it cites (:func:`rag.llm.claims.check_claims`), and unsupported sentences are dropped. When no
sentence survives, the answer is extractive.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from prompts import load_prompt
from rag.citations import format_marker, validate_markers
from rag.llm.claims import CHECKED, check_claims, is_degenerate
from rag.llm.clients import ChatLLM, LLMError, LLMIncomplete, Message, strip_reasoning
from rag.settings import Settings
from rag.text import normalize
from rag.types import ClaimCheck, Evidence, PaperHit
from store.guard import echoes_injection
from store.papers import strip_markup

__all__ = ["REFUSAL", "Prose", "ProseWriter", "Source"]

log = logging.getLogger(__name__)

REFUSAL = "The collection does not answer this question."
"""The one refusal phrase: prompt, code and tests share it."""

MAX_PROMPT_QUESTION = 1500
"""Characters of the question the prompt quotes (a longer one is cut with " …")."""


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
        text: Checked prose with valid markers (``""`` when nothing survived or no LLM ran).
        backend: ``"none"``, the LLM's name, or ``"<name> -> extractive"`` when its text was rejected.
        note: One line on what happened (claims supported, fallbacks).
        invented: Markers the LLM wrote that pointed to no source (removed).
        claims: Per-sentence claim checks.
        prompt_tokens: Tokens of the prompt (0 when no LLM ran).
        incomplete: Why the LLM's reply never finished (``""`` when it did): its text is not used.
    """

    text: str = ""
    backend: str = "none"
    note: str = ""
    invented: int = 0
    claims: list[ClaimCheck] = field(default_factory=list)
    prompt_tokens: int = 0
    incomplete: str = ""


def checked_note(claims: Sequence[ClaimCheck]) -> str:
    """The status line's account of the claim checks: how many of the LLM's sentences were kept
    because they match their cited evidence, and what was checked; never more than was checked."""
    kept = sum(c.supported for c in claims)
    dropped = len(claims) - kept
    text = f"{kept} of {len(claims)} LLM sentences match their cited evidence ({CHECKED})"
    return text + (f"; {dropped} dropped" if dropped else "")


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

    @property
    def backend(self) -> str:
        """Name of the LLM backend, ``"none"`` when answers are extractive."""
        return self.llm.name if self.llm else "none"

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
        messages = self.messages(question, several, sources)
        ptoks = sum(self.llm.count_tokens(m["content"]) for m in messages)
        pieces: list[str] = []
        rejected = f"{self.llm.name} -> extractive"
        try:
            for piece in self.llm.stream(
                messages,
                max_tokens=self.settings.llm.max_answer_tokens,
                temperature=self.settings.llm.temperature,
                stop=stop,
            ):
                pieces.append(piece)
                if on_token:
                    on_token(piece)
        except LLMIncomplete as exc:  # a reply that never finished is not an answer, nor checked as one
            log.warning("LLM reply incomplete: %s", exc.reason)
            return Prose(backend=rejected, note=exc.note, prompt_tokens=ptoks, incomplete=exc.reason)
        except LLMError as exc:
            log.warning("LLM failed: %s", exc)
            note = f"The LLM failed ({exc}); answered from the evidence."
            return Prose(backend=rejected, note=note, prompt_tokens=ptoks)
        raw = strip_reasoning("".join(pieces))
        injected = echoes_injection(raw, [s.hit.paper.abstract for s in sources])  # abstracts are data
        if injected:
            return Prose(backend=rejected, note=f"The LLM's text was not used: {injected}.", prompt_tokens=ptoks)
        raw = self.drop_leaks(raw)
        clean, invented = validate_markers(raw, len(sources))
        if is_degenerate(clean):
            note = "The LLM's text was empty or repetitive; answered from the evidence."
            return Prose(backend=rejected, note=note, invented=invented, prompt_tokens=ptoks)
        full = {s.number: self.sentences(s.hit) for s in sources}
        names = {s.number: (s.hit.paper.label, *s.hit.paper.aliases) for s in sources}
        floor = self.settings.answer.claim_support_floor
        checked = check_claims(clean, full, self.similarity, floor=floor, names=names)
        if not checked.text:
            note = f"No sentence of the LLM's matched its cited evidence ({CHECKED}); answered from the evidence."
            return Prose(backend=rejected, note=note, invented=invented, claims=checked.claims, prompt_tokens=ptoks)
        note = (self.llm_note + "; " if self.llm_note else "") + checked_note(checked.claims)
        return Prose(checked.text, self.llm.name, note, invented, checked.claims, ptoks)

    def messages(self, question: str, several: bool, sources: Sequence[Source]) -> list[Message]:
        """System + user messages; evidence is trimmed (fewest sentences first) to fit the context."""
        budget = (self.llm.context_tokens if self.llm else 4096) - self.settings.llm.max_answer_tokens - 64
        q = question if len(question) <= MAX_PROMPT_QUESTION else question[:MAX_PROMPT_QUESTION] + " …"
        per = max(len(s.evidence) for s in sources)
        while True:
            blocks = []
            for s in sources:
                ev = " ".join(strip_markup(e.sentence) for e in s.evidence[:per])
                blocks.append(f"{format_marker(s.number)} {s.hit.paper.label}: {ev}")
            one = (
                f"Use only the numbers {format_marker(1)} to {format_marker(len(sources))}."
                if len(sources) > 1
                else f"There is one source: cite it as {format_marker(1)}."
            )
            user = self.answer_prompt.format(
                sources="\n".join(blocks),
                question=q,
                sentences="two to four" if several else "one to three",
                # The example states no fact: a small model copied "<label> reduces cost [1]" into answers.
                example=f"\"<what source 1 states> {format_marker(1)}.\" " + one,
            )
            msgs: list[Message] = [
                {"role": "system", "content": self.system_prompt},
                {"role": "user", "content": user},
            ]
            used = sum(self.llm.count_tokens(m["content"]) for m in msgs) if self.llm else 0
            if used <= budget or per == 1:
                return msgs
            per -= 1

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
