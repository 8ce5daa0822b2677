"""Which papers release their code: a link to a code host, or a sentence that makes the code
available without one ("Our software and data are publicly available"); a project page or code
said not to be available is none. A new user's "Which papers release code?" missed Graph-R1,
whose abstract says so without a link. Real Chroma store, bundled embedder, through the one route.
"""

from __future__ import annotations

import pytest
from conftest import pipeline_of

pytestmark = pytest.mark.slow

PAPERS = {
    "linked": "We propose FastRoute, a router for mixture-of-experts models. Code is available at "
    "https://github.com/example/fastroute.",
    "unlinked": "We introduce GraphAgent, a retrieval agent over knowledge graphs trained with reinforcement "
    "learning. Our software and data are publicly available.",
    "promised": "We prune the feed-forward layers of language models with sparse kernels. We will release all "
    "code and kernels under an open-source license.",
    "page": "We learn bimanual manipulation from human videos with a curriculum. Videos and more at "
    "project-handcraft.github.io",
    "withheld": "We train a speech model on private clinical recordings. The code is not available for privacy "
    "reasons.",
    "silent": "We prove regret bounds for linear bandits with delayed feedback.",
}


@pytest.fixture(scope="module")
def family(tmp_path_factory, embedder):
    return pipeline_of(tmp_path_factory.mktemp("code_release_home"), PAPERS, embedder)


@pytest.mark.parametrize("question", ["Which papers release code?", "which papers make their code available?"])
def test_papers_that_make_their_code_available_are_listed_with_the_sentence_that_says_so(family, question):
    ans = family.ask(question)
    assert set(ans.cited_ids) == {"linked", "unlinked", "promised"}, ans.text
    for c in ans.citations:
        quoted = c.evidence[0].sentence
        assert "github.com" in quoted or "available" in quoted or "release" in quoted, (c.paper_id, quoted)


@pytest.mark.parametrize(
    "question", ["Which papers provide a GitHub link to their code?", "which papers give a repo URL?"]
)
def test_a_question_for_the_link_itself_lists_the_papers_that_link_their_code(family, question):
    ans = family.ask(question)
    assert ans.cited_ids == ["linked"], ans.text


def test_a_tables_code_column_answers_as_the_list_of_papers_releasing_code(family):
    # Graph-R1's "Our software and data are publicly available" was listed by "which papers release
    # code?" but "not stated" in a table's code column: both now use the same sentence
    turn = family.conversation().table(papers=["linked", "unlinked", "withheld", "silent"], columns=["code"])
    table = turn.paper_table
    code = {c.paper_id: row[-1] for c, row in zip(table.papers, table.cells, strict=True)}
    assert code["linked"].value.startswith("https://github.com/example/fastroute"), code["linked"]
    assert [e.sentence for e in code["unlinked"].evidence] == ["Our software and data are publicly available."]
    assert not code["withheld"].stated and not code["silent"].stated
    # a column that asks for the link itself holds only links
    linked_only = family.conversation().table(papers=["linked", "unlinked"], columns=["GitHub repo"]).paper_table
    cells = {c.paper_id: row[-1] for c, row in zip(linked_only.papers, linked_only.cells, strict=True)}
    assert cells["linked"].stated and not cells["unlinked"].stated, cells


def test_a_project_page_asked_for_code_is_said_to_be_a_page_not_hidden(family):
    # a new user's "does it release code?" of ChiPFormer said "no sentence makes its code
    # available" while its abstract links "The deliverables are released at sites.google.com/..."
    ans = family.ask("Does the bimanual manipulation paper release code?")
    assert ans.cited_ids == ["page"], ans.text
    assert "does not say its code is available; it links a page" in ans.text, ans.text
    assert "project-handcraft.github.io" in ans.text
    silent = family.ask("Does the delayed feedback bandit paper release code?")
    assert "no sentence makes its code available" in silent.text, silent.text


@pytest.mark.parametrize(
    ("question", "paper", "said"),
    [
        # the one paper a question describes is named with what its abstract says of its code: a
        # yes/no question its abstract does not address is refused naming it (AnswerPipeline._polar_unstated)
        ("Does the paper that proves regret bounds for linear bandits with delayed feedback release code?",
         "silent", "The abstract of Linear bandits (silent) does not state this"),
        ("Is there a paper on bandits with delayed feedback, and does it share its code?",
         "silent", "does not say its code is available"),
        ("Which paper prunes feed-forward layers with sparse kernels, and is its code public?",
         "promised", "We will release all code"),
        ("I read about retrieval agents over knowledge graphs. Is there such a paper, and is its code released?",
         "unlinked", "Our software and data are publicly available"),
    ],
)
def test_the_one_paper_a_question_describes_is_answered_with_whether_its_code_is_available(
    family, question, paper, said
):
    # A new user's "Does the paper that regularizes CNNs with a variational information bottleneck
    # ... release code?" was refused as a list ("None of the 1 papers clearly about ... makes its code
    # available"), never naming the paper; "Is there a paper that ..., and does it release code?"
    # named it and said nothing of its code
    ans = family.ask(question)
    if ans.refused:
        assert said in ans.text, ans.text
    else:
        assert ans.cited_ids == [paper], ans.text
        assert said in ans.lead, ans.lead


def test_a_list_of_papers_on_a_topic_none_of_which_releases_code_is_still_refused(family):
    ans = family.ask("Which papers on bandits with delayed feedback release code?")
    assert ans.refused and "makes its code available" in ans.text, ans.text
