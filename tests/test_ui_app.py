"""The Gradio app served on a free port and driven by ``gradio_client`` (one Client = one session).

Checks cited paper ids (from the evidence panel and the answer JSON), never wording. One
test streams from the real embedded model (SmolLM2-135M) and stops it.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import MIXED, free_port, served
from gradio_client import Client

from rag.pipeline import Components
from rag.route.answer import REFUSAL
from ui.serve import check_bind, is_loopback_host, launch, parse_auth
from ui.session import AUTO_FILTER_LABEL

pytestmark = pytest.mark.slow  # the real embedder, Chroma store and (one test) embedded LLM

DANCE = "000_6b930c46f6674b66#1"
APM = "000_6b930c46f6674b66#2"
FEDERATED = "004_7c6cb99d3d3a622c#11"

# outputs of /ask: chat, evidence html, status, answer json, 3 downloads, question box
CHAT, PANEL, STATUS, DETAILS, DL_ANSWER, DL_CONV, DL_BIB, QUESTION = range(8)
OUTPUT_DIR = Path(__file__).parent / "output"


@pytest.fixture(scope="module")
def components(extractive: Components) -> Components:
    """The shared real pipeline (conftest: seed store in a temporary home, llm=None)."""
    return extractive


@pytest.fixture(scope="module")
def url(components: Components) -> Iterator[str]:
    with served(components) as u:
        yield u


def client(url: str) -> Client:
    return Client(url, verbose=False, download_files=False)


def panel_ids(result) -> list[str]:
    """Paper ids of the current answer's sources, in panel order."""
    return re.findall(r'<section class="pc-src" id="src-\d+" data-paper-id="([^"]+)"', result[PANEL])


def cited(result) -> dict[str, int]:
    return {c["paper_id"]: c["number"] for c in result[DETAILS]["citations"]}


def last_text(result) -> str:
    msg = result[CHAT][-1]
    content = msg["content"]
    return content if isinstance(content, str) else "".join(p.get("text", "") for p in content)


def exported(update) -> str:
    """Text of a file a DownloadButton update points to (server and test share the disk)."""
    value = update["value"]
    path = value["path"] if isinstance(value, dict) else value
    return Path(path).read_text(encoding="utf-8")


def ask(c: Client, question: str, **kw):
    return c.predict(question, api_name="/ask", **kw)


# --- security ----------------------------------------------------------------------------


def test_public_bind_requires_auth(components: Components):
    assert is_loopback_host("127.0.0.1") and is_loopback_host("localhost") and is_loopback_host("::1")
    assert not is_loopback_host("0.0.0.0")
    with pytest.raises(ValueError, match="without a password"):
        check_bind("0.0.0.0", None)
    check_bind("0.0.0.0", ("user", "secret"))  # allowed with auth
    check_bind("127.0.0.1", None)
    with pytest.raises(ValueError, match="bind to 127.0.0.1"):
        launch(components, host="0.0.0.0", port=free_port(), block=False)


def test_auth_strings_and_files(tmp_path: Path):
    assert parse_auth("ada:s3cret:x") == ("ada", "s3cret:x")
    secret = tmp_path / "auth.txt"
    secret.write_text("bob:pw\n", encoding="utf-8")
    assert parse_auth(str(secret)) == ("bob", "pw")
    assert parse_auth(("a", "b")) == ("a", "b")
    assert parse_auth("") is None and parse_auth(None) is None
    with pytest.raises(ValueError, match="user:password"):
        parse_auth("no-colon")


# --- conversations -----------------------------------------------------------------------


def test_ask_then_follow_up_it(url: str):
    c = client(url)
    r1 = ask(c, "What accuracy gain does DANCE report?")
    assert panel_ids(r1) == [DANCE]
    assert cited(r1) == {DANCE: 1}
    assert "(#src-1)" in last_text(r1)  # markers link to the evidence panel
    assert "<mark>" in r1[PANEL]
    assert "**LLM:** none" in r1[STATUS] and "retrieval" in r1[STATUS]
    r2 = ask(c, "What is its main idea?")
    assert panel_ids(r2) == [DANCE]
    assert "DANCE" in r2[DETAILS]["standalone"]
    assert len(r2[CHAT]) == 4  # two turns, user + assistant each


def test_compare_by_names(url: str):
    r = ask(client(url), "compare DANCE and APM")
    assert r[DETAILS]["kind"] == "compare"
    assert panel_ids(r) == [DANCE, APM]
    assert cited(r) == {DANCE: 1, APM: 2}
    text = last_text(r)
    assert "| **Approach** |" in text and "not stated in the abstract" in text


def test_compare_by_citation_numbers(url: str):
    c = client(url)
    r1 = ask(c, "Which papers use reinforcement learning?")
    by_number = {n: pid for pid, n in cited(r1).items()}
    assert len(by_number) >= 3
    r2 = ask(c, "compare [1] and [3]")
    assert r2[DETAILS]["kind"] == "compare"
    assert panel_ids(r2) == [by_number[1], by_number[3]]
    assert cited(r2) == {by_number[1]: 1, by_number[3]: 3}
    assert 'id="src-2"' in r2[PANEL]  # [2] of the earlier answer is still a target


def test_summary_of_a_topic(url: str):
    r = ask(client(url), "Summarize the papers on federated learning")
    assert r[DETAILS]["kind"] == "summary"
    assert set(panel_ids(r)) == {DANCE, FEDERATED}


def test_exports_markdown_and_bibtex(url: str):
    c = client(url)
    ask(c, "What accuracy gain does DANCE report?")
    r = ask(c, "What storage reduction does APM achieve?")
    answer_md, conv_md, bib = exported(r[DL_ANSWER]), exported(r[DL_CONV]), exported(r[DL_BIB])
    assert answer_md.startswith("# What storage reduction does APM achieve?")
    assert f"paper id `{APM}`" in answer_md and DANCE not in answer_md
    assert "## 1. What accuracy gain does DANCE report?" in conv_md and "## 2. What storage" in conv_md
    refs = conv_md.split("## References")[1]
    assert f"[1] DANCE. paper id `{DANCE}`" in refs and f"[2] APM. paper id `{APM}`" in refs
    assert "@misc{000_6b930c46f6674b66_1," in bib and "@misc{000_6b930c46f6674b66_2," in bib


def test_new_conversation_resets_numbering(url: str):
    c = client(url)
    ask(c, "What accuracy gain does DANCE report?")
    c.predict(api_name="/new_conversation")
    r = ask(c, "What storage reduction does APM achieve?")
    assert cited(r) == {APM: 1}
    assert len(r[CHAT]) == 2


def test_settings_show_effective_values_and_ollama_errors(url: str):
    c = client(url)
    line = c.predict("none", "llama3.2:3b", 3, api_name="/settings")
    assert "backend `none`" in line and "top-k 3" in line
    bad = c.predict("ollama", "llama3.2:3b", 5, api_name="/settings")
    assert "Ollama is not running" in bad and "ollama serve" in bad
    _, refreshed = c.predict("none", "llama3.2:3b", 5, api_name="/refresh_models")
    assert "Ollama is not running" in refreshed
    r = ask(c, "What accuracy gain does DANCE report?", backend="ollama")  # falls back, says so
    assert "Answering with the default backend instead" in r[STATUS]
    assert panel_ids(r) == [DANCE]


# --- filters in the settings panel (seed papers + ICML 2022/2023 papers with years) ------------

YEAR = {r["id"]: r["year"] for r in map(json.loads, MIXED.read_text().splitlines())}
DIFFUSION = "Which papers use diffusion models?"


@pytest.fixture(scope="module")
def mixed_url(mixed: Components) -> Iterator[str]:
    """The app over the real pipeline of conftest's ``mixed`` store."""
    with served(mixed) as u:
        yield u


def cited_years(result) -> set[int | None]:
    return {YEAR.get(c["paper_id"]) for c in result[DETAILS]["citations"]}


def retrieved_years(result) -> set[int | None]:
    return {YEAR.get(h["paper_id"]) for h in result[DETAILS]["retrieved"]}


def test_year_filter_in_settings_restricts_answers_until_cleared(mixed_url: str):
    c = client(mixed_url)
    line = c.predict("none", "llama3.2:3b", 5, "2022", "", "", True, api_name="/settings")
    assert "filters: year=2022 (clear the field to remove)" in line
    r = ask(c, DIFFUSION, year="2022")
    assert r[DETAILS]["citations"] and cited_years(r) == {2022}
    assert retrieved_years(r) == {2022} and {YEAR.get(pid) for pid in panel_ids(r)} == {2022}
    assert "filter: year=2022" in r[STATUS] and r[DETAILS]["note"].startswith("filter: year=2022")
    cleared = ask(c, DIFFUSION, year="")  # the user clears the field
    assert "filter:" not in cleared[STATUS] and {2022, 2023} <= retrieved_years(cleared)
    bad = ask(c, DIFFUSION, year="20x3")
    assert "“20x3” is not a year" in bad[STATUS] and "filter:" not in bad[DETAILS]["note"]


def test_auto_filter_from_the_question_is_shown_and_the_checkbox_removes_it(mixed_url: str):
    c = client(mixed_url)
    question = "papers from 2023 about diffusion"
    on = ask(c, question)  # the checkbox is ticked by default
    note = f"filter: year=2023 (untick “{AUTO_FILTER_LABEL}” in Settings to remove)"
    assert note in on[STATUS] and note in on[DETAILS]["note"]
    assert on[DETAILS]["citations"] and cited_years(on) == {2023} and retrieved_years(on) == {2023}
    off = ask(c, question, auto_filter=False)
    assert "filter:" not in off[STATUS] and "filter:" not in off[DETAILS]["note"]
    assert {2022, 2023} <= retrieved_years(off)
    line = c.predict("none", "llama3.2:3b", 5, "", "", "", False, api_name="/settings")
    assert "filters: none" in line and "years stated in the question are ignored" in line


def test_a_filter_that_matches_nothing_refuses_clearly(mixed_url: str):
    c = client(mixed_url)
    refusal = f"{REFUSAL} No paper in the collection matches the filter (venue=NeurIPS)."
    r = ask(c, DIFFUSION, venue="NeurIPS")
    assert r[DETAILS]["refused"] and not r[DETAILS]["citations"] and not panel_ids(r)
    assert r[DETAILS]["text"] == refusal and refusal in last_text(r)
    assert "filter: venue=NeurIPS" in r[STATUS]
    topic = ask(c, "Summarize the papers on diffusion models", venue="NeurIPS", year="2023")
    assert topic[DETAILS]["refused"] and not topic[DETAILS]["citations"]
    assert "No paper in the collection matches the filter (year=2023, venue=NeurIPS)." in last_text(topic)


QUESTIONS = {
    "What accuracy gain does DANCE report?": DANCE,
    "What storage reduction does APM achieve?": APM,
    "What does DocVAL do?": "000_6b930c46f6674b66#3",
    "What does CoVRL propose?": "000_6b930c46f6674b66#4",
    "What is DDL?": "000_6b930c46f6674b66#7",
    "What does MCLP measure?": "000_6b930c46f6674b66#9",
    "What is RSAgent?": "000_6b930c46f6674b66#10",
    "What does Graph-R1 do?": "000_6b930c46f6674b66#12",
    "What does EMPG modulate?": "000_6b930c46f6674b66#15",
    "What is DexMachina?": "000_6b930c46f6674b66#19",
}


def test_ten_concurrent_sessions_get_their_own_sources(url: str):
    results: dict[str, tuple[list[str], list[str]]] = {}
    errors: list[BaseException] = []
    barrier = threading.Barrier(len(QUESTIONS))

    def session(question: str) -> None:
        try:
            c = client(url)
            barrier.wait(timeout=60)
            first = panel_ids(ask(c, question))
            follow = panel_ids(ask(c, "What is its main idea?"))  # resolved within this session only
            results[question] = (first, follow)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=session, args=(q,)) for q in QUESTIONS]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=240)
    assert not errors, errors
    assert len(results) == len(QUESTIONS)
    for question, pid in QUESTIONS.items():
        first, follow = results[question]
        assert first == [pid], question
        assert follow == [pid], question


def test_the_page_answers_and_exports_when_the_data_directory_is_elsewhere(embedder, tmp_path):
    """A data directory outside the working and temporary directories (a user's ~/.paperchat):
    Gradio serves only files it was allowed to, and the exports are written there."""
    import shutil
    import tempfile
    import uuid

    from rag.index.ingest import ingest_paths
    from rag.pipeline import build_pipeline, open_store
    from rag.settings import Settings

    home = Path.home() / ".cache" / f"paperchat-test-{uuid.uuid4().hex[:8]}"
    for inside in (Path(tempfile.gettempdir()).resolve(), Path.cwd().resolve()):
        if home.resolve().is_relative_to(inside):
            pytest.skip("the home directory lies inside the working or temporary directory")
    try:
        home.mkdir(parents=True)
    except OSError as exc:
        pytest.skip(f"cannot write under the home directory: {exc}")
    try:
        records = tmp_path / "two.jsonl"
        records.write_text(
            json.dumps({"id": "a", "title": "Sparse routers", "abstract": "We propose SPR, a sparse router for "
                        "mixture-of-experts models that cuts inference cost by 30% on language modelling."}) + "\n"
            + json.dumps({"id": "b", "title": "Dense probes", "abstract": "We study linear probes of dense "
                          "transformers and find that syntax is encoded in middle layers."}) + "\n",
            encoding="utf-8",
        )
        settings = Settings(home=home)
        store = open_store(settings)
        ingest_paths([records], store, embedder)
        comp = build_pipeline(settings, embedder=embedder, store=store, llm=None)
        with served(comp) as page:
            out = ask(client(page), "How much does SPR cut inference cost?")
        assert "30%" in last_text(out) and panel_ids(out) == ["a"]
        assert "30%" in exported(out[DL_ANSWER])
    finally:
        shutil.rmtree(home, ignore_errors=True)


# --- streaming with the real embedded model ------------------------------------------------


def test_embedded_model_streams_then_stop_works(url: str):
    """Time from submit to the first streamed token, then a server-side stop."""
    pytest.importorskip("llama_cpp")
    from rag.llm.clients import LLMUnavailable, embedded_model_path

    try:
        embedded_model_path()
    except LLMUnavailable as exc:
        pytest.skip(f"embedded model not installed: {exc}")
    c = client(url)
    question = "What accuracy gain does DANCE report?"

    def first_stream(job) -> float | None:
        t0 = time.perf_counter()
        while not job.done():
            for out in job.outputs():
                if out[CHAT] and last_text(out).endswith("▌"):
                    return time.perf_counter() - t0
            time.sleep(0.02)
        return None

    # 1. a whole streamed answer
    t0 = time.perf_counter()
    job = c.submit(question, "embedded", "llama3.2:3b", 5, api_name="/ask")
    ttft = first_stream(job)
    final = job.result(timeout=300)
    total = time.perf_counter() - t0
    assert ttft is not None, "no streamed token before the final answer"
    partials = [o for o in job.outputs() if o[CHAT] and last_text(o).endswith("▌")]
    assert len(partials) >= 2
    assert final[DETAILS]["backend"].startswith("embedded:")
    assert panel_ids(final) == [DANCE]  # citations come from retrieval, whatever the model writes
    assert "**LLM:** embedded:" in final[STATUS] and "generation" in final[STATUS]

    # 2. the next answer is stopped after its first token
    t1 = time.perf_counter()
    job2 = c.submit(
        "Which TAG datasets and condensation ratio does DANCE use?", "embedded", "llama3.2:3b", 5, api_name="/ask"
    )
    ttft_warm = first_stream(job2)
    assert ttft_warm is not None
    stopped = c.predict(api_name="/stop")
    stop_latency = time.perf_counter() - t1 - ttft_warm
    assert stopped[STATUS].startswith("**Stopped.**")
    assert stopped[DETAILS]["timings"]["generation"] < final[DETAILS]["timings"]["generation"] + 5
    assert panel_ids(stopped) == [DANCE]
    OUTPUT_DIR.mkdir(exist_ok=True)
    (OUTPUT_DIR / "ui_streaming_latency.txt").write_text(
        f"embedded model, submit -> first streamed token (first use, model load included): {ttft:.2f} s\n"
        f"embedded model, submit -> first streamed token (model loaded): {ttft_warm:.2f} s\n"
        f"whole first answer: {total:.2f} s (generation {final[DETAILS]['timings']['generation']:.2f} s)\n"
        f"stop -> final answer shown: {stop_latency:.2f} s\n",
        encoding="utf-8",
    )
    print(f"\nTTFT cold {ttft:.2f} s, warm {ttft_warm:.2f} s, answer {total:.2f} s, stop {stop_latency:.2f} s")
