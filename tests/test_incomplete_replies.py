"""A reply that never finished is never an answer: the stand-in Ollama server's ending modes, each
ended within its deadline with the right state, and the answer pipeline falling back to evidence."""

from __future__ import annotations

import time

import pytest

from rag.llm.clients import LLMError, LLMIncomplete, QueuedLLM
from rag.llm.ollama import OllamaLLM
from tests.ollama_standin import OllamaStandin

MODEL = "llama3.2:3b"
ASK = [{"role": "user", "content": "What is attention?"}]
REPLY = "Attention weighs tokens against each other [1]."


def _run(server: OllamaStandin, deadline: float, timeout: float = 10.0) -> tuple[str, LLMError | None, float]:
    """Stream one reply; ``(text, error, seconds)``."""
    llm = OllamaLLM(host=server.host, model=MODEL, timeout=timeout, deadline=deadline)
    got: list[str] = []
    started = time.monotonic()
    try:
        for piece in llm.stream(ASK):
            got.append(piece)
    except LLMError as exc:
        return "".join(got), exc, time.monotonic() - started
    finally:
        llm.close()
    return "".join(got), None, time.monotonic() - started


def test_normal_mode_completes():
    with OllamaStandin(models=[MODEL], reply=REPLY, mode="normal") as server:
        text, error, seconds = _run(server, deadline=5)
    assert error is None and text == REPLY and seconds < 5
    assert server.streams[0].completed


def test_stream_without_the_final_done_message_is_incomplete():
    with OllamaStandin(models=[MODEL], reply=REPLY, mode="cut_without_done") as server:
        text, error, seconds = _run(server, deadline=5)
    assert isinstance(error, LLMIncomplete) and "final message" in error.reason
    assert error.partial == REPLY == text and seconds < 5
    assert "incomplete" in error.note and "answered from the evidence" in error.note


def test_connection_cut_mid_body_is_incomplete():
    with OllamaStandin(models=[MODEL], reply=REPLY, mode="cut_mid_body") as server:
        _, error, seconds = _run(server, deadline=5)
    assert isinstance(error, LLMIncomplete) and "cut" in error.reason, error
    assert error.partial == REPLY and seconds < 5


def test_a_reply_that_trickles_forever_ends_at_the_deadline():
    with OllamaStandin(models=[MODEL], reply=REPLY, mode="trickle", chunk_delay=0.05) as server:
        text, error, seconds = _run(server, deadline=1.0)
        record = server.streams[-1]
        assert record.finished.wait(3)
    assert isinstance(error, LLMIncomplete) and "llm.deadline" in error.reason
    assert 1.0 <= seconds < 1.6, seconds
    assert record.sent > 10 and not record.completed and record.client_disconnected
    assert text.startswith(REPLY)


def test_slow_first_byte_within_the_deadline_completes():
    with OllamaStandin(models=[MODEL], reply=REPLY, mode="slow_first_byte", first_byte_delay=0.5) as server:
        text, error, seconds = _run(server, deadline=3.0)
    assert error is None and text == REPLY and 0.5 <= seconds < 3.0


def test_slow_first_byte_past_the_deadline_is_incomplete_at_the_deadline():
    with OllamaStandin(models=[MODEL], reply=REPLY, mode="slow_first_byte", first_byte_delay=5.0) as server:
        text, error, seconds = _run(server, deadline=1.0)
    assert isinstance(error, LLMIncomplete) and "llm.deadline" in error.reason
    assert text == "" and 1.0 <= seconds < 1.6, seconds


def test_the_standin_rejects_an_unknown_mode():
    with pytest.raises(ValueError, match="mode"):
        OllamaStandin(mode="sometimes")


# --- the answer ---------------------------------------------------------------------------------


def test_an_incomplete_reply_is_not_the_answer_the_evidence_is(seed_settings, embedder, seed_store):
    from rag.pipeline import build_pipeline

    # The cut reply would pass the claim check: it is DANCE's own result sentence, cited.
    cut = LLMIncomplete("the stream ended without Ollama's final message", "DANCE improves accuracy by 2.33% [1]")
    comp = build_pipeline(seed_settings, embedder=embedder, store=seed_store, llm=QueuedLLM([cut]))
    ans = comp.ask("What accuracy gain does DANCE report?")
    assert ans.incomplete == cut.reason
    assert ans.backend.endswith("-> extractive") and not ans.claims
    assert ans.note.startswith("The LLM's reply was incomplete (the stream ended without")
    assert ans.cited_ids == ["000_6b930c46f6674b66#1"] and "“" in ans.text  # quoted evidence, not the prose
    assert ans.to_dict()["incomplete"] == cut.reason

    complete = build_pipeline(seed_settings, embedder=embedder, store=seed_store, llm=QueuedLLM(["DANCE works [1]."]))
    assert complete.ask("What accuracy gain does DANCE report?").incomplete == ""


def test_the_embedded_model_past_its_time_limit_is_incomplete(embedded_llm):
    from rag.llm.clients import EmbeddedLLM

    limited = EmbeddedLLM(embedded_llm.model_path, max_context=1024, time_limit=0.0)
    limited._llama = embedded_llm._model()  # the same loaded weights
    got: list[str] = []
    with pytest.raises(LLMIncomplete, match="llm.deadline") as caught:
        for piece in limited.stream([{"role": "user", "content": "Write a long story about a dragon."}], max_tokens=64):
            got.append(piece)
    assert caught.value.partial == "".join(got)


def test_choosing_the_embedded_model_without_its_runtime_says_how_to_install_it(monkeypatch):
    # The page's backend choice answered extractively with no word of why; the choice itself
    # now fails with the remedy, which the page shows.
    import importlib.util

    from rag.llm.clients import EmbeddedLLM, LLMUnavailable

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "llama_cpp" else real(name, *a))
    with pytest.raises(LLMUnavailable, match="make install EMBEDDED=1"):
        EmbeddedLLM()
