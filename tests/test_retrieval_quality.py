"""The retrieval part of the dev evaluation (no LLM): fails below the figures the product promises."""

import pytest
from conftest import DEV, search

from rag.eval import evaluate, load_gold

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def result(extractive):
    return evaluate(extractive.ask, load_gold(DEV))


def test_single_paper_questions_find_the_paper(result):
    for kind in ("named_fact", "paraphrase", "summary"):
        agg = result["by_kind"][kind]
        assert agg["recall_at_5"] >= 0.98, (kind, agg)
        assert agg["mrr"] >= 0.90, (kind, agg)


def test_no_invented_citations_and_no_errors(result):
    assert result["invented_citations"] == 0
    assert result["errors"] == 0
    assert result["by_kind"]["adversarial"]["errors"] == 0
    assert result["instruction_leaks"] == 0


def test_refusals_on_unanswerable_questions(result):
    assert result["by_kind"]["unanswerable"]["refusal_accuracy"] >= 0.9
    assert result["false_refusal"] <= 0.15


def test_citation_precision_overall(result):
    assert result["citation_precision"] >= 0.95


def test_multi_paper_questions_cite_most_gold_papers(result):
    # The question-model issue's figures: share of gold papers cited >= 0.90 with citation
    # precision >= 0.85 (see benchmarks/calibrate_membership.py for the leave-one-question-out
    # estimate of the relevance model; the rephrasings file gives the honest figure).
    multi = result["by_kind"]["multi"]
    assert multi["citation_recall"] >= 0.90, multi
    assert multi["citation_precision"] >= 0.85, multi


def test_set_questions_whose_words_match_but_meaning_does_not_are_refused(extractive):
    # Each word is in some abstract ("music ... to generate stealthy adversarial examples";
    # "protein signaling data"), but no sentence is about the topic.
    for q in ("Which papers study music generation?", "Which papers study protein design?"):
        ans = extractive.ask(q)
        assert ans.refused and not ans.citations, (q, ans.text)
    # A rare name the question states is enough, however far the sentence is from the frame.
    ans = extractive.ask("Which papers evaluate on ALFWorld?")
    assert not ans.refused
    assert {c.label for c in ans.citations} == {"EMPG", "CogRouter"}


def test_a_set_question_of_alternatives_is_judged_by_its_closest_alternative(extractive):
    # "time series or spatiotemporal data": no sentence is close to the whole phrase, but the
    # alternatives are stated and sentences are close to them (ReAugment, SENDAI).
    ans = extractive.ask("Which papers deal with time series or spatiotemporal data?")
    assert not ans.refused, ans.text
    assert {"ReAugment", "SENDAI"} <= {c.label for c in ans.citations}, ans.text
    # Alternatives no abstract is about are still refused.
    ans = extractive.ask("Which papers study music or protein design?")
    assert ans.refused and not ans.citations, ans.text


@pytest.mark.parametrize(
    ("short", "long"),
    [
        ("Which papers use RL?", "Which papers use reinforcement learning?"),
        ("which papers are about tts?", "which papers are about text-to-speech?"),
        ("which papers use SFT", "which papers use supervised fine-tuning"),
    ],
)
def test_an_abbreviation_finds_the_papers_its_long_form_finds(extractive, short, long):
    # BM25 meets both forms through the index; the embedder reads the question with the
    # abbreviation spelled out, so the dense evidence agrees as well.
    a, b = ({c.paper_id for c in extractive.ask(q).citations} for q in (short, long))
    assert a and b and len(a & b) / len(a | b) >= 0.6, (sorted(a), sorted(b))


def test_a_rare_proper_noun_the_question_states_keeps_its_paper(extractive):
    # FOAM's abstract names Shampoo (its baseline); the question calls FOAM "the Shampoo paper".
    ans = extractive.ask("What speedup does the Shampoo paper report?")
    # FOAM's abstract gives no figure: refused naming FOAM, quoting the clause that states the
    # speed-up without one ("reduces wall-clock time") as the closest
    assert ans.refused and "The abstract of FOAM (" in ans.text, ans.text
    assert "does not state a figure for speedup" in ans.text and "wall-clock time" in ans.text, ans.text
    # A proper noun no abstract states does not rescue a question about nothing here.
    ans = extractive.ask("What accuracy does the Adam paper report?")
    assert ans.refused and not ans.citations


@pytest.mark.parametrize("many", [False, True])
@pytest.mark.parametrize("terms", [2, 12])
def test_set_membership_model_is_monotone_in_each_feature(many, terms):
    import numpy as np

    from rag.route.membership import probability

    # Rows: closest-sentence cosine, topic BM25 / best, coverage, best facet BM25 / best.
    base_rows = np.array([[0.5, 0.5, 0.5, 0.5], [0.3, 0.5, 0.5, 0.5]])
    base = probability(base_rows, many, terms)
    assert base[0] > base[1]  # closer sentence, more likely a member
    for col, value in ((1, 0.9), (2, 1.0), (3, 0.9)):
        more = base_rows.copy()
        more[1, col] = value
        assert probability(more, many, terms)[1] > base[1], col
    assert np.all((base > 0) & (base < 1))
    # a plural frame admits more papers than an open one, other things equal
    assert probability(base_rows, True, terms)[1] > probability(base_rows, False, terms)[1]


def test_answer_facts_hold_in_extractive_answers(result):
    # Floor under what the evidence selection reaches on the dev set (0.90), for regressions.
    assert result["fact_coverage"] >= 0.85, result["fact_coverage"]
    assert result["by_kind"]["summary"]["fact_coverage"] >= 0.85, result["by_kind"]["summary"]


def test_split_exclusion_keeps_the_topic_and_names_what_is_left_out():
    from rag.question.phrasing import excluded_terms, split_exclusion

    assert split_exclusion("use RL to improve LLM reasoning, outside of agent settings") == (
        "use RL to improve LLM reasoning",
        "agent settings",
    )
    assert split_exclusion("study pruning, excluding dataset pruning") == ("study pruning", "dataset pruning")
    assert split_exclusion("work on speech or audio") == ("work on speech or audio", "")
    nothing = "handle tasks other than settings"  # nothing specific is excluded
    assert split_exclusion(nothing) == (nothing, "")
    assert excluded_terms("agent settings") == "agent"
    # the preposition or verb that opens what is excluded is not named with it ("Left out as about
    # agent settings", not "... about in agent settings")
    assert split_exclusion("RL for LLM reasoning, not in agent settings") == ("RL for LLM reasoning", "agent settings")
    assert split_exclusion("RL methods that are not used in robots") == ("RL methods", "robots")
    assert split_exclusion("papers on speech, not inference engines") == ("papers on speech", "inference engines")
    # the conjunction before a negated clause is no word of the topic
    assert split_exclusion("use reinforcement learning but are not about language models") == (
        "use reinforcement learning",
        "language models",
    )


def test_an_excluded_thing_is_stated_by_its_glossary_names():
    from rag.lexicon import glossary_forms

    # "LLMs" are language models, "TTS" is speech (rag/glossary.tsv same rows)
    assert {"LLM", "LM"} <= set(glossary_forms("language models"))
    assert "TTS" in glossary_forms("speech")
    assert glossary_forms("agent settings") == ()


@pytest.mark.parametrize(
    "question",
    [
        "reinforcement learning papers that don't involve language models",
        "Which papers use RL but are not about large language models?",
    ],
)
def test_an_excluded_phrase_puts_out_papers_that_state_it_by_an_abbreviation(extractive, question):
    # PrefixRL, CoVRL and DoPR write "LLMs", never "language models" side by side with "large"
    # left out; RAST-MoE (ride-hailing) and ReAugment (time series) use RL without one
    ans = extractive.ask(question)
    labels = [c.label for c in ans.citations]
    assert {"RAST-MoE", "ReAugment"} <= set(labels), ans.text
    assert not {"PrefixRL", "CoVRL", "DoPR"} & set(labels), ans.text


def test_a_set_question_leaves_out_what_it_excludes(extractive):
    q = "Which papers use reinforcement learning for LLM reasoning, outside of agent settings?"
    ans = extractive.ask(q)
    assert not ans.refused and ans.citations
    agentic = [c.label for c in ans.citations if "agent" in extractive.retriever.papers[c.paper_id].abstract.lower()]
    assert agentic == []
    assert "Left out as about agent settings" in ans.text
    # the papers named as left out are agentic members of the topic, each one stated in the collection
    # (up to the blank line before "Partly about it": the papers that state one part of the topic)
    block = ans.text.split("Left out as about agent settings")[1].split("\n\n")[0]
    left = block.split(":", 1)[1].strip(" .").split(", ")
    labels = {p.label: p for p in extractive.retriever.papers.values()}
    assert left and all("agent" in labels[x].abstract.lower() for x in left), left


@pytest.mark.parametrize(
    "question",
    [
        "papers on knowledge distillation, not dataset distillation",
        "knowledge distillation papers but not dataset distillation",
        "Which papers do knowledge distillation, excluding dataset distillation?",
    ],
)
def test_an_excluded_phrase_puts_out_only_papers_that_state_it(extractive, question):
    # HieRD distils knowledge and says "distillation" and "datasets" apart: not dataset distillation.
    ans = extractive.ask(question)
    assert "HieRD" in [c.label for c in ans.citations], ans.text


@pytest.mark.parametrize(
    ("question", "left_out", "kept"),
    [
        # HyperTrack evaluates "VLM agents in mobile GUI navigation tasks": "GUI" and "agents" apart
        ("papers on agents, but not GUI agents", "HyperTrack", "CogRouter"),
        ("which agent papers are not about GUI agents?", "HyperTrack", "EMPG"),
        # HyperTrack's "offline GUI navigation" is no offline RL; the federated paper's is
        ("which papers use RL, but not offline RL?", "Federated Deep Reinforcement Learning", "HyperTrack"),
    ],
)
def test_an_excluded_phrase_that_repeats_the_topic_is_stated_by_its_other_words_beside_it(
    extractive, question, left_out, kept
):
    ans = extractive.ask(question)
    labels = [c.label for c in ans.citations]
    assert left_out not in labels and kept in labels, ans.text
    assert left_out in ans.text.split("Left out as about", 1)[1], ans.text


def test_a_non_english_question_without_a_name_says_how_to_ask(extractive):
    from rag.question.language import looks_non_english
    from rag.route.refusal import NOT_ENGLISH

    assert looks_non_english("Welche Arbeiten beschäftigen sich mit Spracherkennung?")
    assert looks_non_english("哪些论文研究语音合成？")
    assert not looks_non_english("Which papers work on speech?")
    assert not looks_non_english("DANCE")
    # words no dictionary knows are no language: a bare lower-case abbreviation stays English
    assert not looks_non_english("vlm") and not looks_non_english("sft")
    # English shorthand: no function word, but words the abstracts use
    known = extractive.pipeline.catalogue.known
    assert not looks_non_english("SENDAI SSIM improvement over baselines?", known)
    assert not looks_non_english("DANCE accuracy gain?", known)
    assert looks_non_english("Wie stark reduziert APM den Speicherbedarf?", known)
    assert not extractive.ask("DANCE accuracy gain?").note.startswith("question not in English")
    for q in ("Welche Arbeiten beschäftigen sich mit Spracherkennung?", "哪些论文研究语音合成？"):
        ans = extractive.ask(q)
        assert ans.refused and NOT_ENGLISH in ans.text and not ans.citations
    # A name the abstracts state still finds its paper in any language.
    ans = extractive.ask("Was erreicht DANCE bei einer Kondensationsrate von 8%?")
    assert not ans.refused and ans.citations[0].label == "DANCE"
    # An English set question is judged whole, not by its topic ("address autonomous driving").
    ans = extractive.ask("Which papers address autonomous driving?")
    assert ans.refused and NOT_ENGLISH not in ans.text


def test_a_named_question_in_another_language_quotes_the_papers_main_points(extractive):
    ans = extractive.ask("Welche Genauigkeitsverbesserung berichtet DANCE?")
    assert not ans.refused and ans.citations[0].label == "DANCE"
    quoted = " ".join(e.sentence for e in ans.citations[0].evidence)
    assert "2.33" in quoted and "we propose" in quoted  # its result and its proposal, not look-alikes
    assert "not in English" in ans.note


def test_set_answers_do_not_quote_bare_availability_statements(extractive):
    ans = extractive.ask("Which papers work on speech or audio?")
    assert len(ans.citations) >= 3
    for c in ans.citations:
        assert not any("available at" in e.sentence for e in c.evidence), (c.label, c.evidence)


def test_a_listed_paper_without_a_name_also_quotes_what_it_does(extractive):
    from store.papers import has_opening_label

    ans = extractive.ask("Which papers work on speech or audio?")
    asr = [c for c in ans.citations if "music carrier" in c.label.lower()]
    assert asr, [c.label for c in ans.citations]
    quoted = " ".join(e.sentence for e in asr[0].evidence)
    assert "we introduce the first music carrier selection algorithm" in quoted
    starts = [e.start for e in asr[0].evidence]
    assert starts == sorted(starts)  # in abstract order
    # named papers keep a single quote
    named = [c for c in ans.citations if not has_opening_label(extractive.retriever.papers[c.paper_id])]
    assert named and all(len(c.evidence) == 1 for c in named)


def test_a_set_answer_says_how_many_match_when_it_lists_fewer(extractive):
    from rag.route.answer import AnswerPipeline
    from rag.route.conversation import Conversation

    p = extractive.pipeline
    settings = p.settings.model_copy(deep=True)
    settings.retrieval.max_set_size = 2
    capped = AnswerPipeline(p.retriever, p.evidence, None, settings, reader=p.reader)
    q = "Which papers work on speech or audio?"
    full, ans = Conversation(p).ask(q).answer, Conversation(capped).ask(q).answer
    assert len(full.citations) >= 3 and len(ans.citations) == 2
    assert ans.matched == full.matched == len(full.citations)
    head = f"{ans.matched} papers in the collection are clearly about this; the 2 most relevant are listed:"
    assert ans.text.startswith(head)
    assert [c.paper_id for c in ans.citations] == [c.paper_id for c in full.citations[:2]]
    assert not ans.matched_at_least  # every paper of the seed collection was a candidate


def test_members_are_a_lower_bound_only_when_candidates_were_left_unchecked():
    from rag.route.membership import more_may_match

    assert more_may_match(31, 40, 72)  # most checked candidates are members, more exist
    assert not more_may_match(31, 38, 38)  # every candidate checked
    assert not more_may_match(5, 40, 72)  # a narrow topic: members are rare
    assert not more_may_match(0, 40, 72)


def test_hardware_and_funding_questions_are_refused_as_details_abstracts_omit(extractive):
    for q, what in (
        ("What GPUs were used to train RSAgent?", "hardware"),
        ("How much funding did the DexMachina project receive?", "funding"),
    ):
        ans = extractive.ask(q)
        assert ans.refused and not ans.citations, q
        assert f"do not state {what}" in ans.text, ans.text


def test_review_outcomes_are_refused_as_details_abstracts_omit(extractive):
    for q in (
        "Which papers were rejected from NeurIPS?",
        "which ones got accepted at ICML as orals",
        "what review scores did DANCE get",
        "Did APM get into ICLR?",
        "What did the reviewers say about PrefixRL?",
    ):
        ans = extractive.ask(q)
        assert ans.refused and not ans.citations, q
        assert "do not state review outcomes" in ans.text, ans.text
    kept = extractive.ask("How does PrefixRL use rejection sampling?")  # a method, not a review outcome
    assert not kept.refused and kept.citations


def test_a_negated_set_question_is_refused_with_the_question_to_ask(extractive):
    ans = extractive.ask("Which papers don't use reinforcement learning?")
    assert ans.refused and not ans.citations
    assert "“Which papers use reinforcement learning?”" in ans.text
    assert not extractive.ask("Which papers are about not-so-large models?").text.count("not what it is not")


def test_the_collection_size_is_answered_from_the_index(extractive):
    ans = extractive.ask("How many papers are in the collection?")
    assert not ans.refused and ans.text == f"The collection holds {len(extractive.retriever.papers)} papers."


def test_the_collection_is_listed_when_asked_for_with_no_topic(extractive):
    n = len(extractive.retriever.papers)
    # "list all papers" asked for nothing; "what papers are in the collection?" was refused as nothing close
    for q in ("what papers are in the collection?", "list all papers"):
        ans = extractive.ask(q)
        assert not ans.refused and len(ans.citations) == n and ans.text.startswith(f"{n} papers"), (q, ans.text)


def test_the_seed_header_venue_and_year_filter_and_are_no_topic(extractive):
    from rag.route.filters import Filters

    auto = Filters(auto=True)
    ans = extractive.ask("which papers were published in 2026?", filters=auto)
    assert len(ans.citations) == len(extractive.retriever.papers) and "year=2026" in ans.note, ans.text
    # "ICML" was searched as a word and cited DDL for its URL ".../2026-ICML-DDL"
    ans = extractive.ask("ICML papers on speech", filters=auto)
    labels = {c.label for c in ans.citations}
    assert "venue=ICML" in ans.note and "DDL" not in labels and {"MCLP", "DGSA", "CA-SOADD"} <= labels, ans.text
    ans = extractive.ask("when was DANCE published?")
    assert ans.refused and "ICML 2026" in ans.text, ans.text  # a year is no publication date


def test_a_bare_comparison_quotes_each_papers_main_points(extractive):
    ans = extractive.ask("Compare HieRD and DocVAL.")
    assert sorted(c.label for c in ans.citations) == ["DocVAL", "HieRD"]
    for c in ans.citations:
        quoted = " ".join(e.sentence for e in c.evidence)
        assert "we propose" in quoted, (c.label, quoted)  # what it proposes, not only its background


def test_a_paper_named_by_description_is_quoted_for_what_the_question_asks(extractive):
    ans = extractive.ask("What does the ride-hailing paper propose?")
    assert [c.label for c in ans.citations] == ["RAST-MoE"]
    assert any("We introduce the Regime-Aware" in e.sentence for e in ans.citations[0].evidence)


def test_a_pair_given_by_its_topic_is_compared(extractive):
    ans = extractive.ask("What is the difference between the two federated learning papers?")
    assert ans.kind == "compare" and len(ans.citations) == 2
    assert "DANCE" in [c.label for c in ans.citations]  # federated graph learning, beside offline FDRL


def test_chat_shorthand_for_a_summary_is_not_a_missing_topic(extractive):
    ans = extractive.ask("tl;dr of the ride-hailing mixture-of-experts paper?")
    assert not ans.refused and [c.label for c in ans.citations] == ["RAST-MoE"]


def test_a_rare_compound_term_keeps_a_set_question_from_being_refused(extractive):
    ans = extractive.ask("Which papers use chain-of-thought?")
    assert not ans.refused and {"SoT", "DocVAL"} <= {c.label for c in ans.citations}
    assert extractive.ask("Which papers are about music generation?").refused


def test_two_papers_given_by_descriptions_are_compared(extractive):
    ans = extractive.ask("How does the LLM serving router differ from the ride-hailing matching paper?")
    assert not ans.refused and len(ans.citations) == 2
    assert "RAST-MoE" in [c.label for c in ans.citations]
    assert any(c.paper_id == "004_7c6cb99d3d3a622c#4" for c in ans.citations)  # the LLM-serving routing paper
    q = "How does the protein folding paper differ from the weather forecasting paper?"
    assert extractive.ask(q).refused


def test_papers_that_introduce_a_benchmark_state_it_as_their_contribution(extractive):
    ans = extractive.ask("List the papers that release a benchmark.")
    labels = {c.label for c in ans.citations}
    assert {"DexMachina", "ProAct-75"} <= labels
    # evaluating on benchmarks is not releasing one
    assert not labels & {"SGB-IB", "APM", "EMPG", "CogRouter"}, labels
    ans = extractive.ask("Which papers introduce a new evaluation metric?")
    assert {c.label for c in ans.citations} == {"MCLP", "DocVAL"}


@pytest.mark.parametrize(
    ("question", "missing"),
    [
        ("Which papers use Kolmogorov-Arnold networks?", "Kolmogorov-Arnold"),
        ("any work on Prefix-Omit agents?", "Prefix-Omit"),  # "Prefix" and "Omit" are in two abstracts
    ],
)
def test_a_coined_name_no_abstract_writes_is_refused_though_its_parts_stand_apart(extractive, question, missing):
    ans = extractive.ask(question)
    assert ans.refused and not ans.citations, ans.text
    assert f"No abstract in the collection mentions {missing}" in ans.text, ans.text
    held = extractive.ask("any work on GraphRAG agents?")  # a coined name an abstract writes
    assert not held.refused and "Graph-R1" in {c.label for c in held.citations}, held.text


@pytest.mark.parametrize(
    "question", ["which papers put out a large new dataset?", "Any papers that publish a new corpus?"]
)
def test_a_paper_that_releases_counted_data_introduces_a_dataset_and_is_quoted_with_it(extractive, question):
    # DocVAL never says "dataset": "We release 95K validator-verified CoT traces" states it; a
    # listed paper is quoted with the sentence that made it a member.
    ans = extractive.ask(question)
    by_label = {c.label: c for c in ans.citations}
    assert {"DocVAL", "HyperTrack", "ProAct-75", "SoT", "MCLP"} <= set(by_label), ans.text
    assert "95K validator-verified CoT traces" in by_label["DocVAL"].evidence[0].sentence, ans.text


def test_a_bare_papers_phrase_is_a_list_question(mixed):
    from rag.route.filters import Filters

    ans = mixed.ask("papers from 2023 about diffusion", filters=Filters(auto=True))
    assert ans.kind == "list" and len(ans.citations) >= 5
    assert all(c.year == 2023 for c in ans.citations)


@pytest.mark.parametrize(
    "question", ["time series forcasting papers", "which papers deal with time-series forcasting?"]
)
def test_a_misspelling_the_dictionary_knows_is_still_corrected(extractive, question):
    # "forcasting" is in the English dictionary as a misspelling; no abstract uses it, and it is
    # one edit from "forecasting", which one does.
    ans = extractive.ask(question)
    assert not ans.refused, ans.text
    assert [c.label for c in ans.citations][:1] == ["ReAugment"], ans.text


def test_two_swapped_letters_are_one_typing_error(extractive):
    right = {c.paper_id for c in extractive.ask("which papers study llm agents?").citations}
    swapped = {c.paper_id for c in extractive.ask("which papers study llm agnets?").citations}
    assert right and swapped == right


def test_a_question_in_two_parts_has_each_part_answered_in_the_lead(extractive):
    # "what does it reuse" is answered by a sentence without a number, "how much compute does
    # it save" by a numeric clause: the lead quotes one for each part.
    ans = extractive.ask("What does PrefixRL reuse, and how much compute does it save?")
    lead = ans.text.split("\n\n", 1)[0]
    assert [c.label for c in ans.citations] == ["PrefixRL"], ans.text
    assert "reusing old sampling FLOPs" in lead and "2x faster" in lead, lead


@pytest.mark.parametrize(
    ("question", "quoted"),
    [
        ("What datasets does APM evaluate on?", ("benchmarks", "tasks")),  # not "MDD seeks to compress ... datasets"
        ("What data does SENDAI use?", ("MODIS",)),  # not the background "Bridging the gap between data-rich ..."
        ("which benchmarks is CogRouter tested on?", ("ALFWorld",)),
    ],
)
def test_a_question_for_the_data_quotes_the_papers_own_data(extractive, question, quoted):
    lead = extractive.ask(question).text.split("\n", 1)[0]
    assert any(q in lead for q in quoted), lead


def test_a_comparison_reads_named_benchmarks_as_the_data(extractive):
    # ME-DLM's only data is in its results sentence ("gains ... on HumanEval and ... on GSM8K").
    ans = extractive.ask("compare ME-DLM and Likelihood Matching")
    row = next(line for line in ans.text.splitlines() if line.startswith("| **Data"))
    me_dlm_cell = row.split("|")[2]
    assert "HumanEval" in me_dlm_cell and "not stated" not in me_dlm_cell, row


@pytest.mark.parametrize(("typed", "other"), [("multi-modal", "multimodal"), ("spatio-temporal", "spatiotemporal")])
def test_both_spellings_of_a_hyphenated_word_meet_the_same_papers(extractive, typed, other):
    # The seed abstracts write "multi-modal" (APM, SGB-IB) and "multimodal" (HieRD, SoT, ...).
    retriever = extractive.retriever
    ids = list(retriever.papers)
    a, b = retriever.coverages(typed, ids), retriever.coverages(other, ids)
    assert a == b and sum(a) >= 2, (typed, a, b)
    # BM25 gives the papers of either spelling the same score for the joined form (the hyphenated
    # query also matches its parts elsewhere: "multi-turn")
    scores = [{h.paper.id: h.lexical for h in search(retriever, q).hits} for q in (typed, other)]
    stated = [pid for pid, c in zip(ids, b, strict=True) if c == 1.0]
    assert all(scores[0].get(pid, 0) > 0 and scores[1].get(pid, 0) > 0 for pid in stated)


def test_a_part_is_stated_by_the_glossarys_other_word_for_one_of_its_words(extractive):
    # SGB-IB writes "fine-grained representations", no "embeddings": the parts of a topic are
    # checked with the glossary's senses ("embedding" / "representation"); the index is not widened
    retriever = extractive.retriever
    sgb = next(pid for pid, p in retriever.papers.items() if p.label == "SGB-IB")
    assert retriever.coverages("fine-grained embeddings", [sgb])[0] < 1.0
    assert retriever.coverages("fine-grained embeddings", [sgb], senses=True)[0] == 1.0
    assert sgb not in retriever.lexical("embeddings", 40)


def test_a_word_is_not_stated_by_the_word_it_derives_from(extractive):
    # The SAT hypergraph paper writes "reinforce" and "learning", no "reinforcement": Snowball
    # gives "reinforce" and "reinforcement" one stem, but the paper does not state the field.
    retriever = extractive.retriever
    by_label = {p.label: pid for pid, p in retriever.papers.items()}
    sat = next(pid for label, pid in by_label.items() if label.startswith("Polarity-aware"))
    assert retriever.coverage("reinforcement learning", sat) < 1.0
    assert retriever.coverage("reinforcement learning", by_label["CoVRL"]) == 1.0
    # ... while siblings and derivations still meet: "generative" by ME-DLM's "generation",
    # "diffusion-based" by "diffusion" ("based" is no index term)
    assert retriever.coverage("diffusion-based generative modelling", by_label["ME-DLM"]) == 1.0
    listed = {c.label for c in extractive.ask("Which papers use reinforcement learning?").citations}
    assert "RAST-MoE" in listed and sat not in {by_label.get(x) for x in listed}
    # a base states its field: DexMachina's "robot hands" are robotics (it was left out of
    # "music or robotics"); an optimizer is not stated by "optimization" (6 papers were listed)
    assert retriever.coverage("robotics", by_label["DexMachina"]) == 1.0
    assert retriever.coverage("optimizer", by_label["APM"]) == 0.0  # "inner-loop optimization"
    listed = {c.label for c in extractive.ask("which papers are about music or robotics?").citations}
    assert "DexMachina" in listed, listed
    # no abstract mentions transformers: ReAugment was listed for "learn transformation policies"
    assert extractive.ask("which papers use transformers?").refused


def test_an_alternative_an_abstract_states_answers_however_far_the_others(extractive):
    # "sound" is no word of the abstracts; "music" is, but the cosine of one word to a sentence is
    # low: the whole question was refused while "which papers are about music?" was answered
    ans = extractive.ask("which papers are about sound or music?")
    assert not ans.refused and "Music carrier selection algorithm" in {c.label for c in ans.citations}, ans.text
    assert extractive.ask("Which papers study music generation or drug discovery?").refused


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("What does SENDAI reconstruct?", "reconstructs full spatial states"),
        ("what does hierd distill?", "we propose HieRD"),  # not "Existing distillation methods ..."
        ("What does DANCE condense?", "we introduce graph condensation"),
    ],
)
def test_what_a_named_paper_does_is_quoted_from_its_own_statement(extractive, question, said):
    # "the reconstructed fields are better suited ..." also holds the verb, later in the abstract
    lead = extractive.ask(question).text.split("\n", 1)[0]
    assert said in lead, lead


@pytest.mark.parametrize(
    "question",
    ["what license will the sparsity kernels be released under?", "Under which licence is the sparsity code released?"],
)
def test_a_detail_the_abstract_states_is_quoted_in_the_lead(extractive, question):
    # The paper is found by description; its lead quoted what it proposes, not the licence sentence.
    ans = extractive.ask(question)
    assert not ans.refused and "open-source license" in ans.text.split("\n", 1)[0], ans.text


def test_code_generation_is_searched_as_a_topic(extractive):
    # It was read as "which papers link their code" and listed 8 papers by their "Code is available" sentences.
    ans = extractive.ask("Which papers work on code generation?")
    assert "ME-DLM" in {c.label for c in ans.citations} and len(ans.citations) < 8, ans.text
    assert "available at" not in ans.text.split("\n\n", 1)[0], ans.text


@pytest.mark.parametrize("question", ["RLHF", "rlhf", "Which papers use DPO?", "any grpo papers?"])
def test_a_topic_of_acronyms_no_abstract_contains_is_refused(extractive, question):
    # The embedder reads an unknown acronym by its letters: "RLHF" came within 0.55 of an RL
    # sentence of EMPG, above the sentence floor, and EMPG was cited.
    ans = extractive.ask(question)
    assert ans.refused and "No abstract in the collection mentions" in ans.text, ans.text


def test_an_acronym_some_abstract_holds_is_answered(extractive):
    ans = extractive.ask("UQ")
    assert not ans.refused and "L2M" in {c.label for c in ans.citations}, ans.text
    # typed in lower case: "kd" is in the English dictionary (as are most letter pairs), and it
    # was refused as "nothing close" while "KD" found HieRD
    for q in ("kd", "kd papers", "uq methods"):
        ans = extractive.ask(q)
        assert not ans.refused and {c.label for c in ans.citations} & {"HieRD", "L2M"}, (q, ans.text)
    # DDL writes "frozen LVLMs": the singular is no term missing from the collection
    ans = extractive.ask("Does DDL use a frozen LVLM?")
    assert not ans.refused and ans.text.startswith("Yes"), ans.text
    refused = extractive.ask("Which papers use RLHF?").text
    assert refused.lower().count("rlhf") == 1, refused  # named once, however typed


@pytest.mark.parametrize(
    ("question", "label", "figure"),
    [
        ("Which paper reports 65× storage reduction?", "APM", "65×"),  # was refused; "achieves" was answered
        ("Which paper reduces training time by over 40%?", "Graph-based dataset pruning", "40%"),
    ],
)
def test_a_figure_the_question_quotes_identifies_the_paper_that_states_it(extractive, question, label, figure):
    ans = extractive.ask(question)
    assert not ans.refused and [c.label for c in ans.citations] == [label], ans.text
    assert figure in ans.text.split("\n", 1)[0], ans.text  # the lead quotes the sentence stating it
    assert extractive.ask("which paper gets 99.9% accuracy on protein folding?").refused


def test_a_refusal_of_a_question_that_found_no_member_says_why(extractive):
    # it printed the bare refusal sentence and nothing else
    ans = extractive.ask("What dataset does the paper on logicality in LLM scientific reasoning build?")
    cited = {c.label for c in ans.citations}
    answered = not ans.refused and "Internal logicality underlying LLM scientific reasoning" in cited
    assert answered or "presents a dataset of its own" in ans.text, ans.text


def test_a_keyword_an_abstract_states_is_answered_however_far_its_cosine(extractive):
    # One or two words against a whole sentence stay below the sentence floors (0.30 for
    # "clinical"), but an abstract that states them side by side answers the question.
    for q, label in (("clinical", "DDL"), ("protein", "causal preference elicitation")):
        ans = extractive.ask(q)
        assert not ans.refused and label in {c.label for c in ans.citations}, (q, ans.text)


def test_a_model_size_the_abstract_states_is_quoted(extractive):
    # "Agent-Omit-8B" is in a results sentence far from "how big is the model" in meaning.
    for q in ("how big is the agent-omit model", "what is the model size of Agent-Omit?"):
        ans = extractive.ask(q)
        assert not ans.refused and "Agent-Omit-8B" in ans.text.split("\n", 1)[0], (q, ans.text)
    ans = extractive.ask("how many epochs was prefixrl trained for")
    assert ans.refused and "do not state epochs" in ans.text, ans.text  # the detail as asked


@pytest.mark.parametrize(
    "question",
    [
        "papers on speech outside speech synthesis",
        "speech papers other than text-to-speech",
        "Which papers work on speech, aside from speech synthesis?",
    ],
)
def test_an_excluded_phrase_puts_out_papers_that_state_it_by_its_glossary_names(extractive, question):
    # MCLP rewards "Role-Play TTS" ("Text-to-Speech (TTS)"): speech synthesis in the glossary's words;
    # "text-to-speech" is one phrase, stated by no "speech-to-text" nor "text, and speech"
    from rag.route.answer import _states_excluded

    ans = extractive.ask(question)
    assert "MCLP" not in [c.label for c in ans.citations], ans.text
    assert "MCLP" in ans.text.split("Left out as about", 1)[1], ans.text
    assert not _states_excluded("text-to-speech", "speech-to-text translation on image, text, and speech data")


def test_a_paper_that_states_a_word_of_the_topic_only_negated_is_not_listed(tmp_path, embedder):
    # a new user's "Which papers are about watermarking language model outputs?" named DetectGPT,
    # whose abstract says it does "not require ... or explicitly watermarking generated text"
    from conftest import pipeline_of

    papers = {
        "wm#1": ("We propose a watermarking scheme for language model outputs. The watermark embeds a signal "
                 "into generated text that a statistical test detects."),
        "dt#1": ("We detect whether language model outputs are machine-generated from the curvature of the "
                 "model's log probability. Our detector of language model outputs does not require training a "
                 "classifier, collecting a dataset, or explicitly watermarking the outputs."),
        "wm#2": ("We watermark the outputs of language models with a secret key. Our watermark survives "
                 "paraphrasing of the generated text."),
        "gr#1": "We study graph neural networks for molecules and report gains on ten benchmarks.",
    }
    p = pipeline_of(tmp_path, papers, embedder)
    ans = p.ask("Which papers are about watermarking language model outputs?")
    assert {"wm#1", "wm#2"} <= {c.paper_id for c in ans.citations}, ans.text
    assert "dt#1" not in [c.paper_id for c in ans.citations] and "detector" not in ans.text, ans.text


def test_a_paper_stating_a_part_of_the_topic_only_negated_is_not_listed_by_the_parts_check(tmp_path, embedder):
    # "Which papers study watermarking of large language models?" listed DetectGPT as clearly about
    # it on the 3,136-paper library: the check of the topic's two parts ("watermarking", "large
    # language models") put back the paper the membership model had left out for its negated
    # "watermarking". On a collection this small the parts check adds no paper, so this guards the
    # answer, both routes of it; the library question is measured in the closing note of stop 50.
    from conftest import pipeline_of

    papers = {
        "wm#1": ("We propose a watermarking scheme for large language models. The watermark embeds a signal "
                 "into text generated by large language models that a statistical test detects."),
        "dt#1": ("We detect whether text is generated by large language models from the curvature of the "
                 "model's log probability. Our approach does not require training a classifier, collecting "
                 "a dataset, or explicitly watermarking the text of large language models."),
        "gr#1": "We study graph neural networks for molecules and report gains on ten benchmarks.",
        "im#1": "We watermark image classifiers with a certified radius against weight perturbations.",
    }
    p = pipeline_of(tmp_path, papers, embedder)
    ans = p.ask("Which papers study watermarking of large language models?")
    assert [c.paper_id for c in ans.citations] == ["wm#1"], ans.text
    assert "dt#1" not in ans.text, ans.text


def test_a_problem_stated_as_a_lack_does_not_deny_the_topic(tmp_path, embedder):
    # "resources on proactive assistant agents": ProAct-75 states "hindered by the lack of
    # specialized resources" as its problem, and builds the resource
    from conftest import pipeline_of

    papers = {
        "pa#1": ("Developing proactive assistant agents is hindered by the lack of specialized resources. "
                 "We introduce a benchmark of annotated task graphs for proactive assistant agents."),
        "gr#1": "We study graph neural networks for molecules and report gains on ten benchmarks.",
    }
    p = pipeline_of(tmp_path, papers, embedder)
    ans = p.ask("Which papers offer resources for proactive assistant agents?")
    assert "pa#1" in [c.paper_id for c in ans.citations], ans.text


@pytest.mark.parametrize(
    ("question", "label"),
    [
        ("What problem does the online routing paper address?", "Online routing problem"),
        ("Which guarantee does the dataset pruning paper prove, and what problem does it address?",
         "Graph-based dataset pruning"),
    ],
)
def test_a_role_asked_of_a_described_paper_is_judged_by_the_description(extractive, question, label):
    # "What problem does the online routing paper address?" was refused as "Nothing in the
    # collection is close to it", naming that very paper as the closest
    ans = extractive.ask(question)
    assert not ans.refused and ans.citations[0].label == label, ans.text


@pytest.mark.parametrize(
    "question", ["What problem does the knitting paper address?", "What guarantee does the wool sweater paper prove?"]
)
def test_a_role_asked_of_a_paper_the_collection_does_not_hold_is_refused(extractive, question):
    assert extractive.ask(question).refused


def test_what_a_named_paper_is_is_answered_by_its_proposal_sentence(tmp_path, embedder):
    # a new user's "What is ChiPFormer?" led with the gap sentence ("such an RL-based approach
    # suffers from long training time"); the proposal opens "To resolve these challenges, we ..."
    from conftest import pipeline_of

    papers = {
        "cp#1": ("Placement is a critical step in chip design. Recent works have shown that reinforcement "
                 "learning can improve placement. However, such an approach suffers from long training time. "
                 "To resolve these challenges, we cast placement as offline learning and present PlaceFormer "
                 "that learns a transferable policy from fixed data. PlaceFormer has several advantages. "
                 "Experiments on 32 circuits show a 10x shorter runtime."),
        "gr#1": "We study graph neural networks for molecules and report gains on ten benchmarks.",
    }
    p = pipeline_of(tmp_path, papers, embedder)
    ans = p.ask("What is PlaceFormer?")
    assert ans.citations[0].paper_id == "cp#1", ans.text
    assert "we cast placement as offline learning and present PlaceFormer" in ans.lead, ans.lead
