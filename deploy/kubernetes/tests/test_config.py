"""deploy/kubernetes: the class's Zero to JupyterHub configuration is one the chart accepts, its
resources are what ``make classroom`` measured, and its image installs the learner's environment
only."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import jsonschema
import pytest
import yaml

from deploy.kubernetes import limits

HERE = Path(__file__).resolve().parents[1]
CHART = HERE / "chart"
ROOT = HERE.parents[1]


def helm_merge(defaults: dict, overrides: dict) -> dict:
    """Helm's merge of a values file over the chart's defaults: maps merge key by key, any other
    value replaces, and null deletes the key."""
    merged = copy.deepcopy(defaults)
    for key, value in overrides.items():
        if value is None:
            merged.pop(key, None)
        elif isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = helm_merge(merged[key], value)
        else:
            merged[key] = copy.deepcopy(value)
    return merged


def schema() -> dict:
    return json.loads((CHART / "values.schema.json").read_text(encoding="utf-8"))


def chart_values(config: dict) -> dict:
    defaults = yaml.safe_load((CHART / "values.yaml").read_text(encoding="utf-8"))
    return helm_merge(defaults, config)


def config() -> dict:
    return yaml.safe_load((HERE / "config.yaml").read_text(encoding="utf-8"))


def test_the_chart_accepts_the_class_configuration():
    jsonschema.validate(chart_values(config()), schema())


@pytest.mark.parametrize(
    "wrong",
    [
        {"singleuser": {"memory": {"limit": ["1G"]}}},  # a list where a size goes
        {"singleuser": {"cpu": {"limt": 1}}},  # a misspelt key
        {"singleuser": {"defaultURL": "/lab"}},  # a key the chart does not know
        {"cull": {"timeout": "half an hour"}},
    ],
)
def test_the_schema_check_rejects_what_the_chart_would(wrong):
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(chart_values(helm_merge(config(), wrong)), schema())


def test_helm_merge_keeps_defaults_replaces_values_and_deletes_nulls():
    merged = helm_merge({"a": {"b": 1, "c": [1]}, "d": 2}, {"a": {"c": [2]}, "d": None})
    assert merged == {"a": {"b": 1, "c": [2]}}


def test_the_resources_are_what_make_classroom_measured():
    single = config()["singleuser"]
    measured = limits.observed_limits().values()
    assert single["memory"]["guarantee"] == measured["memory.guarantee"]
    assert single["memory"]["limit"] == measured["memory.limit"]
    assert single["cpu"]["guarantee"] == measured["cpu.guarantee"]
    assert single["cpu"]["limit"] == measured["cpu.limit"]


def test_the_limits_follow_the_observed_class():
    observed = json.loads(limits.OBSERVED.read_text(encoding="utf-8"))
    found = limits.from_observed(observed)
    peak = max(s["kernel_peak_bytes"] + s["server_peak_bytes"] for s in observed["steps"])
    assert peak <= found.memory_guarantee_mib * limits.MIB < peak + limits.STEP * limits.MIB
    held = limits.held_in_lockstep(observed)
    assert found.cpu_guarantee * held == pytest.approx(observed["machine"]["cores"], abs=0.01)
    worse = copy.deepcopy(observed)
    for step in worse["steps"]:
        step["crossed"] = {"run_all": "over 60 s"}
    with pytest.raises(ValueError, match="no learner"):
        limits.from_observed(worse)


def test_a_node_holds_the_fewer_of_its_cpu_and_memory_counts():
    found = limits.Limits(700, 1400, 0.25, 1.0, learners_per_core=4.0, lesson="x.ipynb")
    assert found.learners(cores=2, memory_gib=24) == 8  # by CPU
    assert found.learners(cores=16, memory_gib=8) == 8  # by memory: 6 GiB over 700 MiB
    assert found.learners(cores=1, memory_gib=1) == 0


def test_write_sets_the_measured_figures_in_config(tmp_path):
    path = tmp_path / "config.yaml"
    path.write_text((HERE / "config.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    other = limits.Limits(900, 1800, 0.5, 1.0, learners_per_core=2.0, lesson="x.ipynb")
    limits.write(other, path)
    single = yaml.safe_load(path.read_text(encoding="utf-8"))["singleuser"]
    assert single["memory"] == {"guarantee": "900M", "limit": "1800M"}
    assert single["cpu"] == {"guarantee": 0.5, "limit": 1.0}


def test_the_course_opens_at_the_index_in_each_language():
    single = config()["singleuser"]
    pages = [single["defaultUrl"]] + [
        p["kubespawner_override"]["default_url"]
        for p in single["profileList"]
        if "kubespawner_override" in p
    ]
    copied = re.search(r"/opt/ffn-course/notebooks/\. (\S+)/", " ".join(
        single["lifecycleHooks"]["postStart"]["exec"]["command"]))  # fmt: skip
    folder = copied.group(1).removeprefix("/home/jovyan/")
    for page in pages:
        relative = page.removeprefix(f"/lab/tree/{folder}/")
        assert (ROOT / "notebooks" / relative).exists(), page
    assert {p.split("/")[-2] for p in pages} == {folder, "zh"}


def test_no_egress_but_dns_and_the_hub():
    rules = config()["singleuser"]["networkPolicy"]["egressAllowRules"]
    allowed = {name for name, allow in rules.items() if allow}
    assert allowed == {"dnsPortsKubeSystemNamespace"}
    assert chart_values(config())["singleuser"]["networkPolicy"]["enabled"] is True


def test_the_image_installs_the_learners_environment_only():
    dockerfile = (HERE / "image" / "Dockerfile").read_text(encoding="utf-8")
    installs = " ".join(re.findall(r"pip install ([^\\&\n]+)", dockerfile))
    assert "install_torch.py" in dockerfile  # PyTorch's CPU build, as make lab installs it
    assert "[dev]" not in installs and re.search(r"(^|\s)\.(\s|$)", installs)
    hub = re.search(r"jupyterhub==(\d+)\.(\d+)", installs)
    assert hub, "the image needs JupyterHub's single-user server"
    chart = yaml.safe_load((CHART / "Chart.yaml").read_text(encoding="utf-8"))
    assert chart["version"] == "4.4.0"
    assert chart["appVersion"].split(".")[:2] == [hub.group(1), hub.group(2)], chart["appVersion"]
    assert "jupyter_server_config.py" in dockerfile


def test_the_readme_gives_the_measured_limits_and_what_a_node_holds():
    text = (HERE / "README.md").read_text(encoding="utf-8")
    cores = json.loads(limits.OBSERVED.read_text(encoding="utf-8"))["machine"]["cores"]
    assert limits.readme_with(limits.observed_limits(), cores, text) == text
    assert "| 16 cores, 64 GiB |" in text
