"""paperchat benchmark: ingest, re-ingest, retrieval latency, scale and memory, against baselines.

Run with ``make bench`` (never by the tests). Every ratio compares figures measured in this
run, on this machine:

* ingest throughput / raw sentence-transformers ``encode`` of the same chunk texts (goal >= 0.9);
* ingest throughput / llama-index ``VectorStoreIndex.from_documents`` with the same embedder
  (``rag.index.embed.LlamaIndexEmbedding``) into a fresh ``ChromaVectorStore`` (goal >= 1.2); and,
  for information, / llama-index indexing our own chunks as nodes (the same texts);
* re-ingest of the unchanged corpus / first ingest (goal <= 0.02);
* ``HybridRetriever.search`` p50 / (one raw query embedding + one raw Chroma query) p50 (goal <= 1.2);
* Chroma chunk-query p50 at 30k papers (synthetic random unit vectors) / at the real 3k (sublinear: < 10);
* peak RSS of ingest and of the UI process (``paperchat ui``, read from ``/proc/<pid>/status``);
* start-up (:mod:`startup`): cold ``ask`` / a bare embedder process, ``ask`` through a running
  server / cold ``ask``, and warm answer p50 on the seed corpus and on this run's collection.

The machines are shared, so the three ingest pipelines are *interleaved*: the corpus is cut
into slices and each slice goes through ours, raw ``encode`` and llama-index in rotating
order; load from other processes then hits all three alike. The load average is printed.

Usage::

    .venv/bin/python benchmarks/bench.py                 # the full run (3,098 + 38 papers, ~20 min)
    .venv/bin/python benchmarks/bench.py --limit 400     # a quick check on 400 papers
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from rag.question.names import NameReader  # noqa: E402

DEFAULT_CORPUS = "benchmarks/corpus/icml_2022_2023.jsonl.gz"


@dataclass
class Row:
    """One line of the result table."""

    metric: str
    value: str
    goal: str = "—"
    ok: bool | None = None

    @property
    def verdict(self) -> str:
        return "—" if self.ok is None else "PASS" if self.ok else "FAIL"


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


# --- memory -----------------------------------------------------------------------------------


def _status_kib(pid: int | str, key: str) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def reset_peak_rss() -> bool:
    """Reset this process's VmHWM to its current RSS (Linux >= 4.0); False when not possible."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
        return True
    except OSError:
        return False


def peak_rss_mib() -> float:
    """Peak RSS of this process in MiB (VmHWM, else ru_maxrss)."""
    kib = _status_kib("self", "VmHWM")
    if kib is None:
        kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return kib / 1024


# --- corpus -------------------------------------------------------------------------------------


def load_corpus(corpus: Path, seed: Path, limit: int | None):
    from store.papers import read_path

    if corpus.suffix == ".gz":  # the bundled corpus: read through a decompressed copy
        import gzip
        import tempfile

        plain = Path(tempfile.mkdtemp(prefix="paperchat-corpus-")) / corpus.name[: -len(".gz")]
        with gzip.open(corpus, "rb") as src, plain.open("wb") as dst:
            shutil.copyfileobj(src, dst)
        corpus = plain
    papers = []
    for src in (corpus, *sorted(seed.glob("*.txt"))):
        res = read_path(src)
        if res.problems:
            log(f"{src.name}: {len(res.problems)} records skipped ({res.problems[0]})")
        papers.extend(res.papers)
    if limit:
        # keep the seed papers and a spread of the big corpus
        seed_ids = {p.id for p in papers if "#" in p.id}
        rest = [p for p in papers if p.id not in seed_ids]
        step = max(1, len(rest) // max(1, limit - len(seed_ids)))
        papers = rest[::step][: max(0, limit - len(seed_ids))] + [p for p in papers if p.id in seed_ids]
    return papers


def write_slices(papers, n_slices: int, where: Path) -> list[tuple[Path, list]]:
    """Write the papers as ``n_slices`` JSONL files (the seed papers spread over them)."""
    where.mkdir(parents=True, exist_ok=True)
    out = []
    for i in range(n_slices):
        part = papers[i::n_slices]
        path = where / f"slice_{i:02d}.jsonl"
        with path.open("w", encoding="utf-8") as f:
            for p in part:
                rec = {
                    "id": p.id,
                    "title": p.title,
                    "abstract": p.abstract,
                    "authors": list(p.authors),
                    "year": p.year,
                    "venue": p.venue,
                    "url": p.url,
                }
                f.write(json.dumps(rec, ensure_ascii=False) + "\n")
        out.append((path, part))
    return out


# --- phases -------------------------------------------------------------------------------------


def batch_size_sweep(embedder, papers, settings, sizes=(32, 64, 128), reps: int = 3) -> dict[int, float]:
    """Chunks/s of :func:`rag.index.ingest.embed_by_length` per batch size (median of ``reps``, rotated)."""
    from rag.index.ingest import chunk_paper, embed_by_length

    chunks = [
        c
        for p in papers
        for c in chunk_paper(
            p, embedder.count_tokens, settings.chunking.max_tokens, settings.chunking.overlap_sentences
        )
    ]
    texts = [c.text for c in chunks]
    tokens = [embedder.count_tokens(t) for t in texts]
    times: dict[int, list[float]] = {b: [] for b in sizes}
    old = embedder.batch_size
    try:
        for r in range(reps):
            order = list(sizes) if r % 2 == 0 else list(reversed(sizes))
            for b in order:
                embedder.batch_size = b
                t = time.perf_counter()
                embed_by_length(embedder, texts, tokens, b)
                times[b].append(time.perf_counter() - t)
    finally:
        embedder.batch_size = old
    return {b: len(texts) / statistics.median(ts) for b, ts in times.items()}


def llama_documents(part):
    from llama_index.core import Document

    docs = []
    for p in part:
        meta = {"paper_id": p.id, "title": p.title, "authors": ", ".join(p.authors), "venue": p.venue, "url": p.url}
        if p.year is not None:
            meta["year"] = p.year
        docs.append(
            Document(id_=p.id, text=p.abstract, metadata={k: v for k, v in meta.items() if v not in ("", None)})
        )
    return docs


def interleaved_ingest(slices, store, embedder, settings, client, like_every: int):
    """Ingest every slice with ours, raw encode and llama-index, in rotating order.

    Returns:
        Seconds per pipeline, chunk and token totals, peak RSS during our ingest, and the
        like-for-like (llama-index over our chunks) seconds with our seconds on the same slices.
    """
    from llama_index.core import StorageContext, VectorStoreIndex
    from llama_index.core.schema import TextNode
    from llama_index.vector_stores.chroma import ChromaVectorStore

    from rag.index.embed import LlamaIndexEmbedding
    from rag.index.ingest import chunk_paper, ingest_paths

    ck = settings.chunking
    li_embed = LlamaIndexEmbedding(embedder)
    space = {"hnsw:space": "cosine"}
    li_store = ChromaVectorStore(chroma_collection=client.get_or_create_collection("li_docs", metadata=space))
    li_ctx = StorageContext.from_defaults(vector_store=li_store)
    ll_store = ChromaVectorStore(chroma_collection=client.get_or_create_collection("li_nodes", metadata=space))
    ll_ctx = StorageContext.from_defaults(vector_store=ll_store)
    from llama_index.core.schema import MetadataMode

    secs = {"ours": 0.0, "raw": 0.0, "llama": 0.0, "like": 0.0, "ours_like": 0.0}
    n_chunks = n_tokens = 0
    truncated = 0  # llama-index nodes (metadata + abstract) longer than the model's 256 tokens
    peak = 0.0
    can_reset = reset_peak_rss()
    for i, (path, part) in enumerate(slices):
        chunks = [c for p in part for c in chunk_paper(p, embedder.count_tokens, ck.max_tokens, ck.overlap_sentences)]
        texts = [c.text for c in chunks]
        n_chunks += len(texts)
        n_tokens += sum(embedder.count_tokens(t) for t in texts)
        docs = llama_documents(part)
        truncated += sum(embedder.count_tokens(d.get_content(metadata_mode=MetadataMode.EMBED)) > 254 for d in docs)
        gc.collect()

        def ours(path=path):
            if can_reset:
                reset_peak_rss()
            t = time.perf_counter()
            ingest_paths([path], store, embedder, max_tokens=ck.max_tokens, overlap=ck.overlap_sentences)
            dt = time.perf_counter() - t
            nonlocal peak
            peak = max(peak, peak_rss_mib())
            return dt

        def raw(texts=texts):
            t = time.perf_counter()
            embedder._model.encode(
                texts,
                batch_size=embedder.batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
            return time.perf_counter() - t

        def llama(docs=docs):
            t = time.perf_counter()
            VectorStoreIndex.from_documents(docs, storage_context=li_ctx, embed_model=li_embed, show_progress=False)
            return time.perf_counter() - t

        steps = [("ours", ours), ("raw", raw), ("llama", llama)]
        k = i % 3
        for name, fn in steps[k:] + steps[:k]:
            dt = fn()
            secs[name] += dt
            if name == "ours" and like_every and i % like_every == 0:
                secs["ours_like"] += dt
        if like_every and i % like_every == 0:
            nodes = [
                TextNode(id_=c.id, text=c.text, metadata={"paper_id": c.paper_id, "chunk_index": c.index})
                for c in chunks
            ]
            t = time.perf_counter()
            VectorStoreIndex(nodes, storage_context=ll_ctx, embed_model=li_embed, show_progress=False)
            secs["like"] += time.perf_counter() - t
        done = sum(len(s[1]) for s in slices[: i + 1])
        log(
            f"slice {i + 1}/{len(slices)}: {done} papers; seconds so far "
            + ", ".join(f"{k} {v:.1f}" for k, v in secs.items())
        )
    secs["llama_truncated"] = truncated
    return secs, n_chunks, n_tokens, peak if can_reset else None


def questions_for(papers, n: int) -> list[str]:
    """``n`` distinct natural questions built from paper titles (so no embedding cache hits)."""
    frames = [
        "How do recent methods approach {}?",
        "Which papers work on {}?",
        "What is known about {}?",
        "What results are reported for {}?",
    ]
    titled = [p for p in papers if p.title]
    step = max(1, len(titled) // n)
    out = []
    for i, p in enumerate(titled[::step][:n]):
        topic = p.title.split(":")[-1].strip().lower()
        out.append(frames[i % len(frames)].format(topic))
    return out


def retrieval_latency(retriever, store, embedder, questions, n_candidates: int):
    """p50 seconds of ``HybridRetriever.search`` (with reading the names the question states, as the
    question reader does: :meth:`rag.question.names.NameReader.search_query`) and of (raw encode +
    raw Chroma query), interleaved."""
    names = NameReader(retriever.catalogue)
    model = embedder._model
    for q in ("warm up the model", "another warm up question"):
        retriever.search(names.search_query(q))
        v = model.encode([q], normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False)[0]
        store.chunks.query(query_embeddings=[v.tolist()], n_results=n_candidates, include=["metadatas", "distances"])
    ours, base = [], []
    for i, q in enumerate(questions):

        def run_ours(q=q):
            t = time.perf_counter()
            retriever.search(names.search_query(q))
            ours.append(time.perf_counter() - t)

        def run_base(q=q):
            t = time.perf_counter()
            v = model.encode([q], normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False)[0]
            store.chunks.query(
                query_embeddings=[v.tolist()], n_results=n_candidates, include=["metadatas", "distances"]
            )
            base.append(time.perf_counter() - t)

        for fn in (run_ours, run_base) if i % 2 == 0 else (run_base, run_ours):
            fn()
    return statistics.median(ours), statistics.median(base), ours, base


def synthetic_store(path: Path, n_papers: int, dim: int, chunks_per_paper: float, seed: int = 0):
    """A store of ``n_papers`` synthetic papers whose chunks have random unit vectors."""
    from store.chroma import ChromaStore, Chunk
    from store.papers import Paper

    rng = np.random.default_rng(seed)
    store = ChromaStore(f"pc_synth_{n_papers}", path=path)
    if store.counts()[0] >= n_papers:
        return store, 0.0
    t = time.perf_counter()
    batch = []
    for i in range(n_papers):
        k = 1 + int(rng.random() < (chunks_per_paper - 1)) if chunks_per_paper < 2 else int(round(chunks_per_paper))
        paper = Paper(id=f"syn{i:06d}", abstract=f"Synthetic abstract {i}. It has two sentences.", title=f"S{i}")
        chunks = [Chunk(paper.id, j, f"chunk {j} of {i}", 0, 10) for j in range(k)]
        vecs = rng.standard_normal((k, dim)).astype(np.float32)
        vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
        batch.append((paper, chunks, vecs))
        if len(batch) == 1000:
            store.write_papers(batch)
            batch = []
    if batch:
        store.write_papers(batch)
    return store, time.perf_counter() - t


def query_p50(store, vectors, n: int) -> float:
    for v in vectors[:5]:
        store.chunks.query(query_embeddings=[v.tolist()], n_results=n, include=["metadatas", "distances"])
    ts = []
    for v in vectors:
        t = time.perf_counter()
        store.chunks.query(query_embeddings=[v.tolist()], n_results=n, include=["metadatas", "distances"])
        ts.append(time.perf_counter() - t)
    return statistics.median(ts)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ui_peak_rss(home: Path, timeout: float) -> tuple[float | None, float, str]:
    """Start ``paperchat ui`` on a free port over ``home``; its peak RSS (MiB) once it serves, and startup seconds."""
    port = _free_port()
    env = dict(os.environ, PAPERCHAT_HOME=str(home))
    log_path = home / "ui.log"
    with log_path.open("wb") as logf:
        proc = subprocess.Popen(
            [sys.executable, "-m", "ui.cli", "ui", "--port", str(port)],
            env=env,
            cwd=ROOT,
            stdout=logf,
            stderr=subprocess.STDOUT,
        )
        t0 = time.perf_counter()
        url = f"http://127.0.0.1:{port}/"
        try:
            while time.perf_counter() - t0 < timeout:
                if proc.poll() is not None:
                    return None, 0.0, log_path.read_text(errors="replace")[-1500:]
                try:
                    with urllib.request.urlopen(url, timeout=5) as r:
                        if r.status == 200:
                            r.read()
                            break
                except OSError:
                    time.sleep(0.5)
            else:
                return None, 0.0, "timed out"
            started = time.perf_counter() - t0
            kib = _status_kib(proc.pid, "VmHWM")
            return (kib / 1024 if kib else None), started, ""
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


# --- main ---------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--corpus", type=Path, default=ROOT / DEFAULT_CORPUS, help="The ICML 2022-23 JSONL file (.jsonl or .jsonl.gz)."
    )
    ap.add_argument("--seed", type=Path, default=ROOT / "data", help="Folder of the seed .txt files.")
    ap.add_argument("--limit", type=int, default=None, help="Use only this many papers (quick check).")
    ap.add_argument("--slices", type=int, default=12, help="Interleaving slices of the corpus.")
    ap.add_argument("--like-every", type=int, default=3, help="Run the like-for-like llama-index pass every N slices.")
    ap.add_argument("--queries", type=int, default=60, help="Questions for the retrieval latency.")
    ap.add_argument("--synthetic", type=int, default=30000, help="Papers in the synthetic scale store.")
    ap.add_argument("--work", type=Path, default=None, help="Working folder (default: a temporary one, removed).")
    ap.add_argument("--skip-ui", action="store_true", help="Do not start the UI process.")
    ap.add_argument("--skip-startup", action="store_true", help="Do not measure the start-up figures.")
    ap.add_argument("--json", type=Path, default=None, help="Also write the figures to this JSON file.")
    args = ap.parse_args(argv)

    if not args.corpus.exists():
        print(f"corpus not found: {args.corpus} (pass --corpus PATH)", file=sys.stderr)
        return 2
    work = args.work or Path(tempfile.mkdtemp(prefix="paperchat_bench_"))
    work.mkdir(parents=True, exist_ok=True)
    home = work / "home"
    load0 = os.getloadavg()

    from rag.pipeline import make_embedder, open_store, prepare_environment
    from rag.settings import Settings

    settings = Settings(home=home)
    prepare_environment(settings)
    import chromadb
    from chromadb.config import Settings as ChromaSettings

    log("loading the embedder and the corpus")
    embedder = make_embedder(settings)
    limit = getattr(embedder._model, "max_seq_length", None)
    if limit is not None and limit > 256:
        # all-MiniLM-L6-v2 reads 256 word pieces; sentence-transformers 6 truncates at the tokenizer's
        # model_max_length, so a lifted limit would make the llama-index baseline (whole abstracts)
        # crash past 512 tokens. Our chunks never exceed 200 tokens: only the baseline is affected.
        log(f"the embedder's input limit is {limit} tokens: restoring the model's 256 for this benchmark")
        embedder._model.max_seq_length = 256
    papers = load_corpus(args.corpus, args.seed, args.limit)
    slices = write_slices(papers, min(args.slices, len(papers)), work / "slices")
    store = open_store(settings)
    if store.counts()[0]:
        print(f"{home} already holds an index: use a fresh --work folder", file=sys.stderr)
        return 2
    li_client = chromadb.PersistentClient(
        path=str(work / "llama_chroma"), settings=ChromaSettings(anonymized_telemetry=False)
    )
    rows: list[Row] = []
    figures: dict[str, object] = {"papers": len(papers), "load_average_start": load0}

    log("batch size sweep (32/64/128) on 160 papers")
    sweep = batch_size_sweep(embedder, papers[:: max(1, len(papers) // 160)][:160], settings)
    best = max(sweep, key=sweep.get)
    figures["batch_sweep_chunks_per_s"] = sweep

    log(f"interleaved ingest of {len(papers)} papers in {len(slices)} slices")
    rss_before = peak_rss_mib()
    secs, n_chunks, n_tokens, ingest_peak = interleaved_ingest(
        slices, store, embedder, settings, li_client, args.like_every
    )
    first = secs["ours"]
    figures.update(seconds=secs, chunks=n_chunks, tokens=n_tokens)
    log("re-ingest of the unchanged corpus")
    t = time.perf_counter()
    from rag.index.ingest import ingest_paths

    rep = ingest_paths([p for p, _ in slices], store, embedder)
    re_secs = time.perf_counter() - t
    assert rep.added == 0 and sum(f.unchanged for f in rep.files) == len(papers), "re-ingest changed the store"
    audit = store.audit()
    figures.update(reingest_seconds=re_secs, audit_consistent=audit.consistent, orphans=len(audit.orphans))
    log(f"re-ingest {re_secs:.2f} s vs first {secs['ours']:.1f} s; store consistent: {audit.consistent}")

    log("building the retriever")
    from rag.index.retrieve import HybridRetriever

    t = time.perf_counter()
    retriever = HybridRetriever(store, embedder, settings.retrieval)
    build = time.perf_counter() - t
    qs = questions_for(papers, args.queries)
    log(f"retrieval latency over {len(qs)} questions")
    p50_ours, p50_base, all_ours, all_base = retrieval_latency(
        retriever, store, embedder, qs, settings.retrieval.candidates
    )
    parts = {}
    q = qs[0] + " (profile)"
    t = time.perf_counter()
    retriever.dense(q, settings.retrieval.candidates)
    parts["dense (llama-index)"] = time.perf_counter() - t
    t = time.perf_counter()
    retriever.lexical(q, settings.retrieval.candidates)
    parts["bm25"] = time.perf_counter() - t
    t = time.perf_counter()
    NameReader(retriever.catalogue).match(q)
    parts["names"] = time.perf_counter() - t
    figures.update(
        retrieval_p50_ours=p50_ours,
        retrieval_p50_base=p50_base,
        retriever_build_seconds=build,
        search_parts_one_query=parts,
    )

    log(f"retriever build {build:.1f} s; search p50 {p50_ours * 1e3:.1f} ms, baseline p50 {p50_base * 1e3:.1f} ms")
    log(f"scale: synthetic store of {args.synthetic} papers")
    rng = np.random.default_rng(1)
    qv = rng.standard_normal((200, embedder.dimension)).astype(np.float32)
    qv /= np.linalg.norm(qv, axis=1, keepdims=True)
    p50_3k = query_p50(store, qv, settings.retrieval.candidates)
    per_paper = n_chunks / max(1, len(papers))
    synth, synth_secs = synthetic_store(work / "synthetic", args.synthetic, embedder.dimension, per_paper)
    p50_30k = query_p50(synth, qv, settings.retrieval.candidates)
    n_synth_chunks = synth.counts()[1]
    log(f"chunk query p50 {p50_3k * 1e3:.2f} ms ({n_chunks} chunks), {p50_30k * 1e3:.2f} ms ({n_synth_chunks} chunks)")
    figures.update(
        query_p50_real=p50_3k,
        query_p50_synthetic=p50_30k,
        synthetic_write_seconds=synth_secs,
        synthetic_chunks=n_synth_chunks,
    )

    ui_rss = ui_start = None
    if not args.skip_ui:
        log("starting the UI on a copy of the index")
        ui_home = work / "ui_home"
        shutil.copytree(home, ui_home, dirs_exist_ok=True)
        ui_rss, ui_start, why = ui_peak_rss(ui_home, timeout=900)
        log(f"UI peak RSS {ui_rss} MiB after {ui_start:.1f} s")
        if ui_rss is None:
            log(f"the UI did not serve: {why}")
        figures.update(ui_peak_rss_mib=ui_rss, ui_start_seconds=ui_start)

    startup: list[tuple] = []
    if not args.skip_startup:
        from startup import seed_home, startup_rows

        log("start-up: cold and served asks, warm answers (seed corpus, then this collection)")
        startup, figures["startup"] = startup_rows(seed_home(work), home)

    # --- the table --------------------------------------------------------------------------
    n = len(papers)
    thr = n / first
    rows.append(Row("ingest throughput (papers/s; chunks/s)", f"{thr:.1f}; {n_chunks / first:.1f}"))
    r_raw = secs["raw"] / first
    rows.append(
        Row(
            "ingest / raw ST encode, same chunk texts",
            f"{r_raw:.3f}  ({n / secs['raw']:.1f} papers/s raw)",
            ">= 0.9",
            r_raw >= 0.9,
        )
    )
    r_li = secs["llama"] / first
    cut = secs["llama_truncated"] / n
    rows.append(
        Row(
            "ingest / llama-index from_documents",
            f"{r_li:.3f}  ({n / secs['llama']:.1f} papers/s llama; {cut:.0%} of its nodes cut at 256 tokens)",
            ">= 1.2",
            r_li >= 1.2,
        )
    )
    if secs["like"]:
        r_like = secs["like"] / secs["ours_like"]
        rows.append(
            Row("ingest / llama-index on our chunks (info)", f"{r_like:.3f}  (every {args.like_every}th slice)")
        )
    r_re = re_secs / first
    rows.append(
        Row(
            "re-ingest unchanged / first ingest",
            f"{r_re:.4f}  ({re_secs:.2f} s / {first:.1f} s)",
            "<= 0.02",
            r_re <= 0.02,
        )
    )
    r_q = p50_ours / p50_base
    rows.append(
        Row(
            "retrieval p50 search / (raw embed + raw query)",
            f"{r_q:.3f}  ({p50_ours * 1e3:.1f} ms / {p50_base * 1e3:.1f} ms)",
            "<= 1.2",
            r_q <= 1.2,
        )
    )
    growth = p50_30k / p50_3k
    size = n_synth_chunks / max(1, n_chunks)
    rows.append(
        Row(
            f"chunk query p50: {n} real vs {args.synthetic} synthetic papers",
            f"{p50_3k * 1e3:.2f} ms -> {p50_30k * 1e3:.2f} ms (x{growth:.2f} for x{size:.1f} chunks)",
            f"< x{size:.1f} (sublinear)",
            growth < size,
        )
    )
    rows.append(
        Row(
            "peak RSS during ingest (MiB)",
            f"{ingest_peak:.0f}" if ingest_peak else f"{peak_rss_mib():.0f} (ru_maxrss of the whole bench)",
        )
    )
    if not args.skip_ui:
        rows.append(
            Row(
                "peak RSS of the UI process (MiB)",
                f"{ui_rss:.0f}  (served after {ui_start:.1f} s)" if ui_rss else "did not start",
            )
        )
    rows.append(
        Row(
            "embedding batch size (chunks/s at 32/64/128)",
            " / ".join(f"{sweep[b]:.1f}" for b in sorted(sweep)) + f"  -> best {best}",
            f"setting {settings.embedding.batch_size}",
            sweep[settings.embedding.batch_size] >= 0.95 * sweep[best],
        )
    )

    rows += [Row(*r) for r in startup]
    load1 = os.getloadavg()
    figures["load_average_end"] = load1
    print()
    print(
        f"paperchat benchmark · {n} papers ({n_chunks} chunks, {n_tokens} tokens), "
        f"{len(slices)} interleaved slices · {os.cpu_count()} CPUs · load average "
        f"{load0[0]:.1f} at start, {load1[0]:.1f} at end"
    )
    print(
        f"seconds: ours {secs['ours']:.1f}, raw encode {secs['raw']:.1f}, llama-index {secs['llama']:.1f}; "
        f"re-ingest {re_secs:.2f}; retriever build {build:.1f}; RSS before ingest {rss_before:.0f} MiB; "
        f"store consistent: {audit.consistent} ({len(audit.orphans)} orphan chunks)"
    )
    print(
        "one query, parts: "
        + ", ".join(f"{k} {v * 1e3:.1f} ms" for k, v in parts.items())
        + f"; search p90 {np.percentile(all_ours, 90) * 1e3:.1f} ms,"
        + f" baseline p90 {np.percentile(all_base, 90) * 1e3:.1f} ms"
    )
    w = max(len(r.metric) for r in rows)
    v = max(len(r.value) for r in rows)
    g = max(len(r.goal) for r in rows)
    print()
    print(f"{'metric':<{w}}  {'measured':<{v}}  {'goal':<{g}}  result")
    print(f"{'-' * w}  {'-' * v}  {'-' * g}  ------")
    for r in rows:
        print(f"{r.metric:<{w}}  {r.value:<{v}}  {r.goal:<{g}}  {r.verdict}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2, default=str))
    if args.work is None:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
