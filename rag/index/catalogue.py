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
from dataclasses import replace

from rapidfuzz import fuzz, process

from rag.index.authors import AuthorIndex
from rag.lexicon import english_word, lemma, load_glossary, stem
from rag.text import coined_lowercase, named_entities, normalize, normalize_case_keep
from store.distinct import distinct_labels
from store.labels import title_name, typed_form, with_introduced, without_links
from store.papers import Paper

__all__ = ["TERM_SHARE", "Catalogue", "NameIndex"]

_RUN = re.compile(r"[\w-]+")
_TITLE_HEAD = re.compile(r"^\s*([A-Z][a-z]+[A-Za-z]*)\s*:\s+\S")


def _title_name(title: str) -> str | None:
    """The name a title gives its method before a colon: a coined name (:func:`store.labels.title_name`:
    "PLay: Parametrically Conditioned ...") or one capitalised word no English dictionary holds
    ("Exphormer: Sparse Transformers for Graphs" -> "Exphormer"; "Transformers: A Survey" names none)."""
    named = title_name(title)
    if named:
        return named
    m = _TITLE_HEAD.match(title)
    return m.group(1) if m and not english_word(m.group(1).lower()) else None


TITLE_WORD_USES = 2
"""Fewest times an abstract writes a dictionary word of its title's head, capitalised and never in
lower case, for the word to be the paper's name ("Muse: Text-To-Image Generation ..." with "We
present Muse", "Muse is trained ..."; "Pythia: A Suite ..." with "*Pythia*" twice). Set by reading:
once may be a sentence's first word."""


def _title_word_as_name(paper: Paper) -> str | None:
    """A dictionary word before ``paper``'s title colon that its abstract uses as a name (at least
    :data:`TITLE_WORD_USES` times, capitalised, never in lower case): "Muse". It names the paper
    only when no other abstract uses it (:class:`NameIndex`)."""
    m = _TITLE_HEAD.match(paper.title or "")
    if not m:
        return None
    word = m.group(1)
    text = normalize_case_keep(paper.abstract)
    uses = len(re.findall(rf"(?<![A-Za-z]){re.escape(word)}(?![a-z])", text))
    lower = re.search(rf"(?<![\w-]){re.escape(word.lower())}(?![\w-])", text)
    return word if uses >= TITLE_WORD_USES and not lower else None
_WORD = re.compile(r"[A-Za-z][\w-]*")
TITLE_MATCH_MIN = 92.0
"""Least rapidfuzz ratio (0-100) between a title asked for and a record's title for the record to be
that paper: set by hand so that a typing error or two in a 60-character title still matches (a
ratio of about 96) while another paper's title of shared words does not (the closest pairs of
distinct titles among 800 of the 3,098 ICML 2022-23 papers score 82 at most)."""

TITLE_TAIL_WORDS = 3
"""Fewest words of a title's tail (after its colon) read as that title written without its name
("Sparse Transformers for Graphs" of "Exphormer: Sparse Transformers for Graphs"); a shorter tail
("A Survey") may be many papers' words. Set by hand: the shortest tails of the 3,098 ICML 2022-23
titles that name one method are three or four words."""

TITLE_CLOSE_MIN = 70.0
"""Least rapidfuzz ratio for a title to be named as the closest to one the collection lacks; below
it the closest title shares little more than common words and naming it would mislead (set by hand:
"Attention Is All You Need" against the 3,098 ICML 2022-23 titles scores under 50)."""

_SIZED = re.compile(r"^(?P<name>[A-Za-z][\w-]{2,}?)-?\d+(?:\.\d+)?[BMK]$")
"""A named model with its size glued on ("Seg-Zero-7B", "Flamingo80B"): the name alone is a term of
the abstract too, so "Does RSAgent outperform Seg-Zero?" is not refused as naming something no
abstract mentions."""


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
        # abstract uses it as a word. The words of a link are none ("github.com/EleutherAI/pythia"
        # leaves "Pythia" a name).
        self.plain: set[str] = set()
        for p in papers:
            self.plain.update(w for w in _WORD.findall(without_links(p.text_for_index)) if w.islower())
        # Every maximal [\w-] run of each abstract -> paper ids. A bounded occurrence of a name
        # makes each of the name's runs a whole run of the abstract, so only the papers holding
        # all of them need the regex (O(corpus) instead of O(papers^2) regex searches).
        postings = _run_postings(texts)
        titles = {p.id: normalize(p.title) for p in papers if p.title}
        title_postings = _run_postings(titles)
        # every word of every abstract and title: a stated term is never "missing", nor a typo
        self.runs = frozenset(postings) | frozenset(title_postings)
        # names titles state -> the papers whose title states them
        titled: dict[str, set[str]] = defaultdict(set)
        title_names: dict[str, str] = {}
        for p in papers:
            name = (_title_name(p.title) if p.title else None) or ""
            if not name and (word := _title_word_as_name(p)) and not postings.get(normalize(word), set()) - {p.id}:
                name = word  # a dictionary word other abstracts also use names no one paper
            title_names[p.id] = name
        # the names titles state, as written ("Pythia", "Muse"): a question that writes one so names
        # the paper, though some abstract uses the word in lower case ("pythia-1.4b")
        # (not when the paper's own prose writes it in lower case: "we use a pythia of models")
        self.title_forms = frozenset(
            n for pid, n in title_names.items()
            if n and not re.search(rf"(?<![\w-]){re.escape(n.lower())}(?![\w-])", without_links(cased[pid]))
        )
        for p in papers:
            if stated := title_names[p.id]:
                titled[normalize(stated)].add(p.id)
            for alias in p.aliases:
                # a coined name the abstract introduces and the title writes ("we present data2vec"
                # of "data2vec: A General Framework ...") is the paper's as a title's name is, though
                # a later abstract builds on it ("the training efficiency of data2vec")
                if p.title and (named_entities(alias) or coined_lowercase(alias)) and _bounded(alias).search(p.title):
                    titled[normalize(alias)].add(p.id)
        for p in papers:
            stated = title_names[p.id]
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
                if " " in key and runs and p.id not in titled.get(key, ()) and not named_entities(name):
                    # a phrase another paper's title writes ("Improved Rates for Differentially
                    # Private Stochastic Convex Optimization with ...") names their common field,
                    # not this paper: "the papers on differentially private stochastic convex
                    # optimization" asks for all of them
                    in_titles = set.intersection(*(title_postings.get(r, set()) for r in runs)) - {p.id}
                    if in_titles and any(_bounded(key).search(titles[pid]) for pid in in_titles):
                        continue
                if " " in key:
                    self.phrases[key].add(p.id)
                else:
                    self.names[key].add(p.id)
                    if (typed := typed_form(key)) and typed != key:
                        self.names[typed].add(p.id)  # "Mu$^2$SLAM" as typed: "mu2slam"
                    spaced = key.replace("-", " ")
                    if spaced.count(" ") >= 2 and not any(spaced in texts[pid] for pid in texts if pid != p.id):
                        self.phrases[spaced].add(p.id)  # "shape of thought" for Shape-of-Thought
            for ent in named_entities(p.text_for_index):
                self.terms[ent.lower()].add(p.id)
                if sized := _SIZED.match(ent):
                    self.terms[sized.group("name").lower()].add(p.id)
                for part in ent.split("-"):
                    if len(part) >= 4 and any(c.isupper() for c in part[1:]):
                        self.terms[part.lower()].add(p.id)
        # A term the glossary writes otherwise ("T2I" for "text-to-image", rag/glossary.tsv ``same``
        # rows, both ways) is held by an abstract that writes the other form: the index is
        # expanded with it (rag.lexicon), so a question saying "T2I" finds that abstract and the
        # term is no name missing from the collection.
        self.written_otherwise: set[str] = set()
        for rel, term, expansion in load_glossary():
            if rel != "same":
                continue
            for short, other in ((term, expansion), (expansion, term)):
                key = normalize(other)
                runs = _RUN.findall(key)
                if not runs:
                    continue
                plural = [postings.get(r, set()) | postings.get(r + "s", set()) for r in runs]
                pat = re.compile(rf"(?<![\w-]){re.escape(key)}(?:s|es)?(?![\w-])")
                if any(pat.search(texts[pid]) for pid in set.intersection(*plural)):
                    self.written_otherwise.add(normalize(short))
        # phrases by their first word, with compiled patterns: a question tries only the few it can match
        self.phrases_by_first: dict[str, list[tuple[str, re.Pattern[str]]]] = defaultdict(list)
        self.phrase_rank = {phrase: i for i, phrase in enumerate(self.phrases)}
        for phrase in self.phrases:
            runs = _RUN.findall(phrase)
            self.phrases_by_first[runs[0] if runs else ""].append((phrase, _bounded(phrase)))

    def holds(self, key: str, *, capitals: bool = False) -> bool:
        """Whether some abstract writes ``key`` (lower case), or its acronym plural or singular
        ("LVLM" for "LVLMs"): such a term is not missing from the collection.

        ``capitals``: the question writes the word in capitals by choice ("Which papers use
        CLIP?"): an abstract that writes it only as a lower-case word ("Benign audio clips like
        music") uses the common word, not the name, and holds nothing; a form in capitals
        ("CLIP", "CLIPs"), a capitalised one ("Lasso") or the glossary's other form still does."""
        forms = (key, key + "s", key[:-1] if key.endswith("s") else key)
        if capitals:
            return any(f in self.terms or f in self.written_otherwise or (f in self.runs and f not in self.plain)
                       for f in forms)
        return any(f in self.runs or f in self.terms or f in self.written_otherwise for f in forms)


def _introducing(paper: Paper) -> Paper:
    """``paper`` with the coined names its abstract introduces among its aliases
    (:func:`store.labels.with_introduced`): "QHNet" of "we propose a SE(3)-equivariant network,
    named QHNet", whose label is its title."""
    if not paper.title:  # named by its abstract's first artefact (store.labels.choose_label)
        return paper
    aliases = with_introduced(paper.label, paper.aliases, paper.abstract)
    return paper if aliases == paper.aliases else replace(paper, aliases=aliases)


def _run_postings(texts: dict[str, str]) -> dict[str, set[str]]:
    """Every maximal ``[\\w-]`` run of each text (normalized) -> the ids of the texts holding it."""
    postings: dict[str, set[str]] = defaultdict(set)
    for pid, t in texts.items():
        for run in set(_RUN.findall(t)):
            postings[run].add(pid)
    return postings


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
        # the names each abstract introduces are its aliases, for records stored before they were
        # read so (:func:`store.labels.with_introduced`; a record read since holds them already)
        records = {p.id: _introducing(p) for p in papers}
        self.papers: dict[str, Paper] = {p.id: p for p in distinct_labels(records.values())}
        self.names = NameIndex(list(records.values()))
        self.vocabulary: frozenset[str] = frozenset(
            w.lower() for p in self.papers.values() for w in _WORD.findall(p.text_for_index)
        )
        self.authors = AuthorIndex(self.papers.values(), self.vocabulary)
        # hyphenated words also written joined ("pre-training" -> "pretraining"): no typing error
        self.joined = frozenset(v.replace("-", "") for v in self.vocabulary if "-" in v)
        self.by_length: dict[int, list[str]] = defaultdict(list)
        for v in sorted(self.vocabulary):
            if v.isalpha():
                self.by_length[len(v)].append(v)

    def __len__(self) -> int:
        return len(self.papers)

    @functools.cached_property
    def _abstracts(self) -> str:
        """Every abstract of the collection, one per line, as written (case kept)."""
        return "\n".join(p.abstract for p in self.papers.values())

    def proper_name(self, words: str) -> bool:
        """Whether the collection writes ``words`` (two or more capitalised words: "San Francisco")
        as a proper name: some abstract writes them so, with their capitals, and none in lower case.

        A run of capitalised dictionary words in a question is read as title case, not as a name
        (:func:`rag.question.reader.title_cased`: "Summarize Medieval Poetry Translation"); a run the
        abstracts only ever write capitalised is a name there ("data from San Francisco"), as
        "Graph Neural Networks", which abstracts also write "graph neural networks", is not. Case
        sensitive substring search over the abstracts (a few milliseconds for 3,000 of them)."""
        text = self._abstracts
        return words in text and words.lower() not in text

    @functools.cached_property
    def _titles(self) -> dict[str, str]:
        """Normalized title -> paper id, for the records that carry a title."""
        return {normalize(p.title): p.id for p in self.papers.values() if p.title}

    @functools.cached_property
    def _heads(self) -> dict[str, str]:
        """Normalized head of a title (its words before the colon, two or more: "Forget Unlearning"
        of "Forget Unlearning: Towards True Data-Deletion in Machine Learning") -> paper id, for
        the heads one title alone has. A one-word head is a name (:class:`NameIndex`)."""
        by_head: dict[str, set[str]] = defaultdict(set)
        for p in self.papers.values():
            head, colon, _ = (p.title or "").partition(":")
            key = normalize(head)
            if colon and len(key.split()) >= 2:
                by_head[key].add(p.id)
        return {k: next(iter(ids)) for k, ids in by_head.items() if len(ids) == 1 and k not in self._titles}

    @functools.cached_property
    def _tails(self) -> dict[str, str]:
        """Normalized tail of a title (its words after the colon, :data:`TITLE_TAIL_WORDS` or more:
        "Transferable Chip Placement via Offline Decision Transformer" of "ChiPFormer: Transferable
        Chip Placement via Offline Decision Transformer") -> paper id, for the tails one title alone
        has: a title written without its name is still that paper's title."""
        by_tail: dict[str, set[str]] = defaultdict(set)
        for p in self.papers.values():
            _, colon, tail = (p.title or "").partition(":")
            key = normalize(tail)
            if colon and len(key.split()) >= TITLE_TAIL_WORDS:
                by_tail[key].add(p.id)
        return {k: next(iter(ids)) for k, ids in by_tail.items() if len(ids) == 1 and k not in self._titles}

    def titled(self, title: str) -> tuple[str | None, str]:
        """The paper whose title, the head of its title before the colon (two or more words:
        "Forget Unlearning") or its tail after it (:attr:`_tails`), is ``title`` (case and punctuation
        aside; for a whole title or tail also a few typing errors: rapidfuzz ratio >=
        :data:`TITLE_MATCH_MIN` of the normalized titles), and the
        closest title of the collection (when it, or its head, scores :data:`TITLE_CLOSE_MIN` or
        more): ``(paper id or None, closest title or "")``. ``(None, "")`` when no record carries a
        title."""
        key = normalize(title)
        if not self._titles or not key:
            return None, ""
        named = {**self._heads, **self._tails, **self._titles}
        if key in named:
            pid = named[key]
            return pid, self.papers[pid].title or ""
        got = process.extractOne(key, list(named), scorer=fuzz.ratio)
        if got is None:
            return None, ""
        pid = named[got[0]]
        # a head only as written (short: one edit is much); a whole title or its tail with a typing error or two
        if got[1] >= TITLE_MATCH_MIN and (got[0] in self._titles or got[0] in self._tails):
            return pid, self.papers[pid].title or ""
        return None, (self.papers[pid].title or "") if got[1] >= TITLE_CLOSE_MIN else ""

    @functools.cached_property
    def index_keys(self) -> frozenset[str]:
        """The index key of every word of the collection (computed on the first correction)."""
        return frozenset(stem(lemma(v)) for v in self.vocabulary if v.isalpha())

    def __contains__(self, paper_id: object) -> bool:
        return paper_id in self.papers

    def __getitem__(self, paper_id: str) -> Paper:
        return self.papers[paper_id]

    def known(self, word: str) -> bool:
        """Whether some abstract (or title) of the collection uses ``word`` (any case)."""
        return word.lower() in self.vocabulary
