"""Chinese texts of the static site's own pages (devtools.site)."""

MESSAGES: dict[str, str] = {
    "Lessons": "课程",
    "Glossary": "术语表",
    "Lessons and glossary": "课程与术语表",
    "Previous": "上一课",
    "Next": "下一课",
    "Show the code": "显示代码",
    "Show the solution": "显示答案",
    "Precomputed frames: every combination of the controls.": (
        "预先计算的画面：控件取值的每一种组合。"
    ),
    "Precomputed frames: one control at a time; the others stay at their defaults. "
    "Run the notebook for every combination.": (
        "预先计算的画面：每次只改变一个控件，其余控件保持默认值。运行笔记本即可查看所有组合。"
    ),
    "The glossary of every lesson, on one page.": "各课的术语表，汇集在这一页。",
    "An interactive course on the Transformer's position-wise feed-forward network, in "
    "{lessons} lessons. Every figure and every slider works here in the browser, with no Python "
    "running; the notebooks let you change the code.": (
        "关于 Transformer 逐位置前馈网络（FFN）的交互式课程，共 {lessons} 课。"
        "这里的每张图和每个滑块都能直接在浏览器中使用，无需运行 Python；在笔记本中你还可以修改代码。"
    ),
    # the site's questions
    "Check my answer": "检查答案",
    "The result is hidden until you answer the question above.": "回答上面的问题之后，结果才会显示。",
    "Show it now": "现在就显示",
    "Questions on this page answered correctly: {right} of {total}": "本页答对的题目：{right}/{total}",
}
