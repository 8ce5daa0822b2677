"""Index-term expansion (rag.lexicon): compound parts, abbreviations, benchmark domains."""

import pytest

from rag.lexicon import Lexicon, abbreviation_definitions, compound_parts, derives, load_glossary, unversioned


def test_compound_parts():
    assert compound_parts("audio-text") == ["audio", "text"]
    assert compound_parts("graph-r1") == ["graph", "r1"]
    assert compound_parts("speech") == []


@pytest.mark.parametrize(
    ("text", "found"),
    [
        # a letter inside a word whose initial is not taken spells no coinage
        ("Progress in semi-supervised sound representation learning (SSL) is fast.", []),
        ("We use graph neural representation learning (GSL) on molecules.", []),
        # initials, later letters of a word begun, the last word's letters, capitals written so
        ("We train a Graph Pooling Transformer (GPformer) on molecules.", [("GPformer", "Graph Pooling Transformer")]),
        ("Layer-wise Adaptive Rates (LiAR) speed training.", [("LiAR", "Layer-wise Adaptive Rates")]),
        ("We propose Robust sParse rEgression (RPE) for noisy labels.", [("RPE", "Robust sParse rEgression")]),
        ("We call it ''Gradient Flow Matching'' (GFM).", [("GFM", "''Gradient Flow Matching''")]),
    ],
)
def test_a_long_form_spells_its_abbreviation_as_a_coinage_does(text, found):
    assert abbreviation_definitions(text) == found


def test_abbreviation_definitions_follow_schwartz_hearst():
    text = (
        "Vision\u2013Language Models (VLMs) have shown progress. We use reinforcement learning (RL) "
        "and a large-scale study (see Section 3) of Retrieval-Augmented Generation (RAG)."
    )
    assert abbreviation_definitions(text) == [
        ("VLM", "Vision-Language Models"),
        ("RL", "reinforcement learning"),
        ("RAG", "Retrieval-Augmented Generation"),
    ]
    # Parentheses that are not a definition: letters that do not spell it, numbers, lower case.
    assert abbreviation_definitions("results on two datasets (NLP) and (ours) and (2023)") == []


def test_expansions_cover_both_forms_and_benchmark_domains():
    glossary = [("same", "LVLM", "large vision-language model"), ("isa", "GSM8K", "math benchmark")]
    docs = [
        "We adapt frozen LVLMs to medical grounding.",
        "Gains of 33.6 points on GSM8K.",
        "We study large vision-language models for GUI navigation.",
        "A math benchmark survey.",
        "An optimiser for apps.",
    ]
    lex = Lexicon(docs, glossary)
    assert {"large", "vision-language", "vision", "language"} <= set(lex.expansions(docs[0]))
    assert {"math", "benchmark"} <= set(lex.expansions(docs[1]))
    assert {"lvlm", "lvlms"} <= set(lex.expansions(docs[2]))
    assert "gsm8k" not in lex.expansions(docs[3])  # "isa" goes one way: a domain is not a benchmark
    assert lex.expansions(docs[4]) == []


@pytest.mark.parametrize(
    ("doc", "term"),
    [
        ("We prove that the objective is consistent.", "proof"),
        ("A proof of convergence is given.", "prove"),
    ],
)
def test_a_noun_and_the_verb_it_names_index_each_other(doc, term):
    # Snowball stems "proof" and "prove" apart; the shipped glossary joins them, so "papers with a
    # proof" reaches "We prove that ..."
    lex = Lexicon([doc, "Unrelated text about images."], load_glossary())
    assert term in lex.expansions(doc)


def test_a_glossary_term_of_several_words_indexes_the_abstracts_that_state_it():
    # a term of several words was looked up as one token and never matched: only the other
    # direction of a "same" row (its long form) and one-word "isa" rows indexed anything
    glossary = [("isa", "brain imaging", "medical imaging"), ("same", "dataset condensation", "dataset distillation")]
    docs = [
        "A benchmark of brain imaging studies.",
        "We study dataset condensation with synthetic images.",
        "Dataset distillation compresses a training set.",
        "Imaging the brain of mice with two-photon microscopy.",
    ]
    lex = Lexicon(docs, glossary)
    assert "medical" in lex.expansions(docs[0])
    assert "distillation" in lex.expansions(docs[1])
    assert "condensation" in lex.expansions(docs[2])
    assert "medical" not in lex.expansions(docs[3])  # the words apart do not state the term


@pytest.mark.parametrize(
    ("doc", "term"),
    [
        # a question on models that run with fewer bits reaches the quantization papers
        ("We study INT4 quantization of transformer language models.", "bit"),
        ("Post-training quantization of weights and activations.", "low-bit"),
        ("Weights are quantized after training.", "bit"),
        # a question on SHAP reaches the papers that explain with Shapley values, and the reverse
        ("We compute exact Shapley values of a prediction in one pass.", "shap"),
        ("We compare SHAP with integrated gradients.", "shapley"),
    ],
)
def test_the_shipped_glossary_indexes_quantization_and_shapley_papers(doc, term):
    lex = Lexicon([doc, "Unrelated text about images."], load_glossary())
    assert term in lex.expansions(doc)


@pytest.mark.parametrize(
    ("doc", "field"),
    [
        ("Automatic Speech Recognition systems are vulnerable to adversarial examples.", "audio"),
        ("We detect audio deepfakes with one-class learning.", "sound"),
        ("Benign clips like music carry the perturbation.", "audio"),
        ("We release a multi-speaker speech corpus.", "voice"),
    ],
)
def test_speech_and_music_are_indexed_under_audio_and_audio_under_sound(doc, field):
    # a researcher's "voice or sound data" reaches abstracts that write speech, music or audio
    lex = Lexicon([doc, "Unrelated text about images."], load_glossary())
    assert field in lex.expansions(doc)


def test_an_abbreviation_defined_two_ways_expands_only_where_defined():
    docs = [
        "We study dataset pruning (DP) for graphs.",
        "Training under differential privacy (DP) is costly.",
        "DP makes training slower.",
        "A dataset pruning method.",
    ]
    lex = Lexicon(docs, [])
    assert "pruning" not in lex.expansions(docs[2]) and "privacy" not in lex.expansions(docs[2])
    assert "dp" in lex.expansions(docs[3])  # the long form still gets the abbreviation


def test_the_collection_definition_wins_over_the_glossary():
    docs = ["Dataset pruning (DP) keeps a subset.", "DP is fast."]
    lex = Lexicon(docs, [("same", "DP", "differential privacy")])
    assert "privacy" not in lex.expansions(docs[1])
    assert {"dataset", "pruning"} <= set(lex.expansions(docs[1]))


def test_same_is_an_equivalence_one_step_further():
    # one abstract defines TTS; the glossary says text-to-speech is speech synthesis: an abstract
    # on speech synthesis is found by "TTS" as well, and one on TTS by "speech synthesis"
    docs = ["Text-to-Speech (TTS) models speak.", "A method for speech synthesis.", "TTS is hard."]
    lex = Lexicon(docs, [("same", "text-to-speech", "speech synthesis")])
    assert {"tts", "text-to-speech"} <= set(lex.expansions(docs[1]))
    assert {"speech", "synthesis"} <= set(lex.expansions(docs[2]))
    assert "tts" not in Lexicon(docs, []).expansions(docs[1])


def test_glossary_loads_and_reports_bad_lines(tmp_path):
    rows = load_glossary()
    assert ("isa", "GSM8K", "math benchmark") in rows and all(r[0] in {"same", "isa", "sense"} for r in rows)
    bad = tmp_path / "g.tsv"
    bad.write_text("# comment\nsame\tLLM\tlarge language model\nsynonym LLM\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"g\.tsv:3"):
        load_glossary(bad)


def test_a_sense_row_states_a_word_in_sentences_but_indexes_nothing():
    from rag.lexicon import same_keys, term_key

    assert term_key("parameters") in same_keys("weights") and term_key("weights") in same_keys("parameters")
    assert term_key("evaluation") in same_keys("eval")  # a one-word "same" row too
    # clipped measure words of shorthand ("DANCE acc gain?" is stated by "improves accuracy by 2.33%")
    assert term_key("accuracy") in same_keys("acc")
    docs = ["We compute analytic parameters in one pass."]
    assert "weights" not in Lexicon(docs).expansions(docs[0])


@pytest.mark.parametrize("word", ["embedding", "embeddings", "Embeddings"])
def test_a_sense_row_names_a_word_in_its_singular_and_plural(word):
    # "embedding" is read as the verb "embed", "embeddings" as the noun: both are "representations"
    from rag.lexicon import same_keys, term_key

    assert {term_key("representation"), term_key("representations")} <= same_keys(word.lower())
    assert term_key(word.lower()) in same_keys("representations")


def test_a_phrase_is_stated_only_by_its_words_side_by_side():
    from rag.lexicon import states_phrase

    assert states_phrase("dataset distillation", "We study multi-modal dataset distillation (MDD).")
    assert states_phrase("dataset distillation", "Datasets distilled into a few images.")  # forms meet
    assert states_phrase("dataset distillation", "a dataset-distillation method")
    assert not states_phrase("dataset distillation", "Knowledge distillation ... evaluated on three datasets.")
    assert not states_phrase("dataset distillation", "distillation of datasets")  # the other order
    assert not states_phrase("", "anything")


def test_an_acronym_plural_has_the_index_form_of_its_singular():
    from rag.lexicon import lemma

    for plural, singular in [("llms", "llm"), ("gnns", "gnn"), ("mllms", "mllm"), ("gpus", "gpu"), ("lidars", "lidar")]:
        assert lemma(plural) == lemma(singular) == singular, plural
    kept = ("class", "bias", "corpus", "tts", "models")
    assert [lemma(w) for w in kept] == ["class", "bias", "corpus", "tts", "model"]


def test_a_question_is_embedded_with_its_abbreviations_spelled_out():
    docs = ["Vision-Language Models (VLMs) read images.", "Dataset pruning (DP) keeps a subset."]
    glossary = [
        ("same", "RL", "reinforcement learning"), ("same", "SAT", "boolean satisfiability"),
        ("same", "KD", "knowledge distillation"), ("same", "IT", "information technology"),
    ]
    lex = Lexicon(docs, glossary)
    assert lex.spelled_out("rl papers") == "reinforcement learning (rl) papers"
    # two letters: the dictionary lists "kd" and "ml", but English has no two-letter content words
    assert lex.spelled_out("any kd work?") == "any knowledge distillation (kd) work?"
    assert lex.spelled_out("is it fast?") == "is it fast?"
    assert lex.spelled_out("Which papers use VLMs?") == "Which papers use Vision-Language Models (VLMs)?"
    assert lex.spelled_out("RL-based agents") == "reinforcement learning (RL)-based agents"
    # a lower-case English word is not taken for an abbreviation; a capitalised one is
    assert lex.spelled_out("sat solvers") == "sat solvers"
    assert lex.spelled_out("SAT solvers") == "boolean satisfiability (SAT) solvers"
    # already spelled out, unknown, or part of a hyphenated word: unchanged
    for text in ("deep reinforcement learning (RL) agents", "the XYZ method", "multi-RL training", ""):
        assert lex.spelled_out(text) == text


def test_a_word_written_with_and_without_its_hyphen_is_one_word():
    from rag.lexicon import joined_form

    assert joined_form("multi-modal") == "multimodal"
    assert joined_form("text-to-speech") == ""  # two hyphens: a phrase, not a spelling
    assert joined_form("gpt-4") == ""
    docs = [
        "A multimodal model.",
        "Another multimodal encoder.",
        "A multi-modal dataset.",
        "We apply supervised fine-tuning (SFT) first.",
        "Supervised finetuning then RL.",
    ]
    lex = Lexicon(docs, [])
    # a question is embedded as most abstracts spell the word
    assert lex.spelled_out("multi-modal papers") == "multimodal papers"
    assert lex.spelled_out("multimodal papers") == "multimodal papers"
    # a phrase is recognised in either spelling: "supervised finetuning" states SFT
    assert "sft" in lex.expansions(docs[4])
    assert "sft" not in Lexicon(docs[4:], []).expansions(docs[4])  # only when the collection has both


@pytest.mark.parametrize(
    ("word", "base", "derived"),
    [
        ("distillation", "distill", True),
        ("pruning", "prune", True),
        ("reinforcement", "reinforce", True),
        ("optimizer", "optimize", True),
        ("agentic", "agent", True),
        ("model", "model", True),
        ("reinforce", "reinforcement", False),  # the other way round
        ("optimization", "optimizer", False),  # siblings
        ("generation", "generative", False),
        ("user", "use", False),  # too short a base to read a derivation from
    ],
)
def test_a_derived_word_is_told_from_its_base(word, base, derived):
    assert derives(word, base) is derived


def test_a_word_is_stated_by_its_forms_of_the_same_sense():
    from rag.lexicon import states_form

    # the base states its process, quality or field: "robot hands" is robotics
    based = [("robotics", "robot"), ("compression", "compress"), ("sparsity", "sparse"), ("pruning", "prune")]
    for word, form in based:
        assert states_form(word, form), (word, form)
    # Snowball's one stem for other senses: "reinforce" is not reinforcement, an optimizer is not
    # optimization, a transformer not a transformation
    for word, form in [("reinforcement", "reinforce"), ("optimizer", "optimize"), ("optimizer", "optimization"),
                       ("transformer", "transformation"), ("retriever", "retrieval")]:
        assert not states_form(word, form), (word, form)
    # siblings and more specific forms still state a word
    for word, form in [("generative", "generation"), ("optimization", "optimizer"), ("cluster", "clustering")]:
        assert states_form(word, form), (word, form)

    # and side by side: ReAugment's "transformation policies" do not state "transformers"
    from rag.lexicon import states_phrase

    assert not states_phrase("transformers", "we learn transformation policies")
    assert states_phrase("robotics", "the gap between human and robot hands")


@pytest.mark.parametrize(
    ("asked", "written"),
    [
        ("cut", "reduces"), ("shorten", "reducing"), ("lower", "reduced"), ("usage", "consumption"),
        ("cost", "overhead"),
        ("accurate", "accuracy"),  # "Is DANCE more accurate than ...?" was refused beside "improves accuracy" (nu62)
        # verbs of setting an amount and of needing: "does FOAM change the damping factor
        # dynamically?" beside "dynamically controlling both the damping factor" (nu64)
        ("adjust", "controlling"), ("vary", "adjusted"), ("need", "requires"),
    ],
)
def test_a_sense_row_states_a_measure_made_smaller_or_spent_in_other_words(asked, written):
    # the embedder places these apart (rag/evidence/senses.py SENSE_SIMILARITY): the glossary says them
    from rag.lexicon import same_keys, term_key

    assert term_key(written) in same_keys(asked)


@pytest.mark.parametrize(
    ("token", "name"),
    [("alphafold2", "alphafold"), ("resnet50", "resnet"), ("llama2", "llama"), ("cifar100", "cifar"),
     ("gpt4", ""), ("l2", ""), ("t5", ""), ("wav2vec", ""), ("alphafold", ""), ("2023", "")],
)
def test_a_name_with_its_version_run_on_is_indexed_under_the_name_too(token, name):
    # "Which papers study protein folding with AlphaFold?" was refused as "no abstract mentions
    # alphafold", then quoted the abstract that writes "AlphaFold2"
    assert unversioned(token) == name
    text = f"We predict structures with {token} for 12M sequences."
    assert (name in Lexicon([text]).expansions(text)) is bool(name)


def test_a_long_form_starts_after_a_dash_of_two_or_more_hyphens():
    # LaTeX "---" is a dash: "the seminal work---Knowledge distillation (KD)" defines KD, not "work---..."
    text = "Since the seminal work---Knowledge distillation (KD) for model compression, students learn."
    assert abbreviation_definitions(text) == [("KD", "Knowledge distillation")]
    vlm = "a state-of-the-art Vision-Language Model (VLM)"  # one hyphen joins words
    assert abbreviation_definitions(vlm) == [("VLM", "Vision-Language Model")]
