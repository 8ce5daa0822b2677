"""The one normalisation of text that enters paperchat: ingest fields, questions, page messages.

Every input path calls :func:`clean_text`, so a lone UTF-16 surrogate (from a JSON ``\\ud800``
escape, or from undecodable bytes in ``sys.argv``, which Python passes on as ``surrogateescape``
code points), a stray control character or a decomposed accent is handled the same way wherever
it arrives. :func:`limit_text` trims over-long input and says so.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = [
    "REPLACEMENT",
    "CollectionWords",
    "TextEdit",
    "clean_text",
    "count_lone_surrogates",
    "limit_text",
    "repair_all",
    "repair_breaks",
    "undo_edits",
]

REPLACEMENT = "\ufffd"
"""U+FFFD REPLACEMENT CHARACTER: what a lone surrogate or an unusable code point becomes."""

_SURROGATE = re.compile("[\ud800-\udfff]")
# C0 and C1 controls except tab and newline, DEL, bidirectional embeddings/overrides/isolates
# (they reorder what a reader sees), and U+FEFF (a byte-order mark inside text).
_DROP = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ufeff]")
_NONCHAR = re.compile("[\ufffe\uffff]")
_SPACES = re.compile(r"[^\S\n]+")
_BLANK_LINES = re.compile(r"\n\s*\n\s*(?:\n\s*)+")


def count_lone_surrogates(text: str) -> int:
    """Number of UTF-16 surrogate code points in ``text`` (a valid Python ``str`` has none
    unless a JSON escape such as ``\\ud800`` or ``surrogateescape`` decoding put them there)."""
    return len(_SURROGATE.findall(text))


def clean_text(text: str, *, multiline: bool = False) -> str:
    """Normalise text at the input boundary; the same rules for every path.

    1. lone surrogates (U+D800-U+DFFF) and the non-characters U+FFFE/U+FFFF become U+FFFD
       (a well-formed surrogate *pair* written as two JSON escapes was already joined by the
       JSON decoder, so every surrogate left here is lone);
    2. Unicode NFC (``e`` + combining acute -> ``é``), so the same word always has one form;
    3. control characters are dropped, except newline and tab: C0/C1 controls, DEL,
       bidirectional overrides and isolates (U+202A-U+202E, U+2066-U+2069) and U+FEFF;
       ``\\r\\n`` therefore becomes ``\\n``;
    4. white space is folded: with ``multiline=False`` every run (newlines included) becomes
       one space; with ``multiline=True`` runs within a line become one space, lines are
       stripped and at most one blank line is kept. The result is stripped.

    Args:
        text: Any ``str`` (``None`` is treated as ``""``).
        multiline: Keep line breaks (see 4).

    Returns:
        The normalised text; encodable as UTF-8 (never raises ``UnicodeEncodeError``).

    Examples:
        >>> clean_text("  Cafe\\u0301\\x00 \\ud800 ok\\n\\tnow ")
        'Café \\ufffd ok now'
    """
    if not text:
        return ""
    text = _SURROGATE.sub(REPLACEMENT, text)
    text = _NONCHAR.sub(REPLACEMENT, text)
    text = unicodedata.normalize("NFC", text)
    text = _DROP.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))
    if not multiline:
        return " ".join(text.split())
    lines = [_SPACES.sub(" ", line).strip() for line in text.split("\n")]
    return _BLANK_LINES.sub("\n\n", "\n".join(lines)).strip()


def limit_text(text: str, max_chars: int) -> tuple[str, str]:
    """Trim ``text`` to at most ``max_chars`` characters, at a word boundary when one is near.

    Args:
        text: Normalised text (see :func:`clean_text`).
        max_chars: Largest length kept, in characters (> 0).

    Returns:
        ``(text, notice)``: the text itself and ``""`` when it fits; else the first part
        (cut at the last space within the final 20% of the limit, or at the limit) and a
        sentence saying how long the text was and how much of it is used.
    """
    if len(text) <= max_chars:
        return text, ""
    cut = text[:max_chars]
    space = cut.rfind(" ")
    if space >= int(max_chars * 0.8):
        cut = cut[:space]
    cut = cut.rstrip()
    notice = (
        f"The question is {len(text):,} characters long; only its first {len(cut):,} were used "
        f"(the limit is {max_chars:,}). Ask a shorter question to use all of it."
    )
    return cut, notice


# --- line-break artefacts ------------------------------------------------------------------
#
# Abstracts copied out of PDFs keep the hyphen a line break put into a word ("atmo- spheric",
# "per- formance") and lose the space a line break stood for ("Transformermodel"). Lexical search,
# the glossary and quotes then miss the word. :func:`repair_breaks` mends what the evidence shows:
# an English dictionary (``simplemma``) and the other documents of the collection
# (:class:`CollectionWords`); a hyphen before "and"/"or"/"to" ("first- and second-order") is a
# suspended hyphen and stays as written.

SUSPENDED_LINKS = frozenset({"and", "or", "to", "nor", "vs", "versus"})
"""Words after which "X- " is a suspended hyphen ("pre- and post-training", "low- to mid-"):
kept as written."""

SPLIT_MIN_PART_DOCS = 20
"""A run-together word is split only when each part is a word of at least this many documents of
the collection. Calibration (3,136 ICML 2022-23 and ICML 2026 abstracts and titles, together with
:data:`SPLIT_MIN_PAIR_DOCS`): 72 splits, every one checked by hand; none wrong once a word before
"(" (notation such as "loglog(T)") is left alone. With 1 other document for the pair instead of 2,
coined terms were split ("pseudometric", "\\emph{datamodeling}")."""

SPLIT_MIN_PAIR_DOCS = 2
"""... and the two parts stand as two words, in that order, in at least this many other documents."""

PREFIX_MIN_DOCS = 2
"""A word part written before a hyphen in at least this many other documents ("re-", "co-",
"uni-") is a prefix: "re-solve" and "co-variance" are spellings, not broken words. Calibration
(same 3,136 records): 24 "ab-cd" whose "abcd" is a word and hyphenated nowhere else; the 18
spellings among them all have a word after the hyphen (what :func:`_inner` checks first; "en-ables",
cut by a line break, has one too and is left), and 17 of them a first part put before a hyphen in
7 to 45 other documents ("up-sampling": 0); the first parts of the 5 broken words ("genera-tion",
"prac-titioners", "par-allel") in none. A second safeguard, for a fragment the dictionary
calls a word."""

SPLIT_MIN_LENGTH = 6
"""Shortest run-together word considered for a split (characters)."""

_SPACED_HYPHEN = re.compile(r"(?<![A-Za-z])([A-Za-z]+)- ([a-z]+)(?![A-Za-z-])")
_INNER_HYPHEN = re.compile(r"(?<![\w./-])([A-Za-z]+)-([a-z]+)(?![\w/-])")
_RUN_TOGETHER = re.compile(r"(?<![\w\-./\\$])([a-z]+|[A-Z][a-z]+)(?![\w\-(])")
_HYPHENATED = re.compile(r"[a-z]+(?:-[a-z]+)+")
_ALPHA = re.compile(r"[A-Za-z]+")


@functools.lru_cache(maxsize=50_000)
def _english(word: str) -> bool:
    """Whether ``simplemma``'s English dictionary holds ``word`` (lower-cased)."""
    import simplemma

    return bool(simplemma.is_known(word.lower(), lang="en"))


def _keys(text: str) -> set[str]:
    """The words a document holds, lower-cased: every word, every hyphenated pair ``"a-b"``
    (``"out-of-distribution"`` gives ``"out-of"`` and ``"of-distribution"``), every part that
    stands before a hyphen as ``"a-"``."""
    keys = set(_ALPHA.findall(text.lower()))
    for m in _HYPHENATED.finditer(text.lower()):
        parts = m.group(0).split("-")
        for a, b in zip(parts, parts[1:], strict=False):
            keys.add(f"{a}-{b}")
            keys.add(f"{a}-")
    return keys


def _bigrams(text: str) -> set[str]:
    """Consecutive words of ``text``, lower-cased, as ``"a b"``."""
    words = [w.lower() for w in _ALPHA.findall(text)]
    return {f"{a} {b}" for a, b in zip(words, words[1:], strict=False)}


@dataclass(frozen=True)
class TextEdit:
    """One repair in a text.

    Attributes:
        start: Offset of ``after`` in the repaired text (characters).
        before: The text as the source wrote it (``"atmo- spheric"``).
        after: The text stored (``"atmospheric"``).
        kind: ``"join"`` (a word a line break cut), ``"hyphen"`` (a compound whose hyphen a line
            break ended: "two- stage" -> "two-stage") or ``"split"`` (two words run together).
    """

    start: int
    before: str
    after: str
    kind: str


class CollectionWords:
    """How many documents of a collection hold each word: the evidence :func:`repair_breaks`
    weighs. A text is compared with the *other* documents (its own words are not counted for it).

    Args:
        texts: Every document of the collection (title and abstract of each paper), in any
            order; a text given twice counts twice.
    """

    def __init__(self, texts: Iterable[str]):
        self.texts = list(texts)
        self.docs: Counter[str] = Counter()
        for t in self.texts:
            self.docs.update(_keys(t))
        self._pairs: Counter[str] = Counter()
        self._wanted: set[str] = set()

    def elsewhere(self, key: str, own: set[str]) -> int:
        """Documents holding ``key`` besides the one whose keys are ``own`` (0..len(texts))."""
        return self.docs[key] - (key in own)

    def want(self, pairs: Iterable[str]) -> None:
        """Count the documents of each of ``pairs`` (``"a b"``) in one pass over the collection,
        so that :meth:`pair_docs` answers them without reading it again."""
        fresh = set(pairs) - self._wanted
        if not fresh:
            return
        self._wanted |= fresh
        for t in self.texts:
            self._pairs.update(_bigrams(t) & fresh)

    def pair_docs(self, pair: str) -> int:
        """Documents in which the words of ``pair`` (``"a b"``) stand one after the other."""
        self.want([pair])
        return self._pairs[pair]


def _spaced(m: re.Match[str], words: CollectionWords, own: set[str]) -> tuple[str, str] | None:
    """"ab- cd": joined ("abcd") when the dictionary or another document knows the word and the
    hyphenated form is not the more common; hyphenated ("ab-cd") when other documents write it so
    more often than joined; else (a dash, no evidence) left as written."""
    a, b = m.group(1), m.group(2)
    if b in SUSPENDED_LINKS:
        return None
    joined, hyphened = (a + b).lower(), f"{a}-{b}".lower()
    as_one, as_two = words.elsewhere(joined, own), words.elsewhere(hyphened, own)
    if as_two > as_one:
        return f"{a}-{b}", "hyphen"
    if as_one or _english(joined):
        return a + b, "join"
    return None


def _inner(m: re.Match[str], words: CollectionWords, own: set[str]) -> tuple[str, str] | None:
    """"ab-cd" with no space is a spelling unless every sign says it is a word cut in two: the
    joined word is in the dictionary and in another document, no other document hyphenates it so,
    the part after the hyphen is no word by itself ("genera-tion", "par-allel"; not
    "spatio-temporal", "up-sampling"), and the first part is no prefix other documents put before
    a hyphen (:data:`PREFIX_MIN_DOCS`: "re-solve", "co-variance")."""
    a, b = m.group(1), m.group(2)
    joined, hyphened = (a + b).lower(), f"{a}-{b}".lower()
    if words.elsewhere(hyphened, own) or not words.elsewhere(joined, own) or not _english(joined):
        return None
    if _english(b):  # "spatio-temporal", "up-sampling": the part after the hyphen is a word
        return None
    if words.elsewhere(f"{a.lower()}-", own) >= PREFIX_MIN_DOCS:
        return None
    return a + b, "join"


def _cuts(w: str, words: CollectionWords, own: set[str], seen: Counter[str]) -> list[tuple[int, str]]:
    """The cuts of a run-together word ``w`` that every test but the pair count passes (see
    :func:`_run_together`): ``(offset, "a b")`` each."""
    low = w.lower()
    if len(low) < SPLIT_MIN_LENGTH or seen[low] > 1 or words.elsewhere(low, own) or _english(low):
        return []
    forms = (low + "s", low[:-1] if low.endswith("s") else low + "es", low + "ed", low + "ing")
    if any(words.docs[f] for f in forms):
        return []
    cuts = []
    for k in range(2, len(low) - 1):
        a, b = low[:k], low[k:]
        if words.docs[a] < SPLIT_MIN_PART_DOCS or words.docs[b] < SPLIT_MIN_PART_DOCS:
            continue
        if _english(a) and _english(b) and not words.docs[f"{a}-{b}"]:
            cuts.append((k, f"{a} {b}"))
    return cuts


def _run_together(
    m: re.Match[str], words: CollectionWords, own: set[str], seen: Counter[str], own_pairs: set[str]
) -> tuple[str, str] | None:
    """"moreefficient" -> "more efficient", only on strong evidence: the whole is in no dictionary,
    no other document and no other place of this one, nor is a form of it ("keypoints" when
    "keypoint" occurs); exactly one cut gives two dictionary words, each in
    :data:`SPLIT_MIN_PART_DOCS` documents, standing as two words in :data:`SPLIT_MIN_PAIR_DOCS`
    other documents and never hyphenated ("multi-label" makes "multilabel" a spelling)."""
    w = m.group(1)
    cuts = [
        k
        for k, pair in _cuts(w, words, own, seen)
        if words.pair_docs(pair) - (pair in own_pairs) >= SPLIT_MIN_PAIR_DOCS
    ]
    if len(cuts) != 1:
        return None
    return f"{w[: cuts[0]]} {w[cuts[0] :]}", "split"


def _rare_words(
    text: str, words: CollectionWords, keys: set[str], counted: bool
) -> tuple[list[re.Match[str]], Counter[str]]:
    """The places of ``text`` a run-together word may stand (:data:`_RUN_TOGETHER` matches of a
    word of at least :data:`SPLIT_MIN_LENGTH` letters no other document holds: the only ones
    :func:`_cuts` can accept), and how often each such word stands there."""
    rare = {k for k in keys if len(k) >= SPLIT_MIN_LENGTH and words.docs[k] <= int(counted)}
    if not rare:
        return [], Counter()
    found = [m for m in _RUN_TOGETHER.finditer(text) if m.group(1).lower() in rare]
    return found, Counter(m.group(1).lower() for m in found)


def repair_breaks(
    text: str, words: CollectionWords, *, counted: bool = True, own: set[str] | None = None
) -> tuple[str, tuple[TextEdit, ...]]:
    """Mend the line-break artefacts of ``text`` that the collection's evidence shows.

    Three repairs (see :func:`_spaced`, :func:`_inner`, :func:`_run_together`): "atmo- spheric" ->
    "atmospheric" and "two- stage" -> "two-stage"; "genera-tion" -> "generation"; "moreefficient"
    -> "more efficient". "first- and second-order" stays as written (:data:`SUSPENDED_LINKS`), and
    so does anything the evidence does not decide.

    Args:
        text: Normalised text (:func:`clean_text`).
        words: Counts of the collection.
        counted: ``text`` is one of the documents ``words`` counted (its own words are then not
            evidence for it).
        own: The words of ``text`` (:func:`_keys`) when the caller has them already.

    Returns:
        ``(repaired, edits)``; :func:`undo_edits` gives ``text`` back from them.
    """
    keys = own if own is not None else _keys(text)
    own = keys if counted else set()
    rare, seen = _rare_words(text, words, keys, counted)
    found: list[tuple[int, int, str, str]] = []
    for m in _SPACED_HYPHEN.finditer(text):
        if got := _spaced(m, words, own):
            found.append((m.start(), m.end(), *got))
    for m in _INNER_HYPHEN.finditer(text):
        if got := _inner(m, words, own):
            found.append((m.start(), m.end(), *got))
    own_pairs = _bigrams(text) if counted and rare else set()
    for m in rare:
        if got := _run_together(m, words, own, seen, own_pairs):
            found.append((m.start(), m.end(), *got))
    if not found:
        return text, ()
    out: list[str] = []
    edits: list[TextEdit] = []
    pos = length = 0
    for start, end, after, kind in sorted(found):
        if start < pos:  # overlapping matches: the first one stands
            continue
        out.append(text[pos:start])
        length += start - pos
        edits.append(TextEdit(length, text[start:end], after, kind))
        out.append(after)
        length += len(after)
        pos = end
    out.append(text[pos:])
    return "".join(out), tuple(edits)


def repair_all(texts: list[str], words: CollectionWords) -> list[tuple[str, tuple[TextEdit, ...]]]:
    """:func:`repair_breaks` of each of ``texts`` (documents ``words`` counted), reading the
    collection once for the word pairs all of them ask about."""
    wanted: set[str] = set()
    owns = []
    for text in texts:
        owns.append(_keys(text))
        rare, seen = _rare_words(text, words, owns[-1], True)
        for m in rare:
            wanted.update(pair for _, pair in _cuts(m.group(1), words, owns[-1], seen))
    words.want(wanted)
    return [repair_breaks(text, words, own=own) for text, own in zip(texts, owns, strict=True)]


def undo_edits(text: str, edits: Iterable[TextEdit]) -> str:
    """The text as the source wrote it: ``text`` with each of :func:`repair_breaks`' ``edits``
    taken back (``undo_edits(*repair_breaks(t, w)) == t``)."""
    for e in sorted(edits, key=lambda e: e.start, reverse=True):
        if text[e.start : e.start + len(e.after)] != e.after:
            raise ValueError(f"edit {e} does not match the text")
        text = text[: e.start] + e.before + text[e.start + len(e.after) :]
    return text
