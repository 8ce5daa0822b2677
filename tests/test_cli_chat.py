"""``paperchat chat``: the real command (click's runner, input piped) over the seed store with
``--llm none``; one conversation across the lines, as on the chat page."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

pytestmark = pytest.mark.slow

SPEECH = "Which papers work on speech or audio?"
FOLLOW_UP = "what dataset does the first one build?"


@pytest.fixture()
def chat(seed_settings, extractive, monkeypatch):
    """``chat(input, *options)``: run ``paperchat chat --llm none`` on the seed store's data directory
    with ``input`` as stdin, over the session's real extractive pipeline (loaded once, not per run)."""
    import ui.cli_setup
    from ui.cli import main

    monkeypatch.setattr(ui.cli_setup, "build_components", lambda *a, **k: extractive)

    def run(text: str | bytes, *options: str):
        args = ["--home", str(seed_settings.home), "chat", "--llm", "none", *options]
        return CliRunner().invoke(main, args, input=text, env={"PAPERCHAT_LOCAL": ""})

    return run


def _sources(block: str) -> list[tuple[int, str]]:
    """``(number, paper id)`` of the ``Sources:`` lines of one printed answer."""
    return [(int(n), pid) for n, pid in re.findall(r"^  \[(\d+)\] .+ — (\S+)", block, re.M)]


def test_a_follow_up_is_answered_about_the_paper_listed_first(chat):
    out = chat(f"{SPEECH}\n{FOLLOW_UP}\n", "--json")
    assert out.exit_code == 0, out.output
    lines = out.stdout.splitlines()
    assert len(lines) == 2  # one JSON line per turn
    first, second = map(json.loads, lines)
    assert [first["qid"], second["qid"]] == ["1", "2"]
    assert first["question"] == SPEECH and len(first["citations"]) > 1
    listed = first["citations"][0]
    assert [c["paper_id"] for c in second["citations"]] == [listed["paper_id"]]
    assert second["citations"][0]["number"] == listed["number"] == 1  # it keeps its number
    assert second["citations"][0]["evidence"] and not second["refused"]
    # the question as read names the paper the follow-up was resolved to
    assert second["turn"] == "answer" and listed["label"] in second["interpreted_as"], second["interpreted_as"]


def test_numbers_are_kept_across_the_conversation_and_exit_ends_it(chat):
    text = f"{SPEECH}\n\nwhat datasets does the second one use?\ncompare [1] and [3]\nexit\nWhat is DANCE?\n"
    out = chat(text)
    assert out.exit_code == 0, out.output
    blocks = out.stdout.split("\nLLM: ")
    assert len(blocks) == 4  # three answers (the empty line is no turn, nothing after `exit`)
    listed = dict(_sources(blocks[0]))
    assert len(listed) > 3 and sorted(listed) == list(range(1, len(listed) + 1))
    assert "Interpreted as: “what datasets does" in blocks[1]
    assert _sources(blocks[1]) == [(2, listed[2])]
    assert _sources(blocks[2]) == [(1, listed[1]), (3, listed[3])]
    rows = re.findall(r"^  \[([13])\] [^:\n]+: (?:“|not stated)", blocks[2], re.M)  # one block per row
    assert "Problem" in blocks[2] and rows[:2] == ["1", "3"] and "\n| |" not in blocks[2]
    assert "DANCE" not in out.stdout


def test_end_of_input_ends_the_conversation_cleanly(chat):
    for text in ("", "\n\n", "quit\n", "What accuracy gain does DANCE report?"):  # the last line unterminated
        out = chat(text, "--json")
        assert out.exit_code == 0, out.output
        assert "Traceback" not in out.output
    answers = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(answers) == 1 and answers[0]["citations"][0]["label"] == "DANCE"
    # Bytes that are not UTF-8 become U+FFFD, as in `paperchat ask`'s arguments: never a crash.
    out = chat(b"What accuracy gain does DANCE report? \xff\xfe\n", "--json")
    assert out.exit_code == 0 and json.loads(out.stdout)["question"].endswith("report? \ufffd\ufffd")


def test_a_failing_message_is_reported_and_the_conversation_goes_on(chat, monkeypatch):
    from rag.route.conversation import Conversation

    ask = Conversation.ask

    def failing(self, message, **kw):
        if message == "boom":
            raise RuntimeError("the LLM went away")
        return ask(self, message, **kw)

    monkeypatch.setattr(Conversation, "ask", failing)
    out = chat(f"{SPEECH}\nboom\n{FOLLOW_UP}\n", "--json")
    assert out.exit_code == 1  # something failed: said at the end by the exit code
    assert "answering “boom” failed (the LLM went away)" in out.stderr
    first, failed, third = map(json.loads, out.stdout.splitlines())
    assert failed == {"qid": "2", "question": "boom", "error": "the LLM went away"}
    assert third["citations"][0]["paper_id"] == first["citations"][0]["paper_id"]  # the conversation went on
