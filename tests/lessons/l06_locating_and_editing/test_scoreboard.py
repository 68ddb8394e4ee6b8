"""Lesson 6's closing table words the numbers its cells measured, in the learner's language."""

from __future__ import annotations

from course_lib.core.i18n import set_language
from course_lib.lessons.l06_locating_and_editing import scoreboard
from course_lib.lessons.l06_locating_and_editing.experiments import edit_curves as EC

NAMES = [m.name for m in EC.METHODS]


def _rows():
    score = {n: {"S": 10.0 + i, "ES": 50.0, "PS": 3.0 * i, "NS": 90.0 - i} for i, n in enumerate(NAMES)}  # fmt: skip
    return scoreboard.rows(
        score,
        bounded=(7.0, 2.0, 12.0),
        shift={"ES": 1.5, "PS": 2.5, "NS": -3.5},
        kn_change={"ES": 1.5, "PS": 4.25, "NS": -70.0},
        carried=6.0,
        rho={EC.ROME_SITE: 0.31, EC.PLAIN_SUBJECT: -0.04},
        power=0.2,
    ), score


def test_every_row_names_its_study_and_fills_six_columns_from_the_measured_numbers():
    rows, score = _rows()
    assert [len(r) for r in rows] == [6] * 7
    assert [r[0] for r in rows] == ["Meng et al. 2022"] * 6 + ["Hase et al. 2023"]
    ft_l = rows[3][3]  # FT+L against fine-tuning, with its interval
    assert f"{score[EC.BOUNDED]['S']:.0f} > {score[EC.FINE_TUNING]['S']:.0f}" in ft_l
    assert "+7, 95 % interval +2 to +12" in ft_l
    assert rows[4][3] == "+1.5, +4.2, -70.0 at the paper's ΔES"
    assert rows[6][3] == "could not tell: Spearman ρ +0.3 and +0.0, power at most 20%"


def test_in_chinese_every_worded_cell_is_the_catalogues_not_the_english():
    english, _ = _rows()
    set_language("zh")
    try:
        chinese, _ = _rows()
    finally:
        set_language("en")
    worded = [(e[c], z[c]) for e, z in zip(english, chinese, strict=True) for c in (0, 1, 4, 5)]
    assert [pair for pair in worded if pair[0] == pair[1]] == []
