"""The one normalisation of text that enters paperchat: ingest fields, questions, page messages.

Every input path calls :func:`clean_text`, so a lone UTF-16 surrogate (from a JSON ``\\ud800``
escape, or from undecodable bytes in ``sys.argv``, which Python passes on as ``surrogateescape``
code points), a stray control character or a decomposed accent is handled the same way wherever
it arrives. :func:`limit_text` trims over-long input and says so.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["REPLACEMENT", "clean_text", "count_lone_surrogates", "limit_text"]

REPLACEMENT = "\ufffd"
"""U+FFFD REPLACEMENT CHARACTER: what a lone surrogate or an unusable code point becomes."""

_SURROGATE = re.compile("[\ud800-\udfff]")
# C0 and C1 controls except tab and newline, DEL, bidirectional embeddings/overrides/isolates
# (they reorder what a reader sees), and U+FEFF (a byte-order mark inside text).
_DROP = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ufeff]")
_NONCHAR = re.compile("[\ufffe\uffff]")
_SPACES = re.compile(r"[^\S\n]+")
_BLANK_LINES = re.compile(r"\n\s*\n\s*(?:\n\s*)+")


def count_lone_surrogates(text: str) -> int:
    """Number of UTF-16 surrogate code points in ``text`` (a valid Python ``str`` has none
    unless a JSON escape such as ``\\ud800`` or ``surrogateescape`` decoding put them there)."""
    return len(_SURROGATE.findall(text))


def clean_text(text: str, *, multiline: bool = False) -> str:
    """Normalise text at the input boundary; the same rules for every path.

    1. lone surrogates (U+D800-U+DFFF) and the non-characters U+FFFE/U+FFFF become U+FFFD
       (a well-formed surrogate *pair* written as two JSON escapes was already joined by the
       JSON decoder, so every surrogate left here is lone);
    2. Unicode NFC (``e`` + combining acute -> ``é``), so the same word always has one form;
    3. control characters are dropped, except newline and tab: C0/C1 controls, DEL,
       bidirectional overrides and isolates (U+202A-U+202E, U+2066-U+2069) and U+FEFF;
       ``\\r\\n`` therefore becomes ``\\n``;
    4. white space is folded: with ``multiline=False`` every run (newlines included) becomes
       one space; with ``multiline=True`` runs within a line become one space, lines are
       stripped and at most one blank line is kept. The result is stripped.

    Args:
        text: Any ``str`` (``None`` is treated as ``""``).
        multiline: Keep line breaks (see 4).

    Returns:
        The normalised text; encodable as UTF-8 (never raises ``UnicodeEncodeError``).

    Examples:
        >>> clean_text("  Cafe\\u0301\\x00 \\ud800 ok\\n\\tnow ")
        'Café \\ufffd ok now'
    """
    if not text:
        return ""
    text = _SURROGATE.sub(REPLACEMENT, text)
    text = _NONCHAR.sub(REPLACEMENT, text)
    text = unicodedata.normalize("NFC", text)
    text = _DROP.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))
    if not multiline:
        return " ".join(text.split())
    lines = [_SPACES.sub(" ", line).strip() for line in text.split("\n")]
    return _BLANK_LINES.sub("\n\n", "\n".join(lines)).strip()


def limit_text(text: str, max_chars: int) -> tuple[str, str]:
    """Trim ``text`` to at most ``max_chars`` characters, at a word boundary when one is near.

    Args:
        text: Normalised text (see :func:`clean_text`).
        max_chars: Largest length kept, in characters (> 0).

    Returns:
        ``(text, notice)``: the text itself and ``""`` when it fits; else the first part
        (cut at the last space within the final 20% of the limit, or at the limit) and a
        sentence saying how long the text was and how much of it is used.
    """
    if len(text) <= max_chars:
        return text, ""
    cut = text[:max_chars]
    space = cut.rfind(" ")
    if space >= int(max_chars * 0.8):
        cut = cut[:space]
    cut = cut.rstrip()
    notice = (
        f"The question is {len(text):,} characters long; only its first {len(cut):,} were used "
        f"(the limit is {max_chars:,}). Ask a shorter question to use all of it."
    )
    return cut, notice
