"""Stances: which side of a contest a topic asks its papers to take, and which side a title or a
paper's statement of its own contribution takes.

"Which papers defend against data poisoning?" asks for defences; a paper that proposes a poisoning
attack states every word of the topic ("poisoning", "defenders") and the embedder puts it close,
but its own side is the attack. "Which papers detect machine-generated text?" asks for detectors,
not for text generators. The sides and their words are classes of ``vocabulary/stances.toml``
(defense, attack, detection, generation); a detector of an attack defends too (the ``defense``
class includes the ``detection`` words).

The side of a phrase is its head: the first side word when it opens the phrase as a verb
("Detecting Adversarial Examples", "to defend against backdoors", "Poisoning Generative Replay"),
else the last side word of the noun phrase it stands in ("Model Stealing Defenses" is a defense,
"a defense against backdoor attacks" too: "against" ends the phrase).
"""

from __future__ import annotations

import re

from rag.vocabulary import beside

__all__ = ["OPPOSITE", "STANCES", "asked_stances", "head_stances", "opposed"]

_VOCABULARY = beside(__file__, "stances")
STANCES = ("defense", "attack", "detection", "generation")
"""The sides a topic may ask for (classes of ``vocabulary/stances.toml``)."""
OPPOSITE: dict[str, tuple[str, ...]] = {
    "defense": ("attack",),
    "attack": ("defense",),
    "detection": ("generation", "attack"),
    "generation": ("detection",),
}
"""The sides a paper answering a side asked does not take as its only own side: an attack for a
defence asked, a generator (or an attack: "Generating Distributional Adversarial Examples to Evade
Statistical Detectors") for a detector asked."""

_TOKEN = re.compile(r"[A-Za-z][\w'’-]*|[^\w\s]")
_CLASSES = {name: _VOCABULARY[name] for name in STANCES}
_VERB = _VOCABULARY["contribution_verb"]
_END = frozenset(_VOCABULARY["phrase_end"].words)
_PURPOSE = frozenset(_VOCABULARY["purpose"].words)
_COORDINATOR = frozenset(_VOCABULARY["coordinator"].words)


def _sides(token: str) -> frozenset[str]:
    """The sides one token states ("Detection" -> detection and defense; a hyphenated compound, its
    last word's: "Self-Defense"); none for a word of none."""
    last = token.rsplit("-", 1)[-1]
    return frozenset(name for name, cls in _CLASSES.items() if last and cls.fullmatch(last))


def _ends(token: str) -> bool:
    return not token[0].isalnum() or token.lower() in _END


def _head(tokens: list[str], start: int) -> frozenset[str]:
    """The sides of the noun phrase from ``tokens[start]`` (a side word) to the next phrase end:
    those of its last side word."""
    head = _sides(tokens[start])
    for t in tokens[start + 1 :]:
        if _ends(t):
            break
        head = _sides(t) or head
    return head


def head_stances(text: str, *, object_only: bool = False) -> frozenset[str]:
    """The sides the first phrase of ``text`` that states one takes (see the module docstring):
    "UMD: Unsupervised Model Detection for X2X Backdoor Attacks" -> detection and defense;
    "Graph Contrastive Backdoor Attacks" -> attack; ``frozenset()`` when ``text`` states none.

    Args:
        text: A title, or the words after a paper's own contribution verb ("we propose ...").
        object_only: Read only the object of the verb, up to the first word that ends a phrase:
            "a novel margin-based DNN watermarking approach that is robust to the functionality
            stealing attacks" contributes a watermark, not an attack; "Anti-Backdoor Data-Free KD
            (ABD), the first plug-in defensive method" a defense (punctuation does not end it); a
            purpose right after the object is read too ("a new primitive for detecting backdoor
            attacks": detection).
    """
    tokens = _TOKEN.findall(text)
    for i, t in enumerate(tokens):
        if object_only and t[0].isalnum() and t.lower() in _END:
            # "a new primitive for detecting backdoor attacks": a purpose the object is for
            after = tokens[i + 1] if i + 1 < len(tokens) else ""
            verb = after.lower().endswith("ing") or t.lower() == "to"
            return _sides(after) if t.lower() in _PURPOSE and after and verb else frozenset()
        sides = _sides(t)
        if not sides:
            continue
        opens = i == 0 or _ends(tokens[i - 1])
        if opens and (t.lower().endswith("ing") or (i > 0 and tokens[i - 1].lower() == "to")):
            return sides  # a verb with its object: "Detecting Adversarial Examples", "to defend against"
        return _head(tokens, i)
    return frozenset()


def asked_stances(topic: str) -> tuple[str, ...]:
    """The sides a topic asks its papers to take, in :data:`STANCES` order: those of its first word
    ("defend against backdoor attacks", "detecting machine-generated text", "defenses against
    poisoning"), or, when it opens with a contribution verb, of the head of the noun phrase the verb
    takes ("propose new backdoor attacks", "mount membership inference attacks"); a topic that opens
    with a side asks the side of a clause it coordinates too ("attack speech systems or defend them":
    attack and defense). A topic that only
    names a contest ("backdoor attacks", "data poisoning") asks no side: its papers may take either.

    Args:
        topic: The topic's text (:attr:`rag.question.plan.Topic.text`).

    Returns:
        Names of :data:`STANCES`; ``()`` when none is asked.
    """
    tokens = [t for t in _TOKEN.findall(topic) if t[0].isalnum()]
    if not tokens:
        return ()
    sides = _sides(tokens[0])
    if sides and "-" in tokens[0].strip("-"):
        # a hyphenated side word modifies the noun phrase it opens, it is no verb ("machine-generated
        # text detection", "AI-generated image detectors": detection): the phrase's head decides
        return tuple(s for s in STANCES if s in head_stances(topic))
    if sides:
        # a side that opens a coordinated clause ("attack speech systems or defend them") is asked too
        for before, t in zip(tokens, tokens[1:], strict=False):
            if before.lower() in _COORDINATOR:
                sides |= _sides(t)
    elif _VERB.pattern.fullmatch(tokens[0]) and len(tokens) > 1:
        for t in tokens[1:]:
            if t.lower() in _END:
                break
            sides = _sides(t) or sides
    return tuple(s for s in STANCES if s in sides)


def opposed(asked: tuple[str, ...], own: frozenset[str]) -> bool:
    """Whether a paper whose own sides are ``own`` takes only sides opposite those ``asked``: it takes
    none asked and one opposite (an attack paper for "defend against ..."); a paper that states no
    side of its own is not opposed (no evidence either way)."""
    if not asked or not own or own & set(asked):
        return False
    # a side asked is never opposite: "attack speech systems or defend them" asks both
    return any(o in own and o not in asked for a in asked for o in OPPOSITE[a])
