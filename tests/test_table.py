"""Tables across papers (``rag/table.py``): the column-kind model, the table request in the question
model, every cell an exact sentence, name and code columns against the seed file's gold fields, the
dev set's set and comparison questions as tables, and ``paperchat table``.

The fast tests use hand-made papers; the others the shared real pipeline (conftest: the bundled
embedder, Chroma on disk, the 38 seed papers, no LLM). Gold fields are read here only.
"""

from __future__ import annotations

import csv
import io
import json

import pytest
from click.testing import CliRunner
from conftest import DEV, FIXTURES, SEED
from test_question import PAPERS

from rag.eval import load_gold, score_table, table_for
from rag.evidence.rows import NOT_STATED
from rag.evidence.table import _SIZE, Cell, PaperTable, _own_first, _pattern_cell, parse_columns, value_supported
from rag.index.catalogue import Catalogue
from rag.question.asks import read_ask
from rag.question.columns import column, column_kind
from rag.question.reader import read_question
from rag.route.conversation import Conversation
from rag.route.table_text import table_csv, table_markdown
from rag.types import Citation, Evidence
from store.papers import make_paper
from ui.evidence_panel import full_url

GOLD = {r["id"]: r for r in map(json.loads, SEED.read_text(encoding="utf-8").splitlines())}
DANCE, APM, SENDAI = "000_6b930c46f6674b66#1", "000_6b930c46f6674b66#2", "000_6b930c46f6674b66#8"

# --- the column-kind model: one model, several phrasings of each kind ----------------------------


@pytest.mark.parametrize(
    ("kind", "phrasings"),
    [
        ("name", ["name", "method name", "what is it called", "acronym", "name of the system"]),
        ("code", ["code", "code link", "GitHub repository", "URL of the implementation", "is the code available"]),
        ("data", ["benchmark", "datasets used", "evaluation data", "which benchmarks", "what datasets does it use"]),
        ("metric", ["metric and number", "accuracy", "reported gains", "performance numbers", "speedup"]),
        ("size", ["model size", "number of parameters", "parameter count", "model scale"]),
        ("limitations", ["limitations", "weaknesses", "main drawback", "shortcomings of the method", "caveats"]),
        ("problem", ["problem", "challenge addressed", "motivation", "research question"]),
        ("approach", ["approach", "method", "key idea", "proposed technique"]),
        ("results", ["main result", "findings", "key results", "conclusions"]),
        ("free", ["compute budget", "training cost", "what does each condense or distill",
                  "which aspect of diffusion models does each improve", "how does each decide what to acquire"]),
    ],
)
def test_column_phrasings_are_read_into_their_kind(kind: str, phrasings: list[str]):
    assert {p: column_kind(p).key for p in phrasings} == dict.fromkeys(phrasings, kind)


def test_columns_from_a_list_keep_order_and_default_to_the_comparison_rows():
    cols = parse_columns("benchmark, main result and code link; the model size")
    assert [(c.title, c.kind.key) for c in cols] == [
        ("Benchmark", "data"), ("Main result", "results"), ("Code link", "code"), ("Model size", "size")
    ]
    assert [c.kind.key for c in parse_columns("")] == ["problem", "approach", "data", "results", "limitations"]


def test_a_value_is_kept_only_when_every_word_stands_in_the_quote():
    ev = (Evidence("p#1", r"Experiments on ALFWorld and \textbf{ScienceWorld} show 2.33\% gains.", 0, 10, 1.0),)
    assert value_supported("ALFWorld, ScienceWorld", ev)
    assert value_supported("2.33%", ev)
    assert not value_supported("ALFWorld, WebShop", ev)
    assert not value_supported("", ev)


# --- the table request in the question model ----------------------------------------------------

@pytest.fixture(scope="module")
def cat() -> Catalogue:
    """The hand-made catalogue of the question-model tests (DANCE, APM, Shape-of-Thought, ProAct-75)."""
    return Catalogue(PAPERS)


@pytest.mark.parametrize(
    ("question", "topic", "columns"),
    [
        ("table of the papers on reinforcement learning with columns benchmark, main result, code",
         "reinforcement learning", ("benchmark", "main result", "code")),
        ("Make a table of the papers on RL for LLM agents with their benchmark, main result and code link.",
         "RL for LLM agents", ("benchmark", "main result", "code link")),
        ("compare all the papers on speech by dataset and result", "speech", ("dataset", "result")),
        ("Could you put the diffusion papers side by side?", "diffusion", ()),
        ("Tabulate the knowledge distillation papers: name, code and model size",
         "knowledge distillation", ("name", "code", "model size")),
        ("I want a spreadsheet of papers about agents showing their benchmark and results", "agents",
         ("benchmark", "results")),
        ("the papers on federated learning, as a table", "federated learning", ()),
        ("give me a comparison table of papers about graph learning in terms of data and limitations",
         "graph learning", ("data", "limitations")),
        ("compare every paper about diffusion models on their datasets and code availability", "diffusion models",
         ("datasets", "code availability")),
    ],
)
def test_table_requests_are_read_however_they_are_phrased(cat, question: str, topic: str, columns: tuple):
    plan = read_question(question, cat)
    assert (plan.intent, plan.topic.text, tuple(c.title.lower() for c in plan.columns)) == (
        "table", topic, tuple(c.lower() for c in columns)
    )
    assert plan.topic.number == "many"  # "model size" is a column, not a refusal


@pytest.mark.parametrize(
    ("question", "columns"),
    [
        ("tabulate them by dataset, result", ("dataset", "result")),  # a new user's columns were ignored
        ("make a table of these with columns method, code", ("method", "code")),
        ("put those in a grid showing their benchmark and main result", ("benchmark", "main result")),
    ],
)
def test_a_table_of_the_papers_of_a_list_keeps_the_columns_asked(cat, question: str, columns: tuple):
    plan = read_question(question, cat)
    assert plan.intent == "table" and tuple(c.title.lower() for c in plan.columns) == columns, plan


@pytest.mark.parametrize(
    "question", ["make a table of DANCE, APM and ProAct-75", "Table of dance, apm and proact-75 with columns code"]
)
def test_a_table_of_named_papers_has_them_as_rows(cat, question: str):
    plan = read_question(question, cat)
    assert plan.intent == "table" and plan.named_ids == ("a#1", "a#2", "a#4") and plan.topic is None


@pytest.mark.parametrize(
    ("question", "intent"),
    [
        ("Which papers use table question answering?", "ask"),
        ("Compare DANCE and APM", "compare"),
        ("Compare the two federated learning papers", "compare"),
        ("What is in Table 2 of DANCE?", "ask"),
    ],
)
def test_the_word_table_in_a_topic_or_a_pair_comparison_asks_no_table(cat, question: str, intent: str):
    assert read_question(question, cat).intent == intent


# --- rendering (hand-made table) -----------------------------------------------------------------


def _table(rows: int) -> PaperTable:
    ev = Evidence("p#1", "Code is at https://x.io.", 0, 24, 1.0)
    cits = tuple(Citation(i + 1, f"p#{i + 1}", f"P{i + 1}", (ev,)) for i in range(rows))
    cells = tuple((Cell((ev,), "https://x.io"), Cell()) for _ in range(rows))
    return PaperTable((column("code"), column("limitations")), cits, cells, "agents", rows)


def test_markdown_folds_long_tables_and_says_not_stated():
    md = table_markdown(_table(12), fold=10)
    assert md.count("| **P") == 12 and "<details><summary>2 more rows</summary>" in md
    assert md.count(f"_{NOT_STATED}_") == 12 and "https://x.io — “Code is at https://x.io.” [1]" in md
    assert "<details>" not in table_markdown(_table(12))


def test_csv_has_a_row_per_paper_and_a_column_per_phrase():
    rows = list(csv.reader(io.StringIO(table_csv(_table(3)))))
    assert rows[0] == ["number", "paper", "paper_id", "Code", "Limitations"]
    assert [r[2] for r in rows[1:]] == ["p#1", "p#2", "p#3"] and rows[1][4] == NOT_STATED


# --- the real pipeline ---------------------------------------------------------------------------


def _exact(table, papers) -> list[str]:
    """Cells that are not an exact span of their paper's abstract (should be none)."""
    bad = []
    for c, row in zip(table.papers, table.cells, strict=True):
        for col, cell in zip(table.columns, row, strict=True):
            if cell.value and not value_supported(cell.value, cell.evidence):
                bad.append(f"{c.label}/{col.title}: value {cell.value!r} not in its quote")
            for e in cell.evidence:
                if papers[c.paper_id].abstract[e.start : e.end] != e.sentence or e.paper_id != c.paper_id:
                    bad.append(f"{c.label}/{col.title}")
    return bad


@pytest.mark.slow
@pytest.mark.parametrize(
    ("field", "phrasings"), [("short_name", ["name", "what is it called"]), ("code_url", ["code link", "GitHub repo"])]
)
def test_name_and_code_columns_equal_the_gold_fields_of_the_seed_papers(extractive, field: str, phrasings):
    for phrase in phrasings:
        table = Conversation(extractive.pipeline).table(papers=list(GOLD), columns=[phrase]).paper_table
        assert table is not None and [c.paper_id for c in table.papers] == list(GOLD)
        got = {c.paper_id: row[0] for c, row in zip(table.papers, table.cells, strict=True)}
        have = [pid for pid, g in GOLD.items() if g[field]]
        right = sum(got[pid].value == GOLD[pid][field] for pid in have)
        assert right / len(have) >= 0.95, (phrase, right, len(have))
        assert all(not got[pid].stated for pid, g in GOLD.items() if not g[field])  # "not stated in the abstract"
        assert not _exact(table, extractive.retriever.papers)


@pytest.fixture(scope="module")
def dev_tables(extractive):
    """The dev set's ``multi`` and ``compare`` questions as tables, with their scores."""
    qs = [q for q in load_gold(DEV) if q.kind in ("multi", "compare")]
    return [(q, table_for(extractive, q)) for q in qs]


@pytest.mark.slow
def test_dev_questions_as_tables_have_the_gold_papers_as_rows_and_their_facts_in_cells(dev_tables):
    scores = [score_table(q, turn) for q, turn in dev_tables]
    mean = lambda k, kind: sum(s[k] for s in scores if s["kind"] == kind) / sum(s["kind"] == kind for s in scores)  # noqa: E731
    # Rows of "which papers" tables are the members of the relevance model (leave-one-question-out
    # on dev recall 0.898, precision 0.885 in rag/route/membership.py); a comparison's rows are its
    # two papers. The facts of a "which papers" table are in its rows, so they follow its recall:
    # 0.90 before the refit of issue 32 (recall 0.912), 0.893 after (two dev lists lose a member,
    # mp_10 and mp_25, for precision on the library).
    assert mean("recall", "multi") >= 0.85 and mean("precision", "multi") >= 0.80
    assert mean("recall", "compare") == 1.0 and mean("precision", "compare") == 1.0
    facts = [s["facts"] for s in scores if s["facts"] is not None]
    assert sum(facts) / len(facts) >= 0.88


@pytest.mark.slow
def test_every_cell_of_many_tables_is_an_exact_sentence_or_not_stated(extractive, dev_tables):
    papers = extractive.retriever.papers
    tables = [turn.paper_table for _, turn in dev_tables if turn.paper_table is not None]
    every = ["benchmark", "main result", "code", "name", "model size", "limitations", "training cost", "metric"]
    conv = Conversation(extractive.pipeline)
    tables.append(conv.table(papers=list(GOLD), columns=every).paper_table)
    tables.append(conv.table("large language models", columns=every).paper_table)
    cells = sum(len(t.papers) * len(t.columns) for t in tables)
    assert len(tables) >= 30 and cells >= 800
    assert [b for t in tables for b in _exact(t, papers)] == []
    stated = [cell for t in tables for row in t.cells for cell in row if cell.stated]
    assert len(stated) > cells / 2  # and most of them do quote a sentence


@pytest.mark.slow
@pytest.mark.parametrize(
    "message",
    [
        "table of the papers on reinforcement learning for LLM agents with columns benchmark, main result, code",
        "compare all the papers on reinforcement learning for LLM agents by benchmark, main result and code",
        "Make a table of the papers on reinforcement learning for LLM agents with their benchmark, main result "
        "and code.",
    ],
)
def test_chat_phrasings_give_the_table_the_command_gives(extractive, message: str):
    turn = Conversation(extractive.pipeline).ask(message)
    cli = Conversation(extractive.pipeline).table(
        "reinforcement learning for LLM agents", columns=["benchmark", "main result", "code"]
    )
    assert turn.kind == "table" and turn.paper_table is not None and cli.paper_table is not None
    assert [c.paper_id for c in turn.paper_table.papers] == [c.paper_id for c in cli.paper_table.papers]
    assert turn.paper_table.cells == cli.paper_table.cells
    assert turn.answer.text.startswith(f"{turn.paper_table.matched} papers in the collection match")


@pytest.mark.slow
def test_a_table_of_named_papers_in_chat_quotes_each_named_paper(extractive):
    turn = Conversation(extractive.pipeline).ask("make a table of DANCE, APM and SENDAI")
    table = turn.paper_table
    assert table is not None and [c.paper_id for c in table.papers] == [DANCE, APM, SENDAI]
    assert [c.title for c in table.columns] == ["Problem", "Approach", "Data / benchmarks", "Key results",
                                               "Limitations"]
    assert table.cell(APM, "key results").stated and "65" in table.cell(APM, "key results").evidence[0].sentence
    assert all(f"[{c.number}]" in turn.answer.text for c in table.papers)


@pytest.mark.slow
@pytest.mark.parametrize("follow_up", ["put them in a table with their code", "make a table of these papers"])
def test_a_table_of_the_papers_just_listed(extractive, follow_up: str):
    conv = Conversation(extractive.pipeline)
    listed = conv.ask("Which papers use reinforcement learning?").answer.cited_ids
    turn = conv.ask(follow_up)
    assert len(listed) >= 3 and turn.paper_table is not None
    assert [c.paper_id for c in turn.paper_table.papers] == listed  # same papers, same numbers
    assert [c.number for c in turn.paper_table.papers] == list(range(1, len(listed) + 1))
    assert Conversation(extractive.pipeline).ask(follow_up).kind == "clarify"  # nothing listed before


@pytest.mark.slow
def test_paperchat_table_prints_markdown_json_and_csv(extractive, monkeypatch):
    import ui.cli_setup
    from ui.cli import main

    monkeypatch.setattr(ui.cli_setup, "build_components", lambda *a, **k: extractive)  # the shared real pipeline
    run = CliRunner().invoke
    args = ["table", "reinforcement learning for LLM agents", "--columns", "benchmark, main result, code"]
    data = json.loads(run(main, [*args, "--json"]).output)
    assert data["turn"] == "table"
    assert [c["title"] for c in data["table"]["columns"]][1:] == ["Benchmark", "Main result", "Code"]
    papers = extractive.retriever.papers
    for row in data["table"]["rows"]:
        for cell in row["cells"]:
            assert all(papers[e["paper_id"]].abstract[e["start"] : e["end"]] == e["sentence"] for e in cell["evidence"])
            assert cell["stated"] == bool(cell["evidence"]) and (cell["stated"] or cell["text"] == NOT_STATED)
        code = row["cells"][3]
        assert code["value"] == (GOLD[row["paper_id"]]["code_url"] or "")
    assert {c["paper_id"] for c in data["citations"]} == {r["paper_id"] for r in data["table"]["rows"]}
    md = run(main, args)
    assert md.exit_code == 0 and "| Paper | Reinforcement learning for LLM agents | Benchmark |" in md.output
    rows = list(csv.reader(io.StringIO(run(main, [*args, "--csv"]).output)))
    assert len(rows) == 1 + len(data["table"]["rows"]) and rows[0][-1] == "Code"
    assert rows[0][:4] == ["number", "paper", "paper_id", "link"]  # each row's id and link
    assert [r[2] for r in rows[1:]] == [r["paper_id"] for r in data["table"]["rows"]]
    assert [r[3] for r in rows[1:]] == [full_url(papers[r[2]].url) for r in rows[1:]]
    assert any(r[3] for r in rows[1:])
    assert run(main, ["table"]).exit_code == 2  # neither a topic nor papers: usage error


def test_fixture_gold_is_the_seed_file():
    """The gold copy the tests read holds the 38 seed papers with both fields."""
    assert len(GOLD) == 38 and all({"short_name", "code_url"} <= set(g) for g in GOLD.values())
    assert (FIXTURES / "dev_variants.jsonl").exists()


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("The largest GLaM has 1.2 trillion parameters, 7x larger than GPT-3.", "1.2 trillion parameters"),
        ("A Brainformer model with 8 billion activated parameters per token.", "8 billion activated parameters"),
        ("we train a 22B-parameter ViT (ViT-22B)", "22B"),
    ],
)
def test_a_size_column_reads_trillions_and_a_word_before_parameters(text: str, size: str):
    # "1.2 trillion parameters" and "8 billion activated parameters" were "not stated"
    assert _SIZE.search(text) is not None and _SIZE.search(text).group(0).strip() == size


class _Moves:
    """Sentences scored in a fixed order, the first one the background (a hand-checkable fake)."""

    def __init__(self, paper):
        self.sentences = [e for e in _spans(paper)]

    def score(self, ask, paper, qvec=None):
        return self.sentences

    def moves(self, paper):
        return {self.sentences[0].start: "background"}


def _spans(paper):
    out, start = [], 0
    for sentence in paper.abstract.split(". "):
        text = sentence if sentence.endswith(".") else sentence + "."
        out.append(Evidence(paper.id, text, start, start + len(text), 0.5))
        start += len(sentence) + 2
    return out


def test_a_size_cell_quotes_the_papers_own_model_not_the_fields():
    # "the largest large language models (LLMs) contain upwards of 100B parameters" (background)
    # was ViT-22B's size
    field = make_paper(
        "vit", "At present, the largest language models contain upwards of 100B parameters. We train ViT-Big, a "
        "22B-parameter vision transformer, and study its scaling."
    )
    evidence = _Moves(field)
    ranked = _own_first(field, evidence, read_ask("model size"))
    cell = _pattern_cell(field, evidence, read_ask("model size"), _SIZE, ranked)
    assert cell.value == "22B", cell


# --- columns that ask a slot: a cell only from a clause that states it ----------------------------


@pytest.mark.parametrize(
    ("phrase", "terms", "form"),
    [
        ("throughput", ("throughput",), ""),
        ("top-5 error", ("top-5", "error"), ""),
        ("BLEU", ("bleu",), ""),
        ("speed-up over FP16", ("speed-up",), ""),
        ("bits per weight", (), "bit width"),
        ("bitwidth", (), "bit width"),
        ("activation precision", (), "bit width"),
    ],
)
def test_a_column_that_names_a_measure_or_a_width_asks_it_as_a_slot(phrase: str, terms: tuple, form: str):
    slot = column(phrase).slot
    assert slot is not None and slot.terms == terms and slot.form == form, slot


@pytest.mark.parametrize("phrase", ["headline number", "key metric", "reported gains", "main result", "benchmark"])
def test_a_column_that_asks_any_figure_or_another_kind_has_no_slot(phrase: str):
    assert column(phrase).slot is None


def test_a_ratio_measure_column_asks_a_ratio():
    # "compression rate" is compression's amount (a ratio), not a setting named "rate"
    assert all(column(p).slot.ratio for p in ["speed-up", "compression rate", "speedup factor"])
    assert column("compression rate").slot.terms == ("compression",)
    assert not column("top-1 accuracy").slot.ratio


@pytest.mark.parametrize(
    ("sentence", "stated"),
    [
        ("We quantize weights to 3-bit with little loss.", True),
        ("an INT8 kernel", True),
        ("our W8A16 scheme", True),
        ("with 2 bits per coordinate", True),
        ("robust to random bit flips", False),
        ("results on CIFAR-100", False),
    ],
)
def test_a_bit_width_is_stated_by_the_forms_abstracts_write(sentence: str, stated: bool):
    from rag.route.slot import BIT_WIDTH_STATED

    assert (BIT_WIDTH_STATED.search(sentence) is not None) == stated


@pytest.mark.parametrize(
    ("terms", "clause", "value"),
    [
        (("bleu",), "It reaches 41.2 BLEU on WMT14 En-De and 3.1× lower latency", "41.2"),
        (("latency",), "It reaches 41.2 BLEU on WMT14 En-De and 3.1× lower latency", "3.1×"),
        (("recall",), "improving retrieval recall on NQ from 61.0% to 68.4% while", "61.0%, 68.4%"),
        (("memory",), "a 2.5x speedup and a 40% memory reduction", "40%"),
        (("speedup",), "a 2.5x speedup and a 40% memory reduction", "2.5x"),
        (("perplexity",), "with negligible increase in perplexity at 50% sparsity", ""),
    ],
)
def test_a_cell_value_is_the_figure_beside_its_measure_not_another_measures(terms, clause, value):
    from rag.route.slot import stated_value
    from rag.types import Slot

    assert stated_value(Slot(" ".join(terms), terms, amount=True), clause) == value


class _Sentences(_Moves):
    """The fake with the paper's sentences and no background (what stating_sentence reads)."""

    def sentences(self, paper):
        return self.sentences_, None

    def __init__(self, paper):
        super().__init__(paper)
        self.sentences_ = [type("S", (), {"text": e.sentence, "start": e.start, "end": e.end}) for e in self.sentences]

    def moves(self, paper):
        return {}


def test_a_measure_cell_needs_its_own_figure_else_it_is_not_stated():
    from rag.route.table_answer import column_stating

    paper = make_paper(
        "q", "We propose TinyQ, which compresses language models to 4-bit weights. TinyQ is 3.2x faster than FP16 "
        "inference with 5x compression of the weights. It keeps accuracy with negligible loss"
    )
    fake = _Sentences(paper)
    speed = column_stating(fake, column("speed-up").ask, paper)
    assert speed is not None and speed[1] == "3.2x", speed
    squeeze = column_stating(fake, column("compression").ask, paper)
    assert squeeze is not None and squeeze[1] == "5x", squeeze
    assert column_stating(fake, column("accuracy").ask, paper) is None  # no figure of accuracy
    width = column_stating(fake, column("bits").ask, paper)
    assert width is not None and width[1] == "4-bit", width
