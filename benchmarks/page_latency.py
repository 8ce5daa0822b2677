"""Page latency: seconds from submitting a question to the first useful text on the chat page.

Starts ``paperchat ui`` over an indexed data directory (``--home``), warms it with one question,
then submits questions of an eval file through Gradio's own client (the same ``/ask`` endpoint
the page's Ask button calls) and times, for each, the first streamed output whose last chat
message holds answer text (not the "Searching the abstracts…" placeholder), and the final answer. Prints
p50 / p90 and their ratio to the goal (first useful text <= 1 s warm on the seed corpus).

This is a benchmark, not a test: the machines are shared and noisy.

Usage::

    python benchmarks/page_latency.py --home DIR [--llm none] [--n 20] [--file tests/fixtures/dev.jsonl]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOAL_FIRST_TEXT = 1.0
"""Seconds from submit to the first useful text, warm, seed corpus (the issue's goal)."""

CHAT = 0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _text(output) -> str:
    chat = output[CHAT] or []
    if not chat:
        return ""
    content = chat[-1]["content"]
    text = content if isinstance(content, str) else "".join(p.get("text", "") for p in content)
    return text if chat[-1].get("role") == "assistant" else ""


PLACEHOLDERS = ("Searching the abstracts", "Answering", "Retrieving")


def _useful(text: str) -> bool:
    """Answer text, not a placeholder the page shows while it works."""
    plain = text.strip(" _▌…\n")
    return len(plain) >= 20 and not plain.startswith(PLACEHOLDERS)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--home", required=True, type=Path)
    ap.add_argument("--llm", default="none")
    ap.add_argument("--n", type=int, default=20)
    ap.add_argument("--file", type=Path, default=ROOT / "tests" / "fixtures" / "dev.jsonl")
    args = ap.parse_args()
    from gradio_client import Client

    questions = [json.loads(line)["question"] for line in args.file.read_text().splitlines() if line.strip()]
    questions = [q for q in questions if 10 < len(q.strip()) < 300][: args.n + 1]
    port = _free_port()
    env = dict(os.environ, PAPERCHAT_HOME=str(args.home), PAPERCHAT_LLM__BACKEND=args.llm)
    proc = subprocess.Popen(
        [sys.executable, "-m", "ui.cli", "ui", "--port", str(port)], env=env, cwd=ROOT,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}/"
    try:
        t0 = time.perf_counter()
        while True:
            try:
                with urllib.request.urlopen(url, timeout=5) as r:
                    if r.status == 200:
                        break
            except OSError:
                if proc.poll() is not None or time.perf_counter() - t0 > 600:
                    raise SystemExit("the page did not start") from None
                time.sleep(0.5)
        print(f"page serving after {time.perf_counter() - t0:.1f} s")
        client = Client(url, verbose=False, download_files=False)
        first, final = [], []
        for i, q in enumerate(questions):
            client.predict(api_name="/new_conversation")
            start = time.perf_counter()
            job = client.submit(q, args.llm, "llama3.2:3b", 5, "", "", "", True, api_name="/ask")
            seen = None
            while not job.done():
                if seen is None and any(_useful(_text(o)) for o in job.outputs()):
                    seen = time.perf_counter() - start
                time.sleep(0.01)
            job.result()
            end = time.perf_counter() - start
            if i == 0:
                continue  # warm-up: first use loads what is loaded lazily
            first.append(seen if seen is not None else end)
            final.append(end)
    finally:
        proc.terminate()
        proc.wait(timeout=30)

    def p(xs: list[float], q: float) -> float:
        return statistics.quantiles(xs, n=100)[int(q) - 1] if len(xs) > 1 else xs[0]

    print(f"{len(first)} questions, --llm {args.llm}")
    print(f"first useful text: p50 {p(first, 50):.2f} s  p90 {p(first, 90):.2f} s  "
          f"ratio to the {GOAL_FIRST_TEXT:.0f} s goal {p(first, 50) / GOAL_FIRST_TEXT:.2f}")
    print(f"final answer:      p50 {p(final, 50):.2f} s  p90 {p(final, 90):.2f} s")


if __name__ == "__main__":
    main()
