"""第 6 课：定位事实，再编辑它（因果追踪、秩一编辑、按强度比较各种编辑、CounterFact 的分数）。

术语：rewrite / edit 编辑（改动一条事实，不用“改写”），paraphrase 同义句（同一条事实的另一种问法，
不用“改述”“另一种说法”），efficacy 有效性，
neighbourhood 邻域，specificity 特异性，rank-one 秩一，fine-tuning 微调，FT+L 约束微调。"""

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
    "S, p(new) ≥ 0.9": "S（p(新答案) ≥ 0.9）",
    "PS {a:.0f} against {b:.0f} with the corpus' C": "PS 为 {a:.0f}，用语料的 C 时为 {b:.0f}",
    "efficacy": "有效性",
    "paraphrase": "同义句",
    "same entity kept": "同一实体不变",
    "filler loss change": "填充句损失变化",
    "tested here": "本课检验了什么",
    "Meng et al. 2022": "Meng 等人 2022",
    "Hase et al. 2023": "Hase 等人 2023",
    "rank-one": "秩一",
    # the sweep's claims
    "at their own strengths the edits are not equally strong": "各取默认强度时，这些编辑的强弱并不相同",
    "mean p(new) from {lo:.1f} to {hi:.1f}": "p(新答案) 的平均值从 {lo:.1f} 到 {hi:.1f}",
    "fine-tuning's 30 steps take every edit and keep no neighbour": (
        "微调 30 步让每次编辑都生效，却没有保住任何一个邻居"
    ),
    "the rank-one edit where tracing points passes p(new) 0.95 at every strength": (
        "追踪指向处的秩一编辑在每种强度下 p(新答案) 都超过 0.95"
    ),
    "knowledge neurons, fine-tuning and FT+L lose neighbourhood as they grow stronger": (
        "知识神经元、微调和约束微调越强，邻域分数越低"
    ),
    "the edits at the subject never pass mean p(new) 0.6": (
        "主语处的编辑，p(新答案) 的平均值从未超过 0.6"
    ),
    "scaling the rank-one edit up trades neighbourhood for paraphrase": (
        "放大秩一编辑，是拿邻域分数去换同义句分数"
    ),
    "PS {a:.0f} to {b:.0f}, NS {c:.0f} to {d:.0f}": "PS 从 {a:.0f} 到 {b:.0f}，NS 从 {c:.0f} 到 {d:.0f}",
    "NS {a:.0f} against at most {b:.0f}": "NS 为 {a:.0f}，其他方法至多 {b:.0f}",
    "knowledge neurons reach p(new) 0.9 on some edits only": (
        "知识神经元只在部分编辑上让 p(新答案) 达到 0.9"
    ),
    "{n} of 144": "144 次中 {n} 次",
    "at that strength the rank-one edit carries over less than fine-tuning": (
        "在这个强度下，秩一编辑推广到同义句的次数比微调少"
    ),
    "PS {a:.0f} against {b:.0f}": "PS 为 {a:.0f}，微调为 {b:.0f}",
    # beside the paper
    "as in the paper, the best score at the methods' own strengths is a rank-one edit's": (
        "与论文一样：各取默认强度时，得分最高的是一种秩一编辑"
    ),
    "here where tracing points, S {s:.0f}": "在这里是追踪指向处的那一种，S 为 {s:.0f}",
    "unlike in the paper, knowledge neurons at λ = 1 take every edit (its ES {paper})": (
        "与论文不同，λ = 1 的知识神经元让每次编辑都生效，而论文中它的 ES 只有 {paper}"
    ),
    "ES {es:.0f}, NS {ns:.0f}": "ES 为 {es:.0f}，NS 为 {ns:.0f}",
    "and ROME at the subject does far worse here than in GPT-2 XL": (
        "而主语处的 ROME 在这里远不如在 GPT-2 XL 上"
    ),
    "ES {es:.0f}, PS {ps:.0f}": "ES 为 {es:.0f}，PS 为 {ps:.0f}",
    # where to edit, ROME's safeguards
    "|ρ| below 0.3; Hase et al.: ρ = {h}": "|ρ| 小于 0.3；Hase 等人：ρ = {h}",
    "{a:.2f} against {b:.2f}": "{a:.2f}，对比 {b:.2f}",
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
    "attention moves the subject to the last word first": "注意力先把主语搬到最后一个词上",
    "best score S at the methods' own strengths": "各取默认强度时的最高分 S",
    "fine-tuning's neighbourhood NS, against unedited": "微调的邻域分数 NS，对比未编辑的模型",
    "at every strength (section 4)": "在每种强度下都如此（第 4 节）",
    "knowledge neurons' efficacy ES": "知识神经元的有效性 ES",
    "ES grows with λ (section 4)": "ES 随 λ 增大（第 4 节）",
    "a subject edit carries over, PS": "主语处的编辑能否推广到同义句：PS",
    "every row's verdict is what this lesson measured above": "每一行的结论都是本课前面测得的",
    # course_lib.lessons.l06_locating_and_editing.figures
    "the residual stream": "残差流",
    "the attention's output": "注意力的输出",
    "input": "输入",
    "after layer {i}": "第 {i} 层之后",
    "neighbourhood score NS (%)": "邻域分数 NS（%）",
    "other entities' facts kept": "其他实体的事实保持原答案的比例",
    "mean p(new) after the edited prompt": "编辑所用提示之后 p(新答案) 的平均值",
    "each edit at six strengths; the ring marks its default": (
        "每种编辑取六种强度；圆圈标出它的默认强度"
    ),
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
    "scale": "系数",
    "p(new) ≥ 0.9": "p(新答案) ≥ 0.9",
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
    "knowledge neurons' efficacy grows with λ": "知识神经元的有效性随 λ 增大",
    "ES {a:.0f} at λ = {lo:g} to {b:.0f} at λ = {hi:g}": (
        "ES 从 λ = {lo:g} 时的 {a:.0f} 升到 λ = {hi:g} 时的 {b:.0f}"
    ),
    "at p(new) ≥ 0.9, the rank-one edit keeps nearly every neighbour, the others almost none": (
        "p(新答案) ≥ 0.9 时，秩一编辑几乎保住了所有邻居，其他方法几乎一个也没保住"
    ),
    "by construction, C does not change p(new) at the edited prompt": (
        "按构造成立：C 不改变被编辑提示处的 p(新答案)"
    ),
    "with C from text that states no fact, the rank-one edit keeps far fewer neighbours": (
        "用不陈述事实的文本计算 C，秩一编辑保住的邻居少得多"
    ),
    "NS {a:.0f} against {b:.0f}, at p(new) ≥ 0.9": "p(新答案) ≥ 0.9 时，NS 为 {a:.0f}，对比 {b:.0f}",
    "against at most {b:.0f}": "其他方法至多 {b:.0f}",
    "and it carries over to the other phrasing far more often": "而且推广到同义句的次数多得多",
    "{m}: tracing effect {lo:.2f} to {hi:.2f}, p(new) {a:.2f} to {b:.2f}, Spearman ρ {r:+.1f}": (
        "{m}：追踪效应 {lo:.2f} 到 {hi:.2f}，p(新答案) {a:.2f} 到 {b:.2f}，秩相关 ρ {r:+.1f}"
    ),
    "but where tracing points every fact's edits reach nearly the same p(new): little to predict": (
        "但在追踪指向的位置，每条事实的编辑都达到几乎相同的 p(新答案)：没有什么可预测的"
    ),
    "at equal p(new), ROME's safeguards keep no more of the entity's other facts": (
        "在相同的 p(新答案) 下，ROME 的防护措施并没有多保住该实体的其他事实"
    ),
    "partly: a rank-one edit, not at ROME's site": "部分一致：是秩一编辑，但不在 ROME 的位置",
    "the rank-one edit keeps more neighbours than fine-tuning, NS": "秩一编辑比微调保住更多邻居，NS",
    "a fact's tracing effect predicts its edit's success": "一条事实的追踪效应能预测其编辑是否成功",
    "no: linear ρ {r:+.2f}, 652 facts": "否：线性 ρ {r:+.2f}，652 条事实",
    "no: |Spearman ρ| < 0.3, 48 facts": "否：|秩相关 ρ| < 0.3，48 条事实",
    "not contradicted; too weak to tell": "不矛盾；检验太弱，无法判断",
    "p(new) near 1 for every fact at the last word (section 6)": (
        "在最后一个词处，每条事实的 p(新答案) 都接近 1（第 6 节）"
    ),
    # the rewriting grid's rows: the relations
    "capital": "首都",
    "colour": "颜色",
    "animal": "动物",
    "food": "食物",
    "{a:.0f} > {b:.0f} at p(new) ≥ 0.9; C from filler: {c:.0f}, at the full update {d:.0f}": (
        "p(新答案) ≥ 0.9 时 {a:.0f} > {b:.0f}；填充句的 C：{c:.0f}，完整更新时 {d:.0f}"
    ),
    "partly: at a full update only with the corpus' C": "部分一致：完整更新时，只有用语料的 C 才成立",
    "C swapped (section 4)": "换用另一个 C（第 4 节）",
    "but more than the baselines at their first grid point past 0.9": (
        "但仍比各个基线在越过 0.9 的第一个网格点上保住的多"
    ),
    "at either site, no correlation between a fact's tracing effect and its edit shows": (
        "在两个位置上，都看不出一条事实的追踪效应与其编辑之间有相关"
    ),
    "the rank-one edit ends no weaker in p(new) than the three others": (
        "秩一编辑停下时，p(新答案) 不低于另外三种方法"
    ),
}
