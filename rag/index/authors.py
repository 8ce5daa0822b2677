"""The author names the collection's records hold, in the forms people write them.

:class:`AuthorIndex` knows every author name of the records (folded: case and accents ignored)
as the full name, first and last name (middle names and quoted nicknames left out), initial and
last name, and the last name alone when only one author of the collection bears it and no
abstract or title uses it as a word. The question reader finds them in a question ("papers by Tri
Dao", "Dao's work on attention": :func:`rag.question.filters.read_authors`).

A collection whose records hold no authors (the bundled seed) has an empty index: nothing is
read, and questions are answered as before.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable

from store.papers import Paper

__all__ = ["LONGEST_NAME", "SHARED_NAME_AUTHORS", "SHORTEST_LAST_NAME", "AuthorIndex", "fold", "words_of"]

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


def words_of(name: str) -> tuple[str, ...]:
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
        papers_list = list(papers)
        for p in papers_list:
            for a in p.authors:
                if a.strip():
                    self.papers_of[a.strip()].add(p.id)
        words = set(vocabulary)
        self.vocabulary = frozenset(words)
        self.forms: dict[tuple[str, ...], set[str]] = defaultdict(set)  # folded words -> names
        self.weak: dict[tuple[str, ...], set[str]] = defaultdict(set)  # forms read only if unambiguous
        # "Ball et al.": a paper cited by its first author's last name, read whatever else the word
        # means ("ball", "long"): folded last name -> first author's name -> ids of those papers
        self.first_authored: dict[str, dict[str, set[str]]] = {}
        for p in papers_list:
            names = [a.strip() for a in p.authors if a.strip()]
            if names and (w := words_of(names[0])):
                self.first_authored.setdefault(w[-1], {}).setdefault(names[0], set()).add(p.id)
        for name in self.papers_of:
            w = words_of(name)
            if len(w) < 2:
                continue  # a one-word name ("Mayank") is no more than a word
            self.forms[w].add(name)
            self.weak[(w[0], w[-1])].add(name)
            self.weak[(w[0][0], w[-1])].add(name)
            if len(w[-1]) >= SHORTEST_LAST_NAME and w[-1] not in words:
                self.weak[(w[-1],)].add(name)

    def __bool__(self) -> bool:
        return bool(self.papers_of)
