"""Field helpers shared by the import formats: markup, names, years, DOIs, arXiv ids, stable ids.

Every function here is pure and never raises for odd input: an empty or unusable value
gives ``""``, ``[]`` or ``None``.
"""

from __future__ import annotations

import html
import re
import unicodedata
from typing import Any

__all__ = [
    "arxiv_id",
    "citation_key",
    "clean_abstract",
    "clean_title",
    "doi_url",
    "is_arxiv_doi",
    "normalize_doi",
    "person_name",
    "stable_id",
    "text",
    "title_key",
    "year_in",
]


def text(value: Any) -> str:
    """``value`` as one line of text: strings with whitespace runs (newlines too) collapsed to one
    space, numbers as written, anything else ``""``."""
    if isinstance(value, str):
        return " ".join(value.replace("\xa0", " ").split())
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    return ""


# --- markup ---------------------------------------------------------------------------------

# Tags of HTML, JATS (``<jats:p>``, as Crossref serves abstracts) and MathML (``<mml:mi>``): a
# namespaced tag, or an HTML/JATS tag name, so that "a <b" or "p < q" in prose is left alone.
_TAG_NAMES = (
    "a|abbr|b|bold|br|code|div|em|h[1-6]|i|italic|li|list|list-item|math|mi|mn|mo|mrow|msub|msup|ol|p|"
    "sc|sec|span|strong|sub|sup|title|tt|u|ul|underline|inline-formula|disp-formula|label|caption"
)
_TAG = re.compile(rf"</?(?:[A-Za-z][\w-]*:[A-Za-z][\w.-]*|(?:{_TAG_NAMES}))(?:\s[^<>]*)?/?>", re.IGNORECASE)
_BLOCK_END = re.compile(r"</(?:[\w-]+:)?(?:p|sec|div|li|title|h[1-6])>|<(?:[\w-]+:)?br\s*/?>", re.IGNORECASE)
_HEADING = re.compile(
    r"<(?P<tag>(?:[\w-]+:)?(?:title|h[1-6]))(?:\s[^<>]*)?>\s*(?P<text>[^<]*?)\s*</(?P=tag)>", re.IGNORECASE
)
_ENTITY = re.compile(r"&(?:#\d+|#x[0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);")


def _strip_tags(value: str) -> str:
    if "<" not in value or not _TAG.search(value):
        return value

    def heading(m: re.Match[str]) -> str:
        word = m.group("text").strip().rstrip(":")
        if word.lower() in ("abstract", "summary", ""):
            return " "  # the heading "Abstract" of a Crossref/JATS abstract says nothing
        return f" {word}: "  # structured abstracts: "Background: ..."

    value = _HEADING.sub(heading, value)
    value = _BLOCK_END.sub(" ", value)
    return _TAG.sub("", value)


def clean_abstract(value: Any) -> str:
    """Plain text of an abstract as exports carry it.

    HTML/JATS/MathML tags are removed (``<jats:p>``, ``<p>``, ``<i>``; paragraph ends become a
    space, a leading "Abstract" heading is dropped, other headings read "Background: ..."), HTML
    entities are decoded (``&amp;`` -> ``&``, ``&#x2013;`` -> ``–``), a typed heading
    ("Abstract: ...") is dropped and whitespace, line breaks included, is collapsed. LaTeX
    (``$\\alpha$``) is kept as written, as every reader keeps it.

    Args:
        value: The abstract field (non-strings give ``""``).

    Returns:
        The abstract on one line, ``""`` when there is none.
    """
    if not isinstance(value, str):
        return ""
    out = _strip_tags(value)
    if "&" in out and _ENTITY.search(out):
        out = html.unescape(out)
    out = text(out)
    return re.sub(r"^(?i:abstract)\s*[:.\u2014]\s*(?=\S)", "", out)  # "Abstract: We ..." (a heading as text)


def clean_title(value: Any) -> str:
    r"""Plain text of a title: tags and entities as in :func:`clean_abstract`, LaTeX accents and
    braces decoded (``Schr\"odinger`` -> ``Schrödinger``, ``{BERT}`` -> ``BERT``) with math kept as
    written (``$\ell_1$``), whitespace collapsed, a trailing period dropped."""
    out = clean_abstract(value)
    if "\\" in out or "{" in out:
        from store.readers.bibtex import latex_to_text  # pylatexenc, as the BibTeX reader decodes titles

        out = text(latex_to_text(out))
    return out[:-1] if out.endswith(".") and not out.endswith("..") else out


# --- names ----------------------------------------------------------------------------------

def _is_cjk(s: str) -> bool:
    return bool(s) and all(unicodedata.name(ch, "").startswith(("CJK", "HANGUL", "HIRAGANA", "KATAKANA")) for ch in s)


def person_name(given: Any, family: Any, *, particle: Any = "", suffix: Any = "") -> str:
    """A person's name written first name first, as citations show it.

    ``("Hans", "Müller")`` -> ``"Hans Müller"``; ``("Ludwig", "Beethoven", particle="van")`` ->
    ``"Ludwig van Beethoven"``; a Chinese, Japanese or Korean name stays family name first
    without a space (``("明", "李")`` -> ``"李明"``), as CSL processors print it.

    Args:
        given: Given names.
        family: Family name.
        particle: Particles before the family name ("van", "de la").
        suffix: "Jr.", "III".

    Returns:
        The name, ``""`` when every part is empty.
    """
    given, family, particle, suffix = text(given), text(family), text(particle), text(suffix)
    if _is_cjk(given) and _is_cjk(family):
        return family + given
    return " ".join(p for p in (given, particle, family, suffix) if p)


# --- years ----------------------------------------------------------------------------------

_YEAR = re.compile(r"(?<!\d)(1[5-9]\d\d|2\d\d\d)(?!\d)")


def year_in(value: Any) -> int | None:
    """The first plausible year (1500-2999) in a date value, else ``None`` (never an error: a
    date such as "forthcoming" or Zotero's "0000-00-00 n.d." must not cost a paper).

    Accepts integers, numeric strings and dates in any form that writes the year with four
    digits: ``2023``, ``"2023-05-12"``, ``"May 2023"``, ``"2023-00-00 2023"`` (Zotero's stored form).
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if 1500 <= value <= 2999 else None
    if isinstance(value, float) and value.is_integer():
        return year_in(int(value))
    m = _YEAR.search(value) if isinstance(value, str) else None
    return int(m.group(1)) if m else None


# --- DOIs and arXiv ids ----------------------------------------------------------------------

_DOI = re.compile(r"(10\.\d{4,9}/[^\s\"<>]+)")
_ARXIV_DOI = re.compile(r"^10\.48550/arxiv\.", re.IGNORECASE)
_ARXIV_NEW = r"\d{4}\.\d{4,5}"
_ARXIV_OLD = r"[a-z][a-z-]*(?:\.[A-Z]{2})?/\d{7}"
_ARXIV_ANY = re.compile(rf"(?<![\w])({_ARXIV_NEW}|{_ARXIV_OLD})(?:v\d+)?(?!\w)")
_ARXIV_BARE = re.compile(rf"^(?:arxiv:\s*)?({_ARXIV_NEW}|{_ARXIV_OLD})(?:v\d+)?$", re.IGNORECASE)


def normalize_doi(value: Any) -> str:
    """The DOI in ``value`` without a resolver prefix or trailing punctuation, else ``""``.

    ``"https://doi.org/10.1145/3292500.3330701"``, ``"doi:10.1145/3292500.3330701."`` ->
    ``"10.1145/3292500.3330701"`` (case as written: DOIs compare case-insensitively).
    """
    m = _DOI.search(text(value))
    return m.group(1).rstrip(".,;)]}") if m else ""


def is_arxiv_doi(doi: str) -> bool:
    """Whether ``doi`` is one arXiv assigns (``10.48550/arXiv.2301.00001``)."""
    return bool(_ARXIV_DOI.match(doi))


def arxiv_id(*values: Any) -> str:
    """The arXiv identifier, without its version, of the first value that names one, else ``""``.

    A value names one when it is an id alone (``"2301.00001v2"``, ``"arXiv:hep-th/9901001"``) or
    mentions arXiv and holds an id: ``"http://arxiv.org/abs/2301.00001v2"``,
    ``"https://arxiv.org/pdf/2301.00001v1.pdf"``, ``"10.48550/arXiv.2301.00001"``,
    ``"arXiv: 2301.00001"`` (a line of Zotero's Extra field). The version is dropped: the id
    stays the same across v1, v2, ...

    Args:
        values: Candidate fields, most reliable first.
    """
    for value in values:
        s = text(value)
        if not s:
            continue
        m = _ARXIV_BARE.match(s)
        if m:
            return m.group(1)
        if "arxiv" in s.lower():
            tail = s[s.lower().index("arxiv") :]
            m = _ARXIV_ANY.search(tail)
            if m:
                return m.group(1)
    return ""


def doi_url(doi: str) -> str:
    """``https://doi.org/<doi>``, or ``""`` without a DOI."""
    return f"https://doi.org/{doi}" if doi else ""


_PINNED_KEY = re.compile(r"(?i)(?:^|\s)citation[- ]key\s*:\s*([^\s,{}()\"#%'~=\\]+)")


def citation_key(field: Any = "", extra: Any = "") -> str:
    """The citation key a record gives itself: its key field as written (Zotero's ``citationKey``,
    CSL's ``citation-key``), else the key its "Extra" field pins (``Citation Key: smith2020deep``,
    as Better BibTeX pins keys, or ``citation-key: ...``, as Zotero maps CSL variables there).

    Returns:
        The key, ``""`` when the record gives none (a key field holding white space is no key).

    >>> citation_key("", "arXiv: 2301.00001\nCitation Key: smith2020deep")
    'smith2020deep'
    """
    key = text(field)
    if key and " " not in key:
        return key
    m = _PINNED_KEY.search(text(extra))
    return m.group(1) if m else ""


def stable_id(doi: str, arxiv: str, own_key: str) -> str:
    """The paper id an import gives a record, the same every time the record is read.

    The DOI (lower case; not an arXiv DOI) when there is one, else the arXiv id without version,
    else the source's own key (a Zotero item key, an OpenReview note id, ...). Two sources of the
    same paper then agree on its id whenever both know its DOI or arXiv id.

    Args:
        doi: The record's DOI or ``""``.
        arxiv: The record's arXiv id or ``""``.
        own_key: The source's key for the record (never empty: callers fall back to
            ``<file stem>#<n>``).
    """
    if doi and not is_arxiv_doi(doi):
        return doi.lower()
    return arxiv or arxiv_id(doi) or own_key


# --- titles for duplicate detection ------------------------------------------------------------

def title_key(title: str) -> str:
    """A title reduced for duplicate detection: accents, case, LaTeX/markup and punctuation dropped.

    ``"Schrödinger Bridges: a {Study}."`` and ``"Schrodinger bridges - A study"`` give the same key.
    Titles of fewer than 3 words or 16 characters give ``""`` (too generic to identify a paper).
    """
    s = unicodedata.normalize("NFKD", title)
    s = "".join(ch for ch in s if not unicodedata.combining(ch)).casefold()
    s = re.sub(r"\\[a-z]+|[^\w\s]|_", " ", s)
    words = s.split()
    key = " ".join(words)
    return key if len(words) >= 3 and len(key) >= 16 else ""
