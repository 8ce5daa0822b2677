"""The structure the code keeps (issue 31): one reader of what the user typed, stages as folders
that import downward only, no import cycles, and stages that take typed asks, never question text.

Fast: reads the source with :mod:`ast`, imports a few modules.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RE_FUNCS = {"compile", "search", "match", "fullmatch", "sub", "subn", "findall", "finditer", "split"}
QUESTIONISH = ("question", "query", "plan", "ask", "message", "part", "aspect", "topic", "asked")
# Layers, lowest first: a module may import from its own layer and those below it only.
LAYERS = [
    {
        "rag.types", "rag.protocols", "rag.settings", "rag.text", "rag.lexicon", "rag.acronyms", "rag.citations",
        "rag.vocabulary",
    },
    {"rag.index"},
    {"rag.question"},
    {"rag.evidence"},
    {"rag.llm"},
    {"rag.route"},
    {"rag.pipeline", "rag.eval"},
    {"ui"},
]


def _modules() -> dict[str, Path]:
    files = sorted(p for d in ("rag", "ui") for p in (ROOT / d).rglob("*.py"))
    out = {}
    for p in files:
        parts = list(p.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = p
    return out


MODULES = _modules()


def _layer(module: str) -> int:
    for i, layer in enumerate(LAYERS):
        if any(module == m or module.startswith(m + ".") for m in layer):
            return i
    raise AssertionError(f"{module} belongs to no layer: add it to LAYERS in {Path(__file__).name}")


def _imports(module: str, path: Path) -> set[str]:
    """Modules of rag/ui that ``module`` imports (at module level, inside functions or for type checking)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for cand in (node.module, *(f"{node.module}.{a.name}" for a in node.names)):
                if cand in MODULES and cand != module:
                    out.add(cand)
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name in MODULES and a.name != module}
    return out


GRAPH = {m: _imports(m, p) for m, p in MODULES.items()}


def _names_in(node: ast.AST) -> str:
    return " ".join(
        n.id if isinstance(n, ast.Name) else n.attr for n in ast.walk(node) if isinstance(n, (ast.Name, ast.Attribute))
    ).lower()


def _pattern_object(node: ast.AST) -> bool:
    """Whether ``node`` names a compiled pattern or a word class: a constant (``_QUESTION``,
    ``module.PATTERN``), a word class of a vocabulary (``_V["frame"]``) or a ``.pattern``."""
    if isinstance(node, ast.Name):
        return node.id.lstrip("_").isupper()
    if isinstance(node, ast.Attribute):
        return node.attr.lstrip("_").isupper() or node.attr == "pattern"
    if isinstance(node, ast.Subscript):
        return _pattern_object(node.value)
    return False


def _pattern_calls_on_question_text(path: Path) -> list[str]:
    """Calls that apply a regular expression (``re.*``, or a method of a compiled pattern or word
    class) to an expression whose names say it comes from the question."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in RE_FUNCS):
            continue
        owner = node.func.value
        if isinstance(owner, ast.Name) and owner.id == "re":
            subject = node.args[1] if len(node.args) > 1 and node.func.attr != "compile" else None
        elif _pattern_object(owner):
            subject = node.args[0] if node.args else None  # PATTERN.search(text), VOCAB["x"].search(text)
        else:
            subject = None
        if subject is not None and any(w in _names_in(subject) for w in QUESTIONISH):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_only_the_question_reader_applies_patterns_to_what_the_user_typed():
    outside = [p for m, p in MODULES.items() if m.startswith("rag") and not m.startswith("rag.question")]
    offenders = [site for p in outside for site in _pattern_calls_on_question_text(p)]
    assert offenders == [], "read the question in rag/question/ and add a field to the plan or Ask instead"


def test_no_import_cycles():
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in GRAPH[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                cycles.append(sorted(comp))

    for v in GRAPH:
        if v not in index:
            visit(v)
    assert cycles == []


def test_stages_import_downward_only():
    upward = [
        f"{m} -> {d}" for m, deps in GRAPH.items() for d in deps
        if _layer(d) > _layer(m)
    ]
    assert upward == [], "a stage imports a later one; move the shared part down (types, protocols) instead"


def test_rag_has_a_dozen_top_level_modules_or_fewer():
    top = [p.name for p in (ROOT / "rag").glob("*.py") if p.name != "__init__.py"]
    assert len(top) <= 12, top


@pytest.mark.parametrize(
    ("target", "parameter", "expected"),
    [
        ("rag.evidence.selector:EvidenceSelector.score", "ask", "Ask"),
        ("rag.evidence.selector:EvidenceSelector.select", "ask", "Ask"),
        ("rag.route.refusal:RefusalPolicy.topic", "topic", "Topic"),
        ("rag.route.refusal:RefusalPolicy.absent_terms", "plan", "AskPlan"),
        ("rag.route.lead:lead_line", "plan", "AskPlan"),
        ("rag.route.answer:AnswerPipeline.answer", "plan", "AskPlan"),
        ("rag.route.answer:AnswerPipeline.find", "topic", "Topic"),
        ("rag.route.compare:build_table", "aspects", "Sequence[Ask]"),
        ("rag.index.retrieve:HybridRetriever.search", "query", "SearchQuery"),
    ],
)
def test_stages_take_typed_asks_and_plans_never_question_text(target, parameter, expected):
    import importlib

    module, qual = target.split(":")
    obj = importlib.import_module(module)
    for part in qual.split("."):
        obj = getattr(obj, part)
    annotation = inspect.signature(obj).parameters[parameter].annotation
    assert annotation == expected, f"{target}({parameter}: {annotation})"
