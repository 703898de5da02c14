"""rewardbox.ray on a local Ray cluster the test starts: batches spread over actors, order kept,
and a batch re-run on another actor when its actor is killed mid-batch."""

import threading
import time

import pytest

ray = pytest.importorskip("ray")

import rewardbox  # noqa: E402
from rewardbox.ray import RayScorer  # noqa: E402

# About 30 ms of sandboxed Python per completion: batches take long enough to kill one mid-way.
SLOW = "def verify(task, completion):\n    x = 0\n    for i in range(150000):\n        x += i\n    return 1.0 if completion == task['want'] else 0.0\n"


@pytest.fixture(scope="module")
def cluster():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    yield
    ray.shutdown()


def tasks(n):
    return [{"id": "t%d" % i, "verifier": "python", "verifier_code": SLOW, "want": str(i % 3),
             "completions": [str(i % 3), "x"]} for i in range(n)]


def test_scores_in_order_across_actors(cluster, cache_dir):
    with RayScorer(actors=2, batch_size=4, cache_dir=cache_dir) as pool:
        results = pool.score(tasks(24))
        assert [r["id"] for r in results] == ["t%d" % i for i in range(24)]
        assert all([c["score"] for c in r["results"]] == [1.0, 0.0] for r in results)
        local = rewardbox.Scorer(threads=1, cache_dir=cache_dir).score(tasks(3))
        assert [c["score"] for r in results[:3] for c in r["results"]] == [c["score"] for r in local for c in r["results"]]
        with pytest.raises(ValueError, match="verifier"):
            pool.score([{"id": "bad", "completions": ["x"]}])


def test_an_actor_killed_mid_batch_loses_nothing(cluster, cache_dir):
    with RayScorer(actors=2, batch_size=6, cache_dir=cache_dir) as pool:
        pool.score(tasks(2))  # actors up, components compiled
        killed = []

        def kill_soon():
            time.sleep(0.5)
            victim = pool.actors[0]
            ray.kill(victim)
            killed.append(victim)

        killer = threading.Thread(target=kill_soon)
        killer.start()
        results = pool.score(tasks(60))
        killer.join()
        assert killed, "the actor was killed during the batch"
        assert len(results) == 60
        assert [r["id"] for r in results] == ["t%d" % i for i in range(60)]
        assert all(r["results"][0]["score"] == 1.0 for r in results)
        assert pool.actors[0] is not killed[0], "a fresh actor took the dead one's place"


def test_a_group_without_a_solution_is_judged_whole(cluster, cache_dir):
    # The verifier raises on "four": beside the completions it judges, that is the completion's
    # doing (0, not masked), wherever the pieces of batch_size would have cut the group.
    task = {"id": "g", "verifier": "python",
            "verifier_code": "def verify(task, completion):\n    return int(completion) == 4\n"}
    # Pieces of 4 would leave "four" alone in the third.
    completions = [str(i) for i in range(8)] + ["four"]
    with RayScorer(actors=2, batch_size=4, cache_dir=cache_dir) as pool:
        results = pool.score_group(task, completions)
        assert len(results) == 9
        assert [r["score"] for r in results] == [float(i == 4) for i in range(9)]
        assert results[8]["status"] == "ok" and not results[8].get("mask"), results[8]
        split = pool.score_group(dict(task, solution="4"), completions)
        assert [r["status"] for r in split] == [r["status"] for r in results]
