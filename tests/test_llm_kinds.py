"""LLM prose for every kind of answer: a summary of one paper, a summary of the papers on a topic,
a comparison and a "which papers" list, through the served route (the OpenAI-compatible API) with
the Ollama stand-in on 127.0.0.1 as the LLM, over the real seed store and embedder.

Each kind reaches the LLM with a prompt of evidence sentences within ``llm.prompt_tokens``, shows
the prose when the stand-in's reply states only what its sources state (``echo_sources``), and
falls back to the extractive answer, saying why, when the reply is unsupported, cut, or late. The
fast tests beside them check the parts on fakes: the prompt budget, the ordering of evidence,
Ollama's usage fields and the status line.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import pytest

from rag.llm.clients import QueuedLLM
from rag.llm.ollama import OllamaLLM
from rag.llm.prose import KINDS, ProseWriter, Source, interleave
from rag.route.answer import list_lines
from rag.settings import Settings
from rag.types import Answer, Evidence, LLMUsage, PaperHit
from store.papers import Paper
from tests.ollama_standin import OllamaStandin, echo_sources

MODEL = "llama3.2:3b"

# question -> (the answer's kind in the API's JSON, the words its prompt asks the LLM for)
KIND_QUESTIONS = {
    "summary": ("Summarize DocVAL", "summary", "Summarize DocVAL in three to five short sentences"),
    "topic": ("Summarize the papers on speech", "summary", "Write a short synthesis of these papers"),
    "compare": ("Compare DANCE and APM", "compare", "compares the papers on this:"),
    "list": ("Which papers work on speech or audio?", "list", "For each source in order, write one sentence"),
}
UNSUPPORTED = "The method reaches 99.9% accuracy on ImageNet with quantum annealing on protein folding [1]."


# --- fast: the parts ------------------------------------------------------------------------------


def _paper(pid: str, sentences: list[str]) -> Paper:
    return Paper(id=pid, title=f"Paper {pid}", label=f"Paper {pid}", abstract=" ".join(sentences))


def _source(number: int, paper: Paper, sentences: list[str]) -> Source:
    at, evidence = 0, []
    for s in sentences:
        start = paper.abstract.index(s, at)
        evidence.append(Evidence(paper.id, s, start, start + len(s), 1.0))
        at = start + len(s)
    return Source(number, PaperHit(paper, 1.0), evidence)


def _writer(llm, prompt_tokens: int) -> ProseWriter:
    settings = Settings()
    settings = settings.model_copy(update={"llm": settings.llm.model_copy(update={"prompt_tokens": prompt_tokens})})
    return ProseWriter(llm, settings, similarity=lambda a, b: __import__("numpy").ones((len(a), len(b))),
                       sentences=lambda hit: [hit.paper.abstract])  # fmt: skip


SENTENCES = [f"Sentence {i} of the abstract states finding number {i} about sparse routing." for i in range(6)]


def test_a_prompt_over_budget_drops_last_sentences_then_last_papers():
    papers = [_paper(f"p{k}", SENTENCES) for k in range(3)]
    sources = [_source(k + 1, p, SENTENCES[:3]) for k, p in enumerate(papers)]
    llm = QueuedLLM([])  # one token per word
    roomy, tight, tiny = _writer(llm, 4000), _writer(llm, 180), _writer(llm, 130)

    def build(shown):
        return "\n".join(f"[{k}] " + " ".join(e.sentence for e in s.evidence) for k, s in enumerate(shown, 1))

    _, shown, used = roomy.fit(build, sources)
    assert [len(s.evidence) for s in shown] == [3, 3, 3] and used <= 4000
    _, shown, used = tight.fit(build, sources)
    assert used <= 180 and len(shown) == 3 and max(len(s.evidence) for s in shown) < 3
    assert all(s.evidence == src.evidence[: len(s.evidence)] for s, src in zip(shown, sources, strict=False))
    _, shown, used = tiny.fit(build, sources)
    assert used <= 130 and len(shown) < 3 and [s.number for s in shown] == list(range(1, len(shown) + 1))


def test_long_sentences_are_clipped_before_a_paper_is_dropped():
    long = " ".join(f"word{i}" for i in range(40)) + "."
    papers = [_paper(f"p{k}", [long]) for k in range(4)]
    sources = [_source(k + 1, p, [long]) for k, p in enumerate(papers)]

    def build(shown):
        return "\n".join(f"[{k}] " + " ".join(e.sentence for e in s.evidence) for k, s in enumerate(shown, 1))

    system = len(_writer(None, 512).system_prompt.split())
    writer = _writer(QueuedLLM([]), system + 4 * 22)  # one token a word: room for four sentences of 20 words
    _, shown, used = writer.fit(build, sources)
    assert len(shown) == 4 and used <= writer.budget
    assert all(s.evidence[0].sentence.endswith(" …") and len(s.evidence[0].sentence.split()) <= 33 for s in shown)
    assert sources[0].evidence[0].sentence == long  # only the prompt is cut


def test_the_budget_never_exceeds_what_the_context_window_leaves():
    llm = QueuedLLM([], context_tokens=600)
    writer = _writer(llm, 4000)
    assert writer.budget == 600 - writer.settings.llm.max_answer_tokens - 64


def test_interleave_keeps_one_sentence_per_theme_before_a_second():
    paper = _paper("p", SENTENCES)
    ev = _source(1, paper, SENTENCES).evidence
    assert interleave([[ev[0], ev[1]], [ev[2]], [ev[3], ev[4]]]) == [ev[0], ev[2], ev[3], ev[1], ev[4]]
    assert interleave([[ev[0]], [ev[0], ev[1]]]) == [ev[0], ev[1]]  # a sentence serving two themes, once
    assert interleave([]) == []


def test_a_kind_of_answer_writes_in_the_answers_numbers_and_checks_each_sentence():
    paper = _paper("p", SENTENCES)
    source = _source(7, paper, SENTENCES[:2])  # numbered 7 in the conversation, [1] in the prompt
    llm = QueuedLLM([f"{SENTENCES[0].rstrip('.')} [1]."])
    prose = _writer(llm, 512).write_kind("summary", "Summarize P", "P", [source])
    assert prose.text.endswith("[7].") and prose.claims[0].cited == (7,) and prose.claims[0].supported
    assert "[1] Paper p:" in llm.calls[0][1]["content"]  # the prompt numbers its sources 1..n
    assert prose.usage is not None and prose.usage.prompt_tokens == prose.prompt_tokens <= 512
    with pytest.raises(ValueError, match="kind must be one of"):
        _writer(llm, 512).write_kind("poem", "q", "s", [source])
    assert set(KINDS) == {"summary", "topic", "compare", "list"}


def test_a_reply_stopped_before_a_whole_sentence_says_it_was_stopped_not_unsupported():
    from rag.llm.prose import STOPPED_NOTE

    paper = _paper("p", SENTENCES)
    source = _source(1, paper, SENTENCES[:2])
    stop, seen = threading.Event(), []

    def on_token(piece: str) -> None:
        seen.append(piece)
        if len(seen) == 3:  # the user presses Stop three words in
            stop.set()

    for kind in ("summary", "compare"):
        seen.clear()
        stop.clear()
        llm = QueuedLLM([f"{SENTENCES[0].rstrip('.')} [1]."])
        prose = _writer(llm, 512).write_kind(kind, "Summarize P", "P", [source], on_token=on_token, stop=stop)
        assert len(seen) == 3 and not prose.text and prose.note == STOPPED_NOTE
        assert "matched" not in prose.note and not prose.incomplete  # no failure of the model, nor a retry
    whole = _writer(QueuedLLM([f"{SENTENCES[0].rstrip('.')} [1]."]), 512).write_kind("summary", "q", "P", [source])
    assert whole.text and whole.note != STOPPED_NOTE  # not stopped: the same reply is the prose


def test_a_list_answer_gives_each_paper_its_line_and_what_they_share_after():
    text = list_lines(["A routes tokens [1].", "B probes layers [2].", "Both study transformers [1][2]."])
    assert text == "- A routes tokens [1].\n- B probes layers [2].\n\nBoth study transformers [1][2]."


def test_ollamas_usage_fields_reach_the_answer_with_tokens_per_second():
    reply = "DANCE improves accuracy by 2.33% [1]."
    with OllamaStandin(models=[MODEL], reply=reply, rates=(23.5, 9.5)) as server:
        llm = OllamaLLM(server.host, MODEL)
        usage = LLMUsage(prompt_tokens=100, budget=512)
        text = "".join(llm.stream([{"role": "user", "content": "x" * 400}], usage=usage))
    assert text == reply
    assert usage.prompt_eval_count == 100 and usage.eval_count == len(reply.split())
    assert usage.prompt_rate == pytest.approx(23.5, rel=0.01) and usage.output_rate == pytest.approx(9.5, rel=0.01)
    line = usage.describe()
    assert line.startswith("prompt 100 of 512 tokens (server read 100 in 4.3 s, 23.5 tokens/s)")
    assert "output 6 tokens in 0.6 s (9.5 tokens/s)" in line
    data = usage.to_dict()
    assert data["prompt_eval_count"] == 100 and data["output_tokens_per_second"] == pytest.approx(9.5, rel=0.01)


def test_an_unfinished_reply_reports_no_server_usage():
    with OllamaStandin(models=[MODEL], reply="cut here", mode="cut_without_done") as server:
        usage = LLMUsage(prompt_tokens=5, budget=512)
        with pytest.raises(Exception, match="incomplete"):
            "".join(OllamaLLM(server.host, MODEL).stream([{"role": "user", "content": "hi"}], usage=usage))
    assert usage.prompt_eval_count is None and usage.describe() == "prompt 5 of 512 tokens"


def test_the_status_lines_say_what_the_reply_cost():
    from ui.chat import status_line
    from ui.render import render_answer

    usage = LLMUsage(120, 512, 110, 4.4, 40, 4.0, 0.1, 8.5)
    ans = Answer(question="q", text="t", backend=f"ollama:{MODEL}", note="1 of 1 LLM sentences match", usage=usage)
    assert "prompt 120 of 512 tokens (server read 110 in 4.4 s, 25.0 tokens/s)" in status_line(ans)
    assert "output 40 tokens in 4.0 s (10.0 tokens/s)" in render_answer(ans)
    assert "tokens" not in status_line(replace(ans, usage=None))


# --- slow: each kind through the served route -------------------------------------------------------


@contextmanager
def _served(extractive, server: OllamaStandin, deadline: float = 60.0) -> Iterator:
    """The API over the seed pipeline whose LLM is the stand-in; yields an openai client."""
    from tests.test_api import api

    llm = OllamaLLM(server.host, MODEL, timeout=30.0, deadline=deadline)
    c = extractive
    pipeline = c.answerer(llm, "stand-in")
    with api(replace(c, pipeline=pipeline)) as client:
        yield client


def _ask(client, question: str) -> dict:
    reply = client.chat.completions.create(model="paperchat", messages=[{"role": "user", "content": question}])
    return reply.model_extra["paperchat"]


@pytest.fixture(scope="module")
def extractive_answers(extractive) -> dict[str, Answer]:
    """Each kind's question answered without an LLM (the fallback every failure must equal)."""
    return {kind: extractive.ask(q) for kind, (q, _, _) in KIND_QUESTIONS.items()}


@pytest.mark.slow
@pytest.mark.parametrize("kind", list(KIND_QUESTIONS))
def test_each_kind_shows_the_llms_prose_when_its_sentences_are_supported(extractive, extractive_answers, kind):
    question, answer_kind, asks = KIND_QUESTIONS[kind]
    plain = extractive_answers[kind]
    with OllamaStandin(models=[MODEL], reply=echo_sources, rates=(23.5, 9.5)) as server, _served(
        extractive, server
    ) as client:
        got = _ask(client, question)
        prompt = server.chat_requests[-1]["messages"]
    assert got["kind"] == answer_kind and got["backend"] == f"ollama:{MODEL}"
    assert asks in prompt[1]["content"]
    # the prompt carries evidence sentences of the cited papers, never a whole abstract
    papers = {c.label: extractive.retriever.papers[c.paper_id] for c in plain.citations}
    block = prompt[1]["content"].split("<sources>")[1].split("</sources>")[0].strip().splitlines()
    assert block and len(block) <= len(papers)
    for line in block:
        label, said = line.split(" ", 1)[1].split(": ", 1)
        first = said.removesuffix(" …").split(". ")[0]  # a long sentence may be clipped
        assert first in papers[label].abstract and len(said) < len(papers[label].abstract)
    k, n = got["claims_supported"]
    assert k == n > 0 and f"{k} of {n} LLM sentences match their cited evidence" in got["note"]
    assert [c["paper_id"] for c in got["citations"]] == plain.cited_ids  # the same papers, the same numbers
    assert got["text"] != plain.text and "“" in got["text"]  # the prose, with the quotes under it
    usage = got["llm_usage"]
    assert usage["prompt_tokens"] <= usage["budget"] == extractive.settings.llm.prompt_tokens
    assert usage["prompt_eval_count"] > 0 and usage["eval_count"] > 0
    assert usage["prompt_tokens_per_second"] == pytest.approx(23.5, rel=0.02)
    assert usage["output_tokens_per_second"] == pytest.approx(9.5, rel=0.02)


@pytest.mark.slow
@pytest.mark.parametrize("kind", list(KIND_QUESTIONS))
@pytest.mark.parametrize(
    ("failure", "standin", "deadline", "why"),
    [
        ("unsupported", {"reply": UNSUPPORTED}, 60.0, "No sentence of the LLM's matched its cited evidence"),
        ("cut", {"reply": echo_sources, "mode": "cut_without_done"}, 60.0, "stream ended without Ollama's final"),
        ("late", {"reply": echo_sources, "mode": "trickle", "chunk_delay": 0.05}, 1.5, "no complete reply within 1.5"),
    ],
)
def test_each_kind_falls_back_to_its_extractive_answer_and_says_why(
    extractive, extractive_answers, kind, failure, standin, deadline, why
):
    question, answer_kind, _ = KIND_QUESTIONS[kind]
    plain = extractive_answers[kind]
    with OllamaStandin(models=[MODEL], **standin) as server, _served(extractive, server, deadline) as client:
        t0 = time.perf_counter()
        got = _ask(client, question)
        took = time.perf_counter() - t0
        assert server.chat_requests, "the LLM was asked"
    assert got["backend"] == f"ollama:{MODEL} -> extractive" and got["kind"] == answer_kind
    assert got["text"] == plain.text  # the extractive answer, unchanged
    assert why in got["note"]
    assert bool(got["incomplete"]) == (failure != "unsupported")
    if failure == "late":
        assert took < deadline + 10  # the deadline bounds the wait (retrieval and evidence besides)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["summary", "compare"])
def test_a_summary_and_a_comparison_stream_and_stop(extractive, kind):
    """Pieces stream to ``on_token`` (what the page shows as it writes) and Stop ends the reply on
    the server (the stand-in sees the client hang up)."""
    question = KIND_QUESTIONS[kind][0]
    with OllamaStandin(models=[MODEL], reply=echo_sources, mode="trickle", chunk_delay=0.05) as server:
        pipeline = extractive.answerer(OllamaLLM(server.host, MODEL, deadline=60.0), "stand-in")
        pieces: list[str] = []
        stop = threading.Event()

        def on_token(piece: str) -> None:
            pieces.append(piece)
            if len(pieces) == 5:
                stop.set()

        t0 = time.perf_counter()
        turn = extractive.conversation(pipeline).ask(question, on_token=on_token, stop=stop)
        took = time.perf_counter() - t0
        assert server.streams and server.streams[-1].finished.wait(5)
        assert server.streams[-1].client_disconnected
    assert len(pieces) >= 5 and took < 30
    assert turn.answer.kind == KIND_QUESTIONS[kind][1] and turn.answer.cited_ids


def test_every_kind_has_its_prompt_file():
    from prompts import PROMPT_DIR, load_prompt

    for kind in KINDS:
        assert (Path(PROMPT_DIR) / f"{kind}.txt").is_file()
        assert load_prompt(kind).variables == frozenset({"sources", "question", "subject"})


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["summary", "compare"])
def test_the_page_streams_a_summary_and_a_comparison_and_stop_ends_them(extractive, kind):
    """The served page with Ollama chosen under Settings: a summary or a comparison shows its prose
    as it streams (the chat's last message ends with the cursor), Stop ends the reply on the
    server, and a finished one's status line says what it cost."""
    from gradio_client import Client

    from tests.conftest import served
    from tests.test_ui_app import CHAT, DETAILS, STATUS, last_text

    question = KIND_QUESTIONS[kind][0]
    with OllamaStandin(models=[MODEL], reply=echo_sources, chunk_delay=0.05, rates=(23.5, 9.5)) as server:
        s = extractive.settings
        settings = s.model_copy(update={"llm": s.llm.model_copy(update={"ollama_host": server.host})})
        with served(replace(extractive, settings=settings)) as url:
            page = Client(url, verbose=False, download_files=False)
            done = page.predict(question, "ollama", MODEL, 5, api_name="/ask")
            assert done[DETAILS]["backend"] == f"ollama:{MODEL}" and done[DETAILS]["kind"] == KIND_QUESTIONS[kind][1]
            assert "LLM sentences match their cited evidence" in done[STATUS]
            assert "tokens/s" in done[STATUS] and "prompt " in done[STATUS]

            server.mode = "trickle"  # the next reply never ends on its own
            job = page.submit(question, "ollama", MODEL, 5, api_name="/ask")
            t0 = time.perf_counter()
            streamed = False
            while not streamed and time.perf_counter() - t0 < 60:
                streamed = any(o[CHAT] and last_text(o).endswith("▌") for o in job.outputs())
                time.sleep(0.05)
            assert streamed, "no streamed prose before the answer"
            stopped = page.predict(api_name="/stop")
            job.result(timeout=60)
            assert stopped[STATUS].startswith("**Stopped.**")
            assert server.streams[-1].finished.wait(10) and server.streams[-1].client_disconnected


# --- table cell values (paperchat table --values) -------------------------------------------------

_CELL = re.compile(r"^\[(\d+)\] [^:\n]+: (.+)$", re.M)


def _values_reply(messages: list[dict]) -> str:
    """A model shortening each cell to its first three words, except every third cell, for which it
    writes words the cell does not state."""
    block = messages[-1]["content"].split("<sources>", 1)[1].split("</sources>", 1)[0]
    return "\n".join(
        f"[{n}] " + (" ".join(text.split()[:3]) if int(n) % 3 else "quantum annealing gains")
        for n, text in _CELL.findall(block)
    )


def test_cell_values_are_asked_in_prompts_within_the_budget_and_parsed_per_cell():
    from rag.llm.values import propose_values

    cells = [(f"column {k}", SENTENCES[k % 6]) for k in range(12)]
    llm = QueuedLLM(["[1] Sentence 0 of\n[2] -\n[3] finding number 2", "[1] Sentence 3 of", "", ""])
    settings = _writer(None, 260).settings
    got = propose_values(llm, settings, cells)
    assert got.prompts == len(llm.calls) >= 2  # twelve cells do not fit one prompt of 260 tokens
    assert all(sum(llm.count_tokens(m["content"]) for m in call) <= 260 for call in llm.calls)
    assert got.values[:3] == ["Sentence 0 of", "", "finding number 2"]
    first_of_second = sum(1 for line in llm.calls[0][1]["content"].splitlines() if _CELL.match(line))
    assert got.values[first_of_second] == "Sentence 3 of"
    assert got.usage.replies == got.prompts and "prompts" in got.usage.describe()


@pytest.mark.slow
def test_a_table_with_values_shows_a_value_only_where_every_word_stands_in_its_cell(extractive):
    from rag.evidence.table import value_supported

    with OllamaStandin(models=[MODEL], reply=_values_reply) as server:
        pipeline = extractive.answerer(OllamaLLM(server.host, MODEL), "stand-in")
        turn = extractive.conversation(pipeline).table("speech", columns=["benchmark", "main result"], values=True)
        plain = extractive.conversation().table("speech", columns=["benchmark", "main result"])
        assert server.chat_requests
    table, before = turn.paper_table, plain.paper_table
    assert table is not None and before is not None
    valued = [c for row in table.cells for c in row if c.value]
    assert valued and all(value_supported(c.value, c.evidence) for c in valued)
    assert not any("quantum" in c.value for c in valued)  # the unsupported values were not shown
    assert [[c.evidence for c in row] for row in table.cells] == [[c.evidence for c in row] for row in before.cells]
    assert "cell values: kept" in turn.answer.note and turn.answer.backend == f"ollama:{MODEL}"
    assert turn.answer.usage is not None and turn.answer.usage.replies == len(server.chat_requests)
    without = extractive.conversation().table("speech", columns=["benchmark"], values=True)
    assert "no cell values: no LLM" in without.answer.note and without.answer.text == extractive.conversation().table(
        "speech", columns=["benchmark"]
    ).answer.text


@pytest.mark.slow
def test_paperchat_table_values_through_the_command_line(seed_settings, seed_store):
    import os

    from conftest import run_cli

    with OllamaStandin(models=[MODEL], reply=_values_reply) as server:
        env = dict(os.environ, PAPERCHAT_HOME=str(seed_settings.home), OLLAMA_HOST=server.host, PAPERCHAT_LOCAL="1")
        out = run_cli(env, "table", "speech", "--columns", "benchmark", "--values", "--json")
        assert out.returncode == 0, out.stderr
        assert server.chat_requests
    data = __import__("json").loads(out.stdout)
    assert "cell values: kept" in data["note"] and data["backend"] == f"ollama:{MODEL}"


# --- a question in another language -----------------------------------------------------------------

GERMAN = "Welche Arbeiten befassen sich mit Sprache oder Audio?"
ENGLISH = "Which papers work on speech or audio?"


def _translating(translation: str):
    """A model that translates with ``translation`` (whatever it is asked to translate) and otherwise
    writes only what its sources state."""

    def reply(messages: list[dict]) -> str:
        if messages[-1]["content"].startswith("Translate this question"):
            return translation
        return echo_sources(messages)

    return reply


@pytest.mark.slow
def test_a_question_in_another_language_is_translated_by_the_llm_and_says_so(extractive):
    english = extractive.ask(ENGLISH)
    without = extractive.ask(GERMAN)
    assert without.refused  # no LLM: only names could be found, and it states none
    with OllamaStandin(models=[MODEL], reply=_translating(ENGLISH)) as server, _served(extractive, server) as client:
        got = _ask(client, GERMAN)
        assert GERMAN in server.chat_requests[0]["messages"][0]["content"]  # the first reply asked: the translation
    assert [c["paper_id"] for c in got["citations"]] == english.cited_ids
    assert got["text"].endswith(f"Translated from your question by the LLM: “{ENGLISH}”. The quotes are the "
                                "abstracts' own words.")  # fmt: skip
    assert got["note"].startswith(f"question translated by the LLM: “{ENGLISH}”")
    assert got["question"] == GERMAN


@pytest.mark.slow
def test_a_translation_that_is_not_english_either_leaves_the_question_as_it_was(extractive):
    without = extractive.ask(GERMAN)
    with OllamaStandin(models=[MODEL], reply=_translating(GERMAN)) as server, _served(extractive, server) as client:
        got = _ask(client, GERMAN)
        (request,) = server.chat_requests  # the translation only
        spent = _standin_counts(server, [request])
    assert got["text"] == without.text and got["refused"]
    usage = got["llm_usage"]  # the translation was asked: what it cost is counted, though it was not used
    assert (usage["replies"], usage["prompt_eval_count"], usage["eval_count"]) == (1, *spent)


def _standin_counts(server: OllamaStandin, requests: list[dict]) -> tuple[int, int]:
    """``(prompt tokens, output tokens)`` the stand-in reported for ``requests`` (its final messages'
    ``prompt_eval_count`` and ``eval_count``: characters of the messages / 4, pieces of the reply)."""
    prompt = sum(sum(len(str(m["content"])) for m in r["messages"]) // 4 for r in requests)
    return prompt, sum(len(server.pieces_for(r["messages"])) for r in requests)


@pytest.mark.slow
def test_the_cost_of_a_translation_is_added_to_the_answers(extractive):
    """A translated question makes two replies, the translation and the prose: the answer's
    ``llm_usage`` (the status line, ``--json``, the API) adds both up, and says so."""
    with OllamaStandin(models=[MODEL], reply=_translating(ENGLISH), rates=(23.5, 9.5)) as server, _served(
        extractive, server
    ) as client:
        got = _ask(client, GERMAN)
        translation, prose = server.chat_requests
        spent = _standin_counts(server, [translation, prose])
        alone = _standin_counts(server, [prose])
    usage = got["llm_usage"]
    assert (usage["replies"], usage["prompt_eval_count"], usage["eval_count"]) == (2, *spent)
    assert spent[0] > alone[0] and spent[1] > alone[1]  # more than the prose's reply alone
    assert usage["budget"] == extractive.settings.llm.prompt_tokens and usage["prompt_tokens"] > 0
    assert usage["output_tokens_per_second"] == pytest.approx(9.5, rel=0.02)  # both replies' seconds too
    assert got["backend"] == f"ollama:{MODEL}"


# --- the API's OpenAI ``usage`` -----------------------------------------------------------------------


@pytest.mark.slow
def test_the_apis_usage_field_counts_the_llms_tokens_plain_and_streamed(extractive):
    """``usage`` of a chat completion, read by the official openai client: the stand-in's
    ``prompt_eval_count`` and ``eval_count``; streamed, in a last chunk when ``include_usage`` asks."""
    question = KIND_QUESTIONS["summary"][0]
    with OllamaStandin(models=[MODEL], reply=echo_sources) as server, _served(extractive, server) as client:
        messages = [{"role": "user", "content": question}]
        reply = client.chat.completions.create(model="paperchat", messages=messages)
        prompt, completion = _standin_counts(server, server.chat_requests[-1:])
        chunks = list(
            client.chat.completions.create(
                model="paperchat", messages=messages, stream=True, stream_options={"include_usage": True}
            )
        )
        plain_stream = list(client.chat.completions.create(model="paperchat", messages=messages, stream=True))
    assert prompt > 0 and completion > 0
    usage = reply.usage
    assert usage is not None and (usage.prompt_tokens, usage.completion_tokens) == (prompt, completion)
    assert usage.total_tokens == prompt + completion
    assert reply.model_extra["paperchat"]["llm_usage"]["eval_count"] == completion
    last = chunks[-1]
    assert last.choices == [] and last.usage is not None and last.usage.total_tokens == prompt + completion
    assert all(c.usage is None for c in chunks[:-1]) and all(c.usage is None for c in plain_stream)


# --- borderline members judged by the LLM (llm.judge_borderline, off by default) ---------------------


def _judging(verdict: str):
    """A model answering ``verdict`` to every membership question, and otherwise writing only what
    its sources state."""

    def reply(messages: list[dict]) -> str:
        return verdict if "Reply with one word: yes or no" in messages[-1]["content"] else echo_sources(messages)

    return reply


@pytest.mark.slow
@pytest.mark.parametrize("verdict", ["yes", "no"])
def test_borderline_members_move_across_the_threshold_as_the_llm_judges_them(extractive, verdict):
    rs = extractive.settings.retrieval
    plan = extractive.reader.read(ENGLISH)
    hits = extractive.retriever.search(plan.topic.search).hits[: rs.candidates]
    scored = extractive.pipeline.membership.members(plan.topic.text, plan.topic.facets, hits, 0.0, True)
    from rag.llm.judge import BORDERLINE_BAND

    near = {h.paper.id for h, p in scored if abs(p - rs.set_membership) <= BORDERLINE_BAND}
    assert near, "the test needs a borderline paper"
    before = set(extractive.ask(ENGLISH).cited_ids)
    with OllamaStandin(models=[MODEL], reply=_judging(verdict)) as server:
        s = extractive.settings
        settings = s.model_copy(update={"llm": s.llm.model_copy(update={"judge_borderline": 3})})
        pipeline = replace(extractive, settings=settings).answerer(OllamaLLM(server.host, MODEL), "stand-in")
        got = extractive.conversation(pipeline).ask(ENGLISH).answer
        judged = [r for r in server.chat_requests if "yes or no" in r["messages"][-1]["content"]]
        again = extractive.conversation(pipeline).ask(ENGLISH).answer
        judged_again = [r for r in server.chat_requests if "yes or no" in r["messages"][-1]["content"]]
    assert 0 < len(judged) <= min(3, len(near)) and len(judged_again) == len(judged)  # cached
    cited = set(got.cited_ids)
    assert cited == (before | near if verdict == "yes" else before - near)
    assert set(again.cited_ids) == cited and "borderline paper" in got.note


@pytest.mark.slow
def test_without_the_setting_no_membership_is_judged(extractive):
    with OllamaStandin(models=[MODEL], reply=_judging("yes")) as server:
        pipeline = extractive.answerer(OllamaLLM(server.host, MODEL), "stand-in")
        got = extractive.conversation(pipeline).ask(ENGLISH).answer
        assert not [r for r in server.chat_requests if "yes or no" in r["messages"][-1]["content"]]
    assert got.cited_ids == extractive.ask(ENGLISH).cited_ids


# --- a topic no abstract's words state, rewritten by the LLM (llm.expand_topics, off by default) ------

UNSAID = "Which papers study quadcopters?"


def _rewriting(words: str):
    """A model rewriting any topic as ``words``, and otherwise writing only what its sources state."""

    def reply(messages: list[dict]) -> str:
        return words if messages[-1]["content"].startswith("Rewrite this research topic") else echo_sources(messages)

    return reply


@pytest.mark.slow
def test_a_topic_no_abstract_states_is_searched_as_the_llm_rewrites_it_when_asked(extractive):
    from rag.text import content_terms

    topic = extractive.reader.read(UNSAID).topic.text
    assert not any(extractive.retriever.document_frequency(t) for t in content_terms(topic))
    plain = extractive.ask(UNSAID)
    rewritten = extractive.ask("Which papers work on speech synthesis?")
    s = extractive.settings
    on = replace(extractive, settings=s.model_copy(update={"llm": s.llm.model_copy(update={"expand_topics": True})}))
    with OllamaStandin(models=[MODEL], reply=_rewriting("speech synthesis")) as server:
        llm = OllamaLLM(server.host, MODEL)
        got = extractive.conversation(on.answerer(llm, "stand-in")).ask(UNSAID).answer
        off = extractive.conversation(extractive.answerer(llm, "stand-in")).ask(UNSAID).answer
        rewrites = [r for r in server.chat_requests if r["messages"][-1]["content"].startswith("Rewrite")]
    assert len(rewrites) == 1 and topic in rewrites[0]["messages"][-1]["content"]
    assert got.cited_ids == rewritten.cited_ids and "searched as the LLM put it, “speech synthesis”" in got.note
    assert off.text == plain.text and off.refused == plain.refused  # off by default: nothing changes
