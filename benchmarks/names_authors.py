"""paperchat benchmark: names resolve to the paper that states them, author questions cite an author's papers.

Run by hand over a data directory that already holds the papers (never by the tests)::

    paperchat --home DIR ingest data/ papers.jsonl        # the 38 seed + 3,098 ICML 2022-23 papers
    .venv/bin/python benchmarks/names_authors.py --home DIR

Every question goes through the route users reach (:class:`rag.route.conversation.Conversation`, as
``paperchat ask --llm none`` does, with the automatic filters on). Gold comes from the records:

* **names**: a paper whose title states a method name (:func:`store.labels.title_name`, the
  name before a colon: "PLay: Parametrically Conditioned ..." -> "PLay") is asked "What does
  NAME propose?"; correct when the first cited paper is it, or another paper whose title states
  the same name (case-insensitively; such ties are counted and reported). Goal: share >= 0.98.
* **authors**: 50 authors with two or more papers, drawn with a fixed seed from the records'
  author names, are asked "Which papers did AUTHOR publish?"; the cited set is scored against
  the papers whose records list that exact name (recall and precision, micro-averaged over all
  questions; goal >= 0.95 each). Other phrasings on the first authors show the reading serves a
  class: "papers by A", "what did A publish in YEAR", "A's work on WORD", the name in lower case,
  and the last name alone when only one author of the collection bears it.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

from rag.route.conversation import Conversation  # noqa: E402
from rag.route.filters import Filters  # noqa: E402
from rag.text import STOPWORDS  # noqa: E402
from store.labels import title_name  # noqa: E402

SEED = 2026
"""Seed of the author sample (any fixed value; the sample is reported)."""


def build(home: Path):
    """The extractive pipeline over an existing data directory (what ``ask --llm none`` builds)."""
    from rag.pipeline import build_pipeline, make_embedder, open_store, prepare_environment
    from rag.settings import Settings

    settings = Settings(home=home)
    prepare_environment(settings)
    return build_pipeline(settings, embedder=make_embedder(settings), store=open_store(settings), llm=None).pipeline


def ask(pipeline, question: str):
    """One question in a fresh conversation, automatic filters on (the CLI's default)."""
    return Conversation(pipeline).ask(question, filters=Filters(auto=True)).answer


def names(pipeline, limit: int | None) -> None:
    papers = pipeline.catalogue.papers
    by_name: dict[str, set[str]] = defaultdict(set)
    stated = {}
    for pid, p in papers.items():
        name = title_name(p.title) if p.title else None
        if name:
            stated[pid] = name
            by_name[name.casefold()].add(pid)
    items = sorted(stated.items())[:limit]
    ties = sum(1 for pid, _ in items if len(by_name[stated[pid].casefold()]) > 1)
    ok, fails = 0, []
    t0 = time.perf_counter()
    for pid, name in items:
        ans = ask(pipeline, f"What does {name} propose?")
        first = ans.citations[0].paper_id if ans.citations else None
        if first in by_name[name.casefold()]:
            ok += 1
        else:
            got = f"{papers[first].label} ({first})" if first else ("refused" if ans.refused else "nothing cited")
            fails.append(f"  {name!r} ({pid}) -> {got}: {ans.text.splitlines()[0][:90]}")
    n = len(items)
    print(f"names: {ok}/{n} = {ok / max(n, 1):.3f} cite the paper first (goal >= 0.98); "
          f"{ties} questions where two titles state the same name; {time.perf_counter() - t0:.0f}s")
    for line in fails:
        print(line)


def _score(cited: set[str], gold: set[str], own: set[str] | None = None) -> tuple[int, int, int, int]:
    """``(gold papers cited, papers cited, gold papers, cited papers that are right)``; ``own`` is
    what a cited paper may be (default the gold)."""
    return len(cited & gold), len(cited), len(gold), len(cited & (gold if own is None else own))


def _report(label: str, rows: list[tuple[str, tuple[int, int, int, int], set[str], set[str]]], papers) -> None:
    hit = sum(r[1][0] for r in rows)
    cited = sum(r[1][1] for r in rows)
    gold = sum(r[1][2] for r in rows)
    right = sum(r[1][3] for r in rows)
    exact = sum(1 for r in rows if r[1][0] == r[1][2] and r[1][3] == r[1][1])
    print(f"{label}: {len(rows)} questions, recall {hit / max(gold, 1):.3f}, precision {right / max(cited, 1):.3f}, "
          f"all found and only right ones {exact}/{len(rows)}")
    for q, (h, c, g, r), got, want in rows:
        if not (h == g and r == c):
            extra = ", ".join(sorted(papers[p].label[:30] for p in got - want))[:120]
            print(f"  {q!r}: {h} of {g} found, {c} cited" + (f"; extra: {extra}" if extra else ""))


def authors(pipeline, n: int, sample: int) -> None:
    papers = pipeline.catalogue.papers
    by_author: dict[str, set[str]] = defaultdict(set)
    for pid, p in papers.items():
        for a in p.authors:
            by_author[a].add(pid)
    pool = sorted(a for a, ids in by_author.items() if len(ids) >= 2)
    chosen = random.Random(SEED).sample(pool, min(n, len(pool)))
    print(f"authors: {len(pool)} authors with 2+ papers; sample of {len(chosen)} (seed {SEED}), "
          f"{sum(len(by_author[a]) for a in chosen)} papers, most {max(len(by_author[a]) for a in chosen)}")
    t0 = time.perf_counter()
    rows = []
    for a in chosen:
        q = f"Which papers did {a} publish?"
        got = {c.paper_id for c in ask(pipeline, q).citations}
        rows.append((q, _score(got, by_author[a]), got, by_author[a]))
    _report("Which papers did AUTHOR publish?", rows, papers)
    print(f"  ({time.perf_counter() - t0:.0f}s)")

    last_names = Counter(_last(a) for a in by_author)
    variants: dict[str, list] = defaultdict(list)
    for a in chosen[:sample]:
        gold = by_author[a]
        q = f"papers by {a}"
        variants["papers by AUTHOR"].append((q, gold))
        years = sorted({papers[p].year for p in gold if papers[p].year})
        if years:
            y = years[-1]
            variants["what did AUTHOR publish in YEAR"].append(
                (f"what did {a} publish in {y}", {p for p in gold if papers[p].year == y}))
        word = _title_word(papers[sorted(gold)[0]].title)
        if word:
            variants["AUTHOR's work on WORD"].append(
                (f"{a}'s work on {word}", {p for p in gold if word in papers[p].text_for_index.lower()}))
        variants["lower-case name"].append((f"which papers did {a.lower()} publish?", gold))
        if last_names[_last(a)] == 1:
            variants["last name only"].append((f"papers by {a.split()[-1]}", gold))
    for label, qs in variants.items():
        rows = []
        for q, gold in qs:
            got = {c.paper_id for c in ask(pipeline, q).citations}
            # a topic within the author's papers: any of their papers may be cited, the topic's must be
            own = by_author[_author_of(q)] if "work on" in q else None
            rows.append((q, _score(got, gold, own), got, gold if own is None else own))
        _report(label, rows, papers)


def _last(name: str) -> str:
    return name.split()[-1].casefold() if name.split() else ""


def _author_of(q: str) -> str:
    return q.split("'s work on")[0]


def _title_word(title: str) -> str:
    """The longest word of a title that is no stopword (the topic of an "A's work on WORD" question)."""
    words = [w for w in re.findall(r"[A-Za-z]{5,}", title) if w.lower() not in STOPWORDS]
    return max(words, key=len).lower() if words else ""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--home", type=Path, required=True, help="data directory holding the papers")
    ap.add_argument("--authors", type=int, default=50, help="authors asked about (default 50)")
    ap.add_argument("--sample", type=int, default=12, help="authors asked the other phrasings (default 12)")
    ap.add_argument("--limit", type=int, default=None, help="at most this many name questions")
    ap.add_argument("--skip-names", action="store_true")
    ap.add_argument("--skip-authors", action="store_true")
    args = ap.parse_args()
    pipeline = build(args.home)
    print(f"collection: {len(pipeline.catalogue)} papers")
    if not args.skip_names:
        names(pipeline, args.limit)
    if not args.skip_authors:
        authors(pipeline, args.authors, args.sample)


if __name__ == "__main__":
    main()
