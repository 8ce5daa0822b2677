"""Saved questions end to end, on the real parts (the bundled embedder, Chroma on disk): after an ingest
through each entry (``paperchat ingest``, the page's *Add papers*, the warm process the command line
and the API send ingests to), every saved question's report equals what ``ask`` lists for it among the
papers just added, and an ingest of the same papers again reports nothing new (issue 35's figure)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rag.pipeline import build_pipeline
from rag.route.filters import Filters
from rag.settings import Settings
from store.watches import Watches
from tests.conftest import MIXED, ROOT
from ui.cli import main

pytestmark = pytest.mark.slow

QUESTIONS = (
    "Which papers study diffusion models?",
    "reinforcement learning for LLM agents",
    "Which papers work on graph neural networks?",
)


def _mixed_ids() -> list[str]:
    return [json.loads(line)["id"] for line in MIXED.read_text(encoding="utf-8").splitlines() if line.strip()]


def _asked_within(settings: Settings, embedder, new: list[str]) -> dict[str, list[str]]:
    """What ``ask`` lists for each saved question restricted to the papers ``new`` (cited, in order)."""
    comp = build_pipeline(settings, embedder=embedder, llm=None)
    out = {}
    for q in QUESTIONS:
        answer = comp.ask(q, filters=Filters(within=frozenset(new), within_what="the new papers"))
        out[q] = [] if answer.refused else [c.paper_id for c in answer.citations if c.paper_id in new]
    return out


def _labels(line: str) -> list[str]:
    """The papers a report line names (each before its quote)."""
    _, _, rest = line.partition(" — ")
    out = []
    while rest:
        label, _, rest = rest.partition(" “")
        out.append(label)
        _, _, rest = rest.partition("”")
        rest = rest.removeprefix(", ")
    return out


def test_an_ingest_reports_what_ask_lists_among_the_new_papers_and_a_second_reports_nothing(tmp_path, embedder):
    run = CliRunner().invoke
    home = ["--home", str(tmp_path)]
    assert run(main, [*home, "ingest", "--quiet", str(ROOT / "data")]).exit_code == 0
    for q in QUESTIONS:
        assert run(main, [*home, "watch", q]).exit_code == 0
    first = run(main, [*home, "ingest", "--quiet", str(MIXED)])
    assert first.exit_code == 0, first.output
    lines = [x for x in first.output.splitlines() if x.startswith("watch “")]
    assert len(lines) == 3, first.output
    new = _mixed_ids()
    expected = _asked_within(Settings(home=tmp_path), embedder, new)
    saved = {w.question: w.reported for w in Watches(tmp_path).load()}
    comp = build_pipeline(Settings(home=tmp_path), embedder=embedder, llm=None)
    for q, line in zip(QUESTIONS, lines, strict=True):
        assert line.startswith(f"watch “{q}”: ")
        assert saved[q] == expected[q], q  # the papers reported are what ask lists among the new ones
        assert _labels(line) == [comp.retriever.papers[pid].label for pid in expected[q]], line
    assert any(saved.values())  # the figure is not vacuous: some question matches new papers
    again = run(main, [*home, "ingest", "--quiet", str(MIXED)])
    assert again.exit_code == 0 and "watch “" not in again.output  # nothing added or updated: nothing to report
    assert {w.question: w.reported for w in Watches(tmp_path).load()} == saved


def test_a_paper_already_reported_is_not_reported_again_when_it_is_updated(tmp_path, embedder):
    from rag.index.ingest import ingest_paths
    from rag.pipeline import open_store
    from rag.route.watch import check_watches

    settings = Settings(home=tmp_path)
    store = open_store(settings)
    ingest_paths([MIXED], store, embedder)
    watches = Watches(tmp_path)
    watches.add(QUESTIONS[0])
    comp = build_pipeline(settings, embedder=embedder, store=store, llm=None)
    new = _mixed_ids()
    first = check_watches(comp.pipeline, watches, new)[0]
    assert first.matches and first.asked == len(new)
    changed = tmp_path / "changed.jsonl"  # the same papers, every abstract edited: all updated
    rows = [json.loads(x) for x in MIXED.read_text(encoding="utf-8").splitlines() if x.strip()]
    changed.write_text("".join(json.dumps({**r, "abstract": r["abstract"] + " Code is released."}) + "\n"
                               for r in rows), encoding="utf-8")  # fmt: skip
    report = ingest_paths([changed], store, embedder)
    assert sorted(report.changed) == sorted(new)
    comp = build_pipeline(settings, embedder=embedder, store=store, llm=None)
    second = check_watches(comp.pipeline, watches, report.changed)[0]
    reported = {m.paper_id for m in first.matches}
    assert not reported & {m.paper_id for m in second.matches}
    assert second.asked == len(new) - len(reported)  # asked over the updated papers not reported yet


def _upload(tmp_path: Path, n: int) -> Path:
    """The first ``n`` papers of :data:`MIXED` as a file to add."""
    f = tmp_path / "upload" / "new-papers.jsonl"
    f.parent.mkdir(parents=True, exist_ok=True)
    f.write_text("".join(MIXED.read_text(encoding="utf-8").splitlines(keepends=True)[:n]), encoding="utf-8")
    return f


def test_the_page_upload_and_the_warm_ingest_report_the_saved_questions(tmp_path, embedder):
    from rag.index.ingest import ingest_paths
    from rag.pipeline import open_store
    from ui.discovery import new_server_info
    from ui.handlers import Handlers
    from ui.session import Backends
    from ui.warm import IngestRequest, WarmService

    settings = Settings(home=tmp_path / "home")
    ingest_paths([ROOT / "data"], open_store(settings), embedder)
    Watches(settings.home).add(QUESTIONS[0])
    comp = build_pipeline(settings, embedder=embedder, llm=None)
    handlers = Handlers(comp)
    session = handlers.new_session()
    f = _upload(tmp_path, 20)
    report, _ = handlers.add_papers([str(f)], session)  # the page's Add papers
    new = [json.loads(x)["id"] for x in f.read_text(encoding="utf-8").splitlines()]
    expected = _asked_within(settings, embedder, new)[QUESTIONS[0]]
    assert expected and "**Saved questions**" in report
    line = next(x for x in report.splitlines() if "watch “" in x)
    assert _labels(line.removeprefix("- 🔔 ")) == [handlers.papers[pid].label for pid in expected]
    assert Watches(settings.home).load()[0].reported == expected
    again, _ = handlers.add_papers([str(f)])
    assert "Saved questions" not in again  # the same file again: nothing added or updated

    rest = tmp_path / "rest.jsonl"  # the warm process (what `paperchat ingest` and the API send it)
    rest.write_text("".join(MIXED.read_text(encoding="utf-8").splitlines(keepends=True)[20:]), encoding="utf-8")
    service = WarmService(Backends(handlers.components, ""), new_server_info(settings, "127.0.0.1", 0, "api"))
    out = service.ingest(IngestRequest(paths=[str(rest)]))
    later = [json.loads(x)["id"] for x in rest.read_text(encoding="utf-8").splitlines()]
    expected_later = _asked_within(settings, embedder, later)[QUESTIONS[0]]
    line = next(x for x in out.stdout.splitlines() if x.startswith("watch “"))
    assert _labels(line) == [handlers.papers[pid].label for pid in expected_later]
    assert Watches(settings.home).load()[0].reported == expected + expected_later

    # the page's next answer tells of the ingest made through another entry, once; not of its own upload
    def status(question: str) -> str:
        return list(handlers.respond(question, "none", "", 5, "", "", "", True, session))[-1][2]

    shown = status("Which papers study diffusion models?")
    assert shown.count("🔔 watch “") == 1 and line in shown.replace("\\$", "$")
    assert "🔔" not in status("What accuracy gain does DANCE report?")
