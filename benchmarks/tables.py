"""Tables across papers: how right their cells are, how well their rows match gold, how fast they are.

Prints, on the seed corpus (never run by the tests):

* "name" and "code" columns of all seed papers against the gold ``short_name`` / ``code_url`` of
  the seed file (gold read here only, never by the product), for several phrasings of each;
* the share of cells that are an exact span of their abstract or "not stated in the abstract",
  over every table built here;
* the dev set's ``multi`` and ``compare`` questions (and their rephrasings) turned into tables
  (:func:`rag.eval.table_for`): rows against gold papers (recall, precision) and the share of
  answer facts in the table's text, with leave-one-out not needed (nothing here is fitted);
* seconds for the table of 38 papers x 6 columns on the seed corpus, and for a topic table of up
  to 40 papers x 6 columns with the ICML 2022-23 papers indexed too (``--corpus``, default the
  bundled one; ``--no-large`` skips it), cold (sentences embedded on first use) and warm.

Usage::

    .venv/bin/python benchmarks/tables.py
    .venv/bin/python benchmarks/tables.py --corpus PATH --seed-gold PATH --no-large
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DEFAULT_CORPUS = "benchmarks/corpus/icml_2022_2023.jsonl.gz"
NAME_PHRASINGS = ("name", "method name", "what is it called", "acronym")
CODE_PHRASINGS = ("code", "code link", "GitHub repository", "URL of the implementation")
SIX = ("benchmark", "main result", "code", "name", "model size", "limitations")
TOPICS = ("reinforcement learning", "large language models", "diffusion models", "graph neural networks")


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def build(home: Path, paths: list[Path]):
    from rag.index.embed import SentenceTransformerEmbedder
    from rag.index.ingest import ingest_paths
    from rag.pipeline import build_pipeline, open_store, prepare_environment
    from rag.settings import Settings

    settings = Settings(home=home)
    prepare_environment(settings)
    store = open_store(settings)
    embedder = SentenceTransformerEmbedder()
    ingest_paths(paths, store, embedder)
    return build_pipeline(settings, embedder=embedder, store=store, llm=None)


class Exactness:
    """Counts cells that are exact spans of their abstract (or not stated) over many tables."""

    def __init__(self, papers):
        self.papers, self.cells, self.bad = papers, 0, 0

    def check(self, table) -> None:
        if table is None:
            return
        for c, row in zip(table.papers, table.cells, strict=True):
            for cell in row:
                self.cells += 1
                ok = all(self.papers[c.paper_id].abstract[e.start : e.end] == e.sentence for e in cell.evidence)
                self.bad += not ok


def gold_columns(comp, gold: list[dict], exact: Exactness) -> None:
    from rag.route.conversation import Conversation

    ids = [g["id"] for g in gold]
    for field, phrasings in (("short_name", NAME_PHRASINGS), ("code_url", CODE_PHRASINGS)):
        for phrase in phrasings:
            turn = Conversation(comp.pipeline).table(papers=ids, columns=[phrase])
            table = turn.paper_table
            exact.check(table)
            kind = table.columns[0].kind.key
            got = {c.paper_id: row[0].value for c, row in zip(table.papers, table.cells, strict=True)}
            have = [g for g in gold if g[field]]
            right = sum(got[g["id"]] == g[field] for g in have)
            none = [g for g in gold if not g[field]]
            silent = sum(not got[g["id"]] for g in none)
            print(f"  {field:10} column “{phrase}” (kind {kind}): equal to gold {right}/{len(have)} "
                  f"= {right / max(1, len(have)):.3f}; not stated where gold has none {silent}/{len(none)}")


def dev_tables(comp, files: list[Path], exact: Exactness) -> None:
    from rag.eval import load_gold, score_table, table_for

    for f in files:
        qs = [q for q in load_gold(f) if q.kind in ("multi", "compare")]
        rows = []
        for q in qs:
            turn = table_for(comp, q)
            exact.check(turn.paper_table)
            rows.append(score_table(q, turn))
        for kind in ("multi", "compare"):
            got = [r for r in rows if r["kind"] == kind]
            if not got:
                continue
            mean = lambda k, got=got: statistics.mean(r[k] for r in got if r[k] is not None)  # noqa: E731
            print(f"  {f.name} {kind:7} ({len(got)} questions): rows recall {mean('recall'):.3f}, "
                  f"precision {mean('precision'):.3f}, answer facts in cells {mean('facts'):.3f}, "
                  f"mean rows {mean('rows'):.1f}")
        facts = [r["facts"] for r in rows if r["facts"] is not None]
        print(f"  {f.name} all: answer facts in cells {statistics.mean(facts):.3f} over {len(facts)} questions")


def timing(comp, label: str, exact: Exactness, ids: list[str] | None = None) -> None:
    from rag.route.conversation import Conversation

    runs = [("papers", ids)] if ids else [("topic", t) for t in TOPICS]
    for what, arg in runs:
        for state in ("cold", "warm"):
            t0 = time.perf_counter()
            conv = Conversation(comp.pipeline)
            turn = conv.table(papers=arg, columns=SIX) if what == "papers" else conv.table(arg, columns=SIX)
            dt = time.perf_counter() - t0
            exact.check(turn.paper_table)
            t = turn.paper_table
            n, k = (len(t.papers), len(t.columns)) if t else (0, 0)
            shown = f"{len(arg)} named papers" if what == "papers" else f"“{arg}” (topic column + 6)"
            print(f"  {label}: {shown}, {n} rows x {k} columns, {state}: {dt:.2f} s "
                  f"(retrieval {turn.answer.timings.retrieval:.2f} s, cells {turn.answer.timings.evidence:.2f} s)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed-gold", type=Path, default=ROOT / "tests/fixtures/papers.jsonl",
                    help="Seed papers with the gold short_name and code_url fields.")
    ap.add_argument("--dev", type=Path, nargs="+",
                    default=[ROOT / "tests/fixtures/dev.jsonl", ROOT / "tests/fixtures/dev_variants.jsonl"])
    ap.add_argument("--corpus", type=Path, default=ROOT / DEFAULT_CORPUS, help="ICML 2022-23 JSONL(.gz).")
    ap.add_argument("--no-large", action="store_true", help="Skip the timing with the large corpus indexed.")
    ap.add_argument("--home", type=Path, default=None,
                    help="Keep the indexes here (a later run reuses them) instead of a temporary folder.")
    args = ap.parse_args(argv)
    gold = [json.loads(x) for x in args.seed_gold.read_text(encoding="utf-8").splitlines() if x.strip()]
    with tempfile.TemporaryDirectory(prefix="paperchat-tables-") as scratch:
        tmp = args.home or Path(scratch)
        log("indexing the seed papers")
        comp = build(Path(tmp) / "seed", [ROOT / "data"])
        exact = Exactness(comp.retriever.papers)
        print("name and code columns on the seed papers (gold read by this script only):")
        gold_columns(comp, gold, exact)
        print("dev questions as tables:")
        dev_tables(comp, args.dev, exact)
        print("timing on the seed corpus:")
        timing(comp, f"seed ({len(comp.retriever.papers)} papers)", exact, ids=[g["id"] for g in gold])
        timing(comp, f"seed ({len(comp.retriever.papers)} papers)", exact)
        if not args.no_large:
            if not args.corpus.exists():
                print(f"corpus not found: {args.corpus} (pass --corpus PATH or --no-large)", file=sys.stderr)
                return 2
            sys.path.insert(0, str(ROOT / "benchmarks"))
            from bench import load_corpus  # the bundled corpus is gzipped: read it as bench.py does

            papers = load_corpus(args.corpus, ROOT / "data", None)
            plain = Path(tmp) / "large.jsonl"
            with plain.open("w", encoding="utf-8") as out:
                for p in papers:
                    out.write(json.dumps({"id": p.id, "title": p.title, "abstract": p.abstract, "year": p.year,
                                          "venue": p.venue, "authors": list(p.authors), "url": p.url}) + "\n")
            log(f"indexing {len(papers)} papers (a few minutes)")
            t0 = time.perf_counter()
            big = build(Path(tmp) / "large", [plain])
            log(f"indexed in {time.perf_counter() - t0:.0f} s")
            exact.papers = big.retriever.papers
            label = f"seed + ICML 2022-23 ({len(big.retriever.papers)} papers)"
            others = sorted(pid for pid in big.retriever.papers if pid not in {g["id"] for g in gold})
            timing(big, label, exact, ids=others[:: max(1, len(others) // 40)][:40])
            timing(big, label, exact)
        print(f"cells that are an exact span of their abstract or not stated: {exact.cells - exact.bad}/{exact.cells}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
