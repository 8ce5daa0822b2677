"""Sentence-level claim checks: does each sentence an LLM wrote stand in the evidence it cites?

A sentence is kept only when the sources it cites state it. What is checked, per sentence
(:func:`check_claims`):

1. **Form**: a sentence cut off mid-way (no closing punctuation or marker) and a sentence that
   repeats an earlier one (the same content words, :data:`REPEAT_JACCARD`) are dropped.
2. **Numbers in the same relation**: every number stands in one cited sentence, and the words that
   say what it measures stand there too (:func:`unrelated_number`): "41.8 BLEU on English-to-German"
   fails when 41.8 is the English-to-French score, although both settings are in the abstract.
3. **Names**: every coined name (``WMT``, ``GPT-3``, ``ALFWorld``) is in the cited evidence.
4. **Terms**: at least 60% of its content terms are in the cited evidence, and no three in a
   row are missing (:func:`unsupported_run`: a clause the writer added).
5. **Subject**: a sentence about the paper's method is not supported only by a sentence about
   another named thing (:func:`borrowed_subject`: the baseline's bottleneck given to the method).
6. **Meaning**: the best cosine to one cited sentence is at least the floor.

The verdicts say which check failed, so the status line can say exactly what was checked.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from rag.citations import MARKER, cited_numbers, format_marker
from rag.lexicon import stem
from rag.text import STOPWORDS, content_terms, named_entities, normalize, numbers, split_sentences
from rag.types import ClaimCheck
from rag.vocabulary import beside

__all__ = [
    "CHECKED",
    "CheckedText",
    "borrowed_subject",
    "check_claims",
    "is_degenerate",
    "unrelated_number",
    "unsupported_run",
]

CHECKED = "numbers in the same sentence and setting, names, terms and subject"
"""What :func:`check_claims` checks of each sentence, in the words of the status line."""

UNSUPPORTED_RUN = 3
"""Content terms in a row that the evidence lacks: a clause the writer added ("... when used with
other algorithms such as gradient descent"), where a paraphrase scatters its new words."""

RELATION_WINDOW = 4
"""Content words either side of a number that say what it measures and in which setting. Four
keeps "28.4 BLEU on the WMT 2014 English-to-German task" whole (measure, benchmark, setting) and
stops before the next clause in the abstracts read while setting it."""

RELATION_SHARE = 0.5
"""Least share of a number's neighbouring words (by term or Snowball stem) that the evidence sentence
holding the number must also hold; coined names among them must all be there. Half lets a
paraphrase change its verbs ("reaches" for "achieves") and no more."""

REPEAT_JACCARD = 0.8
"""Content-word Jaccard above which a sentence repeats an earlier one (a small model restating)."""

_VOCABULARY = beside(__file__, "claims")
"""Who a sentence speaks of (``vocabulary/claims.toml``): prior work, the paper, the authors."""

PRIOR_WORK = re.compile(
    rf"{_VOCABULARY['prior_adjective'].source}\s+(?:[\w-]+\s+){{0,2}}?{_VOCABULARY['prior_noun'].source}", re.I
)
"""A subject that is prior work ("existing methods", "standard baselines"): what such a sentence
states is not the paper's own (used by the claim checks and the yes/no lead)."""
_THE_PAPER = re.compile(rf"^\s*{_VOCABULARY['the_paper'].source}", re.I)
_SELF = _VOCABULARY["self"].pattern
_ENDED = re.compile(r"(?:[.!?]|\]|\)|[.!?][\"”’'])\s*$")


@dataclass
class CheckedText:
    """Answer prose after claim checks: kept sentences and the verdict on each."""

    text: str
    claims: list[ClaimCheck]


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


def _present(term: str, have: set[str], stems: set[str]) -> bool:
    return term in have or stem(term) in stems


_CLAIM_TOKEN = re.compile(r"\d+(?:[.,]\d+)*(?:\s?%|x\b|×)?|[a-z][a-z0-9]*(?:[-'@][a-z0-9]+)*")


def _content_tokens(text: str) -> list[str]:
    """Content words and numbers of ``text`` in order: ``"17.8 TR@1"`` -> ``["17.8", "tr@1"]``,
    ``"65$\\times$"`` -> ``["65x"]`` (numbers in the form :func:`rag.text.numbers` gives)."""
    plain = re.sub(r"\s?\$?\\times\$?", "×", normalize(MARKER.sub(" ", text)))
    out = []
    for tok in _CLAIM_TOKEN.findall(plain):
        if tok[0].isdigit():
            out.extend(sorted(numbers(tok)))
        elif tok not in STOPWORDS and len(tok) > 1:
            out.append(tok)
    return out


def _number_of(tok: str) -> str | None:
    return tok if tok[0].isdigit() else None


ADJACENT = 2
"""Content tokens within which a word is read as part of a number's own phrase ("185% over
traditional baselines", "12.8 IR@1")."""


def _conflicts(near: list[str], holder: list[str], claim_numbers: set[str]) -> list[str]:
    """Words of a claimed number's own phrase that ``holder`` (its content tokens) puts in the
    phrase of a number the claim does not state.

    A word conflicts when, at its occurrence nearest a claimed number, it stands within
    :data:`ADJACENT` of an unclaimed number and farther than that from every claimed one: in
    "maximum SSIM improvement of 185% ... and a 36% improvement", "SSIM" belongs to 185%.
    """
    at = [i for i, t in enumerate(holder) if t in claim_numbers]
    others = [i for i, t in enumerate(holder) if _number_of(t) and t not in claim_numbers]
    if not at or not others:
        return []
    out = []
    for word in dict.fromkeys(near):
        spots = [i for i, t in enumerate(holder) if t == word]
        if not spots:
            continue
        i = min(spots, key=lambda i: min(abs(i - j) for j in at))
        if min(abs(i - j) for j in at) > ADJACENT and min(abs(i - j) for j in others) <= ADJACENT:
            out.append(word)
    return out


def _measure(toks: list[str], i: int) -> str | None:
    """The coined measure written right after the number at ``toks[i]`` ("IR@1", "BLEU", "SSIM")."""
    nxt = toks[i + 1] if i + 1 < len(toks) else ""
    return nxt if nxt and (any(c.isdigit() for c in nxt) or "@" in nxt) else None


def unrelated_number(claim: str, sentences: Sequence[str]) -> tuple[str, list[str]] | None:
    """The first number of ``claim`` that no evidence sentence states in the same relation.

    A number's neighbours are the content words within :data:`RELATION_WINDOW` content tokens
    either side of it in the claim (numbers skipped). Some sentence of ``sentences`` holding the
    number must hold every coined name among them and :data:`RELATION_SHARE` of the rest, must not
    put a word of the number's own phrase in another number's phrase (:func:`_conflicts`), and
    must write the same coined measure right after it when both write one ("17.8 TR@1").

    Returns:
        ``(number, neighbours the best holder lacks or attaches elsewhere)``, or ``None`` when every
        number stands as in the evidence (or the claim states none).
    """
    toks = _content_tokens(claim)
    names = {normalize(n) for n in named_entities(claim)}
    stated = {t for t in toks if _number_of(t)}
    for i, num in enumerate(toks):
        if _number_of(num) is None:
            continue
        holders = [(h, _content_tokens(h)) for h in sentences if num in numbers(h)]
        holders = [(h, ht) for h, ht in holders if num in ht] or holders
        if not holders:
            return num, []
        near = toks[max(0, i - RELATION_WINDOW) : i] + toks[i + 1 : i + 1 + RELATION_WINDOW]
        own = [t for t in toks[max(0, i - ADJACENT) : i] + toks[i + 1 : i + 1 + ADJACENT] if not _number_of(t)]
        near = [t for t in near if _number_of(t) is None]
        if not near:
            continue
        best: list[str] | None = None
        for h, ht in holders:
            have = set(ht)
            stems = {stem(t) for t in have}
            h_norm = normalize(h)
            missing = [t for t in near if not _present(t, have, stems)]
            wrong = [t for t in near if t in names and t not in h_norm] + _conflicts(own, ht, stated)
            mine = _measure(toks, i)
            theirs = [_measure(ht, j) for j, t in enumerate(ht) if t == num]
            if mine and any(theirs) and mine not in theirs:
                wrong.append(mine)
            if not wrong and len(missing) <= (1 - RELATION_SHARE) * len(near):
                best = None
                break
            lacking = wrong + [t for t in missing if t not in wrong]
            if best is None or len(lacking) < len(best):
                best = lacking
        else:
            return num, best or []
    return None


def abstract_names(sentences: Sequence[str]) -> set[str]:
    """Names used in an abstract: coined names, and capitalised words the abstract also capitalises
    inside a sentence ("Shampoo", "Transformer"), lower-cased."""
    out = {normalize(n) for s in sentences for n in named_entities(s)}
    for s in sentences:
        words = re.findall(r"[A-Za-z][\w-]*", s)
        out |= {w.lower() for w in words[1:] if w[0].isupper() and w.lower() not in STOPWORDS}
    return out


def borrowed_subject(claim: str, sentences: Sequence[str], own_names: Sequence[str]) -> str | None:
    """What else the evidence says ``claim`` of, when the claim gives it to the paper; else ``None``.

    Applies to a claim about the paper (it names one of ``own_names``, or its subject is "it",
    "this method", ...). The cited sentence that best holds the claim's other terms decides: when
    it names neither the paper nor itself ("we", "our", "the proposed") and speaks of prior work
    ("existing methods", "current TAG-FGL methods") or of another name the claim does not mention,
    the claim gives the paper a property of something else: "FOAM faces a bottleneck" supported
    only by "Shampoo ... faces a significant practical bottleneck".
    """
    low = normalize(claim)
    own = [normalize(n) for n in own_names if n]
    names_paper = any(re.search(rf"(?<!\w){re.escape(n)}(?!\w)", low) for n in own)
    if not names_paper and not _THE_PAPER.search(claim):
        return None
    terms = {t for t in content_terms(claim) if not any(t in n.split() for n in own)}
    if not terms or not sentences:
        return None
    best = max(sentences, key=lambda s: len(terms & set(content_terms(s))))
    if len(terms & set(content_terms(best))) < 2:
        return None
    b_norm = normalize(best)
    if _SELF.search(best) or any(re.search(rf"(?<!\w){re.escape(n)}(?!\w)", b_norm) for n in own):
        return None
    prior = PRIOR_WORK.search(best)
    if prior:
        return prior.group(0)
    named = abstract_names(sentences)
    others = [w for w in re.findall(r"[A-Za-z][\w-]*", best) if w.lower() in named and w.lower() not in low]
    return others[0] if others else None


def unsupported_run(claim: str, have: set[str]) -> list[str]:
    """The longest run of consecutive content terms of ``claim`` absent from ``have``.

    A term counts as present when it or its Snowball stem is among ``have``'s (so "adapting"
    is met by "adaptive"). Returns the run's terms in order (``[]`` when every term is present).
    """
    stems = {stem(t) for t in have}
    best: list[str] = []
    run: list[str] = []
    for t in content_terms(claim):
        if _present(t, have, stems):
            run = []
            continue
        run.append(t)
        if len(run) > len(best):
            best = list(run)
    return best


def _jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 1.0


def check_claims(
    text: str,
    evidence: Mapping[int, Sequence[str]],
    similarity: Callable[[list[str], list[str]], np.ndarray],
    *,
    floor: float = 0.45,
    names: Mapping[int, Sequence[str]] | None = None,
) -> CheckedText:
    """Check each sentence of an answer against the evidence it cites (see the module docstring).

    An unsupported sentence is dropped. An uncited sentence that one source supports gets that
    source's marker added; an uncited sentence that none supports is dropped.

    Args:
        text: Answer prose with validated ``[n]`` markers.
        evidence: Source number -> its sentences (the whole abstract, one sentence per item).
        similarity: ``(a, b) -> (len(a), len(b))`` cosine matrix.
        floor: Least cosine for semantic support, in [0, 1].
        names: Source number -> the paper's names (label, aliases), for the subject check.

    Returns:
        The kept text and one :class:`ClaimCheck` per sentence (fragments under three content
        words are neither kept nor judged).
    """
    checks: list[ClaimCheck] = []
    kept: list[str] = []
    sentences = [s.text for s in split_sentences(text)]
    if not sentences:
        return CheckedText("", [])
    bare = [MARKER.sub("", s).strip() for s in sentences]
    all_ev = [(n, e) for n, evs in evidence.items() for e in evs]
    sim = similarity(bare, [e for _, e in all_ev]) if all_ev else np.zeros((len(bare), 0))
    seen: list[set[str]] = []
    names = names or {}
    for i, (sent, plain) in enumerate(zip(sentences, bare, strict=True)):
        cited = [n for n in cited_numbers(sent) if n in evidence]
        terms = set(content_terms(plain))
        if len(terms) < 3:
            continue  # fragments are not claims
        if any(_jaccard(terms, s) >= REPEAT_JACCARD for s in seen):
            checks.append(ClaimCheck(sent, tuple(cited), False, "repeats an earlier sentence"))
            continue
        seen.append(terms)
        if not _ENDED.search(sent):
            checks.append(ClaimCheck(sent, tuple(cited), False, "cut off mid-sentence"))
            continue
        if cited:
            cols = [j for j, (n, _) in enumerate(all_ev) if n in cited]
            own = [x for n in cited for x in names.get(n, ())]
            ok, reason = _supported(plain, [all_ev[j][1] for j in cols], sim[i, cols], floor, own)
            checks.append(ClaimCheck(sent, tuple(cited), ok, reason))
            if ok:
                kept.append(sent)
            continue
        # Uncited: add the citation of the single source that supports it best.
        best_n, best_sim = None, float("-inf")
        for n in evidence:
            cols = [j for j, (m, _) in enumerate(all_ev) if m == n]
            ok, _ = _supported(plain, [all_ev[j][1] for j in cols], sim[i, cols], floor, names.get(n, ()))
            if ok and float(sim[i, cols].max()) > best_sim:
                best_n, best_sim = n, float(sim[i, cols].max())
        if best_n is not None:
            marker = format_marker(best_n)

            def mark(m: re.Match[str], marker: str = marker) -> str:
                return f" {marker}{m.group(2)}"

            fixed = re.sub(r"(\s*)([.!?]?)$", mark, sent.rstrip(), count=1)
            checks.append(ClaimCheck(fixed, (best_n,), True, "citation added"))
            kept.append(fixed)
        else:
            checks.append(ClaimCheck(sent, (), False, "no source supports it"))
    return CheckedText(" ".join(kept), checks)


def _supported(
    claim: str, evidence: Sequence[str], sims: np.ndarray, floor: float, own_names: Sequence[str] = ()
) -> tuple[bool, str]:
    joined = " ".join(evidence)
    missing_nums = numbers(claim) - numbers(joined)
    if missing_nums:
        return False, f"numbers not in the cited evidence: {', '.join(sorted(missing_nums))}"
    unrelated = unrelated_number(claim, evidence)
    if unrelated:
        num, lacking = unrelated
        return False, f"{num} stands in another setting in the cited evidence (not: {', '.join(lacking[:4])})"
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
    other = borrowed_subject(claim, evidence, own_names)
    if other:
        return False, f"the cited evidence says this of {other}, not of the paper"
    if len(sims) == 0 or float(np.max(sims)) < floor:
        return False, "not semantically supported by the cited evidence"
    return True, ""
