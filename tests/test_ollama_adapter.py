"""OllamaLLM against a stand-in Ollama server speaking the real REST protocol over HTTP."""

from __future__ import annotations

import threading
import time

import pytest

from rag.llm.clients import ChatLLM, LLMError, LLMUnavailable, ModelNotFound
from rag.llm.ollama import OllamaLLM, ThinkFilter
from tests.ollama_standin import OllamaStandin, free_port

MODEL = "llama3.2:3b"
ASK = [{"role": "system", "content": "Answer briefly."}, {"role": "user", "content": "What is attention?"}]


def test_streams_reply_in_pieces_and_sends_options():
    reply = "Attention weighs every token against every other token [1]."
    with OllamaStandin(models=[MODEL], reply=reply) as server:
        llm = OllamaLLM(host=server.host, model=MODEL, context_tokens=6144, timeout=5)
        pieces = list(llm.stream(ASK, max_tokens=64, temperature=0.2))

    assert len(pieces) >= 5
    assert "".join(pieces) == reply
    (request,) = server.chat_requests
    assert request["model"] == MODEL
    assert request["stream"] is True
    assert request["messages"] == ASK
    assert request["options"] == {"num_ctx": 6144, "num_predict": 64, "temperature": 0.2}
    assert server.streams[0].completed


def test_protocol_and_name():
    llm = OllamaLLM(host="http://127.0.0.1:1", model="qwen3:4b")
    assert isinstance(llm, ChatLLM)
    assert llm.name == "ollama:qwen3:4b"
    assert llm.context_tokens == 8192


def test_reply_depends_on_messages():
    with OllamaStandin(models=[MODEL], reply=lambda messages: f"You asked: {messages[-1]['content']}") as server:
        llm = OllamaLLM(host=server.host, model=MODEL, timeout=5)
        assert "".join(llm.stream(ASK)) == "You asked: What is attention?"


def test_num_predict_caps_the_reply():
    with OllamaStandin(models=[MODEL], reply="one two three four five six") as server:
        llm = OllamaLLM(host=server.host, model=MODEL, timeout=5)
        assert "".join(llm.stream(ASK, max_tokens=3)) == "one two three"


def test_think_block_split_across_chunks_never_reaches_output():
    chunks = [
        "<th",
        "ink>\nThe user wants",
        " a definition. Let me </th",
        "ink>",
        "\n\n",
        "Attention is ",
        "a weighted <",
        "sum. <think>more</think>Done",
        " <",
    ]
    with OllamaStandin(models=["qwen3:4b"], reply=chunks) as server:
        llm = OllamaLLM(host=server.host, model="qwen3:4b", timeout=5)
        pieces = list(llm.stream(ASK))

    text = "".join(pieces)
    assert text == "Attention is a weighted <sum. Done <"
    for piece in pieces:
        assert "think" not in piece.lower()
        assert "user wants" not in piece


def test_unterminated_think_block_is_dropped():
    with OllamaStandin(models=[MODEL], reply=["Answer first. ", "<think>", "still reasoning when cut"]) as server:
        llm = OllamaLLM(host=server.host, model=MODEL, timeout=5)
        assert "".join(llm.stream(ASK)) == "Answer first. "


def test_think_filter_is_case_insensitive_and_handles_one_character_pieces():
    text = "A<THINK>hidden</Think> B"
    f = ThinkFilter()
    out = "".join(f.feed(ch) for ch in text) + f.flush()
    assert out == "AB"


def test_model_not_pulled_raises_model_not_found():
    with OllamaStandin(models=[MODEL]) as server:
        llm = OllamaLLM(host=server.host, model="mistral:7b", timeout=5)
        with pytest.raises(ModelNotFound) as caught:
            list(llm.stream(ASK))
        assert server.chat_requests[-1]["model"] == "mistral:7b"  # the request did reach the server
    message = str(caught.value)
    assert "ollama pull mistral:7b" in message
    assert "--ollama-model" in message


def test_connection_refused_raises_unavailable():
    host = f"http://127.0.0.1:{free_port()}"
    llm = OllamaLLM(host=host, model=MODEL, timeout=5)
    started = time.monotonic()
    with pytest.raises(LLMUnavailable) as caught:
        list(llm.stream(ASK))
    assert time.monotonic() - started < 2
    message = str(caught.value)
    assert host in message
    assert "ollama serve" in message
    assert "--llm none" in message
    with pytest.raises(LLMUnavailable, match="ollama serve"):
        llm.list_models()
    assert llm.ping() is False


def test_list_models_and_ping():
    with OllamaStandin(models=["llama3.2:3b", "qwen3:4b", "nomic-embed-text"]) as server:
        llm = OllamaLLM(host=server.host, model=MODEL, timeout=5)
        assert llm.ping() is True
        assert llm.list_models() == ["llama3.2:3b", "qwen3:4b", "nomic-embed-text:latest"]
        llm.check()  # pulled: no error
        with pytest.raises(ModelNotFound, match="ollama pull gemma3:1b"):
            OllamaLLM(host=server.host, model="gemma3:1b", timeout=5).check()
        assert [r["path"] for r in server.requests].count("/api/tags") >= 2


def test_model_without_tag_means_latest():
    with OllamaStandin(models=["nomic-embed-text"], reply="ok") as server:
        llm = OllamaLLM(host=server.host, model="nomic-embed-text", timeout=5)
        llm.check()
        assert "".join(llm.stream(ASK)) == "ok"


def test_other_server_error_is_llm_error_with_server_message():
    crash = "llama runner process has terminated: exit status 2"
    with OllamaStandin(models=[MODEL], errors={MODEL: (500, crash)}) as server:
        llm = OllamaLLM(host=server.host, model=MODEL, timeout=5)
        with pytest.raises(LLMError, match=crash) as caught:
            list(llm.stream(ASK))
    assert type(caught.value) is LLMError
    assert "HTTP 500" in str(caught.value)


def test_error_line_mid_stream_is_llm_error_after_the_pieces_before_it():
    with OllamaStandin(models=[MODEL], reply=["Partial ", "answer ", {"error": "out of memory"}, "never"]) as server:
        llm = OllamaLLM(host=server.host, model=MODEL, timeout=5)
        pieces = llm.stream(ASK)
        assert [next(pieces), next(pieces)] == ["Partial ", "answer "]
        with pytest.raises(LLMError, match="out of memory") as caught:
            next(pieces)
    assert type(caught.value) is LLMError


def test_empty_model_name_is_rejected():
    with pytest.raises(ValueError, match="llama3.2:3b"):
        OllamaLLM(model="")


def test_stop_event_ends_slow_stream_early_and_server_sees_disconnect():
    words = [f"w{i} " for i in range(40)]
    with OllamaStandin(models=[MODEL], reply=words, chunk_delay=0.05) as server:  # 2 s if read to the end
        llm = OllamaLLM(host=server.host, model=MODEL, timeout=5)
        stop = threading.Event()
        got: list[str] = []
        started = time.monotonic()
        for piece in llm.stream(ASK, stop=stop):
            got.append(piece)
            if len(got) == 3:
                stop.set()
        elapsed = time.monotonic() - started
        record = server.streams[-1]
        assert record.finished.wait(2)

    assert got == words[:3]
    assert elapsed < 1.0
    assert record.client_disconnected
    assert not record.completed
    assert record.sent < len(words) // 2


def test_abandoning_the_iterator_also_closes_the_stream():
    with OllamaStandin(models=[MODEL], reply=[f"w{i} " for i in range(40)], chunk_delay=0.05) as server:
        llm = OllamaLLM(host=server.host, model=MODEL, timeout=5)
        pieces = llm.stream(ASK)
        assert next(pieces) == "w0 "
        pieces.close()
        record = server.streams[-1]
        assert record.finished.wait(2)
    assert record.client_disconnected and record.sent < 20


def test_stop_set_before_start_sends_nothing():
    with OllamaStandin(models=[MODEL]) as server:
        llm = OllamaLLM(host=server.host, model=MODEL, timeout=5)
        stop = threading.Event()
        stop.set()
        assert list(llm.stream(ASK, stop=stop)) == []
        assert server.chat_requests == []


def test_count_tokens_is_an_estimate():
    llm = OllamaLLM(host="http://127.0.0.1:1", model=MODEL)
    assert llm.count_tokens("") == 0
    assert llm.count_tokens("abcdefg") == 2
    assert llm.count_tokens("x" * 350) == 100


def test_standin_non_streaming_chat_matches_ollama():
    import ollama

    with OllamaStandin(models=[MODEL], reply="Hello there, friend") as server:
        response = ollama.Client(host=server.host).chat(model=MODEL, messages=ASK, stream=False)
    assert response.message.role == "assistant"
    assert response.message.content == "Hello there, friend"
    assert response.done and response.done_reason == "stop"
    assert response.eval_count == 3


def test_standin_show_endpoint():
    import ollama

    with OllamaStandin(models=[MODEL]) as server:
        client = ollama.Client(host=server.host)
        shown = client.show(MODEL)
        assert shown.details.family == "llama"
        with pytest.raises(ollama.ResponseError) as caught:
            client.show("absent:1b")
    assert caught.value.status_code == 404
    assert caught.value.error == "model 'absent:1b' not found"
