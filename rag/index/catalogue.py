"""The paper catalogue: every paper of the collection by id, and the names that point to them.

A question names a paper by its method name ("DANCE", "dance", "DANSE"), by a coined term only
its abstract uses ("ALFWorld"), by its id, or describes it. :class:`NameIndex` finds the first
three in any text; :class:`Catalogue` holds the papers with their names and vocabulary, and is
what the question model (:mod:`rag.question.reader`) and the answering stages read.
"""

from __future__ import annotations

import functools
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence

from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA, Levenshtein

from rag.index.authors import AuthorIndex
from rag.lexicon import american, english_word, lemma, stem
from rag.text import STOPWORDS, named_entities, normalize, normalize_case_keep
from store.distinct import distinct_labels
from store.labels import title_name
from store.papers import Paper

__all__ = ["TERM_SHARE", "Catalogue", "NameIndex"]

_RUN = re.compile(r"[\w-]+")
_WORD = re.compile(r"[A-Za-z][\w-]*")


def _bounded(key: str) -> re.Pattern[str]:
    """``key`` as a whole name: not inside a longer word or hyphenated compound."""
    return re.compile(rf"(?<![\w-]){re.escape(key)}(?![\w-])")


# Largest share of the abstracts a coined term (not a name) may appear in and still point to
# its papers: "ALFWorld" (2 of 38) does, "LLM" (7 of 38, hundreds of 3,136) does not.
TERM_SHARE = 0.1

# Weights of a match (see NameIndex.match).
EXACT, ONE_EDIT, TERM = 1.0, 0.9, 0.6


class NameIndex:
    """Names and coined terms of each paper, for exact and one-edit matching.

    Labels and aliases (the method names abstracts introduce) are *names*, except a label that
    describes the abstract (:attr:`store.papers.Paper.describes`); other coined
    terms an abstract uses (``ALFWorld``, ``GSM8K``) are *terms*. A name is matched in any
    letter case ("dance or apm") unless the collection's abstracts also use it as an ordinary
    lower-case word, where only its written form counts.

    A name a title states before its colon ("LoRA: Low-Rank Adaptation ...") is that paper's
    name even when other abstracts use it ("... into Low Rank Adapters (LoRA)"), and no other
    paper's abstract-derived alias takes it. Exact matches come first: a one-edit neighbour
    (QLoRA for "LoRA") is tried only for a word no paper's name, title or abstract holds, and
    a longer name found in the question (a phrase) hides the shorter names inside it.
    """

    def __init__(self, papers: Sequence[Paper]):
        self.names: dict[str, set[str]] = defaultdict(set)  # lower-cased name -> paper ids
        self.phrases: dict[str, set[str]] = defaultdict(set)  # multi-word names -> paper ids
        self.terms: dict[str, set[str]] = defaultdict(set)
        self.n_papers = len(papers)
        texts = {p.id: normalize(p.abstract) for p in papers}
        cased = {p.id: normalize_case_keep(p.abstract) for p in papers}
        # Words the abstracts write in lower case: "dance" in a question is a name only if no
        # abstract uses it as a word.
        self.plain: set[str] = set()
        for p in papers:
            self.plain.update(w for w in _WORD.findall(p.text_for_index) if w.islower())
        # Every maximal [\w-] run of each abstract -> paper ids. A bounded occurrence of a name
        # makes each of the name's runs a whole run of the abstract, so only the papers holding
        # all of them need the regex (O(corpus) instead of O(papers^2) regex searches).
        postings: dict[str, set[str]] = defaultdict(set)
        for pid, t in texts.items():
            for run in set(_RUN.findall(t)):
                postings[run].add(pid)
        titles = {p.id: normalize(p.title) for p in papers if p.title}
        # every word of every abstract and title: a stated term is never "missing", nor a typo
        self._runs = frozenset(postings) | {r for t in titles.values() for r in _RUN.findall(t)}
        # names titles state -> the papers whose title states them
        titled: dict[str, set[str]] = defaultdict(set)
        for p in papers:
            if p.title and (stated := title_name(p.title)):
                titled[normalize(stated)].add(p.id)
        for p in papers:
            stated = (title_name(p.title) or "") if p.title else ""
            own = () if p.describes else (p.label,)
            for name in dict.fromkeys((*own, *p.aliases, stated)):
                if not name or name.endswith("…"):
                    continue
                key = normalize(name)
                if key in titled and p.id not in titled[key]:
                    continue  # another paper's title states this name: an abstract only mentions it here
                # A name other abstracts also use ("federated learning") is a field, not this paper's
                # name. A coined name ("DANCE") counts only as written there ("we dance" is a word).
                runs = _RUN.findall(key)
                others = set.intersection(*(postings.get(r, set()) for r in runs)) if runs else set(texts)
                others.discard(p.id)
                if others and p.id not in titled.get(key, ()):
                    coined = bool(named_entities(name))  # "DANCE", "ProAct-75"; not "Federated Learning"
                    pat = _bounded(normalize_case_keep(name) if coined else key)
                    where = cased if coined else texts
                    if any(pat.search(where[pid]) for pid in others):
                        continue
                if " " in key:
                    self.phrases[key].add(p.id)
                else:
                    self.names[key].add(p.id)
                    spaced = key.replace("-", " ")
                    if spaced.count(" ") >= 2 and not any(spaced in texts[pid] for pid in texts if pid != p.id):
                        self.phrases[spaced].add(p.id)  # "shape of thought" for Shape-of-Thought
            for ent in named_entities(p.text_for_index):
                self.terms[ent.lower()].add(p.id)
                for part in ent.split("-"):
                    if len(part) >= 4 and any(c.isupper() for c in part[1:]):
                        self.terms[part.lower()].add(p.id)
        # phrases by their first word, with compiled patterns: a question tries only the few it can match
        self._phrases_by_first: dict[str, list[tuple[str, re.Pattern[str]]]] = defaultdict(list)
        self._phrase_rank = {phrase: i for i, phrase in enumerate(self.phrases)}
        for phrase in self.phrases:
            runs = _RUN.findall(phrase)
            self._phrases_by_first[runs[0] if runs else ""].append((phrase, _bounded(phrase)))

    def _lowercase_names(self, question: str) -> set[str]:
        """Words of ``question`` written in lower case (or capitalised only) that are names and no
        ordinary word here."""
        out = set()
        for w in _RUN.findall(question):
            ordinary = not w.islower() or w in self.plain or w in STOPWORDS or len(w) < 3
            near = len(w) >= 5 and w not in self._runs and self._near_name(w)
            if not ordinary and (w in self.names or near):
                out.add(w)
            elif w[:1].isupper() and w[1:].islower() and w.lower() in self.names and w.lower() not in self.plain:
                out.add(w)  # "Lora" at a sentence start or typed so: the name in another case
        return out

    @functools.lru_cache(maxsize=4096)  # noqa: B019 - one index per catalogue, its names never change
    def _near_name(self, word: str) -> dict[str, float]:
        """Papers whose name is one edit from ``word`` (hyphens ignored: "medlm" is ME-DLM), for a
        word of five or more letters that is no English word ("senday" -> SENDAI)."""
        if english_word(word):
            return {}
        got: dict[str, float] = {}
        for name, ids in self.names.items():
            for form in {name, name.replace("-", "")}:
                if abs(len(form) - len(word)) <= 1 and Levenshtein.distance(form, word) <= 1:
                    got.update(dict.fromkeys(ids, ONE_EDIT))
        return got

    def match(self, question: str) -> tuple[dict[str, dict[str, float]], list[str]]:
        """Find stated names in a question.

        Returns:
            ``(matches, unmatched)``: ``matches[token]`` maps paper id -> weight in (0, 1]
            (1.0 exact label in any case, 0.9 one-edit label, 0.6 coined term of at most
            ``TERM_SHARE`` of the abstracts); ``unmatched`` lists coined terms of the question
            found in no paper.
        """
        matches: dict[str, dict[str, float]] = {}
        unmatched: list[str] = []
        question = re.sub(r"\$[^$]*\$|\\[A-Za-z]+", " ", question)  # LaTeX math is not a name
        qn = normalize(question)
        found = [
            (self._phrase_rank[phrase], phrase, pat)
            for run in {"", *_RUN.findall(qn)}
            for phrase, pat in self._phrases_by_first.get(run, ())
            if pat.search(qn)
        ]
        # The longest name found wins its words: "Fisher SAM" hides "SAM", a longer phrase a shorter one.
        spans: list[tuple[int, int]] = []
        kept = set()
        for _, phrase, pat in sorted(found, key=lambda t: -len(t[1])):
            m = pat.search(qn)
            if m and not any(a <= m.start() < b or m.start() <= a < m.end() for a, b in spans):
                spans.append(m.span())
                kept.add(phrase)
        for _, phrase, _ in sorted(found):  # in the order of self.phrases, as a full scan would find them
            if phrase in kept:
                matches[phrase] = dict.fromkeys(self.phrases[phrase], EXACT)
        for phrase in kept:  # the words of a matched phrase are no names of their own
            question = re.sub(rf"(?<![\w-]){re.escape(phrase)}(?![\w-])", " ", question, flags=re.I)
        tokens = set(named_entities(question)) | self._lowercase_names(question)
        tokens |= {t for t in re.findall(r"[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)+", question) if len(t) >= 4}
        for tok in tokens:
            key = tok.lower()
            if key in matches:
                continue
            got: dict[str, float] = {}
            if key in self.names:
                got.update(dict.fromkeys(self.names[key], EXACT))
            elif key in self._runs:
                pass  # a word the papers hold is no typing error: no one-edit neighbour (LoRA is not QLoRA)
            elif len(key) >= 4 and not tok.islower():
                for name, ids in self.names.items():
                    if abs(len(name) - len(key)) <= 1 and Levenshtein.distance(name, key) <= 1:
                        got.update(dict.fromkeys(ids, ONE_EDIT))
            elif tok.islower():
                got.update(self._near_name(key))  # cached: _lowercase_names asked it already
            if not got and key in self.terms:
                if len(self.terms[key]) > max(1, TERM_SHARE * self.n_papers):
                    continue  # a term many abstracts use ("LLM") points to none of them, and is not missing
                got.update(dict.fromkeys(self.terms[key], TERM))
            if got:
                matches[tok] = got
            elif not self._holds(key) and key not in STOPWORDS and (
                tok.isupper() or any(c.isdigit() for c in tok) or tok[1:].lower() != tok[1:]
            ):
                unmatched.append(tok)
        return matches, unmatched

    def _holds(self, key: str) -> bool:
        """Whether some abstract writes ``key`` (lower case), or its acronym plural or singular
        ("LVLM" for "LVLMs"): such a term is not missing from the collection."""
        forms = (key, key + "s", key[:-1] if key.endswith("s") else key)
        return any(f in self._runs or f in self.terms for f in forms)

    def named(self, question: str) -> dict[str, tuple[str, ...]]:
        """Names the question states that point to papers (label matches, weight >= 0.9).

        Returns:
            Stated name -> matched paper ids, in the order found.
        """
        matches, _ = self.match(question)
        return {
            tok: tuple(pid for pid, w in found.items() if w >= ONE_EDIT)
            for tok, found in matches.items()
            if max(found.values()) >= ONE_EDIT
        }


_STRIP_GENERIC = re.compile(r"\b(the|a|an|paper|papers|method|approach|work|model|framework|on|about|one)\b", re.I)


LONG_WORD = 9
"""Letters from which a dictionary word the abstracts do not use may still be a typing error (one
edit from a word they use: "forcasting" -> "forecasting"). Shorter dictionary words are kept: many
have real words one edit away ("modal"/"model", "raining"/"training")."""


class Catalogue:
    """The papers of the collection, their names, their authors (:class:`rag.index.authors.AuthorIndex`)
    and the words their abstracts use.

    Labels are made unique within the collection here (:func:`store.distinct.distinct_labels`),
    so answers, tables, the evidence panel and exports, which all read these papers, show the
    same label; names are indexed from the records' own labels.

    Args:
        papers: Every paper of the collection.
    """

    def __init__(self, papers: Iterable[Paper]):
        records = {p.id: p for p in papers}
        self.papers: dict[str, Paper] = {p.id: p for p in distinct_labels(records.values())}
        self.names = NameIndex(list(records.values()))
        self.vocabulary: frozenset[str] = frozenset(
            w.lower() for p in self.papers.values() for w in _WORD.findall(p.text_for_index)
        )
        self.authors = AuthorIndex(self.papers.values(), self.vocabulary)
        # hyphenated words also written joined ("pre-training" -> "pretraining"): no typing error
        self._joined = frozenset(v.replace("-", "") for v in self.vocabulary if "-" in v)
        self._by_length: dict[int, list[str]] = defaultdict(list)
        for v in sorted(self.vocabulary):
            if v.isalpha():
                self._by_length[len(v)].append(v)

    def __len__(self) -> int:
        return len(self.papers)

    @functools.cached_property
    def _index_keys(self) -> frozenset[str]:
        """The index key of every word of the collection (computed on the first correction)."""
        return frozenset(stem(lemma(v)) for v in self.vocabulary if v.isalpha())

    def __contains__(self, paper_id: object) -> bool:
        return paper_id in self.papers

    def __getitem__(self, paper_id: str) -> Paper:
        return self.papers[paper_id]

    def known(self, word: str) -> bool:
        """Whether some abstract (or title) of the collection uses ``word`` (any case)."""
        return word.lower() in self.vocabulary

    def correct(self, word: str) -> str:
        """``word`` with a typing error corrected to the collection's nearest word: one edit (a
        letter added, dropped, changed, or two swapped) for five to seven letters, two for longer
        words ("reinforcment" -> "reinforcement", "agnets" -> "agents"). Words the
        abstracts use, English words, short words, anything with digits, acronyms ("MLLMs": two or
        more capitals), plurals of words the abstracts use ("mllms" for "MLLM") and words they write
        hyphenated ("pretraining" for "pre-training") are kept. A
        dictionary word of :data:`LONG_WORD` letters or more that no abstract uses is corrected
        when one edit away from a word they use: the dictionary also holds common misspellings
        ("forcasting"), and long words rarely have a real word one edit away. It is kept when it is
        a British spelling ("summarise") or another form of a word the abstracts use, by index key
        (:func:`rag.lexicon.stem` of :func:`rag.lexicon.lemma`): "optimizer" is not "optimized"."""
        w = word.lower()
        if len(w) < 5 or not w.isalpha() or w in self.vocabulary or w in self._joined:
            return word
        if sum(c.isupper() for c in word) >= 2 or (w.endswith("s") and w[:-1] in self.vocabulary):
            return word
        if english_word(w):
            if len(w) < LONG_WORD or american(w) != w or stem(lemma(w)) in self._index_keys:
                return word  # another form of a word the abstracts use ("optimizer": "optimization")
            return self._nearest(w, 1) or word
        return self._nearest(w) or word

    @functools.lru_cache(maxsize=4096)  # noqa: B019 - one catalogue per process, its words never change
    def _nearest(self, w: str, limit: int = 0) -> str:
        limit = limit or (1 if len(w) <= 7 else 2)
        words = self._by_length.get(len(w), ())
        near = [v for n in range(len(w) - limit, len(w) + limit + 1) for v in self._by_length.get(n, ())]
        # optimal string alignment: two swapped letters are one edit ("agnets" -> "agents")
        got = process.extractOne(w, near or words, scorer=OSA.distance, score_cutoff=limit)
        return got[0] if got else ""

    def fuzzy_names(self, ref: str, floor: float) -> list[str]:
        """Papers whose name (label or alias no other abstract uses) is within ``floor``
        (rapidfuzz ratio, 0-100) of ``ref``, best first; generic words ("the ... paper") are ignored."""
        key = re.sub(r"\s+", " ", _STRIP_GENERIC.sub(" ", normalize(ref).replace("-", " "))).strip()
        if not key:
            return []
        best: dict[str, float] = {}
        for name, pids in [*self.names.names.items(), *self.names.phrases.items()]:
            s = fuzz.ratio(key, name.replace("-", " "))
            for pid in pids:
                if s >= floor and s > best.get(pid, 0):
                    best[pid] = s
        top = max(best.values(), default=0)
        return [pid for pid, s in sorted(best.items(), key=lambda t: -t[1]) if s >= top - 3]
