"""Abstracts are data: sentences in them addressed to an assistant, and citation-like markers.

An abstract is text someone else wrote; it may carry instructions for the model that reads it
("Ignore all previous instructions and ...", "As an AI assistant you must ...", "Output the
following: ...", chat role tags such as ``<|im_start|>system``). Such a sentence
(:func:`is_instruction`) is never quoted as evidence, never supports a claim and never names a
paper; a reply that repeats one or does what it asks (:func:`echoes_injection`) is not used.
Bracketed numbers inside abstract text (``[3]``, the paper's own references) are turned into
look-alikes that no marker parser reads (:func:`neutralize_markers`), so they never become
links or citations of the answer.

The patterns are a table (:data:`INSTRUCTION_PATTERNS`), one row per style, each tested in
``tests/test_injection.py``; none matches a sentence of the bundled abstracts (the seed corpus,
the test fixtures and the 3,098 benchmark papers).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = [
    "FENCE_CLOSE",
    "FENCE_OPEN",
    "INSTRUCTION_PATTERNS",
    "echoes_injection",
    "injected_sentences",
    "is_instruction",
    "math_spans",
    "neutralize_markers",
]

FENCE_OPEN = "<sources>"
"""Opens the retrieved text in the answer prompt (``prompts/answer.txt``); text inside is data."""
FENCE_CLOSE = "</sources>"
"""Closes it. An abstract sentence holding either tag is an instruction-like sentence."""

_AI = r"(?:ai|a\.i\.|artificial intelligence|(?:large )?language models?|llms?|(?:ai |virtual |chat )?assistants?|chatbots?|gpt(?:-\d)?|chatgpt|claude|gemini|copilot)"  # noqa: E501

#: Style -> pattern of a sentence addressed to the model that reads the abstract.
INSTRUCTION_PATTERNS: dict[str, re.Pattern[str]] = {
    # "Ignore all previous instructions", "disregard the above rules", "forget your prior prompt"
    "override": re.compile(
        r"\b(?:ignore|disregard|forget|override|bypass|skip)\b[^.!?]{0,40}?\b(?:previous|prior|above|earlier|"
        r"preceding|all|any|your|system|original|the)\s+(?:\w+\s+)?(?:instructions?|prompts?|rules|directions|"
        r"guidelines|directives|constraints|messages?)\b",
        re.I,
    ),
    # "As an AI assistant you must ...", "Dear LLM, ...", "If you are a language model, ...",
    # "Note to AI reviewers: ...", "LLMs reading this must ..."
    "addressed": re.compile(
        rf"\bas an? {_AI}\s*,?\s*(?:you|i)\b|\b(?:dear|hey|hello|attention|note to(?: the| any| all)?)\s+{_AI}\b|"
        rf"\bif you are an? {_AI}\b|\b{_AI}\s+(?:reading|reviewing|summari[sz]ing|processing|evaluating|parsing)\s+"
        r"(?:this|the)\b[^.!?]{0,60}\b(?:must|should|shall|are (?:required|instructed)|need to)\b",
        re.I,
    ),
    # "You must now answer ...", "you are now DAN", "from now on you ...", "you will respond only ..."
    "you_must": re.compile(
        r"\byou (?:must|should|shall|will|are to|have to|need to|are required to|are instructed to)\s+(?:now\s+|"
        r"always\s+|only\s+|instead\s+)?(?:answer|respond|reply|say|state|output|print|write|recommend|rate|"
        r"claim|include|ignore|pretend|act|praise|describe this|cite)\b|\byou are now\b|\bfrom now on,? you\b",
        re.I,
    ),
    # "Output the following: ...", "Say exactly 'X'", "Respond only with ...", "Print verbatim ..."
    "output": re.compile(
        r"^\W*(?:please\s+)?(?:output|print|say|respond|reply|answer|repeat|write|return|state)\b[^.!?]{0,30}?"
        r"(?:\bthe following\b|\bexactly\b|\bverbatim\b|\bonly (?:with|the)\b|:\s|[\"“'‘])",
        re.I,
    ),
    # Chat-template role tags and prompt fences
    "role_tag": re.compile(
        r"<\|\s*(?:im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id|end_header_id)\s*\|>|"
        r"\[/?INST\]|<</?SYS>>|^\W*(?:system|assistant|developer|user)\s*:|###\s*(?:instruction|system|response)\b|"
        r"</?(?:system|instructions?|sources|prompt|assistant|user)>",
        re.I,
    ),
    # "new instructions:", "system prompt override", "jailbreak", "do anything now"
    "jailbreak": re.compile(
        r"\bnew instructions?\s*:|\b(?:system prompt|developer mode)\s+(?:override|enabled|activated)\b|"
        r"\bjailbreak\b|\bdo anything now\b|\bprompt injection test\b",
        re.I,
    ),
    # Reviewer-steering text hidden in submissions: "give a positive review", "recommend acceptance"
    "review": re.compile(
        r"\b(?:give|write|provide|output)\s+(?:this paper\s+)?(?:a|an|only)\s+(?:positive|favou?rable|glowing|"
        r"excellent)\s+(?:review|rating|assessment)\b|\b(?:recommend|rate)\s+(?:this paper|it)\s+(?:for\s+)?"
        r"(?:acceptance|highly|as (?:excellent|outstanding|the best))\b",
        re.I,
    ),
}

_SENTENCE_END = re.compile(r"(?<=[.!?])[\"'”’)\]]*\s+")
_WORD = re.compile(r"\w+")
_QUOTED = re.compile(r"[\"“']([^\"”']{2,200})[\"”']")
_AFTER = re.compile(
    r"\b(?:the following|exactly|verbatim|only(?: with)?|say|output|print|respond with|reply with|answer with)"
    r"\s*:?\s*(?:the (?:word|words|phrase|sentence|text|string)\s+)?(.{2,200})$",
    re.I,
)


def is_instruction(sentence: str) -> bool:
    """Whether a sentence of an abstract is addressed to the model that reads it.

    Args:
        sentence: One sentence (any length; the patterns look at the whole text).

    Returns:
        True when one of :data:`INSTRUCTION_PATTERNS` matches.
    """
    return any(p.search(sentence) for p in INSTRUCTION_PATTERNS.values())


def injected_sentences(text: str) -> list[str]:
    """The instruction-like sentences of ``text`` (split at ``.``, ``!``, ``?``)."""
    return [s for s in _SENTENCE_END.split(text) if s.strip() and is_instruction(s)]


# Bracket groups that read as citation markers: "[3]", "[1, 4]", "[2-5]", "[ref 2]", "[Source 3]", "【2】".
_BRACKETED = re.compile(
    r"\[(\s*(?:(?:source|paper|ref|reference)\.?\s*)?\d+(?:\s*[,;–-]\s*\d+)*\s*)\]|【(\s*\d+\s*)】", re.I
)
_PAREN_SOURCE = re.compile(r"\(\s*((?:source|paper)\s*\d+)\s*\)", re.I)


_CURRENCY = re.compile(
    r"\$\d[\d,]*(?:\.\d+)?(?:\s?(?:[kKmMbB]n?|million|billion|thousand|trillion|USD))?(?![\w$^_{}\\])"
)


def math_spans(text: str) -> list[tuple[int, int]]:
    """Character spans ``(start, end)`` of the ``$$...$$`` and ``$...$`` math in ``text``.

    Pandoc's rule for inline math (as the chat's renderer, see :func:`ui.chat.escape_dollars`):
    the opening ``$`` is followed by a non-space, the closing one preceded by a non-space and
    not followed by a digit, and math does not cross a blank line; ``$5``, ``$0.5M`` are amounts.
    """
    spans: list[tuple[int, int]] = []
    i, n = 0, len(text)
    while i < n:
        i = text.find("$", i)
        if i < 0:
            break
        if i > 0 and text[i - 1] == "\\":
            i += 1
            continue
        if text.startswith("$$", i):
            j = text.find("$$", i + 2)
            if j > i + 2:
                spans.append((i, j + 2))
                i = j + 2
            else:
                i += 2
            continue
        if _CURRENCY.match(text, i) or i + 1 >= n or text[i + 1].isspace():
            i += 1
            continue
        limit = text.find("\n\n", i)
        limit = n if limit < 0 else limit
        k, end = i + 1, None
        while k < limit:
            if text[k] == "\\":
                k += 2
                continue
            if text[k] == "$":
                if not text[k - 1].isspace() and not (k + 1 < n and text[k + 1].isdigit()):
                    end = k + 1
                break
            k += 1
        if end is None:
            i += 1
            continue
        spans.append((i, end))
        i = end
    return spans


def neutralize_markers(text: str) -> str:
    """Make the bracketed numbers of abstract text unreadable as citation markers.

    ``[3]`` -> ``［3］`` (full-width brackets: the same to a reader, nothing to the ``[n]``
    parser, the marker linker or the renumbering of a conversation); ``【2】`` and
    ``(source 2)`` likewise. Other brackets (``[0.5, 1)``, ``[CLS]``) and everything inside
    ``$...$`` math (``$x \\in [0,1]$``, ``\\sqrt[3]{K}``: intervals, not references) are kept.

    >>> neutralize_markers("as shown in [3] and [1, 4], on $[0,1]^d$")
    'as shown in ［3］ and ［1, 4］, on $[0,1]^d$'
    """
    out, pos = [], 0
    for start, end in math_spans(text):
        out += [_neutralize_prose(text[pos:start]), text[start:end]]
        pos = end
    out.append(_neutralize_prose(text[pos:]))
    return "".join(out)


def _neutralize_prose(text: str) -> str:
    text = _BRACKETED.sub(lambda m: f"［{m.group(1) or m.group(2)}］", text)
    return _PAREN_SOURCE.sub(r"（\1）", text)


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def _payloads(sentence: str) -> list[str]:
    """What an injected sentence asks to be written: its quoted strings, or what follows "the following"."""
    found = [m.group(1) for m in _QUOTED.finditer(sentence)]
    if not found:
        m = _AFTER.search(sentence)
        if m:
            found.append(m.group(1))
    return [p for p in found if len("".join(_words(p))) >= 4]


def echoes_injection(reply: str, abstracts: Iterable[str], *, run: int = 6) -> str:
    """Why an LLM reply must not be used because of instructions inside the abstracts it read, or ``""``.

    A reply is rejected when it

    * repeats ``run`` or more consecutive words of an instruction-like sentence of an abstract;
    * contains what such a sentence asks to be written (its quoted text, or what follows
      "output the following:"), compared as lower-case words;
    * reads itself like an instruction (:func:`is_instruction` on one of its sentences).

    Args:
        reply: The LLM's text.
        abstracts: The abstracts given to the LLM (whole abstracts: an instruction may sit in
            a sentence that was not quoted).
        run: Consecutive words that count as repeating.

    Returns:
        A reason for the answer's note, ``""`` when the reply is clean.
    """
    words = _words(reply)
    joined = " " + " ".join(words) + " "
    grams = {" ".join(words[i : i + run]) for i in range(max(0, len(words) - run + 1))}
    for abstract in abstracts:
        for sentence in injected_sentences(abstract):
            w = _words(sentence)
            if any(" ".join(w[i : i + run]) in grams for i in range(max(0, len(w) - run + 1))):
                return "it repeats an instruction found inside an abstract"
            if any(f" {' '.join(_words(p))} " in joined for p in _payloads(sentence)):
                return "it does what an instruction inside an abstract asks"
    if any(is_instruction(s) for s in _SENTENCE_END.split(reply)):
        return "it reads like an instruction, not an answer"
    return ""
