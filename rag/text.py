"""Text utilities for grounding: sentence spans, normalisation, terms, numbers and names.

Everything here is pure and deterministic; spans always index the original text.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from store.labels import LATEX_ACCENT, latex_accents

__all__ = [
    "CODE_COMPOUND",
    "STOPWORDS",
    "Sentence",
    "content_terms",
    "coined_lowercase",
    "fold_accents",
    "named_entities",
    "normalize",
    "numbers",
    "quoted_figures",
    "split_sentences",
    "states_figure",
    "tokenize",
]

CODE_COMPOUND = re.compile(
    r"\bcode\s+(?!(?:is|are|was|and|or|available|release[sd]?|releasing|links?|urls?|repositor\w*|on|at|for|of|to|"
    r"publicly|public|open|online|here)\b)[a-z][\w-]*",
    re.I,
)
""""code" as the modifier of the word after it ("code generation", "code LLMs"): a topic, not a
request for a paper's repository."""

_ABBREV = {
    "e.g", "i.e", "et al", "al", "etc", "vs", "fig", "figs", "eq", "eqs", "sec", "cf", "approx", "resp", "no", "dr"
}
# A sentence ends at . ! ? (optionally closed by braces, quotes, emphasis) followed by space and a
# plausible sentence start, or a chat-template token ("<|im_start|>") that opens a message of its own;
# or, in abstracts scraped without the space, at a period between a lower-case word and a capitalised
# one ("trajectory optimizers.While conceptually simple": 112 of the 3,098 ICML 2022-23 abstracts).
_END = re.compile(
    r"[.!?][}\)\]\"'*]*\s+(?=[A-Z0-9\\$(\[*\"'`]|<\|?[a-z_]+\|?>)"
    r"|(?:(?<=[a-z]{2})|(?<=[A-Za-z0-9][)\]]))[.!?](?=[A-Z][a-z]+\b)"
)


@dataclass(frozen=True)
class Sentence:
    """A sentence and its character span in the source text (``text[start:end] == sentence``)."""

    text: str
    start: int
    end: int


def split_sentences(text: str) -> list[Sentence]:
    """Split text into sentences with exact character spans.

    Rule-based: a sentence ends at ``.``, ``!`` or ``?`` followed by white space and an
    upper-case letter, digit, LaTeX command or bracket, or with no space between a lower-case word
    or a closing bracket and a capitalised word ("optimizers.While", "(APGD).We"); common
    abbreviations ("e.g.", "et al.", "Fig.") and decimals never end a sentence.

    Args:
        text: Any text (abstracts may hold LaTeX and Markdown).

    Returns:
        Sentences in order; leading/trailing white space is excluded from each span.
        Fragments of fewer than four words are joined to the following sentence.
    """
    out: list[Sentence] = []
    start = 0
    for m in _END.finditer(text):
        before = text[start : m.start() + 1]
        word = re.search(r"([A-Za-z.]+)\.$", before.rstrip())
        if word and word.group(1).lower().rstrip(".") in _ABBREV:
            continue
        if re.search(r"\bet al\.$", before):
            continue
        end = m.end()
        _append(out, text, start, end)
        start = end
    _append(out, text, start, len(text))
    return _merge_fragments(out, text)


def _merge_fragments(sentences: list[Sentence], text: str, min_words: int = 4) -> list[Sentence]:
    """Join fragments shorter than ``min_words`` words (headings such as "(1) Overhead.") to the next sentence."""
    merged: list[Sentence] = []
    pending: Sentence | None = None
    for s in sentences:
        if pending is not None:
            s = Sentence(text[pending.start : s.end], pending.start, s.end)
            pending = None
        if len(s.text.split()) < min_words:
            pending = s
            continue
        merged.append(s)
    if pending is not None:
        if merged:
            last = merged.pop()
            merged.append(Sentence(text[last.start : pending.end], last.start, pending.end))
        else:
            merged.append(pending)
    return merged


def _append(out: list[Sentence], text: str, start: int, end: int) -> None:
    seg = text[start:end]
    stripped = seg.strip()
    if not stripped:
        return
    s = start + (len(seg) - len(seg.lstrip()))
    out.append(Sentence(stripped, s, s + len(stripped)))


_DASHES = re.compile(r"[\u2010-\u2015\u2212]")


def unify_dashes(text: str) -> str:
    """Unicode hyphens, dashes and minus signs to ``-`` (case and everything else kept)."""
    return _DASHES.sub("-", text)


_MARKUP: list[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]]] = [
    (LATEX_ACCENT, lambda m: latex_accents(m.group(0))),
    (re.compile(r"\\(?:textbf|textit|emph|texttt|mathbf|mathrm|text|b|underline)\{([^{}]*)\}"), r"\1"),
    (re.compile(r"\\%"), "%"),
    (re.compile(r"\*\*|__"), ""),
    (_DASHES, "-"),
    (re.compile(r"\s+"), " "),
]


TEXT_CACHE = 65_536
"""Texts whose :func:`normalize` and :func:`tokenize` results are kept per process (least recently
used dropped first): one question reads the same abstract sentences, titles and parts again at each
stage (membership, refusal, evidence, lead), and the markup patterns cost more than the look-up. Set
to hold every sentence of the 3,136-paper library (about 30,000) with the questions' own texts."""


@functools.lru_cache(maxsize=TEXT_CACHE)
def normalize(text: str) -> str:
    """Lower-case, NFKC, Unicode dashes to ``-``, LaTeX/Markdown emphasis dropped, spaces folded.

    This is the matching rule of the evaluation's answer-fact coverage, applied to both sides.
    Cached per text (:data:`TEXT_CACHE`).
    """
    out = unicodedata.normalize("NFKC", text)
    for _ in range(2):
        for pat, rep in _MARKUP:
            out = pat.sub(rep, out)
    return out.strip().lower()


STOPWORDS = frozenset(
    """a an the and or of to in on for with by from at as is are was were be been being this that these those
    it its it's their there they them we our you your i he she his her which who whom whose what when where why how
    does do did done doing can could should would may might must will shall not no nor than then so such into onto
    over under about across between among each every any all both either neither more most less least very also
    just only own same other some what's paper papers work works method methods approach approaches propose proposed
    proposes use uses used using show shows shown study studies new one two three based via per like
    describe explain tell give list summarize summarise summary compare contrast versus vs much many
    tl dr tldr overview gist recap synopsis
    question answer please main key kind kinds way ways whether if else while during within without
    achieve achieves report reports reach reaches evaluate evaluated improve improves""".split()
)

_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[-'][A-Za-z0-9]+)*|\d+(?:[.,]\d+)*%?")


def _folded(c: str) -> str:
    """``c`` without its accents ("é" -> "e", "ö" -> "o"), or ``c`` when that is not one letter."""
    bare = "".join(x for x in unicodedata.normalize("NFKD", c) if not unicodedata.combining(x))
    return bare if len(bare) == 1 else c


_FOLD = str.maketrans({c: _folded(c) for c in map(chr, range(0xC0, 0x250)) if _folded(c) != c})
"""Latin letters with accents (Latin-1 Supplement and Latin Extended-A/B) to their bare letter."""


def fold_accents(text: str) -> str:
    """``text`` with accented Latin letters bare, one character for one ("Nyström" -> "Nystrom",
    "Rényi" -> "Renyi"), so offsets into the result are offsets into ``text``.

    Abstracts write names with their accents and researchers often type them without; both must
    be the same word ("Which papers use the Nystrom method?"). Letters of other scripts are kept.
    """
    return text if text.isascii() else text.translate(_FOLD)


def tokenize(text: str) -> list[str]:
    """Lower-cased word and number tokens of ``text`` (markup removed, accents folded:
    :func:`fold_accents`), stop words kept; a new list each call, the tokens cached per text
    (:data:`TEXT_CACHE`)."""
    return list(_tokens(text))


@functools.lru_cache(maxsize=TEXT_CACHE)
def _tokens(text: str) -> tuple[str, ...]:
    return tuple(t.lower() for t in _TOKEN.findall(fold_accents(normalize(text))))


def content_terms(text: str) -> list[str]:
    """Tokens of ``text`` without stop words and one-letter tokens, in order, duplicates kept."""
    return [t for t in tokenize(text) if t not in STOPWORDS and len(t) > 1]


_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)*(?:\s?%|x\b|×)?")


def numbers(text: str) -> set[str]:
    """Numbers stated in ``text`` (``"2.33%"``, ``"12.8"``, ``"91,581"``, ``"2x"``), normalised.

    Spaces before ``%`` are removed and thousands separators dropped, so ``"91,581"`` and
    ``"91581"`` compare equal. Citation markers such as ``[3]`` are not numbers of the text.
    """
    plain = re.sub(r"\[\d+(?:\s*,\s*\d+)*\]", " ", normalize(text))
    plain = re.sub(r"\s?\$?\\times\$?", "×", plain)  # LaTeX "65$\times$" states "65×"
    out = set()
    for m in _NUMBER.finditer(plain):
        tok = m.group(0).replace(" ", "").replace("×", "x")
        if re.fullmatch(r"\d{1,3}(,\d{3})+(\.\d+)?%?x?", tok):
            tok = tok.replace(",", "")
        out.add(tok.rstrip("."))
    return out


def quoted_figures(text: str) -> set[str]:
    """The :func:`numbers` of ``text`` that carry a unit or decimals ("65x", "40%", "2.33"): figures
    a question quotes from a result, which identify the paper that states them as a name does
    (bare integers, "3 datasets", do not)."""
    return {n for n in numbers(text) if re.search(r"[%x.]", n)}


_COUNTED = re.compile(
    r"(?<![\w.,$])(\d{1,3}(?:,\d{3})+|\d+)(?![\w.,%x×])\s+([A-Za-z][\w-]*)(?:\s+([A-Za-z][\w-]*))?(?:\s+([A-Za-z][\w-]*))?"
)


_BOUNDED = re.compile(
    r"(?:\b(?:over|above|under|below|more|fewer|less|least|most|to|about|around|nearly|almost|approximately|"
    r"roughly|some|than|within|exceeding|exceeds?)|[~<>≈≤≥])\s*$",
    re.I,
)
"""Words before a number that make it a bound or an estimate ("more than 650", "up to 8",
"about 16"), not an exact count."""


def counted_phrases(text: str) -> list[tuple[str, str]]:
    """Whole numbers and the things they count, as ``(number, words)``: "Why did DANCE use 16 TAG
    datasets?" -> ``[("16", "TAG datasets")]``; "91,581 step-level annotations" -> ``[("91581",
    "step-level annotations")]``.

    The counted words are the one to three words after the number up to a function word ("16
    datasets for" -> "datasets"), as written; the number loses its thousands separators. A
    decimal, a percentage or a multiplier ("2.33%", "3x") counts nothing; nor does a number
    followed by a function word ("in 2023 the ..."), nor a bound or an estimate ("more than 650",
    "up to 8", "about 16").
    """
    out = []
    plain = normalize_case_keep(text)
    for m in _COUNTED.finditer(plain):
        if _BOUNDED.search(plain[max(0, m.start() - 20) : m.start()]):
            continue  # "more than 650 Chinese mobile applications" is no exact count
        words = [w for w in m.groups()[1:] if w]
        if words[0].lower() in STOPWORDS:
            continue
        stop = next((i for i, w in enumerate(words) if w.lower() in STOPWORDS), len(words))
        words = words[:stop]
        out.append((m.group(1).replace(",", ""), " ".join(words)))
    return out


# A figure a text states: digits, or a number word ("three challenges", "two-stage", "twice as
# fast"); "one" is left out, as it is mostly no count ("one-class learning", "one of the").
_FIGURE = re.compile(
    r"\d|\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|hundreds?|thousands?|millions?|"
    r"billions?|dozens?|twice|double[sd]?|triple[sd]?|half|halve[sd]?|fold)\b",
    re.I,
)


def states_figure(text: str) -> bool:
    """Whether ``text`` states any figure: a digit or a number word (``"three"``, ``"twice"``)."""
    return bool(_FIGURE.search(text))


_ENTITY = re.compile(r"\b[A-Za-z]*[A-Z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*\b")


def named_entities(text: str) -> set[str]:
    """Coined names and acronyms in ``text``: tokens with an inner capital or a digit and a capital.

    ``DANCE``, ``Flickr30k``, ``ALFWorld``, ``GSM8K``, ``Graph-R1`` qualify; ordinary
    capitalised words at a sentence start (``The``, ``However``) do not.
    """
    out = set()
    for m in _ENTITY.finditer(normalize_case_keep(text)):
        tok = m.group(0)
        inner = any(c.isupper() for c in tok[1:])
        digit_cap = any(c.isdigit() for c in tok) and any(c.isupper() for c in tok)
        if (inner or digit_cap) and len(tok) >= 2 and not re.fullmatch(r"[A-Z]+s", tok):
            out.add(tok)
    return out


_LOWER_CODED = re.compile(r"\b[a-z]{2,}\d[a-z0-9]*\b")


def coined_lowercase(text: str) -> set[str]:
    """Coined names typed in lower case, which :func:`named_entities` cannot tell from words by
    their capitals: letters then a digit ("resnet50", "gsm8k", "top1", "llama2"), at least three
    characters. Words alone ("imagenet") are not taken: in lower case they look like any word."""
    return set(_LOWER_CODED.findall(text))


def normalize_case_keep(text: str) -> str:
    """Like :func:`normalize` but keeps letter case (for name detection)."""
    out = unicodedata.normalize("NFKC", text)
    for _ in range(2):
        for pat, rep in _MARKUP:
            out = pat.sub(rep, out)
    return out.strip()
