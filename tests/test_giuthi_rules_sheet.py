"""The Giuthi rules sheet: diagrams of real positions, read back from the PDF and replayed."""

from __future__ import annotations

import dataclasses
import json

import pypdf
import pytest
from click.testing import CliRunner

from printables.check.dispatch import check_file
from printables.cli import main
from printables.layout.giuthi_rules import EXAMPLE_KEYS, find_examples, rules_document
from printables.layout.primitives import Page, Text
from printables.render.pdf import render_pdf
from printables.rules import giuthi as rules
from conftest import assert_one_line_error


def _write(tmp_path, document, name="rules.pdf"):
    path = tmp_path / name
    path.write_bytes(render_pdf(document))
    return path


def _failures(path) -> dict:
    return {r.name: r.detail for r in check_file(path) if not r.ok}


@pytest.mark.parametrize("pits, seeds, paper", [(6, 4, "a4"), (6, 4, "letter"), (8, 5, "a4"), (10, 9, "letter")])
def test_sheet_builds_and_every_diagram_replays(tmp_path, pits, seeds, paper):
    path = _write(tmp_path, rules_document(pits, seeds, paper))
    results = check_file(path)
    assert all(r.ok for r in results), [str(r) for r in results if not r.ok]
    names = [r.name for r in results]
    assert [n for n in names if n.startswith("diagram ")] == [f"diagram {i} ({k})" for i, k in enumerate(EXAMPLE_KEYS, 1)]
    size = {"a4": "210x297", "letter": "215.9x279.4"}[paper]
    assert any(r.name == "page size" and size in r.detail for r in results)


def test_examples_are_found_deterministically_and_show_their_rule():
    examples = find_examples(6, 4)
    assert [e.key for e in examples] == list(EXAMPLE_KEYS)
    assert rules_document(6, 4) == rules_document(6, 4)
    by_key = {e.key: e for e in examples}
    # Independently of the check: replay the relay example and look at its laps.
    relay = by_key["relay"]
    before = relay.boards[0]
    trace = rules.apply_traced(rules.State(before.pits, before.stores, rules.SOUTH), relay.move)
    assert trace.laps[0].result is rules.LapEnd.RELAY
    assert relay.boards[-1].pits == trace.state.pits
    chain = by_key["capture chain"]
    last = rules.apply_traced(rules.State(chain.boards[0].pits, chain.boards[0].stores, rules.SOUTH), chain.move).laps[-1]
    assert last.result is rules.LapEnd.CAPTURE and len(last.captured) >= 2


def test_same_inputs_give_the_same_bytes():
    assert render_pdf(rules_document(6, 4, "a4")) == render_pdf(rules_document(6, 4, "a4"))


def test_a_diagram_with_a_seed_moved_fails_its_replay(tmp_path):
    examples = list(find_examples(6, 4))
    i = next(k for k, e in enumerate(examples) if e.key == "relay")
    end = examples[i].boards[-1]
    pits = list(end.pits)
    a = next(p for p in range(12) if pits[p] > 0)
    b = next(p for p in range(12) if pits[p] != pits[a] - 1 and p != a)
    pits[a] -= 1
    pits[b] += 1  # same number of seeds: only the replay can tell
    boards = examples[i].boards[:-1] + (dataclasses.replace(end, pits=tuple(pits)),)
    examples[i] = dataclasses.replace(examples[i], boards=boards)
    failures = _failures(_write(tmp_path, rules_document(6, 4, examples=tuple(examples))))
    assert list(failures) == ["diagram 3 (relay)"]
    assert "board 3 reads" in failures["diagram 3 (relay)"] and "but pit 0 anticlockwise gives" in failures["diagram 3 (relay)"]


def test_a_count_edited_in_the_pdf_content_fails(tmp_path):
    path = _write(tmp_path, rules_document(6, 4))
    writer = pypdf.PdfWriter(clone_from=pypdf.PdfReader(str(path)))
    page = writer.pages[0]
    data = page.get_contents().get_data()
    assert b"(4) Tj" in data
    edited = pypdf.generic.DecodedStreamObject()
    edited.set_data(data.replace(b"(4) Tj", b"(5) Tj", 1))  # one pit of the starting board
    page.replace_contents(edited)
    tampered = tmp_path / "tampered.pdf"
    with open(tampered, "wb") as out:
        writer.write(out)
    failures = _failures(tampered)
    assert list(failures) == ["diagram 1 (set-up)"], failures
    assert "49 seeds, not 48" in failures["diagram 1 (set-up)"]


def test_wrong_offers_or_score_fail(tmp_path):
    examples = list(find_examples(6, 4))
    k5 = EXAMPLE_KEYS.index("rule 5b")
    offered, not_offered = examples[k5].notes
    assert offered == "Now South may choose: pit 3 anticlockwise, pit 5 anticlockwise, pit 5 clockwise."
    assert not_offered == "Not offered: pit 3 clockwise, which would bring back the board from the start of the turn."
    # the two lists swapped: the sowing left out by rule 5b said to be offered, and the other way round
    examples[k5] = dataclasses.replace(examples[k5], notes=(
        "Now South may choose: pit 3 clockwise.",
        "Not offered: pit 3 anticlockwise, pit 5 anticlockwise, pit 5 clockwise, which would bring back the board"
        " from the start of the turn."))
    kend = EXAMPLE_KEYS.index("the end")
    why, score = examples[kend].notes
    examples[kend] = dataclasses.replace(examples[kend], notes=(why, score.replace("South wins", "North wins")))
    failures = _failures(_write(tmp_path, rules_document(6, 4, examples=tuple(examples))))
    assert set(failures) == {"diagram 5 (rule 5b)", "diagram 7 (the end)"}, failures
    assert "the rule core offers" in failures["diagram 5 (rule 5b)"]
    assert "the rule core counts" in failures["diagram 7 (the end)"]


def test_a_missing_diagram_fails(tmp_path):
    examples = tuple(e for e in find_examples(6, 4) if e.key != "capture chain")
    with pytest.raises(KeyError):
        rules_document(6, 4, examples=examples)  # the layout needs every rule's example
    document = rules_document(6, 4)
    # Drop the capture chain's caption: its boards then count as the diagram above's.
    pages = tuple(Page(p.width, p.height, tuple(i for i in p.items
                                                if not (isinstance(i, Text) and "(capture chain)" in i.text)))
                  for p in document.pages)
    failures = _failures(_write(tmp_path, dataclasses.replace(document, pages=pages)))
    assert "diagrams" in failures and "expected one each" in failures["diagrams"]


def test_small_text_and_marks_near_the_edge_fail(tmp_path):
    document = rules_document(6, 4)
    first = document.pages[0]
    page = Page(first.width, first.height, first.items + (Text(3.0, 150.0, "tiny", 6.0),))
    failures = _failures(_write(tmp_path, dataclasses.replace(document, pages=(page,) + document.pages[1:])))
    assert "6.00 pt" in failures["text size"]
    assert "from the edge" in failures["margins"]


def test_cli_writes_the_rules_sheet(tmp_path):
    out = tmp_path / "rules.pdf"
    result = CliRunner().invoke(main, ["giuthi", "--rules", "--paper", "letter", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == str(out)
    assert json.loads(pypdf.PdfReader(str(out)).metadata["/Subject"]) == {"paper": "letter", "pits_per_row": 6, "seeds_per_pit": 4, "lang": "en"}
    assert all(r.ok for r in check_file(out))


def test_cli_rules_refuses_a_non_pdf_output(tmp_path):
    assert_one_line_error(CliRunner().invoke(main, ["giuthi", "--rules", "-o", str(tmp_path / "rules.txt")]), "ending in .pdf")
    assert not (tmp_path / "rules.txt").exists()


@pytest.mark.slow
def test_every_board_the_rule_core_allows_has_every_example():
    for pits in range(rules.MIN_PITS_PER_ROW, rules.MAX_PITS_PER_ROW + 1):
        for seeds in range(rules.MIN_SEEDS_PER_PIT, rules.MAX_SEEDS_PER_PIT + 1):
            assert [e.key for e in find_examples(pits, seeds)] == list(EXAMPLE_KEYS), (pits, seeds)


@pytest.mark.parametrize("pits, seeds, paper", [(6, 4, "a4"), (8, 4, "a4"), (8, 4, "letter"), (10, 4, "letter")])
def test_no_paragraph_is_split_across_pages(tmp_path, pits, seeds, paper):
    from printables.layout.giuthi_rules import sections

    path = _write(tmp_path, rules_document(pits, seeds, paper))
    pages = [" ".join(page.extract_text().split()) for page in pypdf.PdfReader(path).pages]
    for _, paragraphs, _ in sections(pits, seeds):
        for paragraph in paragraphs:
            text = " ".join(paragraph.split())
            assert sum(text in page for page in pages) == 1, text[:60]


def test_the_end_diagram_says_why_the_game_ended():
    from printables.layout.giuthi_rules import end_note

    for pits, seeds in ((6, 4), (8, 4), (10, 9)):
        end_example = find_examples(pits, seeds)[-1]
        start = end_example.boards[0]
        end = rules.apply_traced(rules.State(start.pits, start.stores, end_example.player), end_example.move).state
        assert end_example.notes[0] == end_note(end) and end_example.notes[0].startswith("The game is over: ")
    # Drawn boards, each end the sheet shows on its own (ASCII: South's row first, then North's).
    #   no pit holds 2:  South 1 0 0 0 0 1 | North 1 1 0 0 0 0
    quiet = rules.State((1, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0), (20, 24), rules.SOUTH)
    assert end_note(quiet) == ("The game is over: no pit on either side holds 2 or more seeds,"
                               " so neither player can move.")
    #   North's row empty: South 3 0 2 0 0 1 | North 0 0 0 0 0 0
    bare = rules.State((3, 0, 2, 0, 0, 1, 0, 0, 0, 0, 0, 0), (20, 22), rules.SOUTH)
    assert end_note(bare) == "The game is over: North's pits are all empty."
    with pytest.raises(ValueError):
        end_note(rules.initial_state(6, 4))
