"""The learner's language: every text the code shows has a Chinese entry, with the same fields."""

from __future__ import annotations

import ast
import functools
import itertools
import re
import string
import warnings
from pathlib import Path

import numpy as np
import pytest

from course_lib.core import i18n
from course_lib.core.i18n import (
    N_,
    MissingTranslation,
    display_width,
    grouped,
    series,
    set_language,
    tr,
    zh,
)

COURSE_LIB = Path(i18n.__file__).resolve().parents[2]
DEVTOOLS = COURSE_LIB.parent / "devtools"  # the site's own pages speak both languages too


@pytest.fixture
def chinese():
    set_language("zh")
    yield
    set_language("en")


def marked_texts(root: Path = COURSE_LIB) -> dict[str, str]:
    """Every literal passed to ``tr(...)`` or ``N_(...)`` in course_lib -> where it is."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        if "i18n" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("tr", "N_")
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found[node.args[0].value] = f"{path.relative_to(root.parent)}:{node.lineno}"
    return found


def untranslated(texts: dict[str, str], messages: dict[str, str]) -> list[str]:
    """Texts with no entry, or whose entry has other fields than the English text."""
    problems = []
    for text, where in texts.items():
        if text not in messages:
            problems.append(f"{where}: no zh entry for {text!r}")
        elif i18n.fields(text) != i18n.fields(messages[text]):
            problems.append(f"{where}: fields {i18n.fields(messages[text])} for {text!r}")
    return problems


def test_every_marked_text_in_the_code_has_a_chinese_entry_with_the_same_fields():
    texts = marked_texts() | marked_texts(DEVTOOLS)
    assert len(texts) > 20, "the scan found almost no tr()/N_() texts"
    assert any(where.startswith("devtools") for where in texts.values())
    problems = untranslated(texts, zh.MESSAGES)
    assert not problems, "\n".join(problems)


def test_the_translation_check_rejects_a_missing_entry_and_a_renamed_field():
    texts = {"d_ff={d_ff}: {count} regions": "x.py:1", "ready": "x.py:2"}
    assert untranslated(texts, {"ready": "就绪", "d_ff={d_ff}: {count} regions": "{count} 个区域"})
    assert untranslated(texts, {"d_ff={d_ff}: {count} regions": "d_ff={d_ff}：{n} 个区域"})
    assert not untranslated(
        texts, {"ready": "就绪", "d_ff={d_ff}: {count} regions": "{d_ff}{count}"}
    )


def test_every_chinese_entry_keeps_the_fields_of_its_english_text():
    wrong = {k: v for k, v in zh.MESSAGES.items() if i18n.fields(k) != i18n.fields(v)}
    assert not wrong, wrong


def formats(template: str) -> dict[str, set[str]]:
    """Each field's format specs and conversions: ``"{p:.2f} {p}"`` -> {"p": {":.2f", ":"}}."""
    found: dict[str, set[str]] = {}
    for _, name, spec, conversion in string.Formatter().parse(template):
        if name is not None:
            found.setdefault(name, set()).add(f"{conversion or ''}:{spec or ''}")
    return found


def test_every_chinese_entry_formats_each_number_as_its_english_text_does():
    # What lets the portability pass run the English edition alone: a number printed through the
    # catalogue has the same digits in both editions, so another CPU changes both or neither.
    wrong = {k: v for k, v in zh.MESSAGES.items() if formats(k) != formats(v)}
    assert not wrong, wrong
    assert formats("{p:.2f} of {n}") != formats("{p:.3f} of {n}")  # the check sees a spec change


NOTEBOOKS = COURSE_LIB.parent / "notebooks"


def _code(source: str) -> ast.Module:
    """A notebook cell's code as Python (IPython's % and ! lines left out)."""
    lines = source.splitlines()
    return ast.parse(
        "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in lines)
    )


# Arguments that are not literals but whose texts are marked where they are written, with N_:
# the scoreboard's sentences (course_lib/lessons/l05_ffn_memory/experiments/scoreboard.py), found by marked_texts.
MARKED_ELSEWHERE = {"row.claim"}


# the calls whose arguments are templates: claim(statement, holds, shown) and show(template)
TEMPLATE_ARGUMENTS = {"claim": (0, 2), "show": (0,), "progress": (1,)}  # progress: its description


def claim_templates(cells: dict[str, str]) -> tuple[dict[str, str], list[str]]:
    """What xgettext would extract from the notebooks' ``claim(statement, holds, shown)`` and
    ``show(template)`` calls, their ``tr(text)`` calls and the headers of their
    ``show_table(headers, ...)`` calls (a list, or a name a list is given to in the same cell, and
    the lists such names stand for when starred in it):
    {template: where}, and the claims and shows whose template is not a plain string literal (an
    f-string, a variable), whose text no catalogue could hold. ``cells``: {where: code}."""
    found, problems = {}, []
    for where, source in cells.items():
        tree = _code(source)
        lists = {t.id: node.value for node in ast.walk(tree) if isinstance(node, ast.Assign)
                 for t in node.targets if isinstance(t, ast.Name) and isinstance(node.value, ast.List)}  # fmt: skip
        for node in ast.walk(tree):
            name = getattr(node.func, "id", None) if isinstance(node, ast.Call) else None
            if name == "tr" and node.args and isinstance(node.args[0], ast.Constant):
                found[node.args[0].value] = f"{where}, line {node.lineno}"
            if name == "show_table" and node.args:
                headers = node.args[0]
                headers = (
                    lists.get(headers.id, headers) if isinstance(headers, ast.Name) else headers
                )
                items = []
                for item in getattr(headers, "elts", []):  # ["edit", *columns] reads columns too
                    starred = isinstance(item, ast.Starred) and isinstance(item.value, ast.Name)
                    items.extend(
                        getattr(lists.get(item.value.id), "elts", []) if starred else [item]
                    )
                for item in items:
                    if isinstance(item, ast.Constant) and isinstance(item.value, str):
                        found[item.value] = f"{where}, line {node.lineno}"
            if name not in TEMPLATE_ARGUMENTS:
                continue
            positions = TEMPLATE_ARGUMENTS[name]
            for argument in [a for i, a in enumerate(node.args) if i in positions]:
                if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                    found[argument.value] = f"{where}, line {node.lineno}"
                elif ast.unparse(argument) not in MARKED_ELSEWHERE:
                    problems.append(f"{where}, line {node.lineno}: {ast.unparse(argument)}")
    return found, problems


def notebook_cells() -> dict[str, str]:
    """Every code cell of the English notebooks (the Chinese ones have the same code)."""
    import nbformat

    return {
        f"{path.name} cell {i}": cell.source
        for path in sorted(NOTEBOOKS.glob("*.ipynb"))
        for i, cell in enumerate(nbformat.read(path, as_version=4).cells)
        if cell.cell_type == "code"
    }


def test_every_claim_and_show_in_the_notebooks_passes_templates_the_catalogue_holds():
    found, problems = claim_templates(notebook_cells())
    assert len(found) > 150, f"the scan found only {len(found)} claim templates"
    assert not problems, "claims must pass string literals, not formatted text:\n" + "\n".join(
        problems
    )
    wordy = {text: where for text, where in found.items() if i18n.has_words(text)}
    problems = untranslated(wordy, zh.MESSAGES)
    assert not problems, "\n".join(problems)


def test_the_claim_scan_rejects_formatted_text_and_finds_templates():
    cells = {
        "f-string": 'claim(f"{n} of 48", n > 1)',
        "variable": "claim(statement, True)",
        "formatted shown": 'claim("it holds", True, "{:.2f}".format(x))',
        "template": 'claim("it holds", ok, "{n} of {total}", n=3, total=4)',
        "magic": "%matplotlib inline\nclaim('plain', True)",
        "marked where written": "claim(row.claim, row.holds)",
        "shown": 'show("output shape: {shape}", shape=(2, 4))',
        "shown formatted": 'show(f"output shape: {y.shape}")',
        "table": 'HEADERS = ["edit", "p(new)"]\nshow_table(HEADERS, rows, specs)\nx = tr("kept")',
        "starred": 'cols = ["ES", "filler"]\nshow_table(["method", *cols], rows)',
    }
    found, problems = claim_templates(cells)
    assert set(found) == {"it holds", "{n} of {total}", "plain", "output shape: {shape}", "edit",
                          "p(new)", "kept", "method", "ES", "filler"}  # fmt: skip
    wrong = ["f-string", "variable", "formatted shown", "shown formatted"]
    assert [p.split(",")[0] for p in problems] == wrong


def test_every_catalogue_entry_is_used_by_the_code_or_a_notebook():
    """A stale entry is a sentence no learner sees, and hides that its replacement has none."""
    used = (
        set(marked_texts())
        | set(marked_texts(DEVTOOLS))
        | set(claim_templates(notebook_cells())[0])
    )
    unused = sorted(set(zh.MESSAGES) - used)
    assert not unused, "\n".join(unused)


def test_a_text_is_in_one_topic_only():
    seen: dict[str, str] = {}
    for topic, messages in zh.TOPICS.items():
        for english in messages:
            assert english not in seen, f"{english!r} in {seen.get(english)} and {topic}"
            seen[english] = topic


def test_english_is_the_default_and_tr_fills_fields_with_their_formats():
    assert i18n.language() == "en"
    assert tr("updated in {ms:.0f} ms", ms=12.4) == "updated in 12 ms"
    assert N_("computing…") == "computing…"


def test_tr_in_chinese_uses_the_catalogue(chinese):
    assert tr("updated in {ms:.0f} ms", ms=12.4) == "已更新，用时 12 ms"
    assert tr(N_("computing…")) == "计算中……"


def test_a_missing_entry_shows_english_and_warns(chinese):
    with pytest.warns(MissingTranslation, match="no zh translation"):
        assert tr("a text nobody translated") == "a text nobody translated"


def test_set_language_names_what_it_accepts():
    with pytest.raises(ValueError, match=r"language must be one of \('en', 'zh'\), got 'fr'"):
        set_language("fr")
    with pytest.raises(TypeError, match="language must be a str"):
        set_language(None)
    with pytest.raises(TypeError, match="message must be a str"):
        tr(3)


def test_a_claim_prints_in_the_learners_language(chinese, capsys):
    from course_lib.core.claims import ClaimFailed, claim

    claim("max error below 1e-9", True, "{n} of the {total} dropouts", n=2, total=3)
    assert capsys.readouterr().out == "✔ 最大误差低于 1e-9（3 个 dropout 中的 2 个）\n"
    with pytest.raises(ClaimFailed, match=r"课程中的结论：最大 \|差值\| 高于 1e-4；"):
        claim("max |difference| above 1e-4", False)


def test_a_claim_looks_its_templates_up_before_filling_them(chinese, capsys):
    """Formatted first, the text would be "0.50 of the grid agrees", which has no entry."""
    from course_lib.core.claims import claim

    claim("{agreed:.2%} of the grid agrees", True, agreed=0.5)
    assert capsys.readouterr().out == "✔ 50.00% 的网格点一致\n"
    claim("nn.TransformerEncoderLayer has as many", True, "{torch_total:,}", torch_total=3152384)
    assert capsys.readouterr().out == "✔ nn.TransformerEncoderLayer 的参数量相同（3,152,384）\n"


def test_a_claims_fields_must_be_its_templates_fields():
    from course_lib.core.claims import claim

    with pytest.raises(TypeError, match=r"fields must be the templates' fields \['n'\], got \[\]"):
        claim("{n} of 48", True)
    with pytest.raises(TypeError, match=r"\['n', 'total'\], got \['n', 'totl'\]"):
        claim("it holds", True, "{n} of {total}", n=1, totl=2)


def test_a_template_without_words_needs_no_entry(chinese):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert tr("×{ratio:.2f}", ratio=7.994) == "×7.99"
        assert tr("{n:,}", n=3152384) == "3,152,384"
    assert i18n.has_words("n 8 -> 16: ÷{ratio:.1f}")  # "n" counts as a word: it has an entry
    assert i18n.has_words("{a} against {b}") and not i18n.has_words("{a} / {b} = {c:.2f}")
    with pytest.warns(MissingTranslation):
        tr("{n} units nobody translated", n=3)


def test_fields_lists_named_fields():
    assert i18n.fields("{n} of {total:d}") == {"n", "total"}
    assert i18n.fields("plain") == set()


# --- typography of the Chinese edition's outputs ---------------------------------------------
ZH_NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks" / "zh").glob("*.ipynb"))
HALF_WIDTH_COLON_AFTER_CHINESE = re.compile(r"[\u4e00-\u9fff）」]: ")


def _printed_lines(path: Path) -> list[str]:
    """Every line a Chinese notebook's stored outputs print (streams and plain-text results)."""
    import nbformat

    lines = []
    for cell in nbformat.read(path, as_version=4).cells:
        for output in cell.get("outputs", []):
            texts = [output.get("text", ""), output.get("data", {}).get("text/plain", "")]
            lines += [line for text in texts for line in "".join(text).splitlines()]
    return lines


def catalogue_texts() -> dict[str, str]:
    """The Chinese catalogue's texts, by where a failure names them."""
    return {f"catalogue: {key}": value for key, value in zh.MESSAGES.items()}


def prose_texts(without_tables: bool = False) -> dict[str, str]:
    """Every markdown cell of the Chinese notebooks; ``without_tables`` drops table rows."""
    import nbformat

    texts = {}
    for path in ZH_NOTEBOOKS:
        for i, cell in enumerate(nbformat.read(path, as_version=4).cells):
            if cell.cell_type == "markdown":
                lines = cell.source.splitlines()
                if without_tables:
                    lines = [line for line in lines if not line.lstrip().startswith("|")]
                texts[f"{path.name} cell {i}"] = "\n".join(lines)
    return texts


def printed_texts(chinese_only: bool = False) -> dict[str, str]:
    """Every printed line of the Chinese notebooks (``chinese_only``: those with Chinese in them)."""
    return {
        f"{path.name}: {line}": line
        for path in ZH_NOTEBOOKS
        for line in _printed_lines(path)
        if not chinese_only or CHINESE.search(line)
    }


def test_a_colon_after_chinese_text_is_full_width_in_every_chinese_output():
    assert len(ZH_NOTEBOOKS) >= 6
    found = [
        where
        for where, line in printed_texts().items()
        if HALF_WIDTH_COLON_AFTER_CHINESE.search(line)
    ]
    assert not found, "\n".join(found[:10])


def test_a_checker_line_joins_its_name_and_message_in_the_learners_typography():
    from course_lib.core.checks import CheckResult

    assert str(CheckResult("parameter formula", "passed", "ok")) == "✔ parameter formula: ok"
    set_language("zh")
    try:
        line = str(CheckResult("parameter formula", "failed", "不对"))
    finally:
        set_language("en")
    assert line == f"✘ {zh.MESSAGES['parameter formula']}：不对"
    assert HALF_WIDTH_COLON_AFTER_CHINESE.search(f"✘ {zh.MESSAGES['parameter formula']}: 不对")


CHINESE = re.compile(r"[\u4e00-\u9fff\u3000-\u303f\uff00-\uffef（）“”]")
NOT_A_PARAGRAPH = ("#", "|", "-", "*", ">", "`", "!", "<", "$")


def paragraph_breaks(markdown: str) -> list[str]:
    """Lines of one paragraph broken between two Chinese characters: Markdown joins them with a
    space, which Chinese text does not have. Headings, tables, lists, quotes, images, HTML,
    formulas and code are not paragraphs."""
    found, fenced = [], False
    lines = markdown.splitlines()
    for line, following in itertools.pairwise(lines):
        fenced ^= line.lstrip().startswith("```")
        if fenced or not line.strip() or not following.strip():
            continue
        if line.lstrip().startswith(NOT_A_PARAGRAPH) or following.lstrip().startswith(
            NOT_A_PARAGRAPH
        ):
            continue
        if CHINESE.match(line.rstrip()[-1]) and CHINESE.match(following.lstrip()[0]):
            found.append(f"{line.rstrip()[-12:]}⏎{following.lstrip()[:12]}")
    return found


def test_paragraph_breaks_finds_a_break_between_chinese_characters_only():
    assert paragraph_breaks("第一行，\n第二行。") == ["第一行，⏎第二行。"]
    assert paragraph_breaks("第一行，第二行。\n\n第三段") == []
    assert paragraph_breaks("## 标题\n正文") == [] and paragraph_breaks("English\nwords") == []
    assert paragraph_breaks("```\n代码\n注释\n```") == []


def test_no_chinese_paragraph_is_broken_between_two_chinese_characters():
    root = Path(__file__).resolve().parents[1]
    texts = {"README.md": (root / "README.md").read_text(encoding="utf-8")} | prose_texts()
    found = [f"{where}: {b}" for where, text in texts.items() for b in paragraph_breaks(text)]
    assert not found, "\n".join(found[:10])


SPACED_PERCENT = re.compile(r"[0-9}] %")


def test_the_chinese_edition_writes_percentages_one_way_with_no_space():
    """``3.5%``, as the catalogue's ``{x:.1%}`` formats print them, never ``3.5 %``: in the
    catalogue's texts, the Chinese prose and every printed line with Chinese in it."""
    texts = catalogue_texts() | prose_texts() | printed_texts(chinese_only=True)
    found = [where for where, text in texts.items() if SPACED_PERCENT.search(text)]
    assert not found, "\n".join(found[:10])


def test_the_chinese_edition_calls_each_concept_by_one_term():
    """The terms table (course_lib/core/i18n/zh/terms.py) against the catalogue, the Chinese prose and
    every printed line: a variant may appear only where the prose names it as another name
    (也叫, 又称) or in a glossary table row."""
    from course_lib.core.i18n.zh.terms import TERMS

    texts = catalogue_texts() | prose_texts(without_tables=True) | printed_texts()
    found = []
    for where, text in texts.items():
        for term, variants in TERMS.items():
            for variant in variants:
                named = text.count(f"也叫{variant}") + text.count(f"又称{variant}")
                if text.count(variant) > named:
                    found.append(f"{where}: {variant} (the course says {term})")
    assert not found, "\n".join(found[:10])


def test_the_chinese_edition_cites_as_geva_deng_ren():
    """Every citation in the Chinese texts reads "Geva 等人", not "Geva et al.": the catalogue's
    texts and the Chinese prose (code and its comments are the English edition's)."""
    texts = catalogue_texts() | prose_texts()
    found = [where for where, text in texts.items() if "et al" in text]
    assert not found, "\n".join(found[:10])


PYTHON_SYNTAX = re.compile(r"""\[['"]|\{['"]|['"]\]|['"]: """)


def test_no_chinese_line_prints_a_python_list_or_dict_of_words():
    """A Chinese sentence lists words as Chinese does (「首都、颜色」, ``series``), never as a Python
    list or dict (「['relu', 'gelu']」); a widget's own repr is code, not a sentence."""
    found = [
        where
        for where, text in printed_texts(chinese_only=True).items()
        if PYTHON_SYNTAX.search(text) and not text.lstrip().startswith(("VBox(", "HBox("))
    ]
    assert not found, "\n".join(found[:10])
    assert PYTHON_SYNTAX.search("可用的激活函数：['relu', 'gelu']")
    assert PYTHON_SYNTAX.search("首都：{'en': 12}")
    assert not PYTHON_SYNTAX.search("可用的激活函数：relu、gelu") and not PYTHON_SYNTAX.search(
        "[3, 5]"
    )


TIMES_AS_X = re.compile(r"(?<![A-Za-z_])x(?=\d)|\d x \d")


def test_the_chinese_edition_writes_times_as_a_times_sign():
    """ "×4.1" and "512 × 512", never an x: in the catalogue's texts and every printed line with
    Chinese in it."""
    texts = catalogue_texts() | printed_texts(chinese_only=True)
    found = [
        where
        for where, text in texts.items()
        if TIMES_AS_X.search(functools.reduce(lambda t, n: t.replace(n, ""), MODEL_NAMES, text))
    ]
    assert not found, "\n".join(found[:10])
    assert TIMES_AS_X.search("64 -> 128 个单元：x4.1") and TIMES_AS_X.search("512 x 512")
    assert not TIMES_AS_X.search("FFN(打乱的 x)") and not TIMES_AS_X.search("x W1 + b1")


# --- no English sentence in the Chinese edition's outputs ---------------------------------------
# What a Chinese output may show in Latin letters: the course's and the libraries' code names,
# activations and layers by their code names, and the terms the Chinese glossary keeps in English.
CODE_WORDS = {
    "PyTorch", "NumPy", "CPU", "FeedForward", "PositionalEncoding", "MultiHeadAttention",
    "SublayerConnection", "LayerNorm", "RMSNorm", "BatchNorm", "NotImplementedError",
    "relu", "gelu", "silu", "tanh", "identity", "swiglu", "geglu", "reglu", "softmax",
    "ReLU", "GELU", "SiLU", "SwiGLU", "Dropout", "dropout", "eval", "token", "FFN", "FLOPs",
    "Adam", "BCE",  # the optimiser and the loss, by their names
    "Transformer",  # the model's name, which Chinese keeps (the course's title: Transformer 的前馈网络)
    "triangles", "ring", "xor", "spiral",  # lesson 2's tasks, by the names the code takes
    "AND", "OR", "XOR",  # logic gates
    "edges", "hidden", "distance",  # lesson 3's code, quoted: a module's part, a claim's formula
    "RMS", "dL", "dLoss", "True", "False", "None",  # a measure's name, a gradient, Python's values
    "norm", "residual", "none", "post", "pre",  # the depth demo's controls and their values
    "gain", "bias", "eps", "mean", "var",  # layer_norm's arguments, in the formula a check quotes
    "Geva", "Dai", "Li", "Shazeer", "BERT", "Base", "ViT", "Mixtral", "Mistral",  # papers, models
    "Meng", "ROME", "CounterFact", "XL",  # a paper, its method, its benchmark, GPT-2 XL
    "Hase", "FT", "KN", "ES", "PS", "NS",  # a paper, the editing baselines and scores by name
    "Fisher",  # lesson 7: a test by its author's name, as Holm is
    "logit", "std",  # the measures lesson 5 names
    "Elhage", "Bricken", "Gao", "SAE", "TopK",  # lesson 8: papers and method names
    "Chen", "Tang", "Wang", "Anthropic", "Bandarkar", "LAPE", "EM", "Holm",  # lesson 9
    "Claude", "Haiku", "LLaMA", "BLOOM",  # and the models the papers studied
}  # fmt: skip
# a model's name, the paper's name of the block, and the probability lesson 5 measures
KEPT_PHRASES = ("GPT-2 small", "Mixtral 8x7B", "Mistral 7B", "Add & Norm", "p(answer)")
MODEL_NAMES = ("Mixtral 8x7B",)  # a name with an x that is not a times sign
# a word in Latin letters that is not part of an identifier (d_ff, W1, torch.int32, p=0.1, 'gelu')
LATIN_WORD = re.compile(r"(?<![\w.=/'\"-])[A-Za-z]{2,}(?![\w(=.'\"-])")
# what JupyterLab shows instead of a result's text/plain
HIDDEN_BEHIND = ("image/png", "application/vnd.jupyter.widget-view+json", "text/markdown")
CODE_BLOCK = re.compile(r"```.*?```", re.DOTALL)  # code shown as code (show_source)


# the toy corpus's prompts, data the model learnt: lesson 5's control, and lesson 9's, labelled 提示
DATA_CONTROLS = {"prompt", "提示"}


def shown_texts(path: Path) -> dict[str, str]:
    """Every text a learner reads in a notebook's stored outputs: printed streams, results (their
    text/plain only where no picture or widget stands in for it), Markdown and HTML results, a
    figure's alt text, and the option labels of its widgets."""
    import nbformat

    notebook, texts = nbformat.read(path, as_version=4), {}
    for i, cell in enumerate(notebook.cells):
        for k, output in enumerate(cell.get("outputs", [])):
            data, where = output.get("data", {}), f"{path.name} cell {i} output {k}"
            found = ["".join(output.get("text", ""))]
            if not any(kind in data for kind in HIDDEN_BEHIND):
                found.append("".join(data.get("text/plain", "")))
            found += [
                re.sub(r"<[^>]+>", " ", CODE_BLOCK.sub(" ", "".join(data.get(kind, ""))))
                for kind in ("text/markdown", "text/html")
            ]
            found.append(output.get("metadata", {}).get("image/png", {}).get("alt", ""))
            texts[where] = "\n".join(text for text in found if text)
    state = notebook.metadata.get("widgets", {}).get(
        "application/vnd.jupyter.widget-state+json", {}
    )
    for model_id, widget in state.get("state", {}).items():  # every one: many share a name
        labels, name = (
            widget.get("state", {}).get("_options_labels"),
            widget["state"].get("description"),
        )
        if labels and name not in DATA_CONTROLS:
            texts[f"{path.name} control {name!r} ({model_id[:8]})"] = "\n".join(labels)
    return texts


QUOTED = re.compile(r'"[^"\n]*"|“[^”\n]*”')  # lesson 5's toy corpus, shown in quotes: data


def english_words(text: str) -> set[str]:
    """The words of ``text`` a Chinese learner would have to read in English."""
    for phrase in KEPT_PHRASES:
        text = text.replace(phrase, " ")
    text = QUOTED.sub(" ", text)
    return {word for word in LATIN_WORD.findall(text) if word not in CODE_WORDS}


def test_english_words_finds_english_not_code_names():
    assert english_words("PyTorch 2.13.0 (CPU is enough for every lesson)") == {
        "is", "enough", "for", "every", "lesson"
    }  # fmt: skip
    assert english_words("seed picture") == {"seed", "picture"}
    assert not english_words("Linear(in_features=512, out_features=2048, bias=True)")
    assert not english_words(
        "tensor([1, 0], dtype=torch.int32) d_ff=8 'gelu' W1 GPT-2 small 的 FFN"
    )
    assert not english_words("输出形状：(2, 4, 512)  ReLU：增加非线性  Add & Norm（残差连接）")


@pytest.mark.parametrize("path", ZH_NOTEBOOKS, ids=lambda p: p.name)
def test_a_chinese_notebook_shows_no_english_word_outside_code_names(path):
    found = {
        where: sorted(words)
        for where, text in shown_texts(path).items()
        if (words := english_words(text))
    }
    assert not found, "\n".join(f"{where}: {words}" for where, words in found.items())


LATEX_TEXT = re.compile(r"\\text\{([^}]*)\}")
LATEX_CODE = {"step", "out", "Sublayer", "LN"}  # the formulas' function names: step_k, out(p), …


def test_the_chinese_formulas_write_their_words_in_chinese():
    """Words inside a formula's \\text{} are prose too (\\text{how far } p … read as English)."""
    found = {
        where: sorted(words)
        for where, text in prose_texts().items()
        for inner in LATEX_TEXT.findall(text)
        if (words := english_words(inner.replace("\\_", "_")) - LATEX_CODE)
    }
    assert not found, found
    assert english_words("how far ") == {"how", "far"}  # what the check would have found


def test_tr_in_another_language_leaves_the_learners_alone():
    from course_lib.core.i18n import language, set_language, tr

    set_language("en")
    chinese = tr("updated in {ms:.0f} ms", "zh", ms=12.4)
    assert chinese != "updated in 12 ms" and "12" in chinese
    assert language() == "en" and tr("updated in {ms:.0f} ms", ms=12.4) == "updated in 12 ms"
    with pytest.raises(ValueError, match="language must be one of"):
        tr("ready", "fr")


def test_a_question_is_asked_in_a_given_language_without_switching():
    from course_lib.core.i18n import language, set_language
    from course_lib.core.questions import QUESTIONS

    set_language("en")
    q = next(iter(QUESTIONS.values()))
    assert q.text_in("zh") != q.text and q.reply(q.answer, "zh")[1] != q.reply(q.answer)[1]
    assert language() == "en"


def test_a_template_may_have_a_field_called_language():
    from course_lib.core.i18n import tr

    assert tr("edited in {language}", language="English") == "edited in English"


def test_series_lists_numbers_with_commas_in_english_and_enumeration_commas_in_chinese(chinese):
    assert series([1, 7, 46]) == "1、7、46"
    assert series([0.291, 0.1], ".2f") == "0.29、0.10"
    set_language("en")
    assert series([1, 7, 46]) == "1, 7, 46" and series([]) == ""


def test_grouped_leaves_four_digits_ungrouped_in_chinese_only(chinese):
    assert [grouped(n) for n in (800, 1000, 7500, 20000, -1200)] == [
        "800", "1000", "7500", "20,000", "-1200"
    ]  # fmt: skip
    set_language("en")
    assert [grouped(n) for n in (800, 1000, 20000)] == ["800", "1,000", "20,000"]
    assert grouped(np.int64(1200)) == "1,200"
    for wrong in (1000.0, "1000", True):
        with pytest.raises(TypeError, match="whole number"):
            grouped(wrong)


def test_display_width_counts_a_cjk_character_as_two_columns():
    assert [display_width(t) for t in ("xor", "异或任务", "d_ff 宽度", "")] == [3, 8, 9, 0]
    assert display_width("（，）") == 6  # full-width punctuation is wide too
