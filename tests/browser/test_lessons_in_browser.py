"""Every notebook in notebooks/ used as a learner uses it: opened in JupyterLab in Chromium,
Run All, then every slider, dropdown and toggle moved while its picture is watched."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from browser_suite import ARTIFACTS, NOTEBOOKS, opened_lesson
from labserver import other_cpu
from learner import control_problems, naming_problems, run_all_problems, stretched_images
from stored_outputs import differences

pytestmark = pytest.mark.browser

# Found, not listed: a new English lesson is covered at once.
LESSONS = [p.relative_to(NOTEBOOKS) for p in sorted(NOTEBOOKS.glob("*.ipynb"))]
# The Chinese edition in JupyterLab: one lesson, with live demos, proves that the language switch
# reaches the kernel-driven widgets and that Chromium draws their Chinese labels (README's zh
# picture is its screenshot). Every Chinese lesson is checked elsewhere, and running each one here
# again would test the same code twice: its code cells are the English ones character for
# character (test_editions.py), nbval executes every one natively (and this suite runs every English
# one as another CPU computes), every frame of every demo is
# drawn in Chinese and checked for missing glyphs (the site's build, tests/tools/test_site.py), and
# every Chinese page of the site is opened and driven in Chromium (test_site_in_browser.py). Each
# lesson run here is compared with its committed outputs (test_run_all_gives_the_committed_outputs)
# and is therefore left out of nbval's native run (conftest.py).
CHINESE_LESSON = Path("zh/01_feed_forward.ipynb")
LESSONS.append(CHINESE_LESSON)


def screenshot_name(lesson: Path) -> str:
    """01_feed_forward.png for English, zh-01_feed_forward.png for the Chinese edition."""
    return "-".join([*lesson.parent.parts, f"{lesson.stem}.png"])


@pytest.fixture(scope="module", params=LESSONS, ids=str)
def lesson(request, lab_page, lab):
    with opened_lesson(lab_page, lab, f"lessons/{request.param.as_posix()}") as opened:
        opened.screenshot(ARTIFACTS / screenshot_name(request.param))
        yield opened


def test_run_all_runs_every_code_cell_without_error(lesson):
    problems = run_all_problems(lesson)
    assert not problems, "\n".join(problems)


def test_run_all_gives_the_committed_outputs(lesson, request):
    """nbval's check, done on the browser's own Run All, which computed as another CPU would
    (stored_outputs.py says why)."""
    stored = nbformat.read(NOTEBOOKS / request.node.callspec.params["lesson"], as_version=4)
    code = [cell for cell in stored.cells if cell.cell_type == "code"]
    problems = differences(lesson.outputs(), code, lesson.name)
    assert not problems, "\n".join(problems)


def test_the_lessons_kernel_computed_as_another_cpu(lesson):
    """The comparison above checks that the outputs hold on a CPU unlike this one only because
    the kernel ran with PyTorch's scalar kernels and one thread (tests/other_cpu.mk)."""
    wanted = other_cpu()
    torch = "__import__('torch')"
    capability = lesson.ask_kernel(f"{torch}.backends.cpu.get_cpu_capability()")
    assert capability == repr(wanted["ATEN_CPU_CAPABILITY"].upper())
    assert lesson.ask_kernel(f"{torch}.get_num_threads()") == wanted["OMP_NUM_THREADS"]


def test_every_control_changes_its_output_without_error(lesson):
    problems, log = control_problems(lesson)
    print("\n".join(log))
    assert not problems, "\n".join(problems)


def test_demo_images_are_shown_at_their_own_size_not_stretched(lesson):
    problems = stretched_images(lesson)
    assert not problems, "\n".join(problems)


def test_d_ff_and_activation_controls_are_rendered_by_name(lesson):
    problems = naming_problems(lesson)
    assert not problems, "\n".join(problems)
