"""Saved questions, fast: the file in the data directory (save, list, remove, record, survives a new
process), the restriction to given papers they are asked within, the report line, and
``paperchat watch`` (no model is loaded). The end-to-end figure is tests/test_watch_e2e.py."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from rag.question.plan import StatedFilters
from rag.route.filters import Filters
from rag.route.watch import WatchMatch, WatchReport
from rag.types import Evidence
from store.papers import Paper
from store.watches import KEPT_REPORTS, WATCH_FILE, WatchError, Watches
from tests.conftest import ROOT
from ui.cli import main


def test_questions_are_saved_once_listed_in_order_and_removed_by_text_or_number(tmp_path):
    w = Watches(tmp_path)
    assert w.load() == [] and not w
    first, added = w.add("  RL for   LLM agents ")
    assert added and first.question == "RL for LLM agents" and first.added
    again, added = w.add("rl for llm AGENTS")  # case and spacing aside, the same question
    assert not added and again.question == "RL for LLM agents"
    w.add("Which papers study diffusion models?")
    assert [x.question for x in Watches(tmp_path).load()] == [
        "RL for LLM agents",
        "Which papers study diffusion models?",
    ]
    assert w.remove("2").question == "Which papers study diffusion models?"
    assert w.remove("rl for llm agents").question == "RL for LLM agents"
    assert w.load() == []
    with pytest.raises(WatchError, match="no saved question"):
        w.remove("graphs")
    with pytest.raises(WatchError, match="give the question"):
        w.add("   ")


def test_reported_papers_are_recorded_once_and_survive_a_new_process(tmp_path):
    w = Watches(tmp_path)
    w.add("graph condensation")
    w.record("Graph Condensation", ["a#1", "a#2"])
    w.record("graph condensation", ["a#2", "a#3"])  # a#2 is not recorded twice
    w.record("not saved", ["a#9"])  # a question removed meanwhile stays removed
    code = "import sys; from store.watches import Watches; print([x.reported for x in Watches(sys.argv[1]).load()])"
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path)], cwd=ROOT, capture_output=True, text=True)
    assert out.stdout.strip() == "[['a#1', 'a#2', 'a#3']]", out.stderr
    data = json.loads((tmp_path / WATCH_FILE).read_text(encoding="utf-8"))
    assert [x["question"] for x in data["watches"]] == ["graph condensation"]


def test_an_unreadable_file_is_no_saved_question(tmp_path):
    (tmp_path / WATCH_FILE).write_text("{not json", encoding="utf-8")
    assert Watches(tmp_path).load() == []
    Watches(tmp_path).add("diffusion")  # and saving replaces it with a good one
    assert [x.question for x in Watches(tmp_path).load()] == ["diffusion"]


def test_filters_within_given_papers_restrict_the_question_and_say_so():
    papers = {pid: Paper(pid, "An abstract.", year=y) for pid, y in (("a", 2022), ("b", 2023), ("c", 2023))}
    plan = Filters(within=frozenset({"a", "b"}), within_what="the 2 papers just added").plan(StatedFilters(), papers)
    assert plan.allowed == {"a", "b"} and plan.scope == "the 2 papers just added"
    assert "asked within the 2 papers just added" in plan.note
    both = Filters(year=2023, within=frozenset({"a", "b"})).plan(StatedFilters(), papers)
    assert both.allowed == {"b"}  # with the other filters
    assert Filters().plan(StatedFilters(), papers).allowed is None  # no restriction by default


def test_the_report_line_names_each_new_paper_with_its_quote():
    def match(label: str, sentence: str) -> WatchMatch:
        return WatchMatch(label.lower(), label, Evidence(label.lower(), sentence, 0, len(sentence), 0.5))

    two = WatchReport("RL for LLM agents", (match("X", "We train agents with RL."), match("Y", "A " + "long " * 60)))
    line = two.line()
    assert line.startswith("watch “RL for LLM agents”: 2 new papers match — X “We train agents with RL.”, Y “A long")
    assert line.endswith("…”")  # a long sentence is cut at a word
    assert WatchReport("q", (match("X", "s."),)).line() == "watch “q”: 1 new paper matches — X “s.”"
    assert WatchReport("q", ()).line() == "watch “q”: no new paper matches"


def test_paperchat_watch_saves_lists_and_removes(tmp_path):
    run = CliRunner().invoke
    home = ["--home", str(tmp_path)]
    r = run(main, [*home, "watch", "reinforcement learning for LLM agents"])
    assert r.exit_code == 0 and "watching: reinforcement learning for LLM agents (1 saved question)" in r.output
    assert "already watching" in run(main, [*home, "watch", "Reinforcement learning for LLM agents"]).output
    run(main, [*home, "watch", "diffusion models"])
    listed = run(main, [*home, "watch", "--list"]).output.splitlines()
    assert [x.split("  (")[0] for x in listed] == ["1. reinforcement learning for LLM agents", "2. diffusion models"]
    assert "0 papers reported" in listed[0]
    assert (
        run(main, [*home, "watch", "--remove", "1"]).output.strip() == "removed: reinforcement learning for LLM agents"
    )
    bad = run(main, [*home, "watch", "--remove", "graphs"])
    assert bad.exit_code == 1 and "no saved question “graphs” (saved: 1. diffusion models)" in bad.output
    assert run(main, [*home, "watch"]).exit_code == 2  # nothing given: usage
    assert run(main, [*home, "watch", "x", "--list"]).exit_code == 2


def test_the_reports_of_ingests_are_numbered_and_the_last_ones_kept(tmp_path):
    w = Watches(tmp_path)
    w.add("diffusion")
    assert w.last_report() == 0 and w.report([]) == 0  # no line: nothing kept
    numbers = [w.report([f"watch “diffusion”: report {i}"]) for i in range(1, KEPT_REPORTS + 3)]
    assert numbers == list(range(1, KEPT_REPORTS + 3)) and w.last_report() == KEPT_REPORTS + 2
    kept = w.reports_after(0)
    assert (
        len(kept) == KEPT_REPORTS
        and kept[0].n == 3
        and kept[-1].lines == [f"watch “diffusion”: report {KEPT_REPORTS + 2}"]
    )
    assert [r.n for r in w.reports_after(KEPT_REPORTS + 1)] == [KEPT_REPORTS + 2]
    assert [x.question for x in w.load()] == ["diffusion"]  # the saved questions are kept beside them
