"""Chinese texts shared by every lesson: claims' measured parts, checkers, demo status lines."""

MESSAGES: dict[str, str] = {
    # course_lib.claims
    # the measured part in brackets: a second colon would follow a statement that has one
    "{statement}: {shown}": "{statement}（{shown}）",
    "the lesson says: {line}; this run does not confirm it": "课程中的结论：{line}；本次运行未能证实",
    # course_lib.checks
    "{name}: {message}": "{name}：{message}",
    "passed, well done.": "通过，做得好。",
    "not attempted yet (the stub still raises NotImplementedError)": (
        "尚未作答（函数框架仍在抛出 NotImplementedError）"
    ),
    "your code raised {kind}: {error}": "你的代码抛出了 {kind}：{error}",
    "your function returned None: did you forget `{statement}`?": (
        "你的函数返回了 None：是不是忘了写 `{statement}`？"
    ),
    # course_lib.widgets
    "computing…": "计算中……",
    "training…": "训练中……",
    "accuracy": "准确率",
    "ready": "就绪",
    "error: {kind}: {error}": "错误：{kind}：{error}",
    "updated in {ms:.0f} ms": "已更新，用时 {ms:.0f} ms",
    # course_lib.plots.describe: alt text, read from a figure's own texts
    "Figure: {what}": "图：{what}",
    "a figure with {n} panel(s) and no text": "一张含 {n} 个子图、没有文字的图",
    "labels: {labels}": "标注：{labels}",
    "x: {label}": "横轴：{label}",
    "y: {label}": "纵轴：{label}",
    "legend: {labels}": "图例：{labels}",
    "panel {n}: {what}": "子图 {n}：{what}",
    # the measured part of claims, shared by the lessons (most specific patterns win)
    "max |difference| below 1e-5": "最大 |差值| 低于 1e-5",
    "max |difference| below 1e-12": "最大 |差值| 低于 1e-12",
    "course_lib {version}": "course_lib {version}",
    "PyTorch {version} (CPU is enough for every lesson)": "PyTorch {version}（每一课用 CPU 就够了）",
}
