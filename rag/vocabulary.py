"""Word classes as data: reviewed tables of words and phrases, each class with one job.

The question reader (:mod:`rag.question`) and the evidence stage (:mod:`rag.evidence`) recognise
what a text says by classes of words ("words that ask to compare", "set nouns", "cues of a gap
sentence"), not by one pattern per phrasing. Each class lives in a TOML file next to the code that
composes it::

    [compare]
    job = "Words that ask to compare papers."
    examples = ["Compare DANCE and APM", "DANCE vs APM"]      # each must match (tested)
    counter = ["a comparable baseline is missing"]          # none may match (tested; optional)
    phrases = ["compar*", "contrast*", "versus", "vs", "in common"]
    words = '''optional long word lists, whitespace separated'''
    contrary = ["other"]       # optional: classes whose words state the contrary of this one's
    distinct = true            # optional: its words are no one sense, each is one of its own

A row is a phrase of tokens matched as whole words, case-insensitive, with white space between:

* ``word*``: the word and any ending ("compar*": compare, compared, comparison);
* ``word[s]``: an optional ending in brackets ("paper[s]", "weakness[es]");
* ``[the]``: a whole token in brackets is an optional word (also at the end: "outside [of]");
* ``{name}``: any phrase of another class of the same file ("{venue}"); ``[{name}]``: optionally one;
* ``~N``: up to N words of anything ("what is ~6 about");
* anything else is literal ("tl;dr", "vs.", "ir@1").

A row matches as whole words: a word boundary stands before and after each literal token where it
begins or ends with a word character ("vs." ends with none, so "vs. APM" matches); a ``{name}``
token brings the boundaries of the other class's rows. Rows are tried longest first, so that
"in terms of" wins over "in" and "outside of" over "outside" at one place.

A class gives its rows as a set (:attr:`WordClass.words`, for membership of one lower-case word),
a compiled pattern (:meth:`WordClass.search`, :meth:`WordClass.finditer`) and the pattern's source
(:attr:`WordClass.source`) for code that composes classes into a structure ("a relating verb after
a frame"); :attr:`WordClass.bare` is the same alternation without the outer word boundaries, for a
structure that sets its own (a class matched as the start of a longer word). A new phrasing is a
row of a table, with its example; code holds no word lists.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Vocabulary", "WordClass", "beside", "load", "phrase_source"]

_TOKEN_GAP = re.compile(r"~(\d+)")
_REF = re.compile(r"\{(\w+)\}")
_SUFFIX = re.compile(r"\[([^\[\]\s]+)\]")


def _word_source(token: str) -> str:
    """The regex source of one token of a row (see the module docstring)."""
    out = []
    i = 0
    for m in _SUFFIX.finditer(token):
        out.append(re.escape(token[i : m.start()]))
        out.append(f"(?:{re.escape(m.group(1))})?")
        i = m.end()
    rest = token[i:]
    star = rest.endswith("*")
    out.append(re.escape(rest[:-1] if star else rest))
    if star:
        out.append(r"[\w'’-]*" if rest[:-1].endswith("-") else r"\w*")
    return "".join(out)


def phrase_source(phrase: str, classes: Mapping[str, str] | None = None, *, bounded: bool = False) -> str:
    """The regex source of one row: its tokens joined by white space. ``classes`` maps class names
    to their sources for ``{name}`` tokens. With ``bounded``, each literal token has a word
    boundary where it begins or ends with a word character (:attr:`WordClass.source` uses this).

    >>> phrase_source("compar*")
    'compar\\\\w*'
    >>> phrase_source("paper[s] [the] end")
    'paper(?:s)?\\\\s+(?:the\\\\s+)?end'
    >>> phrase_source("outside [of]")
    'outside(?:\\\\s+of)?'

    Raises:
        KeyError: a ``{name}`` token names no class of ``classes``.
        ValueError: every token of the row is optional (it would match nothing).
    """
    toks: list[tuple[str, str]] = []  # (source, "word" | "optional" | "gap")
    for tok in phrase.split():
        optional = tok.startswith("[") and tok.endswith("]") and len(tok) > 2
        inner = tok[1:-1] if optional else tok
        gap = _TOKEN_GAP.fullmatch(tok)
        ref = _REF.fullmatch(inner)
        if gap:
            toks.append((gap.group(1), "gap"))
            continue
        if ref:
            if classes is None or ref.group(1) not in classes:
                raise KeyError(f"unknown word class {{{ref.group(1)}}} in phrase {phrase!r}")
            src = f"(?:{classes[ref.group(1)]})"
        else:
            src = _word_source(inner)
            if bounded:
                word = inner.replace("[", "").replace("]", "").replace("*", "a")
                src = (r"\b" if _is_word_char(word[:1]) else "") + src + (r"\b" if _is_word_char(word[-1:]) else "")
        toks.append((src, "optional" if optional else "word"))
    required = [i for i, (_, kind) in enumerate(toks) if kind == "word"]
    if not required:
        raise ValueError(f"row {phrase!r} has no required token")
    last = required[-1]
    parts: list[str] = []
    for i, (src, kind) in enumerate(toks):
        if kind == "gap":  # words of anything, each with the space after it (before it at the end)
            parts.append(rf"(?:\S+\s+){{0,{src}}}" if i < last else rf"(?:\s+\S+){{0,{src}}}")
        elif i > last:  # an optional token after the last required one: "outside [of]"
            parts.append(rf"(?:\s+{src})?")
        elif kind == "optional":
            parts.append(rf"(?:{src}\s+)?")
        else:
            parts.append(src + (r"\s+" if i < last else ""))
    return "".join(parts)


def _is_word_char(c: str) -> bool:
    return c.isalnum() or c == "_"


@dataclass(frozen=True)
class WordClass:
    """One class of words or phrases with one job (see the module docstring).

    Attributes:
        name: The class's name in its file (``"compare"``).
        job: What the class is for, in one sentence.
        phrases: The rows, in file order (phrases, then the whitespace-separated ``words``).
        examples: Texts the class must find something in.
        counter: Texts it must find nothing in.
        source: Regex source matching any row as whole words (a non-capturing group).
        bare: The same alternation without the word boundaries around the rows' outer ends, for a
            structure that sets its own ("acl" as the end of a longer word); ``{name}`` tokens in
            it keep the other class's boundaries.
        contrary: The names of the classes of the same file whose words state the contrary of this
            class's ("single" and "multiple"; ``[]`` for most classes).
        distinct: Its words are each a sense of their own, not one sense ("two", "three"): a reader of
            senses takes only its ``contrary``.
    """

    name: str
    job: str
    phrases: tuple[str, ...]
    examples: tuple[str, ...] = ()
    counter: tuple[str, ...] = ()
    source: str = ""
    _pattern: re.Pattern[str] = field(default=re.compile(""), repr=False, compare=False)
    bare: str = ""
    contrary: tuple[str, ...] = ()
    distinct: bool = False

    @property
    def words(self) -> frozenset[str]:
        """The rows that are one plain word, lower case (no ``*``, brackets or references)."""
        return frozenset(
            p.lower() for p in self.phrases if " " not in p and not any(c in p for c in "*[]{}~")
        )

    @property
    def pattern(self) -> re.Pattern[str]:
        """The compiled pattern of :attr:`source` (case-insensitive)."""
        return self._pattern

    def search(self, text: str) -> re.Match[str] | None:
        """The first row found in ``text`` (as whole words), or ``None``."""
        return self._pattern.search(text)

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        """Every row found in ``text``, left to right, not overlapping."""
        return self._pattern.finditer(text)

    def fullmatch(self, text: str) -> bool:
        """Whether ``text`` (stripped) is one row."""
        return self._pattern.fullmatch(text.strip()) is not None

    def sub(self, repl: str, text: str) -> str:
        """``text`` with every row found replaced by ``repl``."""
        return self._pattern.sub(repl, text)

    def __contains__(self, word: object) -> bool:
        """Whether one word (any case) is a row of this class: a plain row, or a ``*`` row it extends."""
        return isinstance(word, str) and self._pattern.fullmatch(word) is not None


class Vocabulary(Mapping[str, WordClass]):
    """The word classes of one TOML file, by name.

    Args:
        path: The file (see the module docstring for its format).

    Raises:
        ValueError: a class lacks a job or rows, or refers to an unknown class or to itself.
    """

    def __init__(self, path: Path):
        self.path = Path(path)
        with self.path.open("rb") as fh:
            raw = tomllib.load(fh)
        sources: dict[str, str] = {}
        self._classes: dict[str, WordClass] = {}
        pending = dict(raw)
        while pending:  # classes that use {other} are built after it
            ready = [n for n, spec in pending.items() if all(r in sources for r in self._refs(n, spec))]
            if not ready:
                stuck = sorted(pending)
                raise ValueError(f"{self.path}: word classes refer to unknown classes or to each other: {stuck}")
            for name in ready:
                self._build(name, pending.pop(name), sources)
        unknown = {c for cls in self._classes.values() for c in cls.contrary} - set(self._classes)
        if unknown:
            raise ValueError(f"{self.path}: contrary of unknown classes {sorted(unknown)}")

    @staticmethod
    def _rows(spec: dict) -> tuple[str, ...]:
        return tuple(spec.get("phrases", ())) + tuple(str(spec.get("words", "")).split())

    def _refs(self, name: str, spec: dict) -> set[str]:
        return {m.group(1) for p in self._rows(spec) for m in _REF.finditer(p)} - {name}

    def _build(self, name: str, spec: dict, sources: dict[str, str]) -> None:
        rows = self._rows(spec)
        if not spec.get("job") or not rows:
            raise ValueError(f"{self.path}: class [{name}] needs a job and at least one row")
        # Longest rows first, so that "in terms of" wins over "in" and "outside of" over "outside"
        # where both match at one place (as a greedy optional word would).
        ordered = sorted(rows, key=lambda p: (-len(p), p))
        source = "(?:" + "|".join(phrase_source(p, sources, bounded=True) for p in ordered) + ")"
        bare = "(?:" + "|".join(phrase_source(p, sources) for p in ordered) + ")"
        sources[name] = source
        self._classes[name] = WordClass(
            name, str(spec["job"]), rows, tuple(spec.get("examples", ())), tuple(spec.get("counter", ())), source,
            re.compile(source, re.I), bare, tuple(spec.get("contrary", ())), bool(spec.get("distinct", False)),
        )

    def __getitem__(self, name: str) -> WordClass:
        return self._classes[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._classes)

    def __len__(self) -> int:
        return len(self._classes)

    @property
    def rows(self) -> int:
        """How many rows the file's classes hold in all."""
        return sum(len(c.phrases) for c in self._classes.values())


@functools.cache
def load(path: str) -> Vocabulary:
    """The vocabulary of a file, read once per process."""
    return Vocabulary(Path(path))


def beside(module_file: str, name: str) -> Vocabulary:
    """The vocabulary ``vocabulary/<name>.toml`` in the folder of a module (pass ``__file__``), read once."""
    return load(str(Path(module_file).with_name("vocabulary") / f"{name}.toml"))
