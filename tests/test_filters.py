"""Year / venue / author filters restrict retrieval, and a year in the question becomes a visible filter.

The collection mixes the 38 seed papers (ICML 2026 text files, no year) with 49 ICML papers of
2022 and 2023 (``fixtures/icml_mixed50.jsonl``), 15 of which are about diffusion models in both
years, so an unfiltered diffusion question finds papers of both years.
"""

from __future__ import annotations

import json
import os

import pytest
from conftest import MIXED, ROOT, read_and_plan, run_cli, search

from rag.question.filters import detect_year
from rag.route.filters import AUTO_HINT, Filters

RECORDS = [json.loads(line) for line in MIXED.read_text().splitlines() if line.strip()]
YEAR = {r["id"]: r["year"] for r in RECORDS}
AUTO_NOTE = f"filter: year=2023 ({AUTO_HINT})"


# --- detection and matching (no model) ---------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "year", "rest"),
    [
        ("papers from 2023 about diffusion", 2023, "papers about diffusion"),
        ("Which 2022 papers study diffusion?", 2022, "Which papers study diffusion?"),
        ("What did papers published in 2022 propose for offline RL?", 2022, "What did papers propose for offline RL?"),
        ("Diffusion papers from 2023.", 2023, "Diffusion papers."),
        ("Which federated learning papers from 2023 release code?", 2023,
         "Which federated learning papers release code?"),  # the year was read as part of the topic
        ("models trained in 2000 steps", None, "models trained in 2000 steps"),  # a quantity, not a date
        ("results in 2023 benchmarks", None, "results in 2023 benchmarks"),
        ("What accuracy gain does DANCE report?", None, "What accuracy gain does DANCE report?"),
    ],
)
def test_a_year_is_detected_only_where_it_restricts_the_papers(question, year, rest):
    assert detect_year(question) == (year, rest)


def test_filters_match_year_venue_and_author_case_insensitively():
    from store.papers import make_paper

    p = make_paper("x", "We study things.", authors=["Clément Vignac", "Emiel Hoogeboom"], year=2022, venue="ICML")
    assert Filters(year=2022).matches(p) and not Filters(year=2023).matches(p)
    assert Filters(venue="icml").matches(p) and not Filters(venue="NeurIPS").matches(p)
    assert Filters(author="hoogeboom").matches(p) and Filters(author="clement vig").matches(p)  # accents fold
    assert not Filters(author="Welling").matches(p)
    assert Filters(year=2022, venue="ICML", author="vignac").matches(p)
    assert not Filters().active and Filters(author="x").active
    assert Filters(year=2022, venue=" ICML ", author="vignac").describe() == "year=2022, venue=ICML, author=vignac"


def test_an_explicit_year_wins_over_the_question_and_plans_intersect():
    papers = {}
    from store.papers import make_paper

    for pid, y in (("a", 2022), ("b", 2023), ("c", None)):
        papers[pid] = make_paper(pid, "We study diffusion models.", year=y)
    plan, plan_rest = read_and_plan(Filters(year=2022, auto=True), "papers from 2023 about diffusion", papers)
    assert (plan.allowed, plan.note, plan_rest) == ({"a"}, "filter: year=2022", "papers from 2023 about diffusion")
    auto, auto_rest = read_and_plan(Filters(auto=True), "papers from 2023 about diffusion", papers)
    assert (auto.allowed, auto.note, auto_rest) == ({"b"}, AUTO_NOTE, "papers about diffusion")
    assert auto.restrict({"a", "b"}) == {"b"} and auto.restrict(None) == {"b"}
    none, none_rest = read_and_plan(Filters(auto=False), "papers from 2023 about diffusion", papers)
    assert (none.allowed, none.note) == (None, "")
    assert none.restrict({"a"}) == {"a"}


def test_a_known_venue_no_record_states_is_a_filter_no_paper_matches():
    # "NeurIPS papers about GANs" over ICML records listed 17 ICML papers
    from rag.question.filters import detect_venue

    assert detect_venue("NeurIPS papers about GANs", {"ICML"}) == ("NeurIPS", "papers about GANs")
    assert detect_venue("which papers from iclr study speech?", {"ICML"}) == ("iclr", "which papers study speech?")
    # records without venues: the question may name one the records never say, so nothing is read
    assert detect_venue("NeurIPS papers about GANs", set()) == (None, "NeurIPS papers about GANs")
    assert detect_venue("papers on icml-style benchmarks", {"NeurIPS"})[0] is None
    # a review outcome at a venue is a detail abstracts omit, no filter
    assert detect_venue("Which papers were rejected from NeurIPS?", {"ICML"})[0] is None


def test_a_venue_the_records_state_becomes_a_filter():
    from rag.question.filters import detect_venue
    from store.papers import make_paper

    venues = {"ICML", "NeurIPS", "Nature"}
    for question, rest in [
        ("ICML papers on speech", "papers on speech"),
        ("which icml papers use diffusion?", "which papers use diffusion?"),
        ("papers at ICML about agents", "papers about agents"),
        ("What did NeurIPS papers say about graphs?", "What did papers say about graphs?"),
    ]:
        assert detect_venue(question, venues)[1] == rest, question
    # a word that is also a venue, not written as the records write it; part of a longer word
    for question in ("the nature of hallucination", "papers on icml-style benchmarks", "ICMLx papers"):
        assert detect_venue(question, venues) == (None, question), question
    papers = {"a": make_paper("a", "We study speech.", venue="ICML"), "b": make_paper("b", "Speech.", venue="NeurIPS")}
    plan, plan_rest = read_and_plan(Filters(auto=True), "ICML papers on speech", papers)
    assert (plan.allowed, plan_rest) == ({"a"}, "papers on speech")
    assert plan.note == f"filter: venue=ICML ({AUTO_HINT})" and plan.description == "venue=ICML"
    # given explicitly, the question's venue is left in the question
    assert read_and_plan(Filters(venue="NeurIPS", auto=True), "ICML papers on speech", papers)[0].allowed == {"b"}


# --- through retrieval and answers (real embedder and Chroma; ``mixed`` is in conftest) -----------


@pytest.mark.slow
def test_allowed_restricts_every_retriever_even_to_a_paper_far_from_the_question(mixed):
    retriever = mixed.retriever
    question = "diffusion models for image generation"
    unfiltered = [h.paper.id for h in search(retriever, question).hits]
    # the paper least related to the question among those the unfiltered search does not return
    ids = [pid for pid in retriever.papers if pid not in unfiltered]
    sims = retriever.embedder.embed([retriever.papers[pid].abstract for pid in ids]) @ retriever.embedder.embed(
        [question]
    )[0]
    far = ids[int(sims.argmin())]
    hits = search(retriever, question, allowed={far}).hits
    assert [h.paper.id for h in hits] == [far]  # pushed into the dense search, not cut from its top 40
    two = {"icml-2b50c5aa80a8", "icml-0537258b0280"}
    assert {h.paper.id for h in search(retriever, question, allowed=two).hits} <= two
    assert search(retriever, question, allowed=set()).hits == []


@pytest.mark.slow
def test_a_year_in_the_question_becomes_a_visible_filter(mixed):
    question = "papers from 2023 about diffusion"
    ans = mixed.ask(question, filters=Filters(auto=True))
    assert not ans.refused, ans.text
    assert AUTO_NOTE in ans.note and ans.question == question
    assert ans.citations and all(c.year == 2023 for c in ans.citations)
    assert ans.hits and all(h.paper.year == 2023 for h in ans.hits)
    assert any("iffusion" in h.paper.abstract for h in ans.hits[:3])

    plain = mixed.ask("papers about diffusion", filters=Filters(auto=False))
    assert "filter:" not in plain.note
    assert {h.paper.year for h in plain.hits} >= {2022, 2023}  # without it both years come back

    off = mixed.ask(question, filters=Filters(auto=False))
    assert "filter:" not in off.note


@pytest.mark.slow
def test_explicit_filters_restrict_the_cited_papers(mixed):
    ask = mixed.ask
    y2022 = ask("Which papers use diffusion models?", filters=Filters(year=2022))
    assert y2022.note.startswith("filter: year=2022") and y2022.citations
    assert all(YEAR[c.paper_id] == 2022 for c in y2022.citations)
    assert all(h.paper.year == 2022 for h in y2022.hits)

    nie = ask("adversarial robustness", filters=Filters(author="weili NIE"))
    assert {h.paper.id for h in nie.hits} <= {"icml-2b50c5aa80a8", "icml-0537258b0280"} and nie.citations
    nie23 = ask("adversarial robustness", filters=Filters(author="nie", year=2023, venue="icml"))
    assert nie23.citations and {c.paper_id for c in nie23.citations} <= {
        pid for pid, y in YEAR.items() if y == 2023
    }
    assert "filter: year=2023, venue=icml, author=nie" in nie23.note

    vignac = ask("molecule generation in 3D", filters=Filters(author="Clement Vignac"))
    assert [c.paper_id for c in vignac.citations] == ["icml-d8c9e0fe2a93"]


@pytest.mark.slow
def test_a_filter_that_matches_nothing_says_so(mixed):
    ans = mixed.ask("diffusion models", filters=Filters(venue="NeurIPS"))
    assert ans.refused and "No paper in the collection matches the filter (venue=NeurIPS)" in ans.text
    assert "filter: venue=NeurIPS" in ans.note and not ans.citations
    assert mixed.ask("diffusion models", filters=Filters(year=1999, auto=True)).refused


@pytest.mark.slow
def test_an_author_the_question_states_lists_exactly_their_papers(mixed):
    nie = {"icml-2b50c5aa80a8", "icml-0537258b0280"}
    for question in ("Which papers did Weili Nie publish?", "papers by weili nie", "Nie's papers",
                     "Which papers did Weili Nie co-author?"):  # was "The abstracts do not state authors"
        ans = mixed.ask(question, filters=Filters(auto=True))
        assert {c.paper_id for c in ans.citations} == nie, (question, ans.text)
        assert ans.text.startswith("2 papers in the collection match")
        assert f"filter: author=Weili Nie ({AUTO_HINT})" in ans.note
    y2023 = mixed.ask("what did Weili Nie publish in 2023", filters=Filters(auto=True))
    assert [c.paper_id for c in y2023.citations] == ["icml-0537258b0280"]
    assert f"filter: year=2023, author=Weili Nie ({AUTO_HINT})" in y2023.note
    topic = mixed.ask("Weili Nie's work on point clouds", filters=Filters(auto=True))
    assert topic.citations and {c.paper_id for c in topic.citations} <= nie
    assert topic.citations[0].paper_id == "icml-0537258b0280"
    # the seed papers hold no authors: who wrote one is still refused
    assert mixed.ask("Who are the authors of DANCE?", filters=Filters(auto=True)).refused


@pytest.mark.slow
def test_cli_year_author_and_auto_filter_options(tmp_path):
    env = dict(os.environ, PAPERCHAT_HOME=str(tmp_path / "home"))

    def run(*args):
        out = run_cli(env, *args)
        assert out.returncode == 0, out.stderr
        return out.stdout

    assert "store: 87 papers" in run("ingest", "--quiet", str(ROOT / "data"), str(MIXED))
    auto = json.loads(run("ask", "papers from 2023 about diffusion", "--json", "--llm", "none"))
    assert AUTO_NOTE in auto["note"] and all(YEAR[c["paper_id"]] == 2023 for c in auto["citations"])
    off = json.loads(run("ask", "papers from 2023 about diffusion", "--json", "--llm", "none", "--no-auto-filter"))
    assert "filter:" not in off["note"]
    both = json.loads(
        run("ask", "adversarial robustness", "--json", "--llm", "none", "--year", "2022", "--author", "Weili Nie")
    )
    assert [c["paper_id"] for c in both["citations"]] == ["icml-2b50c5aa80a8"]
    assert "filter: year=2022, author=Weili Nie" in both["note"]
    text = run("ask", "papers from 2023 about diffusion", "--llm", "none", "--venue", "ICML")
    assert "filter: venue=ICML" in text and AUTO_NOTE in text  # shown on the status line


def test_a_year_after_a_venue_is_the_year_asked():
    # "of ICML 2023" left "2023" behind, read as "paper 2023" of a list (nu54: "What is the best
    # paper of ICML 2023?" listed 21 papers on "best")
    from rag.question.filters import detect_venue, read_filters

    assert detect_venue("ICML 2023 papers on speech", {"ICML"}) == ("ICML", "in 2023 papers on speech")
    for question, year, rest in [
        ("ICML 2022 papers on speech", 2022, "papers on speech"),
        ("which papers at NeurIPS 2023 use diffusion?", 2023, "which papers use diffusion?"),
        ("What is the best paper of ICML 2023?", 2023, "What is the best paper?"),
    ]:
        stated, left = read_filters(question, {"ICML", "NeurIPS"}, None)
        assert (stated.year, stated.venue, left) == (year, stated.venue, rest), (question, stated, left)
        assert stated.venue in ("ICML", "NeurIPS")
