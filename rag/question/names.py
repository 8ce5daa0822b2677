"""The names a question states: method names the collection knows, coined terms, typing errors.

A question names a paper by its method name ("DANCE", "dance", "DANSE"), by a coined term only
its abstract uses ("ALFWorld"), or describes it. :class:`NameReader` reads a text against the
names and words of the collection (:class:`rag.index.catalogue.NameIndex`, built when the
collection is indexed): the names it states (exact in any case, or one edit away), the coined
terms no abstract holds, typing errors in its words, and near matches of a reference. It also
makes the :class:`rag.types.SearchQuery` retrieval takes, so retrieval never reads question text.
The generic words of a reference are a class of ``vocabulary/names.toml``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Sequence

from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA

from rag.acronyms import SIZE_WORDS
from rag.index.catalogue import EXACT, ONE_EDIT, TERM, TERM_SHARE, Catalogue
from rag.lexicon import american, en_verb_base, english_word, glossary_benchmarks, iz_spelling, lemma, stem
from rag.text import STOPWORDS, coined_lowercase, content_terms, named_entities, normalize
from rag.types import SearchQuery
from rag.vocabulary import beside

__all__ = [
    "LONG_WORD", "MIN_CASED", "NameReader", "SLOT_NAME_PAPERS", "bare_name", "heading_word", "restated_names",
    "restatement_alone", "spelled_out", "versioned_names", "word_names"]

_VOCABULARY = beside(__file__, "names")
_RUN = re.compile(r"[\w-]+")
MIN_CASED = 3
"""Fewest letters of a word typed in capitals whose case tells its sense (:meth:`NameIndex.holds
<rag.index.catalogue.NameIndex.holds>` with ``capitals``: "CLIP" the model, "clips" of audio);
shorter ones are abbreviations whose lower-case form is no common word of the abstracts. Not fitted."""
_STRIP_GENERIC = _VOCABULARY["generic_word"].pattern  # "the SENDAI paper" is matched as "sendai"
_GENERIC_WORDS = _VOCABULARY["generic_word"].words
_NUMBERED_PART = _VOCABULARY["numbered_part"].words
_NAME = r"[A-Za-z][\w.]*(?:-[\w.]+)*(?<![.])"
"""A name as typed: a word, with hyphenated parts and dotted versions ("GPT-3.5", "Whisper-large-v3")."""
_PARENTHESIS = re.compile(r"\(([^()]*)\)")
_LISTED = re.compile(r",|;|\bor\b|\band\b", re.I)
_RESTATED = re.compile(
    rf"(?P<name>{_NAME})(?:\s+(?:{_VOCABULARY['generic_word'].bare}))*\s*,?\s+{_VOCABULARY['restating_word'].source}"
    r"\s+(?P<said>[^,;:()?]+)",
    re.I,
)
_DASHED = re.compile(rf"(?P<name>{_NAME})(?:\s+(?:{_VOCABULARY['generic_word'].bare}))*\s+[-\u2013\u2014]+\s+"
                     r"(?P<said>[^,;:()?\u2013\u2014]+?)(?=\s+[-\u2013\u2014]+\s|[,;:?]|$)")
_ASKING = re.compile(rf"{_VOCABULARY['asking_word'].bare}\b", re.I)
"""A question word opening the words after a name and a dash: they ask of the name, not restate it."""
_SIZED_NAME = re.compile(rf"(?<![\w-])(?P<name>[A-Z]{_NAME[8:]})\s+(?P<size>\d+(?:\.\d+)?(?:x\d+(?:\.\d+)?)?[BMT])\b")
"""A name and a model size written as a word of its own: "Mixtral 8x7B", "Llama-2 70B", "PaLM 540B"."""
_VERSION = re.compile(r"(?P<stem>[A-Za-z]{2,})(?P<sep>-?)(?P<rest>[A-Za-z0-9][\w./-]*)")
_SPACED_VERSION = re.compile(
    r"(?<![\w.-])(?P<name>[A-Z][A-Za-z]*[a-z][A-Za-z]*)\s+(?P<v>\d(?:\.\d{1,2})?)(?![\w.%,/-]*\w)"
)
"""A name and a one-digit version as a word of its own: "Llama 2", "PaLM 2", "Gemini 1.5" (not
"CIFAR 100" nor "ICML 2023": capitals alone, or more digits, are benchmarks and years)."""
_LOWER_VERSION = re.compile(r"(?<![\w.-])(?P<stem>[a-z]{2,})-(?P<v>\d{1,3}(?:\.\d{1,2})?)(?![\w-])")
"""A name typed in lower case with a hyphen and a number: "gpt-4", "resnet-152" (a word of the
dictionary before it, as in "top-5" or "state-2", is no name)."""


TITLE_RUN_WORDS = 3
"""Fewest opening words of a title (an article aside) a question must write for them to name
that paper ("dormant neuron phenomenon" of "The Dormant Neuron Phenomenon in Deep Reinforcement
Learning"), when no other paper writes them: two words are often a field's ("speculative decoding",
"reward model"). Set by hand, as :data:`rag.index.catalogue.TITLE_TAIL_WORDS` is."""
_TITLE_ARTICLE = frozenset({"the", "a", "an", "on"})


DIGIT_PREPOSITIONS = {"2": "to", "4": "for"}
"""Digits typed for the preposition they sound like inside a compound ("sim2real", "text2image",
"data4ml"): :meth:`NameReader.written_form` reads the compound as the hyphenated form the abstracts
write ("sim-to-real"), which no abstract of the library writes with the digit."""
_DIGIT_COMPOUND = re.compile(rf"([A-Za-z]{{2,}})([{''.join(DIGIT_PREPOSITIONS)}])([A-Za-z]{{2,}})")
LONG_WORD = 9
"""Letters from which a dictionary word the abstracts do not use may still be a typing error (one
edit from a word they use: "forcasting" -> "forecasting"). Shorter dictionary words are kept: many
have real words one edit away ("modal"/"model", "raining"/"training")."""




_KEY_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
_KEY_AT = {c: (r, i + (0.0, 0.25, 0.75)[r]) for r, row in enumerate(_KEY_ROWS) for i, c in enumerate(row)}
"""Where each letter sits on a QWERTY keyboard: (row, column), the rows staggered as on the keys."""


def _adjacent_keys(a: str, b: str) -> bool:
    """Whether letters ``a`` and ``b`` are neighbouring keys on a QWERTY keyboard ("a"/"s", "e"/"r")."""
    if a not in _KEY_AT or b not in _KEY_AT:
        return False
    (ra, xa), (rb, xb) = _KEY_AT[a], _KEY_AT[b]
    return (ra == rb and abs(xa - xb) == 1) or (abs(ra - rb) == 1 and abs(xa - xb) <= 0.75)


def typing_slip(typed: str, word: str) -> bool:
    """Whether ``typed`` is ``word`` with one slip of the fingers: a letter added or dropped, two
    neighbouring letters swapped, or a letter struck for a neighbouring key (lower case).

    Single insertions, deletions, transpositions and substitutions make up about 80% of typing
    errors (Damerau, "A technique for computer detection and correction of spelling errors", CACM
    1964), and a substitution mostly hits a neighbouring key. A real word one other substitution
    away is another word: "splatting" (Gaussian splatting) is not a slip for "splitting"."""
    if abs(len(typed) - len(word)) == 1:
        short, long_ = sorted((typed, word), key=len)
        return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))
    if len(typed) != len(word):
        return False
    diff = [i for i, (a, b) in enumerate(zip(typed, word, strict=True)) if a != b]
    if len(diff) == 2 and diff[1] == diff[0] + 1:
        i = diff[0]
        return typed[i] == word[i + 1] and typed[i + 1] == word[i]
    return len(diff) == 1 and _adjacent_keys(typed[diff[0]], word[diff[0]])


def _is_name(word: str) -> bool:
    """Whether one word as typed is a name: coined ("DPO", "LoRA", "StyleGAN3", "resnet50") or
    capitalised inside the question ("Mamba", "Chinchilla")."""
    return bool(named_entities(word) or coined_lowercase(word) or word[:1].isupper())


def _initials(phrase: str) -> str:
    """The capitals of the content words of ``phrase`` and of their hyphenated parts ("Low-Rank
    Adaptation" -> "LRA")."""
    return "".join(p[0].upper() for w in phrase.split() for p in w.split("-") if p and content_terms(p))


def spelled_out(name: str, said: str) -> bool:
    """Whether ``said`` spells ``name`` out: its words' initials are the name's capitals or begin
    them, two at least ("Direct Preference Optimization" for DPO, "Low-Rank Adaptation" for LoRA,
    "Segment Anything" for SAM); "selective state space models" describes Mamba, it does not spell it."""
    capitals = "".join(c for c in name if c.isupper())
    letters = _initials(said)
    return len(letters) >= 2 and len(capitals) >= 2 and capitals.startswith(letters)


def _spelled_tail(words: list[str], name: str) -> str:
    """The longest run of the last words of ``words`` that spells ``name`` out (:func:`spelled_out`),
    or ``""``: "... of Segment Anything" before "(SAM)" -> "Segment Anything"."""
    found = ""
    for k in range(1, min(len(words), 8) + 1):
        tail = " ".join(words[-k:])
        if spelled_out(name, tail):
            found = tail
    return found


def restated_names(topic: str) -> tuple[tuple[str, str], ...]:
    """The names ``topic`` states with the same name said otherwise, ``(name, said)`` each, in order:
    "DPO (Direct Preference Optimization)", "Segment Anything (SAM)", "the Mamba paper (selective
    state space models)", "PPO, i.e. Proximal Policy Optimization" (``restating_word``),
    "FlashAttention-2 - faster attention with better parallelism -" (a spaced dash after a name).
    A parenthesis that lists several items lists examples, not a restatement ("models (LVLMs,
    MLLMs)"); generic words after the name ("paper") are no part of it."""
    out: list[tuple[str, str]] = []
    for m in _PARENTHESIS.finditer(topic):
        inside = m.group(1).strip(" .")
        if not content_terms(inside) or _LISTED.search(inside):
            continue
        words = topic[: m.start()].split()
        while words and words[-1].lower() in _GENERIC_WORDS:
            words.pop()
        if len(inside.split()) == 1 and _is_name(inside) and (tail := _spelled_tail(words, inside)):
            out.append((inside, tail))  # "Segment Anything (SAM)"
        elif words and _is_name(words[-1]) and words[-1].lower() not in STOPWORDS:
            out.append((words[-1], inside))  # "DPO (Direct Preference Optimization)"
    for pattern in (_RESTATED, _DASHED):
        for m in pattern.finditer(topic):
            name, said = m.group("name"), m.group("said").strip(" .-")
            if pattern is _DASHED and _ASKING.match(said):
                continue  # "Gato - how many tasks does it handle?": a question of the name
            if _is_name(name) and name.lower() not in STOPWORDS and content_terms(said):
                out.append((name, said))
    return tuple(dict.fromkeys(out))


def restatement_alone(topic: str) -> tuple[str, str] | None:
    """``(name, said)`` when ``topic`` is one name with its restatement and nothing else ("CLIP
    (Contrastive Language-Image Pre-training)", "the Llama paper (Large Language Model Meta AI)";
    :func:`restated_names`), else ``None``: such a topic asks for the thing, which the name finds."""
    found = restated_names(topic)
    if len(found) != 1:
        return None
    name, said = found[0]
    rest = topic.replace(said, " ", 1).replace(name, " ", 1)
    rest = _VOCABULARY["restating_word"].pattern.sub(" ", rest)
    rest = " ".join(w for w in re.findall(r"[\w-]+", rest) if w.lower() not in _GENERIC_WORDS)
    return (name, said) if not content_terms(rest) else None


_HEADING = re.compile(r"^\W*(?P<word>[A-Z][a-z]+)\s*(?::|\s[-\u2013\u2014]+)\s+\S")
"""A message opened by one capitalised word before a colon or a spaced dash, the rest asked of it
("Chinchilla: how many tokens ...?", "Gato - how many tasks ...?")."""
_WORD_NAME = re.compile(r"[A-Z][a-z]{2,}")
"""A name written as an English word is: one capital, then lower-case letters ("Flamingo", "Hyena")."""


def heading_word(question: str) -> str:
    """The capitalised word ``question`` opens with when it stands before a colon or a spaced dash
    as the thing the rest asks about ("Chinchilla: how many tokens was it trained on?" ->
    "Chinchilla", "Gato - how many tasks?" -> "Gato"); ``""`` otherwise ("What is X?", "Summary
    of X", "DANCE: ..." written in capitals, which :func:`rag.text.named_entities` reads)."""
    m = _HEADING.match(question)
    return m.group("word") if m else ""


def word_names(words: Collection[str], plain: Collection[str]) -> list[str]:
    """The ``words`` written as a name that is also an English word would be (one capital, then
    lower case: "Flamingo", "Gopher"; not "DANCE", "RetNet", which the coined-term checks read)
    whose lower-case form is none of ``plain``, the words the collection's abstracts write in lower
    case: "Transformers" and "Speech" are words of the abstracts, "Chinchilla" is no word of them.
    Sorted; empty when none."""
    return sorted(w for w in words if _WORD_NAME.fullmatch(w) and w.lower() not in plain)


def bare_name(description: str) -> str:
    """The name a short description of one paper consists of, generic words aside ("the LoRA
    paper" -> "LoRA", "TTAB paper" -> "TTAB"), or ``""`` when it holds other words ("KataGo attack",
    "protein folding"): the paper meant is the one whose own name it is."""
    words = [w for w in description.split() if w.lower() not in _GENERIC_WORDS]
    if len(words) != 1 or not _is_name(words[0]) or words[0].lower() in STOPWORDS:
        return ""
    # "unstructured-sparsity-for-LLM-feedforward-layers": words run together by hyphens describe
    # a paper; a name has at most one ordinary word among its parts ("Graph-R1", "k-means", "Sharp-MAML")
    plain = [p for p in words[0].split("-") if p.islower() and len(p) > 2 and content_terms(p)]
    return "" if len(plain) >= 2 else words[0]


def versioned_names(text: str) -> tuple[str, ...]:
    """The names of a version or size ``text`` states, as typed, in order: a name's letters with a
    version or size after them ("GPT-4", "GPT-3.5", "ResNet-152", "StyleGAN3", "Llama-2",
    "FlashAttention-2", "Whisper-large-v3", "ViT-H", "BERT-large", "resnet152"), or a name and a
    model size as words of their own ("Mixtral 8x7B"). Each names that model, not its family
    ("GPT-4" is no "GPT", "ResNet-152" no "ResNet-50"). Letters in capitals alone with a number
    typed after them without a hyphen ("GSM8K", "INT8", "FP16") name benchmarks and formats; a
    single letter ("T5", "H100", "F1") is too short to tell; words in lower case before a hyphen
    ("sub-11B models") and lower-case runs with letters after the number ("seq2seq") are words. A
    name with a one-digit version after a space ("Llama 2", "Gemini 1.5"; not a numbered part,
    ``numbered_part``: "Table 2", "Stage 1"; nor in a parenthesis, which spells a name out:
    "GPT-4 (Generative Pre-trained Transformer 4)") and a name typed in lower case with a
    hyphen and a number ("gpt-4"; not "top-5") are versions too."""
    found: list[tuple[int, str]] = []
    typed_lower = coined_lowercase(text)
    for tok in named_entities(text) | typed_lower:
        m = _VERSION.fullmatch(tok)
        if m is None:
            continue
        stem, sep, rest = m.group("stem"), m.group("sep"), m.group("rest")
        sized = rest.lower().split("/")[0] in SIZE_WORDS
        versioned = any(c.isdigit() for c in rest) or (sep and sized)
        capitals = stem.isupper()
        if tok in typed_lower:
            named = rest.isdigit()  # "resnet152", "llama2"; "seq2seq", "gsm8k" are words or benchmarks
        else:
            named = any(c.isupper() for c in stem) and (not capitals or bool(sep))  # not "sub-11B", "GSM8K"
        if versioned and named:
            at = text.find(tok)
            dotted = re.match(r"(?:\.\d+)+", text[at + len(tok) :])  # "GPT-3.5", read as "GPT-3" and ".5"
            found.append((at, tok + dotted.group(0) if dotted else tok))
    for m in _SIZED_NAME.finditer(text):
        found.append((m.start(), f"{m.group('name')} {m.group('size')}"))
    for m in _SPACED_VERSION.finditer(_PARENTHESIS.sub(lambda x: " " * len(x.group(0)), text)):
        name = m.group("name").lower()
        if name not in STOPWORDS and name not in _NUMBERED_PART:
            found.append((m.start(), f"{m.group('name')} {m.group('v')}"))
    for m in _LOWER_VERSION.finditer(text):
        if not english_word(m.group("stem")):
            found.append((m.start(), m.group(0)))
    return tuple(dict.fromkeys(tok for _, tok in sorted(found)))


SLOT_NAME_PAPERS = 2
"""Most abstracts that may write a word as a name for the word, typed before the measure a question
asks ("Imagen FID on COCO?", "Whisper WER on LibriSpeech?"), to be read as the name of the paper
asked (:meth:`NameReader.name_in_slot`). Set from the library (3,098 ICML 2022-23 abstracts and
the seed): the names asked so, of no paper of it, are written by 0 (Whisper) or 1 (Imagen, in Muse)
abstracts; the measures and models a question may type before another measure word are written by
at least 3 (AUROC, CIDEr, PSNR 3; DALL-E 5; GPT-3 9; BLEU 10; FID 17; CLIP 30). Not fitted on
questions."""


class NameReader:
    """Reads names and words of the collection in a text (see the module docstring).

    Args:
        catalogue: The collection's papers, names and vocabulary.
    """

    def __init__(self, catalogue: Catalogue):
        self.catalogue = catalogue
        self.index = catalogue.names

    def search_query(self, text: str) -> SearchQuery:
        """What retrieval searches for ``text``: the text, the names it states (stated name -> paper
        id -> weight) and the coined terms it states that no paper holds (:meth:`match`)."""
        matches, unmatched = self.match(text)
        return SearchQuery(text, matches, tuple(unmatched))

    def _lowercase_names(self, question: str) -> set[str]:
        """Words of ``question`` written in lower case (or capitalised only) that are names and no
        ordinary word here."""
        out = set()
        for w in _RUN.findall(question):
            # a coinage with a digit inside ("data2vec") is no ordinary word, though abstracts write it so
            plain = w in self.index.plain and not coined_lowercase(w)
            ordinary = not w.islower() or plain or w in STOPWORDS or len(w) < 3
            near = len(w) >= 4 and w not in self.index.runs and self._near_name(w)
            if not ordinary and (w in self.index.names or near):
                out.add(w)
            elif w[:1].isupper() and w[1:].islower() and w.lower() in self.index.names and (
                w.lower() not in self.index.plain
            ):
                out.add(w)  # "Lora" at a sentence start or typed so: the name in another case
            elif w in self.index.title_forms:
                out.add(w)  # "Pythia", as its title writes it before the colon
        return out

    @functools.lru_cache(maxsize=4096)  # noqa: B019 - one reader per catalogue, its names never change
    def _near_name(self, word: str) -> dict[str, float]:
        """Papers whose name is one edit from ``word`` (hyphens ignored: "medlm" is ME-DLM; two
        letters swapped are one edit, as in :meth:`correct`), for a word of five or more letters
        that is no English word ("senday" -> SENDAI), or of four when the edit is a swap ("mcpl" ->
        MCLP: a letter changed in four is as likely another name)."""
        if english_word(word):
            return {}
        got: dict[str, float] = {}
        for name, ids in self.index.names.items():
            for form in {name, name.replace("-", "")}:
                if abs(len(form) - len(word)) <= 1 and OSA.distance(form, word) <= 1 and (
                    len(word) >= 5 or sorted(form) == sorted(word)
                ):
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
            (self.index.phrase_rank[phrase], phrase, pat)
            for run in {"", *_RUN.findall(qn)}
            for phrase, pat in self.index.phrases_by_first.get(run, ())
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
        for _, phrase, _ in sorted(found):  # in the order of self.index.phrases, as a full scan would find them
            if phrase in kept:
                matches[phrase] = dict.fromkeys(self.index.phrases[phrase], EXACT)
        for phrase in kept:  # the words of a matched phrase are no names of their own
            question = re.sub(rf"(?<![\w-]){re.escape(phrase)}(?![\w-])", " ", question, flags=re.I)
        tokens = set(named_entities(question)) | self._lowercase_names(question)
        # a word typed in capitals is a name by choice only in a question that writes other words
        # in lower case ("Which papers use CLIP?", not "WHICH PAPERS USE DIFFUSION?")
        by_choice = any(c.islower() for c in question)
        tokens |= {t for t in re.findall(r"[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)+", question) if len(t) >= 4}
        for tok in sorted(tokens, key=lambda t: (question.find(t), t)):  # in the order stated
            key = tok.lower()
            if key in matches:
                continue
            got: dict[str, float] = {}
            if key in self.index.names and self._benchmark_not_label(tok, self.index.names[key]):
                pass  # "on COCO": the benchmark, not the paper labelled "CoCo"
            elif key in self.index.names:
                got.update(dict.fromkeys(self.index.names[key], EXACT))
            elif key in self.index.runs:
                pass  # a word the papers hold is no typing error: no one-edit neighbour (LoRA is not QLoRA)
            elif len(key) >= 4 and not tok.islower():
                for name, ids in self.index.names.items():
                    if abs(len(name) - len(key)) <= 1 and OSA.distance(name, key) <= 1:
                        got.update(dict.fromkeys(ids, ONE_EDIT))
            elif tok.islower():
                got.update(self._near_name(key))  # cached: _lowercase_names asked it already
            if not got and key in self.index.terms:
                if len(self.index.terms[key]) > max(1, TERM_SHARE * self.index.n_papers):
                    continue  # a term many abstracts use ("LLM") points to none of them, and is not missing
                got.update(dict.fromkeys(self.index.terms[key], TERM))
            if got:
                matches[tok] = got
            elif not self.index.holds(key, capitals=by_choice and tok.isupper() and len(tok) >= MIN_CASED) \
                    and key not in STOPWORDS and (
                tok.isupper() or any(c.isdigit() for c in tok) or tok[1:].lower() != tok[1:]
            ):
                unmatched.append(tok)
        return matches, unmatched


    @functools.cached_property
    def _title_leads(self) -> dict[str, list[tuple[tuple[str, ...], str, bool]]]:
        """The words of each title and of its part after the colon (an article dropped: "dormant
        neuron phenomenon in deep reinforcement learning"), by their first word: first word ->
        [(words, paper id, closing)]; ``closing`` (a run that must reach the title's end) is unused:
        closing words are often a field's ("optimal transport maps", "private convex optimization")
        and named the wrong paper in two library descriptions."""
        leads: dict[str, list[tuple[tuple[str, ...], str, bool]]] = {}
        for p in self.catalogue.papers.values():
            for part in (p.title or "").split(":")[:2]:
                words = tuple(_RUN.findall(normalize(part)))
                while words and words[0] in _TITLE_ARTICLE:
                    words = words[1:]
                if len(words) >= TITLE_RUN_WORDS:
                    leads.setdefault(words[0], []).append((words, p.id, False))
        return leads

    @functools.cached_property
    def _texts(self) -> dict[str, str]:
        """Each paper's title and abstract, normalised, for :meth:`_title_runs` to tell whether
        another paper writes a run of a title."""
        return {pid: normalize(f"{p.title or ''} {p.abstract}") for pid, p in self.catalogue.papers.items()}

    def title_runs(self, question: str) -> dict[str, tuple[str, ...]]:
        """The runs of ``question`` that open a title, or its part after the colon, for
        :data:`TITLE_RUN_WORDS` words or more with two content terms ("dormant neuron phenomenon",
        "deduplicating training data mitigates privacy risks", "whose opinions do language models reflect")
        and that no other paper's title or abstract writes: phrase (normalised) -> the paper it
        names. A name of the paper in its title's words, as the reader takes it of a question
        asked of one paper (:class:`rag.question.reader.Reader`)."""
        qn = normalize(question)
        found: dict[str, tuple[str, ...]] = {}
        runs = list(_RUN.finditer(qn))
        words = [m.group(0) for m in runs]
        for i, w in enumerate(words):
            for title, pid, closing in self._title_leads.get(w, ()):
                k = 0
                while k < len(title) and i + k < len(words) and words[i + k] == title[k]:
                    k += 1
                if closing and k < len(title):
                    continue
                while k and title[k - 1] in STOPWORDS:
                    k -= 1  # "dormant neuron phenomenon in" ends at its last content word
                if k < TITLE_RUN_WORDS or len(content_terms(" ".join(title[:k]))) < 2:
                    continue
                phrase = qn[runs[i].start() : runs[i + k - 1].end()]
                pattern = re.compile(rf"(?<![\w-]){re.escape(phrase)}(?![\w-])")
                if any(pattern.search(t) for other, t in self._texts.items() if other != pid):
                    continue
                found.setdefault(phrase, ())
                found[phrase] = tuple(dict.fromkeys((*found[phrase], pid)))
        return {p: ids for p, ids in found.items() if len(ids) == 1}

    def name_in_slot(self, question: str, terms: Sequence[str]) -> str:
        """The name of the paper a question asks a measure of when it types the name inside the
        slot, right before the measure ("Imagen" of "Imagen FID on COCO?", slot terms ``("imagen",
        "fid")``; "Whisper" of "Whisper WER on LibriSpeech?", a word no abstract writes), as typed;
        ``""`` otherwise.

        The slot's first word is such a name when the question types it with a capital, the next
        term of the slot follows it at once, and the collection does not use it as a word or a
        name of many papers: no abstract writes it in lower case ("Training time": a word), it is
        no benchmark the glossary lists ("ImageNet accuracy", "COCO FID"), no paper's name (those
        are references already), and at most :data:`SLOT_NAME_PAPERS` abstracts write it as a
        name ("FID score", "BLEU gain", "CLIP score" are measures many abstracts name), nor an
        English word abstracts write only at a sentence's start ("Pruning time": "Pruning keeps
        ..."; "Gemini latency" is a name: "beats Gemini Pro"). The
        route then checks the name as it checks a name asked alone ("No paper in the collection
        is Imagen").

        Args:
            question: The question as typed.
            terms: The slot's terms, lower case, in order (:attr:`rag.types.Slot.terms`).
        """
        if len(terms) < 2:
            return ""
        m = re.search(rf"(?<![\w-]){re.escape(terms[0])}(?![\w-])\s+{re.escape(terms[1])}(?![\w-])", question, re.I)
        if m is None:
            return ""
        typed = m.group(0).split()[0]
        key = typed.lower()
        if not typed[:1].isupper() or typed in glossary_benchmarks() or key in self.index.plain:
            return ""
        if key in self.index.names or len(self.index.terms.get(key, ())) > SLOT_NAME_PAPERS:
            return ""
        cased = re.compile(rf"(?<![\w-]){re.escape(typed)}(?![\w-])")
        writers = [p.text_for_index for p in self.catalogue.papers.values() if cased.search(p.text_for_index)]
        if len(writers) > SLOT_NAME_PAPERS:
            return ""
        # "Pruning time?": an English word abstracts write only at a sentence's start ("Pruning keeps
        # ...") is a word; inside a sentence a capital makes it a name ("beats Gemini Pro")
        inside = re.compile(rf"[^.!?:\s]\s+{re.escape(typed)}(?![\w-])")
        if english_word(key) and key in self.index.runs and not any(inside.search(t) for t in writers):
            return ""
        return typed

    def _benchmark_not_label(self, token: str, ids: Collection[str]) -> bool:
        """Whether ``token`` names a benchmark the glossary lists ("COCO") written otherwise than the
        label of the papers it would match ("CoCo"): "What AP does MTPD reach on COCO?" was refused
        as asking about the library paper CoCo."""
        if token not in glossary_benchmarks():
            return False
        papers = self.catalogue.papers
        return all(p in papers and token not in (papers[p].label, *papers[p].aliases) for p in ids)

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

    def written_form(self, word: str) -> str:
        """``word`` as the abstracts write it when it is typed with a digit for the preposition it
        sounds like between two words (:data:`DIGIT_PREPOSITIONS`: "sim2real" -> "sim-to-real",
        "text2image" -> "text-to-image"), and the collection writes that hyphenated form and not the
        typed one; ``word`` itself otherwise (a name written so, "word2vec", "seq2seq" where an
        abstract writes it, stays)."""
        m = _DIGIT_COMPOUND.fullmatch(word)
        w = word.lower()
        if m is None or w in self.catalogue.vocabulary:
            return word
        form = f"{m.group(1)}-{DIGIT_PREPOSITIONS[m.group(2)]}-{m.group(3)}"
        return form if form.lower() in self.catalogue.vocabulary else word

    def correct(self, word: str) -> str:
        """``word`` with a typing error corrected to the collection's nearest word: one edit (a
        letter added, dropped, changed, or two swapped) for five to seven letters, two for longer
        words ("reinforcment" -> "reinforcement", "agnets" -> "agents"). Words the
        abstracts use, English words, short words, anything with digits, acronyms ("MLLMs": two or
        more capitals), plurals of words the abstracts use ("mllms" for "MLLM") and words they write
        hyphenated ("pretraining" for "pre-training") are kept. A
        dictionary word of :data:`LONG_WORD` letters or more that no abstract uses is corrected
        when one edit away from a word they use: the dictionary also holds common misspellings
        ("forcasting"), and long words rarely have a real word one edit away; the edit must be a slip of
        the fingers (:func:`typing_slip`): "splatting" is kept, not read as "splitting". It is kept when it is
        a British spelling ("summarise") or another form of a word the abstracts use, by index key
        (:func:`rag.lexicon.stem` of :func:`rag.lexicon.lemma`): "optimizer" is not "optimized". An
        ``-en`` verb no abstract uses is read as the word it is made from, in the same inflection,
        when the abstracts write that (:func:`rag.lexicon.en_verb_base`: "over-smoothening" ->
        "over-smoothing", which no edit distance reaches: two letters are missing). A British ``-ise``
        form the dictionary of :func:`rag.lexicon.american` lacks is read as the ``-ize`` spelling the
        abstracts write, even when one abstract writes it the British way (:func:`rag.lexicon.iz_spelling`:
        "learned optimisers" was read as "learned optimizes" in the seed, and in the library found the
        one paper that writes "optimisers", not the four that write "optimizers")."""
        w = word.lower()
        vocabulary = self.catalogue.vocabulary
        iz = iz_spelling(w) if len(w) >= 5 and american(w) == w else ""
        written = [f for f in (iz, iz.removesuffix("s"), f"{iz}s") if iz and f in vocabulary]
        if written:
            # "optimisers": the abstracts write "optimizers", in either number (the one that writes
            # "optimisers" is indexed under its own spelling, which no other shares)
            return written[0]
        if len(w) < 5 or not w.isalpha() or w in vocabulary or w in self.catalogue.joined:
            return word
        if sum(c.isupper() for c in word) >= 2 or (w.endswith("s") and w[:-1] in self.catalogue.vocabulary):
            return word
        if (base := en_verb_base(w)) and base in self.catalogue.vocabulary:
            return base  # "smoothening": the abstracts write "smoothing" (rag.lexicon.en_verb_base)
        if english_word(w):
            if len(w) < LONG_WORD or american(w) != w or stem(lemma(w)) in self.catalogue.index_keys:
                return word  # another form of a word the abstracts use ("optimizer": "optimization")
            near = self._nearest(w, 1)
            # a dictionary word is a typing error only by a slip of the fingers ("forcasting"), not
            # when it is another word one letter away ("splatting" is not "splitting")
            return near if near and typing_slip(w, near) else word
        return self._nearest(w) or word

    @functools.lru_cache(maxsize=4096)  # noqa: B019 - one catalogue per process, its words never change
    def _nearest(self, w: str, limit: int = 0) -> str:
        limit = limit or (1 if len(w) <= 7 else 2)
        words = self.catalogue.by_length.get(len(w), ())
        near = [v for n in range(len(w) - limit, len(w) + limit + 1) for v in self.catalogue.by_length.get(n, ())]
        # optimal string alignment: two swapped letters are one edit ("agnets" -> "agents")
        got = process.extractOne(w, near or words, scorer=OSA.distance, score_cutoff=limit)
        return got[0] if got else ""

    def fuzzy(self, ref: str, floor: float) -> list[str]:
        """Papers whose name (label or alias no other abstract uses) is within ``floor``
        (rapidfuzz ratio, 0-100) of ``ref``, best first; generic words ("the ... paper") are ignored."""
        key = re.sub(r"\s+", " ", _STRIP_GENERIC.sub(" ", normalize(ref).replace("-", " "))).strip()
        if not key:
            return []
        best: dict[str, float] = {}
        for name, pids in [*self.index.names.items(), *self.index.phrases.items()]:
            s = fuzz.ratio(key, name.replace("-", " "))
            for pid in pids:
                if s >= floor and s > best.get(pid, 0):
                    best[pid] = s
        top = max(best.values(), default=0)
        return [pid for pid, s in sorted(best.items(), key=lambda t: -t[1]) if s >= top - 3]
