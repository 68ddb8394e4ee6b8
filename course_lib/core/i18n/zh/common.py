"""Chinese texts shared by every lesson: claims' measured parts, checkers, demo status lines."""

MESSAGES: dict[str, str] = {
    # course_lib.core.claims
    # the measured part in brackets: a second colon would follow a statement that has one
    "{statement}: {shown}": "{statement}（{shown}）",
    "the lesson says: {line}; this run does not confirm it": "课程中的结论：{line}；本次运行未能证实",
    # course_lib.core.experiments.training: adam_steps' progress bar
    "training: Adam steps": "训练：Adam 步数",
    # course_lib.core.checks
    "{name}: {message}": "{name}：{message}",
    "passed, well done.": "通过，做得好。",
    "not attempted yet (the stub still raises NotImplementedError)": (
        "尚未作答（函数框架仍在抛出 NotImplementedError）"
    ),
    "your code raised {kind}: {error}": "你的代码抛出了 {kind}：{error}",
    "your function returned None: did you forget `{statement}`?": (
        "你的函数返回了 None：是不是忘了写 `{statement}`？"
    ),
    # course_lib.core.widgets
    "computing…": "计算中……",
    "accuracy": "准确率",
    "ready": "就绪",
    "error: {kind}: {error}": "错误：{kind}：{error}",
    "updated in {ms:.0f} ms": "已更新，用时 {ms:.0f} ms",
    # course_lib.core.plots.describe: alt text, read from a figure's own texts
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
    # the questions lessons ask (course_lib.core.questions)
    "check my answer": "检查我的答案",
    "pick an answer first": "请先选一个答案",
    "At d_model = 512, d_ff goes from 256 to 2048: eight times as wide. By how much do the FFN's FLOPs per token grow?": "d_model = 512 时，d_ff 从 256 增加到 2048，宽度变为原来的 8 倍。FFN 每个 token 的 FLOPs 变为原来的几倍？",
    "×8": "×8",
    "Right: both matrices have d_model·d_ff weights, so the work is linear in d_ff.": "对：两个矩阵都有 d_model·d_ff 个权重，所以计算量与 d_ff 成正比。",
    "×64": "×64",
    "That would be quadratic in d_ff; each weight is used once per token, and there are 2·d_model·d_ff of them.": "那是与 d_ff 的平方成正比；每个权重对每个 token 只用一次，而权重共有 2·d_model·d_ff 个。",
    "×4": "×4",
    "Both W1 and W2 grow with d_ff, not only one of them: count 2·d_model·d_ff.": "W1 和 W2 都随 d_ff 增大，而不只是其中一个：按 2·d_model·d_ff 来数。",
    "not at all": "完全不变",
    "FLOPs per token do not depend on the sequence length, but they do on the width.": "每个 token 的 FLOPs 与序列长度无关，但与宽度有关。",
    "One ReLU layer with 3 units draws 3 lines in the plane, in general position. Into how many linear regions do they cut it?": "一个有 3 个单元的 ReLU 层在平面上画出 3 条处于一般位置的直线。它们把平面切成多少个线性区域？",
    "3": "3",
    "3 lines make more pieces than lines: each one cuts the ones it crosses.": "3 条直线切出的块数比直线多：每条直线都会切开它穿过的区域。",
    "6": "6",
    "6 is three lines through one point; in general position no three meet.": "6 是三条直线交于一点的情形；处于一般位置时，没有三条直线交于一点。",
    "7": "7",
    "Right: 1 + n + n(n−1)/2 = 1 + 3 + 3; the middle triangle is the 7th region.": "对：1 + n + n(n−1)/2 = 1 + 3 + 3；中间的小三角形就是第 7 个区域。",
    "8": "8",
    "8 = 2³ on/off patterns, but three lines in general position leave one pattern without a region.": "开/关模式共有 8 = 2³ 种，但处于一般位置的三条直线总会让其中一种模式没有对应的区域。",
    "none": "无",  # lessons 9 and 10
    # course_lib.core.experiments.memory: knowledge_neuron_effects' progress bar
    "scaling each fact's top {top} units: facts": "逐条事实缩放归因最高的 {top} 个单元：事实",
    # parts joined in code (core.plots.describe's alt text, lesson 10's table, lesson 9's cells)
    ", ": "、",
    "; ": "；",
    ". ": "。",
    "number of units": "单元数",
    # lesson 2's task, retrained in lesson 7: the task names (lesson 2's other three in its catalogue)
    "spiral": "螺旋任务",
}
