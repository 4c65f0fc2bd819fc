"""Train a masked policy on SkillForge-Chain targets with plain NumPy policy gradient (REINFORCE with a baseline).

The batched environment (``gymnasium.make_vec("taskverse/SkillForgeTextChain-v0", num_envs=N)``) steps N
episodes per call; the policy sees each copy's target and what it holds, scores every action with a small
two-layer network, and samples only among the candidates (``obs["action_mask"]``): masked actions get no
probability, so no step is wasted. The environment's reward is 1 when the target is done; from an empty
inventory that is rare for a random policy, so training adds a small bonus (``--novelty``) for each resource held
or found for the first time in an episode. The success rate printed is the environment's alone.

Run: ``python examples/training/masked_policy_gradient.py --steps 20000``. Prints the success rate and the
episode length of each stretch of training; ``--tasks`` takes a comma-separated list of targets instead of every
reachable craft atom (``"craft oak_planks,craft stick"`` learns within a few thousand steps).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

# The matrices are small: BLAS threads only add overhead (and fight other work for the cores).
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402

import taskverse.textenv.env  # noqa: E402, F401  (registers the environments)


class MaskedPolicy:
    """logits = relu(x W1) W2 + b over every action, with non-candidates masked out; x = [target, held > 0]."""

    def __init__(self, n_in: int, n_actions: int, hidden: int, rng: np.random.Generator) -> None:
        self.w1 = rng.normal(0, 1 / np.sqrt(n_in), (n_in, hidden))
        self.w2 = rng.normal(0, 1 / np.sqrt(hidden), (hidden, n_actions)) * 0.1
        self.b = np.zeros(n_actions)

    def probabilities(self, x: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The masked action distribution per row, and the hidden layer (for the gradient)."""
        hidden = np.maximum(x @ self.w1, 0.0)
        logits = hidden @ self.w2 + self.b
        logits = np.where(mask, logits, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.where(mask, np.exp(np.maximum(logits, -60.0)), 0.0)  # no subnormal floats: they are slow
        return p / p.sum(axis=1, keepdims=True), hidden

    def update(self, x: np.ndarray, hidden: np.ndarray, p: np.ndarray, actions: np.ndarray, advantage: np.ndarray,
               lr: float) -> None:
        """One ascent step on sum(advantage * log p(action)), the masked softmax's gradient."""
        grad = -p * advantage[:, None]
        grad[np.arange(len(actions)), actions] += advantage
        grad /= len(actions)
        d_hidden = (grad @ self.w2.T) * (hidden > 0)
        self.w2 += lr * hidden.T @ grad
        self.b += lr * grad.sum(axis=0)
        self.w1 += lr * x.T @ d_hidden


def features(obs: dict[str, Any]) -> np.ndarray:
    """The policy's input: the target's atoms and which resources are held or found."""
    return np.concatenate([obs["target"], obs["inventory"] > 0], axis=1).astype(np.float64)


def train(steps: int = 20_000, num_envs: int = 16, horizon: int = 32, max_steps: int = 50, hidden: int = 32,
          lr: float = 0.5, gamma: float = 0.98, tasks: str | list[str] = "naive-craft", seed: int = 0,
          report_every: int = 5_000, novelty: float = 0.05) -> list[dict[str, float]]:
    """Train for ``steps`` environment steps in total; returns one record per reporting stretch."""
    envs = gymnasium.make_vec("taskverse/SkillForgeTextChain-v0", num_envs=num_envs, tasks=tasks,
                              max_steps=max_steps)
    rng = np.random.default_rng(seed)
    obs, _ = envs.reset(seed=seed)
    x = features(obs)
    policy = MaskedPolicy(x.shape[1], obs["action_mask"].shape[1], hidden, rng)
    records: list[dict[str, float]] = []
    successes = episodes = length_total = invalid = 0
    lengths = np.zeros(num_envs, dtype=np.int64)
    known = (obs["inventory"] > 0).sum(axis=1)
    done_steps = 0
    while done_steps < steps:
        batch: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
        rewards, alive = [], []
        for _ in range(horizon):
            mask = obs["action_mask"].astype(bool)
            p, hid = policy.probabilities(x, mask)
            actions = (p.cumsum(axis=1) > rng.random((num_envs, 1))).argmax(axis=1)
            obs, reward, terminated, truncated, info = envs.step(actions)
            invalid += int(info["invalid_action"].sum())
            ended = terminated | truncated
            now = (obs["inventory"] > 0).sum(axis=1)
            bonus = novelty * np.maximum(now - known, 0) * (lengths >= 0)  # not across an autoreset
            known = now
            batch.append((x, hid, p, actions, ended))
            rewards.append(reward + bonus)
            alive.append(~ended)
            lengths += 1
            successes += int(terminated.sum())
            episodes += int(ended.sum())
            length_total += int(lengths[ended].sum())
            lengths[ended] = -1  # the next step is the autoreset: it does not count
            x = features(obs)
            done_steps += num_envs
        returns = np.zeros(num_envs)
        targets = []
        for reward, keep in zip(reversed(rewards), reversed(alive), strict=True):
            returns = reward + gamma * returns * keep
            targets.append(returns)
        targets.reverse()
        flat = np.concatenate(targets)
        baseline, scale = flat.mean(), flat.std() + 1e-8
        for (xs, hid, p, actions, _), ret in zip(batch, targets, strict=True):
            policy.update(xs, hid, p, actions, (ret - baseline) / scale, lr)
        if done_steps // report_every != (done_steps - horizon * num_envs) // report_every or done_steps >= steps:
            records.append({"steps": float(done_steps), "episodes": float(episodes),
                            "success_rate": successes / max(episodes, 1),
                            "mean_length": length_total / max(episodes, 1), "invalid_actions": float(invalid)})
            successes = episodes = length_total = 0
    envs.close()
    return records


def main(argv: list[str] | None = None) -> int:
    """Train from the command line and print one line per reporting stretch."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--envs", type=int, default=16)
    parser.add_argument("--max-steps", type=int, default=50)
    parser.add_argument("--tasks", default="naive-craft", help="naive-craft, or targets separated by commas")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--report-every", type=int, default=5_000)
    parser.add_argument("--novelty", type=float, default=0.05, help="bonus per resource newly held or found")
    args = parser.parse_args(argv)
    tasks = args.tasks if args.tasks == "naive-craft" else [t.strip() for t in args.tasks.split(",")]
    for record in train(args.steps, args.envs, max_steps=args.max_steps, tasks=tasks, seed=args.seed,
                        report_every=args.report_every, novelty=args.novelty):
        print(f"steps {record['steps']:>8,.0f}  episodes {record['episodes']:>6,.0f}  success "
              f"{record['success_rate']:6.1%}  mean length {record['mean_length']:5.1f}  invalid actions "
              f"{record['invalid_actions']:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
