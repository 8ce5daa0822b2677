"""One route for tables, and rows that hold the role they name (issue 32, cases 6 and 7).

* A table asked in a chat message and the same table asked by its parts (``paperchat table``, the
  MCP tool) are one plan (:meth:`rag.question.reader.Reader.table_plan`): same rows, columns, cells.
* Column kinds by what they are about: a dataset's name is the dataset a paper introduces, a
  dataset's size counts items, a model's size counts parameters.
* A summary's or comparison's data row holds a sentence that states data, not the method sentence.
* An aspect asked in a comparison is answered first, each paper by its sentence for it or "not stated".

The phrasings, papers and column wordings here are not those of the eval files. Fast tests use
hand-made papers and :mod:`tests.fakes`; the others the shared real pipeline (conftest).
"""

from __future__ import annotations

import pytest
from fakes import FakeEvidence

from rag.evidence.rows import introduces_dataset, states_data
from rag.evidence.table import fill_table
from rag.index.catalogue import Catalogue
from rag.question.columns import read_columns
from rag.question.reader import Reader
from rag.route.compare import UNSTATED_ASPECT, compare_lead
from rag.route.conversation import Conversation
from rag.types import Citation, Evidence
from store.papers import Paper

# --- column kinds by what they are about -----------------------------------------------------------


@pytest.mark.parametrize(
    ("columns", "expected"),
    [
        ("name of the corpus, corpus size", [("name", "dataset"), ("size", "dataset")]),
        ("benchmark name; how big is it", [("name", "dataset"), ("size", "dataset")]),
        ("parameter count, training dataset size", [("size", "model"), ("size", "dataset")]),
        ("acronym, scale", [("name", ""), ("size", "model")]),
        ("what is it called, size of the network", [("name", ""), ("size", "model")]),
        ("leaderboard name and scale", [("name", "dataset"), ("size", "dataset")]),
        # a dataset noun the paper makes its own asks the dataset it introduces, by its name; the
        # data used, a count of a kind of item of its own, a method that is new stay what they were
        ("released corpus, how many examples, benchmarks used",
         [("name", "dataset"), ("size", "dataset"), ("data", "")]),
        ("their own testbed; # of instances; number of tasks",
         [("name", "dataset"), ("size", "dataset"), ("metric", "")]),
        ("the newly curated collection, how much data, evaluation corpora, new method",
         [("name", "dataset"), ("size", "dataset"), ("data", ""), ("approach", "")]),
        # a count of data items in general is the dataset's size; "how big/large" asks a size
        ("number of data points, how large is the model", [("size", "dataset"), ("size", "model")]),
        ("how big is the suite, how many parameters", [("size", "dataset"), ("size", "model")]),
    ],
)
def test_a_name_or_size_column_is_about_what_it_or_its_table_names(columns: str, expected: list):
    assert [(c.kind.key, c.about) for c in read_columns(columns)] == expected


def test_a_model_size_column_asks_the_slot_a_one_paper_question_asks():
    # the same check as "what is the model size of X?": the paper's own parameter count, not a
    # baseline's ("improving over Seg-Zero-7B")
    slots = [c.slot for c in read_columns("parameter count, # params, how big is the network, dataset size")]
    assert [s.form if s else None for s in slots] == ["model size", "model size", "model size", None]


def test_a_bare_dataset_noun_in_a_table_of_papers_that_release_one_is_the_one_each_releases():
    reader = Reader(Catalogue(PAPERS))
    cols = reader.table("papers that curate a new dataset", ["corpus", "scale"]).columns
    assert [(c.kind.key, c.about) for c in cols] == [("name", "dataset"), ("size", "dataset")]
    # in a table of other papers the same noun asks what each is evaluated on
    assert [(c.kind.key, c.about) for c in reader.table("graph learning", ["corpus"]).columns] == [("data", "")]


def test_a_bare_size_is_about_datasets_when_the_rows_introduce_datasets():
    reader = Reader(Catalogue(PAPERS))
    about = reader.table("papers that curate a new dataset", ["size"]).columns[0].about
    assert about == "dataset"
    assert reader.table("graph learning", ["size"]).columns[0].about == "model"


# --- one plan, however the table is asked -----------------------------------------------------------

PAPERS = [
    Paper("b#1", "We present SpeechBank, a corpus with 1,200 hours of read speech in 12 languages. "
          "Our 350M-parameter recognizer trained on it lowers word error rate by 9%.", label="SpeechBank"),
    Paper("b#2", "We propose GraphFlow, a graph neural network for traffic forecasting. "
          "Experiments on METR-LA show that GraphFlow, a 7B model, beats baselines. "
          "The model is trained on 10K dialogues.", label="GraphFlow"),
    Paper("b#3", "Robots must grasp unseen objects. We release a simulation benchmark with 40 "
          "household scenes, and a grasping policy called GripNet.", label="GripNet"),
]


@pytest.mark.parametrize(
    ("message", "rows", "columns"),
    [
        ("table of the papers that curate a new dataset, with columns corpus name, size",
         "papers that curate a new dataset", ["corpus name", "size"]),
        ("Make a table of the works on traffic forecasting with their parameter count and code.",
         "works on traffic forecasting", ["parameter count", "code"]),
        ("I'd like a spreadsheet of robot grasping papers showing their benchmark name, scale",
         "robot grasping papers", ["benchmark name", "scale"]),
        ("speech corpora papers, as a table with columns name of the dataset; hours",
         "speech corpora papers", ["name of the dataset; hours"]),
    ],
)
def test_a_table_in_chat_and_by_its_parts_is_one_plan(message: str, rows: str, columns: list[str]):
    reader = Reader(Catalogue(PAPERS))
    chat, parts = reader.read(message), reader.table(rows, columns)
    assert chat.intent == parts.intent == "table"
    assert chat.topic is not None and parts.topic is not None
    assert (chat.topic.text.lower(), chat.topic.artifact, chat.topic.about_links) == (
        parts.topic.text.lower(), parts.topic.artifact, parts.topic.about_links
    )
    assert [(c.title.lower(), c.kind.key, c.about) for c in chat.columns] == [
        (c.title.lower(), c.kind.key, c.about) for c in parts.columns
    ]


# --- the cells of the dataset and model columns (hand-made papers, fake evidence) --------------------


def _cite(paper: Paper, evs) -> Citation:
    return Citation(1, paper.id, paper.label, tuple(evs))


def test_dataset_name_and_size_come_from_the_dataset_a_paper_introduces():
    cols = read_columns("dataset name, dataset size, model size")
    table = fill_table(FakeEvidence(PAPERS), PAPERS, cols, _cite)
    cells = {c.paper_id: row for c, row in zip(table.papers, table.cells, strict=True)}
    name, size, model = cells["b#1"]
    assert name.value == "SpeechBank" and size.value == "1,200 hours; 12 languages" and model.value == "350M"
    # GraphFlow introduces no dataset: no dataset name or size; "10K dialogues" is no model size
    name, size, model = cells["b#2"]
    assert not name.stated and not size.stated and model.value == "7B"
    # a benchmark released without a name: its sentence, no value; its size counts scenes
    name, size, model = cells["b#3"]
    assert name.stated and name.value == "" and size.value == "40 household scenes" and not model.stated


@pytest.mark.parametrize(
    ("sentence", "introduces", "data"),
    [
        ("We curate OceanSet, a collection of 3,000 annotated sonar images.", True, True),
        ("Our benchmark spans 12 languages.", True, True),
        ("We evaluate the method on three public benchmarks.", False, True),
        ("This method initializes the dataset as a single cluster and splits it.", False, False),
        ("We present a pruning method that scores every sample of the dataset.", False, False),
        ("The proposed approach outperforms baselines on standard benchmarks.", False, True),
        ("In a user study with 30 clinicians, the tool halved review time.", False, True),
        # the settings a verb of showing names are the data it is shown on (a new user's false
        # "does not state the data it uses")
        ("Our empirical evaluation confirms these findings in simulated locomotion and manipulation settings.", False,
         True),
        ("We demonstrate gains across diverse continuous control environments.", False, True),
        ("We validate the theory in the linear setting.", False, False),
        # a dataset stated by its size: the authors contribute a counted collection of items
        ("We collect 500 human demonstrations of bimanual tasks.", True, True),
        ("We release **40K verified reasoning traces** with the code.", True, True),
        ("We present results on 12 tasks.", False, True),
        # named data right after a noun for it (a new user's false "does not state the datasets it
        # uses", quoting this very sentence as closest)
        ("We set a new state of the art on language modeling in standard datasets WikiText103 and The Pile.",
         False, True),
        # data coordinated before its noun ("on X and downstream tasks"): HieRD's own data sentence;
        # without it "which datasets does HieRD use?" led with its gap sentence on prior VLM research
        ("Experimental results on multimodal embedding and downstream tasks show that it outperforms baselines.",
         False, True),
    ],
)
def test_a_sentence_states_data_or_a_dataset_of_its_own_by_what_it_says(sentence, introduces, data):
    assert (introduces_dataset(sentence), states_data(sentence)) == (introduces, data)


# --- comparison aspects and their lead --------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "row"),
    [
        ("How do SpeechBank and GraphFlow differ in the metrics they report?", "results"),
        ("How does GripNet differ from GraphFlow in the benchmarks it uses?", "data"),
        ("What are the differences between SpeechBank and GripNet regarding evaluation?", "data"),
        ("How do Speech-Helper and GraphFlow differ in the data they use?", "data"),
    ],
)
def test_an_aspect_that_names_a_row_is_that_row(question: str, row: str):
    plan = Reader(Catalogue(PAPERS)).read(question)
    assert plan.intent == "compare" and [a.row for a in plan.aspects] == [row]


def test_the_lead_answers_the_aspect_and_says_which_paper_does_not_state_it():
    ev = Evidence("b#1", "Experiments on LibriSpeech show gains.", 0, 38, 1.0)
    lead = compare_lead([("SpeechBank", 1), ("GripNet", 2)], [(ev,), ()], aspect=True)
    assert lead.startswith("**SpeechBank** [1] and **GripNet** [2] compared: SpeechBank — “")
    assert lead.endswith(f"GripNet — {UNSTATED_ASPECT}")
    assert compare_lead([("A", 1), ("B", 2)], [(ev,), ()]) == "**A** [1] and **B** [2] compared."


# --- the real pipeline -----------------------------------------------------------------------------

HYPERTRACK, PROACT, RAST, SOT, MCLP = (
    "004_7c6cb99d3d3a622c#9", "000_6b930c46f6674b66#16", "004_7c6cb99d3d3a622c#10", "004_7c6cb99d3d3a622c#19",
    "000_6b930c46f6674b66#9",
)


def _rows(turn):
    t = turn.paper_table
    assert t is not None, turn.answer.text
    return [c.paper_id for c in t.papers], [(c.title, c.kind.key, c.about) for c in t.columns], t.cells


@pytest.mark.parametrize(
    ("message", "topic", "columns"),
    [
        ("Could you make a table of the papers that introduce a benchmark or dataset, with columns "
         "benchmark name, size and code link?", "papers that introduce a benchmark or dataset",
         ["benchmark name", "size", "code link"]),
        ("table of papers about federated learning with columns parameter count, datasets used",
         "papers about federated learning", ["parameter count", "datasets used"]),
        ("Tabulate the speech or audio papers: name, dataset size, headline number",
         "speech or audio papers", ["name", "dataset size", "headline number"]),
        ("put the papers on reinforcement learning for reasoning in a table with their model size and code",
         "papers on reinforcement learning for reasoning", ["model size", "code"]),
    ],
)
def test_a_table_asked_in_chat_is_the_table_paperchat_table_gives(extractive, message, topic, columns):
    chat = Conversation(extractive.pipeline).ask(message)
    cli = Conversation(extractive.pipeline).table(topic, columns=columns)
    assert chat.kind == cli.kind == "table"
    assert _rows(chat) == _rows(cli)


@pytest.mark.parametrize(
    ("topic", "refused"),
    [
        ("reinforcement learning for GUI agents", False),
        # the membership model admits papers on one part; no abstract states both parts
        ("graph neural networks for federated learning", True),
        ("speech synthesis with diffusion", True),
    ],
)
def test_a_table_of_a_topic_of_several_parts_has_the_rows_the_chat_list_cites(extractive, topic, refused):
    # the rows are the papers that state every part, as the chat answer to "which papers ..." cites
    listed = Conversation(extractive.pipeline).ask(f"Which papers are about {topic}?")
    table = Conversation(extractive.pipeline).table(topic, columns=["benchmark"])
    assert listed.answer.refused is table.answer.refused is refused, (listed.answer.text, table.answer.text)
    if not refused:
        assert sorted(_rows(table)[0]) == sorted(c.paper_id for c in listed.answer.citations)


@pytest.mark.parametrize(
    ("question", "table"),
    [
        ("Which papers release a new dataset or benchmark?", "papers that release a new dataset or benchmark"),
        ("any papers that put out their own dataset?", "papers that contribute a dataset"),
    ],
)
def test_a_table_of_papers_that_release_a_dataset_quotes_what_made_each_a_row(extractive, question, table):
    # each row's topic cell is the sentence the list quotes for that paper (the contribution that
    # made it a member), not the sentence closest to the words "dataset or benchmark"; a dataset
    # stated by its size ("We release 95K validator-verified CoT traces") has that size
    listed = Conversation(extractive.pipeline).ask(question).answer
    quoted = {s.paper_id: s.evidence[0].sentence for s in listed.citations}
    turn = Conversation(extractive.pipeline).table(table, columns=["dataset name", "size"])
    t = turn.paper_table
    assert t is not None and [c.paper_id for c in t.papers] == list(quoted), (listed.text, turn.answer.text)
    for c, row in zip(t.papers, t.cells, strict=True):
        assert row[0].evidence[0].sentence == quoted[c.paper_id], (c.label, row[0])
        assert row[2].stated == bool(row[2].value), (c.label, row[2])
    sizes = {c.label: row[2].value for c, row in zip(t.papers, t.cells, strict=True)}
    assert sizes.get("DocVAL") == "95K validator-verified CoT traces", sizes


def test_dataset_and_model_columns_in_other_words_hold_what_each_abstract_states(extractive):
    # "how many items" was a free column quoting the method sentence, "new benchmark" quoted the
    # benchmarks DocVAL is evaluated on, "# params" gave RSAgent the 7B of the baseline it beats
    table = Conversation(extractive.pipeline).table(
        papers=["HyperTrack", "DocVAL", "RSAgent", "Agent-Omit"],
        columns=["new benchmark", "how many items", "# params"],
    ).paper_table
    assert table is not None
    values = {c.label: tuple(cell.value for cell in row) for c, row in zip(table.papers, table.cells, strict=True)}
    assert values["HyperTrack"][:2] == (
        "HyperTrack", "over 16000 real-world tasks; more than 650 Chinese mobile applications"
    )
    assert values["DocVAL"][1] == "95K validator-verified CoT traces"
    assert "95K" in table.cell("000_6b930c46f6674b66#3", "new benchmark").evidence[0].sentence
    assert values["Agent-Omit"][2] == "8B" and not any(values["RSAgent"]), values


def test_a_table_of_named_papers_in_chat_is_the_table_of_those_papers(extractive):
    chat = Conversation(extractive.pipeline).ask("make a table of HyperTrack, RAST-MoE and MCLP with columns "
                                                 "dataset name, dataset size, model size")
    cli = Conversation(extractive.pipeline).table(papers=["HyperTrack", "RAST-MoE", "MCLP"],
                                                  columns=["dataset name", "dataset size", "model size"])
    assert _rows(chat) == _rows(cli) and _rows(chat)[0] == [HYPERTRACK, RAST, MCLP]


def test_dataset_columns_hold_the_dataset_a_paper_introduces(extractive):
    turn = Conversation(extractive.pipeline).ask(
        "a table of the papers that release a new dataset or benchmark with columns dataset name, size"
    )
    table = turn.paper_table
    assert table is not None and {HYPERTRACK, PROACT, SOT} <= {c.paper_id for c in table.papers}
    assert table.cell(HYPERTRACK, "dataset name").value == "HyperTrack"
    assert "16000" in table.cell(HYPERTRACK, "size").value  # "over 16000 real-world tasks"
    assert table.cell(PROACT, "dataset name").value == "ProAct-75" and "91,581" in table.cell(PROACT, "size").value
    assert "SoT-26K" in table.cell(SOT, "dataset name").value  # the dataset, not the method's name "SoT"
    for c in table.papers:  # a dataset's name is never only the method's label (SoT, MCLP, DexMachina)
        assert table.cell(c.paper_id, "dataset name").value != c.label or c.paper_id in (HYPERTRACK, PROACT)
    sizes = Conversation(extractive.pipeline).table(papers=[RAST], columns=["model size", "dataset size"]).paper_table
    assert sizes is not None and sizes.cell(RAST, "model size").value == "12M"  # "our 12M-parameter model"
    assert not sizes.cell(RAST, "dataset size").stated


@pytest.mark.parametrize("name", ["SGB-IB", "Graph-R1", "DocVAL", "DDL"])
def test_a_summary_data_row_states_data_not_the_method(extractive, name: str):
    turn = Conversation(extractive.pipeline).ask(f"give me an overview of {name}")
    lines = [x for x in turn.answer.text.splitlines() if x.startswith("- ")]
    data = [x for x in lines if "data / benchmarks" in x.lower()]
    assert data and all(states_data(x) for x in data), turn.answer.text
    assert not any(x.lower().startswith("- approach and data") for x in data)


@pytest.mark.parametrize(
    ("question", "ids", "row_word"),
    [
        ("In terms of the benchmarks they use, how do EMPG and Agent-Omit differ?",
         ("000_6b930c46f6674b66#15", None), "data"),
        ("How do CA-SOADD and CogRouter differ in the metrics they report?", None, "results"),
    ],
)
def test_a_comparison_answers_the_aspect_asked_first(extractive, question: str, ids, row_word: str):
    turn = Conversation(extractive.pipeline).ask(question)
    assert turn.kind == "compare" and turn.table is not None
    lead = turn.answer.text.split("\n\n")[0]
    first = turn.table.aspect_cells[0]
    rows = {r.key: i for i, r in enumerate(turn.table.rows)}
    assert [tuple(e.start for e in cell) for cell in first] == [
        tuple(e.start for e in cell) for cell in turn.table.cells[rows[row_word]]
    ]
    for c, cell in zip(turn.table.papers, first, strict=True):
        assert (f"{c.label} — {UNSTATED_ASPECT}" in lead) == (not cell)
        assert not cell or f"{c.label} — “" in lead


def test_a_paper_whose_abstract_states_no_data_is_said_not_to(extractive):
    turn = Conversation(extractive.pipeline).ask("How do FOAM and DANCE differ in the datasets they use?")
    lead = turn.answer.text.split("\n\n")[0]
    assert f"FOAM — {UNSTATED_ASPECT}" in lead
    assert "DANCE — “" in lead and "TAG datasets" in lead


def test_a_count_of_a_datasets_items_is_answered_as_the_table_column_quotes_it(extractive):
    # "How many examples does DocVAL's released dataset have?" said "does not state the number of
    # examples" while the table's "how many examples" column quoted "95K validator-verified CoT traces"
    table = Conversation(extractive.pipeline).table(papers=["DocVAL", "HyperTrack"], columns=["how many examples"])
    assert table.paper_table is not None
    for name, question in [("DocVAL", "How many examples does DocVAL's released dataset have?"),
                           ("HyperTrack", "how many samples are in the HyperTrack dataset?")]:
        answer = Conversation(extractive.pipeline).ask(question).answer
        row = next(r for c, r in zip(table.paper_table.papers, table.paper_table.cells, strict=True) if c.label == name)
        assert not answer.refused and row[0].value.split(";")[0].split()[0] in answer.text, (question, answer.text)
