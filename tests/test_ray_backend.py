"""The ray backend gives exactly the figures of the local one (same chunks, merged in order).

One Ray instance is started on this machine for the module, the way ``--backend ray`` without
an address starts one (two CPUs, no dashboard, no usage reports), and stopped at the end; the
runs below find it initialized and use it. The backend code is not part of the compiled
engine, so these tests are left out of the run against it (`not_compiled`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from trickrules.tools import backends
from trickrules.tools.cli import main
from trickrules.tools.simulate import SimulationError, simulate
from trickrules.tools.tournament import tournament

ray = pytest.importorskip("ray")
pytestmark = pytest.mark.not_compiled

KINGDOMS = Path(__file__).parent.parent / "specs" / "kingdoms.yaml"
QUIET = {"RAY_USAGE_STATS_ENABLED": "0", "RAY_DISABLE_DOCKER_CPU_WARNING": "1"}


@pytest.fixture(scope="module")
def local_ray() -> Iterator[Any]:
    if ray.is_initialized():
        pytest.skip("Ray is already initialized in this process")
    saved = {name: os.environ.get(name) for name in QUIET}
    os.environ.update(QUIET)
    module, opened = backends._connect_ray(None, 2, SimulationError)  # as --backend ray starts it
    assert opened and module.is_initialized()
    try:
        yield module
    finally:
        module.shutdown()
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def test_simulate_on_ray_equals_local(local_ray: Any) -> None:
    settings: dict[str, Any] = dict(n=30, players=4, agents=("greedy", "random", "random", "random"), seed=2)
    done: list[tuple[int, int]] = []
    on_ray = simulate(KINGDOMS, workers=2, backend="ray", progress=lambda d, t: done.append((d, t)), **settings)
    assert on_ray.to_json() == simulate(KINGDOMS, workers=1, **settings).to_json()
    assert done[-1] == (30, 30) and [d for d, _ in done] == sorted(d for d, _ in done)
    assert local_ray.is_initialized()  # an instance the caller started is left running


def test_tournament_on_ray_equals_local(local_ray: Any) -> None:
    settings: dict[str, Any] = dict(agents=["greedy", "random", "random"], n=10, seed=3, players=4)
    on_ray = tournament(KINGDOMS, backend="ray", **settings)  # workers: the cluster's CPUs
    assert on_ray.to_json() == tournament(KINGDOMS, workers=1, **settings).to_json()


def test_cli_on_ray_writes_the_json_of_the_local_run(local_ray: Any, tmp_path: Path) -> None:
    command = ["tournament", "euchre", "--set", "single_hand=true", "--agents", "greedy,random", "-n", "12"]
    assert main([*command, "--backend", "ray", "--json", str(tmp_path / "ray.json")]) == 0
    assert main([*command, "--workers", "1", "--json", str(tmp_path / "local.json")]) == 0
    assert json.loads((tmp_path / "ray.json").read_text()) == json.loads((tmp_path / "local.json").read_text())


def test_a_failing_task_is_a_clean_error(local_ray: Any) -> None:
    with backends.open_backend("ray", 2, None, SimulationError) as runner:
        with pytest.raises(SimulationError, match="a Ray task failed: .*invalid literal"):
            runner.map(int, "not a number", pow, [1, 2], [1, 1], None)  # the worker's load fails
    assert local_ray.is_initialized()
