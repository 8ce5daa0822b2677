"""What judging borderline list members with the LLM (``llm.judge_borderline``) could change, and
what it costs, measured with the Ollama stand-in of ``tests/``.

The dev set's "which papers" questions are answered through the one route (a fresh conversation
each) with the stand-in as the LLM, four ways: the setting off (calibrated membership alone), and
on with three stand-in judges: one that answers as the gold set does (yes when the paper is a gold
paper of the question being asked: the best a model could do), one that always says yes, one that
always says no. Each prints the papers cited against the gold papers (precision, recall, summed
over the questions), the papers judged, and the tokens their prompts took. A real model falls
between the oracle and the worst constant judge; only a run with it says where.

Usage::

    python benchmarks/judge_borderline.py --home DIR [--gold tests/fixtures/dev.jsonl] [--cap 3]

``DIR`` must hold the seed papers (``paperchat --home DIR ingest data/``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rag.eval import load_gold  # noqa: E402
from rag.llm.ollama import OllamaLLM  # noqa: E402
from rag.pipeline import build_pipeline  # noqa: E402
from rag.question.plan import AskPlan  # noqa: E402
from rag.settings import Settings  # noqa: E402
from tests.ollama_standin import OllamaStandin, echo_sources  # noqa: E402

MODEL = "llama3.2:3b"
ASKS = "Reply with one word: yes or no"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--home", type=Path, required=True, help="data directory holding the seed papers")
    ap.add_argument("--gold", type=Path, default=ROOT / "tests" / "fixtures" / "dev.jsonl")
    ap.add_argument("--cap", type=int, default=3, help="llm.judge_borderline: most papers judged per answer")
    args = ap.parse_args()

    base = Settings(home=args.home)
    components = build_pipeline(base, llm=None)
    labels: dict[str, set[str]] = {}
    for p in components.retriever.papers.values():
        labels.setdefault(p.label, set()).add(p.id)
    questions = []
    for q in load_gold(args.gold):
        plan = components.reader.read(q.question)
        if isinstance(plan, AskPlan) and plan.topic.text and plan.topic.number == "many" and q.gold_ids:
            questions.append(q)
    gold_now: set[str] = set()

    def judge(policy: Callable[[set[str]], bool]) -> Callable[[list[dict]], str]:
        def reply(messages: list[dict]) -> str:
            user = messages[-1]["content"]
            if ASKS not in user:
                return echo_sources(messages)
            label = user.split("<sources>", 1)[1].split("</sources>", 1)[0].strip()[4:].split(": ", 1)[0]
            return "yes" if policy(labels.get(label, set())) else "no"

        return reply

    judges = {
        "off": None,
        "oracle": judge(lambda ids: bool(ids & gold_now)),
        "always yes": judge(lambda ids: True),
        "always no": judge(lambda ids: False),
    }
    print(f"{len(questions)} 'which papers' questions with gold papers; at most {args.cap} judged per answer\n")
    print(
        f"{'judge':11} {'cited':>6} {'right':>6} {'gold':>5} {'precision':>9} {'recall':>7} {'judged':>7} {'tokens':>7}"
    )
    for name, reply in judges.items():
        cap = args.cap if reply else 0
        settings = base.model_copy(update={"llm": base.llm.model_copy(update={"judge_borderline": cap})})
        with OllamaStandin(models=[MODEL], reply=reply or echo_sources) as server:
            llm = OllamaLLM(server.host, MODEL)
            pipeline = replace(components, settings=settings).answerer(llm, "stand-in")
            cited = right = gold = 0
            for q in questions:
                gold_now.clear()
                gold_now.update(q.gold_ids)
                answer = components.conversation(pipeline).ask(q.question).answer
                ids = set(answer.cited_ids)
                cited, right, gold = cited + len(ids), right + len(ids & gold_now), gold + len(gold_now)
            asked = [r for r in server.chat_requests if ASKS in r["messages"][-1]["content"]]
            tokens = sum(llm.count_tokens(m["content"]) for r in asked for m in r["messages"])
            llm.close()
        print(
            f"{name:11} {cited:>6} {right:>6} {gold:>5} {right / max(1, cited):>9.3f} {right / max(1, gold):>7.3f} "
            f"{len(asked):>7} {tokens:>7}"
        )


if __name__ == "__main__":
    main()
