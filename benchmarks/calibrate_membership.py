"""Fit the relevance model of ``rag.route.membership`` (which papers answer a question naming none).

Every answerable question of the gold file that names no paper (read by the question model
exactly as the product reads it) is a training question: paraphrases that describe one paper,
"which papers" questions, questions about a described paper. Every paper of the collection is a
candidate with the features :meth:`rag.route.membership.Membership.features` computes from the
question's topic; the label is whether the paper is gold. A logistic regression (scikit-learn,
L2, ``C``) is fit on all questions, and a leave-one-question-out run estimates, for each
threshold, the citation precision and recall of the answers *as the product forms them*
(an explicit "which paper" keeps only the most probable member), per kind.

Usage (needs scikit-learn, ``pip install scikit-learn``; the seed collection indexed under ``--home``)::

    python benchmarks/calibrate_membership.py tests/fixtures/dev.jsonl --home .paperchat

Paste the printed coefficients into ``rag/membership.py`` (``COEF``/``BIAS``) and the chosen
threshold into ``retrieval.set_membership``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rag.pipeline import build_pipeline  # noqa: E402
from rag.route.membership import design  # noqa: E402
from rag.settings import Settings  # noqa: E402
from rag.text import content_terms  # noqa: E402
from rag.types import PaperHit  # noqa: E402

THRESHOLDS = (0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6)


def collect(pipe, questions: list[dict]) -> list[tuple[dict, object, np.ndarray, np.ndarray]]:
    """``(question, plan, design matrix, gold labels)`` for each training question."""
    cands = [PaperHit(paper=p, score=0.0) for p in pipe.catalogue.papers.values()]
    out = []
    for q in questions:
        plan = pipe.read(q["question"])
        if not q["gold_ids"] or plan.intent not in ("ask", "topic_summary") or plan.named_ids:
            continue
        feats = pipe.membership.features(plan.topic or plan.query, plan.facets, cands)
        gold = np.array([h.paper.id in q["gold_ids"] for h in cands])
        terms = len(set(content_terms(plan.topic or plan.query)))
        out.append((q, plan, design(feats, plan.number == "many", terms), gold))
    return out


def answer_set(prob: np.ndarray, plan, threshold: float) -> np.ndarray:
    """The papers the product cites: members at the threshold (the best one when none is, or
    when the question asks for one paper)."""
    chosen = prob >= threshold
    if not chosen.any() or plan.number == "one":
        chosen = prob >= prob.max()
    return chosen


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("gold", type=Path, nargs="+", help="Gold questions (JSONL with kind, question, gold_ids).")
    ap.add_argument("--home", type=Path, default=None, help="Data directory holding the indexed collection.")
    ap.add_argument("--c", type=float, default=1.0, help="Inverse L2 strength of the logistic regression.")
    args = ap.parse_args(argv)

    settings = Settings(home=args.home) if args.home else Settings()
    pipe = build_pipeline(settings, llm=None).pipeline
    questions = [json.loads(line) for f in args.gold for line in f.read_text().splitlines() if line.strip()]
    data = collect(pipe, questions)

    def fit(rows):
        x = np.concatenate([r[2] for r in rows])
        y = np.concatenate([r[3] for r in rows])
        return LogisticRegression(C=args.c, max_iter=5000).fit(x, y)

    # leave one question out: the question and its rephrasings (same orig_qid) are held out together
    groups = defaultdict(list)
    for i, (q, *_rest) in enumerate(data):
        groups[q.get("orig_qid", q["qid"])].append(i)
    probs: dict[int, np.ndarray] = {}
    for idx in groups.values():
        held = set(idx)
        model = fit([d for i, d in enumerate(data) if i not in held])
        for i in idx:
            probs[i] = model.predict_proba(data[i][2])[:, 1]
    print(f"{len(data)} questions ({len(groups)} groups) x {len(data[0][3]) if data else 0} papers; leave-one-question-out:")
    for t in THRESHOLDS:
        per_kind: dict[str, list[tuple[float, float]]] = defaultdict(list)
        for i, (q, plan, _x, gold) in enumerate(data):
            chosen = answer_set(probs[i], plan, t)
            per_kind[q["kind"]].append(((chosen & gold).sum() / chosen.sum(), (chosen & gold).sum() / gold.sum()))
        cells = "  ".join(
            f"{k} P {np.mean([p for p, _ in v]):.3f} R {np.mean([r for _, r in v]):.3f} (n={len(v)})"
            for k, v in sorted(per_kind.items())
        )
        print(f"  threshold {t:.2f}: {cells}")
    model = fit(data)
    print(
        "coefficients", tuple(round(float(c), 3) for c in model.coef_[0]), "bias", round(float(model.intercept_[0]), 3)
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
