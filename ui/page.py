"""The chat page's stylesheet and script (the layout is :func:`ui.app.build_app`).

The page fits its answers: the chat grows with them and the page scrolls (there is no box to
scroll inside); a table scrolls sideways in its own block (``.pc-table``) with columns wide enough
to read a sentence; on a wide screen the evidence panel stays in view beside the chat while the
page scrolls; on a phone everything stacks and nothing is wider than the screen
(``tests/test_ui_browser.py`` checks both at 1280×800 and 390×844).

The script, installed once per page (:data:`PAGE_JS`):

* a click on a marker ``[n]`` brings the evidence panel's source ``#src-n`` into view (also when it
  sits in the folded list of earlier sources); a click on a table cell (or its marker,
  ``#src-n-sA-B-sC-D``) highlights the cell's sentences, the panel's spans ``A-B``, ``C-D``;
* a click on a source's "More like this" (``a.pc-more``) asks its ``data-ask`` message in the chat
  ("More papers like [n]", :data:`ui.evidence_panel.MORE_LIKE`), as if typed;
* a click on a table's "Copy as Markdown" / "Copy as CSV" (``#pc-copy-md-k``, ``#pc-copy-csv-k``)
  copies the text the panel holds for it (:func:`ui.evidence_panel.copy_sources`; the text copied
  last is also ``window.__paperchatCopied``, which the browser test waits for);
* when an answer arrives (its message is no longer :data:`ui.chat.SEARCHING`) and its first line
  is out of view, the page scrolls to show the question and the start of the answer.
"""

from __future__ import annotations

import json

from ui.chat import SEARCHING

__all__ = ["PAGE_CSS", "PAGE_JS", "SIDE_STICKY_MIN_WIDTH"]

SIDE_STICKY_MIN_WIDTH = 1000
"""Narrowest window (CSS pixels) where the evidence panel stays in view beside the chat; narrower,
the columns stack and the panel follows the chat."""

PAGE_CSS = (
    """
/* The chat grows with its answers; the page scrolls, not a box inside it. */
#pc-chat .bubble-wrap { height: auto !important; max-height: none !important; overflow-y: visible !important; }
#pc-chat .message-content, #pc-chat .message { min-width: 0; max-width: 100%; }

/* On a phone the messages take the chat's width. */
@media (max-width: 640px) {
  #pc-chat .message-row { margin-left: 4px !important; margin-right: 4px !important;
                          max-width: calc(100% - 8px) !important; }
  #pc-chat .bubble-wrap { padding-left: 0; padding-right: 0; }
}

/* A table scrolls sideways in its own block; its columns are wide enough to read a sentence. */
#pc-chat .pc-table { overflow-x: auto; max-width: 100%; margin: 0.4em 0; }
#pc-chat .pc-table table { width: 100%; margin: 0; table-layout: auto; font-size: 0.92em;
                           word-break: normal; overflow-wrap: normal; }
#pc-chat .pc-table td, #pc-chat .pc-table th { min-width: 15em; vertical-align: top; word-break: normal;
                                               overflow-wrap: break-word; hyphens: manual; }
#pc-chat .pc-table td:first-child, #pc-chat .pc-table th:first-child { min-width: 7.5em; }
#pc-chat .pc-table details summary { cursor: pointer; margin: 0.4em 0; }
#pc-chat a[href^="#src-"] { text-decoration: none; font-weight: 600; }
#pc-chat .pc-copy { display: flex; flex-wrap: wrap; gap: 0.5em; margin: 0.2em 0 0.4em; font-size: 0.85em; }
#pc-chat .pc-copy a { border: 1px solid var(--border-color-primary); border-radius: 6px; padding: 0.1em 0.6em;
                      text-decoration: none; cursor: pointer; }
#pc-chat .pc-copy a.pc-copied { border-color: var(--color-accent); }

/* The evidence panel. */
.pc-evidence { font-size: 0.92rem; line-height: 1.45; }
.pc-evidence .pc-head { margin: 0 0 0.5rem 0; }
.pc-evidence .pc-note { margin: 0 0 0.5rem 0; color: var(--body-text-color-subdued); }
.pc-evidence .pc-legend { margin: 0 0 0.5rem 0; font-size: 0.8rem; color: var(--body-text-color-subdued); }
.pc-src { border: 1px solid var(--border-color-primary); border-radius: 8px; padding: 0.6rem 0.8rem;
          margin-bottom: 0.7rem; scroll-margin-top: 0.5rem; transition: box-shadow 0.3s; }
.pc-src h4 { margin: 0 0 0.25rem 0; font-size: 1rem; }
.pc-src .pc-num { color: var(--color-accent); font-weight: 700; }
.pc-meta { font-size: 0.8rem; color: var(--body-text-color-subdued); margin-bottom: 0.35rem; overflow-wrap: anywhere; }
.pc-abstract { margin: 0; overflow-wrap: break-word; }
.pc-abstract mark { background: #fde68a; color: #111827; padding: 0 1px; border-radius: 2px; }
.pc-abstract .pc-plain { text-decoration: underline dotted #818cf8; text-underline-offset: 3px; }
.pc-span[data-label]::before { content: attr(data-label); display: inline-block; margin-right: 3px; padding: 0 4px;
                               border-radius: 3px; background: #e0e7ff; color: #3730a3; font-size: 0.66rem;
                               line-height: 1.4; letter-spacing: 0.02em; text-transform: uppercase;
                               vertical-align: 1px; }
.pc-flash { box-shadow: 0 0 0 3px var(--color-accent); }
.pc-span.pc-cell-hit mark, .pc-span.pc-cell-hit .pc-plain { background: #fb923c; color: #111827;
                                                             outline: 2px solid #c2410c; text-decoration: none; }
.pc-earlier summary { cursor: pointer; }
"""
    + f"""
/* On a wide screen the evidence panel stays in view beside the growing chat (Gradio's container
   hides its overflow, which would make it the panel's scroll container: clipping does not). */
.gradio-container {{ overflow: clip !important; }}
@media (min-width: {SIDE_STICKY_MIN_WIDTH}px) {{
  #pc-side {{ position: sticky; top: 0.5rem; align-self: flex-start; max-height: calc(100vh - 1rem);
              overflow-y: auto; }}
}}
"""
)
"""The page's stylesheet (``gr.Blocks.launch(css=...)``, :func:`ui.serve.launch`)."""

PAGE_JS = """
if (!window.__paperchatPage) {
  window.__paperchatPage = true;
  const SEARCHING = __SEARCHING__;
  const copyText = async (text) => {
    try { await navigator.clipboard.writeText(text); return true; } catch (e) {}
    const ta = document.createElement('textarea');  // no clipboard API (an http page on another host)
    ta.value = text; ta.style.position = 'fixed'; ta.style.opacity = '0';
    document.body.appendChild(ta); ta.select();
    let ok = false;
    try { ok = document.execCommand('copy'); } catch (e) {}
    ta.remove();
    return ok;
  };
  document.addEventListener('click', (ev) => {
    const t = ev.target && ev.target.closest ? ev.target : null;
    const more = t ? t.closest('a.pc-more[data-ask]') : null;
    if (more) {  // "More like this" on a source: ask its message in the chat
      ev.preventDefault();
      const box = document.querySelector('#pc-question textarea');
      const ask = document.getElementById('pc-ask');
      if (!box || !ask) return;
      box.value = more.dataset.ask;
      box.dispatchEvent(new Event('input', {bubbles: true}));
      setTimeout(() => ask.click(), 60);
      return;
    }
    const copy = t ? t.closest('a[href^="#pc-copy-"]') : null;
    if (copy) {  // "Copy as Markdown / CSV" under a table
      ev.preventDefault();
      const key = copy.getAttribute('href').slice('#pc-copy-'.length);
      const src = document.querySelector('#pc-evidence pre[data-copy="' + key + '"]');
      if (!src) return;
      const label = copy.dataset.label || copy.textContent;
      copy.dataset.label = label;
      copyText(src.textContent).then((ok) => {
        window.__paperchatCopied = ok ? src.textContent : null;
        copy.textContent = ok ? 'Copied ✓' : 'Copy failed';
        copy.classList.add('pc-copied');
        setTimeout(() => { copy.textContent = label; copy.classList.remove('pc-copied'); }, 1600);
      });
      return;
    }
    let a = t ? t.closest('a[href^="#src-"]') : null;
    const td = t ? t.closest('#pc-chat td') : null;
    if (!a && td) a = td.querySelector('a[href^="#src-"][href*="-s"]');  // a click anywhere in a table cell
    if (!a) return;
    const m = a.getAttribute('href').match(/^#src-(\\d+)((?:-s\\d+-\\d+)*)$/);
    const el = m ? document.getElementById('src-' + m[1]) : null;
    if (!el) return;
    ev.preventDefault();
    const det = el.closest('details');
    if (det) det.open = true;
    document.querySelectorAll('.pc-cell-hit').forEach((x) => x.classList.remove('pc-cell-hit'));
    const spans = [...m[2].matchAll(/-s(\\d+)-(\\d+)/g)].map((x) => [Number(x[1]), Number(x[2])]);
    if (spans.length) {  // a table cell: highlight its sentences (by their spans in the abstract)
      el.querySelectorAll('.pc-span').forEach((sp) => {
        const [a0, b0] = sp.dataset.span.split('-').map(Number);
        if (spans.some(([s, e]) => a0 < e && b0 > s)) sp.classList.add('pc-cell-hit');
      });
    }
    const hit = el.querySelector('.pc-cell-hit');
    const side = document.getElementById('pc-side');
    if (side && getComputedStyle(side).position === 'sticky') {  // scroll the panel, not the page
      const target = (hit || el).getBoundingClientRect(), box = side.getBoundingClientRect();
      const offset = hit ? target.top - box.top - box.height / 2 + target.height / 2 : target.top - box.top - 8;
      side.scrollBy({top: offset, behavior: 'smooth'});
    } else {
      (hit || el).scrollIntoView({behavior: 'smooth', block: hit ? 'center' : 'start'});
    }
    el.classList.add('pc-flash');
    setTimeout(() => el.classList.remove('pc-flash'), 1600);
  }, true);

  // When an answer arrives with its first line out of view, show the question and the answer's start.
  let users = 0, waiting = false;
  const follow = () => {
    const chat = document.getElementById('pc-chat');
    if (!chat) return;
    const us = chat.querySelectorAll('[data-testid="user"]');
    if (us.length > users) waiting = true;  // a new question (a re-render may briefly show a message twice)
    users = us.length;
    if (!waiting) return;
    const bots = chat.querySelectorAll('[data-testid="bot"]');
    const bot = bots[bots.length - 1], user = us[us.length - 1];
    if (!bot || !user || bot.compareDocumentPosition(user) & Node.DOCUMENT_POSITION_FOLLOWING) return;
    const text = bot.innerText || '';
    if (text.includes(SEARCHING)) return;  // not answered yet
    waiting = false;
    const r = bot.getBoundingClientRect();
    const line = Math.min(r.top + 40, r.bottom);
    if (r.top < 0 || line > window.innerHeight) {
      const top = user.getBoundingClientRect().top + window.scrollY - 8;
      window.scrollTo({top: Math.max(0, top), behavior: 'instant'});
    }
  };
  new MutationObserver(() => requestAnimationFrame(follow)).observe(document.body, {childList: true, subtree: true});
}
""".replace("__SEARCHING__", json.dumps(SEARCHING))
"""The page's script (``gr.HTML(js_on_load=...)`` of the evidence panel; it runs once per page)."""
