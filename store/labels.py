"""Plain text and display labels of abstracts: markup stripped, code links found, the name a
paper gives its method (its label) derived. Pure functions of text, used by :mod:`store.papers`."""

from __future__ import annotations

import functools
import re
import unicodedata

from store.fieldterms import is_field_term
from store.guard import is_instruction, neutralize_markers
from store.keyphrase import FUNCTION_WORDS, key_phrase

__all__ = [
    "LATEX_ACCENT",
    "MAX_TITLE_CHARS",
    "choose_label",
    "typed_form",
    "without_links",
    "derive_label",
    "find_code_url",
    "introduced_names",
    "with_introduced",
    "is_code_link",
    "is_name_token",
    "is_opening",
    "latex_accents",
    "stated_name",
    "strip_markup",
    "title_label",
    "title_name",
    "whole_url",
    "written_url",
]

_LATEX_CMD_ARG = re.compile(r"\\(?:textbf|textit|emph|texttt|mathbf|mathrm|text|b|underline)\{([^{}]*)\}")
_URL = re.compile(r"(?:https?://|www\.)[^\s)\]}>,;]+|\b[a-z0-9][a-z0-9-]*(?:\.[a-z0-9-]+)*\.github\.io[^\s)\]}>,;]*")


_MATH = re.compile(r"\$([^$]{1,120})\$")


@functools.lru_cache(maxsize=4096)
def _math_text(latex: str) -> str | None:
    """Unicode text of a simple inline LaTeX formula (``pylatexenc``): ``\\times`` -> ``×``,
    ``\\alpha`` -> ``α``; ``None`` for a formula with sub- or superscripts
    (``\\tilde O(\\varepsilon^{-1})``), which reads better as written than flattened."""
    from pylatexenc.latex2text import LatexNodes2Text

    out = LatexNodes2Text(math_mode="text").latex_to_text(latex).strip()
    return None if re.search(r"[\\^_{}]", out) else out


_LATEX_ACCENT_MARKS = {
    '"': "\u0308", "'": "\u0301", "`": "\u0300", "^": "\u0302", "~": "\u0303", "=": "\u0304",
    "c": "\u0327", "v": "\u030c", "u": "\u0306", "H": "\u030b",
}
"""LaTeX accent commands and the Unicode combining mark each puts on its letter."""

LATEX_ACCENT = re.compile(
    r"\{\\(?P<m1>[\"'`^~=]|[cvuH] )\s*(?P<b1>[A-Za-z])\}"
    r"|\\(?P<m2>[\"'`^~=cvuH])\{(?P<b2>[A-Za-z])\}"
    r"|\\(?P<m3>[\"'`^~=])(?P<b3>[A-Za-z])"
)
"""A LaTeX accent command on one letter: ``{\\"o}``, ``\\"{o}``, ``\\"o``, ``\\v{C}``, ``{\\c c}``."""


def latex_accents(text: str) -> str:
    """``text`` with LaTeX accent commands written as the accented letter (``Nystr\\"om``,
    ``H{\\"o}lder``, ``R\\'{e}nyi``, ``\\v{C}ech`` -> "Nyström", "Hölder", "Rényi", "Čech").

    About a dozen of the 3,098 ICML 2022-23 abstracts write names this way; with the accent
    command kept, "Nystr\\"om" was the tokens "nystr" and "om", so "the Nystrom method" did not
    find the paper. Letters the accent cannot combine with stay as they are, unaccented.
    """
    if "\\" not in text:
        return text

    def letter(m: re.Match[str]) -> str:
        i = next(i for i in (1, 2, 3) if m.group(f"m{i}"))
        mark, base = m.group(f"m{i}").strip(), m.group(f"b{i}")
        return unicodedata.normalize("NFC", base + _LATEX_ACCENT_MARKS[mark])

    return LATEX_ACCENT.sub(letter, text)


def strip_markup(text: str) -> str:
    """Remove LaTeX/Markdown emphasis so names read plainly.

    ``\\textbf{DANCE}`` -> ``DANCE``, ``**DocVAL**`` -> ``DocVAL``, ``\\%`` -> ``%``,
    ``$\\textbf{S}$parse`` -> ``Sparse``, simple inline math as Unicode (``65$\\times$`` -> ``65×``,
    ``$\\alpha$`` -> ``α``); math with sub- or superscripts is kept as written. Other characters
    are kept; length may shrink.

    Every quotation of abstract text (answers, comparisons, prompts, labels, the evidence
    panel) goes through here, so the abstract's own bracketed references are neutralised here
    too (``[3]`` -> ``［3］``, :func:`store.guard.neutralize_markers`): they never become
    citation markers or links.
    """
    out = latex_accents(text)
    for _ in range(3):  # nested commands such as \textit{\b{Co}upled}
        out = _LATEX_CMD_ARG.sub(r"\1", out)
    out = re.sub(r"\$([A-Za-z])\$", r"\1", out)
    # Inline math with a LaTeX command reads as text ("65$\\times$" -> "65×"); a "$" of prices or
    # a lone "%" is left alone (the rest of an abstract is not LaTeX).
    out = _MATH.sub(lambda m: ("\\" in m.group(1) and _math_text(m.group(1))) or m.group(0), out)
    out = out.replace("\\%", "%").replace("**", "").replace("__", "")
    out = re.sub(r"(?<![\w*])\*(?=\w)|(?<=\w)\*(?![\w*])", "", out)
    return neutralize_markers(out)


def without_links(text: str) -> str:
    """``text`` with each URL it states replaced by a space ("... found at
    https://github.com/EleutherAI/pythia" -> "... found at  "): the words of a link are no words
    of the prose."""
    return _URL.sub(" ", text)


_URL_BREAK = re.compile(
    r"(?<=-)\s+(?=[\w.~/-]*\w)"  # "https://github.com/bigscience- workshop/architecture-objective"
    r"|(?<=/)\s+(?=[\w.~-]*(?:[/_A-Z0-9-]|\.\w)[\w.~/-]*\w)"  # "github.com/jiaweihhuang/ Confounded-POMDP-Exp"
    r"|\.\s+(?=(?:com|org|net|io|ai|edu|dev)/)"  # "https://github. com/BU-DEPEND-Lab/DRIBO"
)
"""A space a PDF's line break left inside a URL: after a hyphen, after a slash before a path part
that is no plain word ("/ Confounded-POMDP-Exp", not "/ and"), after a dot before a top-level
domain and its slash. Found in 3 of the 45 URLs with a space after them in the ICML 2022-23 abstracts."""


def whole_url(abstract: str, url: str) -> str:
    """``url`` as ``abstract`` states it in full: with the parts a line break cut off it joined on
    ("https://github.com/bigscience-" -> "https://github.com/bigscience-workshop/architecture-objective"),
    minus trailing punctuation; ``url`` itself when the abstract continues it with no such part or
    does not state it."""
    at = abstract.find(url) if url else -1
    if at < 0:
        return url
    end = at + len(url)
    while (gap := _URL_BREAK.match(abstract, end)) is not None:
        rest = re.match(r"[^\s)\]}>,;]+", abstract[gap.end() :])
        if rest is None:
            break
        url = (url + "".join(gap.group(0).split()) + rest.group(0)).rstrip(".,;:)}]'\"")
        end = gap.end() + len(rest.group(0))
    return url


def written_url(abstract: str, url: str) -> str:
    """``url`` as ``abstract`` writes it, with the spaces a line break left in it (the text of the
    abstract: "https://github. com/BU-DEPEND-Lab/DRIBO" for "https://github.com/BU-DEPEND-Lab/DRIBO",
    :func:`whole_url`); ``url`` itself when the abstract writes it whole or does not state it."""
    if not url or url in abstract:
        return url
    pattern = "".join(re.escape(c) + (r"\s*" if c in "-/." else "") for c in url)
    m = re.search(pattern, abstract)
    return m.group(0) if m else url


def find_code_url(abstract: str) -> str:
    """Return the first URL the abstract states (whole: :func:`whole_url`), minus trailing
    punctuation, else ``""``."""
    m = _URL.search(abstract)
    if not m:
        return ""
    return whole_url(abstract, m.group(0).rstrip(".,;:)}]'\""))


_CODE_HOSTS = re.compile(
    r"(?:^|//|www\.)(?:github\.com|gitlab\.com|bitbucket\.org|codeberg\.org|huggingface\.co)/", re.I
)
_CODE_WORDS = re.compile(r"\b(?:code|implementation|source|repository|repo)\b", re.I)


def is_code_link(abstract: str, url: str) -> bool:
    """Whether ``url`` (stated in ``abstract``) points to code rather than a project or demo page.

    True for a repository host (GitHub, GitLab, Bitbucket, Codeberg, Hugging Face) or when the
    sentence stating the URL speaks of code, an implementation, source or a repository.
    ``project-x.github.io`` after "Videos and more at" is a project page.
    """
    if not url:
        return False
    if _CODE_HOSTS.search(url):
        return True
    at = abstract.find(written_url(abstract, url))
    if at < 0:
        return False
    start = max(abstract.rfind(". ", 0, at), 0)
    return bool(_CODE_WORDS.search(abstract[start:at]))


_INTRO = re.compile(
    r"\b(?:we|We|and|paper|work)\s+(?:propose|introduce|present|develop|design|build|release|call)\s+"
    r"(?:a\s+|an\s+|the\s+|two\s+|three\s+)?",
)
_PAREN_ACRONYM = re.compile(r"\(([A-Z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*)\)")
_NAMEISH = re.compile(r"^[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*$")
_DETERMINERS = {"a", "an", "the", "two", "three", "new", "novel", "our"}
_SELF_NOUNS = frozenset({"work", "paper", "study", "article"})
"""What a paper calls itself ("in this work X"), as :data:`_SELF_INTRO` reads it."""
_GENERIC_HEADS = {"framework", "approach", "method", "algorithm", "model", "benchmark", "dataset", "system", "paradigm"}


def is_name_token(tok: str) -> bool:
    """A coined name: inner capitals, digits or all capitals (``DocVAL``, ``Graph-R1``, ``FOAM``)."""
    if not _NAMEISH.match(tok) or len(tok) < 2:
        return False
    inner_caps = any(c.isupper() for c in tok[1:])
    has_digit = any(c.isdigit() for c in tok)
    if re.fullmatch(r"[A-Z]+s", tok):
        return False  # plural of an acronym (LLMs, GBs): a kind of thing, not a name
    if tok.isupper() and len(tok) <= 2:
        return False  # two-letter acronyms (GC, FL) name fields and techniques, not a paper's method
    return (tok[0].isupper() and (inner_caps or has_digit)) or (tok.isupper() and len(tok) >= 3)


def _name_after_intro(tail: str) -> tuple[str, tuple[str, ...]] | None:
    """Name introduced by the text that follows "we propose/introduce", or ``None``."""
    aliases: list[str] = []
    clause = re.split(r",|\bthat\b|\bwhich\b|\bwhere\b|\.\s", tail, maxsplit=1)[0]
    acr = _PAREN_ACRONYM.search(clause) or _PAREN_ACRONYM.match(tail.split(". ", 1)[-1][:120].split(")", 1)[0] + ")")
    if acr is None:
        nxt = tail.split(". ", 1)
        acr = _PAREN_ACRONYM.search(nxt[1][:120]) if len(nxt) > 1 else None
        if acr:
            clause = nxt[1][:120]
    if acr and is_name_token(acr.group(1)):
        long_form = clause[: acr.start()].strip()
        words = [w for w in long_form.split() if w.lower() not in _DETERMINERS]
        if 1 <= len(words) <= 8 and " ".join(words) != acr.group(1):
            aliases.append(" ".join(words))
        return acr.group(1), tuple(aliases)
    words = clause.split()
    while words and words[0].lower() in _DETERMINERS:
        words = words[1:]
    if not words:
        return None
    first = words[0].strip(".;:")
    if is_name_token(first):
        return first, tuple(aliases)
    caps = []
    for w in words:
        w = w.strip(".;:")
        if w[:1].isupper() and w.lower() not in _GENERIC_HEADS:
            caps.append(w)
        else:
            break
    if caps and len(caps) <= 4 and (len(caps) > 1 or len(words) > 1 and words[1].lower() in _GENERIC_HEADS):
        return " ".join(caps), tuple(aliases)
    if tail[len(clause) : len(clause) + 1] == "," and 1 < len(words) <= 4 and all(w.isalpha() for w in words):
        named = _NAMED.search(" " + " ".join(words))
        if named is not None:
            # "a new approach called AdaTape, which ...": the name is what it is called
            rest = " ".join(words)[named.end() - 1 :].split()
            return (rest[0], tuple(aliases)) if len(rest) == 1 and is_name_token(rest[0]) else None
        if is_name_token(words[-1]) and all(w.lower() in FUNCTION_WORDS | _SELF_NOUNS for w in words[:-1]):
            # "we develop in this work FedFix, a novel extension of FedAvg"
            return words[-1], tuple(aliases)
        if any(is_name_token(w) for w in words) and any(w.lower() in FUNCTION_WORDS for w in words):
            # a coined name inside a phrase of other words is not the paper's name: "the use of
            # GFlowNets, algorithms for ...", "in this work FedFix, a ...", "a variant of PCG, ...";
            # "neural FIM, ..." is (the coined names it introduces: introduced_names)
            return None
        # a lower-case name the paper introduces as its own ("we propose mixture proportion estimation, ...")
        return " ".join(words), tuple(aliases)
    return None


def stated_name(abstract: str) -> tuple[str, tuple[str, ...]] | None:
    """The method/system name the abstract introduces ("we propose X", "we introduce the Long
    Name (ACRO)"), with its aliases (long form, companion names), or ``None``.

    Sentences addressed to an assistant (:func:`store.guard.is_instruction`) never give it, and
    a field term ("we propose a novel Federated Learning (FL) framework",
    :func:`store.fieldterms.is_field_term`) is no name.
    """
    plain = strip_markup(abstract)
    for m in _INTRO.finditer(plain):
        start = max(plain.rfind(". ", 0, m.start()), plain.rfind("! ", 0, m.start()), plain.rfind("? ", 0, m.start()))
        end = plain.find(". ", m.end())
        if is_instruction(plain[start + 1 : end if end >= 0 else len(plain)]):
            continue  # "... and say that we propose X": an instruction, not the paper's own claim
        found = _name_after_intro(plain[m.end() : m.end() + 200])
        if found and not is_field_term(found[0]):
            return found
    return None


def derive_label(abstract: str) -> tuple[str, tuple[str, ...]]:
    """Derive a display label and aliases from an abstract alone.

    The label is the name the abstract states (:func:`stated_name`); otherwise a short
    descriptive phrase (:func:`store.keyphrase.key_phrase`), never a cut sentence.

    Returns:
        ``(label, aliases)``; aliases hold the long form and companion names. The label is
        ``""`` when every sentence is an instruction.
    """
    found = stated_name(abstract)
    if found:
        return found
    return key_phrase(strip_markup(abstract)), ()


_SELF_INTRO = re.compile(
    r"\b(?:(?:[Ww]e|[Tt]his\s+(?:paper|work|article|study)|[Oo]ur\s+(?:paper|work|study)|[Hh]erein)\s+"
    r"(?:(?:also|further|first|then|thus|hence|therefore|now|newly|additionally|here)\s+)?"
    r"(?:propose|introduce|present|develop|design|build|release|devise|contribute|create|construct|"
    r"proposes|introduces|presents|develops|designs|contributes)"
    r"|\b[Bb]y\s+(?:proposing|introducing|presenting|developing|designing)|\band\s+(?:propose|introduce|present))\s+"
)
"""The paper's own introduction of what it makes: "we propose", "This paper introduces"; not
"prior work proposed" nor "we use"."""
_SELF_NAMING = re.compile(
    r"\b(?:which|that)?\s*we\s+(?:call|name|term|dub|coin|refer\s+to\s+as)"
    r"(?:\s+(?:it|this|them|these|this\s+\w+|our\s+\w+))?\s+[\"'\u201c\u2018`]*",
    re.I,
)
"""The paper naming what it makes: "which we call TDT", "we term this approach X"."""
_OWN = re.compile(r"\b(?:[Ww]e|[Oo]ur|[Tt]his\s+(?:paper|work|article|study))\b")
"""The paper as the subject of a sentence."""
_NAMED = re.compile(
    r"(?:,\s*|\s*\(\s*|\s+)(?:called|named|dubbed|termed|coined|nicknamed|referred\s+to\s+as|denoted\s+(?:as|by)|"
    r"abbreviated\s+(?:as|to))\s+[\"'\u201c\u2018`]*"
)
"""A participle that names the object of the paper's introduction: "a network, named QHNet"."""
_OUR_THING = re.compile(
    r"\b[Oo]ur\s+(?:proposed\s+|new\s+|novel\s+)?(?:method|approach|framework|model|algorithm|system|architecture|"
    r"agent|benchmark|dataset|technique|estimator|library|toolkit|network)\s*,?\s*(?:(?:called|named|dubbed)\s+)?"
)
"""What the paper calls its own method: "our method, X, ...", "our framework called X"."""
_NAME_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[-.][A-Za-z0-9]+)*")
_NAME_ENDS = re.compile(
    r"\s*(?:$|[,.;:()\u2014\u2013]|-{2,}|\s-\s)|\s+(?:which|that|to|for|as|with|in|on|by|is|are|can|uses|"
    r"builds|achieves|consists|learns|leverages|combines|exploits|relies|allows|enables|outperforms|improves|"
    r"framework|method|model|algorithm|approach|architecture|system|benchmark|dataset|network|agent|library|"
    r"toolkit|suite|module|family|technique|loss|objective|estimator|procedure|protocol|layer|mechanism|"
    r"strategy|paradigm|pipeline|platform|environment|attack|defense|scheme)\b"
)
"""What may follow a name the paper introduces: punctuation, a clause, or the generic head it names
("the X algorithm"); a common noun after it ("a CNN architecture", "BERT features") makes it a
modifier, and "and"/"or" a list of things it may use."""
_NOT_NP = frozenset(
    "of for with to from on in into by that which based using via and or between as under over is are we "
    "our it this their its these those than such like including against where when while whose who if whereas"
    .split()
)
"""Words no noun phrase introducing a name holds before it: after them the name is something the
paper's object is for, uses or is compared with ("a model for computer-aided design (CAD)")."""
INTRO_PREFIX_WORDS = 6
"""Most words between the verb that introduces and the name or long form it introduces ("we propose
a simple yet effective algorithm, X"). Set by reading the ICML 2022-23 abstracts: longer runs were
descriptions of what the method acts on, not the name's noun phrase."""


def _coined(tok: str) -> bool:
    """Whether ``tok`` is a coined name a paper can give its method: :func:`is_name_token`
    ("QHNet", "TDT", "Graph-R1"), a lower-case coinage with a digit inside ("data2vec") or with a
    capital after its first letters ("gMLP", "pFedGraph"); not a hyphenated modifier ("CLIP-based")
    nor a field term ("GAN", :func:`store.fieldterms.is_field_term`)."""
    if "-" in tok:
        last = tok.rsplit("-", 1)[1]
        if last.islower() and len(last) > 2 and not any(c.isdigit() for c in last):
            return False  # "CLIP-based", "SE(3)-equivariant": a modifier, not a name
    if is_field_term(tok):
        return False
    if is_name_token(tok):
        return True
    if re.fullmatch(r"[a-z]{2,}\d[a-z][a-z0-9]*", tok):
        return True  # data2vec, node2vec
    return bool(re.fullmatch(r"[a-z]{1,2}[A-Z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*", tok)) and not re.fullmatch(
        r"[a-z][A-Z]{1,2}s?", tok
    )  # gMLP, iMSDA, pFedGraph; not "mAP", "kNN"


def _name_at(text: str, at: int) -> str | None:
    """The coined name that starts ``text`` at ``at`` and is followed as a name is
    (:data:`_NAME_ENDS`), or ``None``."""
    m = _NAME_TOKEN.match(text, at)
    if m is None:
        return None
    tok = m.group(0).rstrip(".")
    if not _coined(tok) or not _NAME_ENDS.match(text, m.start() + len(tok)):
        return None
    short = re.match(r"\s*\(([A-Za-z][A-Za-z0-9-]*)\)", text[m.start() + len(tok):])
    if short and len(short.group(1)) < len(tok) and _spelled(short.group(1), tok):
        return None  # "AcceleratedGradient-OptimisticGradient (AG-OG)": the name is the acronym
    return tok


def _noun_phrase(words: list[str]) -> bool:
    """Whether ``words`` (between an introducing verb and a name) are a noun phrase's: few, and
    none of :data:`_NOT_NP`."""
    if len(words) > INTRO_PREFIX_WORDS or any(w.strip(",").lower() in _NOT_NP for w in words):
        return False
    # a verb's -ing form with its object ("a framework generalizing the classical ...") is a clause
    return not any(w.endswith("ing") and nxt.lower() in _OBJECT_START for w, nxt in zip(words, words[1:], strict=False))


_OBJECT_START = frozenset("the a an its their our his her this these".split())
_SPELL_SKIP = frozenset("of and for the a an with via in on to by from based".split())


def _spelled(acronym: str, before: str) -> int:
    """How many last words of ``before`` spell ``acronym`` (their initials, of each hyphenated part
    with small words aside, or their capitals are its capital letters: "Token-and-Duration
    Transducer" for TDT, "Graph-based Equivalence Mappings" for GEM), or ``0``."""
    caps = "".join(c for c in acronym if c.isupper())
    words = before.split()[-10:]
    for k in range(1, len(words) + 1):
        tail = [re.sub(r"^\W+|\W+$", "", w) for w in words[-k:]]
        parts = [p for w in tail for p in re.split(r"[-/]", w) if p and p.lower() not in _SPELL_SKIP]
        initials = "".join(p[0].upper() for p in parts)
        capitals = "".join(c for w in tail for c in w if c.isupper())
        if len(caps) >= 2 and (caps in (initials, capitals) or _skips_parts(caps, initials)):
            return k
    return 0


def _skips_parts(caps: str, initials: str) -> bool:
    """Whether ``caps`` spells ``initials`` with a part or two of a hyphenated word left out, first
    and last letters kept: "Dynamic One-Shot Policy Refinement" (DOSPR) for DoPR, "Structure-aware
    Granular-Ball based Information Bottleneck" (SAGBIB) for SGB-IB."""
    if not initials or initials[0] != caps[0] or initials[-1] != caps[-1] or len(initials) > len(caps) + 2:
        return False
    it = iter(initials)
    return all(c in it for c in caps)


def _defined_at(rest: str) -> str | None:
    """The acronym defined by the noun phrase opening ``rest``: "a novel Token-and-Duration
    Transducer (TDT)" -> "TDT"; ``None`` when its long form follows a preposition or clause ("a
    model for computer-aided design (CAD)", "based on Sharpness Aware Minimization (SAM)")."""
    m = re.match(r"[^()]*?\(([A-Za-z][A-Za-z0-9-]*)\)", rest)
    if m is None or not _coined(m.group(1)):
        return None
    words = rest[: m.start(1) - 1].split()
    k = _spelled(m.group(1), " ".join(words))
    return m.group(1) if k and _noun_phrase(words[: len(words) - k]) else None


_CLAUSE = frozenset(
    "that which where who whose we is are was were using uses use used leverage leverages leveraging employ "
    "employs adopt adopts than such like including against e.g. i.e. compared".split()
)
"""Words that start another clause or a comparison: a name after them ("... that uses a method
called SHAP") is not the name of what the paper introduces."""


def _one_clause(words: list[str]) -> bool:
    """Whether ``words`` stay in the clause of the introduced object (none of :data:`_CLAUSE`)."""
    return len(words) <= 3 * INTRO_PREFIX_WORDS and not any(w.strip(",;").lower() in _CLAUSE for w in words)


def _appositive(after: str, *, defines: bool = True) -> str | None:
    """The name an apposition opening ``after`` gives: "X, which", "called X", "Long Form (ACR)"
    (only when ``defines``: the apposition to a name says what kind of thing it is, "RLang, a
    domain-specific language (DSL)", and that kind is no name)."""
    named = _NAMED.match(after)
    at = named.end() if named else len(after) - len(after.lstrip())
    if not named and re.match(r"[a-z]+ing\b", after[at:]):
        return None  # "..., extending the Nesterov accelerated gradient (NAG) method": a clause
    name = _name_at(after, at)
    if name and not re.match(r"\s*,\s*[A-Z]|\s+(?:and|or)\s", after[at + len(name):]):
        return name
    return _defined_at(after[at:]) if defines or named else None


_APPOSITION = re.compile(r",\s*|\s*[\u2014\u2013]\s*|\s+-{1,2}\s+|-{2,3}|:\s+")
"""Where an apposition may start: "a framework, X", "a framework -- X", "a framework: Long Form (ACR)"."""


def _introduced_in(sentence: str) -> list[str]:
    """The names ``sentence`` introduces as the paper's own (see :func:`introduced_names`)."""
    out: list[str] = []
    for m in _SELF_INTRO.finditer(sentence):
        if m.group(0)[:3].lower() in ("by ", "and") and not _OWN.search(sentence, 0, m.start()):
            continue  # "Prior work ... by designing a mechanism, called MVU": not the paper's own
        rest = sentence[m.end():]
        words = rest.split()
        lead = 1 if words and words[0].lower() in ("the", "our") else 0
        direct = _name_at(rest, rest.find(words[lead])) if lead < len(words) else None
        if direct:
            out.append(direct)  # "we present data2vec, a framework", "we propose the X algorithm"
        elif (name := _defined_at(rest)) is not None:
            out.append(name)  # "a novel Token-and-Duration Transducer (TDT)"
        for gap in _APPOSITION.finditer(rest):
            before = rest[: gap.start()].split()
            # the object's own clause ("methods for large batch optimization, X"), not another one
            # ("..., which uses a method called SHAP") nor a comparison
            if not _one_clause(before):
                break
            if (name := _appositive(rest[gap.end():], defines=not direct)) is not None:
                out.append(name)  # "a simple algorithm, X, that", "a network, named QHNet,"
        for named in _NAMED.finditer(rest):
            if _one_clause(rest[: named.start()].split()) and (name := _appositive(rest[named.start():])):
                out.append(name)  # "a measure named TransRate", "(dubbed UniDiffuser)"
    for pattern in (_SELF_NAMING, _OUR_THING):
        for m in pattern.finditer(sentence):
            if name := _name_at(sentence, m.end()):
                out.append(name)  # "which we call TDT", "our method, X,"
    return out


def introduced_names(abstract: str) -> tuple[str, ...]:
    """The coined names an abstract introduces for what the paper makes, in order: "we present
    data2vec, a framework", "we propose a network, named QHNet", "This paper introduces a novel
    Token-and-Duration Transducer (TDT)", "which we call X", "our method, X,". A name the paper
    uses or compares with ("we leverage ... a method called SHAP", "outperforms BERT"), a word, an
    ingredient's acronym ("a model for computer-aided design (CAD)") and a field term are none.
    Sentences addressed to an assistant (:func:`store.guard.is_instruction`) give none.

    These are names of the paper as its title's are: a question asking "Summarize data2vec" asks
    for this paper, though its title's label says "A General Framework ..."."""
    found: list[str] = []
    for sentence in re.split(r"(?<=[.!?])\s+(?=[A-Z\\$(\[])", strip_markup(abstract)):
        if not is_instruction(sentence):
            found.extend(_introduced_in(sentence))
    return tuple(dict.fromkeys(found))


def with_introduced(label: str, aliases: tuple[str, ...], abstract: str) -> tuple[str, ...]:
    """``aliases`` with the names ``abstract`` introduces (:func:`introduced_names`) that are not
    ``label`` nor already among them (in any case), after them: the record's aliases when it is read,
    and again when the index is built from records stored before (the same names, once)."""
    have = {label.casefold(), *(a.casefold() for a in aliases)}
    new = [n for n in introduced_names(abstract) if n.casefold() not in have]
    return (*aliases, *new) if new else aliases


#: Longest title (characters) shown whole as a label; calibrated on ICML 2022-23 titles, of
#: which about nine in ten fit. A longer one is shortened at a colon or a phrase boundary.
MAX_TITLE_CHARS = 80
_TITLE_BREAK = re.compile(r"\s*(?::|\s[-–—](?=\s)|\?)\s+")
_TITLE_TAIL = frozenset("with via for from using under in on through by toward towards beyond without".split())


def title_label(title: str) -> str:
    """A title as a label: whole up to :data:`MAX_TITLE_CHARS`; else its part before a colon or
    dash ("Fascinating Supervisory Signals and Where to Find Them: ..." -> the part before the
    colon) when that has three or more words, or the part after it when the part before is
    shorter ("Beyond Images: Label Noise ..." -> "Label Noise ..."); else that part (or the
    title) cut before the last linking word that makes it fit ("Searching Large Neighborhoods
    for Integer Linear Programs with Contrastive Learning" -> "... for Integer Linear Programs");
    else whole. Never with an ellipsis, never cut inside a list ("for A, B and C" is cut before
    "for")."""
    title = title.strip()
    if len(title) <= MAX_TITLE_CHARS:
        return title
    parts = _TITLE_BREAK.split(title, maxsplit=1)
    head = parts[0].strip()
    if len(head.split()) >= 3 and len(head) <= MAX_TITLE_CHARS:
        return head + ("?" if title[len(head) :].lstrip().startswith("?") else "")
    short_head = len(head.split()) < 3
    if short_head and len(parts) == 2 and len(parts[1].strip()) <= MAX_TITLE_CHARS and len(parts[1].split()) >= 2:
        return parts[1].strip()
    words = (title if short_head else head).split()
    for k in range(len(words) - 1, 2, -1):
        if words[k].lower() in _TITLE_TAIL and len(" ".join(words[:k])) <= MAX_TITLE_CHARS:
            return " ".join(words[:k]).rstrip(",;:")
    return title


def _titled_name(name: str, title: str) -> bool:
    """Whether a name the abstract states beats the record's title: a coined name ("DANCE",
    "Graph-R1") or words the title itself uses; "simple network architecture" does not."""
    return any(is_name_token(w.strip("()[],.;:!?")) for w in name.split()) or name.lower() in title.lower()


def choose_label(abstract: str, title: str = "") -> tuple[str, tuple[str, ...], str]:
    """The label of a record, with its aliases and kind.

    Precedence: a name the title states before a colon (:func:`title_name`); the name the
    abstract states (:func:`stated_name`; with a title, only a coined one or one the title uses);
    the title (:func:`title_label`); a descriptive phrase of the abstract
    (:func:`store.keyphrase.key_phrase`). With a title, every coined name the abstract introduces
    (:func:`introduced_names`: "we propose a network, named QHNet") is an alias.

    Returns:
        ``(label, aliases, kind)`` with kind ``"name"``, ``"title"`` or ``"phrase"`` (a
        description, which no question matches as a name). The label is ``""`` only when the
        abstract is all instructions and there is no title.
    """
    label, aliases, kind = _chosen_label(abstract, title)
    # untitled, a record is named by the first artefact its abstract names (:func:`stated_name`);
    # the others it introduces are what that paper builds or measures ("ProAct-Helper" of ProAct-75)
    return label, (with_introduced(label, aliases, abstract) if title else aliases), kind


def _chosen_label(abstract: str, title: str) -> tuple[str, tuple[str, ...], str]:
    """:func:`choose_label` before the names the abstract introduces are added to its aliases."""
    found = stated_name(abstract)
    named = title_name(title) or _stated_title_word(title, abstract)
    if named:
        aliases: tuple[str, ...] = ()
        if found:
            label, aliases = found
            if label != named and any(is_name_token(w) for w in label.split()):
                aliases = (label, *aliases)
        return named, aliases, "name"
    if found and (not title or _titled_name(found[0], title)):
        return found[0], found[1], "name"
    if title:
        return title_label(title), _introduced_title_word(abstract, title), "title"
    return key_phrase(strip_markup(abstract)), (), "phrase"


_INTRO_WORD = re.compile(_INTRO.pattern + r"(?P<name>[A-Z][A-Za-z0-9]+)\s*,\s*(?:a|an|the)\s")


def _introduced_title_word(abstract: str, title: str) -> tuple[str, ...]:
    """The one capitalised word the abstract introduces with an apposition ("we propose Hyena, a
    subquadratic drop-in replacement") that the title also writes ("Hyena Hierarchy: ..."), as the
    paper's alias: "how many GPU hours did it take to train Hyena?" is asked of that paper, though its
    label is the title. ``()`` when there is none."""
    m = _INTRO_WORD.search(strip_markup(abstract))
    if m is None or not re.search(rf"(?<![\w-]){re.escape(m.group('name'))}(?![\w-])", title):
        return ()
    return (m.group("name"),)


def is_opening(label: str, abstract: str) -> bool:
    """Whether ``label`` is the abstract's first words (three or more), not a name."""
    head = label.rstrip("…").strip()
    return len(head.split()) >= 3 and strip_markup(abstract).lstrip().startswith(head)


_TITLE_NAME = re.compile(r"^\s*(?P<name>[^:]{1,40}?)\s*:\s+\S")
_MATH_MARKUP = re.compile(r"[$^_{}]|\\[A-Za-z]+")


def typed_form(name: str) -> str:
    """A name as a question types it, without LaTeX math markup: "Mu$^2$SLAM" -> "Mu2SLAM",
    "$\\mathcal{V}$-Usable" -> "V-Usable"."""
    return _MATH_MARKUP.sub("", name)


_TITLE_WORD = re.compile(r"^\s*(?P<name>[A-Z][A-Za-z0-9-]+)\s*:\s+\S")


def _stated_title_word(title: str, abstract: str) -> str | None:
    """A title's one word before a colon that is no English word and that the abstract writes as
    is ("Tranception: Protein Fitness ..." and "We introduce Tranception, a novel transformer"): the
    method's name, though it has no inner capital (:func:`title_name`). Without this the label was
    the benchmark the abstract also introduces ("ProteinGym"), or the title cut after the colon
    ("Rockmate: an Efficient, ..." -> "an Efficient, Fast, ..."); 13 of the 3,098 library titles."""
    import simplemma  # its English dictionary (as rag.lexicon.english_word reads it)

    m = _TITLE_WORD.match(title or "")
    if not m:
        return None
    word = m.group("name")
    if simplemma.is_known(word, lang="en") or not re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", abstract):
        return None
    return word


def title_name(title: str) -> str | None:
    """The name a title gives its method before a colon ("PLay: Parametrically Conditioned ..."
    -> "PLay"), or ``None``: one to three words, one of them a coined name (inner capitals,
    digits or all capitals), so "Learning to Rank: A Survey" gives ``None``.
    """
    m = _TITLE_NAME.match(title or "")
    if not m:
        return None
    words = m.group("name").split()
    if 1 <= len(words) <= 3 and any(is_name_token(typed_form(w).strip("()[],")) for w in words):
        return m.group("name")
    return None
