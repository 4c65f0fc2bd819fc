"""The training example runs on a tiny budget: a masked policy that never wastes a step on a non-candidate."""

import importlib.util
from pathlib import Path

import numpy as np

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "training" / "masked_policy_gradient.py"


def load_example():
    spec = importlib.util.spec_from_file_location("masked_policy_gradient", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_masked_policy_gradient_trains_on_chain_targets(capsys):
    example = load_example()
    records = example.train(steps=384, num_envs=4, horizon=8, max_steps=12, report_every=128, seed=1)
    assert len(records) == 3 and records[-1]["steps"] >= 384
    assert sum(r["episodes"] for r in records) >= 384 // 13 - 4  # 96 steps a copy: its 12-step episodes, and resets
    assert records[-1]["invalid_actions"] == 0  # the mask is honoured: no step wasted
    assert example.main(["--steps", "64", "--envs", "2", "--max-steps", "8", "--report-every", "64",
                         "--tasks", "craft stick,craft oak_planks"]) == 0
    assert "success" in capsys.readouterr().out


def test_the_policy_gives_non_candidates_nothing_and_learns_from_rewards():
    example = load_example()
    rng = np.random.default_rng(0)
    policy = example.MaskedPolicy(6, 5, 4, rng)
    x = rng.random((3, 6))
    mask = np.array([[1, 0, 1, 0, 0], [0, 0, 0, 0, 1], [1, 1, 1, 1, 1]], dtype=bool)
    p, hidden = policy.probabilities(x, mask)
    assert np.allclose(p.sum(axis=1), 1) and (p[~mask] == 0).all() and p[1, 4] == 1
    before = p[2, 3]
    for _ in range(20):  # rewarding action 3 makes it likelier
        p, hidden = policy.probabilities(x, mask)
        policy.update(x, hidden, p, np.array([0, 4, 3]), np.array([0.0, 0.0, 1.0]), lr=0.5)
    assert policy.probabilities(x, mask)[0][2, 3] > before
