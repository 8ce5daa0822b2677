"""Waits a user does not expect (issue 34, item 4), as ratios measured in one run on this machine.

* **First question after start.** ``paperchat ui --llm none`` is started over a copy of a data
  directory; as soon as it serves, a question with a typing error is asked through the page's own
  ``/ask`` endpoint (``gradio_client``, as the page's Ask button), then :data:`LATER` other questions
  with typing errors. Printed: seconds from submit to the final answer for each, the footer's parts
  (``details.timings``), and first / median(later) (goal <= :data:`GOAL_FIRST`).
* **``paperchat chat`` through a running page.** The same two-message conversation (a question,
  then a follow-up) piped to ``paperchat chat --llm none --local`` (a cold process that loads
  everything) and to ``paperchat chat --llm none`` while the page serves the data directory; whole
  processes timed from outside, :data:`RUNS` each, medians; ratio served / cold (goal <= :data:`GOAL_CHAT`).
* **A question in its own process.** ``paperchat ask --local --json`` of :data:`OWN` before the page
  starts: the process's wall time and its footer's parts (where the wait goes).

Whether the data directory holds the sentence embeddings a serving process keeps
(``cache/index/*.sentences.npz``, :mod:`rag.evidence.kept`) is printed: without them (the first
start after an ingest) a question about a new topic embeds tens of abstracts' sentences while the
page embeds them all in the background; with them (every later start) nothing is embedded.

This is a benchmark, not a test: the machines are shared and noisy. The data directory given is
copied first (the page writes its discovery file and caches into the one it serves).

Usage::

    python benchmarks/surprise_waits.py --home DIR            # e.g. a copy of the 3,136-paper library
    python benchmarks/surprise_waits.py --home DIR --code ../main   # the same run on another checkout
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

GOAL_FIRST = 1.5
"""First question with a typing error after start / a later one (issue 34)."""

GOAL_CHAT = 0.2
"""``paperchat chat`` through a running server / its cold start (issue 34)."""

FIRST = "What does APM propse?"
"""The first question: a typing error that leaves under 60 % of its words English (the language
check then reads its other dictionaries, seconds when they were not loaded at start)."""

LATER = [
    "What does DANCE propse?",
    "Which paper proposes a methd for graph condensation?",
    "What accuracy gain does DANCE reprot?",
    "Summarize the papers on federatd learning",
    "Which papers use reinforcment lerning for robot control?",
]
"""Later questions, each with a typing error and on another topic than the ones before it."""

OWN = "Which papers use reinforcement learning for robot control?"
"""The question asked in its own process (a topic: its candidates' sentences are scored)."""

CHAT = "What does DANCE propose?\nwhat about APM?\n"
"""The conversation piped to ``paperchat chat``: a question and a follow-up about another paper."""

RUNS = 3
"""Processes timed per ``paperchat chat`` figure (the median is reported)."""

START_TIMEOUT = 900.0
"""Seconds the page may take to start over a large collection (it loads in about 10-20 s)."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _env(code: Path, home: Path) -> dict[str, str]:
    return dict(
        os.environ, PAPERCHAT_HOME=str(home), PYTHONPATH=str(code), PAPERCHAT_LOCAL="", HF_HUB_OFFLINE="1",
        TRANSFORMERS_OFFLINE="1", GRADIO_ANALYTICS_ENABLED="False", ANONYMIZED_TELEMETRY="False",
    )


def _chat(code: Path, home: Path, local: bool) -> float:
    """Wall seconds of one ``paperchat chat`` process answering :data:`CHAT` (it must exit 0)."""
    cmd = [sys.executable, "-m", "ui.cli", "chat", "--llm", "none"]
    env = dict(_env(code, home), PAPERCHAT_LOCAL="1" if local else "")  # --local, also where chat lacks it
    t = time.perf_counter()
    out = subprocess.run(cmd, cwd=code, env=env, input=CHAT, capture_output=True, text=True, check=False)
    secs = time.perf_counter() - t
    if out.returncode != 0 or "APM" not in out.stdout:
        raise RuntimeError(f"paperchat chat failed ({out.returncode}): {out.stderr[-2000:]}")
    return secs


def _own(code: Path, home: Path) -> tuple[float, dict]:
    """Wall seconds of ``paperchat ask --local --json`` of :data:`OWN`, and its answer's timings."""
    cmd = [sys.executable, "-m", "ui.cli", "ask", OWN, "--llm", "none", "--local", "--json"]
    t = time.perf_counter()
    out = subprocess.run(cmd, cwd=code, env=_env(code, home), capture_output=True, text=True, check=False)
    secs = time.perf_counter() - t
    if out.returncode != 0:
        raise RuntimeError(f"paperchat ask failed ({out.returncode}): {out.stderr[-2000:]}")
    return secs, json.loads(out.stdout).get("timings", {})


def _ask(client, question: str) -> tuple[float, dict]:
    """Seconds from submit to the final answer of the page, and the answer's timings."""
    client.predict(api_name="/new_conversation")
    t = time.perf_counter()
    result = client.predict(question, "none", "llama3.2:3b", 5, "", "", "", True, api_name="/ask")
    secs = time.perf_counter() - t
    details = result[3] or {}
    return secs, details.get("timings", {})


def _parts(timings: dict) -> str:
    """The footer's steps of an answer's JSON timings (``embedding`` is within membership and evidence)."""
    shown = [f"{k} {v:.2f}" for k, v in timings.items() if isinstance(v, float) and v >= 0.005 and k != "total"]
    return ", ".join(shown) + f" (total {timings.get('total', 0.0):.2f})"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--home", required=True, type=Path, help="An indexed data directory (copied first).")
    ap.add_argument("--code", type=Path, default=ROOT, help="The checkout to run (default: this one).")
    ap.add_argument("--runs", type=int, default=RUNS, help="Processes per paperchat chat figure.")
    args = ap.parse_args(argv)
    from gradio_client import Client

    code = args.code.resolve()
    with tempfile.TemporaryDirectory(prefix="paperchat_waits_") as tmp:
        home = Path(tmp) / "home"
        shutil.copytree(args.home, home, ignore=shutil.ignore_patterns("server.json*", "*.lock"))
        kept = bool(list((home / "cache" / "index").glob("*.sentences.npz")))
        own, own_t = _own(code, home)
        cold = [_chat(code, home, local=True) for _ in range(args.runs)]
        port = _free_port()
        t0 = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "ui.cli", "ui", "--llm", "none", "--port", str(port)], cwd=code,
            env=_env(code, home), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        try:
            while not (home / "server.json").exists():
                if proc.poll() is not None or time.perf_counter() - t0 > START_TIMEOUT:
                    raise SystemExit(f"the page did not start: {proc.stderr.read() if proc.stderr else ''}")
                time.sleep(0.1)
            started = time.perf_counter() - t0
            client = Client(f"http://127.0.0.1:{port}/", verbose=False, download_files=False)
            first, first_t = _ask(client, FIRST)
            later = [_ask(client, q) for q in LATER]
            served = [_chat(code, home, local=False) for _ in range(args.runs)]
        finally:
            proc.terminate()
            proc.wait(timeout=60)
    later_s = statistics.median(s for s, _ in later)
    cold_s, served_s = statistics.median(cold), statistics.median(served)
    print(f"load average {os.getloadavg()[0]:.1f} · {os.cpu_count()} CPUs · code {code}")
    print(f"sentence embeddings kept in the data directory: {'yes' if kept else 'no'}")
    print(f"question in its own process {own:5.2f} s (wall) {OWN!r}: {_parts(own_t)}")
    print(f"page serving {started:.1f} s after start")
    print(f"first question  {first:5.2f} s  {FIRST!r}: {_parts(first_t)}")
    for q, (s, t) in zip(LATER, later, strict=True):
        print(f"later question  {s:5.2f} s  {q!r}: {_parts(t)}")
    print(json.dumps({"first_s": first, "later_s": [s for s, _ in later], "chat_cold_s": cold,
                      "chat_served_s": served, "page_start_s": started, "own_process_s": own,
                      "kept_sentences": kept}))  # fmt: skip
    ratio, chat_ratio = first / later_s, served_s / cold_s
    print(f"first question / median later: {ratio:.2f}  ({first:.2f} s / {later_s:.2f} s)   goal <= {GOAL_FIRST}"
          f"  {'ok' if ratio <= GOAL_FIRST else 'MISSED'}")
    print(f"paperchat chat through the page / cold: {chat_ratio:.3f}  ({served_s:.2f} s / {cold_s:.2f} s)   "
          f"goal <= {GOAL_CHAT}  {'ok' if chat_ratio <= GOAL_CHAT else 'MISSED'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
