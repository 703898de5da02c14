"""A language model as Tier 5's policy: TRL's GRPOTrainer trains it against the verifier under audit.

    rewardbox audit tasks.jsonl --tier5 --tier5-steps 200 --tier5-group 8 \
        --policy-cmd "python examples/tier5_trl_policy.py --model Qwen/Qwen2.5-0.5B-Instruct" \
        --html report.html -o report.json

rewardbox starts this script once per task and speaks its line protocol on the script's standard input
and output (see `rewardbox audit --help` and docs/guide/tier5.md):

    -> {"type": "task", "task": {...}, "group_size": G, "steps": S}
    -> {"type": "generate", "step": k, "n": G}        <- ["completion", ...]   (G of them)
    -> {"type": "rewards", "step": k, "rewards": [...], "advantages": [...]}
    -> {"type": "done"}

TRL runs the loop: it generates G completions of the task's prompt per step, and calls its reward
function with them. The reward function below hands them to rewardbox (the answer to "generate") and
returns rewardbox's rewards (scored through exactly the path of `rewardbox score`), so the trainer
optimises the very verifier under audit. A masked reward (the host failed to score) is None, which
TRL leaves out of the group's statistics. rewardbox's judge, which the model never sees, then decides
whether what the model converged to is a solution or an exploit.

Needs a GPU and `pip install trl transformers datasets torch`; not run in CI.
"""

import argparse
import json
import sys


class Rewardbox:
    """The protocol's side of the script: rewardbox writes to our stdin, reads our stdout. Anything
    else the script prints must go to stderr."""

    def __init__(self, inp, out):
        self.inp = inp
        self.out = out
        self.finished = False

    def read(self):
        line = self.inp.readline()
        if not line:
            self.finished = True
            return {"type": "done"}
        return json.loads(line)

    def write(self, value):
        self.out.write(json.dumps(value) + "\n")
        self.out.flush()


def prompt_of(task):
    """The prompt the model sees: the task's own prompt (chat messages or text)."""
    prompt = task.get("prompt")
    if isinstance(prompt, list):
        return prompt
    if isinstance(prompt, str) and prompt:
        return [{"role": "user", "content": prompt}]
    raise SystemExit("tier5_trl_policy: the task has no prompt to generate from")


def text_of(completion):
    """TRL hands conversational completions as message lists; rewardbox scores text."""
    if isinstance(completion, list):
        return "".join(m.get("content", "") for m in completion if m.get("role") == "assistant")
    return completion


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="Qwen/Qwen2.5-0.5B-Instruct")
    parser.add_argument("--learning-rate", type=float, default=1e-6)
    parser.add_argument("--beta", type=float, default=0.04, help="the KL term's weight")
    parser.add_argument("--max-completion-length", type=int, default=512)
    parser.add_argument("--output-dir", default="tier5-trl")
    args = parser.parse_args()

    # The protocol owns stdout: libraries that print (progress bars, warnings) go to stderr.
    channel = Rewardbox(sys.stdin, sys.stdout)
    sys.stdout = sys.stderr

    from datasets import Dataset
    from trl import GRPOConfig, GRPOTrainer

    hello = channel.read()
    if hello.get("type") != "task":
        raise SystemExit(f"tier5_trl_policy: expected the task first, got {hello!r}")
    task, group, steps = hello["task"], int(hello["group_size"]), int(hello["steps"])

    def rewardbox_reward(prompts, completions, **_):
        if channel.finished:
            return [None] * len(completions)
        asked = channel.read()
        if asked.get("type") == "done":
            channel.finished = True
            return [None] * len(completions)
        texts = [text_of(c) for c in completions]
        n = int(asked["n"])
        # rewardbox asks for exactly one group; TRL's batch is one group of the single prompt.
        channel.write((texts + texts)[:n] if len(texts) < n else texts[:n])
        scored = channel.read()
        rewards = scored.get("rewards") or []
        return [rewards[i] if i < len(rewards) else None for i in range(len(completions))]

    config = GRPOConfig(
        output_dir=args.output_dir,
        learning_rate=args.learning_rate,
        beta=args.beta,
        num_generations=group,
        per_device_train_batch_size=group,
        gradient_accumulation_steps=1,
        max_steps=steps,
        max_completion_length=args.max_completion_length,
        logging_steps=1,
        save_strategy="no",
        report_to="none",
    )
    trainer = GRPOTrainer(
        model=args.model,
        reward_funcs=[rewardbox_reward],
        args=config,
        train_dataset=Dataset.from_list([{"prompt": prompt_of(task)}] * steps),
    )
    trainer.train()
    # rewardbox ends the exchange; wait for it so it reads every group.
    while not channel.finished and channel.read().get("type") != "done":
        pass


if __name__ == "__main__":
    main()
