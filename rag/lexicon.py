"""Index terms of an abstract: compound parts, abbreviations and well-known benchmarks.

BM25 and term coverage compare words, so a question loses a paper whenever the two spell a
concept differently: "audio" vs "audio-text", "multimodal LLMs" vs "MLLM", "large
vision-language models" vs "LVLMs", "math benchmarks" vs "GSM8K". This module widens what
each *abstract* is indexed under (document expansion); the question, the evidence and the
quotes are never rewritten.

1. Compound parts: a hyphenated token is indexed whole, by its parts and joined ("audio-text" ->
   "audio-text", "audio", "text", "audiotext"), as Lucene's word-delimiter filter does with
   ``preserve_original`` and ``catenate_words``.
2. Abbreviations: "long form (ABBR)" definitions are mined from the collection with the
   Schwartz and Hearst algorithm (PSB 2003); ``glossary.tsv`` adds common ML abbreviations. An
   abstract that uses either form is indexed under both. An abbreviation the collection
   defines in two different ways is only expanded in the abstracts that define it.
3. Instances: ``glossary.tsv`` ``isa`` lines index an abstract that names a benchmark under its
   domain ("GSM8K" -> "math benchmark"), in that direction only.

The embedder, unlike BM25, cannot be given both forms through the abstracts: it reads the
question as typed, and a small sentence embedder knows "reinforcement learning" far better than
"rl". :meth:`Lexicon.spelled_out` gives the text a question is *embedded* as: each abbreviation
the lexicon knows one long form of is preceded by it ("rl papers" -> "reinforcement learning (rl) papers"),
as query expansion does on the question side.
"""

from __future__ import annotations

import functools
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from rag.text import STOPWORDS, tokenize, unify_dashes

if TYPE_CHECKING:
    from Stemmer import Stemmer

__all__ = [
    "Lexicon", "abbreviation_definitions", "american", "compound_parts", "directions", "en_verb_base", "english_word",
    "iz_spelling", "joined_form",
    "lemma", "glossary_forms", "load_glossary", "open_compounds", "other_direction", "same_keys", "states_direction",
    "states_form",
    "states_phrase", "stem", "term_key",
]

GLOSSARY = Path(__file__).with_name("glossary.tsv")
_DEF = re.compile(r"\(([A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*)\)")
_WORDS = re.compile(r"[\w'-]+")
_TOKEN = re.compile(r"(?<![\w-])[A-Za-z][A-Za-z0-9]*(?!\w)")


@functools.lru_cache(maxsize=1)
def _british() -> dict[str, str]:
    from breame.spelling import BRITISH_ENGLISH_SPELLINGS

    return dict(BRITISH_ENGLISH_SPELLINGS)


def american(term: str) -> str:
    """The American spelling of a lower-cased British one: ``modelling`` -> ``modeling``,
    ``optimisation`` -> ``optimization``, ``behaviour`` -> ``behavior`` (the 1,730 pairs of
    ``breame``), and any ``-isation`` -> ``-ization`` ("tokenisation"); other words unchanged."""
    got = _british().get(term)
    if got:
        return got
    if term.endswith(("isation", "isations")):
        return term.replace("isation", "ization")
    return term


@functools.lru_cache(maxsize=20_000)
def english_word(word: str) -> bool:
    """Whether ``word`` is in the English dictionary of ``simplemma`` (a typing error is not).

    A two-letter word is English only when it is a function word (:data:`rag.text.STOPWORDS`):
    the dictionary lists nearly every pair of letters (it holds abbreviations such as "kd", "ml",
    "rl"), and English has no two-letter content words, so a lower-case "kd" is read as the
    abbreviation it is."""
    import simplemma

    if len(word) <= 2:
        return word.lower() in STOPWORDS
    return bool(simplemma.is_known(word, lang="en"))


@functools.lru_cache(maxsize=200_000)
def lemma(term: str) -> str:
    """The index form of a lower-cased English token: its American spelling (:func:`american`),
    then its dictionary form (``simplemma``): ``hypergraphs`` -> ``hypergraph``, ``proves`` ->
    ``prove``, ``modelling`` -> ``model``. A hyphenated token takes the index form of each part
    (``vision-language models`` -> ``vision-language model``). A token the dictionary does not
    know that ends in "s" is the plural of an acronym or coined name and loses it (``llms`` ->
    ``llm``, ``gnns`` -> ``gnn``); other unknown tokens and numbers are kept as they are.
    """
    import simplemma

    if "-" in term:
        return "-".join(lemma(p) if p else p for p in term.split("-"))
    if not term.isalpha() or len(term) < 3:
        return term
    out = simplemma.lemmatize(american(term), lang="en").lower()
    plural = out == term and len(term) >= 4 and term.endswith("s") and not term.endswith("ss")
    if plural and not english_word(term):
        return term[:-1]  # the plural of an acronym or coined name: "llms", "gnns", "gpus", "lidars"
    return out


@functools.lru_cache(maxsize=1)
def _snowball() -> Stemmer:
    import Stemmer

    return Stemmer.Stemmer("english")


@functools.lru_cache(maxsize=200_000)
def stem(term: str) -> str:
    """Snowball English (Porter2) stem of a lower-cased term (``PyStemmer``, Porter 2001):
    ``purifies`` -> ``purifi``, ``confident`` and ``confidence`` -> ``confid``."""
    return _snowball().stemWord(term)


_IS_FORM = re.compile(r"(?P<base>[a-z]{3,})is(?P<ending>e|es|ed|ing|er|ers|ation|ations)")


def iz_spelling(word: str) -> str:
    """The ``-ize`` spelling of a word written with the British ``-ise``, in any of its forms:
    "optimisers" -> "optimizers", "regularising" -> "regularizing" (``breame``'s table, which
    :func:`american` reads, holds "optimisation" but not "optimiser"); ``""`` for a word that does
    not end so. Only a candidate ("promise" -> "promize"): a caller takes it when the collection
    writes it (:meth:`rag.question.names.NameReader.correct`).

    Args:
        word: A lower-case word.

    Returns:
        The ``-ize`` spelling, or ``""``.
    """
    m = _IS_FORM.fullmatch(word)
    return f"{m.group('base')}iz{m.group('ending')}" if m else ""


_EN_VERB = re.compile(r"(?P<base>[a-z]{4,}?)en(?P<ending>s|ed|ing)?")


def en_verb_base(word: str) -> str:
    """The word an ``-en`` verb is made from, in the verb's inflection: "smoothening" ->
    "smoothing", "smoothen" -> "smooth", "smoothened" -> "smoothed"; ``""`` for a word that does not
    end so. The ``-en`` verb of an adjective means the same as the adjective's own verb ("smoothen" =
    "smooth", "roughen" = "rough"), so a question's "over-smoothening" asks what the abstracts write
    "over-smoothing". The base is only a candidate ("listening" -> "listing"): a caller takes it when
    the collection writes it and not the word itself (:meth:`rag.question.names.NameReader.correct`).

    Args:
        word: A lower-case word.

    Returns:
        The base with the verb's ending, or ``""``.
    """
    m = _EN_VERB.fullmatch(word)
    return f"{m.group('base')}{m.group('ending') or ''}" if m else ""


MIN_DERIVATION_BASE = 4
"""Shortest base (letters) a derived word is read from: "distill" -> "distillation", while
"use" -> "user" and "form" -> "formal" are not read as one word."""


def derives(word: str, base: str) -> bool:
    """Whether index form ``word`` is ``base`` or a word derived from it by a suffix:
    "distillation" from "distill", "pruning" from "prune", "reinforcement" from "reinforce",
    "optimizer" from "optimize"; siblings are not ("optimization", "optimizer"). Snowball stems
    join all of these; :meth:`rag.index.retrieve.HybridRetriever.coverage` does not let a paper's
    "reinforce" state a question's "reinforcement". Both arguments are :func:`lemma` forms."""
    if word == base:
        return True
    root = base[:-1] if base.endswith("e") else base
    return len(root) >= MIN_DERIVATION_BASE and word.startswith(root)


PROCESS_SUFFIXES = ("ion", "ics", "ity", "ness", "ing")
"""Suffixes that name the process, quality or field of their base ("compression", "robotics",
"sparsity", "pruning"): a paper that writes the base ("we compress", "robot hands") states them."""


def states_form(word: str, form: str) -> bool:
    """Whether a paper's index form ``form`` states a question's index form ``word`` of the same
    Snowball stem (both :func:`lemma` forms).

    Snowball joins words of different senses. A form states the word unless it is the word's base
    and the suffix makes something other than its process, quality or field (:data:`PROCESS_SUFFIXES`):
    "reinforce" does not state "reinforcement", "robot" states "robotics". A word naming an agent or
    artefact ("optimizer", "transformer", "retriever": ``-er``/``-or``) is stated only by itself and
    words derived from it, not by its siblings ("optimization", "transformation")."""
    if form == word:
        return True
    if len(word) >= 6 and word.endswith(("er", "or")):
        return form.startswith(word)
    if derives(word, form):
        root = form[:-1] if form.endswith("e") else form
        return word[len(root) :].endswith(PROCESS_SUFFIXES)
    return True


def states_phrase(phrase: str, text: str, gap: int = 0) -> bool:
    """Whether ``text`` states every content word of ``phrase`` side by side, in order, each
    compared by the stem of its index form (:func:`lemma`, :func:`stem`), hyphens and stop words
    between them ignored: "dataset distillation" is stated by "multi-modal dataset distillation
    (MDD)" and "datasets distilled", not by "distillation ... on three datasets". Words of one stem
    and another sense do not meet (:func:`states_form`: "transformation" does not state "transformers").

    ``gap``: most content words allowed between two neighbouring words of the phrase (0: side by
    side; 2: "contextual bandits" is stated by "Contextual Combinatorial Bandits" and "diffusion
    models" by "diffusion language models")."""
    words, key = _stemmed(phrase)
    if not words:
        return False
    forms, seq = _stemmed(text)
    n = len(key)
    if gap <= 0:
        return any(
            seq[i : i + n] == key and all(states_form(w, f) for w, f in zip(words, forms[i : i + n], strict=True))
            for i in range(len(seq) - n + 1)
        )

    def meets(k: int, at: int) -> bool:
        return seq[at] == key[k] and states_form(words[k], forms[at])

    def rest(k: int, after: int) -> bool:  # words k.. of the phrase, each within gap words of the one before
        if k == n:
            return True
        return any(meets(k, j) and rest(k + 1, j) for j in range(after + 1, min(len(seq), after + 2 + gap)))

    return any(meets(0, i) and rest(1, i) for i in range(len(seq)))


@functools.cache
def glossary_forms(phrase: str) -> tuple[str, ...]:
    """The glossary's other names (``same`` rows, :func:`load_glossary`) of what ``phrase`` names or
    contains: "language models" -> ("LM", "LLM", "MLLM", ...), as "LLMs" are language models;
    "large language model" -> ("LLM", ...). A paper that writes one of them states ``phrase``
    (:func:`states_phrase` does not look them up). ``()`` when the glossary names none."""
    out: list[str] = []
    for rel, term, expansion in _glossary_rows():
        if rel != "same":
            continue
        for short, long in ((term, expansion), (expansion, term)):
            if short != phrase and states_phrase(phrase, long) and short not in out:
                out.append(short)
    return tuple(out)


_DIRECTION = re.compile(r"(?<![\w-])([A-Za-z0-9]+)-to-([A-Za-z0-9]+)(?!\w)", re.I)
"""A directional compound: a source, "-to-", a target ("text-to-image", "Speech-to-Text",
"Text-To-4D"); its last part may go on with another hyphen ("text-to-image-generation")."""


def directions(text: str) -> tuple[tuple[str, str], ...]:
    """The directional compounds ``text`` writes, as ``(source, target)`` term keys (:func:`term_key`),
    in order, each once: "text-to-image models and image-to-text captioning" ->
    ``(("text", "imag"), ("imag", "text"))``. A symmetric one ("end-to-end", "peer-to-peer") is
    returned too; it shares no side with a compound of two different words."""
    found = ((term_key(m.group(1).lower()), term_key(m.group(2).lower())) for m in _DIRECTION.finditer(text))
    return tuple(dict.fromkeys(found))


def reversed_direction(phrase: str) -> str:
    """The directional compound ``phrase`` writes, turned round: "speech-to-text" ->
    "text-to-speech" (whose glossary names, "TTS" and "speech synthesis", then count,
    :func:`states_direction`); ``""`` when it writes none."""
    m = _DIRECTION.search(phrase)
    return f"{m.group(2)}-to-{m.group(1)}" if m else ""


def states_direction(compound: tuple[str, str], phrase: str, text: str) -> bool:
    """Whether ``text`` states the directional compound ``compound`` (``(source, target)`` term
    keys of :func:`directions`) that ``phrase`` writes ("text-to-speech"): the compound itself, in
    any case, or one of the glossary's names of the phrase ("TTS", "speech synthesis",
    :func:`glossary_forms`)."""
    return compound in directions(text) or any(states_phrase(f, text) for f in glossary_forms(phrase))


def other_direction(compound: tuple[str, str], phrase: str, texts: Sequence[str]) -> bool:
    """Whether ``texts`` (a paper's title, else its sentences) are about another direction than
    ``compound`` and never state it (:func:`states_direction`): they write another compound with
    a word of it on either side ("text-to-audio", "image-to-text" or "image-to-image" for
    "text-to-image"; "speech-to-text" for "speech-to-speech"), and not the compound asked nor one
    of its names. A paper that writes no directional compound is not about another one."""
    if any(states_direction(compound, phrase, t) for t in texts):
        return False
    source, target = compound
    return any((s, t) != compound and {s, t} & {source, target} for text in texts for s, t in directions(text))


@functools.cache
def long_forms(short: str) -> tuple[str, ...]:
    """The glossary's long forms (``same`` rows, :func:`load_glossary`) of an abbreviation of more
    than one word: "RL" (any case, plural or not: "rl", "LLMs") -> ("reinforcement learning",);
    ``()`` for a word the glossary abbreviates nothing by ("learning", "encoder")."""
    wanted = {short.lower(), short.lower().removesuffix("s")}
    return tuple(dict.fromkeys(
        long for rel, term, long in _glossary_rows()
        if rel == "same" and term.lower() in wanted and _is_abbreviation(term) and len(long.split()) > 1
    ))


@functools.cache
def glossary_instances(phrase: str) -> tuple[str, ...]:
    """The glossary's instances (``isa`` rows, :func:`load_glossary`) of what ``phrase`` names:
    "medical imaging" -> ("brain-imaging", "brain imaging", "MRI", "CT scans", "X-ray", "radiology").
    A paper that writes one of them states ``phrase`` as the index does (an abstract on brain imaging
    is indexed under "medical imaging"); ``()`` when the glossary names none."""
    rows = _glossary_rows()
    return tuple(dict.fromkeys(term for rel, term, more in rows if rel == "isa" and states_phrase(phrase, more)))


@functools.cache
def glossary_benchmarks() -> frozenset[str]:
    """The names the glossary lists as instances of a benchmark or dataset (``isa`` rows whose
    expansion ends in one of :data:`DATA_KINDS`: "COCO", "GSM8K", "ALFWorld"), as written there.
    The instances of a field ("audio" of "sound", "clinical" of "medical", "INT4" of "low-bit") are
    not: a sentence with "audio embeddings" names no data."""
    return frozenset(
        term for rel, term, more in _glossary_rows() if rel == "isa" and more.split()[-1].lower() in DATA_KINDS
    )


DATA_KINDS = frozenset({"benchmark", "dataset", "corpus"})
"""The last word of an ``isa`` row's expansion that makes its term a benchmark or dataset's name
("GSM8K" -> "math benchmark"), not an instance of a field ("audio" -> "sound")."""


@functools.cache
def _glossary_rows() -> tuple[tuple[str, str, str], ...]:
    return tuple(load_glossary())


@functools.lru_cache(maxsize=100_000)
def _stemmed(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The index forms (:func:`lemma`) of the content words of ``text`` (:func:`_content_words`) and
    their stems, in order; cached per text, since :func:`states_phrase` reads the same sentences and
    titles for every phrase and every candidate of a question."""
    forms = tuple(lemma(t) for t in _content_words(text))
    return forms, tuple(stem(f) for f in forms)


def _content_words(text: str) -> list[str]:
    """The content words of ``text`` in order, a hyphenated word split into its parts."""
    out: list[str] = []
    for t in tokenize(text):
        for w in compound_parts(t) or [t]:
            if w not in STOPWORDS and len(w) > 1:
                out.append(w)
    return out


def compound_parts(token: str) -> list[str]:
    """The parts of a hyphenated token with at least two characters: ``"audio-text"`` -> ``["audio", "text"]``.

    Returns ``[]`` for a token without a hyphen.
    """
    if "-" not in token:
        return []
    return [p for p in token.split("-") if len(p) > 1]


def joined_form(token: str) -> str:
    """A word written with one hyphen, written without it: ``"multi-modal"`` -> ``"multimodal"``,
    ``"fine-tuning"`` -> ``"finetuning"``; ``""`` for other tokens. Abstracts are indexed under
    both forms and a question's hyphenated word is stated by either, so "multimodal" and
    "multi-modal", "spatiotemporal" and "spatio-temporal" find the same papers."""
    if token.count("-") == 1 and token.replace("-", "").isalpha():
        return token.replace("-", "")
    return ""


_OPEN_TOKEN = re.compile(r"[\w@]+(?:-[\w@]+)*")
"""A word of a sentence, a hyphenated compound as one (its parts are not written open)."""


def open_compounds(terms: tuple[str, ...], sentence: str) -> tuple[str, ...]:
    """``terms`` with each hyphenated compound that ``sentence`` writes open, its parts side by side
    in order (compared as term keys, :func:`term_key`), as those parts: "trigger-detection"
    by "trigger detection", "step-level" by "step levels"; a compound the sentence writes with its
    hyphen or joined ("fine-tuning", "finetuning") or not at all is kept as asked.

    Args:
        terms: A slot's terms (:attr:`rag.types.Slot.terms`), head last.
        sentence: The sentence read.

    Returns:
        The terms, in order, each open compound replaced by its parts (so the last part is the head
        when the compound was)."""
    if not any("-" in t for t in terms):
        return terms
    keys = [term_key(m.group(0).lower()) for m in _OPEN_TOKEN.finditer(sentence)]
    out: list[str] = []
    for t in terms:
        parts = [p for p in t.split("-") if p]
        wanted = [term_key(p) for p in parts]
        n = len(wanted)
        written = n > 1 and any(keys[i : i + n] == wanted for i in range(len(keys) - n + 1))
        out.extend(parts if written else [t])
    return tuple(out)


_VERSIONED = re.compile(r"([a-z]{4,})\d{1,3}")


def unversioned(token: str) -> str:
    """The name of a lower-cased token that writes a name with its version or size run on:
    ``"alphafold2"`` -> ``"alphafold"``, ``"resnet50"`` -> ``"resnet"``, ``"llama2"`` -> ``"llama"``;
    ``""`` for other tokens (a name of fewer than four letters, "l2", "gpt4", "t5", is left whole:
    too short to say which name it is). Abstracts are indexed under both, so a question that names
    the model without its version ("AlphaFold") finds the abstract that writes "AlphaFold2"."""
    m = _VERSIONED.fullmatch(token)
    return m.group(1) if m else ""


_HYPHENABLE = re.compile(r"(?<![\w-])[A-Za-z]+(?:-[A-Za-z]+)?(?![\w-])")


def _hyphenation_spellings(texts: Sequence[str]) -> tuple[dict[str, str], dict[str, str]]:
    """For the words the collection writes both with and without their hyphen: the spelling of the
    fewer abstracts -> that of the more ("multi-modal" -> "multimodal" when more abstracts write it
    joined; ties are left alone), so a question is embedded as the collection spells it and both
    spellings find the same papers (:meth:`Lexicon.spelled_out`); and the joined form -> the
    hyphenated one ("finetuning" -> "fine-tuning"), so a phrase is recognised in either spelling
    (:meth:`Lexicon.expansions`). Lower-cased."""
    df: dict[str, int] = defaultdict(int)
    for text in texts:
        for t in set(tokenize(text)):
            df[t] += 1
    preferred, hyphenated = {}, {}
    for t, n in df.items():
        j = joined_form(t)
        if j and df.get(j, 0):
            hyphenated[j] = t
            if df[j] != n:
                few, many = (t, j) if df[j] > n else (j, t)
                preferred[few] = many
    return preferred, hyphenated


def _phrase_stems(text: str) -> str:
    """Stems of every token of ``text``, compounds split, joined by single spaces."""
    out: list[str] = []
    for t in tokenize(text):
        out.extend(stem(p) for p in (compound_parts(t) or [t]))
    return " ".join(out)


def _is_abbreviation(short: str) -> bool:
    letters = [c for c in short if c.isalpha()]
    return 2 <= len(short) <= 12 and sum(c.isupper() for c in letters) >= 2 and short[0].isalpha()


def _long_form(short: str, before: str) -> str | None:
    """Schwartz and Hearst (2003): the shortest span before "(short)" whose letters spell ``short``.

    Characters of the abbreviation are matched right to left; the first one must start a
    word. At most ``min(len(short) + 5, 2 * len(short))`` words are considered.
    """
    words = _WORDS.findall(before)
    limit = min(len(short) + 5, 2 * len(short))
    words = words[-limit:]
    if not words:
        return None
    text = " ".join(words)
    s = [c.lower() for c in short if c.isalnum()]
    if short.endswith("s") and len(s) > 2 and short[:-1].isupper():
        s = s[:-1]  # "VLMs": the plural s is not a letter of the long form
    si, li = len(s) - 1, len(text) - 1
    while si >= 0:
        c = s[si]
        while li >= 0 and (
            text[li].lower() != c or (si == 0 and li > 0 and (text[li - 1].isalnum()))
        ):
            li -= 1
        if li < 0:
            return None
        si -= 1
        li -= 1
    start = text.rfind(" ", 0, li + 1) + 1
    long = text[start:].strip(" -")
    n_words = len(long.split())
    if n_words < 2 and "-" not in long or long.lower() == short.lower():
        return None
    return long if _spelled_by_words(s, long) else None


def _spelled_by_words(letters: Sequence[str], long: str) -> bool:
    """Whether ``long`` spells the abbreviation's lower-case ``letters`` in order as a coinage does:
    each letter the initial of a word (or of a part of a hyphenated word), or a later letter of a
    word whose initial is taken, or a letter of the last word or of another part of a hyphenated
    word whose initial is taken ("Frequency Enhanced Decomposed Transformer" for "FEDformer",
    "Feature-wise Linear Modulation" for "FiLM"), or a letter the long form writes in upper case
    ("Model Agnostic samPLe rEweighting" for "MAPLE"). Schwartz and Hearst take any letter after the
    first; "self-supervised speech representation learning (SSL)" would give "speech representation
    learning", its second "s" inside "representation", which is no long form of SSL."""
    words = long.split()
    parts = [(i, p) for i, w in enumerate(words) for x in w.split("-") if (p := x.strip("'\"`‘’“”"))]

    @functools.cache
    def spells(li: int, pi: int, ci: int, taken: frozenset[int]) -> bool:
        # li: next letter; pi: the part letters come from (-1: none yet); ci: next character in it;
        # taken: the words whose initial (or a part's) is taken
        if li == len(letters):
            return True
        c = letters[li]
        if pi >= 0:
            word, part = parts[pi]
            begun = word in taken or word == len(words) - 1
            for k in range(ci, len(part)):
                if part[k].lower() == c and (begun or part[k].isupper()) and spells(li + 1, pi, k + 1, taken):
                    return True
        for j in range(pi + 1, len(parts)):
            word, part = parts[j]
            if part[0].lower() == c and spells(li + 1, j, 1, taken | {word}):
                return True
            begun = word in taken or word == len(words) - 1  # a later part of a word already begun
            for k in range(1, len(part)):
                if part[k].lower() == c and (begun or part[k].isupper()) and spells(li + 1, j, k + 1, taken):
                    return True
        return False

    return spells(0, -1, 0, frozenset())


def abbreviation_definitions(text: str) -> list[tuple[str, str]]:
    """``(abbreviation, long form)`` pairs an abstract defines.

    ``"Vision-Language Models (VLMs)"`` -> ``("VLM", "Vision-Language Models")``.

    The abbreviation loses a plural ``s`` after capitals ("VLMs" -> "VLM"). Schwartz and Hearst,
    "A simple algorithm for identifying abbreviation definitions in biomedical text", PSB 2003.
    """
    out = []
    plain = unify_dashes(text)
    for m in _DEF.finditer(plain):
        short = m.group(1)
        if not _is_abbreviation(short):
            continue
        before = plain[max(0, m.start() - 200) : m.start()]
        before = re.split(r"[.;:()\[\]]|-{2,}", before)[-1]  # "the seminal work---Knowledge distillation (KD)"
        long = _long_form(short, before)
        if long:
            key = short[:-1] if short.endswith("s") and short[:-1].isupper() and len(short) > 2 else short
            out.append((key, long))
    return out


def load_glossary(path: Path = GLOSSARY) -> list[tuple[str, str, str]]:
    """``(relation, term, expansion)`` rows of a glossary TSV (``same``, ``isa`` or ``sense``; ``#`` comments).

    Raises:
        ValueError: a line without three tab-separated fields or with another relation, with its line number.
    """
    rows = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) != 3 or parts[0] not in {"same", "isa", "sense"}:
            raise ValueError(f"{path.name}:{n}: expected '<same|isa|sense>\\t<term>\\t<expansion>', got {line!r}")
        rows.append((parts[0], parts[1].strip(), parts[2].strip()))
    return rows


@functools.cache
def _same_words() -> dict[str, frozenset[str]]:
    """Term keys of the one-word ``same`` and ``sense`` rows of the glossary, each to the keys of
    the words it names the same thing as ("weights" -> {"paramet"}), both ways. A word is keyed in
    its singular and plural forms, whose index forms may differ ("embedding" is read as the verb
    "embed", "embeddings" as the noun)."""
    out: dict[str, set[str]] = defaultdict(set)
    for rel, term, expansion in load_glossary():
        if rel in ("same", "sense") and " " not in term and " " not in expansion:
            for a in _number_keys(term):
                for b in _number_keys(expansion):
                    if a != b:
                        out[a].add(b)
                        out[b].add(a)
    return {k: frozenset(v) for k, v in out.items()}


def _number_keys(word: str) -> set[str]:
    """The term keys of ``word`` and of its plural or singular ("embedding", "embeddings")."""
    other = word[:-1] if word.endswith("s") and not word.endswith("ss") else f"{word}s"
    return {term_key(word), term_key(other)}


def same_keys(term: str) -> frozenset[str]:
    """The term keys that state ``term`` (:func:`term_key`): its own and those of the words the
    glossary says name the same thing ("weights" is stated by "parameters"; "eval" by
    "evaluation"), so a question in other words than the abstract's is checked against what it
    says."""
    key = term_key(term)
    return frozenset({key, *_same_words().get(key, ())})


@dataclass
class _Entry:
    """One concept: its surface term and the tokens an abstract that states it is indexed under."""

    term: str
    pattern: re.Pattern[str]
    phrase: str  # stems of the long form, "" for terms matched by ``pattern`` only
    adds_when_term: list[str] = field(default_factory=list)  # tokens for an abstract with ``term``
    adds_when_phrase: list[str] = field(default_factory=list)  # tokens for an abstract with the long form


def _term_pattern(term: str) -> re.Pattern[str]:
    """Whole-word, case-sensitive for capitalised terms ("GSM8K", "LLMs"), else case-insensitive."""
    body = re.escape(term)
    plural = "s?" if term[-1:].isupper() or term[-1:].isdigit() else ""
    flags = 0 if any(c.isupper() for c in term) else re.I
    return re.compile(rf"(?<![\w-]){body}{plural}(?![\w-])", flags)


def _tokens_of(phrase: str) -> list[str]:
    toks = [t for t in tokenize(phrase) if t not in STOPWORDS]
    out = []
    for t in toks:
        out.append(t)
        out.extend(compound_parts(t))
    if len(toks) == 1 and any(c.isupper() for c in phrase) and not phrase.endswith("s"):
        out.append(toks[0] + "s")  # "LLM" -> also "llms": BM25 compares unstemmed tokens
    return out


class Lexicon:
    """Index-term expansion for a collection (see the module docstring).

    Args:
        texts: The text each paper is indexed under (title, label, aliases and abstract).
        glossary: ``(relation, term, expansion)`` rows; :func:`load_glossary` by default.
    """

    def __init__(self, texts: Iterable[str], glossary: Sequence[tuple[str, str, str]] | None = None):
        texts = list(texts)
        self.spellings, self.hyphenated = _hyphenation_spellings(texts)
        mined: dict[str, set[str]] = defaultdict(set)
        surface: dict[tuple[str, str], str] = {}
        for text in texts:
            for short, long in abbreviation_definitions(text):
                mined[short].add(_phrase_stems(long))
                surface.setdefault((short, _phrase_stems(long)), long)
        self.entries: list[_Entry] = []
        self.long_forms: dict[str, str] = {}  # lower-cased abbreviation -> its one long form
        defined = set(mined)
        for short, phrases in mined.items():
            for phrase in phrases:
                long = surface[(short, phrase)]
                e = _Entry(short, _term_pattern(short), phrase)
                e.adds_when_phrase = _tokens_of(short)
                if len(phrases) == 1:  # an ambiguous abbreviation only expands where it is defined
                    e.adds_when_term = _tokens_of(long)
                    self.long_forms[short.lower()] = long
                self.entries.append(e)
        for rel, term, expansion in load_glossary() if glossary is None else glossary:
            if rel == "sense":
                continue  # checked in sentences (same_keys), never indexed
            if rel == "same" and term in defined:
                continue  # the collection's own definition wins
            e = _Entry(term, _term_pattern(term), _phrase_stems(expansion) if rel == "same" else "")
            e.adds_when_term = _tokens_of(expansion)
            if rel == "same":
                e.adds_when_phrase = _tokens_of(term)
                if _is_abbreviation(term):
                    self.long_forms.setdefault(term.lower(), expansion)
            self.entries.append(e)
        self._by_term: dict[str, list[_Entry]] = defaultdict(list)
        self._by_first: dict[str, list[_Entry]] = defaultdict(list)
        for e in self.entries:
            if e.adds_when_term:
                # keyed by the term's first token: a term of several words ("brain imaging",
                # "dataset condensation") is looked up by it, and its pattern checks the rest
                self._by_term[(tokenize(e.term) or [e.term.lower()])[0]].append(e)
            if e.phrase and e.adds_when_phrase:
                self._by_first[e.phrase.split(" ", 1)[0]].append(e)

    def expansions(self, text: str) -> list[str]:
        """Extra index tokens for one paper's text (lower-cased; compound parts included).

        Compound parts of the text's own tokens come first, then the tokens of every concept
        the text states in either form. Each added token appears once.
        """
        plain = unify_dashes(text)
        own = tokenize(text)
        extra: list[str] = []
        for t in own:
            extra.extend(p for p in compound_parts(t) if p not in STOPWORDS)
            if joined := joined_form(t):
                extra.append(joined)  # "pre-training" is also found as "pretraining"
            if name := unversioned(t):
                extra.append(name)  # "AlphaFold2" is also found as "AlphaFold"
        # "supervised finetuning" states "supervised fine-tuning" (and so SFT) when the collection
        # writes the word both ways
        split = _HYPHENABLE.sub(lambda m: self.hyphenated.get(m.group(0).lower(), m.group(0)), text)
        stem_list = _phrase_stems(split).split()
        stems = " " + " ".join(stem_list) + " "
        seen = set(own)
        keys = seen | {t[:-1] for t in seen if t.endswith("s")}
        adds: list[list[str]] = []
        for e in {id(e): e for k in keys for e in self._by_term.get(k, ())}.values():
            if e.pattern.search(plain):
                adds.append(e.adds_when_term)
        for e in {id(e): e for s in set(stem_list) for e in self._by_first.get(s, ())}.values():
            if f" {e.phrase} " in stems:
                adds.append(e.adds_when_phrase)
        # "same" is an equivalence: a form added here also brings its own other forms, once
        # ("speech synthesis" -> "text-to-speech" -> "TTS").
        adds += self._closure([" ".join(a) for a in adds])
        for add in adds:
            for t in add:
                if t not in seen and t not in STOPWORDS:
                    seen.add(t)
                    extra.append(t)
        return extra

    def spelled_out(self, text: str) -> str:
        """``text`` as a question is embedded: each abbreviation with one known long form (mined
        from the collection, else ``glossary.tsv``) is preceded by it, in the way abstracts define
        them: "rl papers" -> "reinforcement learning (rl) papers", "VLMs?" -> "vision-language
        models (VLMs)?"; a word the collection writes both with and without its hyphen is written
        as most abstracts write it ("multi-modal" -> "multimodal"). A plural abbreviation gets a
        plural long form. Left as typed: a lower-case token that is an English word ("sat", "art"),
        and an abbreviation whose long form the text already states. Text without abbreviations or
        such words is returned unchanged.
        """
        lowered = text.lower()

        def one(m: re.Match[str]) -> str:
            tok = m.group(0)
            key = tok.lower()
            long = self.long_forms.get(key)
            plural = long is None and key.endswith("s")
            if plural:
                long = self.long_forms.get(key[:-1])
            if not long or long.lower() in lowered:
                return tok
            if sum(c.isupper() for c in tok) < 2 and english_word(key):
                return tok
            if plural and not long.endswith("s"):
                long += "s"
            return f"{long} ({tok})"

        out = _TOKEN.sub(one, text)
        if self.spellings:
            out = _HYPHENABLE.sub(lambda m: self.spellings.get(m.group(0).lower(), m.group(0)), out)
        return out

    def _closure(self, added: list[str]) -> list[list[str]]:
        """The other forms of the concepts the ``added`` forms state (one more step of "same")."""
        out: dict[int, list[str]] = {}
        for form in added:
            stems = " " + _phrase_stems(form) + " "
            for s in set(stems.split()):
                for e in self._by_first.get(s, ()):
                    if f" {e.phrase} " in stems:
                        out[id(e)] = e.adds_when_phrase
            for t in tokenize(form):
                for e in self._by_term.get(t, ()):
                    if e.phrase and e.pattern.search(form):  # "same" entries only
                        out[id(e)] = e.adds_when_term
        return list(out.values())


def term_key(term: str) -> str:
    """How sentence and question terms are compared: the Snowball stem of the index form
    (:func:`rag.lexicon.lemma`), so "distill", "distilled" and "distillation", British and American
    spellings, plural and singular are one term."""
    return stem(lemma(term))
