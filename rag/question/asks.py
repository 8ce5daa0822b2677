"""Reading one thing asked of an abstract into an :class:`rag.question.plan.Ask`.

A question, one of its parts, a topic, a column phrase or a fixed query of the answering stages
("What problem does it address, ...?") is read here once: its rhetorical roles
(:func:`rag.question.roles.question_roles`), whether it asks a summary, an amount, a link or the
meaning of a name, the figures and names it states, its sub-questions, the comparison row it
only names, and the measure an amount asks (its slot, :mod:`rag.question.slots`). The evidence
stage scores sentences against the result and reads no cue of its own. The words are classes of
``vocabulary/asks.toml``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from rag.question.parts import question_parts, without_paper_description
from rag.question.phrasing import (
    MEASURE_NOUNS,
    Number,
    asks_in_shorthand,
    asks_quantity,
    shorthand_words,
    without_code_topics,
)
from rag.question.plan import Ask
from rag.question.polar import polar_after_name, polar_available
from rag.question.roles import is_summary, question_roles
from rag.question.slots import (
    HARDWARE,
    INSTANCE,
    age_slot,
    contents_slot,
    data_slot,
    entity_slot,
    measure_slot,
    names_fused,
    object_slot,
    size_compared,
    with_unit,
)
from rag.text import named_entities, normalize, numbers, quoted_figures
from rag.vocabulary import beside

__all__ = ["read_ask", "row_named", "text_about", "title_of"]

_VOCABULARY = beside(__file__, "asks")
_V = {name: cls.source for name, cls in _VOCABULARY.items()}

# Words after which sentences that state numbers answer better ("how much", "improve", "%").
_NUMBERS = re.compile(rf"\b{_V['number_cue']}\b", re.I)  # as before, "%" counts only between word characters
_LINK = _VOCABULARY["link_cue"].pattern
_AMOUNT_ELSEWHERE = _VOCABULARY["amount_elsewhere"]
_DEFINITION = _VOCABULARY["definition_cue"].pattern
_ARTIFACT_ASKED = _VOCABULARY["artifact_asked"].pattern

# An aspect that only names a row of a comparison ("on data", "their limitations", "in terms of
# results") is that row: its cells are chosen by the row's roles and the abstract's moves.
_ROW_WORDS = {
    "data": _VOCABULARY["row_data"].words,
    "results": _VOCABULARY["row_results"].words,
    "limitations": _VOCABULARY["row_limitations"].words,
    "approach": _VOCABULARY["row_approach"].words,
    "problem": _VOCABULARY["row_problem"].words,
}
_ASPECT_GLUE = _VOCABULARY["aspect_glue"].words


_QUESTION_WORD = re.compile(rf"^{_V['question_word']}", re.I)


def title_of(heading: str) -> str:
    """A heading as a title: capitalised, with a question mark when it is a question
    ("what does each distill" -> "What does each distill?")."""
    heading = heading.strip()
    asked = heading.rstrip("?").strip()
    mark = "?" if heading.endswith("?") or _QUESTION_WORD.match(asked) else ""
    return f"{asked[:1].upper()}{asked[1:]}{mark}"


def text_about(ask: Ask, names: Sequence[str]) -> str:
    """What ``ask`` asks *about* a paper: its :attr:`Ask.matching` text without the paper's
    ``names`` (label and aliases, any case), which only say which paper it is."""
    out = ask.matching or ask.text
    for name in sorted({n for n in names if n and not n.endswith("…")}, key=len, reverse=True):
        out = re.sub(re.escape(name), " ", out, flags=re.I)
    return out


def _without_names(text: str, names: Sequence[str]) -> str:
    """``text`` without ``names`` (any case) and words that join letters and digits ("OPT-175B",
    "GPT-4", "Llama-2"): what is left of its numbers is the setting it asks about."""
    for name in sorted({n for n in names if n}, key=len, reverse=True):
        text = re.sub(re.escape(name), " ", text, flags=re.I)
    return re.sub(r"\S*[A-Za-z][\w.]*-[\w.-]*\d\S*", " ", text)


def row_named(text: str) -> str:
    """The key of the comparison row a text only names ("on data" -> ``"data"``), else ``""``."""
    words = [w for w in re.findall(r"[a-z]+", text.lower()) if w not in _ASPECT_GLUE]
    return next((key for key, names in _ROW_WORDS.items() if words and set(words) <= names), "")


@functools.lru_cache(maxsize=4096)
def read_ask(
    text: str,
    *,
    number: Number = "open",
    heading: str = "",
    roles: frozenset[str] | None = None,
    summary: bool | None = None,
    names: tuple[str, ...] = (),
) -> Ask:
    """Read ``text`` into an :class:`Ask` (see the module docstring).

    Args:
        text: What is asked (a question, a part of one, a topic, a column phrase).
        number: How many papers the question's frame asks for (a question asking for papers asks
            for a list, not an amount: :func:`rag.question.phrasing.asks_quantity`).
        heading: How the question words it, when ``text`` is a reading of it (names removed).
        roles: The roles asked, when the question model read them from more than ``text``
            (the aspect of a question); default: read from ``text``.
        summary: Whether a summary is asked, likewise; default: read from ``text``.
        names: Names of papers the caller found in ``text`` (as typed: "Muse", "Pythia"), besides
            the coined names read from it: never part of a measure ("Muse CLIP score").

    Returns:
        The ask; its :attr:`Ask.parts` are read the same way (with ``number``). Cached per text.
    """
    pieces = question_parts(text)
    parts = tuple(read_ask(p, number=number) for p in pieces) if len(pieces) > 1 else ()
    entities = named_entities(text)
    # a paper's name of several words is no phrase of the slot ("the NFE of consistency models")
    slot_text, names = names_fused(text, names)
    # a measure written as an acronym ("the FID of GLIDE") is the measure, not a name
    measures_apart = [e for e in [*entities, *names] if e.lower() not in MEASURE_NOUNS]
    # "DDL Dice?", "L2M num GPUs": a measure asked of a name with no question frame
    shorthand = number != "many" and asks_in_shorthand(text, measures_apart)
    amount = (
        shorthand or asks_quantity(text, number)
        or (number != "many" and (bool(_AMOUNT_ELSEWHERE.search(text)) or size_compared(text)))
    )
    asked_roles = frozenset(question_roles(text)) if roles is None else frozenset(roles)
    # a paper's data and nothing else ("what benchmarks?"): the slot is the data it uses; a list
    # of papers ("which papers use ImageNet?") asks for papers, not a slot
    # ... asked, not a yes/no question that names what it asks ("does Cramming train on a single GPU?")
    data_only = asked_roles == {"data"} and len(pieces) <= 1 and number != "many" and not polar_after_name(text)
    summary_asked = is_summary(text) if summary is None else summary
    link = bool(_LINK.search(without_code_topics(text)))
    definition = bool(_DEFINITION.search(text))
    if amount:
        slot = measure_slot(slot_text, measures_apart, shorthand=shorthand)
    elif number != "many" and (age := age_slot(text)) is not None:
        slot = age  # "which of the two is older?": the year the records give
    elif data_only:  # "what does the JetClass dataset include?": what it holds, not the data it is tested on
        slot = contents_slot(text) or data_slot(text, names)
    elif number != "many" and not parts:
        slot = object_slot(slot_text, [*entities, *names])
        if slot is None and not (summary_asked or link or definition):
            # "what tokenizer does ME-DLM use?", "SoT-26K train/test split?": a thing asked by its noun
            thing = entity_slot(slot_text, measures_apart, shorthand=bool(shorthand_words(text, measures_apart)))
            # a role's cue elsewhere in the question ("which optimizer does FOAM speed up?", "the
            # paper on provably efficient bandits") keeps a thing named by its instances, which only
            # chooses the clause to quote; a thing whose absence is refused needs no role asked but
            # by words besides its own ("what regret does the routing paper prove?": "prove" asks
            # theory, "regret" must be stated; "what guarantees does it prove?" asks the role by the
            # thing itself), and a method asked is answered by the paper's approach sentence
            if thing is not None and (
                not asked_roles
                # hardware ("QCirc compute?") asks the efficiency role by its own word, as "what hardware" does
                or ("method" not in asked_roles
                    and (thing.form in (INSTANCE, HARDWARE) or not question_roles(thing.name)))
            ):
                slot = thing
    else:
        slot = None
    # "how big is the corpus GLaM was pretrained on, in tokens?": an amount in that unit
    slot = with_unit(slot, text)
    return Ask(
        text=text,
        heading=heading or text,
        matching=without_paper_description(text),
        roles=asked_roles,
        summary=summary_asked,
        amount=amount,
        numbers=bool(_NUMBERS.search(text)),
        link=link,
        # "what dataset does it release?" asks the dataset, stated where the paper introduces it
        available="" if _ARTIFACT_ASKED.match(text.strip()) else polar_available(text),
        definition=definition,
        figures=frozenset(quoted_figures(text)),
        entities=frozenset(normalize(e) for e in entities),
        conditions=frozenset(numbers(_without_names(text, [*entities, *names]))),
        parts=parts,
        row=row_named(text),
        title=title_of(heading or text),
        slot=slot,
    )
