"""Chinese texts for the superposition topic (see course_lib.core.i18n.zh)."""

MESSAGES: dict[str, str] = {
    # course_lib.lessons.l08_superposition (the lesson's title and goal)
    "Superposition: more features than neurons (叠加)": "叠加（superposition）：特征比神经元多",
    "train the toy model of superposition and read its features' directions and dimensionality, test whether lesson 5's units serve more facts than a matched chance would, test whether a sparse dictionary reconstructs new inputs better than a lookup of its training inputs, and measure SAEs and transcoders as the papers do": "训练 Elhage 等人的叠加玩具模型，读出各个特征的方向和特征维度数；检验第 5 课模型的单元所服务的事实数，是否多于按层和写入量匹配的随机打乱；检验稀疏字典重建新输入是否胜过查表（照抄最近的训练输入）；像论文那样测量稀疏自编码器（SAE）和转码器",
    # course_lib.lessons.l08_superposition.questions
    "One unit of lesson 5's model is a knowledge neuron of 45 of the 48 facts, of all four relations. What does that show?": (
        "第 5 课模型中有一个单元，是 48 条事实中 45 条的知识神经元，四种关系都有。这说明了什么？"
    ),
    "that the model stores its facts in superposition": "说明模型以叠加的方式存储它的事实",
    "Superposition is one explanation, not the only one: a unit can serve many facts because it computes something they all need, such as that an answer comes next. The count alone cannot tell the two apart.": "叠加是一种解释，但不是唯一的解释。一个单元服务许多事实，也可能是因为它算出了这些事实都需要的东西，比如“接下来是答案”。单凭这个计数，分不清这两种情况。",
    "that facts of every relation share the unit, and no more": "说明各种关系的事实共用这个单元，仅此而已",
    "Right: the unit helps many facts of all four relations. Whether it answers to unrelated features (polysemantic), and whether they sit in superposition, or it does one job every fact needs, takes an intervention to decide.": "对。这个单元帮助了四种关系的许多事实。它是否对几个互不相关的特征起反应（多义），这些特征是否处于叠加之中，还是它只做一件每条事实都需要的事，都要靠干预实验来判定。",
    "that the unit stores 45 facts": "说明这个单元存储了 45 条事实",
    "Erasing it would then remove 45 answers; an attribution says the unit helps each answer, not that the answer is kept in it.": "果真如此，擦除它就会拿走 45 个答案。归因只说明这个单元对每个答案有帮助，并没有说答案存在它里面。",
    "that the model ran out of units": "说明模型的单元不够用了",
    # course_lib.lessons.l08_superposition.demos: the controls' labels
    "sparsity S": "稀疏度 S",
    "importance decay": "重要性衰减",
    # notebooks/08_superposition.ipynb: section 1, the toy
    "loss {first:.3f} at the first step, {last:.3f} at the last": "损失：第一步 {first:.3f}，最后 {last:.3f}",
    "‖W_i‖ of features 0-4: {norms}": "特征 0–4 的 ‖W_i‖：{norms}",
    "{low:.2f} to {high:.2f}": "{low:.2f} 到 {high:.2f}",
    "ReLU, bias": "ReLU，有偏置",
    "ReLU, b = 0": "ReLU，b = 0",
    "linear": "线性",
    "{name}: held-out loss {loss:.4f}, features with a direction {kept}": "{name}：留出输入上的损失 {loss:.4f}，有方向的特征 {kept} 个",
    "D_i at S = 0.9: {D}": "S = 0.9 时的 D_i：{D}",
    "the lesson's library computes the same D_i": "本课的库算出同样的 D_i",
    "a pentagon: every D_i within 0.05 of 2/5 and neighbours 72° ± 10° apart": "排成五边形：每个 D_i 与 2/5 相差不到 0.05，相邻两个特征相隔 72° ± 10°",
    "gaps {gaps}°": "间隔 {gaps}°",
    "dense (S = 0), every decay below 1: features 0 and 1 kept, at right angles, the rest dropped": "稠密时（S = 0），只要衰减小于 1，就保留特征 0 和 1，两者垂直，其余舍弃",
    "|cos| ≤ {c:.3f}": "|余弦| ≤ {c:.3f}",
    "sparse (S ≥ 0.9), importance 0.9^i or equal: all five features kept in two dimensions": "稀疏时（S ≥ 0.9），重要性为 0.9^i 或全部相等，五个特征都保留在两个维度里",
    "with steeper importance (0.5^i, 0.7^i), at S = 0.93 and 0.95 feature 4 has no direction, while the other four form two antipodal pairs (D within 0.05 of 1/2)": "重要性下降更陡时（0.5^i、0.7^i），S = 0.93 和 0.95 下特征 4 没有方向，另外四个组成两个对跖对，D 与 1/2 相差不到 0.05",
    "with importances that differ, the stored grid keeps a less important feature over a more important one in three settings only, each keeping feature 4 and dropping feature 3": "重要性各不相同时，存下的网格里只有三处保留了较不重要的特征、舍弃了较重要的，三处都是留下特征 4、舍弃特征 3",
    "{where}": "{where}",
    "{d}^i, S = {s:.2f}": "{d}^i，S = {s:.2f}",
    "S = {s:.2f}: D_i = {D}": "S = {s:.2f}：D_i = {D}",
    "at S = 0.63 and 0.74 (0.9^i; at 0.49 it is feature 3 that is dropped): four features as two antipodal pairs, D within 0.05 of 1/2, feature 4 dropped": "重要性为 0.9^i、S = 0.63 和 0.74 时，四个特征组成两个对跖对，D 与 1/2 相差不到 0.05，特征 4 被舍弃；S = 0.49 时舍弃的则是特征 3",
    "dense: the extra feature is dropped when it matters less than feature 0 and takes the dimension when it matters more": "稠密时，多出来的特征不如特征 0 重要就被舍弃，比特征 0 重要就独占这个维度",
    "sparse (density ≤ 0.1), relative importance up to 1: the extra feature is kept, in superposition, in at least 80 % of the cells": "稀疏（密度 ≤ 0.1）且相对重要性不超过 1 时，至少 80% 的格子以叠加的方式保留了多出来的特征",
    "{share:.0%} of those cells": "实际为 {share:.0%}",
    "the stored seed 0 is the model just trained": "存下的种子 0 就是刚刚训练的模型",
    "without the ReLU, every seed keeps only m = 2 features, the two most important, as a linear autoencoder must (a control): no superposition": "对照：去掉 ReLU，每个种子都只保留最重要的 m = 2 个特征，线性自编码器必然如此；没有叠加",
    "every seed settles as a pentagon (each D_i within 0.05 of 2/5) or as two antipodal pairs with the fifth feature dropped": "每个种子最终要么排成五边形，每个 D_i 与 2/5 相差不到 0.05；要么排成两个对跖对，舍弃第五个特征",
    "pentagon in {p} of {n}": "{n} 个种子中 {p} 个是五边形",
    "{pairs} (fact, unit) pairs, {layer0} of them in layer 0, on {used} of {units} units; a unit serves {mean:.1f} facts on average, at most {most}": "（事实，单元）对共 {pairs} 个，其中 {layer0} 个在第 0 层，落在 {units} 个单元中的 {used} 个上；一个单元平均服务 {mean:.1f} 条事实，最多 {most} 条",
    "drawn from every firing unit, the shuffle spreads the pairs over far more units": "从所有激活的单元里抽取时，打乱后的（事实，单元）对分散在多得多的单元上",
    "matched by layer and write size, it comes close: the trained model uses fewer units than the matched shuffle, by a few": "按层和写入量匹配后，两者很接近：训练好的模型只比匹配的打乱少用几个单元",
    "each edit at matched p(new), mean over the 48 facts with its 95 % bootstrap interval": (
        "每种编辑都在对齐的 p(新答案) 下：对 48 条事实取均值，并给出 95% 自助法置信区间"
    ),
    "{positions:,} scored positions, {distinct} distinct contexts in the corpus; {grammar:,} in the grammar": "计分的位置 {positions:,} 个，语料里不同的上下文 {distinct} 个；语法能造出 {grammar:,} 个",
    "the grammar holds every context of the corpus": "语法造出的上下文包含语料里的每一个",
    "the 8× SAE's stored loss recovered is what its stored weights give": "8× SAE 存下的损失恢复率，与用它存下的权重重算的结果一致",
    "FVU, training": "未解释方差（训练）",
    "FVU, held out": "未解释方差（留出）",
    "ratio": "留出 ÷ 训练",
    "spliced in at the held-out contexts' positions only, the L1 SAEs recover over 90 % of the loss there": "只在留出上下文的位置接入时，L1 SAE 在那里恢复了 90% 以上的损失",
    "units: {n} counted, entity purity {e:.2f}": "单元：计入 {n} 个，实体纯度 {e:.2f}",
    "SAE": "SAE",
    "entity purity": "实体纯度",
    "units: {u:.1f} per fact carry its answer, of {n:.0f} firing; the transcoders' features: {lo:.1f} to {hi:.1f}, of {a:.0f} to {b:.0f} active": "单元：每条事实平均有 {u:.1f} 个单元承载答案，平均激活 {n:.0f} 个；转码器：每条事实平均有 {lo:.1f} 到 {hi:.1f} 个特征承载答案，平均激活 {a:.0f} 到 {b:.0f} 个（范围取自各个转码器）",
    "loss as trained {clean:.3f}; layer 0's units zero-ablated {ablated:.3f}": "训练好的模型损失 {clean:.3f}；把第 0 层单元置零，损失 {ablated:.3f}",
    "transcoder": "转码器",
    "kind": "类型",
    "rule": "规则",
    "features": "字典大小",
    "{low:.1%} to {high:.1%}": "{low:.1%} 到 {high:.1%}",
    "units": "单元",
    "rotated units": "旋转后的单元",
    "directions": "方向",
    "counted": "计入的方向数",
    "relation": "关系纯度",
    "chance": "随机水平",
    "entity": "实体纯度",
    "units are purer in relation than chance, and so is a random rotation of them": "按关系算，单元比随机水平更纯，单元的随机旋转也是如此",
    "the unit basis could not be told from random rotations: the units' relation purity lies within 100 rotations' 95 % range": "单元基与随机旋转分不出差别：按关系算，单元的纯度落在 100 次随机旋转的 95% 范围之内",
    "{u:.2f} against {low:.2f} to {high:.2f}": "单元 {u:.2f}；100 次旋转的 95% 范围为 {low:.2f} 到 {high:.2f}",
    # section 4: a transcoder
    "{low} to {high}; with layer 0's units zeroed, {none}": "{low} 到 {high} 条；第 0 层单元置零时为 {none} 条",
    # added: the regime test, the transcoder at equal numbers
    "Nothing here shows that: the count says how many facts a unit helps, not how many features the layer holds against its dimensions. Whether the model stores features in superposition, this count cannot tell.": "这里看不出这一点。这个计数说的是一个单元帮助多少条事实，不是这一层容纳的特征比维度多还是少。模型是否以叠加的方式存储特征，这个计数回答不了。",
    "L0, training": "L0（训练）",
    "L0, held out": "L0（留出）",
    "FVU {a:.3f} and {b:.3f} against {c:.3f} and {d:.3f}; the copy {e:.3f} against {f:.3f}": "用语料训练的未解释方差为 {a:.3f} 和 {b:.3f}，用语法训练的为 {c:.3f} 和 {d:.3f}；从语料查表为 {e:.3f}，从语法查表为 {f:.3f}",
    "on new contexts the L1 SAEs fire more features than on their training ones and still miss more; in these stored runs (one seed, one split) the TopK SAE, its L0 held by k, misses no more than the L1 one at each size": "在新上下文上，L1 SAE 激活的特征比在训练上下文上多，遗漏却仍然更多。TopK SAE 的 L0 由 k 固定。存下的这些运行只有一个种子、一种划分；在这些运行里，每种大小下，TopK 的遗漏都不多于 L1",
    "L1: {low:.1f} to {high:.1f} times as many features, {a:.1f} to {b:.1f} times the FVU": "L1 在新上下文上激活的特征是训练时的 {low:.1f} 到 {high:.1f} 倍，未解释方差是训练时的 {a:.1f} 到 {b:.1f} 倍",
    "TopK {a:.2f} to {b:.2f} of the copy's FVU, L1 {c:.2f} to {d:.2f}": "TopK 的未解释方差是查表的 {a:.2f} 到 {b:.2f} 倍，L1 为 {c:.2f} 到 {d:.2f} 倍",
    "the map {m:.2f} of the copy's FVU; TopK 1×, 4×, 8×: {a:.2f}, {b:.2f}, {c:.2f} of the map's": "映射的未解释方差是查表的 {m:.2f} 倍；TopK 1×、4×、8× 分别是映射的 {a:.2f}、{b:.2f}、{c:.2f} 倍",
    "dead, full dictionary": "死特征比例（用全部上下文训练的字典）",
    "held out ÷ lookup": "留出 ÷ 查表",
    "{a:.1%} (8×, L1, on held-out contexts, at L0 {held:.1f}, against {train:.1f} in training); {b:.1%} (8×, TopK)": "{a:.1%}（8×，L1；在留出上下文上，L0 为 {held:.1f}，训练时为 {train:.1f}）；{b:.1%}（8×，TopK）",
    "TopK: {low:.1%} to {high:.1%}; L0 on the held-out contexts: L1 {a:.0f} to {b:.0f}, TopK {c:.0f} to {d:.0f}": "TopK 为 {low:.1%} 到 {high:.1%}；留出上下文上的 L0，L1 为 {a:.0f} 到 {b:.0f}，TopK 为 {c:.0f} 到 {d:.0f}",
    "with any transcoder in place of layer 0's FFN, the model still answers at least 47 of the 48 facts, at prompts every transcoder was trained on": "无论用哪个转码器替换第 0 层的 FFN，模型仍能答对 48 条事实中的至少 47 条；这些提示每个转码器都训练过",
    "top three's share: features minus units": "前三名所占份额：特征减单元",
    "low (95 %)": "下限（95% 置信区间）",
    "in every transcoder the top three features hold more of a fact's attribution than the top three of as many units: each interval lies above 0": "每个转码器中，前三名特征占一条事实归因的份额，都大于前三名单元所占的份额；单元只取写入最多的几个，数目与这条事实激活的特征相同。每个区间都在 0 以上",
    "SAE, L1, 4×": "SAE（L1，4×）",
    "SAE, TopK, 8×": "SAE（TopK，8×）",
    "{share:.0%} (A/1, 8×)": "{share:.0%}（A/1，8×）",
    "{a:.0%} (4×), {b:.0%} (8×)": "{a:.0%}（4×）、{b:.0%}（8×）",
    "{a:.0%} (8×, TopK), {b:.0%} (8×, L1)": "{a:.0%}（8×，TopK）、{b:.0%}（8×，L1）",
    "{share:.0%} (A/1, 8×, L1)": "{share:.0%}（A/1，8×，L1）",
    "{share:.1%} (A/5)": "{share:.1%}（A/5）",
    # section 5: the scoreboard
    "differs": "不一致",
    "same": "一致",
    "dense: the m most important features, orthogonal": "稠密：最重要的 m 个特征，相互正交",
    "sparse: all n features (0.9^i)": "稀疏：全部 n 个特征（0.9^i）",
    "paper's": "论文的数值",
    "this model's": "本模型的数值",
    "agree?": "一致吗？",
    "dead share": "死特征比例",
    "dead share without their mitigations": "不用其缓解措施时的死特征比例",
    "loss not recovered": "未恢复的损失",
    # course_lib.lessons.l08_superposition.figures (toy)
    "orthogonal": "正交",
    "antipodal pair": "对跖对",
    "pentagon": "五边形",
    "not represented": "未被表示",
    "dedicated dimension": "独占一个维度",
    "superposition, antipodal": "叠加（对跖对）",
    "other arrangement": "其他排布",
    "feature dimensionality D_i": "特征维度数 D_i",
    "feature i, its importance below": "特征 i（下方为重要性）",
    "dropped (‖W_i‖ < {cut}): {features}": "被舍弃（‖W_i‖ < {cut}）：{features}",
    "sparsity S = {S:.2f}, importance I_i = {decay}^i: loss {loss:.3g}": (
        "稀疏度 S = {S:.2f}，重要性 I_i = {decay}^i：损失 {loss:.3g}"
    ),
    "S = {S:.2f}": "S = {S:.2f}",
    "{n} features in {m} dimensions, importance I_i = {decay}^i: each arrow is a column W_i": (
        "{n} 个特征挤进 {m} 个维度，重要性 I_i = {decay}^i：每个箭头是 W 的一列 W_i"
    ),
    "2 features in 1 dimension: what the model does with the extra one": (
        "2 个特征、1 个维度：模型如何处理多出来的那个特征"
    ),
    "the extra feature's importance, relative to feature 0's": "多出来那个特征的相对重要性（特征 0 为 1）",
    "feature density 1 − S": "特征密度 1 − S",
    # course_lib.lessons.l08_superposition.checks
    "TopK activations": "TopK 激活",
    "the activations have shape {got}, expected {expected}: one per feature, 0 for the features not kept; scatter the k kept values back into place": (
        "激活的形状是 {got}，应为 {expected}：每个特征一个值，未保留的特征为 0；用 scatter 把保留的 k 个值放回原位"
    ),
    "these are 0s and 1s, a mask of the kept features: return the kept values themselves, through the ReLU": (
        "这些是 0 和 1，只是被保留特征的掩码：应返回保留下来的值本身，并经过 ReLU"
    ),
    "the activations differ from ReLU(TopK(pre)): the k largest pre-activations of each row through a ReLU, every other feature 0": (
        "激活与 ReLU(TopK(pre)) 不同：每行最大的 k 个预激活经过 ReLU，其余特征为 0"
    ),
    "at most k features fire in each row, none below 0. (A ReLU before the TopK gives the same: either way the positive values among the k largest remain.)": "每行至多 k 个特征激活，都不小于 0。把 ReLU 放在 TopK 之前，结果也一样：两种做法留下的都是最大的 k 个值中的正值。",
    "the k largest are taken over dim {dim}, across rows: take them over each row's features, dim=-1": (
        "最大的 k 个是沿 dim {dim} 跨行取的：应在每行的特征上取，dim=-1"
    ),
    "negative values are kept: apply the ReLU after keeping the k largest, so that no activation is below 0": (
        "保留了负值：保留最大的 k 个之后还要过 ReLU，激活不能小于 0"
    ),
    "every positive pre-activation is kept: keep only the k largest of each row": (
        "所有正的预激活都被保留了：每行只保留最大的 k 个"
    ),
    "the k largest in absolute value are kept: keep the k largest values, a large negative pre-activation is a feature far from firing": (
        "保留的是绝对值最大的 k 个：应保留数值最大的 k 个，一个很大的负预激活说明该特征远未激活"
    ),
    "the k smallest pre-activations are kept: keep the k largest (largest=True, the default of topk)": (
        "保留的是最小的 k 个预激活：应保留最大的 k 个（largest=True，即 topk 的默认值）"
    ),
    "decoder normalisation": "解码器归一化",
    "the encoder was normalised: the L1 rule holds the decoder's directions, the rows of W_dec, at norm 1": "归一化的是编码器。L1 规则要求解码器的方向（即 W_dec 的各行）保持范数 1",
    "W_dec was normalised over dim 0, each of its d columns: feature i's direction is row i of W_dec (n_features, d), so take the norm over dim=1": (
        "W_dec 是沿 dim 0 归一化的，即对它的 d 列逐列归一化：特征 i 的方向是 W_dec (n_features, d) 的第 i 行，所以范数要沿 dim=1 取"
    ),
    "each row was divided by its squared norm, which leaves it at 1/norm: divide by the norm itself": (
        "每行除以的是范数的平方，结果范数变成 1/范数：应除以范数本身"
    ),
    "the rows are normalised before optimiser.step(): the step moves them off norm 1 again, and the dictionary the last step leaves is not normalised; normalise after the step": (
        "各行在 optimiser.step() 之前归一化：这一步又让它们偏离范数 1，最后一步留下的字典没有归一化；应在这一步之后归一化"
    ),
    "W_dec is a parameter that requires grad: change it in place inside `with torch.no_grad():`": (
        "W_dec 是需要梯度的参数：要在 `with torch.no_grad():` 里原地修改它"
    ),
    "W_dec was replaced by a new tensor, which the optimiser does not hold: change it in place (sae.W_dec /= ...) inside torch.no_grad()": (
        "W_dec 被换成了一个新张量，优化器并不持有它：应在 torch.no_grad() 里原地修改（sae.W_dec /= ...）"
    ),
    "the decoder's directions are not normalised: in {steps} steps their mean norm grew to {norm:.2f} and the mean activation fell to {act:.4f} (held at norm 1: {ref:.4f}); the L1 penalty is beaten by shrinking f and growing W_dec. After optimiser.step(), divide each row of W_dec by its norm": (
        "解码器的方向没有归一化：{steps} 步里它们的平均范数涨到 {norm:.2f}，平均激活降到 {act:.4f}（范数保持为 1 时为 {ref:.4f}）；"
        "缩小 f、放大 W_dec 就绕过了 L1 惩罚。应在 optimiser.step() 之后把 W_dec 的每一行除以它的范数"
    ),
    "after your step the decoder's directions have norms from {low:.3f} to {high:.3f}, not 1: divide each row of W_dec by its norm after optimiser.step()": (
        "你的这一步之后，解码器方向的范数在 {low:.3f} 到 {high:.3f} 之间，而不是 1：应在 optimiser.step() 之后把 W_dec 的每一行除以它的范数"
    ),
    "the directions have norm 1, but the step differs from the reference: take the plain step (zero_grad, loss, backward, step), optionally removing the gradient's component along each row before it, then divide each row of W_dec by its norm": (
        "方向的范数是 1，但这一步与参考实现不同：先走普通的一步（zero_grad、loss、backward、step），"
        "走之前可以先去掉梯度沿每一行的分量，然后把 W_dec 的每一行除以它的范数"
    ),
    "the gradient's component along each row is removed, but a step of finite size along the sphere still leaves it: divide each row of W_dec by its norm after optimiser.step() as well": (
        "梯度沿每一行的分量去掉了，但沿球面走一步有限的步长，仍会离开球面：optimiser.step() 之后也要把 W_dec 的每一行除以它的范数"
    ),
    "every direction is back at norm 1 after each step: the L1 penalty can only be lowered by sparser activations, not by shrinking f and growing W_dec.": "每一步之后，每个方向都回到范数 1。这样，要降低 L1 惩罚，只能让激活更稀疏，不能靠缩小 f、放大 W_dec。",
    "dense toy prediction": "稠密玩具模型预测",
    "return a set of feature indices, counted from 0 (feature 0 is the most important), got {answer!r}": (
        "应返回一个特征编号的集合，从 0 开始数（特征 0 最重要），你给出的是 {answer!r}"
    ),
    "the features are numbered 0 to {last}, counted from 0": "特征编号从 0 开始，为 0 到 {last}",
    "indices count from 0: feature 0 is the most important (I_0 = 0.9^0 = 1)": (
        "编号从 0 开始：特征 0 最重要（I_0 = 0.9^0 = 1）"
    ),
    "all five is the sparse regime: with S = 0 every feature is in every input, so features sharing a dimension interfere every time, and the model gives each kept feature a dimension of its own": "五个全保留，那是稀疏时的情形。S = 0 时，每个输入都含有每个特征，共用一个维度的特征每次都会相互干扰，所以模型让每个保留的特征独占一个维度",
    "the model has m = {m} dimensions: with dense features it keeps as many features as it has dimensions, one per dimension": (
        "模型有 m = {m} 个维度：特征稠密时，它保留的特征数与维度数相同，每个维度一个"
    ),
    "importance falls with the index, I_i = 0.9^i: feature 0 matters most, the last one least": (
        "重要性随编号递减，I_i = 0.9^i：特征 0 最重要，最后一个最不重要"
    ),
    "{m} features, yes, one per dimension; but which? A dropped feature costs its importance, so the model keeps the most important ones": (
        "对，是 {m} 个特征，每个维度一个；但是哪几个？舍弃一个特征的代价是它的重要性，所以模型保留最重要的那几个"
    ),
    "the stored model's ‖W_i‖: {norms}. With importances that differ, dense features do not share: the model keeps the most important ones, each in a dimension of its own, and drops the rest (the paper's reason: a dense feature would interfere on every input).": "存下的模型，‖W_i‖ 为 {norms}。重要性各不相同时，稠密特征不共用维度：模型保留最重要的几个，各自独占一个维度，其余的舍弃。论文给的理由是：稠密特征如果共用维度，每个输入上都会互相干扰。",
    "dead features prediction": "死特征预测",
    "give the share of features, a number from 0 to 1 (0.25 for a quarter), got {got!r}": (
        "请给出特征所占的比例，一个 0 到 1 之间的数（四分之一就是 0.25），你给出的是 {got!r}"
    ),
    "measured: {dead} of {n} features ({share:.0%}) never fire": (
        "实测：{n} 个特征中有 {dead} 个（{share:.0%}）从不激活"
    ),
    "{measured}, more than your {got:.0%}: a feature that fires on no input gets no gradient, so once dead it stays dead; the wider the dictionary, the more features the data leaves idle": (
        "{measured}，比你预测的 {got:.0%} 多：对任何输入都不激活的特征得不到梯度，一旦死了就一直是死特征；字典越宽，数据闲置的特征就越多"
    ),
    "{measured}, fewer than your {got:.0%}: most features still find inputs to fire on, and each input keeps the features it fires alive": (
        "{measured}，比你预测的 {got:.0%} 少：大多数特征仍能找到让它激活的输入，而每个输入都让它激活的特征保持存活"
    ),
    "{measured}; you predicted {got:.0%}.": "{measured}；你的预测是 {got:.0%}。",
    # course_lib.lessons.l08_superposition.figures.browser
    "activation at the last word": "最后一个词处的激活",
    "contexts it fires on most": "它激活最强的上下文",
    "logit per unit of activation": "每单位激活带来的 logit",
    "words its direction promotes": "它的方向提升的词",
    "feature {feature}": "特征 {feature}",
    # course_lib.lessons.l08_superposition.figures (dictionaries)
    "trained model: {units} units": "训练好的模型：{units} 个单元",
    "shuffled by layer and write size: {units:.0f} units": "按层和写入量匹配的打乱：{units:.0f} 个单元",
    "shuffled, each fact's number kept: {units:.0f} units (mean of {shuffles}, 2.5–97.5 %)": (
        "均匀打乱（每条事实的知识神经元数不变）：{units:.0f} 个单元（{shuffles} 次的平均，2.5–97.5%）"
    ),
    "facts a unit is a knowledge neuron of": "单元作为知识神经元服务的事实数",
    "{pairs} (fact, knowledge neuron) pairs: how many facts each unit serves": (
        "{pairs} 个（事实，单元）对：每个单元服务多少条事实"
    ),
    "(a) trained on the corpus' contexts ({n:,})": "(a) 只用语料里的上下文训练（{n:,} 个）",
    "(b) trained on the grammar's contexts ({n:,})": "(b) 用语法能造出的上下文训练（{n:,} 个）",
    "L1": "L1",
    "TopK": "TopK",
    "{rule}: held-out contexts": "{rule}：留出的上下文",
    "{rule}: its training contexts": "{rule}：训练用的上下文",
    "copy of the nearest training context": "查表（照抄最近的训练上下文）",
    "dictionary size (× the FFN's {units} units)": "字典大小（为 FFN {units} 个单元的几倍）",
    "fraction of variance unexplained": "未解释方差比例",
    # course_lib.lessons.l08_superposition.experiments.feature_edit
    "rank-one, C over the corpus": "秩一，C 取整个语料",
    "rank-one, C from filler": "秩一，C 取自填充句",
    "top unit": "归因最大的单元",
    "narrowest carrying unit": "激活面最窄的承载单元",
    "narrowest active unit": "激活面最窄的活跃单元",
    "unit quietest on filler": "在填充句上激活最少的单元",
    "feature quietest on filler, {rule} {width}×": "在填充句上激活最少的特征，{rule} {width}×",
    "unedited": "未编辑",
    "same relation": "同一关系",
    "other relations": "其他关系",
    "same entity": "同一实体",
    "top feature, {rule} {width}×": "归因最大的特征，{rule} {width}×",
    "narrowest carrying feature, {rule} {width}×": "激活面最窄的承载特征，{rule} {width}×",
    "narrowest active feature, {rule} {width}×": "激活面最窄的活跃特征，{rule} {width}×",
    # lesson 8's notebook: rewriting a fact through one feature
    # course_lib.lessons.l08_superposition.experiments.toy: train_toy's progress bar
    "training the toy model: Adam steps": "训练玩具模型：Adam 步数",
    # notebooks/08_superposition.ipynb: verdicts from one run, Holm over both labels
    "all five features have a direction in two dimensions (norm above 0.5, as throughout)": "两个维度里，五个特征都有方向，范数都高于本课的标准 0.5",
    "the busiest unit serves facts of {n} relations": "最忙的那个单元，服务的事实分属 {n} 种关系",
    "better": "胜过查表",
    "no better": "不胜过查表",
    "verdict": "结论",
    "in these runs, the corpus-trained TopK 4× and 8× miss more of the new contexts than their grammar-trained twins, and the copy from the corpus' fewer contexts misses more still": "在这些运行里，用语料训练的 TopK 4× 和 8× 在新上下文上遗漏得比用语法训练的孪生字典多；只从语料里为数较少的上下文中查表，遗漏得还要多",
    "L1 1×, 4×, 8×: {a:.2f}, {b:.2f}, {c:.2f}; TopK 1×, 4×, 8×: {d:.2f}, {e:.2f}, {f:.2f} of the copy's FVU": "与查表的未解释方差之比：L1 1×、4×、8× 为 {a:.2f}、{b:.2f}、{c:.2f}；TopK 1×、4×、8× 为 {d:.2f}、{e:.2f}、{f:.2f}",
    "p, entity": "p（实体）",
    "p, relation": "p（关系）",
    "p, entity, Holm": "p（实体，Holm 校正后）",
    "with b held at 0, more than 2 features still share the plane in every seed (its loss is higher in every seed, as expected of the same model with a parameter fixed)": "偏置固定为 0 时，每个种子仍有 2 个以上的特征共用平面；每个种子的损失都更高，这在意料之中，因为同一个模型少了一个可调参数",
    "the pentagons have all five biases below −0.1; the one seed that stops at two pairs does not": "排成五边形的种子，五个偏置都低于 −0.1；停在两个对跖对的那个种子不是这样",
    "{ours} units against a 95 % range of about {lo} to {hi} (100 shuffles, widened to tens)": "{ours} 个单元；打乱 100 次的 95% 范围约为 {lo} 到 {hi} 个，已向外取到整十",
    "a unit that writes more at a prompt is likelier to pass the attribution threshold: far more than a tenth of the pairs sit in the top tenth of their layer's firing units by write size": "单元在提示处写入越多，越容易越过归因阈值：把每层激活的单元按写入量排序，落在前十分之一的（事实，单元）对远多于一成",
    "{share:.0%} against 10 %": "{share:.0%}；与写入量无关时应为 10%",
    "{ours} against {mean:.0f} on average, p = {p} (5,000 shuffles; ± its Monte Carlo error)": "{ours} 个，打乱平均 {mean:.0f} 个；p = {p}，打乱 5,000 次，± 后面是蒙特卡洛标准误",
    "the relation purity of a shared unit's facts could not be told from the matched shuffle's: it lies within their 95 % range": "按关系算，共用单元上事实的纯度与匹配的打乱分不出差别，落在打乱的 95% 范围之内",
    "{ours:.2f}, p = {p} (5,000 shuffles)": "{ours:.2f}；p = {p}，打乱 5,000 次",
    "the shuffle's 95 % range ends {gap:.2f} above ours: a purity about 0.05 higher would lie at its edge": "打乱的 95% 范围，上端比模型的纯度高 {gap:.2f}：模型的纯度再高约 0.05，就落在范围边上",
    "trained on the corpus' contexts alone, the L1 SAEs are no better than a lookup of those contexts; for the TopK SAEs we could not tell, TopK 4× at the edge of the margin": "只用语料的上下文训练时，L1 SAE 不胜过对这些上下文的查表；TopK SAE 的结论是无法判断，其中 TopK 4× 紧贴 0.8 这条线",
    "TopK 1×, 4×, 8×: {a:.2f}, {b:.3f} (better below 0.8), {c:.2f} of the copy's FVU; L1 {low:.2f} to {high:.2f}": "TopK 1×、4×、8× 的未解释方差分别是查表的 {a:.2f}、{b:.3f}、{c:.2f} 倍，低于 0.8 才算胜过查表；L1 为 {low:.2f} 到 {high:.2f} 倍",
    "on the held-out contexts, the grammar-trained L1 1×, L1 4× and TopK 1× SAEs are no better than a lookup; for L1 8×, TopK 4× and TopK 8× we could not tell": "在留出的上下文上，用语法训练的 L1 1×、L1 4× 和 TopK 1× SAE 不胜过查表；L1 8×、TopK 4× 和 TopK 8× 的结论是无法判断",
    "the TopK transcoders are better than a lookup of the training inputs' FFN outputs; the L1 transcoders are no better than a lookup": "TopK 转码器胜过查表，L1 转码器不胜过查表；这里查的是训练输入上的 FFN 输出",
    "a least-squares affine map of the FFN's input, fitted exactly on the same training contexts, is better than a lookup too; by the same rule TopK 1× is better than the map, and for TopK 4× and 8× we could not tell": "以 FFN 的输入为自变量，在同样的训练上下文上用最小二乘精确拟合一个仿射映射，它也胜过查表；按同一规则，TopK 1× 胜过这个映射，TopK 4× 和 8× 的结论是无法判断",
    "in these runs, each L1 SAE recovers more of the loss at the held-out contexts than any TopK SAE, while firing more features there": "在这些运行里，每个 L1 SAE 在留出上下文上恢复的损失都比任何一个 TopK SAE 多，激活的特征也更多",
    "on relation, the direction table's two SAEs are less pure than the units, as their entity purity implies (point estimates: the SAE table's relation p asks the other way round): {a:.2f} and {b:.2f} against {u:.2f}": "按关系算，前面方向表中的两个 SAE（L1 4×、TopK 8×）都不如单元纯：{a:.2f} 和 {b:.2f}，单元为 {u:.2f}。它们的实体纯度高，本就意味着这一点。这些只是点估计；上面 SAE 表中的“p（关系）”检验的是 SAE 是否比单元更纯，和这里的方向相反。",
    "the copy's held-out error rests on few contexts: the 10 worst of {n} carry {a:.0%} of it for the SAEs and {b:.0%} for the transcoders": "查表的留出误差集中在少数上下文上：{n} 个上下文中最差的 10 个，在 SAE 上占 {a:.0%}，在转码器上占 {b:.0%}",
    "after Holm's correction over all 12 tests (entity and relation, six SAEs; each p exact), the TopK 8× SAE's features are more entity-specific than the units, and the TopK 4× SAE's just pass the 5 % line; the L1 SAEs' and TopK 1×'s could not be told from the units": "六个 SAE 按实体和关系各检验一次，共 12 个检验，每个置换 p 值都精确算出。对全部 12 个做 Holm 校正后，TopK 8× SAE 的特征比单元更集中于单个实体，TopK 4× SAE 的特征刚好通过 5% 的显著性界线；L1 SAE 和 TopK 1× 的特征与单元分不出差别",
    "adjusted p: TopK 8× {a}, TopK 4× {b}; the others {c} or more": "校正后的 p：TopK 8× {a}，TopK 4× {b}，其余不低于 {c}",
    "the TopK 1× SAE's purity rests on 4 features": "TopK 1× SAE 的纯度只靠 4 个特征",
    "resampling the held-out contexts (paired, 20,000 times), the map's ratio to the lookup reaches into the band: by its interval, we could not tell": "对留出上下文成对重抽样 20,000 次，映射与查表之比的区间伸进了 0.8 到 1.0 这一段：按区间看，无法判断",
    "{m:.2f}, 95 % interval {low:.1f} to {high:.1f}": "{m:.2f}，95% 置信区间为 {low:.1f} 到 {high:.1f}",
}
