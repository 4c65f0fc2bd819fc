"""The input and output layers: every bad path, YAML document and output target is one clean error; writes are
atomic, never overwrite without force, and never touch the library's folders."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from conftest import GOOD, PATH_ERRORS, billion_laughs
from taskverse.errors import TaskverseError
from taskverse.fileio import (
    check_output,
    output_folder,
    read_line,
    read_text,
    write_text,
)
from taskverse.paths import project_root
from taskverse.yamlio import MAX_DEPTH, MAX_NODES, parse_yaml

ROOT = project_root()




# -- reading ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", sorted(PATH_ERRORS))
def test_every_bad_path_is_a_clean_error(bad_paths, kind):
    with pytest.raises(TaskverseError, match=PATH_ERRORS[kind]) as info:
        read_text(bad_paths[kind])
    assert str(bad_paths[kind]) in str(info.value)


def test_not_utf8_names_the_line(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_bytes(b"a: 1\nb: 2\nc: caf\xe9\n")
    with pytest.raises(TaskverseError) as info:
        read_text(path)
    assert info.value.line == 3 and "0xE9" in info.value.message


def test_too_large_is_refused_without_reading_it(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_text("a: 1\n" * 1000)
    with pytest.raises(TaskverseError, match="too large"):
        read_text(path, limit=100)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_unreadable_file(tmp_path):
    path = tmp_path / "secret.yaml"
    path.write_text(GOOD)
    path.chmod(0)
    with pytest.raises(TaskverseError, match="permission denied"):
        read_text(path)


def test_a_long_input_line_is_skipped_in_bounded_memory():
    import io

    stream = io.BytesIO(b"x" * 1_000_000 + b"\n" + b"craft stick\n")
    with pytest.raises(TaskverseError, match="longer than 4096"):
        read_line(stream)
    assert read_line(stream) == "craft stick\n"
    assert read_line(stream) is None
    assert read_line(io.BytesIO(b"caf\xe9\n")) == "caf\ufffd\n"


# -- YAML -------------------------------------------------------------------------------------------------------

def test_duplicate_keys_are_rejected_with_both_lines():
    with pytest.raises(TaskverseError) as info:
        parse_yaml("id: a\ncategory: mining\nverb: mine\ncategory: combat\n", "t.yaml")
    assert info.value.line == 4 and "duplicate key 'category' (first on line 2)" in info.value.message


def test_merge_keys_still_work():
    assert parse_yaml("base: &b {x: 1, y: 2}\nuse: {<<: *b, x: 3}\n")["use"] == {"x": 3, "y": 2}


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 500, 50_000])
def test_deep_nesting_is_a_clean_error_not_a_crash(depth):
    with pytest.raises(TaskverseError, match=f"nested more than {MAX_DEPTH} levels"):
        parse_yaml("a: " + "[" * depth + "]" * depth)
    assert parse_yaml("[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1)) is not None


def test_alias_expansion_is_bounded():
    text = billion_laughs()
    assert len(text) < 2000
    with pytest.raises(TaskverseError, match=f"more than {MAX_NODES:,} values"):
        parse_yaml(text)
    with pytest.raises(TaskverseError, match="refers to a value that contains it"):
        parse_yaml("a: &a [1, *a]\n")
    assert parse_yaml("a: &a [1, 2]\nb: [*a, *a]\n") == {"a": [1, 2], "b": [[1, 2], [1, 2]]}


def test_yaml_messages_are_one_line():
    for text in ("a: \x00\n", "a: 1\n---\nb: 2\n", "a: &x 1\nb: &x 2\n", "a: [1\n"):
        with pytest.raises(TaskverseError) as info:
            parse_yaml(text, "t.yaml")
        assert "\n" not in str(info.value) and str(info.value).startswith("t.yaml")



def _typed(value):
    """``value`` with every scalar's type beside it (``True == 1``; the fast path must keep booleans)."""
    if isinstance(value, dict):
        return [("dict", _typed(k), _typed(v)) for k, v in value.items()]
    if isinstance(value, list):
        return ["list", *map(_typed, value)]
    return (type(value).__name__, repr(value))


PLAIN_CASES = ["a", "1", "~", "'': 1", "? \n: x", "[?]", "- ? a\n", "--- a\n...\n", "%YAML 1.1\n--- {a: b}",
               "a: [1, 2.5, true, null, '3', yes, 0x1f, .nan, -.inf, 1e3, 0o17, +12_000]\n", "{1: a, '1': b}",
               "a: |\n  text\n  more\n", "a:\n  - b\n  -\n  - c", "\ufeffa: 1",
               "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1)]
CHECKED_CASES = ["", "{.nan: 1, .NaN: 2}", "{1: a, 01: b}", "{1: a, 1.0: b}", "{true: 1, True: 2}", "a: !!str 1",
                 "a: 2001-12-14", "base: &b {x: 1}\nuse: {<<: *b, y: 2}\n", "[" * MAX_DEPTH + "1" + "]" * MAX_DEPTH]


@pytest.mark.parametrize("text", PLAIN_CASES + CHECKED_CASES)
def test_the_fast_path_reads_what_the_checking_loader_reads(text):
    import yaml

    from taskverse.yaml_plain import NOT_PLAIN, plain_data
    from taskverse.yamlio import Loader

    fast = plain_data(text, MAX_DEPTH, MAX_NODES)
    assert (fast is NOT_PLAIN) == (text in CHECKED_CASES)
    try:
        checked = _typed(yaml.load(text, Loader=Loader))  # noqa: S506 - the safe loader with limits
    except yaml.YAMLError:
        assert fast is NOT_PLAIN
        return
    if fast is not NOT_PLAIN:
        assert _typed(fast) == checked
    assert _typed(parse_yaml(text)) == checked


def test_the_fast_path_reads_every_shipped_yaml_file_as_the_checking_loader_does():
    import yaml

    from taskverse.yaml_plain import NOT_PLAIN, plain_data
    from taskverse.yamlio import Loader

    files = sorted(project_root().glob("atoms/**/*.yaml"))
    assert len(files) > 50
    for path in files:
        text = path.read_text(encoding="utf-8")
        fast = plain_data(text, MAX_DEPTH, MAX_NODES)
        assert fast is not NOT_PLAIN, path
        assert _typed(fast) == _typed(yaml.load(text, Loader=Loader)), path  # noqa: S506 - as above


def test_the_fast_path_leaves_a_broken_limit_to_the_checking_loader():
    from taskverse.yaml_plain import NOT_PLAIN, plain_data

    assert plain_data("[1, 2, 3]", MAX_DEPTH, 4) == [1, 2, 3]
    assert plain_data("[1, 2, 3]", MAX_DEPTH, 3) is NOT_PLAIN  # four values
    assert plain_data("{a: 1, a: 2}", MAX_DEPTH, MAX_NODES) is NOT_PLAIN
    assert plain_data("a: [1\n", MAX_DEPTH, MAX_NODES) is NOT_PLAIN
    assert plain_data("a: 1\n---\nb: 2\n", MAX_DEPTH, MAX_NODES) is NOT_PLAIN

# -- writing ----------------------------------------------------------------------------------------------------

def test_no_overwrite_without_force(tmp_path):
    path = tmp_path / "out.yaml"
    write_text(path, "first\n")
    with pytest.raises(TaskverseError, match="already exists; add --force"):
        write_text(path, "second\n")
    assert path.read_text() == "first\n"
    write_text(path, "first\n")  # the same content again is not an overwrite
    write_text(path, "second\n", force=True)
    assert path.read_text() == "second\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.yaml"]  # no temporary files left


@pytest.mark.parametrize("target, needle", [("/dev/full", "is a device"), ("folder", "is a folder"),
                                            ("afile/x.yaml", "is a file, not a folder")])
def test_bad_output_targets(tmp_path, target, needle):
    (tmp_path / "folder").mkdir()
    (tmp_path / "afile").write_text("x")
    path = Path(target) if target.startswith("/") else tmp_path / target
    with pytest.raises(TaskverseError, match=needle):
        write_text(path, "data", force=True)


@pytest.mark.parametrize("folder", ["atoms", "benchmarks", "calibration", "engine"])
def test_the_library_folders_are_refused(folder):
    target = ROOT / folder / "new-file.yaml"
    with pytest.raises(TaskverseError, match=f"library's own folder {folder}/"):
        check_output(target, force=True)
    assert not target.exists()
    check_output(target, maintains=ROOT / folder)  # the command that maintains it may


def test_concurrent_writers_each_rename_a_whole_file(tmp_path):
    """Unique temporary names: writers racing on one path never lose a rename or leave a half file."""
    path = tmp_path / "table.json"
    texts = [json.dumps({"writer": i, "pad": "x" * 100_000}) for i in range(8)]
    failures: list[BaseException] = []

    def write(text: str) -> None:
        try:
            for _ in range(5):
                write_text(path, text, force=True)
        except BaseException as exc:  # noqa: BLE001 - collected and asserted below
            failures.append(exc)

    threads = [threading.Thread(target=write, args=(t,)) for t in texts]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert path.read_text() in texts
    assert [p.name for p in tmp_path.iterdir()] == ["table.json"]


def test_save_table_and_write_suite_use_the_output_layer(tmp_path):
    from taskverse.difficulty.calibration import CalibrationTable, save_table
    from taskverse.schema import DIFFICULTY_DIMENSIONS

    table = CalibrationTable({d: [0.0, 1, 2, 3, 4, 5] for d in DIFFICULTY_DIMENSIONS}, {})
    path = save_table(table, tmp_path / "q.json")
    with pytest.raises(TaskverseError, match="already exists"):
        save_table(CalibrationTable({d: [0.0, 1, 2, 3, 4, 6] for d in DIFFICULTY_DIMENSIONS}, {}), path)
    threads = [threading.Thread(target=save_table, args=(table, path, True)) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert json.loads(path.read_text())["quantiles"]["novelty"] == [0.0, 1, 2, 3, 4, 5]


def test_an_output_folder_is_replaced_only_with_force_and_its_marker(tmp_path):
    out = tmp_path / "env"
    with output_folder(out) as tmp:
        (tmp / "marker.json").write_text("{}")
    with pytest.raises(TaskverseError, match="add --force"):
        with output_folder(out, marker="marker.json"):
            pass
    with output_folder(out, force=True, marker="marker.json") as tmp:
        (tmp / "marker.json").write_text("{}")
        (tmp / "new.txt").write_text("new")
    assert sorted(p.name for p in out.iterdir()) == ["marker.json", "new.txt"]
    other = tmp_path / "mine"
    other.mkdir()
    (other / "notes.txt").write_text("keep me")
    with pytest.raises(TaskverseError, match="not an earlier output"):
        with output_folder(other, force=True, marker="marker.json"):
            pass
    assert (other / "notes.txt").read_text() == "keep me"
    with pytest.raises(RuntimeError), output_folder(tmp_path / "failed") as tmp:
        (tmp / "half.txt").write_text("half")
        raise RuntimeError("interrupted")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["env", "mine"]  # nothing half-written is left
