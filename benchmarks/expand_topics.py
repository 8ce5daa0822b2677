"""How often ``llm.expand_topics`` would ask the LLM, on a gold set, and what for.

Asks every question of the gold file through the one route with the setting on and the Ollama
stand-in of ``tests/`` as the LLM, replying to a rewrite request with the topic itself (so the
answers do not change and only the asking is measured). Prints each question whose topic no
abstract's words state (the ones the LLM would be asked to rewrite), its gold kind and gold papers,
and how many replies and prompt tokens that took. What a real model's rewrites would change is
for a run with it: on the seed set most such topics are the unanswerable questions, which a
rewrite could turn from a correct refusal into a list.

Usage::

    python benchmarks/expand_topics.py --home DIR [--gold tests/fixtures/dev.jsonl]
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rag.eval import load_gold  # noqa: E402
from rag.llm.ollama import OllamaLLM  # noqa: E402
from rag.pipeline import build_pipeline  # noqa: E402
from rag.settings import Settings  # noqa: E402
from tests.ollama_standin import OllamaStandin, echo_sources  # noqa: E402

MODEL = "llama3.2:3b"
ASKS = "Rewrite this research topic"


def _same_topic(messages: list[dict]) -> str:
    user = messages[-1]["content"]
    if user.startswith(ASKS):
        return user.split("Topic: ", 1)[1].split("\n", 1)[0]
    return echo_sources(messages)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--home", type=Path, required=True, help="data directory holding the seed papers")
    ap.add_argument("--gold", type=Path, default=ROOT / "tests" / "fixtures" / "dev.jsonl")
    args = ap.parse_args()
    base = Settings(home=args.home)
    settings = base.model_copy(update={"llm": base.llm.model_copy(update={"expand_topics": True})})
    components = build_pipeline(base, llm=None)
    questions = load_gold(args.gold)
    with OllamaStandin(models=[MODEL], reply=_same_topic) as server:
        llm = OllamaLLM(server.host, MODEL)
        pipeline = replace(components, settings=settings).answerer(llm, "stand-in")
        asked = []
        for q in questions:
            before = len(server.chat_requests)
            components.conversation(pipeline).ask(q.question)
            new = [r for r in server.chat_requests[before:] if r["messages"][-1]["content"].startswith(ASKS)]
            if new:
                asked.append((q, new[0]))
        tokens = sum(llm.count_tokens(r["messages"][-1]["content"]) for _, r in asked)
        llm.close()
    print(f"{len(asked)} of {len(questions)} questions have a topic no abstract's words state:")
    for q, r in asked:
        topic = r["messages"][-1]["content"].split("Topic: ", 1)[1].split("\n", 1)[0]
        print(f"  {q.qid:10} {q.kind:12} gold {len(q.gold_ids)}  “{topic}”  ({q.question[:70]})")
    print(f"{len(asked)} rewrite replies, {tokens} prompt tokens in all")


if __name__ == "__main__":
    main()
