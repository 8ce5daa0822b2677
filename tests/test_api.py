"""The OpenAI-compatible API (``paperchat serve``) through the official ``openai`` client: the same
cited papers and evidence as ``paperchat ask``, streaming, follow-ups, models, keys, and 20
conversations at once. Real Chroma on disk, the real embedder, extractive answers (one test
streams prose from the Ollama stand-in)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import replace

import pytest
from click.testing import CliRunner
from openai import AuthenticationError, NotFoundError, OpenAI

from rag.llm.prose import REFUSAL
from tests.conftest import DEV, NAMED_FACTS, cited_evidence, free_port
from ui.api import create_app, start
from ui.bind import check_api_bind
from ui.service import Library

pytestmark = pytest.mark.slow

FOLLOW_UP = "What datasets does it use?"


@contextmanager
def api(components, **kw) -> Iterator[OpenAI]:
    """The API over ``components`` on a free loopback port, and an openai client for it."""
    port = free_port()
    app = create_app(Library(components), **kw)
    server = start(app, "127.0.0.1", port, block=False)
    try:
        yield OpenAI(base_url=f"http://127.0.0.1:{port}/v1", api_key=kw.get("api_key") or "unused", max_retries=0,
                     timeout=300)  # fmt: skip
    finally:
        server.should_exit = True


@pytest.fixture(scope="module")
def client(extractive) -> Iterator[OpenAI]:
    with api(extractive) as c:
        yield c


def _ask(client: OpenAI, *messages: str, replies: list[str] | None = None):
    """A chat completion for user ``messages`` (earlier assistant ``replies`` between them)."""
    history: list[dict[str, str]] = []
    for i, m in enumerate(messages):
        history.append({"role": "user", "content": m})
        if i < len(messages) - 1:
            history.append({"role": "assistant", "content": (replies or [])[i] if replies else "(earlier answer)"})
    return client.chat.completions.create(model="paperchat", messages=history)  # type: ignore[arg-type]


def test_twenty_conversations_at_once_each_follow_up_cites_its_own_paper(client):
    """20 conversations in parallel threads (20 clients), each a question describing one paper, then
    "what datasets does it use?": all 40 answered, each follow-up about the paper its own
    conversation cited first, quoted or said not to state its data (no state shared between
    conversations, none lost)."""
    convs = [q for q in map(json.loads, DEV.read_text(encoding="utf-8").splitlines()) if q["kind"] == "paraphrase"][:20]

    def converse(q: dict) -> tuple[list[str], list[str]]:
        first = _ask(client, q["question"])
        follow = _ask(client, q["question"], FOLLOW_UP, replies=[first.choices[0].message.content or ""])
        ids = [[c["paper_id"] for c in r.model_extra["paperchat"]["citations"]] for r in (first, follow)]
        text = follow.choices[0].message.content or ""
        if not ids[1] and ids[0] and f"({ids[0][0]}) does not state" in text:
            # a paper whose abstract states no data (a theory paper): "The abstract of X (id) does
            # not state the datasets it uses", about the paper its conversation cited first
            ids[1] = ids[0][:1]
        return ids[0], ids[1]

    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=20) as pool:
        results = list(pool.map(converse, convs))
    seconds = time.perf_counter() - t0
    assert len(results) == 20 and all(first and follow for first, follow in results), results  # 40 answers
    for q, (first, follow) in zip(convs, results, strict=True):
        assert follow == first[:1], q["qid"]
    firsts = {first[0] for first, _ in results}
    assert len(firsts) >= 15  # the conversations are about different papers
    assert seconds < 240, f"20 conversations took {seconds:.0f} s"
    print(f"\n20 concurrent conversations (40 answers) in {seconds:.1f} s")


def test_every_named_fact_answer_equals_paperchat_ask(client, named_fact_answers):
    reference = named_fact_answers()
    same = 0
    for q in NAMED_FACTS:
        done = _ask(client, q["question"])
        extra = done.model_extra["paperchat"]
        want = reference[q["qid"]]
        assert cited_evidence(extra) == cited_evidence(want), q["qid"]
        assert (extra["text"], extra["refused"]) == (want["text"], want["refused"]), q["qid"]
        content = done.choices[0].message.content or ""
        assert content.startswith(want["text"]) and "\nSources:\n" in content
        assert all(f"[{c['number']}] {c['label']} — {c['paper_id']}" in content for c in want["citations"])
        same += 1
    assert same == len(NAMED_FACTS) == 23


def test_a_streamed_reply_is_the_plain_reply_in_pieces_with_the_citations_last(client):
    question = NAMED_FACTS[0]["question"]
    plain = _ask(client, question)
    stream = client.chat.completions.create(
        model="paperchat", messages=[{"role": "user", "content": question}], stream=True
    )
    chunks = list(stream)
    text = "".join(c.choices[0].delta.content or "" for c in chunks)
    assert text == plain.choices[0].message.content
    assert len(chunks) > 3 and chunks[0].choices[0].delta.role == "assistant"
    assert chunks[-1].choices[0].finish_reason == "stop"
    assert cited_evidence(chunks[-1].model_extra["paperchat"]) == cited_evidence(plain.model_extra["paperchat"])


def test_an_answer_without_an_llm_reports_zero_tokens_of_usage(client):
    question = NAMED_FACTS[0]["question"]
    usage = _ask(client, question).usage  # read by the official openai client
    assert usage is not None and (usage.prompt_tokens, usage.completion_tokens, usage.total_tokens) == (0, 0, 0)
    chunks = list(
        client.chat.completions.create(
            model="paperchat", messages=[{"role": "user", "content": question}], stream=True,
            stream_options={"include_usage": True},
        )
    )  # fmt: skip
    assert chunks[-1].choices == [] and chunks[-1].usage is not None and chunks[-1].usage.total_tokens == 0


def test_a_follow_up_resolves_to_the_paper_of_the_earlier_turn(client, extractive):
    q = NAMED_FACTS[1]  # about APM
    first = _ask(client, q["question"])
    follow = _ask(client, q["question"], FOLLOW_UP, replies=[first.choices[0].message.content or ""])
    extra = follow.model_extra["paperchat"]
    assert [c["paper_id"] for c in extra["citations"]] == q["gold_ids"]
    assert extra["interpreted_as"] != FOLLOW_UP  # "it" was spelled out
    # A server that keeps no conversation rebuilds each from its user messages: same answer.
    with api(extractive, conversations=0) as forgetful:
        again = _ask(forgetful, q["question"], FOLLOW_UP)
    assert cited_evidence(again.model_extra["paperchat"]) == cited_evidence(extra)


def test_a_question_the_papers_do_not_answer_is_refused_with_nothing_cited(client):
    done = _ask(client, "What is the boiling point of water on Mars?")
    extra = done.model_extra["paperchat"]
    assert extra["refused"] and not extra["citations"]
    assert (done.choices[0].message.content or "").startswith(REFUSAL)


def test_a_year_the_question_states_filters_unless_the_request_turns_it_off(client):
    # the seed papers are of 2026: as `paperchat ask` and the page, the API takes the year stated
    # as a filter, says so in the note, and the request's extra field turns it off
    q = [{"role": "user", "content": "Which papers from 2025 work on speech or audio?"}]
    stated = client.chat.completions.create(model="paperchat", messages=q)  # type: ignore[arg-type]
    kept = client.chat.completions.create(
        model="paperchat", messages=q, extra_body={"paperchat": {"auto": False}}  # type: ignore[arg-type]
    )
    said, got = stated.model_extra["paperchat"], kept.model_extra["paperchat"]
    assert said["refused"] and 'filter: year=2025 (remove with "paperchat": {"auto": false})' in said["note"]
    assert not got["refused"] and got["citations"] and "year=2025" not in got["note"]


def test_models_lists_paperchat_and_other_models_are_not_found(client):
    assert [m.id for m in client.models.list()] == ["paperchat"]
    with pytest.raises(NotFoundError):
        client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": "hi"}])


def test_a_key_is_required_off_loopback_and_a_wrong_key_gets_401(extractive):
    with pytest.raises(ValueError, match="--api-key"):
        check_api_bind("0.0.0.0", "")
    check_api_bind("0.0.0.0", "k3y")
    check_api_bind("127.0.0.1", "")
    from ui.cli import main

    refused = CliRunner().invoke(main, ["serve", "--host", "0.0.0.0"], env={"PAPERCHAT_API_KEY": ""})
    assert refused.exit_code == 1 and "without an API key" in refused.output
    with api(extractive, api_key="k3y") as good:
        assert [m.id for m in good.models.list()] == ["paperchat"]
        wrong = good.with_options(api_key="wrong")
        with pytest.raises(AuthenticationError) as err:
            wrong.models.list()
        assert err.value.status_code == 401 and "Bearer" in str(err.value)


def test_prose_from_an_llm_streams_through_the_api(extractive, monkeypatch):
    from rag.llm.ollama import OllamaLLM
    from rag.route.answer import AnswerPipeline
    from tests.ollama_standin import OllamaStandin

    monkeypatch.setattr("ui.api.KEEP_ALIVE", 0.05)  # keep-alive comments while the LLM writes: ignored by clients
    reply = "DANCE improves accuracy by 2.33% at an 8% condensation ratio [1]."
    with OllamaStandin(models=["llama3.2:3b"], reply=reply, chunk_delay=0.05) as server:
        llm = OllamaLLM(host=server.host, model="llama3.2:3b")
        c = extractive
        pipeline = AnswerPipeline(c.retriever, c.pipeline.evidence, llm, c.settings, llm_note="stand-in")
        with api(replace(c, pipeline=pipeline)) as client:
            stream = client.chat.completions.create(
                model="paperchat",
                messages=[{"role": "user", "content": "What accuracy gain does DANCE report, and at what ratio?"}],
                stream=True,
            )
            chunks = list(stream)
        assert server.chat_requests, "the LLM was asked"
    text = "".join(ch.choices[0].delta.content or "" for ch in chunks)
    extra = chunks[-1].model_extra["paperchat"]
    assert extra["backend"].startswith("ollama") and "2.33%" in text and "[1]" in text
    assert text.startswith(extra["text"].rstrip()) and [c["paper_id"] for c in extra["citations"]] == [
        "000_6b930c46f6674b66#1"
    ]
