"""第 6 课：定位事实，再编辑它（因果追踪、秩一编辑、按强度比较各种编辑、CounterFact 的分数）。

术语：rewrite / edit 编辑（改动一条事实，不用“改写”），paraphrase 同义句（同一条事实的另一种问法，
不用“改述”“另一种说法”），efficacy 有效性，
neighbourhood 邻域，specificity 局部性，rank-one 秩一，fine-tuning 微调，FT+L 约束微调，
KL term 相对熵项（正文首次出现时注明即 KL 散度项；输出里不写 KL）。"""

MESSAGES = {
    # course_lib.lessons.l06_locating_and_editing: LESSON, the index's row
    "Locate a fact, then rewrite it (定位并编辑事实)": "定位事实，再编辑它",
    "locate where the model reads a fact by causal tracing, rewrite it with a rank-one edit, and compare edits fairly at matched strength with CounterFact's scores": "用因果追踪找出模型在哪里读出一条事实，再用秩一编辑把它改成新答案；然后把各种编辑方法调到同样的编辑强度，再用 CounterFact 的指标公平比较",
    # the notebook: the model
    "first phrasing: {a} of 48 right; the other: {b} of 48": (
        "原句：48 条中答对 {a} 条；同义句：48 条中答对 {b} 条"
    ),
    '    "{one}"  /  "{two}"': "    “{one}”  /  “{two}”",
    "the model knows every fact in both phrasings": "无论原句还是同义句，模型都答对了每一条事实",
    # tracing
    "by construction: the subject's input, and the last stream at the last word, restore all": (
        "按构造成立：恢复主语处的输入，或恢复最后一个词处最后一个块的残差流，都能把概率全部找回"
    ),
    "by construction (those cells are not run): before the subject, nothing at all": (
        "按构造成立（这些位置没有运行）：恢复主语之前的位置什么也找不回"
    ),
    # the rank-one edit and its exercises
    "at most 2 of the 47 other facts change their answer": "其他 47 条事实中至多 2 条改变了答案",
    "other facts changed, C from k* alone: {a} and {b}; C over every key: {c} and {d}": (
        "答案被改变的其他事实数：C 只由 k* 算出时为 {a} 和 {b}，C 由所有键算出时为 {c} 和 {d}"
    ),
    "on the two facts tried, C from k* alone changes most of the 47 other facts, the corpus' C at most 2": (
        "在试过的两条事实上，C 只由 k* 算出时，其他 47 条事实大多被改变；用语料的 C，至多改变 2 条"
    ),
    # the sweep: methods and knobs
    "ROME, layer 0, subject": "类 ROME，第 0 层，主语",
    "FT+L": "约束微调 FT+L",
    "scale of the update": "更新的系数",
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
    "filler loss": "填充句损失变化",
    "reach 0.9": "达到 0.9",
    "paraphrase": "同义句上生效的比例",
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
    # beside the paper
    # where to edit, ROME's safeguards
    "with or without them, no subject edit carries over to the other phrasing": (
        "无论有没有这些措施，主语处的编辑都没有推广到同义句"
    ),
    # the demo
    "the first fact is rewritten, and its other phrasing now answers the new word": (
        "第一条事实已编辑成功，它的同义句现在也给出新答案"
    ),
    "at most 2 of the other facts change": "其他事实至多有 2 条改变答案",
    # the scoreboard
    "where an FFN output matters most": "哪个 FFN 输出最重要",
    "subject, middle layers": "主语处，中间层",
    "last word, layer 1": "最后一个词处，第 1 层",
    "a subject edit carries over, PS": "PS：主语处的编辑推广到同义句",
    "every row's verdict is what this lesson measured above": "每一行的结论都是本课前面测得的",
    # course_lib.lessons.l06_locating_and_editing.figures
    "the residual stream": "残差流",
    "the attention's output": "注意力的输出",
    "input": "输入",
    "after layer {i}": "第 {i} 块之后",
    "neighbourhood score NS (%)": "邻域分数 NS（%）",
    "mean p(new) after the edited prompt": "在被编辑提示上 p(新答案) 的平均值",
    "{method}, {strength}: {kept} of {others} other facts keep their answer; "
    "filler loss {change:+.2f}": (
        "{method}，{strength}：{others} 条其他事实中 {kept} 条保持原答案；填充句损失变化 {change:+.2f}"
    ),
    # course_lib.core.questions: trace-peak
    "The subject's input embedding is drowned in noise, then one FFN's output is restored from "
    'the clean run at one position of "the capital of velor is". In this two-layer model, which '
    "FFN output brings p(answer) back most?": (
        "主语的输入嵌入被噪声淹没，然后在“the capital of velor is”的某一个位置上，"
        "从干净运行中恢复某一个 FFN 的输出。在这个两层模型里，恢复哪个 FFN 的输出能把 p(答案) 找回得最多？"
    ),
    "layer 0's, at the subject, velor": "第 0 层，主语“velor”处",
    "That is where Meng et al. find it in GPT-2 XL, in the middle layers. Here it brings back "
    "almost nothing: restoring states at the last word brings back the most.": (
        "Meng 等人在 GPT-2 XL 中发现，FFN 的作用峰值正在这类位置：主语处、中间层。但在这里它几乎什么也找不回来：恢复最后一个词处的状态，找回的才最多。"
    ),
    "layer 1's, at the last word, is": "第 1 层，最后一个词“is”处",
    "Right: layer 0's attention moves the subject to the last word, and restoring layer 1's FFN "
    "output there brings back the most.": (
        "对：第 0 层的注意力把主语的信息搬到最后一个词上，在那里恢复第 1 层 FFN 的输出，找回的最多。"
    ),
    "layer 0's, at the last word, is": "第 0 层，最后一个词“is”处",
    "It brings some back, but less than layer 1's: restoring layer 1's FFN output brings back "
    "more.": "能找回一些，但比第 1 层的少：恢复第 1 层 FFN 的输出，找回的更多。",
    "layer 0's, at the relation word, capital": "第 0 层，关系词“capital”处",
    # lesson 6 after review: by construction, C from filler, equal p(new), Hase et al.
    "C": "C",
    "corpus' C": "语料的 C",
    "C from filler": "填充句的 C",
    "rank-one, layer 1, last word, C from filler": "秩一，第 1 层，最后一个词，填充句的 C",
    "about {share:.0%}": "约 {share:.0%}",
    "by construction: at the last word, layer 0's attention restores what block 0's stream does": (
        "按构造成立：在最后一个词处，恢复第 0 层注意力的输出，与恢复第 0 块输出的残差流效果相同"
    ),
    "by construction, C does not change p(new) at the edited prompt": (
        "按构造成立：C 不改变在被编辑提示上的 p(新答案)"
    ),
    "causal tracing again: sets of 10 draws": "再做因果追踪：每组 10 次抽样",
    "a fact's tracing effect predicts its edit's success": "一条事实的追踪效应能预测它的编辑是否成功",
    "no: linear ρ {r:+.2f}, 652 facts": "否：线性 ρ {r:+.2f}，652 条事实",
    # the rewriting grid's rows: the relations
    "capital": "首都",
    "colour": "颜色",
    "animal": "动物",
    "food": "食物",
    "C swapped (section 4)": "换用另一个 C（第 4 节）",
    # lesson 6: every edit along its knob, v* to one rule, read at p(new) 0.9
    "knowledge neurons, the course's edit": "知识神经元，本课程的编辑",
    "knowledge neurons, Meng et al.'s edit": "知识神经元，Meng 等人的编辑",
    "multiple": "倍数",
    "each edit along its knob; dashed: p(new) = {target:g}": "每种编辑逐级加强；虚线：p(新答案) = {target:g}",
    "paraphrase score PS (%)": "同义句分数 PS（%）",
    "site": "编辑点",
    "loss below 0.05": "损失低于 0.05",
    "median steps": "步数中位数",
    "at the last word every search passes loss 0.05 within 10 steps": (
        "在最后一个词处，每次搜索都在 10 步之内让损失降到 0.05 以下"
    ),
    "on all 144 edits, from its full update to 1.5 times it, PS {a:.0f} to {b:.0f}, NS {c:.0f} "
    "to {d:.0f}": (
        "在全部 144 次编辑上，从完整更新到 1.5 倍，PS 从 {a:.0f} 升到 {b:.0f}，NS 从 {c:.0f} 降到 {d:.0f}"
    ),
    "PS at most {ps:.0f}": "PS 至多 {ps:.0f}",
    "every edit is read between two strengths within 0.01 of each other in p(new)": (
        "每次编辑都在 p(新答案) 相差不到 0.01 的两个强度之间读数"
    ),
    "but, with the corpus' C, it carries over to the other phrasing far less often": (
        "但用语料的 C 时，它推广到同义句的次数少得多，置信区间不含 0"
    ),
    "on these point estimates": "只看这些点估计",
    "the edits at the subject reach p(new) 0.9 for fewer than two thirds of the edits, fewer "
    "than any other edit but Meng et al.'s knowledge neurons": (
        "主语处的编辑只有不到三分之二达到 p(新答案) 0.9；"
        "除 Meng 等人的知识神经元编辑外，比其他任何编辑都少"
    ),
    "{a} and {b} of 144": "144 次中，类 ROME {a} 次，普通编辑 {b} 次",
    "read at": "读数处",
    "full update": "完整更新",
    "with C from filler, the rank-one edit keeps fewer neighbours and carries over far more": (
        "用填充句的 C，秩一编辑保住的邻居更少，推广到同义句的次数多得多"
    ),
    "NS {a:.0f}, PS {b:.0f} at p(new) 0.9": "p(新答案) 为 0.9 时 NS 为 {a:.0f}，PS 为 {b:.0f}",
    "and still keeps more neighbours than knowledge neurons, fine-tuning or FT+L": (
        "保住的邻居仍比知识神经元、微调和约束微调多，置信区间不含 0"
    ),
    "this toy, at p(new) 0.9": "玩具模型，p(新答案) 为 0.9",
    "at their own settings both take every edit here and keep no neighbour": (
        "在各自的设置下，两者在这里都让每次编辑生效，却一个邻居也没保住"
    ),
    "Meng et al.'s KN, GPT-2 XL": "Meng 等人的 KN，GPT-2 XL",
    "at the subject, a longer search takes more edits": "在主语处，搜索得越久，生效的编辑越多",
    "ES {a:.0f} and {b:.0f} after 30 steps, {c:.0f} and {d:.0f} after 1,000": (
        "30 步后 ES 为 {a:.0f} 和 {b:.0f}，1000 步后为 {c:.0f} 和 {d:.0f}"
    ),
    "after any number of steps, no subject edit carries over, and both keep their neighbours": (
        "无论搜索多少步，主语处的编辑都不推广到同义句，也都保住了邻居"
    ),
    "other entities kept": "其他实体不变",
    "restoring each state (section 2)": "逐个恢复状态（第 2 节）",
    "best score S": "最高的 S",
    "FT+L scores above fine-tuning, S": "S：约束微调高于微调",
    "the edit along its knob (section 5)": "沿旋钮逐个强度读数（第 5 节）",
    "every scale; v* to 1,000 steps (section 6); the corpus' C only": (
        "每种系数；v* 搜索到 1000 步（第 6 节）；只用了语料的 C"
    ),
    "not comparable: the corpus' C holds the paraphrase itself; the paper's, from Wikipedia, no "
    "CounterFact prompt": (
        "不可比：语料的 C 含有同义句本身；论文的 C 取自维基百科，不含 CounterFact 的提示"
    ),
    "{name} {s:.0f} at p(new) 0.9; ROME at the subject {r:.0f}": (
        "p(新答案) 为 0.9 时：“{name}”的 S 为 {s:.0f}；主语处的类 ROME 编辑为 {r:.0f}"
    ),
    "{a:.0f} > {b:.0f} at p(new) 0.9; C from filler: {c:.0f}; the subject edits: {d:.0f} and {e:.0f}": (
        "p(新答案) 为 0.9 时 {a:.0f} > {b:.0f}；填充句的 C 为 {c:.0f}；主语处的两种编辑为 {d:.0f} 和 {e:.0f}"
    ),
    # lesson 6 after the second review: reading points, intervals over facts, changes from unedited
    "Meng et al.'s KN, change from unedited: ΔES, ΔPS, ΔNS": "Meng 等人的 KN，相对未编辑模型的变化：ΔES、ΔPS、ΔNS",
    "at each p(new) the best S is the rank-one edit's with C from filler; at the full update, the corpus' C scores higher": "在每个 p(新答案) 处，S 最高的都是用填充句 C 的秩一编辑；完整更新时，用语料 C 的得分更高",
    "at equal p(new), ROME's safeguards keep more of the entity's other facts, on prompts its KL term watches": "在相同的 p(新答案) 下，ROME 的防护措施保住了该实体更多的其他事实，置信区间不含 0；不过评分所用的提示，正是其相对熵项监控的那些",
    "at the subject the toy could not tell: neither ρ passes 5 % after Holm's correction, and each interval holds a ρ as weak as Hase et al.'s": "在主语处，玩具模型无法判断：经 Holm 校正后，两个 ρ 在 5% 水平上都不显著，而且每个区间都包含像 Hase 等人那么弱的 ρ",
    "by construction, at the paper's ES level the toy's edit is a far larger change than theirs": "按构造成立：在论文的 ES 水平处，玩具模型的编辑带来的变化比论文大得多",
    "by construction, where tracing points every fact's edits reach nearly the same p(new)": "按构造成立：在追踪所指的编辑点，每条事实的编辑得到的 p(新答案) 几乎相同",
    "C swapped at the last word only; v* to one rule; read at 0.8 to 0.95 (section 4)": "只在最后一个词处换过 C；v* 按同一规则搜索；在 0.8 到 0.95 处读数（第 4 节）",
    "NS {a:.0f} against at most {b:.0f}; {d:+.0f}, 95 % interval over facts {lo:+.0f} to {hi:+.0f}": "NS {a:.0f}，其他方法至多 {b:.0f}；相差 {d:+.0f}，95% 置信区间 {lo:+.0f} 到 {hi:+.0f}",
    "NS: 0.8 / 0.9 / 0.95": "NS：0.8 / 0.9 / 0.95",
    "PS {a:.0f} against at least {b:.0f}; {d:+.0f}, 95 % interval over facts {lo:+.0f} to {hi:+.0f}": "PS {a:.0f}，其他方法至少 {b:.0f}；相差 {d:+.0f}，95% 置信区间 {lo:+.0f} 到 {hi:+.0f}",
    "PS: 0.8 / 0.9 / 0.95": "PS：0.8 / 0.9 / 0.95",
    "S: 0.8 / 0.9 / 0.95": "S：0.8 / 0.9 / 0.95",
    "against at most {b:.0f}; {d:+.0f}, 95 % interval over facts {lo:+.0f} to {hi:+.0f}": "其他方法至多 {b:.0f}；相差 {d:+.0f}，95% 置信区间 {lo:+.0f} 到 {hi:+.0f}",
    "at every p(new) read, the rank-one edit keeps more neighbours and carries over less than knowledge neurons, fine-tuning or FT+L": "无论在哪个 p(新答案) 处读数，秩一编辑保住的邻居都比知识神经元、微调和约束微调多，推广到同义句的次数也都比它们少",
    "at p(new) 0.9 the rank-one edit where tracing points keeps more neighbours than knowledge neurons, fine-tuning or FT+L": "p(新答案) 为 0.9 时，追踪所指处的秩一编辑保住的邻居比知识神经元、微调和约束微调都多，置信区间不含 0",
    "at the subject only: by construction nothing to predict at the last word": "只在主语处检验：最后一个词处按构造没有什么可预测",
    "but whether its S is above theirs depends on the reading point": "但它的 S 是否高于它们，取决于在哪里读数",
    "full update: PS, NS, S": "完整更新：PS、NS、S",
    "not comparable; above at every p(new) read": "不可比；秩一编辑的 NS 在每个读数处都更高",
    "not contradicted": "不矛盾",
    "on the {n} edits all six reach; NS on the {k} that have neighbours": "只取六种方法都达到的 {n} 次编辑；NS 只算其中有邻居的 {k} 次",
    "tracing effect at the subject {lo:.2f} to {hi:.2f}": "主语处的追踪效应：{lo:.2f} 到 {hi:.2f}",
    "{a:.0f} at p(new) 0.9, at most {b:.0f} at any scale": "p(新答案) 为 0.9 时为 {a:.0f}，任何系数下至多 {b:.0f}",
    "{a:.2f} against {b:.2f}, {n} edits; difference {d:+.2f}, 95 % interval over facts {lo:+.2f} to {hi:+.2f}": "{a:.2f} 对 {b:.2f}，共 {n} 次编辑；相差 {d:+.2f}，95% 置信区间 {lo:+.2f} 到 {hi:+.2f}",
    "{a:.2f} to {b:.2f}": "{a:.2f} 到 {b:.2f}",
    "{m}: p(new) {a:.2f} to {b:.2f}, Spearman ρ {r:+.1f}, 95 % interval {lo:+.1f} to {hi:+.1f}": "{m}：p(新答案) {a:.2f} 到 {b:.2f}，秩相关 ρ {r:+.1f}，95% 置信区间 {lo:+.1f} 到 {hi:+.1f}",
    "ΔES {a:+.0f} against {b:+.1f}": "ΔES {a:+.0f}，论文为 {b:+.1f}",
    "ΔES": "ΔES",
    "ΔNS": "ΔNS",
    "ΔPS": "ΔPS",
    "{a:+.1f}, {b:+.1f}, {c:+.1f}": "{a:+.1f}、{b:+.1f}、{c:+.1f}",
    "{PS:.0f}, {NS:.0f}, {S:.0f}": "{PS:.0f}、{NS:.0f}、{S:.0f}",
    # lesson 6 after its third reading: the subject edits' regime, power with the measured noise
    "with the corpus' C the subject edits hardly carry over at any scale, their full update "
    "included; not comparable with the paper, whose C, from Wikipedia, holds no "
    "CounterFact prompt": (
        "用语料的 C 时，主语处的编辑在任何系数下都几乎不推广到同义句，完整更新也不例外；"
        "仅有的非零 PS 都出现在使 p(新答案) 最大的系数之后。"
        "论文的 C 取自维基百科、不含 CounterFact 的提示，所以这一点与论文不可比"
    ),
    "ROME-like PS {a:.0f} at p(new) 0.9; at any scale at most {r:.0f} (ROME-like) and {p:.0f} "
    "(plain), and only past the scale of largest p(new); the paper's {c}": (
        "p(新答案) 为 0.9 时，类 ROME 编辑的 PS 为 {a:.0f}；任何系数下，类 ROME 至多 {r:.0f}，普通编辑至多 {p:.0f}；"
        "论文为 {c}"
    ),
    "48 facts would detect that ρ at most {p:.0%} of the time; about {q:.0%} after the measured "
    "noise": "用 48 条事实，这样的 ρ 测得出的概率至多 {p:.0%}；算上实测的噪声，约为 {q:.0%}",
    "the rank-one edit keeps more neighbours than fine-tuning, NS; here at the last word": (
        "邻域分数 NS：秩一编辑高于微调（玩具模型取最后一个词处的编辑）"
    ),
    "could not tell: Spearman ρ {a:+.1f} and {b:+.1f}, power at most {p:.0%}": (
        "无法判断：秩相关 ρ 为 {a:+.1f} 和 {b:+.1f}；像 Hase 等人那么弱的 ρ，测得出的概率至多 {p:.0%}"
    ),
    # lesson 6 after its fourth reading: claims across noise draws, the one shared order
    "another set of 10 draws moves the shares below by a few hundredths": (
        "再换一组 10 次噪声抽样，以下几项比例只变动几个百分点"
    ),
    "over the {n} pairs of {m} sets: at most {d:.2f}; under 0.05 in {k} of {n}": (
        "{m} 组两两比较共 {n} 对：至多相差 {d:.2f}；其中 {k} 对相差不到 0.05"
    ),
    "in every set, what leaves block 0 at the last word brings back most of p(answer)": (
        "每一组抽样中，恢复最后一个词处离开第 0 块的残差流，都能找回 p(答案) 的大部分"
    ),
    "in every set, of the FFN outputs, layer 1's at the last word restores the most": (
        "每一组抽样中，在所有 FFN 输出里，恢复第 1 层最后一个词处的输出找回的都最多"
    ),
    "in every set, layer 0's FFN at the subject, ROME's kind of site, restores under 5 %": (
        "每一组抽样中，恢复第 0 层主语处的 FFN 输出（ROME 所选的那类编辑点），找回的都不到 5%"
    ),
    "best v* in the last 100 steps": "最佳 v* 出现在最后 100 步",
    "at the subject ROME's search passes for few edits and the plain one for about half; some of each find their best v* in the last 100 steps": (
        "在主语处，两种搜索都有一些编辑的最佳 v* 出现在最后 100 步；类 ROME 编辑的搜索只在少数编辑上把损失降到 0.05 以下，普通编辑的搜索约在一半编辑上做到"
    ),
    "{rome} and {plain} of 144 below loss 0.05 ({share:.0%})": (
        "144 次中，损失降到 0.05 以下的：类 ROME 编辑 {rome} 次，普通编辑 {plain} 次，即 {share:.0%}"
    ),
    "with the corpus' C, the edits at the subject hardly carry over to the other phrasing, at any scale": (
        "用语料的 C 时，主语处的编辑在任何系数下都几乎不推广到同义句"
    ),
    "on these point estimates, {n} edits; widest bracket {w:.2f} in p(new)": (
        "只看这些点估计，共 {n} 次编辑；读数两端的 p(新答案) 最多相差 {w:.2f}"
    ),
    "on these point estimates: below all three at 0.8, above them at 0.95": (
        "只看这些点估计：0.8 处低于这三种，0.95 处高于它们"
    ),
    "at p(new) 0.9 the best S here is the rank-one edit's at the last word with C from filler, a site the paper's Table 4 does not run; the ROME-like edit at the subject scores lowest": (
        "p(新答案) 为 0.9 时，主语处的类 ROME 编辑得分最低；S 最高的是最后一个词处用填充句 C 的秩一编辑，"
        "论文的表 4 没有在这个编辑点编辑过。置信区间确认它高于第二名"
    ),
    "S {s:.0f}; over the next, {d:+.0f}, 95 % interval over facts {lo:+.0f} to {hi:+.0f}; ROME-like S {r:.0f}": (
        "类 ROME 编辑的 S 为 {r:.0f}；最高的 S 为 {s:.0f}，与第二名相差 {d:+.0f}，95% 置信区间 {lo:+.0f} 到 {hi:+.0f}"
    ),
    "at p(new) 0.9 FT+L scores above fine-tuning, the same sign as the paper's gap": (
        "p(新答案) 为 0.9 时，约束微调的得分高于微调，差值的方向与论文相同；"
        "置信区间确认了这一点，但没有对这里的三次比较做多重比较校正"
    ),
    "{d:+.0f}, 95 % interval over facts {lo:+.0f} to {hi:+.0f}, not corrected for this cell's "
    "three comparisons; the paper's {a} against {b}, with no interval": (
        "相差 {d:+.0f}，95% 置信区间 {lo:+.0f} 到 {hi:+.0f}；论文为 {a} 对 {b}，没有区间"
    ),
    "at p(new) 0.9 the course's knowledge neurons and fine-tuning could not be told apart in S": (
        "p(新答案) 为 0.9 时，本课程的知识神经元与微调在 S 上分不出高下：置信区间包含 0"
    ),
    "of the three orders among fine-tuning, FT+L and knowledge neurons, two have the paper's sign "
    "on these point estimates, FT+L above both; an interval confirms only FT+L above fine-tuning": (
        "只看点估计，微调、约束微调和知识神经元两两比较的三组中，有两组的先后与论文一致："
        "约束微调高于另外两者。置信区间只确认了约束微调高于微调，"
        "约束微调与知识神经元之差的区间包含 0"
    ),
    "FT+L above knowledge neurons {d:+.0f}, 95 % interval over facts {lo:+.0f} to {hi:+.0f}": (
        "相差 {d:+.0f}，95% 置信区间 {lo:+.0f} 到 {hi:+.0f}"
    ),
    "S {a:.0f} and {b:.0f}; {d:+.0f}, 95 % interval over facts {lo:+.0f} to {hi:+.0f}; the order flips at 0.8 and 0.95": (
        "0.9 处 S 分别为 {a:.0f} 和 {b:.0f}，相差 {d:+.0f}，95% 置信区间 {lo:+.0f} 到 {hi:+.0f}；"
        "在 0.8 和 0.95 处，两者的先后都与 0.9 处相反"
    ),
    "the per-fact effect at the subject is itself noisy: two sets of 10 draws rank the facts alike only in part": (
        "主语处每条事实的追踪效应本身噪声就大：换两组各 10 次的噪声抽样，事实的排序只有部分一致"
    ),
    "Spearman ρ {lo:.1f} to {hi:.1f} over the {n} pairs of sets, median {r:.1f}": (
        "{n} 对抽样组之间的秩相关 ρ 为 {lo:.1f} 到 {hi:.1f}，中位数 {r:.1f}"
    ),
    "not comparable: the toy's best has no row in the paper; its ROME-like edit's S is 0 because its PS is, which is not comparable": (
        "不可比：玩具模型中最好的方法在论文里没有对应的行；类 ROME 编辑的 S 为 0，是因为它的 PS 为 0，而这个 PS 不可比"
    ),
    "{a:.0f} > {b:.0f}; {d:+.0f}, 95 % interval {lo:+.0f} to {hi:+.0f}": (
        "{a:.0f} > {b:.0f}；相差 {d:+.0f}，95% 置信区间为 {lo:+.0f} 到 {hi:+.0f}"
    ),
    "same sign; the paper's gap untested, by opposite profiles": (
        "方向相同；论文的差值没有检验，两者的 PS、NS 构成也相反"
    ),
    "an interval over facts (section 5)": ("按事实重抽样的置信区间（第 5 节）"),
    "{a:+.1f}, {b:+.1f}, {c:+.1f} at the paper's ΔES": (
        "在 ΔES 与论文相同处：{a:+.1f}、{b:+.1f}、{c:+.1f}"
    ),
    "not comparable: one model on each side, no interval for the paper's": (
        "不可比：两边各只有一个模型，论文一侧没有区间"
    ),
}
