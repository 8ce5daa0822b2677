"""A comparison that chooses by size or by age (:func:`rag.route.compare.size_verdict`,
:func:`rag.route.compare.year_lead`): which paper states the larger (or smaller) model, and which
is older by the years the records give. Hand-checkable sentences and papers; the conversation
that asks them end to end is in ``tests/test_conversation.py``."""

from __future__ import annotations

from rag.question.asks import read_ask
from rag.route.compare import build_table, size_verdict, year_lead
from rag.types import Citation, Evidence
from store.papers import make_paper
from tests.fakes import FakeEvidence

LABELS = [("GLaM", 1), ("PaLM-E", 2)]


def _cell(paper_id: str, sentence: str) -> tuple[Evidence, ...]:
    return (Evidence(paper_id, sentence, 0, len(sentence), 1.0),)


GLAM = _cell("g", "The largest GLaM has 1.2 trillion parameters, which is approximately 7x larger than GPT-3.")
PALME = _cell("p", "Our largest model with 562B parameters is a visual-language generalist.")


def test_the_larger_is_the_greatest_size_each_cell_states():
    said = size_verdict(LABELS, [GLAM, PALME])
    assert said == "By the sizes their abstracts state, GLaM [1] is the larger (1.2 trillion parameters against 562B)."


def test_the_smaller_is_named_when_asked():
    said = size_verdict(LABELS, [GLAM, PALME], smaller=True)
    assert said.startswith("By the sizes their abstracts state, PaLM-E [2] is the smaller (562B against")


def test_a_range_counts_by_its_greatest_size():
    pythia = _cell("y", "a suite of 16 LLMs ranging in size from 70M to 12B parameters.")
    assert "GLaM [1] is the larger (1.2 trillion parameters against 12B)" in size_verdict(LABELS, [GLAM, pythia])


def test_a_cell_that_states_no_size_is_named_and_no_verdict_is_made_from_one_size():
    energy = _cell("e", "It consumes only 1/3 of the energy used to train GPT-3.")
    said = ("Only GLaM [1] states a model size (1.2 trillion parameters); PaLM-E [2] states none, so the "
            "abstracts do not say which is the larger.")
    assert size_verdict(LABELS, [GLAM, energy]) == said
    assert size_verdict(LABELS, [GLAM, ()]) == said
    assert size_verdict(LABELS, [(), energy]) == "None of the two abstracts states a model size."
    assert size_verdict(LABELS, [PALME, PALME]) == ""


def test_over_a_list_the_largest_or_smallest_of_those_that_state_one_and_the_others_named():
    labels = [("FlexRound", 1), ("GLaM", 2), ("SmoothQuant", 3), ("PaLM-E", 4), ("LUT-GEMM", 5)]
    opt = _cell("o", "We evaluate on OPT-175B and BLOOM-176B.")
    cells = [(), GLAM, opt, PALME, ()]
    said = size_verdict(labels, cells)
    assert said.startswith("By the sizes their abstracts state, GLaM [2] is the largest (1.2 trillion parameters")
    assert said.endswith(
        "followed by PaLM-E [4] (562B), SmoothQuant [3] (176B); FlexRound [1] and LUT-GEMM [5] state no model size."
    )
    assert "OPT-175B [3]" not in said and "SmoothQuant [3] is the smallest" in size_verdict(labels, cells, smaller=True)


def test_the_older_by_the_records_years():
    papers = [make_paper("g", "A.", year=2023), make_paper("p", "B.", year=2022)]
    lead = year_lead(LABELS, papers)
    assert "PaLM-E [2] (2022) is the older; GLaM [1]: 2023." in lead
    assert "PaLM-E [2] (2022)" not in year_lead(LABELS, papers, older=False)
    assert "GLaM [1] (2023) is the more recent" in year_lead(LABELS, papers, older=False)


def test_the_same_year_or_none_tells_nothing_apart():
    same = [make_paper("g", "A.", year=2022), make_paper("p", "B.", year=2022)]
    assert "the records give no finer date" in year_lead(LABELS, same)
    assert year_lead(LABELS, [make_paper("g", "A.", year=2022), make_paper("p", "B.")]) == ""


def test_over_a_list_the_papers_of_the_extreme_year_are_named_and_said_not_told_apart():
    labels = [("Guided-TTS", 1), ("MCLP", 2), ("YourTTS", 3), ("DGSA", 4)]
    papers = [make_paper("a", "A.", year=2022), make_paper("b", "B.", year=2026), make_paper("c", "C.", year=2022),
              make_paper("d", "D.", year=2026)]
    lead = year_lead(labels, papers, older=False)
    assert ": MCLP [2] and DGSA [4] (2026) are the most recent, and the records give no finer date" in lead
    assert lead.endswith("; Guided-TTS [1]: 2022; YourTTS [3]: 2022. The abstracts state no dates.")
    one = year_lead(labels[:3], papers[:3])
    assert ": Guided-TTS [1] and YourTTS [3] (2022) are the oldest" in one
    three = [make_paper("a", "A.", year=2021), make_paper("b", "B.", year=2026), make_paper("c", "C.", year=2022)]
    assert ": MCLP [2] (2026) is the most recent; " in year_lead(labels[:3], three, older=False)


def test_an_aspect_is_answered_first_by_the_papers_own_sentence_not_the_prior_work_it_starts_from():
    # "How do HieRD and DocVAL differ in what they distill?" quoted HieRD's "Existing distillation
    # methods typically align static global representations" before its "we propose HieRD, a
    # Hierarchical Representation Distillation framework"
    paper = make_paper(
        "p",
        "Existing pruning methods remove whole attention heads of a transformer, losing accuracy. "
        "We propose HeadTrim, which prunes single attention weights of a transformer by their saliency.",
    )
    other = make_paper("q", "We present GraphFlow, which prunes message edges of a graph network.")
    aspect = read_ask("how do they differ in what they prune in a transformer's attention?", number="many")
    table = build_table(
        FakeEvidence([paper, other]),
        [paper, other],
        lambda p, evs: Citation(1 if p.id == "p" else 2, p.id, p.label, p.title, tuple(evs)),
        aspects=[aspect],
    )
    cell = table.aspect_cells[0][0]
    assert [e.sentence.split()[0] for e in cell] == ["We", "Existing"], cell  # both kept, its own first


def test_the_key_terms_of_a_compared_paper_are_no_words_of_its_links():
    # "SparseGPT — sparsity, ist-daslab, gpt-family": the first was the path of its GitHub link
    from rag.route.compare import _key_terms
    from store.papers import make_paper

    paper = make_paper("p", "We prune networks by sparsity. Sparsity helps pruning. "
                            "Code: https://github.com/ZEBRA-LAB/pruner.")
    # a link's path is rare in the collection: its idf is high
    terms = _key_terms(paper, lambda t: 8.0 if t == "zebra-lab" else 1.0)
    assert terms and not any("zebra" in t for t in terms), terms


def test_an_aspect_below_the_score_floor_is_answered_by_a_sentence_that_states_its_terms():
    # "DetectGPT vs A Watermark for Large Language Models: which one needs access to the model?"
    # answered "not stated" for the watermark paper beside its "... without access to the language
    # model API or parameters": evidence decides when the score does not reach the floor
    from rag.settings import EvidenceSettings

    stating = make_paper("p", "We mark generated text. Detection needs no access to the API or parameters of a model.")
    silent = make_paper("q", "We score a passage by perturbing it and comparing the two detection scores.")
    evidence = FakeEvidence([stating, silent])
    evidence.settings = EvidenceSettings(aspect_floor=0.95)  # above every share of words here
    aspect = read_ask("which of them needs access to the weights for detection?", number="many")
    table = build_table(
        evidence,
        [stating, silent],
        lambda p, evs: Citation(1 if p.id == "p" else 2, p.id, p.label, p.title, tuple(evs)),
        aspects=[aspect],
    )
    cells = table.aspect_cells[0]
    assert [e.sentence.split()[0] for e in cells[0]] == ["Detection"], cells  # "weights" by "parameters"
    assert cells[1] == (), cells  # "detection" alone states no need of access
