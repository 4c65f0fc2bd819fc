"""Answers kept on disk: two processes filling one memo both keep theirs; a corrupt file is never trusted."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import pytest

from taskverse import paths
from taskverse.memo import DiskMemo


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(paths, "cache_dir", lambda: tmp_path)
    import taskverse.memo

    monkeypatch.setattr(taskverse.memo, "cache_dir", lambda: tmp_path)
    return tmp_path


def test_two_memos_saved_in_turn_keep_both_their_answers(cache: Path) -> None:
    first, second = DiskMemo("answers", "k"), DiskMemo("answers", "k")  # both read before either saves
    first.put("a", 1)
    second.put("b", 2)
    first.save()
    second.save()
    again = DiskMemo("answers", "k")
    assert (again.get("a"), again.get("b")) == (1, 2)
    second.put("c", 3)  # saving again after its own save: nothing to merge, nothing lost
    second.save()
    assert DiskMemo("answers", "k").entries == {"a": 1, "b": 2, "c": 3}


def test_an_answer_given_again_keeps_the_later_one(cache: Path) -> None:
    first, second = DiskMemo("answers", "k"), DiskMemo("answers", "k")
    first.put("a", "first")
    first.save()
    second.put("a", "second")
    second.save()
    assert DiskMemo("answers", "k").get("a") == "second"


def _fill(folder: str, start: int) -> None:
    import taskverse.memo

    taskverse.memo.cache_dir = lambda: Path(folder)  # type: ignore[assignment]
    for i in range(start, start + 20):
        memo = DiskMemo("answers", "k")
        memo.put(i, i * i)
        memo.save()


def test_processes_saving_at_once_lose_no_answer(cache: Path) -> None:
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_fill, args=(str(cache), start)) for start in (0, 100, 200)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert [worker.exitcode for worker in workers] == [0, 0, 0]
    assert DiskMemo("answers", "k").entries == {i: i * i for start in (0, 100, 200) for i in range(start, start + 20)}


def test_a_corrupt_memo_is_read_as_empty_and_replaced(cache: Path) -> None:
    (cache / "answers-k.pickle").write_bytes(b"not a pickle")
    memo = DiskMemo("answers", "k")
    assert memo.entries == {}
    memo.put("a", 1)
    memo.save()
    assert DiskMemo("answers", "k").entries == {"a": 1}
