"""The Gradio page: the Blocks layout of chat, evidence panel, exports and settings, and the
wiring of its events to :class:`ui.handlers.Handlers`.

Thin by design: :func:`build_app` lays out components and connects them to the handlers
(conversation logic is :class:`rag.route.conversation.Conversation`, rendering the pure formatters
of :mod:`ui.chat`, :mod:`ui.evidence_panel` and :mod:`ui.exports`; the stylesheet and script are
:mod:`ui.page`); :func:`ui.serve.launch` serves it with that stylesheet. Every user has their own
conversation in a ``gr.State``; nothing lives at module level.
"""

from __future__ import annotations

from collections.abc import Callable

import gradio as gr

from rag.pipeline import Components
from ui.chat import LATEX_DELIMITERS
from ui.evidence_panel import EMPTY_PANEL
from ui.handlers import Handlers
from ui.page import PAGE_JS
from ui.session import AUTO_FILTER_LABEL, BACKENDS, Session

__all__ = ["build_app"]

EXAMPLES = [
    "What accuracy gain does DANCE report?",
    "Which papers use reinforcement learning?",
    "Compare DANCE and APM",
    "Summarize the papers on federated learning",
    "Table of the papers on reinforcement learning with columns benchmark, main result, code",
]


def build_app(components: Components, *, default_llm_note: str = "", handlers: Handlers | None = None) -> gr.Blocks:
    """Build the Gradio app over ready components (nothing is served).

    Args:
        components: Store, retriever and pipeline from :func:`rag.pipeline.build_pipeline`.
        default_llm_note: Why the default LLM was chosen (shown until the first answer).
        handlers: The page's handlers when the caller shares them (their backends serve the
            command line too, :mod:`ui.warm`); built here when ``None``.

    Returns:
        The ``gr.Blocks`` app with its queue configured (two answers at a time).
    """
    handlers = handlers or Handlers(components, default_llm_note)
    backends = handlers.backends
    settings = components.settings

    # -- layout ------------------------------------------------------------------------------

    with gr.Blocks(title="paperchat", fill_width=True) as demo:
        session_state = gr.State(None)
        header = gr.Markdown(handlers.header(), elem_id="pc-header")
        with gr.Row(equal_height=False):
            with gr.Column(scale=3, min_width=320):
                chatbot = gr.Chatbot(
                    label="Conversation",
                    elem_id="pc-chat",
                    height="auto",  # grows with its answers: the page scrolls, not a box (ui.page)
                    min_height=160,
                    autoscroll=False,  # ui.page's script shows the start of a new answer instead
                    latex_delimiters=LATEX_DELIMITERS,
                    buttons=["copy"],
                    feedback_options=None,
                    placeholder="Ask a question about the papers, e.g. *What accuracy gain does DANCE report?*",
                )
                question = gr.Textbox(
                    placeholder="Ask about the papers… (Enter to send)",
                    show_label=False,
                    elem_id="pc-question",
                    lines=1,
                    max_lines=6,
                    autofocus=True,
                )
                with gr.Row():
                    ask_btn = gr.Button("Ask", variant="primary", elem_id="pc-ask")
                    stop_btn = gr.Button("Stop", variant="stop", elem_id="pc-stop")
                    retry_btn = gr.Button("Retry", visible=False, elem_id="pc-retry")
                    new_btn = gr.Button("New conversation", elem_id="pc-new")
                    watch_btn = gr.Button("Watch this question", elem_id="pc-watch")
                status = gr.Markdown(handlers.default_status(), elem_id="pc-status")
                with gr.Row():
                    dl_answer = gr.DownloadButton("Answer (.md)", size="sm", interactive=False, elem_id="pc-dl-answer")
                    dl_conv = gr.DownloadButton(
                        "Conversation (.md)", size="sm", interactive=False, elem_id="pc-dl-conv"
                    )
                    dl_bib = gr.DownloadButton("References (.bib)", size="sm", interactive=False, elem_id="pc-dl-bib")
                    dl_csv = gr.DownloadButton("Table (.csv)", size="sm", visible=False, elem_id="pc-dl-csv")
                    dl_rows = gr.DownloadButton("Rows (.bib)", size="sm", visible=False, elem_id="pc-dl-rows")
                    rw_tex = gr.DownloadButton("Related work (.tex)", size="sm", visible=False, elem_id="pc-rw-tex")
                    rw_bib = gr.DownloadButton("Related work (.bib)", size="sm", visible=False, elem_id="pc-rw-bib")
                gr.Examples(EXAMPLES, inputs=question, label="Examples")
            with gr.Column(scale=2, min_width=320, elem_id="pc-side"):  # stays in view on a wide screen
                evidence = gr.HTML(EMPTY_PANEL, elem_id="pc-evidence", js_on_load=PAGE_JS, padding=True)
        with gr.Accordion("Settings", open=False):
            with gr.Row():
                backend_dd = gr.Dropdown(
                    BACKENDS,
                    value=backends.default_backend,
                    label="LLM backend",
                    info=(
                        "auto = Ollama when it runs, else extractive answers; "
                        "embedded = the small bundled model (slow); none = extractive"
                    ),
                )
                model_dd = gr.Dropdown(
                    [backends.default_model],
                    value=backends.default_model,
                    allow_custom_value=True,
                    label="Ollama model",
                    info="Models pulled into the Ollama server (Refresh to list them)",
                )
                top_k = gr.Slider(1, 10, value=settings.retrieval.top_k, step=1, label="top-k (papers per answer)",
                                  info="Most papers an answer about named papers draws on; a list of papers "
                                  "follows their relevance and says how many match.")
            with gr.Row():
                year_tb = gr.Textbox("", label="Year", placeholder="any, e.g. 2023", elem_id="pc-year")
                venue_tb = gr.Textbox("", label="Venue", placeholder="any, e.g. ICML", elem_id="pc-venue")
                author_tb = gr.Textbox("", label="Author", placeholder="any, part of a name", elem_id="pc-author")
                auto_cb = gr.Checkbox(
                    value=True,
                    label=AUTO_FILTER_LABEL,
                    info="“papers from 2023 about …” then only searches papers of 2023",
                    elem_id="pc-auto-filter",
                )
            refresh_btn = gr.Button("Refresh Ollama models", size="sm")
            effective = gr.Markdown(
                handlers.effective_line(
                    backends.default_backend, backends.default_model, settings.retrieval.top_k, backends.default_note
                )
            )
        with gr.Accordion("Add papers", open=False):
            upload = gr.File(
                label="Files to add (.jsonl, .json, .csv, .tsv, .bib, .txt, .xml, zotero.sqlite)",
                file_count="multiple",
                elem_id="pc-upload",
            )
            add_btn = gr.Button("Add to the collection", size="sm", elem_id="pc-add")
            added = gr.Markdown("", elem_id="pc-added")
        with gr.Accordion("Answer details (JSON)", open=False):
            details = gr.JSON(label="Current answer")

        # -- events -------------------------------------------------------------------------
        settings_inputs = [backend_dd, model_dd, top_k, year_tb, venue_tb, author_tb, auto_cb]
        outputs = [chatbot, evidence, status, details, dl_answer, dl_conv, dl_bib, question, session_state]
        ask_event = gr.on(
            [question.submit, ask_btn.click],
            handlers.respond,
            inputs=[question, *settings_inputs, session_state],
            outputs=outputs,
            api_name="ask",
            show_progress="hidden",
            trigger_mode="always_last",  # a question sent while one is answered is answered next, not dropped
        )
        retry_event = retry_btn.click(
            handlers.retry,
            inputs=[*settings_inputs, session_state],
            outputs=outputs,
            api_name="retry",
            show_progress="hidden",
        )
        for event in (ask_event, retry_event):
            event.then(handlers.retry_button, inputs=[session_state], outputs=[retry_btn], api_name=False)
            event.then(handlers.table_downloads, inputs=[session_state], outputs=[dl_csv, dl_rows], api_name=False)
            event.then(
                handlers.related_work_downloads, inputs=[session_state], outputs=[rw_tex, rw_bib], api_name=False
            )

        def cancelling(button: gr.Button, handler: Callable[[Session | None], tuple], api_name: str) -> None:
            """Wire a button that ends the running answer (Stop, New conversation)."""
            button.click(
                handler,
                inputs=[session_state],
                outputs=[chatbot, evidence, status, details, dl_answer, dl_conv, dl_bib, session_state],
                cancels=[ask_event, retry_event],
                api_name=api_name,
                concurrency_limit=None,
            )

        cancelling(stop_btn, handlers.stop_answer, "stop")
        cancelling(new_btn, handlers.new_conversation, "new_conversation")
        gr.on(
            [backend_dd.change, model_dd.change, top_k.release, auto_cb.change]
            + [ev for tb in (year_tb, venue_tb, author_tb) for ev in (tb.submit, tb.blur)],
            handlers.apply_settings,
            inputs=[*settings_inputs, session_state],
            outputs=[effective, session_state],
            api_name="settings",
            concurrency_limit=None,
        )
        refresh_btn.click(
            handlers.refresh_models,
            inputs=[backend_dd, model_dd, top_k, session_state],
            outputs=[model_dd, effective, session_state],
            api_name="refresh_models",
            concurrency_limit=None,
        )
        watch_btn.click(  # the question typed, else the last one asked: asked again after every ingest
            handlers.watch_question, inputs=[question, session_state], outputs=[status], api_name="watch",
            concurrency_limit=None,
        )
        add_btn.click(
            handlers.add_papers, inputs=[upload, session_state], outputs=[added, header], api_name="add_papers",
            concurrency_limit=1,
        )
        demo.load(handlers.header, outputs=[header], api_name=False)  # the collection as it is now
    demo.queue(default_concurrency_limit=2)
    return demo
