"""The restrictions a question states: a year ("papers from 2023"), a venue the records state
("ICML papers on speech") and authors the records hold ("papers by Tri Dao", "Dao's work on
attention"), or a person no record names ("papers by Sergey Levine").

:func:`read_filters` takes them out of the question, so that what is left is read as the question
(its topic, if any); the route applies them (:class:`rag.route.filters.Filters`). The author names
are matched against the collection's records (:class:`rag.index.authors.AuthorIndex`): the full
name, first and last name, initial and last name, and the last name alone when only one author of
the collection bears it and no abstract uses it as a word. The words around a year, a venue and a
name are classes of ``vocabulary/filters.toml``; the patterns keep only their structure.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from rag.index.authors import LONGEST_NAME, SHARED_NAME_AUTHORS, AuthorIndex, fold, words_of
from rag.question.details import asked_detail
from rag.question.plan import StatedFilters
from rag.text import content_terms
from rag.vocabulary import beside

__all__ = [
    "FILTER_KINDS", "StatedAuthors", "detect_venue", "detect_year", "find_authors", "read_authors", "read_filters",
    "stated_person", "topic_left",
]

_VOCABULARY = beside(__file__, "filters")
_V = {name: cls.source for name, cls in _VOCABULARY.items()}

_TOKEN = re.compile(r"[^\W\d_](?:[^\W\d_]|[-'’.](?=[^\W\d_]))*\.?")
_POSSESSIVE = re.compile(r"['’]s?$")


_YEAR = r"(?:19[5-9]\d|20[0-3]\d)"
# What may follow "from 2023" for it to be a date: the end, punctuation, or a connecting word.
# "trained in 2000 steps" or "in 2010 dimensions" stay numbers.
_FOLLOWER = rf"(?=\s*(?:$|[?.,;:!)\]]|{_VOCABULARY['year_follower'].bare}\b))"
# "from 2023", "published in 2023", "during 2022 about ..."
_YEAR_AFTER = re.compile(
    rf"\s*\b(?:{_V['year_verb']}\s+)?{_V['year_prep']}\s+(?:the\s+year\s+)?"
    rf"({_YEAR})\b{_FOLLOWER}",
    re.I,
)
# "2023 papers", "2022 ICML papers"
_YEAR_BEFORE = re.compile(rf"\b({_YEAR})(?=\s+(?:[A-Z][A-Za-z]+\s+)?{_V['year_noun']})")  # case-sensitive


def detect_year(question: str) -> tuple[int | None, str]:
    """Find a year the question states as a restriction on publication year.

    Args:
        question: The question as asked.

    Returns:
        ``(year, question without the year phrase)``; ``(None, question)`` when none is stated.
        Only explicit forms count: "from/in/during/of YEAR" not followed by a noun, and
        "YEAR papers"; a bare number ("2023 tokens") is never a filter.
    """
    m = _YEAR_AFTER.search(question)
    if m:
        rest = (question[: m.start()] + question[m.end() :]).strip()
        return int(m.group(1)), re.sub(r"\s{2,}", " ", rest)
    m = _YEAR_BEFORE.search(question)
    if m:
        rest = (question[: m.start()] + question[m.end() :]).strip()
        return int(m.group(1)), re.sub(r"\s{2,}", " ", rest)
    return None, question


def detect_venue(question: str, venues: set[str]) -> tuple[str | None, str]:
    """Find a venue of the collection's records the question names ("ICML papers on speech",
    "which papers at ICML use diffusion?", "icml papers").

    Args:
        question: The question as asked.
        venues: The venues the records state (``Paper.venue``).

    Returns:
        ``(venue, question without it and a preposition before it)``; ``(None, question)`` when
        none is named. A venue matches as a whole word, as the records write it or, for an acronym
        ("ICML"), in lower case; "nature" does not name the venue "Nature".
    """
    for venue in sorted(venues, key=len, reverse=True):
        forms = re.escape(venue) + (f"|{re.escape(venue.lower())}" if venue.isupper() else "")
        m = re.search(
            rf"(?:{_V['venue_prep']}\s+(?:the\s+)?)?(?<![\w-])(?:{forms})(?![\w-])(?:\s+(?P<year>{_YEAR})\b)?", question
        )
        if m:
            # "the best paper of ICML 2023": the year of the venue is the year asked ("in 2023")
            year = f" in {m.group('year')} " if m.group("year") else " "
            rest = (question[: m.start()] + year + question[m.end() :]).strip()
            return venue, re.sub(r"\s{2,}", " ", rest)
    if venues and asked_detail(question) != "review outcomes":
        # "NeurIPS papers about GANs" over ICML records: a venue no record states, as typed (its
        # filter matches no paper, and the answer says so); "Which papers were rejected from
        # NeurIPS?" asks a review outcome, which abstracts omit
        m = _OTHER_VENUE.search(question)
        if m:
            rest = (question[: m.start()] + question[m.end() :]).strip()
            return m.group("venue"), re.sub(r"\s{2,}", " ", rest)
    return None, question


_OTHER_VENUE = re.compile(
    rf"(?:{_V['venue_prep']}\s+(?:the\s+)?)?(?<![\w-])(?P<venue>(?i:{_V['known_venue']}))(?![\w-])"
)



def find_authors(index: AuthorIndex, text: str) -> list[tuple[int, int, tuple[str, ...]]]:
    """Author names stated in ``text``: ``(start, end, names as the records write them)``,
    left to right, longest first. A full name matches in any case; a shortened form only when
    it points to one author (to at most :data:`SHARED_NAME_AUTHORS` when the question marks it
    as an author: "by Levine"), and a last name alone only when written with a capital."""
    if not index.papers_of:
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
            names = index.forms.get(key)
            if not names:
                weak = index.weak.get(key, set())
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
_BEFORE = re.compile(rf"(?:(?:{_V['by_lead']}\s+)?{_V['by_prep']}\s+|{_V['name_aux']}\s+)$", re.I)
_AFTER = re.compile(rf"^(?:['’]s?(?!\w))?(?:\s+{_V['after_name']})?", re.I)
# Words that only ask for an author's papers ("show me all of X's work"): no topic.
_LISTING_WORDS = _VOCABULARY["listing_word"].words


# "Ball et al.", "Philip Ball et al.'s": a paper cited by its first author (vocabulary et_al).
_CITED = re.compile(
    rf"(?:(?P<first>[A-Z][\w'’.-]*)\s+)?(?P<last>[A-Z][\w'’-]+)\s+(?i:{_V['et_al']})(?P<own>['’]s?(?!\w))?"
)
CITED_PAPER = "the paper"
"""What a citation by first author ("Ball et al.") leaves in the question: one paper, not a list."""


def _cited(question: str, index: AuthorIndex) -> StatedAuthors | None:
    """A paper cited by its first author's last name ("what do Ball et al. report?"): the papers
    whose first author bears it (written with a capital; a first name before it narrows them),
    else the papers of any author bearing it; ``None`` when no record holds the name."""
    for m in _CITED.finditer(question):
        last = fold(m.group("last")).rstrip("'’")
        named = index.first_authored.get(last, {})
        if not named:  # not first author in the records: any author of that last name
            named = {n: index.papers_of[n] for n in index.papers_of if words_of(n)[-1:] == (last,)}
        start = m.start("last")
        if m.group("first") and named:
            first = fold(m.group("first")).rstrip(".")
            # "Philip Ball et al.", "P. Ball et al."
            narrowed = {n: ids for n, ids in named.items() if first in (words_of(n)[0], words_of(n)[0][:1])}
            if narrowed:
                named, start = narrowed, m.start("first")
        if not named:
            continue
        said = "the" if m.group("own") else CITED_PAPER  # "Ball et al.'s method" -> "the method"
        rest = re.sub(r"\s{2,}", " ", f"{question[:start].rstrip()} {said} {question[m.end():].lstrip()}").strip()
        rest = re.sub(r"\s+([?.!,])", r"\1", rest)
        return StatedAuthors(tuple(sorted(named)), frozenset(pid for ids in named.values() for pid in ids), rest)
    return None


def read_authors(question: str, index: AuthorIndex) -> StatedAuthors | None:
    """The authors ``question`` states (the first name found, with every name of that span), or
    ``None``. Names inside a longer name of the records are not read apart. A paper cited by its
    first author ("Ball et al.") is read first, as that author's first-authored papers."""
    cited = _cited(question, index)
    if cited is not None:
        return cited
    found = find_authors(index, question)
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
_NAME = r"[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*)+"
_PERSON = re.compile(  # case-sensitive: the name's capitals say it is a name
    rf"(?:{_V['person_lead']}\s+)?\bby\s+(?P<a>{_NAME})"
    rf"|{_V['person_aux']}\s+(?P<b>{_NAME})\s+{_VOCABULARY['person_verb'].bare}"
)


def stated_person(question: str, vocabulary: Collection[str] = frozenset()) -> str:
    """A person's name the question asks the papers of ("papers by Sergey Levine", "which papers
    did Yoshua Bengio write?"), for when the records name no such author; ``""`` if none. Two
    capitalised words at least ("improved by DANCE" names a method), not all of them words of the
    abstracts (``vocabulary``, lower case: "guided by Process Reward Models" names a method; an
    abstract may cite "the formulation by Hinton (1999)", yet "Geoffrey Hinton" is a person)."""
    m = _PERSON.search(question)
    if not m:
        return ""
    name = (m.group("a") or m.group("b")).rstrip(".'’\"”")  # "... by Gradient Descent'": the quote closes a title
    return "" if all(fold(w.strip("'’\"”“")) in vocabulary for w in name.split()) else name


def topic_left(topic: str) -> bool:
    """Whether a topic asks for more than an author's papers ("attention" does; "me all work" does not)."""
    return any(t not in _LISTING_WORDS for t in content_terms(topic))


FILTER_KINDS = frozenset({"year", "venue", "author"})
"""The kinds of restriction a question may state."""


def read_filters(
    query: str,
    venues: Collection[str],
    authors: AuthorIndex | None,
    vocabulary: Collection[str] = frozenset(),
    kinds: Collection[str] = FILTER_KINDS,
) -> tuple[StatedFilters, str]:
    """The restrictions ``query`` states and the query without their phrases.

    In order: a year ("from 2023", "2022 papers"; not when it is the whole question), a venue of
    the records (not when nothing else is left), then authors the records hold; when none is held,
    a person's name the question asks the papers of ("papers by Sergey Levine") is kept in
    :attr:`StatedFilters.person` and the query is left as it is.

    Args:
        query: The question (instructions and greetings already removed).
        venues: The venues the records state.
        authors: The collection's author names (``None``: none are read).
        vocabulary: Lower-cased words of the abstracts (a "name" made of them is a method).
        kinds: Which restrictions to read (a kind the user set explicitly is not read: its phrase
            stays in the question).

    Returns:
        ``(stated, rest)``; ``rest`` is ``query`` when nothing is stated.
    """
    rest = query
    year, stripped = detect_year(rest) if "year" in kinds else (None, rest)
    if year is not None and stripped.strip():
        rest = stripped
    else:
        year = None
    venue, stripped = detect_venue(rest, set(venues)) if "venue" in kinds else (None, rest)
    if venue is not None and stripped.strip():
        rest = stripped
        if year is None and "year" in kinds:  # "ICML 2023 papers on speech": its year too
            found, stripped = detect_year(rest)
            if found is not None and stripped.strip():
                year, rest = found, re.sub(r"\s+(?=[?.!,;:])", "", stripped)
    else:
        venue = None
    if "author" not in kinds or authors is None:
        return StatedFilters(year, venue or ""), rest
    held = read_authors(rest, authors) if authors else None
    if held is not None:
        return StatedFilters(year, venue or "", held.names, held.papers), held.rest
    return StatedFilters(year, venue or "", person=stated_person(rest, vocabulary)), rest
