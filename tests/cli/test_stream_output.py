"""stream.py lays a table out a chunk at a time yet prints exactly what one tabulate call over every row
prints (G-LOG-3: `encounter log` keeps one chunk, never the whole log), and writes a JSON object with a
long list item by item exactly as `json.dumps` does."""

from __future__ import annotations

import contextlib
import io
import json

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from narateer_cli import stream
from narateer_cli.render import HostKind, table
from narateer_cli.store.loglines import entry_line

from ..biglogs import PLAYS, BigLog
from ..conftest import ok, run

HEADERS = ["#", "id", "time", "actor", "what happened"]
# cells that make tabulate type a column otherwise: numbers, bools, empty, blanks, wide and combining characters
CELLS = st.one_of(
    st.sampled_from(["", "-", "42", "007", "-5", "1.50", "1e5", "inf", "nan", "True", "False", " x ", "1,000",
                     "13:05:00", "selka", "世界", "é", "e\u0301", "٣", "1_0", " "]),
    st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), max_size=12),
)
ROWS = st.lists(st.tuples(st.integers(-20, 10**6), CELLS, CELLS, CELLS, CELLS).map(list), min_size=1, max_size=25)


def at_once(rows, **kw) -> str:
    """The whole table in one tabulate call; a column tabulate itself cannot lay out (tabulate 0.9 types a column
    of "1.50" and "True" as floats, then fails on "True") is no case for chunking."""
    try:
        return table(rows, HEADERS, **kw)
    except ValueError:
        assume(False)


def chunked(rows, chunk, **kw) -> str:
    return "\n".join(stream.table_lines(lambda: iter(rows), HEADERS, chunk=chunk, **kw))


@settings(max_examples=300, deadline=None)
@given(rows=ROWS, chunk=st.integers(1, 7))
def test_a_table_laid_out_in_chunks_is_the_table_at_once(rows, chunk):
    whole = at_once(rows, disable_numparse=[1])
    assert chunked(rows, chunk, disable_numparse=[1]) == whole


@settings(max_examples=100, deadline=None)
@given(rows=ROWS, chunk=st.integers(1, 4))
def test_every_column_typed_as_tabulate_types_it(rows, chunk):
    whole = at_once(rows)
    assert chunked(rows, chunk) == whole


def test_a_numeric_actor_column_stays_right_aligned_across_chunks():
    rows = [[n, "abc1234", "13:05:00", "42" if n % 2 else "7", "rolls"] for n in range(1, 12)]
    text = chunked(rows, 3, disable_numparse=[1])
    assert text == table(rows, HEADERS, disable_numparse=[1])
    assert "     7  rolls" in text  # an int column: right-aligned under its header


def test_a_cell_on_two_lines_is_laid_out_whole():
    rows = [[1, "a", "b", "c", "one\ntwo"], [2, "a", "b", "c", "three"]]
    assert chunked(rows, 1) == table(rows, HEADERS)


def test_witnesses_grow_with_distinct_numbers_not_with_rows():
    seen = stream.Witnesses(5, [1])
    for n in range(5000):
        seen.add([n, f"{n:07x}", "13:05:00", "selka" if n % 2 else "9", f"selka rolls {n}"])
    assert len(seen.rows()) <= 3


@given(items=st.lists(st.dictionaries(st.text(max_size=3), st.one_of(st.integers(), st.text(max_size=5))),
                      max_size=5),
       head=st.dictionaries(st.sampled_from(["id", "encounter", "x"]), st.text(max_size=6)))
def test_a_json_list_written_item_by_item_is_json_dumps(items, head):
    out = io.StringIO()
    stream.json_object(out.write, head, "entries", iter(items))
    assert out.getvalue() == json.dumps({**head, "entries": items}, ensure_ascii=False) + "\n"


def _whole(kind, data, as_json, system) -> str:
    """What `render.out` prints for `data` held whole: the output the streamed commands must match."""
    from narateer_cli.render import out

    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        out(kind, data, as_json, system)
    return buffer.getvalue()


@pytest.fixture(scope="module", params=sorted(PLAYS))
def played(request, tmp_path_factory):
    """A game's example campaign with a 40-entry encounter log over several rounds, an entry whose words
    hold control characters and markup, and a campaign log."""
    big = BigLog(tmp_path_factory.mktemp(request.param) / "camp", request.param)
    path = big.grow(40)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    odd = json.loads(lines[7][2:])
    odd["result"] = {**(odd.get("result") or {}), "intent": "x\x1b[31m|<b>*_`\u202e"}  # an actor is an id
    lines[7] = entry_line(odd)
    path.write_text("".join(lines), encoding="utf-8")
    ok(big.root, "encounter", "end")
    ok(big.root, "new", "zed")  # in the campaign log
    return big.root


@pytest.mark.parametrize("args", [[], ["--format", "html"], ["--all"], ["--all", "--format", "html"], ["fight"]])
@pytest.mark.parametrize("as_json", [False, True])
def test_report_streamed_prints_what_the_whole_report_prints(played, args, as_json):
    from narateer_cli import report
    from narateer_cli.store import encounters
    from narateer_cli.store.campaign import Campaign

    campaign = Campaign(played)
    every = "--all" in args
    ids = encounters.own_logs(played, campaign.system) if every else ["fight" if "fight" in args else "campaign"]
    logs = {i: encounters.read_log(played, i) for i in ids}
    logs = dict(sorted(logs.items(), key=lambda kv: str(kv[1][0].get("at") if kv[1] else "~")))
    fmt = "html" if "html" in args else "markdown"
    data = {"format": fmt, "encounters": [report.sections(i, e, campaign.system, campaign.rules) for i, e in logs.items()]}
    got = run(played, *(["--json"] if as_json else []), "report", *args)
    assert got.code == 0, got.err
    assert got.out == _whole(HostKind.report, data, as_json, campaign.system)


@pytest.mark.parametrize("args", [[], ["--actor", "bandit"], ["--since", "12"], ["--last", "7"], ["--last", "0"],
                                  ["--actor", "nobody"], ["--last", "5", "--since", "3"], ["campaign"]])
@pytest.mark.parametrize("as_json", [False, True])
def test_encounter_log_streamed_prints_what_the_whole_log_prints(played, args, as_json):
    from narateer_cli.commands.encounters import log_filter
    from narateer_cli.store import encounters
    from narateer_cli.store.campaign import Campaign

    log_id = "campaign" if "campaign" in args else "fight"
    actors = [args[i + 1] for i, a in enumerate(args) if a == "--actor"]
    since = next((args[i + 1] for i, a in enumerate(args) if a == "--since"), None)
    last = next((int(args[i + 1]) for i, a in enumerate(args) if a == "--last"), None)
    keep = log_filter(actors, since)
    entries = [e for e in encounters.read_log(played, log_id) if keep(e)]
    if last is not None:
        entries = entries[len(entries) - last:] if last else []
    where = [] if log_id == "campaign" else ["fight"]
    got = run(played, *(["--json"] if as_json else []), "encounter", "log", *where, *[a for a in args if a != "campaign"])
    assert got.code == 0, got.err
    assert got.out == _whole(HostKind.encounter_log, {"id": log_id, "entries": entries}, as_json, Campaign(played).system)


@given(entry=st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=6)),
                          lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                  st.dictionaries(st.text(max_size=4), inner, max_size=3)),
                          max_leaves=12))
def test_an_entry_is_shown_as_shown_shows_it(entry):
    from narateer_cli.render import shown, shown_entry

    assert shown_entry({"layout": entry, "x": entry}) == shown({"layout": entry, "x": entry})
