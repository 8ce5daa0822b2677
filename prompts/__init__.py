"""Prompt templates as files, loaded by name with their variables checked at load time."""

from __future__ import annotations

import string
from dataclasses import dataclass
from pathlib import Path

__all__ = ["PROMPT_DIR", "Prompt", "PromptError", "load_prompt"]

PROMPT_DIR = Path(__file__).resolve().parent

#: The variables each template must use, exactly.
REQUIRED: dict[str, frozenset[str]] = {
    "system": frozenset({"refusal"}),
    "answer": frozenset({"sources", "question", "sentences", "example"}),
    "rewrite": frozenset({"history", "question"}),
    "related_work": frozenset({"sources", "topic", "group", "example"}),
    "summary": frozenset({"sources", "question", "subject"}),
    "topic": frozenset({"sources", "question", "subject"}),
    "compare": frozenset({"sources", "question", "subject"}),
    "list": frozenset({"sources", "question", "subject"}),
    "values": frozenset({"cells", "words"}),
    "translate": frozenset({"question"}),
    "judge": frozenset({"sources", "topic"}),
    "expand": frozenset({"topic"}),
}


class PromptError(ValueError):
    """A template is missing, or its variables differ from what the code passes."""


@dataclass(frozen=True)
class Prompt:
    """A loaded template: ``name``, ``text`` and the ``variables`` it uses."""

    name: str
    text: str
    variables: frozenset[str]

    def format(self, **values: object) -> str:
        """Fill the template.

        Raises:
            PromptError: a variable is missing or unexpected.
        """
        given = frozenset(values)
        if given != self.variables:
            raise PromptError(
                f"prompt {self.name!r} takes {sorted(self.variables)}, got {sorted(given)}"
            )
        return self.text.format(**values)


def load_prompt(name: str, folder: Path = PROMPT_DIR) -> Prompt:
    """Load ``<folder>/<name>.txt`` and check its ``{variables}`` against :data:`REQUIRED`.

    Raises:
        PromptError: the file is missing or its variables differ from the required set.
    """
    path = folder / f"{name}.txt"
    if not path.is_file():
        raise PromptError(f"no prompt named {name!r} in {folder}")
    text = path.read_text(encoding="utf-8").strip()
    found = frozenset(f for _, f, _, _ in string.Formatter().parse(text) if f)
    want = REQUIRED.get(name)
    if want is not None and found != want:
        raise PromptError(f"prompt {name!r} uses {sorted(found)}, the code passes {sorted(want)}")
    return Prompt(name, text, found)
