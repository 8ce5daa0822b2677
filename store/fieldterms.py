"""Field terms: the names of research fields, model families and standard techniques
(``field_terms.txt``, about 150 entries), which an abstract may write like a name ("we propose a
novel Federated Learning (FL) framework") but which never name one paper's method.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

__all__ = ["FIELD_TERMS", "is_field_term"]

FIELD_TERMS = Path(__file__).with_name("field_terms.txt")


def _key(term: str) -> str:
    """``term`` compared loosely: lower case, hyphens as spaces, one trailing plural ``s`` off
    each word ("Graph Neural Networks" -> "graph neural network", "LLMs" -> "llm")."""
    words = re.sub(r"[-‐–]", " ", term.lower()).split()
    return " ".join(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in words)


@functools.lru_cache(maxsize=1)
def _terms() -> frozenset[str]:
    lines = FIELD_TERMS.read_text(encoding="utf-8").splitlines()
    return frozenset(_key(t) for t in (line.strip() for line in lines) if t and not t.startswith("#"))


def is_field_term(text: str) -> bool:
    """Whether ``text`` is only a field term ("Federated Learning", "GNNs", "monte-carlo"),
    with a leading article ignored."""
    key = _key(re.sub(r"^(?:the|a|an)\s+", "", text.strip(), flags=re.I))
    return bool(key) and key in _terms()
