"""The sub-questions of a question, the parts of a topic, and the words that only say which paper it is about.

"What X, and how does it Y?" asks two things (:func:`question_parts`); "diffusion models for weather
forecasting" is a topic of two parts a paper must both state (:func:`topic_parts`); "In the unified
graph-based dataset pruning paper, what ...?" names its paper by a description that is not what to
quote (:func:`without_paper_description`). The words are classes of ``vocabulary/parts.toml``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rag.lexicon import glossary_forms
from rag.question.phrasing import CLAUSE_OPENER, RESTATING_DASH, facets
from rag.question.roles import is_summary, question_roles
from rag.text import content_terms
from rag.vocabulary import beside

__all__ = [
    "described_head",
    "examples_in_place",
    "exemplified",
    "description_clauses",
    "distinguishing",
    "question_parts",
    "asked_parts",
    "topic_parts",
    "word_conjuncts",
    "topic_stages",
    "field_headed",
    "paper_description",
    "without_paper_description",
]

_VOCABULARY = beside(__file__, "parts")
_V = {name: cls.source for name, cls in _VOCABULARY.items()}

_PART = re.compile(
    rf"(?:,\s*|\s+){_V['part_joiner']}\s+(?={_V['part_opener']})|[;?]\s+(?=\S)|(?<=[\w)])[.!]\s+(?={_V['part_opener']}\s)|(?:,|\s+[-–—]+)\s*(?={_V['comma_opener']}\b)"
    rf"|(?:,\s*|\s+)(?:{_V['part_joiner']}\s+)?(?={_V['enumeration_mark']}\s)",
    re.I,
)


# where a message's sentence ends and another that asks begins: its description of a paper is its own
_SENTENCE_END = re.compile(rf"(?<=[\w)])[.!?]\s+(?={_V['part_opener']}\s)|\?\s+(?=\S)", re.I)


def _split(question: str) -> list[str]:
    """The pieces of ``question`` at :data:`_PART`, each sentence without the words that describe
    its paper (:func:`without_paper_description`, read per sentence: "Find the paper on dexterous
    functional retargeting. What does it propose?" keeps its first sentence, which seeks the paper,
    whole, not "Find ." beside the second)."""
    sentences = [s for s in _SENTENCE_END.split(question) if s and s.strip()]
    if len(sentences) < 2:
        return [p.strip() for p in _PART.split(without_paper_description(question)) if p and p.strip()]
    return [p.strip() for s in sentences for p in _PART.split(without_paper_description(s)) if p and p.strip()]


def question_parts(question: str) -> list[str]:
    """The sub-questions of a question: "What X, and how does it Y?" -> ["What X", "how does it Y?"];
    a sentence that opens as a question after one that describes ("I remember a paper that prunes
    OPT-175B in one shot. What else does it support?") is one too.

    Parts without a content term are dropped; a one-part question gives ``[question]``.
    """
    parts = [p for p in _split(question) if content_terms(p)]
    return parts or [question]


def asked_parts(question: str) -> list[str]:
    """:func:`question_parts`, keeping also a part that asks a role of its paper in words no
    content term holds ("What does the LLM routing paper propose and how is it evaluated?" ->
    ["What  propose", "how is it evaluated?"], :func:`rag.question.roles.question_roles`): each
    half is something to answer, though neither is a word to search for."""
    parts = [p for p in _split(question) if content_terms(p) or question_roles(p)]
    return parts or [question]


# "In the unified graph-based dataset pruning paper, what ..." / "the paper on quantum estimation
# of nested expectations, including ...": words that say which paper, not what to quote from it.
_DESCRIPTION = re.compile(
    rf"\b(?:{_V['description_prep']}\s+)?the {_V['paper_noun']}\s+{_V['description_link']}[^,?;:.]*[,:]?|"
    rf"\b(?:{_V['description_lead']}\s+)?the\s+(?:(?!{_V['not_description_word']})[\w$\\{{}}-]+\s+){{1,8}}?"
    rf"{_V['paper_noun']}\s*,?",
    re.I,
)


_CLAUSE = re.compile(
    rf"\s*[,;:()]\s*|\s+[-–—]+\s+|\s+(?=(?:{CLAUSE_OPENER.source}|{_VOCABULARY['clause_link'].source})\s)", re.I
)
DESCRIPTION_CLAUSE_TERMS = 2
"""Fewest content terms of a clause of a description (:func:`description_clauses`); a shorter
piece ("pairs", "or lists") joins the clause before it."""


def bare_compound(part: str, max_terms: int) -> bool:
    """Whether ``part`` of a topic is a bare compound of 2 to ``max_terms`` content words, the
    name of a subject ("sign language recognition", "on private training": function words at its
    ends are not the subject's), not a description with function words inside ("a smaller student
    model", "help decide whether a piece")."""
    terms = set(content_terms(part))
    words = [w.lower() for w in re.findall(r"\b[A-Za-z][\w-]*", part)]
    while words and words[0] not in terms:
        words.pop(0)
    while words and words[-1] not in terms:
        words.pop()
    return 2 <= len(terms) <= max_terms and all(w in terms for w in words)


COMPOUND_MAX_TERMS = 2
"""Most content words of a topic read as one bare compound (:func:`compound_topic`): "GNN
oversmoothing", "split learning", "edge of stability" (2). Three words are often a verb and its
object ("assuming Hölder smoothness", which no abstract writes whole but four abstracts answer), so
a compound no abstract states is refused only at two words; found by reading the first answers of
stop 59 (a false refusal at 4), not fitted."""
_COMPOUND_JOINER = _VOCABULARY["compound_joiner"].words


def compound_topic(text: str, max_terms: int = COMPOUND_MAX_TERMS) -> str:
    """``text`` as one bare compound, or ``""``: 2 to ``max_terms`` distinct content words, no digit,
    joined at most by a preposition of ``compound_joiner`` ("edge of stability"), function words at
    its ends dropped ("the split learning" -> "split learning"). "learning to split trees" and
    "models with data splits" describe, and are no compound."""
    words = re.findall(r"[A-Za-z0-9][\w-]*", text)
    while words and not content_terms(words[0]):
        words.pop(0)
    while words and not content_terms(words[-1]):
        words.pop()
    terms = content_terms(" ".join(words))
    if not 2 <= len(set(terms)) <= max_terms or len(terms) > max_terms:
        return ""
    if any(not content_terms(w) and w.lower() not in _COMPOUND_JOINER for w in words):
        return ""
    if any(not w.replace("-", "").isalpha() for w in words):
        return ""
    return " ".join(words)


_SUBJECT_CONJUNCT = re.compile(rf"\s+{_VOCABULARY['subject_conjunct'].source}\s+", re.I)


def coordinated_subjects(alternative: str, max_terms: int) -> tuple[str, ...]:
    """The conjuncts of an alternative that joins subjects with "and" (``subject_conjunct``), each
    a bare compound of 2 to ``max_terms`` content words (:func:`bare_compound`): "differential
    privacy and federated learning" -> ``("differential privacy", "federated learning")``; ``()``
    when a conjunct is one word ("speech synthesis and recognition": the subject's head shared, an
    ellipsis) or a description ("models that detect and defend against attacks"). Whether they
    are subjects a paper must each state is the collection's to say
    (:meth:`rag.route.refusal.RefusalPolicy.stacked`: each written side by side, the whole by none).

    Args:
        alternative: One alternative of a topic (:attr:`rag.question.plan.Topic.text` or a facet).
        max_terms: Most content words of a conjunct (``subject_max_terms``).

    Returns:
        The conjuncts in order (two or more), or ``()``.
    """
    pieces = [p.strip(" ,;") for p in _SUBJECT_CONJUNCT.split(alternative)]
    if len(pieces) < 2 or not all(bare_compound(p, max_terms) for p in pieces):
        return ()
    return tuple(pieces)


_CONTRASTED = re.compile(rf"{_VOCABULARY['part_contrast'].source}[^,;:?.]*[,;:]?", re.I)


_EXAMPLE_LIST = re.compile(r"\s*\(([^()]*(?:,|\bor\b)[^()]*)\)", re.I)
"""A parenthesis listing several items ("(max-flow, shortest paths, bipartite matching)",
"(speech or audio)"): examples or alternatives of the words before it."""


def description_clauses(description: str) -> list[str]:
    """The clauses of a description of one paper, each of which one sentence of its abstract may
    state: "that paper recasting predict-then-optimize training as getting the ordering of feasible
    solutions right, with losses over single solutions, pairs or lists" -> ["that paper recasting
    ... right", "with losses over single solutions pairs or lists"].
    A parenthesis that lists several items lists examples or alternatives of the words before it
    ("speeds up graph algorithms (max-flow, shortest paths) with learned predictions"), each of
    which a paper may state alone: its items are no clauses.

    Split at commas, semicolons, colons, parentheses and dashes, and before the words that open
    another clause (phrasing's ``clause_opener``: "that", "where", ...; ``clause_link``: "with",
    "evaluated", ...); a piece of fewer than :data:`DESCRIPTION_CLAUSE_TERMS` content terms joins
    the one before it. What the paper is contrasted with (``part_contrast`` up to the next comma:
    "Rather than only detecting that the data changed, ...") is no clause: the paper does not do it.

    Returns:
        The clauses in order; ``[description]`` when it has one; ``[]`` when all of it is a contrast.
    """
    kept = _CONTRASTED.sub(" ", description)
    if not content_terms(kept):
        return []
    # examples listed in a parenthesis are alternatives of the class before it, each paper states
    # one of them ("graph algorithms (max-flow, shortest paths, bipartite matching)"), not clauses
    # one paper states all of
    bare = _EXAMPLE_LIST.sub(" ", kept)
    kept = bare if content_terms(bare) else kept
    out: list[str] = []
    for piece in (p.strip() for p in _CLAUSE.split(kept)):
        if not piece:
            continue
        if out and len(content_terms(piece)) < DESCRIPTION_CLAUSE_TERMS:
            out[-1] = f"{out[-1]} {piece}"
        else:
            out.append(piece)
    if len(out) > 1 and len(content_terms(out[0])) < DESCRIPTION_CLAUSE_TERMS:
        first = out.pop(0)
        out[0] = f"{first} {out[0]}"
    return out or [kept.strip()]


DISTINGUISHING_TERMS = 2
"""Fewest content terms of a part of a description that tells its paper from others
(:func:`distinguishing`), unless it is written as a name or with a figure. On 20 descriptions of
papers the 3,136-paper library does not hold, each part another paper states that the answer
lacked has two or more ("detects audio deepfakes", "federated reinforcement learning") or is a
name ("RLHF"); on 20 of papers it holds, the parts the right paper lacks that another states are
lone common words the reading cut off ("put", "decide where" of "decide where to put them")."""


def distinguishing(part: str) -> bool:
    """Whether ``part`` of a description can tell its paper from others
    (:meth:`rag.route.refusal.PartsCoverage.apart`): at least :data:`DISTINGUISHING_TERMS` content
    terms ("tune autonomous driving policies"), or one written as a name or with a figure ("RLHF",
    "Atari", "2 bits"); not a lone lower-case word ("put", "decide where")."""
    terms = content_terms(part)
    named = any(c.isupper() or c.isdigit() for c in part)
    return len(terms) >= DISTINGUISHING_TERMS or (bool(terms) and named)


_PAPER_WORDS = re.compile(rf"\b(?:the|{_V['paper_noun']}|{_V['description_lead']}|{_V['description_prep']})\b", re.I)


def paper_description(question: str) -> str:
    """The words of a phrase that describes which paper the question asks about, without "the",
    the paper noun and the linking words ("What problem does the online routing paper address?"
    -> ``"online routing"``; "the paper on quantum estimation of nested expectations" -> ``"on
    quantum estimation of nested expectations"`` less its link words); ``""`` when it describes
    none. Whether some sentence is close to these words says whether the collection holds the
    paper described, whatever else the question asks of it (:mod:`rag.route.refusal`)."""
    m = _DESCRIPTION.search(question)
    if m is None:
        return ""
    words = _PAPER_WORDS.sub(" ", m.group(0))
    words = re.sub(rf"\b(?:{_V['description_link']})\b", " ", words, flags=re.I)
    return " ".join(words.replace(",", " ").replace(":", " ").split())


def without_paper_description(question: str) -> str:
    """The question without a phrase that describes which paper it is about.

    "In the unified graph-based dataset pruning paper, what combinatorial problem is pruning
    cast as?" -> "what combinatorial problem is pruning cast as?". The question is returned
    unchanged when removing the description would leave fewer than two content terms, unless
    it asks for one role ("What does the ride-hailing paper propose?" asks for its method; a
    summary asks for every role and keeps its words).
    """
    out = _DESCRIPTION.sub(" ", question)
    asks_role = bool(question_roles(question)) and not is_summary(question)
    return out if len(content_terms(out)) >= 2 or asks_role else question


_RELATION = re.compile(
    rf"\s+(?:{_VOCABULARY['part_conjunct'].source}|{_VOCABULARY['part_relation'].source})\s+|:\s+", re.I
)
_CONTRAST = _VOCABULARY["part_contrast"].pattern
_CLAUSE_OPENER = CLAUSE_OPENER.pattern
_FIELD = _VOCABULARY["field_word"].words
_PRO_FORM = _VOCABULARY["pro_form"].words
_COMPARATIVE = _VOCABULARY["comparative"].words


_MANNER_SUFFIXES = tuple(_VOCABULARY["manner_adverb_suffix"].words)
MANNER_MIN_LETTERS = 7
"""Shortest manner adverb (:func:`_manner`): "really" and "tally" are not read as one."""


def field_headed(part: str) -> bool:
    """Whether ``part`` is one word before a head that names the field (``field_word``: "equivariant
    networks", "equivariant models", "contrastive learning"): the modifier says what the papers are
    about, and an abstract writes it before the model or method it builds ("E(3) equivariant
    variational autoencoder", "based on contrastive estimation"), the field's word elsewhere in
    the same sense. Such a part holds no words another sense could put apart
    (:meth:`rag.route.membership.Membership.parts_apart`)."""
    terms = content_terms(part)
    return len(terms) == 2 and terms[-1].lower() in _FIELD and terms[0].lower() not in _FIELD


def _manner(word: str) -> bool:
    """Whether ``word`` is an adverb of manner by its ending ("theoretically", "extensively")."""
    w = word.lower().strip(",;:.()")
    return len(w) >= MANNER_MIN_LETTERS and w.isalpha() and w.endswith(_MANNER_SUFFIXES)


_LEAD_VERB = _VOCABULARY["part_lead_verb"].words


def _without_lead_verb(part: str) -> str:
    """``part`` without a verb opening it that says what the papers did with its subject
    (``part_lead_verb``: "applied federated learning" -> "federated learning", "trained spiking
    neural networks" -> "spiking neural networks"), when two content words or more are left: the
    subject is what an abstract states, in its own verbs ("we propose a federated learning
    framework"). "trained models" stays: one word left names no subject."""
    first, _, rest = part.partition(" ")
    if first.lower() in _LEAD_VERB and len(content_terms(rest)) >= 2:
        return rest
    return part


def _segments(alternative: str) -> list[str]:
    """The parts of one alternative of a topic, split at the prepositions that relate them
    ("denoising diffusion models for probabilistic weather forecasting" -> ["denoising diffusion
    models", "probabilistic weather forecasting"]; "state-of-the-art" is one word) and at an "and"
    that joins two predicates ("medical imaging and use reinforcement learning"); parts made only
    of words that name the field ("apply deep learning") or of comparatives ("into smaller"), and
    parts that end in a pro-form referring back to the part before ("into smaller ones for speech"),
    are dropped, and so are adverbs of manner ("transformers theoretically": "transformers") and a
    verb opening a part that says what the papers did with its subject (:func:`_without_lead_verb`)."""
    # how the papers study it ("theoretically", "empirically") is no part a paper must state
    alternative = " ".join(w for w in alternative.split() if not _manner(w))
    pieces = [_without_lead_verb(p.strip(" ,;:.-")) for p in _RELATION.split(f" {alternative} ")]
    return [
        p for p in pieces
        if p and [t for t in content_terms(p) if t.lower() not in _FIELD | _COMPARATIVE]
        and p.split()[-1].lower() not in _PRO_FORM
    ]


_EXAMPLE_OPENER = re.compile(rf"(?:\s*,\s*|\s+)\(?{_V['example_opener']}[\s,]+|\s*\(", re.I)
_KIND = re.compile(rf"\b([\w]*[A-Z][\w]*)-{_V['kind_suffix']}\b")
CLASS_MAX_WORDS = 3
"""Most words of the class an example list follows ("hard Atari games like Montezuma's Revenge",
"classic graph algorithms (max-flow, shortest paths)"): the content words right before the opener,
after the last function word. Set by reading: the classes of the library questions that list
examples are one to three words ("board games", "routing problems", "graph algorithms")."""


def _class_before(text: str) -> str:
    """The class of things ``text`` ends with: its last content words, after the last function
    word, at most :data:`CLASS_MAX_WORDS` ("train neural solvers for routing problems" -> "routing
    problems"); ``""`` when it ends with none."""
    words = text.split()
    run: list[str] = []
    while words and len(run) < CLASS_MAX_WORDS and content_terms(words[-1]):
        run.insert(0, words.pop())
    return " ".join(run)


def _in_place(host: str, cls: str, example: str) -> str:
    """``host`` with its last ``cls`` read as ``example``."""
    at = host.rfind(cls)
    return f"{host[:at]}{example}{host[at + len(cls):]}"


def exemplified(topic: str, alternatives: Sequence[str], *, kinds: bool = True) -> list[str]:
    """The alternatives of a topic with each example it lists read in the place of its class.

    A topic may list examples of a class ("AlphaZero agents for board games like Go, chess or
    Hex", "continual learning on benchmarks like Split CIFAR", ``example_opener``): a paper on any
    example states the class, so an alternative that names the class and its first example in one
    piece ("board games like Go", which no abstract writes) is read as the class alone ("AlphaZero
    agents for board games") followed by each example in the class's place ("AlphaZero agents for
    Go", "... for chess"), keeping the rest of the alternative. Examples the facets already list
    apart ("StarCraft" of "... on benchmarks such as StarCraft") stay as they are: an abstract may
    name one without the rest in the question's words ("neural methods" for "train neural
    solvers"), and requiring the rest would turn on a parts check the topic did not have. With
    ``kinds``, a name's kind suffix (``kind_suffix``: "KataGo-style agents") is the name ("KataGo
    agents"), as the facets already read the first of two coordinated names ("AlphaZero- or
    KataGo-style agents" -> "AlphaZero agents").

    Args:
        topic: The topic text, as :func:`topic_parts` reads it.
        alternatives: Its alternatives (:func:`rag.question.phrasing.facets`, or ``[topic]``).
        kinds: Read kind suffixes. Only for a topic that asks for several papers, whose parts
            choose the papers listed: in a description of one paper ("boosts LLaDA-style generation
            on HumanEval ...") the parts check only refuses, and the bare name would make the part a
            subject the collection holds (every word in some abstract, ``"llada-style"`` in none)
            that the paper states in other words ("when built upon LLaDA, our method achieves
            consistent gains"), refusing it.

    Returns:
        The alternatives in order, each host followed by its examples in its place; unchanged (but
        for kind suffixes) when no alternative names a class and its first example in one piece.
    """
    out = [_KIND.sub(r"\1", a) if kinds else a for a in alternatives]
    topic = _KIND.sub(r"\1", topic) if kinds else topic
    for m in _EXAMPLE_OPENER.finditer(topic):
        cls = _class_before(topic[: m.start()])
        if not cls:
            continue
        close = topic.find(")", m.end()) if "(" in m.group(0) else -1
        region = topic[m.end() : close if close >= 0 else len(topic)].strip(" .,;)")
        items = [x.strip(" .") for x in (facets(region) or (region,)) if content_terms(x)]
        hosts: list[str] = []
        for i, a in enumerate(out):
            inner = _EXAMPLE_OPENER.search(a)
            if inner and a[inner.end() :].strip(" .)") in items and cls in a[: inner.start()]:
                out[i] = a[: inner.start()].strip()
                hosts.append(out[i])
        read: list[str] = []
        for a in out:
            read.append(a)
            if a in hosts:
                read += [_in_place(a, cls, x) for x in items]
        out = list(dict.fromkeys(read))
    return out


def examples_in_place(topic: str) -> tuple[str, ...]:
    """The topic read once per example it lists, each in its class's place, its other words kept.

    "speeds up classic graph algorithms (max-flow, shortest paths) by warm-starting them with learned
    predictions" -> "speeds up max-flow by warm-starting them with learned predictions", "speeds up
    shortest paths by warm-starting them ..."; "cooperative MARL on benchmarks such as StarCraft" ->
    "cooperative MARL on StarCraft" (``example_opener``, a parenthesis; the class is
    :func:`_class_before`). The facets list each example alone ("max-flow"), which the embedder
    places as close to any sentence on max-flow as to one on speeding it up with predictions; read
    in place, an example keeps what the topic says of its class (:meth:`rag.route.membership.Membership.features`).

    Returns:
        The readings in order of the examples; ``()`` when the topic lists no examples of a class.
    """
    out: list[str] = []
    for m in _EXAMPLE_OPENER.finditer(topic):
        cls = _class_before(topic[: m.start()])
        if not cls:
            continue
        close = topic.find(")", m.end()) if "(" in m.group(0) else -1
        stop = close if close >= 0 else len(topic)
        region = topic[m.end() : stop].strip(" .,;)")
        items = [x.strip(" .") for x in (facets(region) or (region,)) if content_terms(x)]
        host = " ".join(f"{topic[: m.start()]} {topic[stop + 1 :] if close >= 0 else ''}".split())
        out += [_in_place(host, cls, x) for x in items if x != cls]
    return tuple(dict.fromkeys(x for x in out if x != topic))


def topic_parts(topic: str, *, several: bool = True) -> tuple[tuple[str, ...], ...]:
    """Each alternative of a topic as the parts a paper must all state.

    The alternatives are the topic's facets (:func:`rag.question.phrasing.facets`; none: the topic
    is one alternative), after what the topic contrasts its papers with is cut ("instead of growing
    them greedily") and, in a topic that asks for several papers, so is a relative clause after its
    head (phrasing's ``clause_opener``: "valid prediction intervals for time series whose distribution drifts
    over time" -> ``(("valid prediction intervals", "time series"),)``), which describes the head
    in other words (in a description of one paper it says which paper). An alternative
    joined to its neighbour by "or" or "and" that has no relating preposition shares the other
    parts of that neighbour (coordination ellipsis): "differentially private training of decision
    trees or random forests" -> ``(("differentially private training", "decision trees"),
    ("differentially private training", "random forests"))``; "make neural network training or
    inference practical under homomorphic encryption" -> "homomorphic encryption" is a part of both.
    A class named with its first example ("board games like Go") is the class or any example in
    its place (:func:`exemplified`).

    Args:
        topic: The topic text (frame removed), as :attr:`rag.question.plan.Topic.text`.
        several: The question asks for several papers (:attr:`rag.question.plan.Topic.number`
            ``many``): a relative clause after the head is cut, and a name's kind suffix is the
            name (:func:`exemplified`).

    Returns:
        One tuple of parts per alternative, in order; ``()`` when no alternative has two parts
        (a topic of one part is judged as a whole, by the refusal policy and membership).
    """
    cut = _CONTRAST.search(topic)
    if cut and content_terms(topic[: cut.start()]):
        topic = topic[: cut.start()].strip(" ,;")
    clause = _CLAUSE_OPENER.search(topic) if several else None
    if clause and content_terms(topic[: clause.start()]):
        # a relative clause describes the head before it in other words ("time series whose
        # distribution drifts over time", "sparse expert models, where a router sends each token
        # ..."): an abstract may say it in its own words, and membership judges it with the topic
        # whole, so its words are no part a paper must state
        topic = topic[: clause.start()].strip(" ,;:-–—")
    alts = exemplified(topic, list(facets(topic)) or [topic], kinds=several)
    split = [_segments(a) for a in alts]
    out: list[list[str]] = []
    for i, parts in enumerate(split):
        if len(parts) == 1 and len(alts) > 1:
            short = len(parts[0].split()) <= 3
            if i > 0 and short and len(split[i - 1]) > 1 and _coordinated(alts[i - 1], alts[i], topic):
                parts = [*split[i - 1][:-1], parts[0]]  # "X of A or B": "X of B"
            elif i + 1 < len(alts) and len(split[i + 1]) > 1 and _coordinated(alts[i], alts[i + 1], topic):
                parts = [parts[0], *split[i + 1][1:]]  # "A or B under Y": "A under Y"
        out.append(parts)
    if not any(len(p) > 1 for p in out):
        return ()
    return tuple(tuple(dict.fromkeys(p)) for parts in out if parts for p in _each_conjunct(parts))


def word_conjuncts(part: str) -> tuple[str, ...]:
    """The conjuncts of a part that joins single words with "and" (``subject_conjunct``): "molecules
    and materials" -> ``("molecules", "materials")``, "the images and text" -> ``("images",
    "text")``; ``()`` when the part joins nothing or a conjunct has more than one content word
    ("speech synthesis and recognition", "last-layer features and classifiers at the end")."""
    pieces = [[w for w in p.strip(" ,;").split() if content_terms(w)] for p in _SUBJECT_CONJUNCT.split(part)]
    if len(pieces) < 2 or any(len(p) != 1 or len(content_terms(p[0])) != 1 for p in pieces):
        return ()
    return tuple(p[0] for p in pieces)


def _each_conjunct(parts: Sequence[str]) -> list[tuple[str, ...]]:
    """An alternative of several parts read once per conjunct of a part that joins single words
    (:func:`word_conjuncts`): "learn force fields for molecules and materials" lists the kinds of
    thing its papers work on, and a paper on either answers (a force field of molecules states it), so
    it is ``("learn force fields", "molecules")`` or ``("learn force fields", "materials")``, not a
    part "molecules and materials" that a paper must write whole. An alternative of one part keeps it
    ("speech and audio" is the topic itself)."""
    if len(parts) < 2:
        return [tuple(dict.fromkeys(parts))]
    out: list[tuple[str, ...]] = [()]
    for p in parts:
        words = word_conjuncts(p) or (p,)
        out = [(*alt, w) for alt in out for w in words]
    return [tuple(dict.fromkeys(alt)) for alt in out]


_SIZE_GRADE = _VOCABULARY["size_grade"].words


def ungraded(part: str) -> str:
    """``part`` without a size word (``size_grade``) right before a term the glossary names
    (:func:`rag.lexicon.glossary_forms`): "large language models" -> "language models", "massive
    vision-language models" -> "vision-language models"; "large batch training", "big data" and
    "large models" stay (no glossary term of two words or more follows). The size grades the term:
    a paper the membership model accepts for the topic states the part when it states "language
    models" (:meth:`rag.route.refusal.RefusalPolicy.parts`)."""
    words = part.split()

    def grade(i: int) -> bool:
        rest = " ".join(words[i + 1 :])
        # a term of two words or more ("large models" names no term the glossary knows apart)
        return words[i].lower() in _SIZE_GRADE and len(content_terms(rest)) >= 2 and bool(glossary_forms(rest))

    kept = [w for i, w in enumerate(words) if not grade(i)]
    return " ".join(kept) if content_terms(" ".join(kept)) else part


def _coordinated(first: str, second: str, topic: str) -> bool:
    """Whether ``topic`` joins ``first`` and ``second`` by a bare "or" / "and" (not "e.g.", a comma
    or a colon, which list examples or alternatives whole)."""
    a, b = topic.find(first), topic.find(second)
    return a >= 0 and a + len(first) <= b and topic[a + len(first) : b].strip().lower() in {"or", "and"}


_DESCRIBED = re.compile(
    rf"^(?P<head>[^,;:()]+?)(?:\s*[,:(]\s*(?={_VOCABULARY['description_opener'].source})|{RESTATING_DASH.pattern})",
    re.I,
)


def described_head(topic: str) -> str:
    """The term a topic is about when the rest of it describes that term: "grokking, where a network
    suddenly generalizes long after it has memorized its training set" -> "grokking", "machine
    unlearning - algorithms that remove ..." -> "machine unlearning"; ``""`` when the
    topic does not open with a term and its description ("grokking or double descent")."""
    m = _DESCRIBED.match(topic.strip())
    return m.group("head").strip() if m and content_terms(m.group("head")) else ""


_STAGE_ORDER = _VOCABULARY["stage_order"].pattern
_STAGE_WORDS = _VOCABULARY["stage_word"].words


def topic_stages(topic: str) -> tuple[str, ...]:
    """The stages a topic puts in order, each as the content words that say what happens in it.

    "train with supervised fine-tuning first and then a reinforcement-learning stage" ->
    ``("supervised fine-tuning", "reinforcement-learning")``; "SFT -> RL two-stage training" ->
    ``("SFT", "RL")``: the topic is split at each ``stage_order`` phrase ("then", "followed by",
    "->"), and a stage keeps its content words without those that only say it is a stage
    (``stage_word``: "train with", "a ... stage", "apply", "first"). A paper answers by stating
    the stages as a sequence (:func:`rag.route.stages.unordered`), not side by side ("both
    supervised and reinforcement-based finetuning") or compared.

    Returns:
        The stages in order, at least two; ``()`` when the topic names no order or a stage has
        no content word of its own.
    """
    pieces = _STAGE_ORDER.split(topic)
    if len(pieces) < 2:
        return ()
    stages = []
    for piece in pieces:
        words = [w.strip(",;:()") for w in piece.split()]
        stage = " ".join(w for w in words if content_terms(w) and w.lower() not in _STAGE_WORDS)
        if not stage:
            return ()
        stages.append(stage)
    return tuple(stages)
