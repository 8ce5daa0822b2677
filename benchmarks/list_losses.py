"""Where each gold paper a "which papers" answer leaves out is lost: the stage of the route that drops it.

Each gold question whose ``qid`` holds ``multi`` (the "which papers" rows of the gold files) is
asked through the one route (``Components.ask``, a fresh conversation, stated filters read, no
LLM). The topic and retrieval the answer's :meth:`rag.route.answer.AnswerPipeline.found` is called
with are recorded, and each gold paper is put at the first stage that drops it:

- ``not retrieved``: not among retrieval's hits for the topic;
- ``beyond candidates``: retrieved below the ``retrieval.candidates`` the membership model checks;
- ``membership``: checked, below ``retrieval.set_membership`` (the probability is printed with the
  model's four features: closest sentence cosine, BM25 / best of the topic, term coverage, BM25 /
  best of the best-matched facet; see :func:`rag.route.membership.probability`);
- ``later rule``: probable enough, yet not cited (a parts check, the peers of an open frame, a
  refusal, a sense or direction check, the list's cap);
- ``cited``.

It prints one line per gold paper, the counts per stage and per file the "which papers" precision
and recall, so that a change is aimed at the stage that loses the most (the stop-53 note
holds the first table: of the 16 gold papers library_dev and library_own leave out, 14 were checked
candidates the membership model put below the line, one a peer of an open frame left out, one
retrieved at rank 62).

Usage::

    python benchmarks/list_losses.py --home DIR GOLD.jsonl [GOLD.jsonl ...]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rag.pipeline import build_pipeline  # noqa: E402
from rag.route.membership import probability  # noqa: E402
from rag.settings import Settings  # noqa: E402
from rag.text import content_terms  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--home", type=Path, required=True, help="Data directory of the indexed collection.")
    ap.add_argument("gold", nargs="+", type=Path, help="Gold files (JSONL); rows whose qid holds 'multi'.")
    args = ap.parse_args(argv)

    components = build_pipeline(Settings(home=args.home), llm=None)
    pipe = components.pipeline
    rs = pipe.settings.retrieval
    seen: dict[str, Any] = {}
    found = pipe.found

    def recording(topic: Any, retrieval: Any, limit: int | None = None, *, peers: bool = False) -> Any:
        seen.setdefault("topic", topic)
        seen.setdefault("retrieval", retrieval)
        return found(topic, retrieval, limit, peers=peers)

    pipe.found = recording  # type: ignore[method-assign]
    stages: Counter[str] = Counter()
    for path in args.gold:
        precision, recall = [], []
        for line in path.read_text().splitlines():
            q = json.loads(line) if line.strip() else {}
            if "multi" not in q.get("qid", "") or not q.get("gold_ids"):
                continue
            seen.clear()
            cited = set(components.ask(q["question"]).cited_ids)
            gold = q["gold_ids"]
            precision.append(len(cited & set(gold)) / len(cited) if cited else 0.0)
            recall.append(len(cited & set(gold)) / len(gold))
            topic, retrieval = seen.get("topic"), seen.get("retrieval")
            hits = [h.paper.id for h in retrieval.hits] if retrieval is not None else []
            probs: dict[str, tuple[float, list[float]]] = {}
            if topic is not None and hits:
                checked = retrieval.hits[: rs.candidates]
                feats = pipe.membership.features(topic.text, topic.facets, checked, topic.examples)
                p = probability(feats, topic.number == "many", len(set(content_terms(topic.text))))
                rows = zip(checked, p, feats, strict=True)
                probs = {h.paper.id: (float(x), [round(float(v), 3) for v in f]) for h, x, f in rows}
            print(f"\n{path.name} {q['qid']} P {precision[-1]:.2f} R {recall[-1]:.2f}: {q['question']}")
            for pid in gold:
                rank = hits.index(pid) if pid in hits else None
                if pid in cited:
                    stage = "cited"
                elif rank is None:
                    stage = "not retrieved"
                elif rank >= rs.candidates:
                    stage = "beyond candidates"
                elif pid in probs and probs[pid][0] < rs.set_membership:
                    stage = "membership"
                else:
                    stage = "later rule"
                stages[stage] += 1
                prob = f" p {probs[pid][0]:.3f} features {probs[pid][1]}" if pid in probs else ""
                title = components.retriever.papers[pid].title if pid in components.retriever.papers else pid
                print(f"  {stage:18s} rank {rank}{prob} | {title}")
        if recall:
            n = len(recall)
            print(f"\n{path.name}: {n} rows, P {sum(precision) / n:.3f} R {sum(recall) / n:.3f}")
    print("\ngold papers by stage:", dict(stages))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
