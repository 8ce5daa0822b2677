"""Stages a topic puts in order ("supervised fine-tuning first and then RL"): which papers chain them.

A paper that chains two stages says so in a sentence with a word of order that states one of them
("a two-stage framework: cold-start supervised fine-tuning followed by agentic reinforcement
learning"); a paper that states both only side by side ("the effects of data scale on both
supervised and reinforcement-based finetuning") or compared ("reinforcement-based finetuning
outperforms supervised finetuning") studies the stages, it does not train with one after the other.
The words of order are the class ``sequence_cue`` of ``vocabulary/stages.toml``.
"""

from __future__ import annotations

from collections.abc import Sequence

from rag.lexicon import Lexicon, compound_parts, joined_form, term_key
from rag.text import Sentence, content_terms
from rag.vocabulary import beside

__all__ = ["side_by_side", "states_stage", "text_keys"]

_SEQUENCE_CUE = beside(__file__, "stages")["sequence_cue"]


def text_keys(text: str, lexicon: Lexicon | None = None) -> frozenset[str]:
    """The term keys a text states (:func:`rag.lexicon.term_key`): its content terms and, with a
    ``lexicon``, the forms it indexes them under (compound parts, hyphenless spellings, the long
    form of an abbreviation and the abbreviation of a long form: "supervised fine-tuning" states
    "sft")."""
    terms = content_terms(text) + (lexicon.expansions(text) if lexicon is not None else [])
    return frozenset(term_key(t) for t in terms)


def states_stage(stage: str, keys: frozenset[str]) -> bool:
    """Whether a text whose :func:`text_keys` are ``keys`` states every content term of ``stage``:
    a term by its key, a hyphenated one also by its hyphenless spelling ("fine-tune" by
    "finetuning") or by all of its parts ("reinforcement-learning" by "reinforcement learning")."""
    terms = content_terms(stage)
    if not terms:
        return False
    for t in terms:
        joined = joined_form(t)
        forms = {term_key(t), *((term_key(joined),) if joined else ())}
        parts = compound_parts(t)
        if not (forms & keys or (parts and all(term_key(p) in keys for p in parts))):
            return False
    return True


def side_by_side(stages: Sequence[str], sentences: Sequence[Sentence], lexicon: Lexicon | None = None) -> bool:
    """Whether an abstract (its ``sentences``) states every one of ``stages`` but none in a sentence
    with a word of order (``sequence_cue``): it studies or compares the stages, it does not chain
    them. ``False`` when it does not state every stage (the membership model judged it in other
    words: "Cognition-aware Policy Optimization" is reinforcement learning no term says) or when a
    sentence chains them."""
    if len(stages) < 2 or not sentences:
        return False
    keys = [text_keys(s.text, lexicon) for s in sentences]
    every = frozenset().union(*keys)
    if not all(states_stage(stage, every) for stage in stages):
        return False
    return not any(
        _SEQUENCE_CUE.search(s.text) and any(states_stage(stage, k) for stage in stages)
        for s, k in zip(sentences, keys, strict=True)
    )
