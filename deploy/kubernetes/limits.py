"""A learner's resources on Kubernetes, from what ``make classroom`` observed
(``deploy/classroom/classroom-observed.json``): the figures ``config.yaml`` sets, and how many learners
a node holds.

- memory guarantee: the most one learner used in the observed class, the kernel of the lesson and
  the learner's own Jupyter server together, rounded up to ``STEP`` (KubeSpawner reads "M" as MiB);
- memory limit: twice the guarantee, room for a second lesson's kernel before idle culling stops the
  first (the course's demos never train, so nothing else grows);
- CPU limit: 1 core, the lessons' models run on one thread (``torch.set_num_threads(1)``);
- CPU guarantee: the machine's cores shared by the largest class that stayed within every limit in
  lockstep (all pressing Run All at once on the heaviest lesson), in thousandths of a core.

``python -m deploy.kubernetes.limits`` prints them and a node table; ``--write`` sets them in
``config.yaml``.
"""

from __future__ import annotations

import json
import math
import re
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
OBSERVED = HERE.parent / "classroom" / "classroom-observed.json"
CONFIG = HERE / "config.yaml"
README = HERE / "README.md"
NODES = ((2, 24), (4, 16), (8, 32), (16, 64), (32, 128))  # (cores, GiB) of the README's table
MIB = 1024**2
GIB = 1024**3
STEP = 100  # MiB: the guarantee's rounding
SYSTEM_RESERVE = (
    2 * GIB
)  # what a node keeps for Kubernetes, the hub and the proxy (as make classroom)


@dataclass(frozen=True)
class Limits:
    memory_guarantee_mib: int
    memory_limit_mib: int
    cpu_guarantee: float
    cpu_limit: float
    learners_per_core: float  # observed in lockstep on the heaviest lesson
    lesson: str

    def values(self) -> dict[str, str | float]:
        """What config.yaml's singleuser.memory and singleuser.cpu hold."""
        return {
            "memory.guarantee": f"{self.memory_guarantee_mib}M",
            "memory.limit": f"{self.memory_limit_mib}M",
            "cpu.guarantee": self.cpu_guarantee,
            "cpu.limit": self.cpu_limit,
        }

    def learners(self, cores: int, memory_gib: float) -> int:
        """How many learners a node of ``cores`` and ``memory_gib`` holds: by CPU in lockstep (as
        observed per core) and by memory (each learner's guarantee), the fewer."""
        by_cpu = math.floor(cores * self.learners_per_core)
        by_memory = math.floor(
            (memory_gib * GIB - SYSTEM_RESERVE) / (self.memory_guarantee_mib * MIB)
        )
        return max(0, min(by_cpu, by_memory))


def held_in_lockstep(observed: dict) -> int:
    """The largest class of the observed ramp that stayed within every limit."""
    return max(
        (s["n"] for s in observed["steps"] if not s["crossed"] and not s["errors"]), default=0
    )


def from_observed(observed: dict) -> Limits:
    """The limits from one ``make classroom`` run (its JSON)."""
    held = held_in_lockstep(observed)
    if held == 0:
        raise ValueError("the observed class held no learner within its limits: no limits to set")
    peak = max(s["kernel_peak_bytes"] + s["server_peak_bytes"] for s in observed["steps"])
    guarantee = STEP * math.ceil(peak / MIB / STEP)
    cores = observed["machine"]["cores"]
    return Limits(
        memory_guarantee_mib=guarantee,
        memory_limit_mib=2 * guarantee,
        cpu_guarantee=round(cores / held, 3),
        cpu_limit=1.0,
        learners_per_core=held / cores,
        lesson=Path(observed["settings"]["lesson"]).name,
    )


def observed_limits() -> Limits:
    return from_observed(json.loads(OBSERVED.read_text(encoding="utf-8")))


def _set(text: str, section: str, key: str, value) -> str:
    """``text`` with ``key: value`` under ``singleuser.<section>`` replaced."""
    pattern = re.compile(rf"(\n  {section}:\n(?:    .*\n)*?    {key}: )[^\n]*")
    new, count = pattern.subn(lambda m: f"{m.group(1)}{value}", text, count=1)
    if count != 1:
        raise ValueError(f"{CONFIG}: no singleuser.{section}.{key} to set")
    return new


def write(limits: Limits, path: Path = CONFIG) -> None:
    text = path.read_text(encoding="utf-8")
    for name, value in limits.values().items():
        section, key = name.split(".")
        text = _set(text, section, key, value)
    path.write_text(text, encoding="utf-8")


def readme_block(limits: Limits, cores: int) -> str:
    """README's tables of the resources and of what a node holds (between its limits markers)."""
    v = limits.values()
    rows = [
        "| what | value | from |",
        "|---|---|---|",
        f"| memory guarantee | {v['memory.guarantee']} | the most one learner used: the lesson's "
        "kernel and the learner's server together, rounded up to 100 MiB |",
        f"| memory limit | {v['memory.limit']} | twice that: a second lesson's kernel before idle "
        "culling stops the first |",
        f"| CPU guarantee | {v['cpu.guarantee']:g} | {cores} cores shared by the "
        f"{round(cores * limits.learners_per_core)} learners who stayed within every limit in "
        "lockstep |",
        f"| CPU limit | {v['cpu.limit']:g} | the lessons' models run on one thread |",
        "",
        "| node | learners it holds |",
        "|---|---|",
        *(f"| {c} cores, {m} GiB | {limits.learners(c, m)} |" for c, m in NODES),
        "",
        f"A node holds the fewer of what its CPU allows in lockstep ({limits.learners_per_core:g} "
        f"learners per core, as observed on {limits.lesson}) and what its memory allows (each "
        f"learner's guarantee, {SYSTEM_RESERVE // GIB} GiB kept for the system).",
    ]
    return "\n".join(rows)


BLOCK = re.compile(r"(<!-- limits -->\n).*?(\n<!-- /limits -->)", re.S)


def readme_with(limits: Limits, cores: int, text: str) -> str:
    """``text`` (README's) with its limits block made anew."""
    return BLOCK.sub(lambda m: m.group(1) + readme_block(limits, cores) + m.group(2), text)


def main(argv: list[str]) -> None:
    limits = observed_limits()
    cores = json.loads(OBSERVED.read_text(encoding="utf-8"))["machine"]["cores"]
    print(readme_block(limits, cores))
    if "--write" in argv:
        write(limits)
        README.write_text(readme_with(limits, cores, README.read_text(encoding="utf-8")), "utf-8")
        print(f"written to {CONFIG.name} and {README.name}")


if __name__ == "__main__":
    main(sys.argv[1:])
