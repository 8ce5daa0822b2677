"""How long an MCP client waits on ``paperchat mcp``: timed with the official MCP client over stdio.

Per run, one ``paperchat mcp --llm none`` process on a data directory holding the seed corpus:

* ``initialize``: seconds from starting the process to the end of the ``initialize`` handshake
  (goal <= 2 s, issue 34);
* ``first call``: seconds from then to the answer of the first ``get_paper`` call, which needs
  the loaded collection;
* ``list_resources``: seconds of one ``resources/list`` call after that.

Each figure is the median of ``--runs`` processes (one unmeasured process first indexes the seed
corpus and fills the file cache). ``--against DIR`` times another checkout too (``git worktree add
DIR main``), its processes alternating with this one's so that load from other processes hits both
alike::

    .venv/bin/python benchmarks/mcp_initialize.py [--runs 3] [--home DIR] [--against DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

ROOT = Path(__file__).resolve().parents[1]

PAPER = "000_6b930c46f6674b66#1"
"""A paper of the seed corpus (DANCE), fetched by the first call."""


def _env(home: Path, root: Path) -> dict[str, str]:
    return dict(
        os.environ, PAPERCHAT_HOME=str(home), PYTHONPATH=str(root), HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1",
        GRADIO_ANALYTICS_ENABLED="False", ANONYMIZED_TELEMETRY="False",
    )


async def _one(home: Path, root: Path = ROOT) -> dict[str, float]:
    """Seconds to ``initialize``, to the first ``get_paper`` answer after it, and of ``list_resources``
    (``paperchat mcp`` of the checkout ``root``)."""
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "ui.cli", "mcp", "--llm", "none"], env=_env(home, root), cwd=str(root)
    )
    with open(os.devnull, "w") as errlog:
        t0 = time.perf_counter()
        async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            t1 = time.perf_counter()
            got = await session.call_tool("get_paper", {"id": PAPER})
            t2 = time.perf_counter()
            if got.is_error:
                raise RuntimeError(f"get_paper failed: {got.content}")
            await session.list_resources()
            t3 = time.perf_counter()
    return {"initialize_s": t1 - t0, "first_call_s": t2 - t1, "list_resources_s": t3 - t2}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3, help="Processes timed (the median is reported).")
    ap.add_argument("--home", type=Path, default=None, help="A data directory (default: a fresh one, seed corpus).")
    ap.add_argument("--against", type=Path, default=None, help="Another checkout to time alike (e.g. main).")
    args = ap.parse_args(argv)
    roots = {"this checkout": ROOT, **({"against": args.against.resolve()} if args.against else {})}
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in roots}
    with tempfile.TemporaryDirectory(prefix="paperchat_mcp_") as tmp:
        home = args.home or Path(tmp) / "home"
        anyio.run(_one, home)  # indexes the seed corpus into a fresh directory; not measured
        for _ in range(args.runs):
            for name, root in roots.items():
                runs[name].append(anyio.run(_one, home, root))
    print(f"load average {os.getloadavg()[0]:.1f} · {os.cpu_count()} CPUs · {args.runs} runs")
    for name, got in runs.items():
        for key in got[0]:
            values = [r[key] for r in got]
            print(f"{name:<14} {key:<18} median {statistics.median(values):6.2f} s   "
                  f"runs {', '.join(f'{v:.2f}' for v in values)}")  # fmt: skip
    print(json.dumps(runs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
