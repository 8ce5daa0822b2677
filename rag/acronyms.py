"""Acronyms and their long forms as names: which papers state a name a question asks, in which sense.

A question may spell a name out where the abstracts write its acronym ("Open Pretrained
Transformer" and "OPT-175B"), or the reverse, and an acronym may stand for several things in one
collection ("OPT": Open Pretrained Transformer, optimal partial transport, and the optimal value
of learning theory, which no abstract defines). :class:`Senses` holds, for each acronym the
collection defines ("long form (ABBR)", :func:`rag.lexicon.abbreviation_definitions`) or the
glossary lists, its senses (long forms, spelling variants merged: :func:`same_sense`), how many
papers define each, and how many papers write it as the name of a thing (:func:`named_use`).
The question reader asks it which names a topic states (:meth:`Senses.names_in`, one
:class:`NamedForms` each); the answering stages ask :func:`states_named` which sentences state
one in the sense asked:

* a sentence that states the long form (any word forms, :func:`rag.lexicon.states_phrase`);
* a sentence that writes the acronym, bare, plural or with a suffix ("OPT-175B", "NTK-based"),
  when the acronym has one sense in the collection;
* for an acronym of several senses, the evidence of the paper decides: its own definition of
  the acronym (the sense it defines is the one it uses), else the acronym written as the name of
  a thing (with a model size, "OPT-175B", "T5-XXL"; or listed among other names, "OPT, BLOOM,
  GLM") states the sense the collection names things with (:attr:`NamedForms.thing`), and no
  other. Three letters alone ("O(log(1/OPT))") state no sense.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from rag.lexicon import (
    _content_words,
    _is_abbreviation,
    abbreviation_definitions,
    american,
    english_word,
    glossary_forms,
    load_glossary,
    states_phrase,
    term_key,
)
from rag.text import STOPWORDS, named_entities, tokenize, unify_dashes

__all__ = ["NamedForms", "Senses", "acronym_uses", "named_use", "proper_name", "same_sense", "states_named"]

SIZE_WORDS = frozenset(
    "xxxl xxl xl l m s b h g large base small tiny huge medium mini giant".split()
)
"""Size names a model's name carries after a hyphen ("T5-XXL", "GPT-2-XL", "ViT-B/16",
"BERT-Large"), lower case; a number of parameters ("OPT-175B", "OPT-6.7B", "LLaMA-65B") is one too."""
NAMED_THING_SHARE = 0.02
"""Largest share of the abstracts that may state a name for it to be the name of a thing, which a
listed paper must state (:attr:`NamedForms.rare`). Set by reading the shares in the 3,136 papers of
the library: things at most 2% (OPT 0.4%, NTK 0.9%, ViT 1.3%, CLIP 1.5%, CNN 1.9%), fields above
(LLM 2.1%, GNN 3.9%, DNN 5.4%, RL 13%, ML 14%); "Which works embed watermarks in deep neural
network models ...?" lists a paper that writes "deep learning models", and "Which papers apply ML
to electronic hardware design?" papers that never write "machine learning"."""
NAMED_THING_FLOOR = 5
"""Papers that may state a name for it to be a thing's in any collection, however small (2% of the
38 seed papers is under one): a model family a handful of papers evaluate on."""
MIN_CONTEXT_PAPERS = 2
"""Fewest papers that must state a topic's other words, and a long form beside them, for that
long form to be the sense of an acronym the topic types (:meth:`Senses.sense_in`): one paper's
phrase is no sense of the collection's (a phrase of one abstract whose initials happen to spell it)."""
CONTEXT_PREFIX = 4
"""Letters of a term key a text must hold, lower-cased, before its words are compared
(:meth:`Senses._stating`): a cheap filter, as every form of a word of four or more letters
starts with them; shorter keys are compared whole."""
_SIZE_NUMBER = re.compile(r"\d+(?:\.\d+)?[BMKTbmkt]")
_SUFFIX = r"(?P<suffix>s|(?:-[A-Za-z0-9]+(?:\.\d+[A-Za-z]*)?)+(?:/\d+)?)?"
_CLAUSE_BREAK = re.compile(r"[,;:()\[\]]")
_ITEM_SPLIT = re.compile(r",|/|\band\b|\bor\b|\bincluding\b|\bsuch as\b")


@dataclass(frozen=True)
class NamedForms:
    """A name a question states that the collection knows in two forms: an acronym and its long form.

    Attributes:
        short: The acronym as the collection writes it ("OPT", "NTK").
        long: The long form of the sense asked ("Open Pretrained Transformer").
        others: The long forms of the acronym's other senses in the collection; ``()`` when it has one.
        aliases: Other names of the sense asked that the glossary gives (``same`` rows of two
            phrases: "text-to-speech" is "speech synthesis").
        thing: The sense asked is the one the collection writes the acronym as a name of a thing with
            (:meth:`Senses.thing_sense`): "OPT-175B" and "OPT, BLOOM" state it.
        indexed: The lexicon indexes every abstract that writes either form under both
            (:meth:`rag.lexicon.Lexicon.expansions`), so BM25 finds both for either; else the
            question reader searches the other form too.
        rare: At most :data:`NAMED_THING_SHARE` of the abstracts (or :data:`NAMED_THING_FLOOR`)
            state it: the name of a thing (a model, a method: "OPT", "NTK", "ViT"), which a paper
            a list gives must state; a name more state is a field the question may name in
            passing ("apply ML to chip design", "watermarks in deep neural network models").
        whole: The topic is this name, generic words aside ("the Open Pretrained Transformer
            models"): every paper that states it is about it. Set by the question reader.
    """

    short: str
    long: str
    others: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    thing: bool = False
    indexed: bool = False
    rare: bool = False
    whole: bool = False

    @property
    def searched(self) -> bool:
        """The question reader searches both forms of it (a thing's name the lexicon does not
        index under both): a paper listed must then state it in the sense asked."""
        return self.rare and not self.indexed


def _letters(phrase: str) -> str:
    """``phrase`` as one run of lower-case letters, British spellings American ("pre-trained" and
    "pretrained", "optimisation" and "optimization" alike)."""
    return "".join(american(t) for t in re.findall(r"[a-z]+", phrase.lower()))


def _keys(phrase: str) -> frozenset[str]:
    return frozenset(term_key(t) for t in re.findall(r"[a-z]+", phrase.lower()) if t not in STOPWORDS)


def same_sense(a: str, b: str) -> bool:
    """Whether two long forms of one acronym name the same thing: the same letters apart from
    spaces, hyphens and British spellings ("Contrastive Language-Image Pre-training" and
    "contrastive language image pretraining"), or the content words of one among the other's
    ("deep equilibrium" and "deep equilibrium model", "Monte Carlo Markov chain" and "Markov chain
    Monte Carlo", "reinforcement learning from/with human feedback")."""
    if _letters(a) == _letters(b):
        return True
    ka, kb = _keys(a), _keys(b)
    return bool(ka) and bool(kb) and (ka <= kb or kb <= ka)


def _use_pattern(short: str) -> re.Pattern[str]:
    """The acronym as a whole word, bare, plural or with suffixes ("OPT", "OPTs", "OPT-175B",
    "GPT-2-XL", "ViT-B/16"); case-sensitive when it has capitals ("opt" the verb is no OPT)."""
    flags = 0 if any(c.isupper() for c in short) else re.I
    return re.compile(rf"(?<![\w-]){re.escape(short)}{_SUFFIX}(?![\w-])", flags)


def acronym_uses(text: str, short: str) -> list[re.Match[str]]:
    """Where ``text`` writes acronym ``short`` (see :func:`_use_pattern`), in order."""
    return list(_use_pattern(short).finditer(unify_dashes(text)))


def _sized(suffix: str) -> bool:
    """Whether a suffix ("-175B", "-6.7B", "-XXL", "-2-XL", "-B/16") ends in a model size."""
    last = suffix.split("/")[0].rsplit("-", 1)[-1]
    return bool(_SIZE_NUMBER.fullmatch(last)) or last.lower() in SIZE_WORDS


def _listed(text: str, m: re.Match[str], short: str) -> bool:
    """Whether the use ``m`` is an item of a list that holds another coined name ("OPT, BLOOM,
    GLM", "BLOOM, Pythia, OPT, and GPT-2", "NeoX/Pythia"): the items between the clause's
    punctuation split at commas, slashes, "and" and "or", the acronym's item the acronym alone."""
    left = max(text.rfind(c, 0, m.start()) for c in ".;:()[]")
    rights = [i for i in (text.find(c, m.end()) for c in ";:()[]") if i >= 0]
    dot = re.search(r"\.(?:\s|$)", text[m.end() :])
    rights += [m.end() + dot.start()] if dot else []
    clause = text[left + 1 : min(rights, default=len(text))]
    items = [x.strip() for x in _ITEM_SPLIT.split(clause) if x and x.strip()]
    if m.group(0) not in items:
        return False
    return any(x != m.group(0) and len(x.split()) <= 2 and named_entities(x) for x in items)


def named_use(text: str, short: str) -> bool:
    """Whether ``text`` writes acronym ``short`` as the name of a thing: with a model size
    ("OPT-175B", "T5-XXL") or listed among other coined names ("including OPT, BLOOM, GLM").
    "O(log(1/OPT))" and "the OPT problem" are not."""
    plain = unify_dashes(text)
    return any(
        (m.group("suffix") and m.group("suffix") != "s" and _sized(m.group("suffix"))) or _listed(plain, m, short)
        for m in acronym_uses(plain, short)
    )


def states_named(text: str, name: NamedForms, own: Sequence[tuple[str, str]] = ()) -> bool:
    """Whether ``text`` (a sentence or a title) states ``name`` in the sense asked (see the module
    docstring).

    Args:
        text: The sentence.
        name: The name asked.
        own: The ``(acronym, long form)`` pairs the sentence's paper defines
            (:func:`rag.lexicon.abbreviation_definitions` of its abstract).
    """
    # the long form within one clause: "image, text, and speech datasets" is no "text-to-speech"
    clauses = _CLAUSE_BREAK.split(text)
    if any(states_phrase(x, c) for x in (name.long, *name.aliases) for c in clauses):
        return True
    # a kind of the thing the glossary names ("LVLMs", large vision-language models, are
    # vision-language models: rag.lexicon.glossary_forms), in its short or its long form
    for kind in glossary_forms(name.long):
        if kind.lower() == name.short.lower():
            continue
        if acronym_uses(text, kind) if kind.isupper() else any(states_phrase(kind, c) for c in clauses):
            return True
    uses = acronym_uses(text, name.short)
    if not uses:
        return False
    if not name.others:
        return True
    defined = [long for short, long in own if _singular(short).lower() == name.short.lower()]
    if defined:
        return any(same_sense(long, name.long) for long in defined)
    return name.thing and named_use(text, name.short)


def used_otherwise(name: NamedForms, title: str, abstract: str) -> bool:
    """Whether a paper writes acronym ``name.short`` in a sense other than the one asked: it writes
    the acronym, never the long form of the sense asked (nor an alias, nor a long form of the same
    sense: "differential privacy" for "differentially private"), and does not define the acronym
    as it (its own definitions, :func:`rag.lexicon.abbreviation_definitions`: "dynamic programming
    (DP)" is another sense of "DP"). Checked only where the collection knows other senses
    (:attr:`NamedForms.others`): an acronym it defines one way is stated by its letters alone ("We
    compute KTFs of residual networks"), and a name of a thing ("OPT-175B",
    :attr:`NamedForms.thing`) is never used otherwise.

    Args:
        name: The name asked, in the sense asked.
        title: The paper's title.
        abstract: The paper's abstract.
    """
    if name.thing or not name.others:
        return False
    text = f"{title}. {abstract}"
    if not acronym_uses(text, name.short):
        return False
    forms = (name.long, *name.aliases, *(o for o in name.others if same_sense(o, name.long)))
    clauses = _CLAUSE_BREAK.split(text)
    if any(states_phrase(f, c) for f in forms for c in clauses):
        return False
    # a kind of the thing the glossary names, in its short or long form ("LVLMs" are vision-language models)
    kinds = [k for k in glossary_forms(name.long) if k.lower() != name.short.lower()]
    if any(acronym_uses(text, k) if k.isupper() else states_phrase(k, text) for k in kinds):
        return False
    own = abbreviation_definitions(abstract)
    return not any(same_sense(long, name.long) for short, long in own if _singular(short).lower() == name.short.lower())


def _singular(short: str) -> str:
    """An acronym without its plural "s" ("ViTs" -> "ViT"; "GNNs" comes so already)."""
    return short[:-1] if len(short) > 2 and short.endswith("s") and short[-2].isupper() else short


def proper_name(long: str) -> bool:
    """Whether a long form is written as a proper name: every content word capitalised ("Open
    Pretrained Transformer"; not "Optimal partial transport")."""
    words = [w for w in re.findall(r"[A-Za-z][\w]*", long) if w.lower() not in STOPWORDS]
    return bool(words) and all(w[0].isupper() for w in words)


@dataclass
class _Sense:
    long: str  # the long form as most often written
    papers: int  # papers that define the acronym so
    proper: bool  # written as a proper name somewhere


class Senses:
    """The senses of the collection's acronyms (see the module docstring).

    Args:
        texts: The text each paper is indexed under (title, label, aliases and abstract).
        glossary: ``(relation, term, expansion)`` rows; :func:`rag.lexicon.load_glossary` by default.
            A ``same`` row of an acronym the collection does not define gives it one sense.
        indexed: The acronyms (lower case) the lexicon expands in every abstract
            (:attr:`rag.lexicon.Lexicon.long_forms`).
        stated: Papers whose index terms hold each acronym (lower case; an indexed acronym is held
            by the papers writing either form), for :attr:`NamedForms.rare`; unknown ones are rare.
    """

    def __init__(
        self,
        texts: Iterable[str],
        glossary: Sequence[tuple[str, str, str]] | None = None,
        indexed: Iterable[str] = (),
        stated: Mapping[str, int] | None = None,
    ):
        texts = list(texts)
        self.texts = texts  # for the senses a topic's other words support (:meth:`sense_in`)
        self._lowered: list[str] = []
        self._words: dict[int, list[str]] = {}
        self._keys_of: dict[int, frozenset[str]] = {}
        self.indexed = frozenset(indexed)
        self.stated = dict(stated or {})
        self.n_papers = len(texts)
        found: dict[str, list[_Sense]] = defaultdict(list)  # acronym as written -> its senses
        for text in texts:
            seen: set[tuple[str, int]] = set()
            for short, long in ((_singular(s), lg) for s, lg in abbreviation_definitions(text)):
                senses = found[short]
                i = next((i for i, s in enumerate(senses) if same_sense(s.long, long)), -1)
                if i < 0:
                    senses.append(_Sense(long, 0, False))
                    i = len(senses) - 1
                if (short, i) not in seen:
                    seen.add((short, i))
                    senses[i].papers += 1
                senses[i].proper = senses[i].proper or proper_name(long)
        self._aliases: list[tuple[str, str]] = []  # glossary phrases naming the same thing, both ways
        for rel, term, expansion in load_glossary() if glossary is None else glossary:
            if rel == "same" and _is_abbreviation(term) and _singular(term) not in found:
                found[_singular(term)] = [_Sense(expansion, 0, False)]
            elif rel == "same" and not _is_abbreviation(term) and (" " in term or " " in expansion):
                self._aliases += [(term, expansion), (expansion, term)]
        self.senses: dict[str, tuple[_Sense, ...]] = {
            k: tuple(sorted(v, key=lambda s: -s.papers)) for k, v in found.items()
        }
        self._by_key = {k.lower(): k for k in self.senses}
        # papers that write an acronym of several senses as the name of a thing
        ambiguous = {k for k, v in self.senses.items() if len(v) > 1}
        self.named_uses: dict[str, int] = defaultdict(int)
        for text in texts:
            tokens = set(re.findall(r"[A-Za-z][A-Za-z0-9]*", text))
            for short in ambiguous & tokens:
                if named_use(text, short):
                    self.named_uses[short] += 1
        self._first: dict[str, list[tuple[str, str]]] = defaultdict(list)  # first word key -> (short, long)
        for short, known in self.senses.items():
            for sense in known:
                words = [t for t in tokenize(sense.long) if t not in STOPWORDS]
                if words and (len(words) >= 2 or "-" in sense.long):
                    self._first[term_key(words[0].split("-")[0])].append((short, sense.long))

    def thing_sense(self, short: str) -> str:
        """The long form of the sense the collection writes an acronym of several senses as a name
        of a thing with: when some paper does (:func:`named_use`) and exactly one sense is written
        as a proper name ("Open Pretrained Transformer", not "optimal partial transport"); ``""``
        otherwise, and for an acronym of one sense."""
        senses = self.senses.get(short, ())
        proper = [s for s in senses if s.proper]
        if len(senses) > 1 and self.named_uses.get(short, 0) and len(proper) == 1:
            return proper[0].long
        return ""

    def preferred(self, short: str) -> str:
        """The sense a bare acronym asks ("Which papers use OPT?"): its only one; of several, the
        one the most papers state as a name: the papers that define it so, and for the sense of
        :meth:`thing_sense` also those that write the acronym as a name of a thing ("OPT": Open
        Pretrained Transformer, 1 + 5 papers, over optimal partial transport, 1; "MSE": mean squared
        error, 7, over Multi-Symmetry Ensembles, 1 + 2); ``""`` when no sense has strictly the most
        (the letters then ask no sense)."""
        senses = self.senses.get(short, ())
        if len(senses) == 1:
            return senses[0].long
        thing = self.thing_sense(short)
        counts = sorted(
            ((s.papers + (self.named_uses.get(short, 0) if s.long == thing else 0), s.long) for s in senses),
            reverse=True,
        )
        if len(counts) > 1 and counts[0][0] > counts[1][0]:
            return counts[0][1]
        return ""

    def defined(self, short: str) -> tuple[str, ...]:
        """The long forms the collection's abstracts define acronym ``short`` as (any case, a plural
        "GNNs" as "GNN"), most papers first; ``()`` for an acronym no abstract defines (a sense the
        glossary alone gives is not counted: no abstract writes it so)."""
        key = self._by_key.get(_singular(short).lower()) or self._by_key.get(short.lower())
        return tuple(s.long for s in self.senses.get(key, ()) if s.papers) if key else ()

    def forms(self, short: str, long: str) -> NamedForms:
        """The :class:`NamedForms` of acronym ``short`` asked in the sense of ``long``."""
        senses = self.senses.get(short, ())
        others = tuple(s.long for s in senses if not same_sense(s.long, long))
        thing = self.thing_sense(short)
        return NamedForms(
            short,
            long,
            others,
            aliases=tuple(b for a, b in self._aliases if same_sense(a, long)),
            thing=bool(thing) and same_sense(thing, long),
            indexed=short.lower() in self.indexed,
            rare=self.stated.get(short.lower(), 0) <= max(NAMED_THING_FLOOR, NAMED_THING_SHARE * self.n_papers),
        )

    def __getstate__(self) -> dict[str, object]:
        """What the index cache keeps (:mod:`rag.index.cache`): not the words read for
        :meth:`sense_in`, which are read again on first use."""
        state = dict(self.__dict__)
        state.update(_lowered=[], _words={}, _keys_of={})
        return state

    def _paper_words(self, i: int) -> list[str]:
        """The content words of paper ``i`` (hyphenated words split), lower case, computed once."""
        if i not in self._words:
            self._words[i] = _content_words(self.texts[i])
        return self._words[i]

    def _stating(self, words: Sequence[str]) -> list[int]:
        """The papers (indices into :attr:`texts`) that state every one of ``words`` (term keys
        compared: "graphs" states "graph"), or, when fewer than :data:`MIN_CONTEXT_PAPERS` do, every
        one but one of two or more (a verb of the question's: "learn graph transformer QEs")."""
        if not self._lowered:
            self._lowered = [t.lower() for t in self.texts]
        keys = {term_key(w) for w in words}
        # a key's first letters are written in any text that states it ("pseudo-labels" for "pseudo-label")
        prefixes = [k[:CONTEXT_PREFIX] for k in keys]
        need = len(keys) - 1 if len(keys) > 1 else len(keys)
        held: list[tuple[int, int]] = []
        for i, low in enumerate(self._lowered):
            if sum(p in low for p in prefixes) < need:
                continue
            if i not in self._keys_of:
                self._keys_of[i] = frozenset(term_key(w) for w in self._paper_words(i))
            n = len(keys & self._keys_of[i])
            if n >= need:
                held.append((i, n))
        every = [i for i, n in held if n == len(keys)]
        return every if len(every) >= MIN_CONTEXT_PAPERS else [i for i, _ in held]

    def _spelled(self, short: str, papers: Sequence[int]) -> Counter[str]:
        """Phrases of ``papers`` whose content words' initials spell acronym ``short`` ("positional
        encodings" for "PE"), keyed by their term keys' phrase in its first written form, counted
        once per paper."""
        letters = [c.lower() for c in _singular(short) if c.isalpha()]
        n = len(letters)
        counts: Counter[str] = Counter()
        first: dict[tuple[str, ...], str] = {}
        for i in papers:
            words = self._paper_words(i)
            seen: set[tuple[str, ...]] = set()
            for j in range(len(words) - n + 1):
                window = words[j : j + n]
                if [w[0] for w in window] != letters or not all(w.isalpha() for w in window):
                    continue
                key = tuple(term_key(w) for w in window)
                if key not in seen:
                    seen.add(key)
                    counts[first.setdefault(key, " ".join(window))] += 1
        return counts

    def sense_in(self, short: str, text: str) -> str:
        """The sense acronym ``short`` has in ``text`` (a topic: "graph CL", "SSL pseudo-labeling",
        "graph transformer PE"), by what the abstracts state beside the topic's other words: among
        the papers that state all of them, the long form that the most papers state (a sense the
        collection knows, or a phrase those papers write whose initials spell the acronym:
        "positional encoding" for "PE" beside "graph transformer", where no abstract defines "PE"
        so). An acronym of one sense keeps it; without other words, or when no long form is stated
        by at least :data:`MIN_CONTEXT_PAPERS` of those papers and by strictly more than any other
        one (a spelled phrase also by more than every known sense), it is :meth:`preferred`.

        Returns:
            The long form, ``""`` when no sense is asked (as :meth:`preferred`).
        """
        senses = self.senses.get(short, ())
        if len(senses) == 1 or not self.texts:
            return self.preferred(short)
        own = {short.lower(), _singular(short).lower(), short.lower() + "s"}
        context = [w for w in _content_words(text) if w not in own and not w.isdigit()]
        if not context:
            return self.preferred(short)
        papers = self._stating(context)
        if len(papers) < MIN_CONTEXT_PAPERS:
            return self.preferred(short)
        known = Counter({s.long: sum(states_phrase(s.long, self.texts[i]) for i in papers) for s in senses})
        spelled = self._spelled(short, papers)
        best_known = max(known.values(), default=0)
        scored = list(known.items()) + [(p, c) for p, c in spelled.items() if c > best_known]
        ranked = sorted(scored, key=lambda x: -x[1])
        if not ranked or ranked[0][1] < MIN_CONTEXT_PAPERS:
            return self.preferred(short)
        if len(ranked) > 1 and ranked[1][1] == ranked[0][1] and not same_sense(ranked[0][0], ranked[1][0]):
            return self.preferred(short)
        return ranked[0][0]

    def names_in(self, text: str) -> tuple[NamedForms, ...]:
        """The names ``text`` states that the collection knows as an acronym and its long form: a
        long form ("open pretrained transformers", in any word forms) or an acronym (as the
        collection writes it, or typed in lower case when no English word: "ntk"; a plural "GNNs"),
        each acronym once, in the order found. An acronym of several senses is asked in its
        :meth:`preferred` sense, and not at all when none stands out."""
        out: dict[str, NamedForms] = {}
        words = [t for t in tokenize(text) if t not in STOPWORDS]
        keys = {term_key(p) for w in words for p in w.split("-")}
        for key in keys:
            for short, long in self._first.get(key, ()):
                if short not in out and states_phrase(long, text):
                    out[short] = self.forms(short, long)
        for tok in re.findall(r"[A-Za-z][A-Za-z0-9-]*", text):
            base = tok.rsplit("-", 1)
            if len(base) == 2 and _sized("-" + base[1]):
                tok = base[0]  # "OPT-175B" names OPT
            known = self._by_key.get(tok.lower()) or (self._by_key.get(tok[:-1].lower()) if tok.endswith("s") else None)
            if known is None or known in out:
                continue
            short = known
            typed = tok[:-1] if tok.endswith("s") and tok[:-1].lower() == short.lower() else tok
            if typed != short and not typed.isupper() and not (typed.islower() and not english_word(typed)):
                continue  # "opt" typed in lower case is the English verb, not OPT
            long = self.sense_in(short, text)
            if long:
                out[short] = self.forms(short, long)
        # a long form inside another one found is no name of its own ("reinforcement learning" of
        # "reinforcement learning from human feedback")
        found = list(out.values())
        return tuple(
            n for n in found
            if not any(o is not n and len(o.long) > len(n.long) and states_phrase(n.long, o.long) for o in found)
        )
