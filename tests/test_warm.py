"""One warm process serves every client: ``paperchat ask``, ``compare`` and ``ingest`` run by a
running ``paperchat serve`` (a real subprocess) or page print what they print in-process, an
ingest through it is answered from at once, a ``paperchat ui`` started beside it leaves it the
discovery file, and a stale discovery file is ignored and removed."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from conftest import ROOT, free_port, served

pytestmark = pytest.mark.slow

ZEBRA = {
    "id": "z-1",
    "abstract": "We propose ZebraNet, a striped convolutional network for counting zebras in aerial images. "
    "ZebraNet counts herds with 95% accuracy on the Serengeti dataset.",
}
QUESTION = "What accuracy gain does DANCE report, and at what condensation ratio?"


def _home_with_seed(home: Path, embedder) -> None:
    from rag.index.ingest import ingest_paths
    from rag.pipeline import open_store, prepare_environment
    from rag.settings import Settings
    from store.home import mark_written

    settings = Settings(home=home)
    prepare_environment(settings)
    mark_written(home, "test setup")
    ingest_paths([ROOT / "data"], open_store(settings), embedder)


def _cli(home: Path, *args: str, input: str | None = None):
    from ui.cli import main

    env = {"PAPERCHAT_HOME": str(home), "PAPERCHAT_LOCAL": ""}
    return CliRunner().invoke(main, list(args), input=input, env=env)


def _health(home: Path) -> dict:
    from ui.discovery import WarmClient, _read

    info = _read(home / "server.json")
    assert info is not None
    health = WarmClient(info).health()
    assert health is not None
    return health


def _rounded(value):
    """JSON with its floats to 4 decimals: two processes may embed with different BLAS thread
    counts, so a score can differ in its last float32 digits (the papers, cells and text may not)."""
    if isinstance(value, float):
        return round(value, 4)
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_rounded(v) for v in value]
    return value


def _same(text: str) -> str | dict:
    """Output with the per-run timings left out (the footer's seconds, the JSON's ``timings``)."""
    if text.startswith("{"):
        data = json.loads(text)
        data.pop("timings")
        return _rounded(data)
    text = re.sub(r"(?m) · (?:[a-z]+ \d+\.\d+ s, )*total \d+\.\d+ s.*$", " · - s", text)  # the footer's steps
    return re.sub(r"· \d+\.\d+ s$", "· - s", text.rstrip("\n"))


@pytest.fixture(scope="module")
def api_home(tmp_path_factory, embedder):
    """A data directory with the seed papers, served by a real ``paperchat serve --llm none``."""
    home = tmp_path_factory.mktemp("warm_home")
    _home_with_seed(home, embedder)
    port = free_port()
    env = dict(os.environ, PAPERCHAT_HOME=str(home))
    proc = subprocess.Popen(
        [sys.executable, "-m", "ui.cli", "serve", "--port", str(port), "--llm", "none"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    deadline = time.monotonic() + 300
    while not (home / "server.json").exists():
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        assert time.monotonic() < deadline, "paperchat serve did not start"
        time.sleep(0.2)
    yield home, proc
    if proc.poll() is None:
        proc.kill()
        proc.wait()


def test_ask_through_the_server_prints_what_ask_local_prints(api_home):
    home, proc = api_home
    before = _health(home)
    assert before["kind"] == "api" and before["pid"] == proc.pid
    for extra in ([], ["--json"]):
        warm = _cli(home, "ask", QUESTION, "--llm", "none", *extra)
        served = _health(home)["served"]
        local = _cli(home, "ask", QUESTION, "--llm", "none", "--local", *extra)
        assert warm.exit_code == local.exit_code == 0, (warm.output, local.output)
        assert _same(warm.stdout) == _same(local.stdout)
        assert _health(home)["served"] == served  # --local did not go to the server
    assert _health(home)["served"] == before["served"] + 2
    assert "DANCE" in warm.stdout and json.loads(warm.stdout)["citations"][0]["label"] == "DANCE"


def test_compare_through_the_server_prints_what_compare_local_prints(api_home):
    home, _ = api_home
    served = _health(home)["served"]
    warm = _cli(home, "compare", "DANCE", "APM")
    local = _cli(home, "compare", "DANCE", "APM", "--local")
    assert warm.exit_code == local.exit_code == 0, (warm.output, local.output)
    assert _same(warm.stdout) == _same(local.stdout) and "DANCE" in warm.stdout
    assert _health(home)["served"] == served + 1


def test_table_through_the_server_prints_what_table_local_prints(api_home):
    home, _ = api_home
    served = _health(home)["served"]
    for extra in (["--paper", "DANCE", "--paper", "APM", "--columns", "data, code"], ["speech", "--json"]):
        warm = _cli(home, "table", *extra)
        local = _cli(home, "table", *extra, "--local")
        assert warm.exit_code == local.exit_code == 0, (warm.output, local.output)
        assert _same(warm.stdout) == _same(local.stdout) and warm.stdout.strip()
    assert _health(home)["served"] == served + 2


DANCE, APM = "000_6b930c46f6674b66#1", "000_6b930c46f6674b66#2"
CHAT = "What does DANCE propose?\nwhat about APM?\nwhat about its limitations?\n"
"""A conversation whose follow-ups resolve only against its own earlier turns."""


def test_chat_through_the_server_prints_what_chat_local_prints(api_home):
    home, _ = api_home
    served = _health(home)["served"]
    for extra in ([], ["--json"]):
        warm = _cli(home, "chat", "--llm", "none", *extra, input=CHAT)
        local = _cli(home, "chat", "--llm", "none", "--local", *extra, input=CHAT)
        assert warm.exit_code == local.exit_code == 0, (warm.output, local.output)
        if extra:
            assert [_same(x) for x in warm.stdout.splitlines()] == [_same(x) for x in local.stdout.splitlines()]
            turns = [json.loads(x) for x in warm.stdout.splitlines()]
            # the paper each turn is about: its citation, or the one a refusal names (an abstract that
            # states no limitation of its own is refused, naming the paper checked)
            named = [next((p for p in (DANCE, APM) if p in t["text"]), "") for t in turns]
            about = [t["citations"][0]["paper_id"] if t["citations"] else n for t, n in zip(turns, named, strict=True)]
            assert about == [DANCE, APM, APM], turns
            assert "APM" in turns[2]["interpreted_as"]  # "its" is the paper of the turn before
        else:
            assert _same(warm.stdout) == _same(local.stdout) and "Interpreted as:" in warm.stdout
    assert _health(home)["served"] == served + 2 * 4  # per chat: its start and three messages


def _routes(home: Path) -> tuple[str, dict[str, str]]:
    from ui.discovery import TOKEN_HEADER

    data = json.loads((home / "server.json").read_text())
    return f"http://127.0.0.1:{data['port']}/paperchat", {TOKEN_HEADER: data["token"]}


def test_the_server_keeps_each_chat_session_apart(api_home):
    home, _ = api_home
    url, token = _routes(home)
    with httpx.Client(base_url=url, headers=token, timeout=120) as http:
        sessions = [http.post("/chat/start", json={"backend": "none"}).json()["session"] for _ in range(2)]
        assert sessions[0] != sessions[1]

        def say(session: str, text: str) -> dict:
            r = http.post("/chat", json={"session": session, "question": text})
            r.raise_for_status()
            return r.json()["answer"]

        say(sessions[0], "What does DANCE propose?")
        say(sessions[1], "What does APM propose?")  # interleaved: each follow-up is about its own session's paper
        for session, paper, label in ((sessions[0], DANCE, "DANCE"), (sessions[1], APM, "APM")):
            answer = say(session, "what datasets does it use?")
            assert [c["paper_id"] for c in answer["citations"]] == [paper] and label in answer["interpreted_as"]
        assert http.post("/chat/end", json={"session": sessions[0]}).json() == {"ended": True}
        gone = http.post("/chat", json={"session": sessions[0], "question": "and its limitations?"})
        assert gone.status_code == 404 and "unknown chat session" in gone.json()["error"]
        bad = http.post("/chat/start", json={"backend": "ollama", "ollama_model": "no-such-model"}).json()
        assert bad["exit_code"] == 1 and "Ollama" in bad["error"]
    assert httpx.post(f"{url}/chat/start", json={}, timeout=10).status_code == 403  # the token is needed


def test_a_chat_the_server_dropped_is_opened_again_with_its_earlier_messages(api_home):
    from rag.route.filters import Filters
    from rag.settings import Settings
    from ui.cli_warm import WarmChat
    from ui.discovery import WarmClient, _read

    home, _ = api_home
    info = _read(home / "server.json")
    assert info is not None
    chat = WarmChat(WarmClient(info), Settings(home=home, llm={"backend": "none"}), Filters(), None)
    assert chat.start()
    first = chat("What does APM propose?", "")
    assert [c["paper_id"] for c in first.data["citations"]] == [APM]
    dropped = chat.session
    url, token = _routes(home)
    assert httpx.post(f"{url}/chat/end", json={"session": dropped}, headers=token, timeout=10).json()["ended"]
    follow = chat("what datasets does it use?", "")  # the server no longer knows the session
    assert chat.session != dropped and [c["paper_id"] for c in follow.data["citations"]] == [APM]
    assert "APM" in follow.interpreted
    chat.end()


def test_an_ingest_through_the_server_is_answered_from_at_once_by_it_and_its_api(api_home, tmp_path):
    home, _ = api_home
    src = tmp_path / "zebra.jsonl"
    src.write_text(json.dumps(ZEBRA) + "\n")
    writes = _health(home)["writes"]
    out = subprocess.run(  # from another folder: the relative path is sent resolved
        [sys.executable, "-m", "ui.cli", "ingest", src.name], cwd=tmp_path, capture_output=True, text=True,
        env=dict(os.environ, PAPERCHAT_HOME=str(home), PYTHONPATH=str(ROOT)), timeout=300, check=False,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[0].startswith("zebra.jsonl: found 1, added 1,")
    assert "store: 39 papers" in out.stdout
    assert _health(home)["writes"] > writes
    warm = _cli(home, "ask", "Which paper counts zebras in aerial images?", "--llm", "none", "--json")
    assert [c["paper_id"] for c in json.loads(warm.stdout)["citations"]] == ["z-1"]
    port = json.loads((home / "server.json").read_text())["port"]
    reply = httpx.post(
        f"http://127.0.0.1:{port}/v1/chat/completions",
        json={"messages": [{"role": "user", "content": "Which paper counts zebras in aerial images?"}]}, timeout=120,
    ).json()
    assert [c["paper_id"] for c in reply["paperchat"]["citations"]] == ["z-1"]


def test_the_routes_need_the_token_of_the_discovery_file(api_home):
    home, _ = api_home
    port = json.loads((home / "server.json").read_text())["port"]
    r = httpx.post(f"http://127.0.0.1:{port}/paperchat/ingest", json={"paths": ["/etc"]}, timeout=10)
    assert r.status_code == 403


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""


def test_a_page_started_beside_the_server_serves_but_leaves_it_the_file(api_home, tmp_path):
    home, proc = api_home
    held = _text(home / "server.json")
    assert json.loads(held)["pid"] == proc.pid
    port = free_port()
    log = tmp_path / "ui.log"
    with open(log, "w", encoding="utf-8") as err:
        page = subprocess.Popen(
            [sys.executable, "-m", "ui.cli", "ui", "--port", str(port), "--llm", "none"],
            cwd=ROOT, env=dict(os.environ, PAPERCHAT_HOME=str(home)), stdout=subprocess.DEVNULL, stderr=err,
        )
    try:
        deadline = time.monotonic() + 300
        while "keep using it" not in _text(log) and _text(home / "server.json") == held:
            assert page.poll() is None, _text(log)
            assert time.monotonic() < deadline, "paperchat ui did not start"
            time.sleep(0.2)
        assert _text(home / "server.json") == held, "the page took the running server's file"
        said = [line for line in _text(log).splitlines() if "keep using it" in line]
        assert len(said) == 1 and f"paperchat serve (PID {proc.pid}, " in said[0], _text(log)
        assert httpx.get(f"http://127.0.0.1:{port}/", timeout=30).status_code == 200  # it serves its page
        served = _health(home)["served"]
        assert _cli(home, "compare", "DANCE", "APM").exit_code == 0
        assert _health(home)["served"] == served + 1  # the command went to the server
    finally:
        page.send_signal(signal.SIGINT)  # Ctrl+C
        page.wait(timeout=180)  # a hang detector: on a loaded two-core machine exiting took over 60 s
    assert _text(home / "server.json") == held  # its exit left the server's file
    assert _health(home)["pid"] == proc.pid


def test_stopping_the_server_removes_its_file(api_home):
    home, proc = api_home
    proc.send_signal(signal.SIGTERM)  # as a service manager stops it (Ctrl+C, SIGINT, does the same)
    proc.wait(timeout=60)
    assert not (home / "server.json").exists()


def test_a_stale_file_is_ignored_and_the_command_runs_in_process(api_home, tmp_path):
    from rag.settings import Settings
    from ui.discovery import ServerInfo, advertise, find_server, settings_key

    home, _ = api_home
    settings = Settings(home=home)
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    dead = ServerInfo(pid=gone.pid, host="127.0.0.1", port=free_port(), kind="api", token="t",
                      settings=settings_key(settings))  # fmt: skip
    (home / "server.json").write_text(json.dumps(dead.__dict__))
    result = _cli(home, "ask", QUESTION, "--llm", "none")
    assert result.exit_code == 0 and "DANCE" in result.stdout
    assert not (home / "server.json").exists()  # its process is gone: removed

    silent = ServerInfo(pid=os.getpid(), host="127.0.0.1", port=free_port(), kind="api", token="t",
                        settings=settings_key(settings))  # fmt: skip
    with advertise(home, silent):  # alive but not answering (starting, or hung): not used, not removed
        assert find_server(settings) is None and (home / "server.json").exists()
    assert not (home / "server.json").exists()


def test_the_page_serves_the_command_line_too(tmp_path, embedder):
    from rag.pipeline import build_pipeline
    from rag.settings import Settings
    from ui.discovery import find_server

    home = tmp_path / "home"
    _home_with_seed(home, embedder)
    settings = Settings(home=home)
    components = build_pipeline(settings, embedder=embedder, llm=None)
    with served(components, announce=True):
        info = find_server(settings)
        assert info is not None and info.kind == "page"
        src = tmp_path / "zebra.jsonl"
        src.write_text(json.dumps(ZEBRA) + "\n")
        ingested = _cli(home, "ingest", str(src))
        assert ingested.exit_code == 0 and "added 1" in ingested.stdout
        warm = _cli(home, "ask", "Which paper counts zebras in aerial images?", "--llm", "none", "--json")
        assert [c["paper_id"] for c in json.loads(warm.stdout)["citations"]] == ["z-1"]
        assert _health(home)["served"] == 2
        assert len(components.retriever.papers) == 39  # the page's own components were rebuilt


def test_the_warm_process_keeps_at_most_chat_sessions_conversations(extractive, monkeypatch):
    import ui.warm
    from ui.discovery import ServerInfo
    from ui.session import Backends

    monkeypatch.setattr(ui.warm, "CHAT_SESSIONS", 2)
    info = ServerInfo(pid=os.getpid(), host="127.0.0.1", port=0, kind="api", token="t", settings="")
    service = ui.warm.WarmService(Backends(extractive, ""), info)
    opened = [service.chat_start(ui.warm.ChatStartRequest(backend="none"))["session"] for _ in range(3)]
    asked = [service.chat(ui.warm.ChatMessageRequest(session=s, question="What does APM propose?")) for s in opened]
    assert asked[0] is None  # the least recently used was dropped
    assert all(r is not None and r["answer"]["citations"][0]["paper_id"] == APM for r in asked[1:])
