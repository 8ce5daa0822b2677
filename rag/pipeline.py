"""The one factory: settings in, a ready pipeline out. Everything else receives collaborators."""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from rag.llm.clients import ChatLLM, EmbeddedLLM, LLMError, LLMUnavailable
from rag.settings import Settings
from store.chroma import ChromaStore

if TYPE_CHECKING:  # imported where used: a command that only opens the store loads no model code
    from rag.evidence.selector import EvidenceSelector
    from rag.index.embed import Embedder
    from rag.index.retrieve import HybridRetriever
    from rag.question.reader import Reader
    from rag.route.answer import AnswerPipeline
    from rag.route.conversation import Conversation
    from rag.route.filters import Filters
    from rag.types import Answer

__all__ = [
    "Components",
    "build_pipeline",
    "data_version",
    "keep_sentences",
    "make_embedder",
    "make_llm",
    "open_store",
    "prepare_environment",
    "prewarming",
    "refreshed",
]

log = logging.getLogger(__name__)


def prepare_environment(settings: Settings) -> None:
    """Keep every cache inside the data directory and every library offline."""
    home = settings.home.resolve()
    home.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("LLAMA_INDEX_CACHE_DIR", str(home / "cache" / "llama_index"))
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
    os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    os.environ.setdefault("MPLCONFIGDIR", str(home / "cache" / "matplotlib"))


def make_embedder(settings: Settings) -> Embedder:
    """The configured embedder (the bundled all-MiniLM-L6-v2 by default)."""
    from rag.index.embed import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder(settings.embedding.model, batch_size=settings.embedding.batch_size)


def open_store(settings: Settings, *, fresh: bool = False) -> ChromaStore:
    """The Chroma store: a server when ``chroma_url`` is set, else ``<home>/chroma``
    (``fresh``: opened anew, seeing what other processes wrote since; see :class:`ChromaStore`)."""
    return ChromaStore(settings.index_name(), path=settings.home / "chroma", url=settings.chroma_url, fresh=fresh)


def data_version(settings: Settings) -> tuple[int, str]:
    """How many writes the data directory has seen and when the last was (``state.json``, written
    by every writer under the lock); ``(0, "")`` when never written."""
    from store.home import was_written

    state = was_written(settings.home) or {}
    return int(state.get("writes", 0)), str(state.get("last_write", ""))


def make_llm(settings: Settings) -> tuple[ChatLLM | None, str]:
    """The LLM for the configured backend and a note on why it was chosen.

    ``auto``: Ollama when its server answers and has the model; else extractive answers (``None``),
    with one line on how to get prose. The embedded model is used only when asked for by name
    (``embedded``): measured on the dev set, the bundled 135M model's prose is slower than the
    extractive answer by one to two orders of magnitude and states wrong or garbled facts
    (``benchmarks/embedded_prose.py``), so it is not the default.

    Raises:
        LLMError: ``ollama`` was asked for explicitly and is not usable (message has the fix).
    """
    cfg = settings.llm
    if cfg.backend == "none":
        return None, "extractive answer (--llm none)"
    if cfg.backend == "embedded":
        return EmbeddedLLM(max_context=cfg.context_tokens, threads=cfg.threads, time_limit=cfg.deadline), (
            "embedded model (--llm embedded)"
        )
    from rag.llm.ollama import OllamaLLM

    llm = OllamaLLM(
        cfg.ollama_host, cfg.ollama_model, context_tokens=cfg.context_tokens, timeout=cfg.timeout,
        deadline=cfg.deadline,
    )
    if llm.ping():
        models = llm.list_models()
        if cfg.ollama_model in models or f"{cfg.ollama_model}:latest" in models:
            return llm, f"Ollama model {cfg.ollama_model} at {cfg.ollama_host}"
        if cfg.backend == "ollama":
            from rag.llm.clients import ModelNotFound

            raise ModelNotFound(
                f"Ollama has no model '{cfg.ollama_model}' — run `ollama pull {cfg.ollama_model}`, "
                "or choose another with --ollama-model"
            )
        hint = f"for prose, run `ollama pull {cfg.ollama_model}`"
    elif cfg.backend == "ollama":
        raise LLMUnavailable(
            f"Ollama is not running at {cfg.ollama_host} — start it with `ollama serve`, "
            "or answer without an LLM (`--llm none`)"
        )
    else:
        hint = f"for prose, start Ollama (`ollama serve`) and run `ollama pull {cfg.ollama_model}`"
    llm.close()
    log.info("no usable Ollama: answers are extractive (%s)", hint)
    return None, f"extractive answer ({hint})"


@dataclass
class Components:
    """Everything one running product holds, and the one way to ask it: every entry (page, CLI,
    API, MCP, ``eval``, tests) answers through :meth:`ask` or a :meth:`conversation` of it."""

    settings: Settings
    store: ChromaStore
    embedder: Embedder
    retriever: HybridRetriever
    pipeline: AnswerPipeline
    version: tuple[int, str] = (0, "")
    """:func:`data_version` of the data directory when these were built."""

    @property
    def reader(self) -> Reader:
        """The question reader of this collection."""
        return self.pipeline.reader

    def answerer(self, llm: ChatLLM | None, llm_note: str = "") -> AnswerPipeline:
        """An answer pipeline over the same retriever, evidence selector and reader with another LLM
        (the page's and the warm server's LLM choice)."""
        from rag.route.answer import AnswerPipeline

        return AnswerPipeline(
            self.retriever, self.pipeline.evidence, llm, self.settings, llm_note=llm_note, reader=self.pipeline.reader
        )

    def conversation(self, pipeline: AnswerPipeline | None = None) -> Conversation:
        """A new conversation (``pipeline``: another LLM's, from :meth:`answerer`)."""
        from rag.route.conversation import Conversation

        return Conversation(pipeline or self.pipeline)

    def ask(
        self,
        question: str,
        *,
        top_k: int | None = None,
        on_token: Callable[[str], None] | None = None,
        stop: threading.Event | None = None,
        filters: Filters | None = None,
    ) -> Answer:
        """Answer one question in a fresh conversation: the route the page, CLI, API, MCP and
        ``eval`` share (filters stated in the question are read unless ``filters`` turns it off).

        Never raises for bad input; LLM failures fall back to the extractive answer (see ``note``).
        """
        turn = self.conversation().ask(question, top_k=top_k, on_token=on_token, stop=stop, filters=filters)
        return turn.answer


def refreshed(components: Components) -> Components | None:
    """Components rebuilt over the store as it is now, or ``None`` when nothing was written since
    ``components`` were built (a reader that runs while ``paperchat ingest`` or ``remove`` writes:
    the page picks up what they changed before its next answer). The embedder and LLM are kept.
    """
    settings = components.settings
    version = data_version(settings)
    if version == components.version:
        return None
    store = open_store(settings, fresh=True)
    p = components.pipeline
    fresh = build_pipeline(settings, embedder=components.embedder, store=store, llm=p.llm)
    fresh.pipeline.evidence.adopt(p.evidence, fresh.retriever.papers.values())
    fresh.pipeline.llm_note = p.llm_note
    fresh.pipeline.writer.llm_note = p.llm_note
    return fresh


@contextlib.contextmanager
def prewarming(components: Components) -> Iterator[threading.Thread]:
    """Embed the sentences of every paper of the collection in a background thread while the block
    runs (:meth:`rag.evidence.selector.EvidenceSelector.warm_all`), so that in a serving process (the page,
    the API, the MCP server) no answer waits for the first embedding of its papers' sentences, then
    keep them on disk for the next process (:func:`keep_sentences`; also what was embedded when the
    block ends first). Yields the started thread.

    On leaving the block the thread is told to stop and is joined (it finishes the abstract it is
    embedding, tens of milliseconds). A serving command must leave the block before the
    interpreter exits: a daemon thread still inside torch at interpreter shutdown aborts the
    process ("terminate called without an active exception", exit code 134).
    """
    papers = list(components.retriever.papers.values())
    stop = threading.Event()
    evidence = components.pipeline.evidence

    def warm_and_keep() -> None:
        evidence.warm_all(papers, stop)
        keep_sentences(components.settings, evidence)  # the next process reads them instead (rag.evidence.kept)

    thread = threading.Thread(target=warm_and_keep, name="paperchat-prewarm", daemon=True)
    thread.start()
    try:
        yield thread
    finally:
        stop.set()
        thread.join()


def _sentences_path(settings: Settings) -> Path:
    from rag.evidence.kept import kept_path

    return kept_path(settings.home / "cache" / "index", settings.index_name())


def keep_sentences(settings: Settings, evidence: EvidenceSelector) -> int:
    """Write the sentence embeddings ``evidence`` (an :class:`~rag.evidence.selector.EvidenceSelector`)
    holds to the data directory (:mod:`rag.evidence.kept`), unless they are all there already;
    returns how many papers were written."""
    from rag.evidence import kept

    entries = evidence.embedded()
    if not entries or len(entries) == evidence.kept_on_disk:
        return 0
    written = kept.save(_sentences_path(settings), entries, evidence.embedder.name, evidence.embedder.dimension)
    evidence.kept_on_disk = written or evidence.kept_on_disk
    return written


def build_pipeline(
    settings: Settings,
    *,
    embedder: Embedder | None = None,
    llm: ChatLLM | None | str = "configured",
    store: ChromaStore | None = None,
) -> Components:
    """Build store, retriever, evidence selector and answer pipeline from settings.

    Args:
        settings: The settings tree.
        embedder: Reuse an embedder already loaded (tests, UI).
        llm: An LLM instance, ``None`` for extractive, or ``"configured"`` to follow settings.
        store: Reuse an open store.
    """
    from rag.evidence.selector import EvidenceSelector
    from rag.index.retrieve import HybridRetriever
    from rag.question.reader import Reader
    from rag.route.answer import AnswerPipeline

    prepare_environment(settings)
    embedder = embedder or make_embedder(settings)
    store = store or open_store(settings)
    retriever = HybridRetriever(store, embedder, settings.retrieval, cache_dir=settings.home / "cache" / "index")
    evidence = EvidenceSelector(embedder, list(retriever.papers.values()), settings.evidence)
    from rag.evidence.kept import load  # sentences an earlier process embedded (rag.evidence.kept)

    on_disk = load(_sentences_path(settings), retriever.papers.values(), embedder.name, embedder.dimension)
    evidence.use_kept(on_disk)
    evidence.kept_on_disk = len(on_disk)
    note = ""
    if llm == "configured":
        try:
            llm, note = make_llm(settings)
        except LLMError:
            raise
    reader = Reader(retriever.catalogue, max_chars=settings.input.max_question_chars, senses=retriever.senses)
    retriever.read_query = reader.search_query  # the llama-index entry point reads names as answers do
    pipeline = AnswerPipeline(retriever, evidence, llm, settings, llm_note=note, reader=reader)  # type: ignore[arg-type]
    return Components(settings, store, embedder, retriever, pipeline, data_version(settings))
