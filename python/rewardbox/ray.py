"""rewardbox on Ray: when one machine is not enough, a pool of Ray actors, each a
``rewardbox.Scorer`` on its node's cores.

    import ray
    from rewardbox.ray import RayScorer

    ray.init(address="auto")                  # or nothing: a local cluster
    scorer = RayScorer(actors=8, threads_per_actor=16, fuel=10**9)
    results = scorer.score(tasks)             # same schema as Scorer.score, in order

``score`` splits the tasks into batches, spreads them over the actors, and keeps their order. When
an actor dies (its node went away, it was killed), its batches run again on another actor, and a
fresh actor takes its place: no task is lost. Install with ``pip install "rewardbox[ray]"``.
"""

try:
    import ray
except ImportError as error:  # pragma: no cover - the extra is not installed
    raise ImportError('rewardbox.ray needs Ray: pip install "rewardbox[ray]" (or ray==2.60.0)') from error

from ray.exceptions import ActorDiedError, ActorUnavailableError, RayActorError

__all__ = ["RayScorer"]


@ray.remote
class _ScorerActor:
    """One ``rewardbox.Scorer`` in a Ray actor."""

    def __init__(self, scorer_options):
        import rewardbox

        self._scorer = rewardbox.Scorer(**scorer_options)

    def score(self, tasks):
        try:
            return ("ok", self._scorer.score(tasks))
        except ValueError as error:  # an invalid task: the caller's, not the actor's, problem
            return ("invalid", str(error))

    def threads(self):
        return self._scorer.threads


_DEAD = (RayActorError, ActorDiedError, ActorUnavailableError)


class RayScorer:
    """Scores tasks on a pool of Ray actors, each a ``rewardbox.Scorer``.

    ``actors``: how many (default: one per node's worth of CPUs, at least 1);
    ``threads_per_actor``: the scorer threads (and Ray CPUs) of each; ``batch_size``: tasks per
    batch; ``max_attempts``: how often a batch may be tried before giving up; every other keyword
    (``fuel``, ``wall_ms``, ``memory_mb``, ``output_bytes``, ``cache_dir``, ``no_cache``, ``seed``)
    goes to each ``Scorer``.
    """

    def __init__(self, actors=None, *, threads_per_actor=1, batch_size=32, max_attempts=3, **scorer_options):
        if not ray.is_initialized():
            ray.init(ignore_reinit_error=True, include_dashboard=False, log_to_driver=False)
        if actors is None:
            actors = max(1, int(ray.cluster_resources().get("CPU", 1) // threads_per_actor))
        if actors < 1 or threads_per_actor < 1 or batch_size < 1 or max_attempts < 1:
            raise ValueError("actors, threads_per_actor, batch_size and max_attempts must be at least 1")
        self.batch_size = batch_size
        self.max_attempts = max_attempts
        self._options = dict(scorer_options, threads=threads_per_actor)
        self._cpus = threads_per_actor
        self.actors = [self._new_actor() for _ in range(actors)]

    def _new_actor(self):
        return _ScorerActor.options(num_cpus=self._cpus, max_restarts=0).remote(self._options)

    def score(self, tasks):
        """Scores a list of task dicts (the CLI's schema); one result dict per task, in order.
        Raises ``ValueError`` naming the task when a task is invalid."""
        tasks = list(tasks)
        batches = [tasks[i:i + self.batch_size] for i in range(0, len(tasks), self.batch_size)]
        results = [None] * len(batches)
        attempts = [0] * len(batches)
        queue = list(range(len(batches)))
        running = {}  # object ref -> (batch, actor index, actor handle)
        per_actor = 2  # batches in flight per actor: one running, one waiting

        def submit():
            load = [0] * len(self.actors)
            for _, actor, _ in running.values():
                load[actor] += 1
            while queue:
                actor = min(range(len(self.actors)), key=load.__getitem__)
                if load[actor] >= per_actor:
                    return
                batch = queue.pop(0)
                attempts[batch] += 1
                handle = self.actors[actor]
                ref = handle.score.remote(batches[batch])
                running[ref] = (batch, actor, handle)
                load[actor] += 1

        submit()
        while running:
            done, _ = ray.wait(list(running), num_returns=1)
            ref = done[0]
            batch, actor, handle = running.pop(ref)
            try:
                kind, value = ray.get(ref)
            except _DEAD:
                if self.actors[actor] is handle:  # not replaced yet by another of its batches
                    self._replace(actor)
                if attempts[batch] >= self.max_attempts:
                    raise RuntimeError("batch %d failed on %d actors in turn; giving up" % (batch, attempts[batch]))
                queue.insert(0, batch)
                submit()
                continue
            if kind == "invalid":
                for other in running:
                    ray.cancel(other)
                offset = batch * self.batch_size
                raise ValueError("in the batch of tasks %d to %d: %s" % (offset, offset + len(batches[batch]) - 1, value))
            results[batch] = value
            submit()
        return [result for batch in results for result in batch]

    def score_group(self, task, completions):
        """Scores ``completions`` for one task on the pool; one result dict per completion.

        A task with a ``solution`` (a string) is spread over the actors in pieces of
        ``batch_size`` completions. One without is scored whole, on one actor's threads: its
        completions decide whose doing a verifier's failure on one of them is (docs/guide/scoring.md),
        so they are judged together, and a result does not depend on ``batch_size``."""
        chunk = max(1, self.batch_size) if isinstance(task.get("solution"), str) else max(1, len(completions))
        tasks = [dict(task, id=str(task.get("id", "group")), completions=completions[i:i + chunk])
                 for i in range(0, len(completions), chunk)]
        return [r for result in self.score(tasks) for r in result["results"]]

    def _replace(self, index):
        """A fresh actor in place of a dead one (its node may be gone: Ray places it)."""
        try:
            ray.kill(self.actors[index])
        except Exception:
            pass
        self.actors[index] = self._new_actor()

    def shutdown(self):
        """Stops the actors."""
        for actor in self.actors:
            try:
                ray.kill(actor)
            except Exception:
                pass
        self.actors = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.shutdown()
        return False

    def __repr__(self):
        return "rewardbox.ray.RayScorer(actors=%d, threads_per_actor=%d)" % (len(self.actors), self._cpus)
