"""An answer's footer accounts for its wait: the steps (loading, reading, retrieval, membership,
evidence, generation, rendering) never overlap and add up to the total but for a small ``other``,
and a slow answer names the step that took the time (issue 34: on 3,098 papers the footer said
0.02 s of a 4-7 s wait).

Hand-made timings check the arithmetic and the rendering; the real pipeline (real embedder, real
Chroma) checks that what is measured around a question adds up to the wall clock seen outside.
"""

from __future__ import annotations

import re
import threading
import time

import pytest

from rag.types import STEPS, Answer, Timings, timed
from ui.chat import status_line
from ui.footer import NAMED_FROM, timing_note, timing_parts
from ui.render import render_answer

NUMBER = re.compile(r"([a-z]+) (\d+\.\d+) s")


def shown(line: str) -> dict[str, float]:
    """The seconds a footer shows, by step (``total`` included)."""
    return {name: float(v) for name, v in NUMBER.findall(line)}


def test_other_is_what_the_steps_leave_of_the_total_and_the_slowest_is_named():
    t = Timings(retrieval=0.03, evidence=0.02, total=5.31, reading=5.2, membership=0.04)
    assert t.other == pytest.approx(0.02)
    assert t.slowest() == "reading"
    assert [name for name, _ in t.parts()] == ["reading", "retrieval", "membership", "evidence", "other"]
    assert sum(s for _, s in t.parts()) == pytest.approx(t.total)
    assert t.to_dict()["other"] == pytest.approx(0.02) and t.to_dict()["reading"] == 5.2
    assert Timings(retrieval=1.0, total=0.5).other == 0.0  # never negative


def test_timed_steps_add_to_the_timings_measured_in_their_own_thread_only():
    mine, theirs = Timings(), Timings()
    ready = threading.Event()

    def other_question() -> None:
        with theirs.measuring(), timed("reading"):
            ready.wait(2)
            time.sleep(0.05)

    worker = threading.Thread(target=other_question)
    worker.start()
    with mine.measuring():
        with timed("embedding", tally="embedded"):
            time.sleep(0.02)
        with timed("embedding", tally="embedded"):
            ready.set()
    worker.join()
    with timed("reading"):  # measured by no one: nothing happens
        pass
    assert mine.embedded == 2 and 0.015 < mine.embedding < 1.0 and mine.reading == 0.0
    assert theirs.reading >= 0.045 and theirs.embedded == 0


def test_include_adds_what_was_measured_around_the_route():
    route = Timings(retrieval=0.1, evidence=0.2, total=0.3)
    clock = Timings(loading=1.0, reading=2.0, rendering=0.5, embedding=0.15, embedded=3, retrieval=9.0)
    route.include(clock)
    assert (route.loading, route.reading, route.rendering, route.embedded) == (1.0, 2.0, 0.5, 3)
    assert route.retrieval == 0.1  # the route's own steps are its own


def test_the_footer_shows_every_step_that_took_time_and_they_add_up_to_the_total():
    t = Timings(retrieval=0.031, evidence=0.02, total=7.49, reading=5.2, membership=2.2, rendering=0.021,
                embedding=2.1, embedded=49, loading=0.004)  # fmt: skip
    parts = timing_parts(t, generation=False)
    assert parts == ["reading 5.20 s", "retrieval 0.03 s", "membership 2.20 s", "evidence 0.02 s",
                     "rendering 0.02 s", "other 0.02 s", "total 7.49 s"]  # fmt: skip
    numbers = shown(" · ".join(parts))
    assert sum(v for k, v in numbers.items() if k != "total") == pytest.approx(numbers["total"], abs=0.011)
    assert timing_note(t) == (
        "most in reading the question; 2.10 s embedding the sentences of 49 abstracts used for the first time"
    )
    line = status_line(Answer("q", "t", backend="none", timings=t))
    assert "reading 5.20 s · retrieval 0.03 s" in line and "(most in reading the question;" in line
    assert "generation" not in line  # no LLM ran
    cli = render_answer(Answer("q", "t", backend="none", timings=t)).splitlines()[-1]
    assert cli.startswith("LLM: none · reading 5.20 s, retrieval 0.03 s,") and "total 7.49 s (most in" in cli


def test_a_quick_answer_names_nothing_and_an_llm_answer_shows_its_generation():
    quick = Timings(retrieval=0.05, total=NAMED_FROM - 0.1)
    assert timing_note(quick) == ""
    llm = Answer("q", "t", backend="ollama:llama3.2:3b", timings=Timings(retrieval=0.05, total=0.06))
    assert "generation 0.00 s" in status_line(llm)
    assert "slow" not in status_line(llm) and "(most" not in status_line(llm)


def test_every_step_has_a_name_for_the_footer():
    from rag.types import STEP_NAMES

    assert set(STEPS) | {"other"} == set(STEP_NAMES)


# --- the real pipeline -----------------------------------------------------------------------


@pytest.mark.slow
def test_a_measured_question_adds_up_to_the_wall_clock_and_counts_first_embeddings(seed_settings, embedder,
                                                                                   seed_store):  # fmt: skip
    from rag.pipeline import _sentences_path, build_pipeline
    from ui.service import timed_ask

    # sentences another test's serving process kept in the shared data directory: this test needs
    # abstracts used for the first time
    _sentences_path(seed_settings).unlink(missing_ok=True)
    comp = build_pipeline(seed_settings, embedder=embedder, store=seed_store, llm=None)  # nothing embedded yet
    question = "Which papers use reinforcement learning?"
    started = time.perf_counter()
    time.sleep(0.2)  # what a caller spent before the question could be read (a rebuild, a cold start)
    turn = timed_ask(comp.conversation(), question, started=started, loading=time.perf_counter() - started)
    wall = time.perf_counter() - started
    t = turn.answer.timings
    assert t.total == pytest.approx(wall, abs=0.01)
    assert t.loading >= 0.2 and t.reading > 0 and t.retrieval > 0 and t.membership > 0
    assert t.embedded > 0 and 0 < t.embedding <= t.membership + t.evidence
    assert t.other < 0.05 * t.total + 0.02, t  # the steps account for the wait
    again = timed_ask(comp.conversation(), question, started=time.perf_counter()).answer.timings
    assert again.embedded == 0 and again.embedding == 0.0  # the sentences are kept
    assert again.other < 0.05 * again.total + 0.02, again
