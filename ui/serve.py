"""Serving the chat page: the bind check (no open address without a password), credentials, and
:func:`launch`, called only from the entry point (``paperchat ui``) and the tests."""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from pathlib import Path

import gradio as gr

from rag.pipeline import Components
from ui.app import build_app
from ui.bind import is_loopback_host
from ui.handlers import Handlers, export_root
from ui.page import PAGE_CSS

__all__ = ["Auth", "check_bind", "is_loopback_host", "launch", "parse_auth"]


Auth = tuple[str, str] | list[tuple[str, str]] | Callable[[str, str], bool]


def parse_auth(value: str | Auth | None) -> Auth | None:
    """Credentials for ``gr.Blocks.launch(auth=...)``.

    Args:
        value: ``"user:password"``, the path of a file whose first line is that, a
            ``(user, password)`` tuple, a list of them, a checking function, or ``None``/``""``.

    Raises:
        ValueError: a string that is not ``user:password`` (nor a file holding it).
    """
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        return value
    text = value
    try:
        path = Path(value).expanduser()
        if path.is_file():
            lines = path.read_text(encoding="utf-8").splitlines()
            text = lines[0].strip() if lines else ""
    except OSError:
        pass
    user, sep, password = text.partition(":")
    if not sep or not user or not password:
        raise ValueError("auth must be 'user:password' (or a file whose first line is that)")
    return user, password


def check_bind(host: str, auth: object) -> None:
    """Refuse to serve on a non-loopback address without authentication.

    Raises:
        ValueError: ``host`` is reachable from other machines and ``auth`` is empty.
    """
    if not is_loopback_host(host) and not auth:
        raise ValueError(
            f"Refusing to serve paperchat on {host} without a password: anyone who can reach this "
            "machine could use it. Pass --auth user:password (in Python: auth=('user', 'password')), "
            "or bind to 127.0.0.1."
        )


def launch(
    components: Components,
    host: str = "127.0.0.1",
    port: int = 7860,
    auth: str | Auth | None = None,
    *,
    default_llm_note: str = "",
    block: bool = True,
    announce: bool | None = None,
    warm: bool | None = None,
) -> gr.Blocks:
    """Serve the app (never through a share link), with the ``/paperchat/*`` routes of :mod:`ui.warm`
    so the command line answers through it; while it blocks, the data directory's discovery file
    (:mod:`ui.discovery`) names it, unless another warm process that answers already holds it.

    Args:
        components: Ready components (see :func:`ui.app.build_app`).
        host: Address to bind; anything but loopback requires ``auth``.
        port: TCP port.
        auth: ``"user:password"`` (or a file holding it), ``(user, password)``, a list of
            them, or a checking function.
        default_llm_note: Why the default LLM was chosen.
        block: Serve until interrupted (the entry point); ``False`` returns at once with
            the server running in a background thread (tests; call ``demo.close()``).
        announce: Keep the discovery file (default: while blocking). With ``block=False`` the file
            stays until the process ends (tests; a closed page's file is then ignored as not answering).
        warm: Answer and render one question before serving (:meth:`ui.handlers.Handlers.warm_up`;
            default: while blocking), so the first question waits for nothing rendering loads.

    Returns:
        The running app.

    Raises:
        ValueError: a non-loopback ``host`` without ``auth``, or malformed ``auth``.
    """
    auth = parse_auth(auth)
    check_bind(host, auth)
    from ui.discovery import new_server_info, remove_discovery, write_discovery
    from ui.warm import WarmService, add_warm_routes, warm_questions

    handlers = Handlers(components, default_llm_note)
    if block if warm is None else warm:
        handlers.warm_up(warm_questions(components)[-1])
    demo = build_app(components, default_llm_note=default_llm_note, handlers=handlers)
    if block:
        shown = f"[{host}]" if ":" in host else host
        print(f"paperchat is serving at http://{shown}:{port}/ (Ctrl+C to stop)", flush=True)
    demo.launch(
        server_name=host,
        server_port=port,
        auth=auth,
        share=False,
        inbrowser=False,
        prevent_thread_lock=True,
        quiet=True,  # Gradio's banner suggests share=True, which this app never uses
        show_error=True,
        footer_links=["api"],
        allowed_paths=[str(export_root(components.settings))],  # exports live in the data directory
        css=PAGE_CSS,
    )
    info = new_server_info(components.settings, host, demo.server_port or port, "page")
    add_warm_routes(demo.app, WarmService(handlers.backends, info))
    home = components.settings.home
    if block if announce is None else announce:
        write_discovery(home, info)
    if block:
        if threading.current_thread() is threading.main_thread():
            # Ctrl+C stops the page even when it was started with SIGINT ignored (a background job
            # of a shell without job control): Python then installs no KeyboardInterrupt handler,
            # and Gradio's wait loop would never end
            signal.signal(signal.SIGINT, signal.default_int_handler)
        try:
            demo.block_thread()
        finally:
            remove_discovery(home, info)
    return demo
