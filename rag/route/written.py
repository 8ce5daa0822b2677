"""An extractive answer with the LLM's prose: the prose first, the quotes it was written from under
it; or, when the prose failed its checks, did not finish or was not written, the extractive answer
with the reason first in its note. Summaries and comparisons take their prose this way.
"""

from __future__ import annotations

from dataclasses import replace

from rag.llm.prose import Prose
from rag.types import Answer

__all__ = ["with_prose"]


def with_prose(answer: Answer, prose: Prose, *, body: str, lead: str = "") -> Answer:
    """``answer`` (extractive) with the LLM's part: when ``prose`` has text, the text is ``lead``,
    the prose, then ``body`` (the quotes), blank lines between; else the extractive text is kept and
    the note starts with why (``prose.note``). Either way the answer records the backend, claim
    checks, prompt tokens and the reply's cost (:class:`rag.types.LLMUsage`).

    Args:
        answer: The extractive answer (its ``note`` says what it is made of).
        prose: What the LLM wrote (:meth:`rag.llm.prose.ProseWriter.write_kind`).
        body: The part of the extractive text kept under the prose.
        lead: The line kept above the prose (a topic summary's count line; ``""``: none).
    """
    base = answer.note.replace(" (extractive, no LLM)", "")
    done = replace(
        answer,
        backend=prose.backend,
        claims=prose.claims,
        invented_markers=prose.invented,
        prompt_tokens=prose.prompt_tokens,
        incomplete=prose.incomplete,
        usage=prose.usage,
    )
    if not prose.text:  # the extractive answer, saying why the prose is not used
        return replace(done, note="; ".join(x for x in (prose.note.rstrip("."), base) if x))
    text = "\n\n".join(x for x in (lead, prose.text, body) if x)
    return replace(done, text=text, lead=lead, note="; ".join(x for x in (prose.note, f"quotes: {base}") if x))
