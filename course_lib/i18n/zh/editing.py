"""第 6 课：定位并改写事实（因果追踪、秩一编辑、按强度比较各种编辑、CounterFact 的分数）。

术语：rewrite 改写（一次编辑），paraphrase 同义句（事实的另一种说法），efficacy 有效性，
neighbourhood 邻域，specificity 特异性，rank-one 秩一，fine-tuning 微调，FT+L 约束微调。"""

MESSAGES = {
    # the notebook: the model
    "first phrasing: {a} of 48 right; the other: {b} of 48": (
        "第一种说法：48 条中答对 {a} 条；另一种说法：48 条中答对 {b} 条"
    ),
    '    "{one}"  /  "{two}"': '    "{one}"  /  "{two}"',
    "the model knows every fact in both phrasings": "模型在两种说法下都知道每一条事实",
    # tracing
    "by construction: the subject's input, and the last stream at the last word, restore all": (
        "按构造成立：恢复主语处的输入，或恢复最后一个词处最后的残差流，都能找回全部"
    ),
    "before the subject, nothing at all: the noise cannot reach back": (
        "主语之前的位置什么也找不回来：噪声影响不到前面"
    ),
    "layer 0's attention at the last word restores as much as the whole stream there": (
        "在最后一个词处，第 0 层注意力的输出找回的和那里整个残差流一样多"
    ),
    "of the FFN outputs, layer 1's at the last word restores the most": (
        "在各个 FFN 输出中，第 1 层在最后一个词处找回的最多"
    ),
    "layer 0's FFN at the subject, ROME's kind of site, restores under 5 %": (
        "第 0 层 FFN 在主语处（ROME 那类位置）找回的不到 5%"
    ),
    # the rank-one edit and its exercises
    "at most 2 of the 47 other facts change their answer": "其他 47 条事实中至多 2 条改变了答案",
    "other facts changed, C from k* alone: {a}; C over every key: {b}": (
        "被改变的其他事实数：只用 k* 得到的 C：{a}；用所有键得到的 C：{b}"
    ),
    "C from k* alone changes most of the 47 other facts, the corpus' C at most 2": (
        "只用 k* 得到的 C 会改变其他 47 条事实中的大多数，用语料的 C 至多改变 2 条"
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
    "others kept": "其他实体保持",
    "filler loss": "填充句损失",
    "reach 0.9": "达到 0.9",
    "matched S": "对齐后 S",
    "efficacy": "有效性",
    "paraphrase": "同义句",
    "same entity kept": "同一实体保持",
    "filler loss change": "填充句损失变化",
    "tested here": "本课检验了什么",
    "Meng et al. 2022": "Meng 等人 2022",
    "Hase et al. 2023": "Hase 等人 2023",
    "rank-one": "秩一",
    # the sweep's claims
    "at their own strengths the edits are not equally strong": "按各自的强度，这些编辑并不一样强",
    "mean p(new) from {lo:.1f} to {hi:.1f}": "p(新答案) 的平均值从 {lo:.1f} 到 {hi:.1f}",
    "fine-tuning's 30 steps take every edit and keep no neighbour": (
        "微调 30 步让每次编辑都生效，却一个邻居也没保住"
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
        "放大秩一编辑，就是用邻域去换同义句"
    ),
    "PS {a:.0f} to {b:.0f}, NS {c:.0f} to {d:.0f}": "PS 从 {a:.0f} 到 {b:.0f}，NS 从 {c:.0f} 到 {d:.0f}",
    "at matched p(new), the rank-one edit keeps nearly every neighbour, the others almost none": (
        "在相同的 p(新答案) 下，秩一编辑几乎保住了所有邻居，其他方法几乎一个也没保住"
    ),
    "NS {a:.0f} against at most {b:.0f}": "NS 为 {a:.0f}，其他方法至多 {b:.0f}",
    "knowledge neurons reach p(new) 0.9 on some edits only": (
        "知识神经元只在部分编辑上让 p(新答案) 达到 0.9"
    ),
    "{n} of 144": "144 次中 {n} 次",
    "at that strength the rank-one edit carries over less than fine-tuning": (
        "在这个强度下，秩一编辑推广到另一种说法的次数比微调少"
    ),
    "PS {a:.0f} against {b:.0f}": "PS 为 {a:.0f}，微调为 {b:.0f}",
    # beside the paper
    "as in the paper, the best score at the methods' own strengths is a rank-one edit's": (
        "与论文一样，按各自的强度，得分最高的是一种秩一编辑"
    ),
    "here where tracing points, S {s:.0f}": "这里是追踪指向处的那一种，S 为 {s:.0f}",
    "unlike in the paper, knowledge neurons at λ = 1 take every edit (its ES {paper})": (
        "与论文不同，λ = 1 的知识神经元让每次编辑都生效，而论文中它的 ES 只有 {paper}"
    ),
    "ES {es:.0f}, NS {ns:.0f}": "ES 为 {es:.0f}，NS 为 {ns:.0f}",
    "and ROME at the subject does far worse here than in GPT-2 XL": (
        "而主语处的 ROME 在这里远不如在 GPT-2 XL 上"
    ),
    "ES {es:.0f}, PS {ps:.0f}": "ES 为 {es:.0f}，PS 为 {ps:.0f}",
    # where to edit, ROME's safeguards
    "{m}: tracing effect {lo:.2f} to {hi:.2f}, Spearman ρ with p(new) {r:+.2f}": (
        "{m}：追踪效应从 {lo:.2f} 到 {hi:.2f}，与 p(新答案) 的斯皮尔曼秩相关 ρ 为 {r:+.2f}"
    ),
    "at either site, a fact's tracing effect does not predict its edit's success": (
        "在两个位置上，一条事实的追踪效应都不能预测它的编辑是否成功"
    ),
    "|ρ| below 0.3; Hase et al.: ρ = {h}": "|ρ| 小于 0.3；Hase 等人：ρ = {h}",
    "ROME's safeguards keep more of the entity's other facts": (
        "ROME 的防护措施保住了该实体更多的其他事实"
    ),
    "{a:.2f} against {b:.2f}": "{a:.2f}，对比 {b:.2f}",
    "with or without them, no subject edit carries over to the other phrasing": (
        "无论有没有这些措施，主语处的编辑都没有推广到另一种说法"
    ),
    # the demo
    "the first fact is rewritten, and its other phrasing now answers the new word": (
        "第一条事实被改写了，它的另一种说法现在也给出新答案"
    ),
    "at most 2 of the other facts change": "其他事实中至多 2 条改变",
    # the scoreboard
    "where an FFN output matters most": "哪个 FFN 输出最重要",
    "subject, middle layers": "主语处，中间层",
    "last word, layer 1": "最后一个词处，第 1 层",
    "attention moves the subject to the last word first": "注意力先把主语搬到最后一个词上",
    "best score S at the methods' own strengths": "按各自强度的最高分 S",
    "fine-tuning's neighbourhood NS, against unedited": "微调的邻域分数 NS，对比未编辑的模型",
    "at every strength (section 4)": "在每种强度下都如此（第 4 节）",
    "knowledge neurons' efficacy ES": "知识神经元的有效性 ES",
    "ES grows with λ (section 4)": "ES 随 λ 增大（第 4 节）",
    "a subject edit carries over, PS": "主语处的编辑推广到同义句，PS",
    "rank correlation of a fact's tracing effect and its edit": (
        "一条事实的追踪效应与其编辑效果的秩相关"
    ),
    "every row's verdict is what this lesson measured above": "每一行的结论都是本课前面测得的",
    # course_lib.plots.editing
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
    # course_lib.questions: trace-peak
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
}
