"""Related-work drafts: the request read in chat, the papers "which papers are about T?" lists,
grouped by their key phrases, each statement an exact span of its abstract cited with the user's
own key, and a .bib in which every cited key resolves (issue 35 item 3).

The end-to-end tests run on real Chroma on disk with the bundled embedder: a user's .bib with
hand-made keys is ingested (``tests/fixtures/imports/diffusion.bib``) and drafted from; a
collection with no keys is drafted from with a reference list of eight of its papers
(``diffusion_refs.bib``, no abstracts, matched by title); the command line writes both files.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import bibtexparser
import pytest
from conftest import FIXTURES, MIXED, pipeline_over, run_cli

from rag.llm.clients import QueuedLLM
from rag.question.plan import RelatedWorkPlan
from rag.question.reader import read_question
from rag.question.related_work import related_work_topic
from rag.route.conversation import Conversation
from rag.route.related_work import DraftError, Group, RelatedWork, Statement, group_papers
from rag.types import Evidence
from store.papers import make_paper
from ui.related_work import CitationError, check_citations, draft_files, user_keys

BIB = FIXTURES / "imports" / "diffusion.bib"
REFS = FIXTURES / "imports" / "diffusion_refs.bib"
TOPIC = "diffusion models"


def bib_keys(text: str) -> dict[str, str]:
    """``{normalised title: key}`` of a .bib text."""
    return {
        re.sub(r"\W+", " ", e.fields_dict["title"].value.replace("{", "").replace("}", "")).strip().lower(): e.key
        for e in bibtexparser.parse_string(text).entries
    }


def title_of(paper) -> str:
    return re.sub(r"\W+", " ", paper.title).strip().lower()


def cited_keys(text: str) -> list[str]:
    return [k for m in re.finditer(r"\\cite\{([^}]*)\}", text) for k in m.group(1).split(",")]


# --- reading the request ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "topic"),
    [
        ("write a related work paragraph about speech synthesis", "speech synthesis"),
        ("related work for LLM agents?", "LLM agents"),
        ("Could you put together a literature review on graph neural networks?", "graph neural networks"),
        ("draft me the related-work section for offline RL", "offline RL"),
        ("I need a brief related works paragraph covering dataset distillation.", "dataset distillation"),
        ("please compose a related work section: federated learning", "federated learning"),
    ],
)
def test_a_request_for_related_work_is_read_however_it_is_phrased(message: str, topic: str):
    plan = read_question(message)
    assert isinstance(plan, RelatedWorkPlan) and plan.intent == "related_work"
    assert plan.subject == topic
    assert plan.papers is not None and plan.papers.number == "many"  # "Which papers are about <topic>?"


@pytest.mark.parametrize(
    "message",
    ["which papers are related to RL?", "what related work does DANCE compare against?", "related work",
     "Which papers work on literature review generation?"],
)  # fmt: skip
def test_other_questions_about_related_things_are_no_draft(message: str):
    assert related_work_topic(message) is None
    assert not isinstance(read_question(message), RelatedWorkPlan)


# --- groups -----------------------------------------------------------------------------


def _paper(pid: str, abstract: str, title: str = ""):
    return make_paper(pid, abstract, title=title)


def test_papers_are_grouped_by_a_shared_phrase_each_once_the_topic_words_naming_none():
    papers = [
        _paper("a", "We study diffusion models for speech synthesis with a score network."),
        _paper("b", "A diffusion model for speech synthesis in noisy rooms."),
        _paper("c", "We train diffusion models for molecule generation in 3D."),
        _paper("d", "Equivariant diffusion for molecule generation."),
        _paper("e", "Diffusion models for adversarial purification."),
    ]
    groups = group_papers(papers, "diffusion models", lambda p: [p.abstract], lambda w: 1.0)
    assert [(name, [p.id for p in ps]) for name, ps in groups] == [
        ("Molecule generation", ["c", "d"]),
        ("Speech synthesis", ["a", "b"]),
        ("Other work on diffusion models", ["e"]),
    ]  # "diffusion models", in every paper, is the topic's; two groups of two, equal scores: by phrase
    assert sorted(p.id for _, ps in groups for p in ps) == ["a", "b", "c", "d", "e"]
    assert group_papers([], "x", lambda p: [], lambda w: 1.0) == []


def test_a_draft_that_breaks_its_promises_is_an_error():
    p = _paper("a", "We propose X. It works well.")
    good = Evidence("a", "We propose X.", 0, 13, 1.0)
    moved = Evidence("a", "We propose X.", 1, 14, 1.0)  # not where the abstract has it
    ok = RelatedWork("x", (Group("G", ("a",), (Statement(good.sentence, ("a",), (good,)),)),))
    ok.check({"a": p})
    with pytest.raises(DraftError, match="span"):
        RelatedWork("x", (Group("G", ("a",), (Statement(moved.sentence, ("a",), (moved,)),)),)).check({"a": p})
    twice = Group("H", ("a",), (Statement(good.sentence, ("a",), (good,)),))
    with pytest.raises(DraftError, match="more than one group"):
        RelatedWork("x", (ok.groups[0], twice)).check({"a": p})


# --- keys and files (fast: hand-made records) -------------------------------------------


def _draft_of(papers) -> RelatedWork:
    statements = []
    for p in papers:
        s = p.abstract.split(". ")[0] + "."
        statements.append(Statement(s, (p.id,), (Evidence(p.id, s, 0, len(s), 1.0),)))
    return RelatedWork("widgets", (Group("Deep widgets", tuple(p.id for p in papers), tuple(statements)),))


def test_files_cite_the_users_keys_and_every_key_resolves_in_the_bib():
    a = make_paper("x1", "We build 50% deeper widgets_v2. They help.", title="Deep Widgets for Everyone",
                   authors=["Ada Lovelace"], year=2023, doi="10.1234/w", cite_key="lovelace:widgets")  # fmt: skip
    b = make_paper("x2", "We propose $O(n)$ widget search. It is fast.", title="Widget Search in Linear Time",
                   authors=["Alan Turing"], year=2022)  # fmt: skip
    c = make_paper("x3", "Unrelated gadgets. Not cited.", title="Gadgets", year=2020)
    papers = {p.id: p for p in (a, b, c)}
    draft = _draft_of([a, b])
    tex = draft_files(draft, papers)
    assert tex.keys == {"x1": "lovelace:widgets", "x2": "turing2022widget"}
    assert "Deep Widgets for Everyone~\\cite{lovelace:widgets}: ``We build 50\\% deeper widgets\\_v2.''" in tex.text
    assert "``We propose $O(n)$ widget search.''" in tex.text  # math kept as written
    assert set(cited_keys(tex.text)) == {e.key for e in bibtexparser.parse_string(tex.bib).entries}
    md = draft_files(draft, papers, fmt="markdown")
    assert "Deep Widgets for Everyone [@lovelace:widgets]: “We build 50% deeper widgets_v2.”" in md.text
    assert check_citations(md.text, md.bib, "markdown") == {"lovelace:widgets", "turing2022widget"}
    # the user's .bib: its key and its own entry, matched by DOI (a, whatever its title) and by title (b)
    refs = ("@article{mine-a, title = {Another Title}, doi = {10.1234/W}, journal = {J}}\n"
            "@misc{mine-b, title = {{Widget} search in linear time}, note = {my note}}\n")  # fmt: skip
    assert {pid: key for pid, (key, _) in user_keys(refs, papers.values()).items()} == {"x1": "mine-a", "x2": "mine-b"}
    own = draft_files(draft, papers, bib=refs)
    assert own.keys == {"x1": "mine-a", "x2": "mine-b"} and own.from_bib == {"x1", "x2"}
    entries = {e.key: e for e in bibtexparser.parse_string(own.bib).entries}
    assert entries["mine-b"].fields_dict["note"].value == "my note"  # shipped as the user wrote it
    with pytest.raises(ValueError, match="no BibTeX entries"):
        draft_files(draft, papers, bib="just text")
    with pytest.raises(CitationError, match="ghost"):
        check_citations("As shown \\cite{lovelace:widgets,ghost}.", tex.bib, "latex")


# --- end to end: real Chroma, the bundled embedder ------------------------------------------


@pytest.fixture(scope="module")
def from_bib(tmp_path_factory, embedder):
    """A collection ingested from a user's .bib with hand-made keys."""
    return pipeline_over(tmp_path_factory.mktemp("rw_bib"), [BIB], embedder)


def _check_draft(turn, papers):
    draft = turn.related_work
    assert turn.kind == "related_work" and draft is not None
    ids = draft.paper_ids
    assert len(ids) == len(set(ids))  # no paper twice
    for g in draft.groups:
        for s in g.statements:
            (e,) = s.evidence
            assert s.quoted and papers[e.paper_id].abstract[e.start : e.end] == s.text  # an exact span
    return draft


def test_a_draft_from_an_imported_bib_cites_its_keys_and_the_papers_ask_lists(from_bib):
    conv = Conversation(from_bib.pipeline)
    papers = conv.papers
    listed = from_bib.ask(f"Which papers are about {TOPIC}?")
    turn = conv.related_work(TOPIC)
    draft = _check_draft(turn, papers)
    assert set(draft.paper_ids) == {c.paper_id for c in listed.citations}  # the route's membership
    assert len(draft.groups) >= 2 and all(g.name for g in draft.groups)
    files = draft_files(draft, papers)
    theirs = bib_keys(BIB.read_text())
    assert files.keys == {pid: theirs[title_of(papers[pid])] for pid in draft.paper_ids}  # the input .bib's keys
    assert set(cited_keys(files.text)) == set(files.keys.values()) == {
        e.key for e in bibtexparser.parse_string(files.bib).entries
    }
    for g in draft.groups:  # each quoted statement stands in the .tex after its paper's key
        for s in g.statements:
            assert f"\\cite{{{files.keys[s.paper_ids[0]]}}}: ``" in files.text
    # asked in chat, the same draft
    chat = Conversation(from_bib.pipeline).ask(f"write a related work paragraph about {TOPIC}")
    assert chat.related_work == draft
    assert all(f"[{c.number}]" in chat.answer.text for c in chat.citations)


def test_a_reference_list_without_abstracts_gives_its_keys_to_the_papers_it_holds(tmp_path, embedder):
    comp = pipeline_over(tmp_path / "home", [MIXED], embedder)  # the same papers, imported with no key
    conv = Conversation(comp.pipeline)
    turn = conv.related_work(TOPIC)
    draft = _check_draft(turn, conv.papers)
    refs = REFS.read_text()
    files = draft_files(draft, conv.papers, bib=refs)
    theirs = bib_keys(refs)
    held = {pid for pid in draft.paper_ids if title_of(conv.papers[pid]) in theirs}
    assert held and files.from_bib == held
    assert all(files.keys[pid] == theirs[title_of(conv.papers[pid])] for pid in held)
    assert all(not files.keys[pid].startswith("ref-") for pid in set(draft.paper_ids) - held)
    assert set(cited_keys(files.text)) <= {e.key for e in bibtexparser.parse_string(files.bib).entries}


def test_no_paper_on_the_topic_is_a_refusal_with_no_files(from_bib):
    turn = Conversation(from_bib.pipeline).related_work("quantum error correction for superconducting qubits")
    assert turn.kind == "refusal" and turn.related_work is None
    assert turn.answer.refused and not turn.citations


def test_llm_prose_keeps_checked_sentences_and_quotes_the_papers_of_a_failed_one(from_bib):
    conv = Conversation(from_bib.pipeline)
    draft = conv.related_work(TOPIC).related_work
    assert draft is not None
    group = draft.groups[0]
    first, second = (conv.papers[pid] for pid in group.paper_ids[:2])
    supported = first.abstract[group.statements[0].evidence[0].start : group.statements[0].evidence[0].end]
    reply = f"{supported.rstrip('.')} [1]. It cures every disease known to medicine in 5 minutes flat [2]."
    llm = QueuedLLM([reply] + ["Nothing here checks out at all, truly [1]."] * 10)
    writer = Conversation(from_bib.answerer(llm, "fake"))
    turn = writer.related_work(TOPIC)
    prose = turn.related_work
    assert prose is not None and prose.paper_ids == draft.paper_ids  # the same papers and groups
    g = prose.groups[0]
    assert not g.statements[0].quoted and g.statements[0].paper_ids == (first.id,)  # the checked sentence
    assert g.statements[1].quoted and g.statements[1].paper_ids == (second.id,)  # the failed one: quoted
    assert any(not c.supported for c in prose.claims) and any(c.supported for c in prose.claims)
    files = draft_files(prose, conv.papers)
    assert set(cited_keys(files.text)) == {e.key for e in bibtexparser.parse_string(files.bib).entries}


def test_the_command_writes_the_draft_and_its_bib(from_bib, tmp_path):
    env = dict(os.environ, PAPERCHAT_HOME=str(from_bib.settings.home))
    out = run_cli(env, "related-work", TOPIC, "--out", str(tmp_path), "--bib", str(REFS))
    assert out.returncode == 0, out.stderr
    tex, bib = (tmp_path / "related-work.tex").read_text(), (tmp_path / "related-work.bib").read_text()
    keys = {e.key for e in bibtexparser.parse_string(bib).entries}
    assert set(cited_keys(tex)) == keys and any(k.startswith("ref-") for k in keys)  # the list's keys first
    assert "every \\cite key is in the .bib" in out.stderr
    md = run_cli(env, "related-work", TOPIC, "--format", "markdown")
    assert md.returncode == 0 and "[@Nie:2022:02]" in md.stdout and "@misc{Nie:2022:02," in md.stdout
    notes = tmp_path / "notes.bib"
    notes.write_text("my reading notes, no entries\n")
    bad = run_cli(env, "related-work", TOPIC, "--bib", str(notes))
    assert bad.returncode == 2 and "BibTeX" in bad.stderr


def test_the_api_and_the_mcp_tool_give_the_draft_the_command_gives(from_bib):
    import anyio
    from fastapi.testclient import TestClient

    from ui.api import create_app
    from ui.mcp_server import build_server
    from ui.related_work import related_work
    from ui.service import Library

    refs = REFS.read_text()
    turn, files = related_work(Conversation(from_bib.pipeline), TOPIC, bib=refs)
    assert files is not None
    library = Library(from_bib)
    with TestClient(create_app(library)) as http:
        got = http.post("/v1/related-work", json={"topic": TOPIC, "bib": refs})
        assert got.status_code == 200, got.text
        draft = got.json()["draft"]
        assert (draft["text"], draft["bib"], draft["keys"]) == (files.text, files.bib, files.keys)
        assert sorted(draft["from_bib"]) == sorted(files.from_bib)
        for g in draft["groups"]:
            for s in g["statements"]:
                (e,) = s["evidence"]
                assert from_bib.retriever.papers[e["paper_id"]].abstract[e["start"] : e["end"]] == s["text"]
        bad = http.post("/v1/related-work", json={"topic": TOPIC, "format": "docx"})
        assert bad.status_code == 400 and "latex or markdown" in bad.json()["error"]["message"]
    server = build_server(library)
    result = anyio.run(lambda: server.call_tool("related_work", {"topic": TOPIC, "format": "markdown"}))
    structured = result.structured_content
    assert structured["draft"]["format"] == "markdown" and "[@" in structured["draft"]["text"]
    assert set(structured["draft"]["keys"].values()) <= {
        e.key for e in bibtexparser.parse_string(structured["draft"]["bib"]).entries
    }


def test_the_page_offers_a_draft_in_chat_as_tex_and_bib(from_bib):
    from ui.handlers import Handlers

    handlers = Handlers(from_bib)
    session = handlers.new_session()
    hidden = handlers.related_work_downloads(session)
    assert all(b.visible is False for b in hidden)  # nothing drafted yet
    session.conversation.ask(f"Can you draft the related-work section for {TOPIC}?")
    tex_button, bib_button = handlers.related_work_downloads(session)
    paths = [b.value["path"] if isinstance(b.value, dict) else b.value for b in (tex_button, bib_button)]
    tex, bib = (Path(p).read_text(encoding="utf-8") for p in paths)
    assert tex.startswith("% Related work on “diffusion models”") and "\\section{Related Work}" in tex
    assert set(cited_keys(tex)) == {e.key for e in bibtexparser.parse_string(bib).entries}
    session.conversation.ask("What does MolDiff address?")  # another answer: the buttons go
    assert all(b.visible is False for b in handlers.related_work_downloads(session))


def test_an_at_sign_quoted_from_an_abstract_is_no_citation():
    a = make_paper("x1", "Ask @widgetbot for help. It answers.", title="Widgets Talk to Their Users", year=2023,
                   authors=["Ada Lovelace"])  # fmt: skip
    md = draft_files(_draft_of([a]), {"x1": a}, fmt="markdown")
    assert "“Ask @widgetbot for help.”" in md.text and md.keys == {"x1": "lovelace2023widgets"}


def test_a_paper_imported_from_zotero_is_cited_with_its_zotero_key(tmp_path, embedder):
    from zotero_fixture import build_zotero_db

    comp = pipeline_over(tmp_path / "home", [build_zotero_db(tmp_path)], embedder)
    conv = Conversation(comp.pipeline)
    turn = conv.related_work("mixture-of-experts routing")
    draft = _check_draft(turn, conv.papers)
    files = draft_files(draft, conv.papers)
    keyed = {conv.papers[pid].title: key for pid, key in files.keys.items()}
    assert keyed["Sparse Mixture-of-Experts Routing with Learned Capacity"] == "okafor2024sparse"  # Better BibTeX's
    assert set(cited_keys(files.text)) == {e.key for e in bibtexparser.parse_string(files.bib).entries}


@pytest.mark.parametrize(
    ("subject", "short"),
    [
        ("text-to-speech", "TTS"),
        ("reinforcement learning from human feedback", "RLHF"),
        ("large language models", "LLMs"),
    ],
)
def test_the_topics_own_abbreviation_names_no_group(subject: str, short: str):
    papers = [_paper("a", f"We train {short} with a reward model."), _paper("b", f"Our {short} uses a reward model.")]
    groups = group_papers(papers, subject, lambda p: [p.abstract], lambda w: 1.0)
    assert [name for name, _ in groups] == ["Reward model"]
