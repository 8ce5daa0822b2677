"""Fit and judge :data:`rag.evidence.senses.SENSE_SIMILARITY` on ``senses_pairs.tsv`` (leave one pair out).

Usage: ``OMP_NUM_THREADS=1 python benchmarks/senses.py`` (loads the bundled embedder, a few seconds).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rag.evidence.senses import SENSE_SIMILARITY, WordSenses, calibration  # noqa: E402
from rag.index.embed import SentenceTransformerEmbedder  # noqa: E402


def main() -> None:
    """Print each pair's cosine, the fitted threshold and the pairs judged right (fit, leave-one-out)."""
    rows = []
    for line in Path(__file__).with_name("senses_pairs.tsv").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            a, b, same = line.split("\t")
            rows.append((a, b, same.strip() == "1"))
    senses = WordSenses(SentenceTransformerEmbedder().embed)
    for a, b, same in sorted(rows, key=lambda r: -senses.similarity(r[0], r[1])):
        print(f"{senses.similarity(a, b):.3f}\t{int(same)}\t{a}\t{b}")
    threshold, right, loo = calibration(rows, senses.similarity)
    at = sum((senses.similarity(a, b) >= SENSE_SIMILARITY) == same for a, b, same in rows)
    print(f"fitted {threshold:.3f}: {right}/{len(rows)} right; leave-one-out {loo}/{len(rows)}")
    print(f"SENSE_SIMILARITY {SENSE_SIMILARITY}: {at}/{len(rows)} right")


if __name__ == "__main__":
    main()
