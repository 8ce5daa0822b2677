"""The README and the docs pages say what the product does: short, links that lead somewhere, and
commands that exist.

`mkdocs build --strict` (`make docs`) checks the links between docs pages; the README lives outside
the site, so its links are checked here. The commands shown in both (``make ...`` and
``paperchat ...`` lines of code blocks) are checked against the Makefile's targets and the
command line's commands and options.
"""

import re
import shlex
from pathlib import Path

import click
import pytest

from ui.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
PAGES = [README, *DOCS]
LINK = re.compile(r"\]\(([^)\s]+)\)")
BLOCK = re.compile(r"^```bash\n(.*?)^```", re.S | re.M)


def _lines(page: Path) -> list[str]:
    """The lines of the shell code blocks (```bash) of a page."""
    return [line for block in BLOCK.findall(page.read_text(encoding="utf-8")) for line in block.splitlines()]


def _rel(page: Path) -> str:
    return str(page.relative_to(ROOT))


def test_the_readme_reads_in_two_minutes():
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 150


def test_the_readme_says_plainly_what_you_get_without_ollama():
    head = "\n".join(README.read_text(encoding="utf-8").splitlines()[:40])
    assert "Without Ollama, answers are quotes, not prose" in head
    assert "ollama pull" in head


@pytest.mark.parametrize("page", [README, ROOT / "docs" / "index.md"], ids=_rel)
def test_the_links_of_the_readme_and_the_docs_home_lead_to_files(page):
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        path = (page.parent / target.split("#")[0]).resolve()
        assert path.is_file(), f"{_rel(page)} links to {target}, which does not exist"


def test_the_screenshot_is_small():
    shot = ROOT / "docs" / "paperchat-page.png"
    assert shot.stat().st_size < 200_000


def test_every_docs_page_is_in_the_site_nav():
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for page in DOCS:
        assert f" {page.name}" in nav, f"{page.name} is not in mkdocs.yml's nav"


@pytest.mark.parametrize("page", PAGES, ids=_rel)
def test_make_targets_shown_exist(page):
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    targets = set(re.findall(r"^([a-z][a-z-]*):", makefile, re.M))
    text = page.read_text(encoding="utf-8")
    shown = re.findall(r"`make ([a-z][a-z-]*)", text) + [
        line.split()[1] for line in _lines(page) if line.startswith("make ") and len(line.split()) > 1
    ]
    for target in shown:
        assert target in targets, f"{_rel(page)} shows `make {target}`, which the Makefile does not have"


def _options(command: click.Command) -> set[str]:
    return {opt for param in command.params for opt in (*param.opts, *param.secondary_opts)}


@pytest.mark.parametrize("page", PAGES, ids=_rel)
def test_paperchat_commands_shown_exist_with_their_options(page):
    group = _options(main)
    shown = 0
    for line in _lines(page):
        words = line.split()
        while words and ("=" in words[0] or words[0].endswith("/paperchat")):  # VAR=value, .venv/bin/paperchat
            words = ["paperchat", *words[1:]] if words[0].endswith("/paperchat") else words[1:]
        if not words or words[0] != "paperchat":
            continue
        args = shlex.split(" ".join(words), comments=True)[1:]
        while args and args[0] in group:  # --home DIR before the command
            args = args[2:] if args[0] in ("--home", "--chroma-url") else args[1:]
        assert args and args[0] in main.commands, f"{_rel(page)}: `{line.strip()}` names no paperchat command"
        command = main.commands[args[0]]
        for arg in args[1:]:
            option = arg.split("=")[0]
            if option.startswith("--"):
                assert option in _options(command), f"{_rel(page)}: `paperchat {args[0]}` has no option {option}"
        shown += 1
    if page == README:
        assert shown >= 3
