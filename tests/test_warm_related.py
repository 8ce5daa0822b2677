"""``paperchat similar`` and the saved questions through a running ``paperchat serve`` (a real
subprocess): ``similar`` prints what it prints in-process, and an ingest the command line sends to
the server reports the saved questions as one in-process does."""

from __future__ import annotations

import json

import pytest

from store.watches import Watches
from tests.test_warm import ZEBRA, _cli, _health, _same, api_home  # noqa: F401 - api_home is a fixture

pytestmark = pytest.mark.slow


def test_similar_through_the_server_prints_what_similar_local_prints(api_home):  # noqa: F811
    home, _ = api_home
    served = _health(home)["served"]
    for extra in ([], ["--json", "-k", "3"]):
        warm = _cli(home, "similar", "DANCE", *extra)
        local = _cli(home, "similar", "DANCE", "--local", *extra)
        assert warm.exit_code == local.exit_code == 0, (warm.output, local.output)
        assert _same(warm.stdout) == _same(local.stdout) and "papers like DANCE" in warm.stdout
    assert _health(home)["served"] == served + 2
    unclear = _cli(home, "similar", "ZQXW-9")
    assert unclear.exit_code == 1 and "I could not find “ZQXW-9”" in unclear.stdout


def test_an_ingest_through_the_server_reports_the_saved_questions(api_home, tmp_path):  # noqa: F811
    home, _ = api_home
    assert _cli(home, "watch", "Which papers count zebras in aerial images?").exit_code == 0
    f = tmp_path / "zebra.jsonl"
    f.write_text(json.dumps(ZEBRA) + "\n", encoding="utf-8")
    served = _health(home)["served"]
    out = _cli(home, "ingest", str(f))
    assert out.exit_code == 0 and _health(home)["served"] == served + 1  # the server ingested
    assert "watch “Which papers count zebras in aerial images?”: 1 new paper matches — ZebraNet “" in out.stdout
    assert Watches(home).load()[0].reported == ["z-1"]
    again = _cli(home, "ingest", str(f))
    assert again.exit_code == 0 and "watch “" not in again.stdout
