"""第 6 课：定位事实，再编辑它（因果追踪、秩一编辑、按强度比较各种编辑、CounterFact 的分数）。

术语：rewrite / edit 编辑（改动一条事实，不用“改写”），paraphrase 同义句（同一条事实的另一种问法，
不用“改述”“另一种说法”），efficacy 有效性，
neighbourhood 邻域，specificity 局部性，rank-one 秩一，fine-tuning 微调，FT+L 约束微调。"""

MESSAGES = {
    # course_lib.lessons.l06_locating_and_editing: LESSON, the index's row
    "Locate a fact, then rewrite it (定位并编辑事实)": "定位事实，再编辑它（locate and rewrite a fact）",
    "locate where the model reads a fact by causal tracing, rewrite it with a rank-one edit, and compare edits fairly at matched strength with CounterFact's scores": "用因果追踪找出模型在哪里读出一条事实，再用秩一编辑把它改成新答案，并在相同强度下用 CounterFact 的指标公平地比较各种编辑方法",
    # the notebook: the model
    "first phrasing: {a} of 48 right; the other: {b} of 48": (
        "原句：48 条中答对 {a} 条；同义句：48 条中答对 {b} 条"
    ),
    '    "{one}"  /  "{two}"': '    "{one}"  /  "{two}"',
    "the model knows every fact in both phrasings": "无论原句还是同义句，模型都答对了每一条事实",
    # tracing
    "by construction: the subject's input, and the last stream at the last word, restore all": (
        "按构造必然成立：恢复主语处的输入，或恢复最后一个词处最后一层的残差流，都能把概率全部找回"
    ),
    "before the subject, nothing at all: the noise cannot reach back": (
        "恢复主语之前的位置什么也找不回：噪声传不到前面"
    ),
    "of the FFN outputs, layer 1's at the last word restores the most": (
        "在所有 FFN 输出中，恢复第 1 层最后一个词处的输出找回的最多"
    ),
    "layer 0's FFN at the subject, ROME's kind of site, restores under 5 %": (
        "恢复第 0 层主语处的 FFN 输出（ROME 所选的那类位置），找回的不到 5%"
    ),
    # the rank-one edit and its exercises
    "at most 2 of the 47 other facts change their answer": "其他 47 条事实中至多 2 条改变了答案",
    "other facts changed, C from k* alone: {a}; C over every key: {b}": (
        "答案被改变的其他事实数：C 只由 k* 算出时为 {a}，C 由所有键算出时为 {b}"
    ),
    "C from k* alone changes most of the 47 other facts, the corpus' C at most 2": (
        "C 只由 k* 算出时，其他 47 条事实大多被改变；用语料的 C，至多改变 2 条"
    ),
    # the sweep: methods and knobs
    "ROME, layer 0, subject": "ROME，第 0 层，主语",
    "FT+L": "约束微调 FT+L",
    "scale of the update": "更新的倍数",
    "λ": "λ",
    "Adam steps": "Adam 步数",
    "L∞ bound ε": "L∞ 界 ε",
    "{knob} {value:g}": "{knob} {value:g}",
    # the tables' headers
    "edit": "编辑",
    "strength": "强度",
    "p(new)": "p(新答案)",
    "ES": "ES",
    "PS": "PS",
    "NS": "NS",
    "S": "S",
    "others kept": "其他实体不变",
    "filler loss": "填充句损失",
    "reach 0.9": "达到 0.9",
    "paraphrase": "同义句",
    "same entity kept": "同一实体不变",
    "filler loss change": "填充句损失变化",
    "tested here": "本课检验了什么",
    "Meng et al. 2022": "Meng 等人 2022",
    "Hase et al. 2023": "Hase 等人 2023",
    # the sweep's claims
    "knowledge neurons, fine-tuning and FT+L lose neighbourhood as they grow stronger": (
        "知识神经元、微调和约束微调越强，邻域分数越低"
    ),
    "scaling the rank-one edit up trades neighbourhood for paraphrase": (
        "放大秩一编辑，是拿邻域分数去换同义句分数"
    ),
    "NS {a:.0f} against at most {b:.0f}": "NS 为 {a:.0f}，其他方法至多 {b:.0f}",
    # beside the paper
    # where to edit, ROME's safeguards
    "|ρ| below {c:.2f}, which chance passes 1 time in 20; Hase et al.: ρ = {h}": (
        "|ρ| 小于 {c:.2f}，随机情形每 20 次越过一次；Hase 等人：ρ = {h}"
    ),
    "a correlation as weak as Hase et al.'s would pass that bound seldom": (
        "像 Hase 等人那么弱的相关，很少能越过这个界限"
    ),
    "{p:.0%} of the time with 48 facts": "48 条事实下，只有 {p:.0%} 的机会",
    "with or without them, no subject edit carries over to the other phrasing": (
        "无论有没有这些措施，主语处的编辑都没有推广到同义句"
    ),
    # the demo
    "the first fact is rewritten, and its other phrasing now answers the new word": (
        "第一条事实编辑成功，它的同义句现在也给出新答案"
    ),
    "at most 2 of the other facts change": "其他事实中至多 2 条改变",
    # the scoreboard
    "where an FFN output matters most": "哪个 FFN 输出最重要",
    "subject, middle layers": "主语处，中间层",
    "last word, layer 1": "最后一个词处，第 1 层",
    "a subject edit carries over, PS": "主语处的编辑能否推广到同义句：PS",
    "every row's verdict is what this lesson measured above": "每一行的结论都是本课前面测得的",
    # course_lib.lessons.l06_locating_and_editing.figures
    "the residual stream": "残差流",
    "the attention's output": "注意力的输出",
    "input": "输入",
    "after layer {i}": "第 {i} 层之后",
    "neighbourhood score NS (%)": "邻域分数 NS（%）",
    "mean p(new) after the edited prompt": "编辑所用提示之后 p(新答案) 的平均值",
    "{method}, {strength}: {kept} of {others} other facts keep their answer; "
    "filler loss {change:+.2f}": (
        "{method}，{strength}：{others} 条其他事实中 {kept} 条保持原答案；填充句损失 {change:+.2f}"
    ),
    # course_lib.core.questions: trace-peak
    "The subject's input embedding is drowned in noise, then one FFN's output is restored from "
    'the clean run at one position of "the capital of velor is". In this two-layer model, which '
    "FFN output brings p(answer) back most?": (
        '主语的输入嵌入被噪声淹没，然后在 "the capital of velor is" 的某一个位置上，'
        "从干净的运行中恢复某一个 FFN 的输出。在这个两层模型里，恢复哪个 FFN 的输出能把 p(答案) 找回得最多？"
    ),
    "layer 0's, at the subject, velor": "第 0 层的，在主语 “velor” 处",
    "That is where Meng et al. find it in GPT-2 XL, in the middle layers. Here it brings back "
    "almost nothing: this model reads its facts at the last word.": (
        "Meng 等人在 GPT-2 XL 的中间层正是在这样的位置发现的。但在这里它几乎什么也找不回来：这个模型在最后一个词处读出事实。"
    ),
    "layer 1's, at the last word, is": "第 1 层的，在最后一个词 “is” 处",
    "Right: layer 0's attention moves the subject to the last word, and layer 1's FFN there "
    "writes the answer.": (
        "对：第 0 层的注意力把主语搬到最后一个词上，第 1 层在那里的 FFN 写出答案。"
    ),
    "layer 0's, at the last word, is": "第 0 层的，在最后一个词 “is” 处",
    "It brings some back, but less than layer 1's: in this model the fact is mostly read one "
    "layer later.": "能找回一些，但比第 1 层的少：在这个模型里，事实大多在后一层读出。",
    "layer 0's, at the relation word, capital": "第 0 层的，在关系词 “capital” 处",
    # lesson 6 after review: by construction, C from filler, equal p(new), Hase et al.
    "C": "C",
    "corpus' C": "语料的 C",
    "C from filler": "填充句的 C",
    "rank-one, layer 1, last word, C from filler": "秩一，第 1 层，最后一个词，填充句的 C",
    "about {share:.0%}": "约 {share:.0%}",
    "by construction: at the last word, layer 0's attention restores what block 0's stream does": (
        "按构造成立：在最后一个词处，恢复第 0 层的注意力与恢复第 0 块的残差流效果相同"
    ),
    "at the last word, what leaves block 0 brings back most of p(answer)": (
        "在最后一个词处，离开第 0 块的残差流找回了 p(答案) 的大部分"
    ),
    "by construction, C does not change p(new) at the edited prompt": (
        "按构造成立：C 不改变被编辑提示处的 p(新答案)"
    ),
    "against at most {b:.0f}": "其他方法至多 {b:.0f}",
    "{m}: tracing effect {lo:.2f} to {hi:.2f}, p(new) {a:.2f} to {b:.2f}, Spearman ρ {r:+.1f}": (
        "{m}：追踪效应 {lo:.2f} 到 {hi:.2f}，p(新答案) {a:.2f} 到 {b:.2f}，秩相关 ρ {r:+.1f}"
    ),
    "but where tracing points every fact's edits reach nearly the same p(new): little to predict": (
        "但在追踪指向的位置，每条事实的编辑都达到几乎相同的 p(新答案)：没有什么可预测的"
    ),
    "partly: a rank-one edit, not at ROME's site": "部分一致：是秩一编辑，但不在 ROME 的位置",
    "the rank-one edit keeps more neighbours than fine-tuning, NS": "秩一编辑比微调保住更多邻居，NS",
    "a fact's tracing effect predicts its edit's success": "一条事实的追踪效应能预测其编辑是否成功",
    "no: linear ρ {r:+.2f}, 652 facts": "否：线性 ρ {r:+.2f}，652 条事实",
    "no: |Spearman ρ| < 0.3, 48 facts": "否：|秩相关 ρ| < 0.3，48 条事实",
    "not contradicted; too weak to tell": "不矛盾；检验太弱，无法判断",
    # the rewriting grid's rows: the relations
    "capital": "首都",
    "colour": "颜色",
    "animal": "动物",
    "food": "食物",
    "C swapped (section 4)": "换用另一个 C（第 4 节）",
    "at either site, no correlation between a fact's tracing effect and its edit shows": (
        "在两个位置上，都看不出一条事实的追踪效应与其编辑之间有相关"
    ),
    # lesson 6: every edit along its knob, v* to one rule, read at p(new) 0.9
    "knowledge neurons, the course's edit": "知识神经元，本课程的编辑",
    "knowledge neurons, Meng et al.'s edit": "知识神经元，Meng 等人的编辑",
    "multiple": "倍数",
    "each edit along its knob; dashed: p(new) = {target:g}": "每种编辑走遍它的旋钮；虚线：p(新答案) = {target:g}",
    "paraphrase score PS (%)": "同义句分数 PS（%）",
    "site": "位置",
    "loss below 0.05": "损失低于 0.05",
    "median steps": "步数中位数",
    "still improving at 1,000": "1,000 步时仍在改进",
    "at the last word every search passes loss 0.05 within 10 steps": (
        "在最后一个词处，每次搜索都在 10 步之内让损失降到 0.05 以下"
    ),
    "at the subject ROME's search passes for few edits and the plain one for about half; "
    "some of each are still improving at the cap": (
        "在主语处，ROME 的搜索只对少数编辑做到，普通的搜索约对一半做到；两种都有一些到了步数上限还在改进"
    ),
    "{rome} and {plain} of 144": "144 次中分别为 {rome} 次和 {plain} 次",
    "from its full update to 1.5 times it, PS {a:.0f} to {b:.0f}, NS {c:.0f} to {d:.0f}": (
        "从完整更新到 1.5 倍，PS 从 {a:.0f} 升到 {b:.0f}，NS 从 {c:.0f} 降到 {d:.0f}"
    ),
    "the edits at the subject hardly carry over to the other phrasing, at any scale": (
        "主语处的编辑在任何系数下都几乎不推广到同义句"
    ),
    "PS at most {ps:.0f}": "PS 至多 {ps:.0f}",
    "every edit is read between two strengths within 0.01 of each other in p(new)": (
        "每次编辑都在 p(新答案) 相差不到 0.01 的两个强度之间读数"
    ),
    "on the {n} edits all six reach": "比较的是六种方法都达到的 {n} 次编辑",
    "at p(new) 0.9 the rank-one edit where tracing points keeps every neighbour, the others at most a third": (
        "p(新答案) 为 0.9 时，追踪指向处的秩一编辑保住了全部邻居，其他方法至多保住三分之一"
    ),
    "but it carries over to the other phrasing far less often": "但它推广到同义句的次数少得多",
    "PS {a:.0f} against at least {b:.0f}": "PS 为 {a:.0f}，其他方法至少 {b:.0f}",
    "the edits at the subject reach p(new) 0.9 for fewer than two thirds of the edits, fewer "
    "than any other edit but Meng et al.'s knowledge neurons": (
        "主语处的编辑达到 p(新答案) 0.9 的，不到三分之二；除了 Meng 等人的知识神经元编辑，"
        "比其他任何编辑都少"
    ),
    "{a} and {b} of 144": "144 次中分别为 {a} 次和 {b} 次",
    "read at": "读数处",
    "full update": "完整更新",
    "with C from filler, the rank-one edit keeps fewer neighbours and carries over far more": (
        "用填充句的 C，秩一编辑保住的邻居更少，推广到同义句的次数多得多"
    ),
    "NS {a:.0f}, PS {b:.0f} at p(new) 0.9": "p(新答案) 为 0.9 时 NS 为 {a:.0f}，PS 为 {b:.0f}",
    "and still keeps more neighbours than knowledge neurons, fine-tuning or FT+L": (
        "保住的邻居仍比知识神经元、微调和约束微调多"
    ),
    "this toy, at p(new) 0.9": "玩具模型，p(新答案) 为 0.9",
    "as in the paper, the best score is a rank-one edit's": "与论文一样，得分最高的是一种秩一编辑",
    "here where tracing points, with C from filler: S {s:.0f}": (
        "在这里是追踪指向处、用填充句的 C 的那一种：S 为 {s:.0f}"
    ),
    "as in the paper, FT+L scores above fine-tuning": "与论文一样，约束微调的得分高于微调",
    "unlike in the paper, ROME at the subject scores 0: at p(new) 0.9 no edit carries over": (
        "与论文不同，主语处的 ROME 得分为 0：p(新答案) 为 0.9 时，没有一次编辑推广到同义句"
    ),
    "at their own settings both take every edit here and keep no neighbour": (
        "在各自的设置下，两者在这里都让每次编辑生效，却一个邻居也没保住"
    ),
    "where its efficacy is the paper's, Meng et al.'s edit is within 10 points of its PS and NS": (
        "在有效性与论文相同的地方，Meng 等人的编辑的 PS 和 NS 与论文相差不到 10 分"
    ),
    "at most {g:.0f} points apart": "至多相差 {g:.0f} 分",
    "Meng et al.'s KN, GPT-2 XL": "Meng 等人的 KN，GPT-2 XL",
    "at the subject, a longer search takes more edits": "在主语处，搜索得越久，生效的编辑越多",
    "ES {a:.0f} and {b:.0f} after 30 steps, {c:.0f} and {d:.0f} after 1,000": (
        "30 步后 ES 为 {a:.0f} 和 {b:.0f}，1,000 步后为 {c:.0f} 和 {d:.0f}"
    ),
    "after any number of steps, no subject edit carries over, and both keep their neighbours": (
        "无论搜索多少步，主语处的编辑都不推广到同义句，也都保住了邻居"
    ),
    "other entities kept": "其他实体不变",
    "at equal p(new), ROME's safeguards keep more of the entity's other facts": (
        "在相同的 p(新答案) 下，ROME 的防护措施保住了该实体更多的其他事实"
    ),
    "{a:.2f} against {b:.2f}, {n} edits": "{a:.2f}，对比 {b:.2f}，共 {n} 次编辑",
    "restoring each state (section 2)": "逐个恢复状态（第 2 节）",
    "best score S": "最高分 S",
    "C swapped; v* to one rule": "换用另一个 C；v* 按同一条规则搜索",
    "FT+L scores above fine-tuning, S": "约束微调的得分高于微调：S",
    "Meng et al.'s KN at ES 28.7: PS, NS": "Meng 等人的 KN 在 ES 28.7 处：PS、NS",
    "within 10 points": "相差不到 10 分",
    "the edit along its knob (section 5)": "沿旋钮读这个编辑（第 5 节）",
    "every scale; v* to 1,000 steps (section 6)": "每种系数；v* 搜索到 1,000 步（第 6 节）",
    "{name} {s:.0f} at p(new) 0.9; ROME at the subject {r:.0f}": (
        "p(新答案) 为 0.9 时 {name} {s:.0f}；主语处的 ROME {r:.0f}"
    ),
    "{a:.0f} > {b:.0f} at p(new) 0.9; C from filler: {c:.0f}": (
        "p(新答案) 为 0.9 时 {a:.0f} > {b:.0f}；填充句的 C：{c:.0f}"
    ),
    "p(new) nearly the same for every fact at the last word (section 6)": (
        "在最后一个词处，每条事实的 p(新答案) 几乎相同（第 6 节）"
    ),
    "{a}, {b}": "{a}、{b}",
    "{a:.0f}, {b:.0f}": "{a:.0f}、{b:.0f}",
}
