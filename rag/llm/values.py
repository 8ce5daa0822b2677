"""Short values for table cells, proposed by the LLM (``paperchat table --values``).

A table cell quotes the sentences of an abstract that answer its column. With ``--values`` the LLM
is asked to shorten each quoted cell to a value of at most :data:`VALUE_WORDS` words copied from
it ("2.33% accuracy gain"); the caller shows a value only when every word of it stands in the
cell's sentences (:func:`rag.evidence.table.value_supported`), else the quote alone. Cells are
asked in as few prompts as fit ``llm.prompt_tokens`` each; one failed prompt leaves its cells
without values and says why.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field

from prompts import load_prompt
from rag.citations import format_marker
from rag.llm.clients import ChatLLM, LLMError, LLMIncomplete, Message, strip_reasoning
from rag.llm.prose import REFUSAL
from rag.settings import Settings
from rag.types import LLMUsage

__all__ = ["VALUE_WORDS", "Proposed", "propose_values"]

log = logging.getLogger(__name__)

VALUE_WORDS = 8
"""Most words of a cell's value: a figure with its measure and setting ("2.33% accuracy at an 8%
ratio"), a benchmark's or a model's name. Longer than that, the quote says it better."""

_LINE = re.compile(r"^[ \t]*\[(\d+)\][ \t]*(?:[:–—]|-(?=[ \t]|$))?[ \t]*(.*?)[ \t]*$", re.M)
"""One line of the reply: ``[n] value`` or ``[n]: value`` (``[n] -`` or ``[n]`` alone: none; a
value's own minus sign, "[3] -5% error", is kept)."""


@dataclass
class Proposed:
    """What the LLM proposed for the cells.

    Attributes:
        values: One per cell asked, in order: the value it wrote (``""`` when it wrote none,
            "-", or its prompt failed). Not yet checked against the cell.
        usage: What the replies cost, summed over the prompts.
        failures: Why prompts failed (one line each; empty when none did).
        prompts: How many prompts were sent.
    """

    values: list[str]
    usage: LLMUsage
    failures: list[str] = field(default_factory=list)
    prompts: int = 0


def _batches(llm: ChatLLM, system: str, lines: Sequence[str], budget: int) -> list[list[int]]:
    """Indices of ``lines`` packed in order into prompts of at most ``budget`` tokens each (a
    line too long for any prompt goes alone)."""
    template = load_prompt("values")
    fixed = llm.count_tokens(system) + llm.count_tokens(template.format(cells="", words=VALUE_WORDS))
    out: list[list[int]] = []
    used = budget + 1
    for i, line in enumerate(lines):
        size = llm.count_tokens(line) + 1
        if used + size > budget:
            out.append([])
            used = fixed
        out[-1].append(i)
        used += size
    return out


def propose_values(
    llm: ChatLLM,
    settings: Settings,
    cells: Sequence[tuple[str, str]],
    *,
    stop: threading.Event | None = None,
) -> Proposed:
    """Ask ``llm`` for a short value per cell.

    Args:
        llm: The LLM.
        settings: ``llm.prompt_tokens`` (the budget of each prompt), ``llm.temperature``.
        cells: ``(column title, the cell's quoted sentences)`` per cell.
        stop: When set, no further prompt is sent and the current reply ends.

    Returns:
        The values proposed, one per cell (see :class:`Proposed`); never raises for an LLM failure.
    """
    system = load_prompt("system").format(refusal=REFUSAL)
    template = load_prompt("values")
    lines = [f"{format_marker(k + 1)} {title}: {text}" for k, (title, text) in enumerate(cells)]
    budget = min(settings.llm.prompt_tokens, llm.context_tokens - settings.llm.max_answer_tokens - 64)
    values = [""] * len(cells)
    total = LLMUsage(budget=budget, replies=0)
    failures: list[str] = []
    batches = _batches(llm, system, lines, budget)
    for batch in batches:
        if stop is not None and stop.is_set():
            break
        numbered = [f"{format_marker(n + 1)} {lines[i].split(' ', 1)[1]}" for n, i in enumerate(batch)]
        messages: list[Message] = [
            {"role": "system", "content": system},
            {"role": "user", "content": template.format(cells="\n".join(numbered), words=VALUE_WORDS)},
        ]
        usage = LLMUsage(prompt_tokens=sum(llm.count_tokens(m["content"]) for m in messages), budget=budget)
        try:
            reply = "".join(
                llm.stream(
                    messages,
                    max_tokens=min(settings.llm.max_answer_tokens, 16 * len(batch)),
                    temperature=settings.llm.temperature,
                    stop=stop,
                    usage=usage,
                )
            )
        except LLMIncomplete as exc:
            failures.append(f"incomplete ({exc.reason})")
            reply = ""
        except LLMError as exc:
            log.warning("LLM failed on cell values: %s", exc)
            failures.append(f"failed ({exc})")
            reply = ""
        total.add(usage)
        for n, value in _LINE.findall(strip_reasoning(reply)):
            k = int(n) - 1
            if 0 <= k < len(batch) and value.strip(" .\"'“”") not in ("", "-"):
                values[batch[k]] = value.strip(" .\"'“”")
    return Proposed(values, total, failures, len(batches))
