"""Related papers on the library: hit@5 on hand-judged pairs and the warm time of one call.

Reads ``tests/fixtures/similar_pairs.jsonl`` (seed papers with an obvious neighbour among the ICML
2022-23 papers, each judged by hand with a one-line reason) and, over a data directory holding the
seed papers and the 3,098 ICML papers (``make eval-library`` builds ``.paperchat-library``), prints:

* hit@5: the share of pairs whose neighbour (any of those judged obvious) is among the five papers
  :func:`rag.route.similar.similar_papers` lists, for each order of the candidates
  (:data:`rag.route.similar.ORDER`: by dense cosine, the fused order of questions, and that with
  the coverage rerank of the head);
* seconds per call, cold (the pair's sentences embedded on first use) and warm (the same call
  again, as the page or a warm server answers it), median and worst over the seed papers;
* the misses, with what was listed instead.

Never run by the tests (it needs the library). Usage::

    .venv/bin/python benchmarks/similar.py --home .paperchat-library
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PAIRS = ROOT / "tests" / "fixtures" / "similar_pairs.jsonl"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--home", type=Path, default=ROOT / ".paperchat-library", help="The library's data directory.")
    ap.add_argument("--pairs", type=Path, default=PAIRS, help="Judged pairs (JSONL: paper, neighbours, reason).")
    ap.add_argument("-k", type=int, default=5, help="Hit at this many neighbours.")
    args = ap.parse_args(argv)
    os.environ.setdefault("OMP_NUM_THREADS", "1")

    from rag.pipeline import build_pipeline
    from rag.route import similar
    from rag.settings import Settings

    pairs = [json.loads(line) for line in args.pairs.read_text(encoding="utf-8").splitlines() if line.strip()]
    t0 = time.perf_counter()
    comp = build_pipeline(Settings(home=args.home), llm=None)
    papers = comp.retriever.papers
    print(f"{len(papers)} papers in {args.home} (loaded in {time.perf_counter() - t0:.1f} s); {len(pairs)} pairs")
    missing = [p["paper"] for p in pairs if p["paper"] not in papers] + [
        n for p in pairs for n in p["neighbours"] if n not in papers
    ]
    if missing:
        print(f"not in the collection: {', '.join(missing)} (ingest the seed papers and the ICML corpus)")
        return 1
    chosen = similar.ORDER
    for order in ("dense", "fused", "reranked"):
        similar.ORDER = order  # type: ignore[assignment]
        hits, misses = 0, []
        for p in pairs:
            got = [n.paper.id for n in similar.similar_papers(comp.pipeline, p["paper"], k=args.k).neighbours]
            if set(got) & set(p["neighbours"]):
                hits += 1
            else:
                misses.append((p, got))
        print(f"hit@{args.k} order {order}: {hits}/{len(pairs)} = {hits / len(pairs):.3f}")
        for p, got in misses:
            shown = "; ".join(papers[g].label[:40] for g in got)
            print(
                f"  miss {p['label']}: wanted {', '.join(papers[n].label[:40] for n in p['neighbours'])}; got {shown}"
            )
    similar.ORDER = chosen
    seeds = sorted(pid for pid in papers if not pid.startswith("icml-"))
    cold, warm = [], []
    for pid in seeds:
        t = time.perf_counter()
        similar.similar_papers(comp.pipeline, pid, k=args.k)
        cold.append(time.perf_counter() - t)
        t = time.perf_counter()
        similar.similar_papers(comp.pipeline, pid, k=args.k)
        warm.append(time.perf_counter() - t)
    print(
        f"seconds per call over {len(seeds)} seed papers (order {chosen}): cold median {statistics.median(cold):.3f}, "
        f"worst {max(cold):.3f}; warm median {statistics.median(warm):.3f}, worst {max(warm):.3f} (goal <= 0.5)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
