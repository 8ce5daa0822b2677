"""How often an LLM's prose is right: every fact of each kept sentence stands in its cited sentence.

Answers the answerable questions of an eval file through the one route (``AnswerPipeline.ask``,
a fresh conversation each) with the chosen LLM, and judges every sentence of the LLM's that
survived the claim checks against the abstract sentences it cites:

- *fact*: a number, or a token with a capital letter or digit inside a word ("WMT", "Shampoo",
  "GPT-3"), or a quoted name;
- *right*: every fact of the sentence stands in one sentence of a cited abstract, and the content
  words next to each number in the claim (``WINDOW`` either side) meet the content words next to
  the same number in that sentence (the same measure or setting, not a neighbouring one);
- *wrong*: a fact that no cited sentence holds, or a number whose neighbours differ;
- *one sentence*: in every case, :data:`ONE_SENTENCE_SHARE` of the sentence's content terms stand
  in one cited sentence and no three in a row are missing from it (else wrong: a garbled or
  invented statement, such as a copied prompt example, even when it names no fact);
- *repeated / cut*: the same sentence twice, or a sentence that ends without punctuation.

This judge is deliberately independent of the product's claim checks (:mod:`rag.citations`):
it reads one cited sentence at a time, not the whole abstract. It prints each judged sentence
with its best cited sentence, so a reader can audit it, then the totals and the fact coverage
and time beside the extractive answer (``--llm none``) of the same questions.

Usage::

    python benchmarks/embedded_prose.py --home DIR [--llm embedded] [--every N] [--limit N] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rag.citations import MARKER  # noqa: E402
from rag.eval import fact_present  # noqa: E402
from rag.llm.claims import unsupported_run  # noqa: E402
from rag.text import content_terms, numbers, split_sentences  # noqa: E402

WINDOW = 4
"""Content words either side of a number that say what it measures (chosen by reading: "BLEU on
WMT 2014 English-to-German" keeps measure and setting within four content words)."""

ONE_SENTENCE_SHARE = 0.75
"""Least share of a judged sentence's content terms found in its best cited sentence (stricter than
the product's 0.6 over the whole abstract: the judge reads one sentence, as a reader checks it)."""

ANSWERABLE = ("named_fact", "paraphrase", "summary", "multi", "compare")

_FACT = re.compile(r"\b(?:\d[\d.,]*%?|[A-Za-z]*[A-Z][A-Za-z]*[A-Z0-9][\w-]*|[A-Z][a-z]+[A-Z]\w*)\b")


def facts(sentence: str) -> list[str]:
    """Fact tokens of ``sentence``: numbers and mixed-case or all-caps names (``"WMT"``, ``"GPT-3"``)."""
    return [m.group(0).rstrip(".,") for m in _FACT.finditer(MARKER.sub("", sentence))]


def _neighbours(words: list[str], i: int) -> set[str]:
    return set(words[max(0, i - WINDOW) : i] + words[i + 1 : i + 1 + WINDOW])


def _number_context(text: str, number: str) -> set[str] | None:
    """Content words around ``number`` in ``text`` (None when it is absent)."""
    words = re.findall(r"[\w.%-]+", text.lower())
    terms = [w for w in words if w in set(content_terms(text)) or any(c.isdigit() for c in w)]
    for i, w in enumerate(terms):
        if w.strip(".,%") == number.lower().strip(".,%"):
            return {t for t in _neighbours(terms, i) if not any(c.isdigit() for c in t)}
    return None


def judge(sentence: str, cited: list[str], labels: tuple[str, ...] = ()) -> tuple[str, str, str]:
    """``(verdict, reason, best cited sentence)`` for one kept LLM sentence.

    ``cited``: every sentence of the abstracts the sentence cites; ``labels``: the cited papers'
    labels (naming the paper is no fact to find in a sentence).
    """
    plain = MARKER.sub("", sentence).strip()
    for label in labels:
        plain = re.sub(rf"(?<!\w){re.escape(label)}(?!\w)(\s*:)?", " ", plain)
    fs = facts(plain)
    terms = set(content_terms(plain))
    best = max(cited, key=lambda c: len(terms & set(content_terms(c))), default="")
    share = len(terms & set(content_terms(best))) / max(1, len(terms))
    run = unsupported_run(plain, set(content_terms(best)))
    if share < ONE_SENTENCE_SHARE or len(run) >= 3:
        return "wrong", f"not stated in one cited sentence (term share {share:.2f}; missing: {' '.join(run)})", best
    for f in fs:
        holders = [c for c in cited if f.lower() in c.lower()]
        if not holders:
            return "wrong", f"{f!r} in no cited sentence", best
        if f in numbers(plain):
            ctx = _number_context(plain, f) or set()
            if ctx and not any(ctx & (_number_context(h, f) or set()) for h in holders):
                return "wrong", f"{f!r} stands beside other words in the evidence ({sorted(ctx)[:4]})", holders[0]
    return "right", "", best


def coverage(text: str, answer_facts: list[str]) -> float:
    """Share of the gold answer facts ``text`` states (1.0 when there are none)."""
    return sum(fact_present(f, text) for f in answer_facts) / len(answer_facts) if answer_facts else 1.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--home", required=True, type=Path)
    ap.add_argument("--file", type=Path, default=Path("tests/fixtures/dev.jsonl"))
    ap.add_argument("--llm", default="embedded")
    ap.add_argument("--limit", type=int, default=0, help="answer only the first N answerable questions")
    ap.add_argument("--every", type=int, default=1, help="answer every N-th answerable question (a sample)")
    ap.add_argument("--json", type=Path, help="write every judged sentence here")
    args = ap.parse_args()

    from rag.pipeline import build_pipeline
    from rag.settings import Settings

    settings = Settings(home=args.home)
    settings.llm.backend = args.llm
    comp = build_pipeline(settings)
    plain = build_pipeline(settings, embedder=comp.embedder, store=comp.store, llm=None)
    qs = [json.loads(line) for line in args.file.read_text().splitlines() if line.strip()]
    qs = [q for q in qs if q["kind"] in ANSWERABLE and q["gold_ids"]]
    qs = qs[:: args.every]
    if args.limit:
        qs = qs[: args.limit]
    rows, totals = [], {"right": 0, "wrong": 0, "repeated": 0, "cut": 0}
    used = cov_llm = cov_none = t_llm = t_none = 0.0
    for q in qs:
        t0 = time.perf_counter()
        a = comp.ask(q["question"])
        t_llm += time.perf_counter() - t0
        t0 = time.perf_counter()
        b = plain.ask(q["question"])
        t_none += time.perf_counter() - t0
        cov_llm += coverage(a.text, q["answer_facts"])
        cov_none += coverage(b.text, q["answer_facts"])
        kept = [c for c in a.claims if c.supported]
        used += bool(kept)
        seen: set[str] = set()
        for c in kept:
            key = MARKER.sub("", c.sentence).strip().lower()
            cites = [x for x in a.citations if x.number in c.cited]
            papers = comp.pipeline.catalogue.papers
            sents = [s.text for x in cites for s in split_sentences(papers[x.paper_id].abstract)]
            if key in seen:
                verdict, reason, best = "repeated", "said before", ""
            elif not re.search(r"[.!?)\]]\s*$", c.sentence.strip()):
                verdict, reason, best = "cut", "ends mid-sentence", ""
            else:
                verdict, reason, best = judge(c.sentence, sents, tuple(x.label for x in cites))
            seen.add(key)
            totals[verdict] += 1
            row = {
                "qid": q["qid"], "labels": [x.label for x in cites], "sentence": c.sentence,
                "verdict": verdict, "reason": reason, "evidence": best,
            }
            rows.append(row)
            print(f"[{verdict:8}] {q['qid']}: {c.sentence}\n           evidence: {best[:200]}\n           {reason}")
    n = len(qs)
    judged = sum(totals.values())
    print(f"\n{n} questions, LLM {args.llm}")
    print(f"answers keeping LLM prose: {used:.0f}/{n} ({used / max(1, n):.2f})")
    print(f"kept sentences judged: {judged}  " + "  ".join(f"{k} {v}" for k, v in totals.items()))
    print(f"share right: {totals['right'] / max(1, judged):.3f}")
    print(f"fact coverage: LLM {cov_llm / max(1, n):.3f}  extractive {cov_none / max(1, n):.3f}")
    print(f"mean seconds per answer: LLM {t_llm / max(1, n):.1f}  extractive {t_none / max(1, n):.2f}")
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "totals": totals}, indent=1))


if __name__ == "__main__":
    main()
