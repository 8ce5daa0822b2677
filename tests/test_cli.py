"""The `paperchat` command line on a fresh data directory: the first ingest and an ask run as a user
runs them (a subprocess each), the other commands in this process (:func:`conftest.run_cli`, the
same real components without importing the models again per command)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import DEV, ROOT, SEED, run_cli

pytestmark = pytest.mark.slow
EXE = [sys.executable, "-m", "ui.cli"]


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> dict:
    env = dict(os.environ, PAPERCHAT_HOME=str(tmp_path_factory.mktemp("cli_home")))
    return env


def spawn(env, *args, timeout=600):
    """``python -m ui.cli ARGS`` in a new process, as a user runs it."""
    return subprocess.run([*EXE, *args], env=env, capture_output=True, text=True, timeout=timeout, check=False)


run = run_cli


def test_ingest_reports_per_file_and_is_idempotent(home):
    first = spawn(home, "ingest", "--quiet")
    assert first.returncode == 0, first.stderr
    assert "000_6b930c46f6674b66.txt: found 19, added 19, updated 0, unchanged 0, failed 0" in first.stdout
    second = run(home, "ingest", "--quiet")
    assert "found 19, added 0, updated 0, unchanged 19, failed 0" in second.stdout
    assert "store: 38 papers" in second.stdout


def test_ask_json_cites_dance_with_its_evidence(home):
    # Undecodable bytes in argv reach Python as lone surrogates: normalised to U+FFFD, never a crash.
    question = b"What accuracy gain does DANCE report, and at what condensation ratio? \xff\xfe"
    out = subprocess.run([*EXE, "ask", question, "--json", "--llm", "none"], env=home, capture_output=True,
                         timeout=600, check=False)  # fmt: skip
    assert out.returncode == 0, out.stderr.decode(errors="replace")
    ans = json.loads(out.stdout)
    assert ans["question"].endswith("ratio? \ufffd\ufffd")
    first = ans["citations"][0]
    assert first["paper_id"] == "000_6b930c46f6674b66#1"
    assert any("2.33" in e["sentence"] for e in first["evidence"])


def test_a_command_keeps_the_sentences_it_embedded_for_the_next_one(home):
    # test_ask_json_cites_dance... embedded DANCE's candidates in its process and kept them on exit.
    kept = list(Path(home["PAPERCHAT_HOME"], "cache", "index").glob("*.sentences.npz"))
    assert kept, "the ask command wrote no kept sentence embeddings"
    again = run(home, "ask", "What accuracy gain does DANCE report, and at what condensation ratio?", "--json",
                "--llm", "none")  # fmt: skip
    assert again.returncode == 0, again.stderr
    timings = json.loads(again.stdout)["timings"]
    assert timings["embedded"] == 0 and timings["embedding"] == 0.0


def test_ask_batch_answers_each_line_in_order_with_its_qid_as_given(home, tmp_path):
    batch = tmp_path / "questions.jsonl"
    lines = [
        {"qid": 7, "question": "What accuracy gain does DANCE report?"},
        {"qid": "off", "question": "What is the boiling point of water on Mars?"},
        {"question": "Which papers work on speech or audio?"},
    ]
    batch.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    out = run(home, "ask", "--batch", str(batch), "--json", "--llm", "none")
    assert out.returncode == 0, out.stderr
    answers = [json.loads(line) for line in out.stdout.splitlines() if line.strip()]
    assert [a["qid"] for a in answers] == [7, "off", 3]  # a number stays a number; no qid: the line number
    assert answers[0]["citations"][0]["paper_id"] == "000_6b930c46f6674b66#1" and not answers[0]["refused"]
    assert answers[1]["refused"] and not answers[1]["citations"]
    assert len(answers[2]["citations"]) >= 3
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"qid": 1, "question": "What is DANCE?"}\nnot json\n', encoding="utf-8")
    out = run(home, "ask", "--batch", str(bad), "--json", "--llm", "none")
    assert out.returncode != 0 and "bad.jsonl:2:" in out.stderr, out.stderr


def test_compare_prints_a_row_by_row_table_of_quoted_evidence(home):
    out = run(home, "compare", "DANCE", "APM")
    assert out.returncode == 0, out.stderr
    assert "Problem" in out.stdout and "[1] DANCE:" in out.stdout and "[2] APM:" in out.stdout
    assert "(3) Interpretability" in out.stdout  # the numbered list of challenges is quoted whole
    data = json.loads(run(home, "compare", "DANCE", "APM", "--json").stdout)
    ids = [p["id"] for p in data["papers"]]
    assert ids == ["000_6b930c46f6674b66#1", "000_6b930c46f6674b66#2"]
    abstracts = {json.loads(line)["id"]: json.loads(line)["abstract"] for line in SEED.read_text().splitlines()}
    quoted = [(pid, s) for row in data["rows"] for pid, sents in row["cells"].items() for s in sents]
    assert quoted and all(s in abstracts[pid] for pid, s in quoted)  # every cell is that paper's own sentence
    unknown = run(home, "compare", "DANCE", "a paper on protein folding with AlphaFold")
    assert unknown.returncode == 1 and "Traceback" not in unknown.stderr
    # up to five papers, as "compare DANCE, APM and HieRD" asks in chat ("extra argument" before)
    three = json.loads(run(home, "compare", "DANCE", "APM", "HieRD", "--json").stdout)
    assert [p["label"] for p in three["papers"]] == ["DANCE", "APM", "HieRD"], three["papers"]
    one = run(home, "compare", "DANCE")
    assert one.returncode == 2 and "two to five papers" in one.stderr


def test_eval_prints_the_metrics(home, tmp_path):
    out = run(home, "eval", str(DEV), "--llm", "none", "--json", "--quiet")
    assert out.returncode == 0, out.stderr
    res = json.loads(out.stdout)
    keys = ("n", "recall_at_5", "mrr", "citation_precision", "invented_citations", "fact_coverage", "refusal_accuracy")
    for key in (*keys, "by_kind"):
        assert key in res
    assert res["n"] == 115 and res["errors"] == 0 and res["papers"] == 38
    assert "not in the collection" not in out.stderr
    few = tmp_path / "few.jsonl"  # the table's layout needs no more than a few questions
    few.write_text("".join(DEV.read_text(encoding="utf-8").splitlines(keepends=True)[:5]), encoding="utf-8")
    table = run(home, "eval", str(few), "--llm", "none", "--quiet")
    assert "overall" in table.stdout and "R@5" in table.stdout and "38 papers indexed" in table.stdout


def test_eval_warns_when_the_gold_papers_are_not_indexed(home, tmp_path):
    gold = tmp_path / "other.jsonl"
    record = {"qid": "q1", "kind": "named_fact", "question": "What is X?", "gold_ids": ["nowhere#1"]}
    record["answer_facts"] = []
    gold.write_text(json.dumps(record) + "\n")
    out = run(home, "eval", str(gold), "--llm", "none", "--quiet")
    assert out.returncode == 0, out.stderr
    assert "1 gold paper ids are not in the collection" in out.stderr


def test_explicit_ollama_without_a_server_says_how_to_fix_it(home):
    env = dict(home, OLLAMA_HOST="http://127.0.0.1:9")
    out = run(env, "ask", "What is DANCE?", "--llm", "ollama")
    assert out.returncode != 0
    assert "ollama serve" in out.stderr and "--llm none" in out.stderr


def test_auto_without_ollama_answers_extractively_and_says_how_to_get_prose(home):
    """The default backend does not fall back to the small embedded model: no server, no prose."""
    env = dict(home, OLLAMA_HOST="http://127.0.0.1:9")
    out = run(env, "ask", "What accuracy gain does DANCE report?", "--json")
    assert out.returncode == 0, out.stderr
    answer = json.loads(out.stdout)
    assert answer["backend"] == "none" and answer["citations"]
    assert "ollama serve" in answer["note"] and "ollama pull llama3.2:3b" in answer["note"]


def test_config_shows_effective_values(home):
    out = run(home, "config")
    cfg = json.loads(out.stdout)
    assert cfg["index_name"].startswith("pc_") and Path(cfg["home"]) == Path(home["PAPERCHAT_HOME"])


def test_ingest_of_bad_input_stores_the_rest_and_exits_non_zero(home, tmp_path):
    good = json.dumps({"id": "ok#1", "abstract": "We propose a tiny test method for ingest exit codes. It works well."})
    corpus = tmp_path / "some_bad.jsonl"
    corpus.write_text(good + "\n{not json\n")
    out = run(home, "ingest", "--quiet", str(corpus), str(tmp_path / "missing.jsonl"))
    assert out.returncode == 1, out.stdout + out.stderr
    assert "some_bad.jsonl: found 2, added 1, updated 0, unchanged 0, failed 1; utf-8" in out.stdout
    assert "some_bad.jsonl:2:" in out.stderr and "missing.jsonl: no such file" in out.stderr
    assert "2 records or files could not be ingested" in out.stderr and "Traceback" not in out.stderr


def test_sync_and_remove_keep_the_index_equal_to_the_source(home, tmp_path, embedder):
    from rag.index.ingest import ingest_paths
    from rag.pipeline import open_store
    from rag.settings import Settings
    from store.home import WriterLock

    def rec(pid, name):
        return {"id": pid, "abstract": f"We propose {name}, a method for testing sync. It works on toy data."}

    mine = tmp_path / "mine.jsonl"
    mine.write_text("".join(json.dumps(rec(f"mine#{i}", f"SYNC{i}")) + "\n" for i in range(3)))
    settings = Settings(home=Path(home["PAPERCHAT_HOME"]))
    with WriterLock(settings.home, command="test", timeout=60):  # as the CLI would, without a second model load
        store = open_store(settings)
        base = store.counts()[0]
        ingest_paths([mine], store, embedder)
    # mine#1 leaves the file (adds and updates are checked in test_sync.py; nothing to embed keeps this fast)
    mine.write_text("".join(json.dumps(rec(f"mine#{i}", f"SYNC{i}")) + "\n" for i in (0, 2)))
    out = run(home, "ingest", "--sync", "--quiet", str(mine))
    assert out.returncode == 0, out.stderr
    assert "mine.jsonl: found 2, added 0, updated 0, unchanged 2, failed 0, removed 1; utf-8" in out.stdout
    assert f"store: {base + 2} papers" in out.stdout
    out = run(home, "remove", "mine#0", "mine#9")
    assert out.returncode == 1 and "removed 1 paper: mine#0" in out.stdout and "not in the index: mine#9" in out.stderr
    out = run(home, "remove", "--source", str(mine))
    assert out.returncode == 0 and "removed 1 paper: mine#2" in out.stdout
    assert f"store: {base} papers" in out.stdout


def test_ingest_reads_a_gzipped_corpus_and_names_its_bad_record(tmp_path):
    import gzip

    with gzip.open(ROOT / "benchmarks" / "corpus" / "icml_2022_2023.jsonl.gz", "rt", encoding="utf-8") as f:
        lines = [next(f) for _ in range(3)]
    corpus = tmp_path / "icml_few.jsonl.gz"
    corpus.write_bytes(gzip.compress("".join([lines[0], "{not json\n", *lines[1:]]).encode("utf-8")))
    env = dict(os.environ, PAPERCHAT_HOME=str(tmp_path / "home"))
    out = run(env, "ingest", "--quiet", "--local", str(corpus))
    assert out.returncode == 1, out.stdout + out.stderr
    assert "icml_few.jsonl.gz: found 4, added 3, updated 0, unchanged 0, failed 1; utf-8" in out.stdout
    assert "icml_few.jsonl.gz:2: invalid JSON" in out.stderr and "unsupported format" not in out.stderr
