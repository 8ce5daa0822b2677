"""The one citation format, its parser, validation and sentence-level claim checks.

``[n]`` (and ``[n, m]``) is defined once here; the prompt's example, the parser and the
renderers all use :data:`MARKER` / :func:`format_marker`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from rag.lexicon import stem
from rag.text import content_terms, named_entities, normalize, numbers, split_sentences
from rag.types import ClaimCheck

__all__ = [
    "MARKER",
    "CheckedText",
    "check_claims",
    "cited_numbers",
    "format_marker",
    "is_degenerate",
    "validate_markers",
]

MARKER = re.compile(r"\[(\d+(?:\s*,\s*\d+)*)\]")
"""A citation marker: ``[3]`` or ``[1, 4]``."""

_LOOSE_MARKER = re.compile(r"\[(?:source|paper|ref)?\s*(\d+)\]|【(\d+)】|\(\s*(?:source|paper)\s*(\d+)\s*\)", re.I)


def format_marker(number: int) -> str:
    """The marker for source ``number``: ``[number]``."""
    return f"[{number}]"


def cited_numbers(text: str) -> list[int]:
    """Source numbers cited in ``text``, in order of first appearance, without repeats."""
    out: list[int] = []
    for m in MARKER.finditer(text):
        for part in m.group(1).split(","):
            n = int(part)
            if n not in out:
                out.append(n)
    return out


def validate_markers(text: str, n_sources: int) -> tuple[str, int]:
    """Remove citation markers that point to no source.

    Variants such as ``[Source 2]`` or ``(paper 2)`` are first rewritten to ``[2]``.
    A marker ``[k]`` with ``k`` outside ``1..n_sources`` is removed and counted; in a
    group ``[1, 7]`` only the invalid number goes.

    Returns:
        ``(clean_text, invented)`` where ``invented`` counts removed numbers.
    """
    text = _LOOSE_MARKER.sub(lambda m: f"[{next(g for g in m.groups() if g)}]", text)
    invented = 0

    def fix(m: re.Match) -> str:
        nonlocal invented
        keep = []
        for part in m.group(1).split(","):
            n = int(part)
            if 1 <= n <= n_sources:
                if n not in keep:
                    keep.append(n)
            else:
                invented += 1
        return "".join(format_marker(n) for n in keep)

    clean = MARKER.sub(fix, text)
    clean = re.sub(r"[ \t]+([.,;:])", r"\1", clean)
    clean = re.sub(r"[ \t]{2,}", " ", clean)
    return clean.strip(), invented


def is_degenerate(text: str) -> bool:
    """True for empty text, or text dominated by repetition (a weak model looping).

    Repetition: fewer than 40% distinct word 3-grams among at least 12, or one sentence
    occurring three times.
    """
    words = re.findall(r"\w+", text.lower())
    if len(words) < 3:
        return True
    grams = list(zip(words, words[1:], words[2:], strict=False))
    if len(grams) >= 12 and len(set(grams)) / len(grams) < 0.4:
        return True
    sents = [normalize(s.text) for s in split_sentences(text)]
    return any(sents.count(s) >= 3 for s in set(sents))


@dataclass
class CheckedText:
    """Answer prose after claim checks: kept sentences and the verdict on each."""

    text: str
    claims: list[ClaimCheck]


def check_claims(
    text: str,
    evidence: Mapping[int, Sequence[str]],
    similarity: Callable[[list[str], list[str]], np.ndarray],
    *,
    floor: float = 0.45,
) -> CheckedText:
    """Check each sentence of an answer against the evidence it cites.

    A cited sentence is *supported* when every number and coined name it states appears
    in the evidence of the sources it cites, at least 60% of its content terms appear
    there too and no three in a row are missing (:func:`unsupported_run`), and its best
    cosine to one of those evidence sentences is at least ``floor``. An unsupported sentence
    loses its citations and is dropped. An uncited sentence that one source supports gets
    that source's marker added; an uncited sentence that none supports is dropped.

    Args:
        text: Answer prose with validated ``[n]`` markers.
        evidence: Source number -> its evidence sentences (the full abstract may be given).
        similarity: ``(a, b) -> (len(a), len(b))`` cosine matrix.
        floor: Least cosine for semantic support, in [0, 1].

    Returns:
        The kept text and one :class:`ClaimCheck` per sentence.
    """
    checks: list[ClaimCheck] = []
    kept: list[str] = []
    sentences = [s.text for s in split_sentences(text)]
    if not sentences:
        return CheckedText("", [])
    bare = [MARKER.sub("", s).strip() for s in sentences]
    all_ev = [(n, e) for n, evs in evidence.items() for e in evs]
    sim = similarity(bare, [e for _, e in all_ev]) if all_ev else np.zeros((len(bare), 0))
    seen: set[str] = set()
    for i, (sent, plain) in enumerate(zip(sentences, bare, strict=True)):
        cited = [n for n in cited_numbers(sent) if n in evidence]
        if len(content_terms(plain)) < 3 or normalize(plain) in seen:
            continue  # fragments and repeats are not claims
        seen.add(normalize(plain))
        if cited:
            cols = [j for j, (n, _) in enumerate(all_ev) if n in cited]
            ok, reason = _supported(plain, [all_ev[j][1] for j in cols], sim[i, cols], floor)
            checks.append(ClaimCheck(sent, tuple(cited), ok, reason))
            if ok:
                kept.append(sent)
            continue
        # Uncited: add the citation of the single source that supports it best.
        best_n, best_ok, best_sim = None, False, float("-inf")
        for n in evidence:
            cols = [j for j, (m, _) in enumerate(all_ev) if m == n]
            ok, _ = _supported(plain, [all_ev[j][1] for j in cols], sim[i, cols], floor)
            if ok and float(sim[i, cols].max()) > best_sim:
                best_n, best_ok, best_sim = n, True, float(sim[i, cols].max())
        if best_ok and best_n is not None:
            marker = format_marker(best_n)

            def mark(m: re.Match[str], marker: str = marker) -> str:
                return f" {marker}{m.group(2)}"

            fixed = re.sub(r"(\s*)([.!?]?)$", mark, sent.rstrip(), count=1)
            checks.append(ClaimCheck(fixed, (best_n,), True, "citation added"))
            kept.append(fixed)
        else:
            checks.append(ClaimCheck(sent, (), False, "no source supports it"))
    return CheckedText(" ".join(kept), checks)


# Content terms in a row that the evidence lacks: a clause the writer added ("... when used with
# other algorithms such as gradient descent"), where a paraphrase scatters its new words.
UNSUPPORTED_RUN = 3


def unsupported_run(claim: str, have: set[str]) -> list[str]:
    """The longest run of consecutive content terms of ``claim`` absent from ``have``.

    A term counts as present when it or its Porter stem is among ``have``'s (so "adapting"
    is met by "adaptive"). Returns the run's terms in order (``[]`` when every term is present).
    """
    stems = {stem(t) for t in have}
    best: list[str] = []
    run: list[str] = []
    for t in content_terms(claim):
        if t in have or stem(t) in stems:
            run = []
            continue
        run.append(t)
        if len(run) > len(best):
            best = list(run)
    return best


def _supported(claim: str, evidence: Sequence[str], sims: np.ndarray, floor: float) -> tuple[bool, str]:
    joined = " ".join(evidence)
    missing_nums = numbers(claim) - numbers(joined)
    if missing_nums:
        return False, f"numbers not in the cited evidence: {', '.join(sorted(missing_nums))}"
    ev_norm = normalize(joined)
    missing_names = [n for n in named_entities(claim) if normalize(n) not in ev_norm]
    if missing_names:
        return False, f"names not in the cited evidence: {', '.join(sorted(missing_names))}"
    terms = set(content_terms(claim))
    if terms:
        have = set(content_terms(joined))
        share = len(terms & have) / len(terms)
        if share < 0.6:
            absent = sorted(terms - have)[:4]
            return False, f"terms not in the cited evidence: {', '.join(absent)}"
        added = unsupported_run(claim, have)
        if len(added) >= UNSUPPORTED_RUN:
            return False, f"a phrase not in the cited evidence: {' '.join(added)}"
    if len(sims) == 0 or float(np.max(sims)) < floor:
        return False, "not semantically supported by the cited evidence"
    return True, ""
