"""Prompt tokens per kind of answer, against the budget ``llm.prompt_tokens``, on a gold set.

Asks every question of the gold files, "Summarize <label>" for every paper of the collection,
and, for each "which papers" question, "Summarize the papers on <its topic>" (the topic as the
reader reads it), so one-paper and topic summaries are measured too,
through the one route (``Components.conversation().ask``, a fresh conversation each) with the
Ollama stand-in of ``tests/`` as the LLM on 127.0.0.1: it replies with the first evidence
sentence of each source, cited, as a model that writes only what its sources state would, and
reports Ollama's usage fields as a model reading 23.5 and writing 9.5 tokens/s would (the middle
of the 18-29 and 8-11 tokens/s of llama.cpp runs of Llama-3.2-3B Q4_K_M on two CPU threads).

Prints, per kind (the prompt template the route chose: answer, summary, topic, compare, list):
how many prompts, the median and largest prompt by paperchat's count (what the budget counts) and
by the stand-in's count (characters / 4, about Llama-3's tokenizer), the papers the prompt shows
against the papers the answer cites, the seconds before the first word at 18 / 23.5 / 29 prompt
tokens/s for the largest prompt, and how many answers fell back to the extractive one.

Usage::

    python benchmarks/prompt_tokens.py --home DIR [--gold tests/fixtures/dev.jsonl] [--prompt-tokens N] [--json OUT]

``DIR`` must hold the seed papers (``paperchat --home DIR ingest data/``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import string
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from prompts import load_prompt  # noqa: E402
from rag.eval import load_gold  # noqa: E402
from rag.llm.ollama import OllamaLLM  # noqa: E402
from rag.llm.prose import KINDS  # noqa: E402
from rag.pipeline import build_pipeline  # noqa: E402
from rag.question.plan import AskPlan  # noqa: E402
from rag.settings import Settings  # noqa: E402
from tests.ollama_standin import OllamaStandin, echo_sources  # noqa: E402

MODEL = "llama3.2:3b"
READ_RATES = (18.0, 23.5, 29.0)
"""Prompt tokens/s of a 3B model on two CPU cores (low, middle, high of the published runs)."""
WRITE_RATE = 9.5
"""Tokens/s it writes (the middle of 8-11)."""


def template_prefixes() -> dict[str, str]:
    """Each prompt's fixed opening (up to its first variable), to tell which one a request used."""
    out = {}
    for kind in ("answer", *KINDS):
        literal = next(iter(string.Formatter().parse(load_prompt(kind).text)))[0]
        out[kind] = literal
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--home", type=Path, required=True, help="data directory holding the seed papers")
    ap.add_argument("--gold", type=Path, nargs="+", default=[ROOT / "tests" / "fixtures" / "dev.jsonl"])
    ap.add_argument("--prompt-tokens", type=int, default=None, help="budget to measure (default: the setting)")
    ap.add_argument("--json", type=Path, default=None, help="write the rows and the figures here")
    args = ap.parse_args()

    settings = Settings(home=args.home)
    if args.prompt_tokens:
        settings = settings.model_copy(
            update={"llm": settings.llm.model_copy(update={"prompt_tokens": args.prompt_tokens})}
        )
    components = build_pipeline(settings, llm=None)
    if not components.retriever.papers:
        sys.exit(f"no papers under {args.home}: run `paperchat --home {args.home} ingest data/` first")
    questions = [q.question for path in args.gold for q in load_gold(path)]
    # every paper summarized, by its label
    questions += [f"Summarize {p.label}" for p in sorted(components.retriever.papers.values(), key=lambda p: p.id)]
    for q in list(questions):  # each "which papers" question's topic, summarized
        plan = components.reader.read(q)
        if isinstance(plan, AskPlan) and plan.topic.text and plan.topic.number == "many":
            questions.append(f"Summarize the papers on {plan.topic.text}")
    prefixes = template_prefixes()
    rows = []
    with OllamaStandin(models=[MODEL], reply=echo_sources, rates=(READ_RATES[1], WRITE_RATE)) as server:
        llm = OllamaLLM(server.host, MODEL, context_tokens=settings.llm.context_tokens)
        pipeline = components.answerer(llm, "stand-in")
        for q in questions:
            before = len(server.chat_requests)
            answer = components.conversation(pipeline).ask(q).answer
            if len(server.chat_requests) == before or answer.usage is None:
                continue  # refused, or a kind the LLM does not write (a table, a filter list)
            user = server.chat_requests[-1]["messages"][-1]["content"]
            kind = next((k for k, p in prefixes.items() if user.startswith(p)), "?")
            shown = user.split("<sources>", 1)[1].split("</sources>", 1)[0].strip().count("\n") + 1
            rows.append(
                {
                    "question": q,
                    "kind": kind,
                    "prompt_tokens": answer.usage.prompt_tokens,
                    "server_prompt_tokens": answer.usage.prompt_eval_count,
                    "output_tokens": answer.usage.eval_count,
                    "papers_shown": shown,
                    "papers_cited": len(answer.citations),
                    "fallback": answer.backend.endswith("-> extractive"),
                    "note": answer.note,
                }
            )
        llm.close()
    budget = settings.llm.prompt_tokens
    figures = {}
    print(f"budget llm.prompt_tokens = {budget}; {len(rows)} prompts from {len(questions)} questions\n")
    head = (
        f"{'kind':8} {'n':>4} {'median':>7} {'max':>5} {'server med':>10} {'server max':>10} "
        f"{'shown/cited':>11} {'first word (max) at 18/23.5/29 tok/s':>38} {'fallbacks':>9}"
    )
    print(head)
    by_kind: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        by_kind[r["kind"]].append(r)
    for kind in ("answer", *KINDS):
        rs = by_kind.get(kind, [])
        if not rs:
            continue
        ours = [r["prompt_tokens"] for r in rs]
        theirs = [r["server_prompt_tokens"] or 0 for r in rs]
        shown = sum(r["papers_shown"] for r in rs)
        cited = sum(r["papers_cited"] for r in rs)
        waits = "/".join(f"{max(theirs) / rate:.0f}" for rate in READ_RATES) + " s"
        fig = {
            "n": len(rs),
            "median": statistics.median(ours),
            "max": max(ours),
            "server_median": statistics.median(theirs),
            "server_max": max(theirs),
            "papers_shown": shown,
            "papers_cited": cited,
            "over_budget": sum(t > budget for t in ours),
            "fallbacks": sum(r["fallback"] for r in rs),
        }
        figures[kind] = fig
        print(
            f"{kind:8} {len(rs):>4} {fig['median']:>7} {fig['max']:>5} {fig['server_median']:>10} "
            f"{fig['server_max']:>10} {f'{shown}/{cited}':>11} {waits:>38} {fig['fallbacks']:>9}"
        )
    over = [r for r in rows if r["prompt_tokens"] > budget]
    print(f"\nover budget: {len(over)} (a question alone longer than the budget is sent whole)")
    for r in over:
        print(f"  {r['prompt_tokens']:>5}  {r['kind']:8} {r['question'][:90]}")
    if args.json:
        args.json.write_text(json.dumps({"budget": budget, "figures": figures, "rows": rows}, indent=1), "utf-8")


if __name__ == "__main__":
    main()
