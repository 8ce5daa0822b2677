"""Fit the relevance model of ``rag.route.membership`` (which papers answer a question naming none).

Every answerable question of the gold files that names no paper (read by the question model
exactly as the product reads it, in a fresh conversation: a pronoun refers to nothing) is a
training question: "which papers" questions, paraphrases that describe one paper, questions about
a described paper. Its candidates are the ``retrieval.candidates`` papers retrieval returns for its
topic, with the features :meth:`rag.route.membership.Membership.features` computes (as
:meth:`rag.route.answer.AnswerPipeline.found` checks them); the label is whether the paper is gold.
A logistic regression (scikit-learn, L2, ``C``) is fit on all questions, and a leave-one-question-out
run (a question and its rephrasings, same ``orig_qid``, held out together) estimates the citation
precision and recall of the answers *as the product forms them*, per collection and kind: a
"which papers" question cites the candidates at or above ``retrieval.set_membership``; a question
that does not ask for several papers (a description) its most probable candidate, with the others
at or above ``retrieval.description_membership``; an explicit "which paper" the most probable one.

Each ``--set`` names a data directory and the gold files asked of it, so the seed collection's
dev files and the library's (3,098 ICML 2022-23 papers with the seed) are fit together. Each
``--test`` names gold files kept out of the fit (``library_own``, ``benchmarks/questions/*.jsonl``):
they are scored by the model fit on every ``--set`` row, their rows marked "(not fit)".

Usage (needs scikit-learn, ``pip install scikit-learn``)::

    python benchmarks/calibrate_membership.py \\
        --set .paperchat ../shared/eval/dev.jsonl ../shared/eval/dev_variants.jsonl \\
        --set .paperchat-library ../shared/eval/library_dev.jsonl \\
        --test .paperchat-library tests/fixtures/library_own.jsonl benchmarks/questions/library_topics.jsonl

Paste the printed coefficients into ``rag/route/membership.py`` (``COEF``/``BIAS``) and the chosen
thresholds into ``retrieval.set_membership`` / ``retrieval.description_membership``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rag.pipeline import build_pipeline  # noqa: E402
from rag.question.plan import AskPlan  # noqa: E402
from rag.route.membership import design  # noqa: E402
from rag.settings import Settings  # noqa: E402
from rag.text import content_terms  # noqa: E402

THRESHOLDS = (0.25, 0.3, 0.35, 0.4, 0.5, 0.6)
"""Thresholds of "which papers" answers tried."""
DESCRIPTION_THRESHOLDS = (0.5, 0.7, 0.85)
"""Thresholds for a paper to join the most probable one in a description's answer."""
PEERS = ((1.01, 1.01), (0.25, 0.5), (0.3, 0.5), (0.35, 0.5), (0.4, 0.5), (0.45, 0.5), (0.35, 0.4), (0.35, 0.6))
"""``(probability, coverage)`` floors tried for a peer of an open question's most probable paper
(``retrieval.description_peer_membership`` / ``description_peer_coverage``); the first lists none."""


@dataclass
class Row:
    """One training question: where it comes from, its plan's number, design matrix and labels."""

    collection: str
    source: str
    question: dict
    number: str
    x: np.ndarray
    gold: np.ndarray
    coverage: np.ndarray

    @property
    def group(self) -> tuple[str, str]:
        return self.collection, self.question.get("orig_qid", self.question["qid"])


def collect(home: Path, files: list[Path]) -> list[Row]:
    """The training rows of the gold ``files`` asked of the collection indexed under ``home``."""
    components = build_pipeline(Settings(home=home), llm=None)
    pipe = components.pipeline
    resolver = components.conversation().resolver
    depth = pipe.settings.retrieval.candidates
    rows = []
    for f in files:
        for line in f.read_text().splitlines():
            if not line.strip():
                continue
            q = json.loads(line)
            if not q["gold_ids"]:
                continue
            plan = pipe.read(q["question"])
            if not isinstance(plan, AskPlan) or plan.named_ids or not plan.topic.text:
                continue
            if plan.refs and resolver.referred(plan)[0]:
                continue
            topic = plan.topic
            if topic.artifact or topic.about_links:
                continue
            hits = pipe.retriever.search(topic.search).hits[:depth]
            # the topic and its readings as the product judges them (AnswerPipeline.found): acronyms
            # written out, the text as typed and the noun phrase a verb topic stands for as readings
            judged = topic.written or topic.text
            readings = (*topic.examples, *([topic.text] if judged != topic.text else []), *topic.nominal)
            feats = pipe.membership.features(judged, topic.facets, hits, readings)
            many = topic.number == "many"
            x = design(feats, many, len(set(content_terms(judged))))
            gold = np.array([h.paper.id in q["gold_ids"] for h in hits])
            coverage = np.array(pipe.retriever.coverages(topic.text, [h.paper.id for h in hits]))
            rows.append(Row(str(home.name), f.stem, q, topic.number, x, gold, coverage))
    return rows


def answer_set(
    prob: np.ndarray, number: str, threshold: float, description: float, coverage: np.ndarray, peer: tuple[float, float]
) -> np.ndarray:
    """The candidates the product cites (see the module docstring); ``peer`` is
    ``(retrieval.description_peer_membership, retrieval.description_peer_coverage)``, the candidates
    listed beside the most probable one of a question whose number is open."""
    if number == "many":
        return prob >= threshold
    chosen = (prob >= threshold) & (prob >= description)
    if number == "open":
        chosen |= (prob >= peer[0]) & (coverage >= peer[1])
    chosen[int(np.argmax(prob))] = True
    if number == "one":
        chosen = prob >= prob.max()
    return chosen


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--set",
        dest="sets",
        nargs="+",
        action="append",
        required=True,
        metavar=("HOME", "GOLD"),
        help="A data directory holding an indexed collection, then the gold files (JSONL) asked of it.",
    )
    ap.add_argument(
        "--test",
        dest="tests",
        nargs="+",
        action="append",
        default=[],
        metavar=("HOME", "GOLD"),
        help="A data directory, then gold files scored by the model fit on all --set rows, not fit on.",
    )
    ap.add_argument("--c", type=float, default=1.0, help="Inverse L2 strength of the logistic regression.")
    args = ap.parse_args(argv)

    data: list[Row] = []
    for home, *files in args.sets:
        data += collect(Path(home), [Path(f) for f in files])
    held_out: list[Row] = []
    for home, *files in args.tests:
        held_out += collect(Path(home), [Path(f) for f in files])

    def fit(rows: list[Row]) -> LogisticRegression:
        x = np.concatenate([r.x for r in rows])
        y = np.concatenate([r.gold for r in rows])
        return LogisticRegression(C=args.c, max_iter=5000).fit(x, y)

    groups: dict[tuple[str, str], list[int]] = defaultdict(list)
    for i, r in enumerate(data):
        groups[r.group].append(i)
    probs: dict[int, np.ndarray] = {}
    for idx in groups.values():
        held = set(idx)
        model = fit([d for i, d in enumerate(data) if i not in held])
        for i in idx:
            probs[id(data[i])] = model.predict_proba(data[i].x)[:, 1]
    model = fit(data)
    for r in held_out:  # scored by the model fit on every --set row
        r.source = f"{r.source} (not fit)"
        probs[id(r)] = model.predict_proba(r.x)[:, 1]
    scored = [(id(r), r) for r in (*data, *held_out)]
    print(f"{len(data)} questions ({len(groups)} groups); leave-one-question-out, {len(held_out)} not fit on:")
    settings = [(t, d, PEERS[3]) for t in THRESHOLDS for d in DESCRIPTION_THRESHOLDS]
    settings += [(0.35, 0.7, peer) for peer in PEERS if peer != PEERS[3]]
    for t, d, peer in settings:
        cells: dict[str, list[tuple[float, float]]] = defaultdict(list)
        for i, r in scored:
            chosen = answer_set(probs[i], r.number, t, d, r.coverage, peer)
            found = (chosen & r.gold).sum()
            cells[f"{r.source}/{r.question['kind']}"].append(
                (found / max(chosen.sum(), 1), found / len(r.question["gold_ids"]))
            )
        line = "  ".join(
            f"{k} P {np.mean([p for p, _ in v]):.3f} R {np.mean([q for _, q in v]):.3f} (n={len(v)})"
            for k, v in sorted(cells.items())
        )
        print(f"  set {t:.2f} description {d:.2f} peer {peer[0]:.2f}/{peer[1]:.2f}: {line}")
    print(
        "coefficients", tuple(round(float(c), 3) for c in model.coef_[0]), "bias", round(float(model.intercept_[0]), 3)
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
