"""How abstract text is shown on the page and in exports: LaTeX markup outside math rendered as
text, and URLs as links.

Display only: the stored abstract is never changed, and every evidence span stays an offset into
it (``abstract[start:end] == sentence``). Each target gets the same words:

* :func:`display_text`: plain text (the evidence panel's words, CSV cells, BibTeX fields);
* :func:`display_html`: that text HTML-escaped, URLs as ``<a>`` links (the evidence panel);
* :func:`display_markdown`: for Markdown that already went through
  :func:`store.papers.strip_markup` (the answer's text, table cells): the same conversions, URLs as
  Markdown links (the chat and the Markdown exports).

The markup converted is a table, :data:`LATEX_MARKUP`, one row per kind with its example (each
tested in ``tests/test_ui_display.py``); the kinds are those found outside math in the 3,098
benchmark abstracts and the seed papers. Math (``$...$``, ``$$...$$``, ``\\(...\\)``,
``\\[...\\]``) is left as written: the chat renders it, :func:`store.papers.strip_markup` writes
simple formulas as Unicode (``65$\\times$`` -> ``65×``).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass

from store.guard import math_spans
from store.labels import LATEX_ACCENT, latex_accents, whole_url
from store.papers import strip_markup

__all__ = [
    "LATEX_MARKUP",
    "Markup",
    "display_html",
    "display_markdown",
    "display_text",
    "full_url",
    "segments",
]


def full_url(url: str) -> str:
    """A URL with a scheme (``project-x.github.io`` -> ``https://project-x.github.io``)."""
    url = url.strip()
    if not url:
        return ""
    return url if re.match(r"^[a-z][a-z0-9+.-]*://", url, re.I) else f"https://{url}"


@dataclass(frozen=True)
class Markup:
    """One kind of LaTeX markup in abstract prose and how it is shown.

    Attributes:
        name: What the markup is.
        pattern: Where it stands in prose (never inside math or a URL).
        shown: The replacement (a ``re.sub`` template or function).
        example: Abstract text holding it.
        displayed: How :func:`display_text` shows ``example``.
    """

    name: str
    pattern: re.Pattern[str]
    shown: str | Callable[[re.Match[str]], str]
    example: str
    displayed: str


_ABBREVIATIONS = {"ie": "i.e.", "eg": "e.g.", "etal": "et al.", "etc": "etc."}

LATEX_MARKUP: tuple[Markup, ...] = (
    Markup("accented letter", LATEX_ACCENT, lambda m: latex_accents(m.group(0)),
           "the Nystr\\\"om method and R\\'{e}nyi divergence", "the Nyström method and Rényi divergence"),
    Markup("tie (non-breaking space)", re.compile(r"(?<=[\w.,)])~(?=[\\A-Za-z])"), "\u00a0",
           "Wang and Xu~\\cite{WangXDX20}", "Wang and Xu\u00a0(WangXDX20)"),
    Markup("citation key", re.compile(r"\\(?:cite|citep|citet|citealp|citealt|citeauthor|citeyear)\*?"
                                      r"(?:\[[^\]{}]*\])?\{([^{}]*)\}"),
           lambda m: "(" + ", ".join(k.strip() for k in m.group(1).split(",")) + ")",
           "experiments by \\citet{cohen2021gradient}", "experiments by (cohen2021gradient)"),
    Markup("font switch", re.compile(r"\{\\(?:em|it|bf|sc|tt|sl|rm|sf|bfseries|itshape)\s+([^{}]*)\}"), r"\1",
           "an {\\em Edge of Stability} phase", "an Edge of Stability phase"),
    Markup("command with one argument", re.compile(r"\\[A-Za-z]+\*?\{([^{}]*)\}"), r"\1",
           "we propose \\emph{ripple attention} and \\algname{FedNL}", "we propose ripple attention and FedNL"),
    Markup("abbreviation macro", re.compile(r"\\(ie|eg|etal|etc)\b"), lambda m: _ABBREVIATIONS[m.group(1)],
           "forgetting, \\ie, the loss", "forgetting, i.e., the loss"),
    Markup("explicit space", re.compile(r"\\space\b ?|\\ "), " ", "a\\space\\space b", "a  b"),
    Markup("em dash", re.compile(r"(?<=[\w.,;:)”'\"%]) ?---(?!-) ?(?=[\w(“'\"\\$])"), "—",
           "on average---yielding gains", "on average—yielding gains"),
    Markup("en dash (range)", re.compile(r"(?<=\d)--(?=\d)"), "–", "pages 10--20", "pages 10–20"),
    Markup("en dash (spaced)", re.compile(r"(?<=\w) -- (?=\w)"), " – ", "sample means -- we show",
           "sample means – we show"),
    Markup("quotation marks", re.compile(r"``|''"), lambda m: "“" if m.group(0) == "``" else "”",
           "the ``randomized response'' mechanism", "the “randomized response” mechanism"),
    Markup("escaped character", re.compile(r"\\([&%_#{}])"), r"\1", "Kuhn \\& Uitto, Certified\\_Watermarks",
           "Kuhn & Uitto, Certified_Watermarks"),
)
"""LaTeX markup of abstract prose, in the order it is converted (a tie before the citation it
binds, citations before other commands). Nested commands are unwrapped from the inside out."""

_DOLLAR = Markup("escaped dollar", re.compile(r"\\\$"), "$", "costs \\$5", "costs $5")
"""In plain text and HTML only: Markdown keeps ``\\$``, which the chat shows as a dollar sign
(:func:`ui.chat.escape_dollars`) and never as the start of math."""

_LINK_COMMAND = re.compile(r"\\url\{([^{}\s]+)\}|\\href\{([^{}\s]+)\}\{([^{}]*)\}")
_URL_END = ".,;:!?)]}'\"”’"
_BARE_URL = re.compile(
    r"(?<![\w@./-])(?:https?://|www\.)[^\s<>\"“”|\\]+"
    r"|(?<![\w@./-])[a-z0-9][a-z0-9-]*(?:\.[a-z0-9-]+)*\.(?:github\.io|com|org|net|io|ai|dev|edu)"
    r"(?:/[^\s<>\"“”|\\]*)?(?![\w-])",
    re.I,
)
_DISPLAY_MATH = re.compile(r"\\\[.*?\\\]|\\\(.*?\\\)", re.S)

Segment = tuple[str, str]
"""``(shown text, link)``: the link is ``""`` for text that is no link."""


def _convert(prose: str, *, keep_dollar: bool) -> str:
    """:data:`LATEX_MARKUP` applied to prose (no math, no URL in it)."""
    out = prose
    for row in LATEX_MARKUP:
        for _ in range(3 if row.name == "command with one argument" else 1):  # \textit{\algname{X}}
            out = row.pattern.sub(row.shown, out)
    return out if keep_dollar else _DOLLAR.pattern.sub(str(_DOLLAR.shown), out)


def _math_parts(text: str) -> list[tuple[int, int]]:
    """Spans of math in ``text`` (dollar math, ``\\(...\\)``, ``\\[...\\]``), sorted, not overlapping."""
    spans = sorted([*math_spans(text), *((m.start(), m.end()) for m in _DISPLAY_MATH.finditer(text))])
    out: list[tuple[int, int]] = []
    for s, e in spans:
        if out and s < out[-1][1]:
            continue
        out.append((s, e))
    return out


def _bare_urls(text: str, *, keep_dollar: bool) -> list[Segment]:
    """Prose split at the URLs it states; the rest converted (:func:`_convert`)."""
    out: list[Segment] = []
    pos = 0
    for m in _BARE_URL.finditer(text):
        if m.start() < pos:  # the rest of a URL a line break cut, already linked
            continue
        url = m.group(0).rstrip(_URL_END)
        if url.count(".") == 0 and not url.lower().startswith("http"):
            continue
        whole = whole_url(text[m.start() :], url)  # "https://github. com/BU-DEPEND-Lab/DRIBO" links whole
        shown = text[m.start() : _written_end(text, m.start(), whole)]
        out.append((_convert(text[pos : m.start()], keep_dollar=keep_dollar), ""))
        out.append((shown, full_url(whole)))
        pos = m.start() + len(shown)
    out.append((_convert(text[pos:], keep_dollar=keep_dollar), ""))
    return out


def _written_end(text: str, start: int, url: str) -> int:
    """The offset in ``text`` where ``url``, written from ``start`` with spaces a line break left in
    it (:func:`store.labels.whole_url`), ends."""
    k = start
    for ch in url:
        while k < len(text) and text[k].isspace() and not ch.isspace():
            k += 1
        k += 1
    return min(k, len(text))


def segments(text: str, *, keep_dollar: bool = False) -> list[Segment]:
    """``text`` as shown: pieces of text and links, in order (empty pieces dropped).

    ``\\url{u}`` and ``\\href{u}{t}`` become links (shown as ``u`` and ``t``), then URLs written
    out (``https://...``, ``www....``, ``name.github.io``, ``site.org/path``; trailing
    punctuation is not part of them); the prose between is converted by :data:`LATEX_MARKUP`.
    Math is kept as written.

    Args:
        text: Abstract text (after :func:`store.papers.strip_markup`) or Markdown holding it.
        keep_dollar: Keep ``\\$`` as written (Markdown, see :func:`display_markdown`).
    """
    out: list[Segment] = []
    pos = 0
    for start, end in [*_math_parts(text), (len(text), len(text))]:
        prose = text[pos:start]
        at = 0
        for m in _LINK_COMMAND.finditer(prose):
            out += _bare_urls(prose[at : m.start()], keep_dollar=keep_dollar)
            url = (m.group(1) or m.group(2)).replace("\\%", "%").replace("\\#", "#").replace("\\_", "_")
            shown = url if m.group(1) else _convert(m.group(3), keep_dollar=keep_dollar)
            out.append((shown, full_url(url)))
            at = m.end()
        out += _bare_urls(prose[at:], keep_dollar=keep_dollar)
        out.append((text[start:end], ""))
        pos = end
    return [s for s in out if s[0]]


def display_text(text: str) -> str:
    """Abstract text as plain text: :func:`store.papers.strip_markup`, then :data:`LATEX_MARKUP`
    (``\\url{u}`` -> ``u``; the link of ``\\href{u}{t}`` is dropped, its text kept).

    >>> display_text("Videos at \\\\url{x.github.io}; 65$\\\\times$ less---and \\\\emph{fast}")
    'Videos at x.github.io; 65× less—and fast'
    """
    return "".join(shown for shown, _ in segments(strip_markup(text)))


def display_html(text: str) -> str:
    """Abstract text as HTML: :func:`display_text`, escaped, with each URL a link that opens in a
    new tab."""
    parts = []
    for shown, link in segments(strip_markup(text)):
        if link:
            href = html.escape(link, quote=True)
            parts.append(f'<a href="{href}" target="_blank" rel="noopener noreferrer">{html.escape(shown)}</a>')
        else:
            parts.append(html.escape(shown))
    return "".join(parts)


def display_markdown(text: str) -> str:
    """Markdown holding abstract text (already through :func:`store.papers.strip_markup`, as every
    quotation is): :data:`LATEX_MARKUP` outside math, each URL a Markdown link; Markdown itself
    (``**bold**``, tables, ``[n]`` markers) is left alone.

    >>> display_markdown("“Videos at \\\\url{x.github.io}”")
    '“Videos at [x.github.io](https://x.github.io)”'
    """
    return "".join(f"[{shown}]({link})" if link else shown for shown, link in segments(text, keep_dollar=True))
