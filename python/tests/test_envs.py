"""rewardbox.Environments and Session: CodeGym-format environments in persistent sandboxes."""

import pathlib
import threading

import pytest

import rewardbox

ENV_DIR = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "codegym"
SUM = 'codegym_v1@Toy_1_I__SumListEnv@{"values": [3, 4, 5]}'


@pytest.fixture(scope="module")
def envs(cache_dir):
    return rewardbox.Environments(ENV_DIR, fuel=500_000_000, memory_mb=64, cache_dir=cache_dir)


def test_a_session_solves_step_by_step(envs):
    with envs.start(SUM) as session:
        assert "3 integers" in session.observation
        assert session.step({"name": "GetValue", "parameters": {"index": 2}}) == (True, "5")
        ok, message = session.step('{"name": "Done", "parameters": {"answer": 12}}')
        assert ok and "reward=1" in message
        assert session.done is True
        assert session.reward == 1.0
        assert session.reset({"values": [2, 2]}) == "Environment has been reset."
        assert session.done is False
        assert "reward=1" in session.get_attribute("solve")
        assert session.get_attribute("get_ref_answer") == 4
        sid = session.id
    with pytest.raises(rewardbox.SessionError) as info:
        envs.get(sid)
    assert info.value.kind == "unknown_session"


def test_errors_are_clear_and_contained(envs):
    with pytest.raises(rewardbox.SessionError) as info:
        envs.start("codegym_v1@Hostile_3_I__NumpyEnv@{}")
    assert info.value.kind == "start_error" and "numpy" in str(info.value)
    with envs.start("codegym_v1@Hostile_1_I__MisbehaveEnv@{}") as bad:
        with pytest.raises(rewardbox.SessionError) as info:
            bad.step({"name": "Loop", "parameters": {}})
        assert info.value.kind == "step_failed" and "fuel_exhausted" in str(info.value)
        with pytest.raises(rewardbox.SessionError) as info:
            bad.step({"name": "Visit", "parameters": {}})
        assert info.value.kind == "broken"
    with pytest.raises(ValueError):
        envs.start(SUM).step(object())


def test_step_many_in_parallel_from_threads(envs):
    sessions = [envs.start(SUM) for _ in range(16)]
    actions = [(s, '{"name": "GetValue", "parameters": {"index": %d}}' % (i % 3)) for i, s in enumerate(sessions)]
    results = envs.step_many(actions)
    assert [r[1] for r in results] == [["3", "4", "5"][i % 3] for i in range(16)]
    errors = []

    def worker(session):
        try:
            for _ in range(20):
                assert session.step({"name": "Observe", "parameters": {}}) == (True, "3")
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(s,)) for s in sessions]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for s in sessions:
        s.close()
