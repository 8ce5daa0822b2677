"""Author names a question states, read against the names the collection's records hold.

"papers by Tri Dao", "what did tri dao publish in 2023", "Dao's work on attention", "T. Dao":
:class:`AuthorIndex` knows every author name of the records (folded: case and accents ignored)
in the forms people write them: the full name, first and last name (middle names and quoted
nicknames left out), initial and last name, and the last name alone when only one author of
the collection bears it and no abstract or title uses it as a word. :func:`read_authors` finds
them in a question and returns the question without the words that only said "by this author"
("papers by", "did ... publish", "'s work"), so that what is left is the topic, if any.

A collection whose records hold no authors (the bundled seed) has an empty index: nothing is
read, and questions are answered as before.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Collection, Iterable
from dataclasses import dataclass

from rag.text import content_terms
from store.papers import Paper

__all__ = ["AuthorIndex", "StatedAuthors", "fold", "read_authors", "stated_person", "topic_left"]

LONGEST_NAME = 5
"""Most words of an author name as written in a question ("Maria del Carmen Lopez Garcia")."""
SHORTEST_LAST_NAME = 3
"""Fewest letters of a last name read alone ("Dao" is read; "Li" alone never is)."""

SHARED_NAME_AUTHORS = 3
"""Most authors a shortened form ("Levine", "S. Levine") may point to when the question marks it
as an author ("papers by Levine", "Levine's work"): each is read (the filter names them all).
Unmarked, a shortened form is read only when it points to one author. Beyond three, a last name
("Wang", "Li") says too little to filter by."""

_TOKEN = re.compile(r"[^\W\d_](?:[^\W\d_]|[-'’.](?=[^\W\d_]))*\.?")
_POSSESSIVE = re.compile(r"['’]s?$")
_NICKNAME = re.compile(r"[“\"(][^”\")]*[”\")]")


def fold(text: str) -> str:
    """Lower case without accents, single spaces: ``"Bernhard  Schölkopf"`` -> ``"bernhard scholkopf"``."""
    decomposed = unicodedata.normalize("NFKD", text)
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).casefold().split())


def _words(name: str) -> tuple[str, ...]:
    return tuple(fold(w).rstrip(".") for w in _TOKEN.findall(_NICKNAME.sub(" ", name)))


class AuthorIndex:
    """Author names of the records and the papers of each (see the module docstring).

    Args:
        papers: Every paper of the collection (those without authors add nothing).
        vocabulary: Lower-cased words of the abstracts and titles: a last name that is also such
            a word ("Bayes", "Newton") is not read alone.
    """

    def __init__(self, papers: Iterable[Paper], vocabulary: Iterable[str] = ()):
        self.papers_of: dict[str, set[str]] = defaultdict(set)  # name as the records write it -> ids
        for p in papers:
            for a in p.authors:
                if a.strip():
                    self.papers_of[a.strip()].add(p.id)
        words = set(vocabulary)
        self.vocabulary = frozenset(words)
        self._forms: dict[tuple[str, ...], set[str]] = defaultdict(set)  # folded words -> names
        self._weak: dict[tuple[str, ...], set[str]] = defaultdict(set)  # forms read only if unambiguous
        for name in self.papers_of:
            w = _words(name)
            if len(w) < 2:
                continue  # a one-word name ("Mayank") is no more than a word
            self._forms[w].add(name)
            self._weak[(w[0], w[-1])].add(name)
            self._weak[(w[0][0], w[-1])].add(name)
            if len(w[-1]) >= SHORTEST_LAST_NAME and w[-1] not in words:
                self._weak[(w[-1],)].add(name)

    def __bool__(self) -> bool:
        return bool(self.papers_of)

    def find(self, text: str) -> list[tuple[int, int, tuple[str, ...]]]:
        """Author names stated in ``text``: ``(start, end, names as the records write them)``,
        left to right, longest first. A full name matches in any case; a shortened form only when
        it points to one author (to at most :data:`SHARED_NAME_AUTHORS` when the question marks it
        as an author: "by Levine"), and a last name alone only when written with a capital."""
        if not self.papers_of:
            return []
        toks = [(m.start(), m.end(), m.group(0)) for m in _TOKEN.finditer(text)]
        out = []
        i = 0
        while i < len(toks):
            for n in range(min(LONGEST_NAME, len(toks) - i), 0, -1):
                span = toks[i : i + n]
                if any(text[x[1] : y[0]].strip() for x, y in zip(span, span[1:], strict=False)):
                    continue  # the words must follow one another ("Dao, Tri" is not read)
                key = tuple(_POSSESSIVE.sub("", fold(t)).rstrip(".") for _, _, t in span)
                names = self._forms.get(key)
                if not names:
                    weak = self._weak.get(key, set())
                    capital = all(t[:1].isupper() for _, _, t in span) or n > 1
                    after = _AFTER.match(text[span[-1][1] :])
                    cued = bool(_BEFORE.search(text[: span[0][0]]) or (after and after.group(0)))
                    shared = SHARED_NAME_AUTHORS if cued else 1
                    names = weak if 1 <= len(weak) <= shared and capital else None
                if names:
                    out.append((span[0][0], span[-1][1], tuple(sorted(names))))
                    i += n
                    break
            else:
                i += 1
        return out


@dataclass(frozen=True)
class StatedAuthors:
    """Authors a question states.

    Attributes:
        names: Author names as the records write them (several when a form is shared, e.g. one
            name written with and without accents).
        papers: Ids of their papers.
        rest: The question without the author phrase; what is left asks for a topic, if anything.
    """

    names: tuple[str, ...]
    papers: frozenset[str]
    rest: str


# The words around a name that only say "by this author": "papers (written) by X", "X's (work)",
# "did X publish", "has X written". They go with the name, so the rest of the question is its topic.
_BEFORE = re.compile(
    r"(?:\b(?:(?:written|authored|co-?authored|published|presented|papers?|works?)\s+)?(?:by|from|of)\s+"
    r"|\b(?:did|does|has|have|had)\s+)$",
    re.I,
)
_AFTER = re.compile(
    r"^(?:['’]s?(?!\w))?(?:\s+(?:publish\w*|write|writes|wrote|written|authored|co-?authored|present\w*|releas\w*|"
    r"(?:(?:has|have)\s+)?work(?:s|ed)?(?:\s+on)?|papers?(?:\s+on)?|stud(?:y|ied))\b)?",
    re.I,
)
# Words that only ask for an author's papers ("show me all of X's work"): no topic.
_LISTING_WORDS = frozenset(
    """work works paper papers publication publications article articles research contribution contributions
    me show list give all everything anything written published wrote""".split()
)


def read_authors(question: str, index: AuthorIndex) -> StatedAuthors | None:
    """The authors ``question`` states (the first name found, with every name of that span), or
    ``None``. Names inside a longer name of the records are not read apart."""
    found = index.find(question)
    if not found:
        return None
    start, end, names = found[0]
    before = _BEFORE.search(question[:start])
    after = _AFTER.match(question[end:])
    a = before.start() if before else start
    b = end + (after.end() if after else 0)
    rest = f"{question[:a].rstrip()} papers {question[b:].lstrip()}".strip()
    rest = re.sub(r"\s+([?.!,])", r"\1", re.sub(r"\s{2,}", " ", rest))
    papers = frozenset(pid for n in names for pid in index.papers_of[n])
    return StatedAuthors(names, papers, rest)


# A person's name after "by" or between "did" and "write": two or more capitalised words.
_PERSON = re.compile(
    r"\b(?:(?:written|authored|co-?authored|papers?|works?|articles?)\s+)?by\s+(?P<a>[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*)+)"
    r"|\b(?:did|does|has|have)\s+(?P<b>[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*)+)\s+(?:write|wr[io]te|written|author|publish)"
)


def stated_person(question: str, vocabulary: Collection[str] = frozenset()) -> str:
    """A person's name the question asks the papers of ("papers by Sergey Levine", "which papers
    did Yoshua Bengio write?"), for when the records name no such author; ``""`` if none. Two
    capitalised words at least ("improved by DANCE" names a method), none a word of the
    abstracts (``vocabulary``, lower case: "guided by Process Reward Models" names a method)."""
    m = _PERSON.search(question)
    if not m:
        return ""
    name = (m.group("a") or m.group("b")).rstrip(".")
    return "" if any(fold(w) in vocabulary for w in name.split()) else name


def topic_left(topic: str) -> bool:
    """Whether a topic asks for more than an author's papers ("attention" does; "me all work" does not)."""
    return any(t not in _LISTING_WORDS for t in content_terms(topic))
