"""Fit the set-membership model of ``rag.answer.set_membership`` on a gold question file.

For every ``multi`` question of the file, every paper of the collection is a candidate with
the features :meth:`rag.answer.AnswerPipeline.membership_features` computes; the label is
whether the paper is gold. A logistic regression (scikit-learn, L2, ``C``) is fit on all
questions, and a leave-one-question-out run estimates the precision and recall of the answer
sets at each threshold, so the printed figures are for questions the model did not see.

Usage (the collection must be indexed; ``paperchat ingest`` does it)::

    python benchmarks/calibrate_membership.py tests/fixtures/dev.jsonl

Paste the printed coefficients into ``rag/answer.py`` (``_MEMBERSHIP_COEF``/``_MEMBERSHIP_BIAS``)
and the chosen threshold into ``retrieval.set_membership``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rag.answer import set_membership_design  # noqa: E402
from rag.pipeline import build_pipeline  # noqa: E402
from rag.settings import Settings  # noqa: E402
from rag.types import PaperHit  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("gold", type=Path, help="Gold questions (JSONL with kind, question, gold_ids).")
    ap.add_argument("--c", type=float, default=1.0, help="Inverse L2 strength of the logistic regression.")
    args = ap.parse_args(argv)

    comp = build_pipeline(Settings(), llm=None)
    pipe = comp.pipeline
    questions = [json.loads(line) for line in args.gold.read_text().splitlines() if line.strip()]
    questions = [q for q in questions if q["kind"] == "multi" and q["gold_ids"]]
    data = []
    for q in questions:
        cands = [PaperHit(paper=p, score=0.0) for p in comp.retriever.papers.values()]  # every paper
        feats = pipe.membership_features(q["question"], cands)
        gold = np.array([h.paper.id in q["gold_ids"] for h in cands])
        data.append((set_membership_design(feats), gold))

    def fit(rows):
        x = np.concatenate([r[0] for r in rows])
        y = np.concatenate([r[1] for r in rows])
        return LogisticRegression(C=args.c, max_iter=5000).fit(x, y)

    thresholds = (0.2, 0.25, 0.3, 0.35, 0.4, 0.5)
    found = {t: ([], []) for t in thresholds}
    for i, (x, gold) in enumerate(data):
        model = fit(data[:i] + data[i + 1 :])
        prob = model.predict_proba(x)[:, 1]
        for t in thresholds:
            chosen = prob >= t
            if not chosen.any():
                chosen = prob >= prob.max()
            found[t][0].append((chosen & gold).sum() / chosen.sum())
            found[t][1].append((chosen & gold).sum() / gold.sum())
    print(f"{len(data)} questions x {len(data[0][1]) if data else 0} papers; leave-one-question-out:")
    for t, (p, r) in found.items():
        print(f"  threshold {t:.2f}: precision {np.mean(p):.3f}  recall {np.mean(r):.3f}")
    model = fit(data)
    print(
        "coefficients", tuple(round(float(c), 3) for c in model.coef_[0]), "bias", round(float(model.intercept_[0]), 3)
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
