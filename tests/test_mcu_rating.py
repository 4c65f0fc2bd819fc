"""MCU's criteria files built from tasks, and ``rate-video`` against a loopback vision endpoint."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

from conftest import cli, one_clean_line
from taskverse.interop.criteria import SECTION_NAMES, criteria_for, file_name

MCU_SECTIONS = ("Task Progress", "Action Control", "Error Recognition and Correction", "Creative Attempts",
                "Task Completion Efficiency", "Material Selection and Usage")


def _sections(text: str) -> dict[str, list[str]]:
    """A criteria file read as MCU's rater shows it to the model: bold headings, ``-`` points under each."""
    out: dict[str, list[str]] = {}
    current = None
    for line in text.splitlines():
        heading = re.fullmatch(r"\*\*([^:*]+)(?::[^*]*)?\*\*", line.strip())
        if heading:
            current = heading.group(1)
            out[current] = []
        elif line.strip():
            assert current is not None and line.startswith(" - "), line
            out[current].append(line[3:])
    return out


def test_every_skillforge_task_has_criteria_in_the_six_mcu_sections(library):
    from taskverse.benchmarks.suites import load_suite, resolve_suite_task

    tasks = [resolve_suite_task(item, library) for item in load_suite("SkillForge").tasks]
    assert len(tasks) > 100
    for task in tasks:
        sections = _sections(criteria_for(task, library).render())
        assert tuple(sections) == MCU_SECTIONS == SECTION_NAMES, task.id
        assert all(sections.values()), task.id
        assert sections["Task Progress"][-1].endswith(task.description), task.id


def test_milestones_are_the_plan_s_steps_and_materials_the_recipe_s(library):
    from taskverse.cli.app import resolve_task

    naive = _sections(criteria_for(resolve_task("naive(craft iron_sword)"), library).render())
    progress = "\n".join(naive["Task Progress"])
    # the real route from an empty inventory, in order: wood, a table, a pickaxe, stone, iron, the sword
    order = [progress.index(step) for step in ("mine oak_log", "craft crafting_table", "craft wooden_pickaxe",
                                               "mine stone", "mine iron_ore", "smelt iron_ingot",
                                               "craft iron_sword")]
    assert order == sorted(order)
    assert "mine stone (" in progress  # repeats are counted, not listed
    tools = "\n".join(naive["Material Selection and Usage"])
    assert "wooden pickaxe" in tools and "furnace" in tools
    given = _sections(criteria_for(library.get("craft.iron_sword"), library).render())
    assert given["Task Progress"][:3] == ["whether the agent has the iron ingot (2)", "whether the agent has the stick",
                                          "whether the agent has at hand the crafting table"]
    assert any("2 iron ingot" in p for p in given["Material Selection and Usage"])


def test_constraints_and_avoidance_are_errors_to_watch_for(library):
    from taskverse.cli.app import resolve_task

    night = _sections(criteria_for(resolve_task("combat zombie @ when=night"), library).render())
    assert any("'at night'" in p for p in night["Error Recognition and Correction"])
    assert any("health" in p for p in night["Error Recognition and Correction"])


def test_criteria_are_the_same_every_time(library):
    task = library.get("mine.iron_ore")
    assert criteria_for(task, library).render() == criteria_for(task, library).render()


def test_export_writes_one_file_a_task_and_never_overwrites(tmp_path):
    out = tmp_path / "criteria"
    result = cli("export", "craft.iron_sword", "combat.zombie", "--to", "mcu-criteria", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert sorted(p.name for p in out.iterdir()) == ["combat.zombie.txt", "craft.iron_sword.txt"]
    assert file_name("craft.iron_sword") == "craft.iron_sword.txt"
    (out / "craft.iron_sword.txt").write_text("edited by hand\n")
    again = cli("export", "mine.iron_ore", "craft.iron_sword", "--to", "mcu-criteria", "-o", str(out))
    one_clean_line(again, "already exists", "--force")
    assert not (out / "mine.iron_ore.txt").exists()  # nothing is written when any file would be refused
    assert (out / "craft.iron_sword.txt").read_text() == "edited by hand\n"
    forced = cli("export", "craft.iron_sword", "--to", "mcu-criteria", "-o", str(out), "--force")
    assert forced.exit_code == 0 and "**Task Progress" in (out / "craft.iron_sword.txt").read_text()
    one_clean_line(cli("export", "craft.iron_sword", "--to", "mcu-criteria", "-o", "atoms/x"), "library's own folder")


# --- rate-video -------------------------------------------------------------------------------------------------

def _png(shade: int, side: int = 4) -> bytes:
    """A square grey PNG, written by hand (no imaging library needed)."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = b"".join(b"\x00" + bytes([shade]) * side for _ in range(side))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def _frames(folder, count: int = 30):
    folder.mkdir()
    for i in range(count):  # frame_2 sorts before frame_10
        (folder / f"frame_{i}.png").write_bytes(_png(i * 8))
    return folder


def _json_rating(body) -> str:
    images = [part for part in body["messages"][-1]["content"] if part["type"] == "image_url"]
    scores = {name: {"score": 5 + i % 3, "evidence": [f"saw {len(images)} frames"]}
              for i, name in enumerate(SECTION_NAMES)}
    return "Here is my rating.\n```json\n" + json.dumps(scores) + "\n```"


def _rate(server, frames, out, *extra):
    return cli("rate-video", str(frames), "--task", "craft.iron_sword", "--model", "openai:vision-test",
               "--base-url", server.url, "-o", str(out), *extra)


def test_rate_video_sends_the_frames_and_criteria_and_writes_six_scores(tmp_path):
    from llm_server import Server

    frames = _frames(tmp_path / "frames")
    server = Server(answer=_json_rating)
    try:
        result = _rate(server, frames, tmp_path / "rating.json", "--frames", "5")
    finally:
        server.close()
    assert result.exit_code == 0, result.stderr
    rating = json.loads((tmp_path / "rating.json").read_text())
    assert list(rating["scores"]) == list(MCU_SECTIONS) and rating["complete"] and rating["read_as"] == "json"
    assert rating["scores"]["Task Progress"] == 5 and rating["evidence"]["Action Control"] == ["saw 5 frames"]
    assert rating["frames"] == {"total": 30, "sent": [f"frame_{i}.png" for i in (0, 7, 14, 22, 29)]}
    (body,) = server.bodies
    assert body["model"] == "vision-test"
    text, *images = body["messages"][-1]["content"]
    assert "craft iron_sword" in text["text"] and "**Task Progress" in text["text"]
    sent = [base64.b64decode(part["image_url"]["url"].removeprefix("data:image/png;base64,")) for part in images]
    assert sent == [_png(i * 8) for i in (0, 7, 14, 22, 29)]


def test_an_answer_in_mcu_s_own_layout_is_read_too(tmp_path):
    from llm_server import Server

    layout = "\n\n".join(f"{name}:\n- the agent did something\nScore: {i}" for i, name in enumerate(SECTION_NAMES))
    server = Server(answer=lambda body: layout)
    try:
        result = _rate(server, _frames(tmp_path / "frames", 3), tmp_path / "rating.json", "--format", "json")
    finally:
        server.close()
    assert result.exit_code == 0, result.stderr
    rating = json.loads(result.stdout)
    assert rating["read_as"] == "text" and list(rating["scores"].values()) == [0, 1, 2, 3, 4, 5]
    assert rating["evidence"]["Creative Attempts"] == ["the agent did something"]


def test_an_unusable_answer_is_reported_in_the_json_not_a_crash(tmp_path):
    from llm_server import HostileServer, Server

    frames = _frames(tmp_path / "frames", 3)
    server = Server(mode="nonsense")
    try:
        result = _rate(server, frames, tmp_path / "turtles.json")
    finally:
        server.close()
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    rating = json.loads((tmp_path / "turtles.json").read_text())
    assert not rating["complete"] and rating["answer"] == "I like turtles."
    assert "no scores found" in rating["problems"][0] and "Traceback" not in result.stderr
    half = {name: (15 if i % 2 else 7) for i, name in enumerate(SECTION_NAMES)}  # out of range: missing
    server = Server(answer=lambda body: json.dumps(half))
    try:
        _rate(server, frames, tmp_path / "half.json")
    finally:
        server.close()
    rating = json.loads((tmp_path / "half.json").read_text())
    assert rating["scores"]["Task Progress"] == 7 and rating["scores"]["Action Control"] is None
    assert "Action Control" in rating["problems"][0]
    hostile = HostileServer("not_json")
    try:
        result = _rate(hostile, frames, tmp_path / "broken.json", "--retries", "0")
    finally:
        hostile.close()
    assert result.exit_code == 1
    rating = json.loads((tmp_path / "broken.json").read_text())
    assert "not JSON" in rating["error"] and rating["answer"] is None


def test_read_scores_is_bounded_and_tolerant():
    from taskverse.interop.rating import MAX_ANSWER_CHARS, read_scores

    nested = read_scores('{"scores": {"task progress": {"score": "8/10"}, "Action-Control": 3.5}}')
    assert nested.scores["Task Progress"] == 8 and nested.scores["Action Control"] == 3.5
    assert read_scores("{" * 100_000).read_as == "nothing"
    assert read_scores('{"a":' * 50_000).read_as == "nothing"
    long = read_scores("x" * (MAX_ANSWER_CHARS + 10) + '{"Task Progress": 9}')
    assert long.scores["Task Progress"] is None and "only the first" in long.problems[0]
    assert read_scores(" " * 100_000 + ":").read_as == "nothing"


def test_bad_frames_and_videos_without_ffmpeg_are_one_clean_line(tmp_path, monkeypatch):
    import sys

    (tmp_path / "fake").mkdir()
    (tmp_path / "fake" / "frame.png").write_text("not an image")
    base = ("--task", "craft.iron_sword", "--model", "openai:m", "--base-url", "http://127.0.0.1:9/v1")
    one_clean_line(cli("rate-video", str(tmp_path / "fake"), *base), "frame.png", "not a PNG or JPEG")
    (tmp_path / "empty").mkdir()
    one_clean_line(cli("rate-video", str(tmp_path / "empty"), *base), "no .png")
    video = tmp_path / "episode.mp4"
    video.write_bytes(b"\x00\x00\x00\x18ftypmp42")
    one_clean_line(cli("rate-video", str(video), *base), "episode.mp4", "ffmpeg cannot read it")  # a real ffmpeg
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.setitem(sys.modules, "imageio_ffmpeg", None)  # neither on PATH nor from the video extra
    one_clean_line(cli("rate-video", str(video), *base), "episode.mp4", "needs ffmpeg", "taskverse[video]")
    one_clean_line(cli("rate-video", str(video), "--task", "craft.iron_sword", "--model", "gpt-4o"), "openai:MODEL")


def _encode_video(path, shades: list[int], fps: int) -> None:
    """A real video of grey frames, one shade a frame, encoded by the video extra's ffmpeg."""
    import subprocess
    import tempfile

    from taskverse.interop.frames import find_ffmpeg

    ffmpeg = find_ffmpeg()
    assert ffmpeg is not None  # make test installs the video extra's static build
    with tempfile.TemporaryDirectory() as tmp:
        frames = Path(tmp)
        for i, shade in enumerate(shades):
            (frames / f"f_{i:03d}.png").write_bytes(_png(shade, side=32))
        subprocess.run([ffmpeg, "-hide_banner", "-loglevel", "error", "-nostdin", "-framerate", str(fps), "-i",
                        str(frames / "f_%03d.png"), "-c:v", "mpeg4", "-q:v", "1", "-pix_fmt", "yuv420p", str(path)],
                       check=True)


def test_a_real_video_is_cut_by_ffmpeg_into_frames_spread_over_it(tmp_path, monkeypatch):
    """A video the test encodes (8 s, one shade a second, darkest first) is cut by the real ffmpeg."""
    import io

    from PIL import Image

    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))  # the video extra's ffmpeg, as after pip install
    video = tmp_path / "episode.mp4"
    shades = [16 + 28 * i for i in range(8)]
    _encode_video(video, shades, fps=1)
    from llm_server import Server

    server = Server(answer=_json_rating)
    try:
        result = _rate(server, video, tmp_path / "rating.json", "--frames", "4")
    finally:
        server.close()
    assert result.exit_code == 0, result.stderr
    rating = json.loads((tmp_path / "rating.json").read_text())
    assert rating["frames"]["sent"] == [f"episode.mp4@{i}" for i in range(4)]
    assert rating["evidence"]["Task Progress"] == ["saw 4 frames"]
    (body,) = server.bodies
    urls = [part["image_url"]["url"] for part in body["messages"][-1]["content"] if part["type"] == "image_url"]
    assert all(url.startswith("data:image/jpeg;base64,") for url in urls)
    seen = []
    for url in urls:
        image = Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).convert("L")
        seen.append(sum(image.tobytes()) / (image.width * image.height))
    # one frame every two seconds from the start: the first, third, fifth and seventh shades (28 apart; the codec
    # moves a shade by a little)
    for got, want in zip(seen, shades[::2], strict=True):
        assert abs(got - want) < 8, (seen, shades)


def test_an_mcu_criteria_file_can_be_given_instead(tmp_path):
    from llm_server import Server

    criteria = tmp_path / "craft_bell.txt"
    criteria.write_text("**Task Progress: key steps**\n - whether the agent crafts the bell\n")
    server = Server(answer=_json_rating)
    try:
        result = _rate(server, _frames(tmp_path / "frames", 2), tmp_path / "r.json", "--criteria", str(criteria))
    finally:
        server.close()
    assert result.exit_code == 0, result.stderr
    assert "crafts the bell" in server.bodies[0]["messages"][-1]["content"][0]["text"]
    assert json.loads((tmp_path / "r.json").read_text())["criteria"] == criteria.read_text()


def test_a_folder_of_episodes_is_rated_each_against_its_task_from_the_report(tmp_path):
    """engine eval --screenshots names folders <task index>-<episode>; a bad episode fails alone."""
    shots = tmp_path / "shots"
    shots.mkdir()
    _frames(shots / "0-1", 3)
    _frames(shots / "1-1", 4)
    _frames(shots / "10-1", 2)  # natural order: after 1-1
    (shots / "2-1").mkdir()
    (shots / "2-1" / "frame_00000.png").write_text("not an image")
    (shots / "notes.txt").write_text("not an episode")
    report = tmp_path / "engine_report.json"
    tasks = ["craft.iron_sword", "mine.oak_log", "craft.stick"] + ["hunt.cow"] * 8
    report.write_text(json.dumps({"agent": "optimal", "tasks": [{"name": t, "task": t, "episodes": []}
                                                                for t in tasks]}))
    from llm_server import Server

    server = Server(answer=_json_rating)
    try:
        result = cli("rate-video", str(shots), "--each", "--report", str(report), "--model", "openai:vision-test",
                     "--base-url", server.url, "-o", str(tmp_path / "ratings.json"))
    finally:
        server.close()
    assert result.exit_code == 1, result.stderr  # one episode could not be rated
    ratings = json.loads((tmp_path / "ratings.json").read_text())
    assert [Path(e["source"]).name for e in ratings["episodes"]] == ["0-1", "1-1", "2-1", "10-1"]
    assert [e.get("task") for e in ratings["episodes"]] == ["craft.iron_sword", "mine.oak_log", None, "hunt.cow"]
    assert "not a PNG or JPEG" in ratings["episodes"][2]["error"] and "2-1" in result.stderr
    prompts = [body["messages"][-1]["content"][0]["text"] for body in server.bodies]
    assert [p.split("\n")[0] for p in prompts] == ["Task: craft iron_sword", "Task: mine oak_log", "Task: hunt cow"]
    assert ratings["summary"] == {"episodes": 4, "complete": 3, "incomplete": 1, "overall": 6.0,
                                  "mean": {name: float(5 + i % 3) for i, name in enumerate(SECTION_NAMES)}}
    assert "3 of 4 episodes rated completely" in result.stdout


def test_rating_each_episode_of_a_folder_with_one_task_takes_videos_too(tmp_path):
    episodes = tmp_path / "episodes"
    episodes.mkdir()
    _frames(episodes / "first", 2)
    _encode_video(episodes / "second.mp4", [40, 120, 200], fps=1)
    from llm_server import Server

    server = Server(answer=_json_rating)
    try:
        result = cli("rate-video", str(episodes), "--each", "--task", "craft.iron_sword", "--model", "openai:m",
                     "--base-url", server.url, "--frames", "3", "--format", "json")
    finally:
        server.close()
    assert result.exit_code == 0, result.stderr
    rated = json.loads(result.stdout)
    assert [e["frames"]["sent"] for e in rated["episodes"]] == [
        ["frame_0.png", "frame_1.png"], ["second.mp4@0", "second.mp4@1", "second.mp4@2"]]
    assert rated["summary"]["complete"] == 2


def test_batch_rating_s_bad_arguments_are_one_clean_line(tmp_path):
    base = ("--model", "openai:m", "--base-url", "http://127.0.0.1:9/v1")
    (tmp_path / "empty").mkdir()
    one_clean_line(cli("rate-video", str(tmp_path / "empty"), "--each", "--task", "craft.stick", *base),
                   "empty", "holds no episodes")
    one_clean_line(cli("rate-video", str(tmp_path / "empty"), "--each", *base), "--task is required")
    one_clean_line(cli("rate-video", str(tmp_path / "empty"), "--report", "r.json", "--task", "craft.stick", *base),
                   "--report goes with --each")
    (tmp_path / "shots").mkdir()
    _frames(tmp_path / "shots" / "0-1", 2)
    (tmp_path / "r.json").write_text('{"tasks": "none"}')
    one_clean_line(cli("rate-video", str(tmp_path / "shots"), "--each", "--report", str(tmp_path / "r.json"),
                       *base), "r.json", "not a run report")
