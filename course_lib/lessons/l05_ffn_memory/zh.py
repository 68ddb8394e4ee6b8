"""Chinese texts for the memory topic (see course_lib.core.i18n.zh)."""

MESSAGES: dict[str, str] = {
    # course_lib.lessons.l05_ffn_memory: LESSON, the index's row
    "What the FFN stores: keys and values in a small language model (键值记忆)": "FFN 存储了什么：小型语言模型中的键值记忆（key-value memory）",
    "open a small trained language model and read how its FFN units hold its facts: keys, values, erasing and doubling a fact's units, sparse activations": "打开一个训练好的小型语言模型，读懂它的 FFN 单元怎样承载事实：键、值、擦除和加倍一条事实的单元、稀疏激活",
    # course_lib.lessons.l05_ffn_memory.figures: the erasing figure
    "own fact": "本条事实",
    "unrelated facts": "无关事实",
    "random units": "随机挑选的已激活单元",
    "zeroing {n} units at the prompt's last word": "在提示的最后一个词处将 {n} 个单元置零",
    "relative change of p(answer), one dot per fact (bar: mean)": (
        "p(答案) 的相对变化，每个点是一条事实（竖线：均值）"
    ),
    # course_lib.lessons.l05_ffn_memory.figures: the knowledge-neuron demo
    "as trained": "原模型",
    "edited": "编辑后",
    "p(next word)": "p(下一个词)",
    "units × {scale:g}": "单元 × {scale:g}",
    "“{prompt} …” (answer “{answer}”)\nscaled: {units}": (
        "“{prompt} …”（答案“{answer}”）\n被缩放的单元：{units}"
    ),
    # course_lib.lessons.l05_ffn_memory.figures: the sparsity demo
    "large trained models (Li et al. 2023): a few percent": (
        "训练好的大模型（Li 等人 2023）：仅百分之几"
    ),
    "layer {layer} trained": "第 {layer} 层，训练后",
    "layer {layer} at init": "第 {layer} 层，初始化时",
    "d_ff (log scale)": "d_ff（对数坐标）",
    "fraction of units active per token": "每个 token 激活的单元比例",
    "facts right, worst seed": "最差种子答对数",
    "layer {layer} {fraction:.2f}": "第 {layer} 层 {fraction:.2f}",
    "d_ff = {d_ff}, trained, mean of {seeds} seeds: {active}": (
        "d_ff = {d_ff}，训练后，{seeds} 个种子的平均：{active}"
    ),
    "{right} of {facts} facts": "{facts} 条中答对 {right} 条",
    # course_lib.lessons.l05_ffn_memory.checks: checker names
    "the costliest single unit": "擦除代价最大的单个单元",
    "value projection": "值投影",
    # course_lib.lessons.l05_ffn_memory.checks: the fact's unit
    "return a pair (layer, unit); a single index over both layers is "
    "divmod(index, d_ff) = (layer, unit), with d_ff = {d_ff}": (
        "请返回一对 (layer, unit)；跨两层的单个下标可以用 divmod(index, d_ff) = (layer, unit) "
        "换算，这里 d_ff = {d_ff}"
    ),
    "return two ints: (layer, unit)": "请返回两个整数：(layer, unit)",
    "layer and unit look swapped: return (layer, unit)": (
        "layer 和 unit 似乎颠倒了：请返回 (layer, unit)"
    ),
    "(layer, unit) must lie in [0, {layers}) x [0, {d_ff}), got {got}": (
        "(layer, unit) 必须位于 [0, {layers}) × [0, {d_ff}) 之内，得到的却是 {got}"
    ),
    # course_lib.lessons.l05_ffn_memory.checks: the value projection
    "that reads W1 (the keys, linear1.weight): the values are the columns of linear2.weight, "
    "linear2.weight[:, i] (row i of W2 in the formula), since nn.Linear computes h @ weight.T": (
        "这读的是 W1（键，linear1.weight）：值是 linear2.weight 的第 i 列 linear2.weight[:, i]"
        "（即公式中 W2 的第 i 行），因为 nn.Linear 计算的是 h @ weight.T"
    ),
    "the final LayerNorm is applied to each value: LN acts on the whole residual stream "
    "and is not linear, so one unit's contribution is read as E v directly": (
        "对每个值都施加了最终的 LayerNorm：LN 作用于整个残差流，而且不是线性的，"
        "所以单个单元的贡献应直接读作 E v"
    ),
    "b2 is added to every value: the bias is shared by all units, not part of one unit's "
    "value": "每个值都加上了 b2：偏置由所有单元共享，不属于某一个单元的值",
    "those are probabilities (softmax): return the logit contributions E v": (
        "这些是概率（softmax）：应返回对 logit 的贡献 E v"
    ),
    "that is the other layer's W2: read model.layers[layer]": (
        "这是另一层的 W2：请读取 model.layers[layer]"
    ),
    "the result is transposed: one row per unit, (d_ff, vocab_size)": (
        "结果被转置了：应每个单元一行，形状为 (d_ff, vocab_size)"
    ),
    "the result has shape {got}, expected (d_ff, vocab_size) = "
    "{expected}: values are linear2.weight.T, (d_ff, d_model)": (
        "结果的形状是 {got}，应为 (d_ff, vocab_size) = {expected}："
        "值向量是 linear2.weight.T，形状为 (d_ff, d_model)"
    ),
    "the values differ from linear2.weight.T @ E.T (E = model.unembedding)": (
        "结果与 linear2.weight.T @ E.T 不同（E = model.unembedding）"
    ),
    "equals E v_i for every unit, on 3 random models.": (
        "在 3 个随机模型上，每个单元的结果都等于 E v_i。"
    ),
    # lesson 5's claims: section 1
    "the model is read, not trained: every weight equals the shipped file's": (
        "模型是直接读入的，没有重新训练：每个权重都与随课程发布的文件相同"
    ),
    "{n} tensors, bit for bit": "{n} 个张量，逐位相同",
    "the model knows its facts": "模型记住了它的全部事实",
    "far above the majority guess": "远好于每种关系都猜最常见答案的做法",
    "every answer gets p above 0.95": "每个答案的 p 都高于 0.95",
    # section 2
    # section 3
    "layer 1: one of the 3 firing most does, for most facts, above the control": (
        "第 1 层：对多数事实，激活最强的 3 个单元中至少有一个会提升答案，命中数也高于对照"
    ),
    # section 4
    "gradient x activation picks the same top unit for under half the facts": (
        "梯度 × 激活选出的首位单元，只在不到一半的事实上与按归因选出的首位单元相同"
    ),
    "erasing a fact's top 5 units lowers its p(answer)": (
        "擦除一条事实的前 5 个单元会降低它的 p(答案)"
    ),
    "by over half": "降幅超过一半",
    "unrelated facts lose less than half as much, but not nothing": (
        "无关事实的损失不到本条事实的一半，但并非为零"
    ),
    "the fact is hit harder than unrelated facts, for nearly every fact": (
        "几乎每条事实自身的损失都比无关事实大"
    ),
    "the fact's 5 most active units instead: mean {mean:.0%}": "换成这条事实激活最强的 5 个单元：平均 {mean:.0%}",
    "{a:.0%} against {b:.0%}": "{a:.0%} 对 {b:.0%}",
    "the spread is wide: from under a fifth to nearly all": (
        "各条事实差别很大：损失从不到五分之一到几乎全部"
    ),
    "doubling the same units does not raise p(answer) on average": (
        "把同样的单元加倍，平均而言并不会提高 p(答案)"
    ),
    "the answers leave p little room: no fact could gain even 2 %": (
        "p 的上升空间很小：没有哪条事实还能提高 2%"
    ),
    "in log-odds, which have no ceiling, doubling lowers the answer for every fact": (
        "看没有上限的对数几率，加倍也让每条事实的答案下降"
    ),
    "no single unit's zeroing takes more than about half of p": (
        "单独把任何一个单元置零，拿走的 p 都不超过约一半"
    ),
    "at most {most:.1f}; under 0.1 for {n} of 48 facts": "最多 {most:.1f}；48 条事实中有 {n} 条不到 0.1",
    "most of a fact's top units sit in layer 0, the bottom layer": (
        "一条事实归因最高的单元大多位于最底层，即第 0 层"
    ),
    "doubling raises the final LayerNorm's scale for most facts": (
        "对多数事实，加倍会让最终 LayerNorm 的尺度变大"
    ),
    "{n} of 48, {r:.1f} times on average": "48 条中 {n} 条，平均变为原来的 {r:.1f} 倍",
    "holding the final LayerNorm's scale halves the fall": "固定最终 LayerNorm 的尺度，下降减半",
    "{a:+.1f} -> {b:+.1f}": "{a:+.1f} → {b:+.1f}",
    "each path held alone still leaves a fall": "只固定其中一条路径，答案仍会下降",
    "with both held, doubling raises the answer for most facts": (
        "两条路径都固定时，加倍让多数事实的答案上升"
    ),
    "scale held, the layer-1 ones alone raise it for most facts that have them": (
        "固定尺度、只加倍第 1 层的单元时，在有这类单元的事实中，多数答案会上升"
    ),
    # section 5
    "at initialisation about half the units fire": "初始化时约有一半单元激活",
    "training makes both layers a little sparser": "训练让两层都变得稍微稀疏一些",
    "by more than 2 points": "超过 2 个百分点",
    "still far from large models' few percent": "离大模型的百分之几仍很远",
    "d_ff 256 and 512 learn all 48 facts in every seed": (
        "d_ff 256 和 512 在每个种子中都学会了全部 48 条事实"
    ),
    "at initialisation about half fire at every width": "初始化时，每种宽度都约有一半单元激活",
    "within 5 points, mean": "种子平均值与一半相差不到 5 个百分点",
    "in every seed the widest FFN fires less than the narrowest, in both layers": (
        "每个种子中，最宽的 FFN 在两层的激活比例都低于最窄的 FFN"
    ),
    "training sparsifies d_ff 512 in every seed and layer": (
        "训练让 d_ff 512 在每个种子、每一层都变得更稀疏"
    ),
    "at d_ff 32 whether training ends denser depends on the seed": (
        "在 d_ff 32 处，训练后是否更稠密取决于种子"
    ),
    "every run stays far from large models' few percent": "每次运行都离大模型的百分之几很远",
    # section 6
    "default: erasing the 5 units lowers p(answer)": "默认设置：擦除这 5 个单元会降低 p(答案)",
    "with its 5 top units erased, the answer stays the most likely word for most facts": (
        "擦除前 5 个单元后，多数事实的答案仍是最可能的下一个词"
    ),
    "scale 1 is the model as trained": "缩放倍数为 1 时，就是训练好的原模型",
    # section 3: Geva et al.'s agreement rate
    # course_lib.lessons.l05_ffn_memory.experiments.scoreboard: section 8
    "study": "研究",
    "measure": "指标",
    "paper": "论文",
    "this toy": "玩具模型",
    "as in the paper?": "与论文一致？",
    "erase a fact's top units: the fact loses more than unrelated facts (direction)": "擦除一条事实归因最高的单元：这条事实比无关事实损失更多（方向）",
    "more for {n} of {total} facts (unrelated facts: {change})": "{total} 条事实中有 {n} 条损失更多（无关事实：{change}）",
    "same edit, the other facts' p (section 4)": "同一次编辑下其他事实的 p（第 4 节）",
    "double them: p(answer) rises (direction)": "把它们加倍：p(答案) 上升（方向）",
    "falls for {p} of {total} facts, log-odds for {odds}": "{total} 条事实中 p 下降的有 {p} 条，对数几率下降的有 {odds} 条",
    "Dai et al.: doubling lowers p(answer) here, against the paper": "Dai 等人：这里加倍反而降低 p(答案)，与论文相反",
    "Dai et al.: doubling levels not comparable; every answer here starts above p 0.95": "Dai 等人：加倍的数值不可比；这里每个答案起初的 p 都高于 0.95",
    "erase a fact's top units: change of p(answer) (level)": "擦除一条事实归因最高的单元：p(答案) 的变化（数值）",
    "{change}: top 5 of one prompt, p above 0.95 before": "{change}：一个提示上的前 5 个单元，原本 p 高于 0.95",
    "Dai et al.: erasing levels not comparable; every answer here starts above p 0.95": (
        "Dai 等人：擦除的数值不可比；这里每个答案起初的 p 都高于 0.95"
    ),
    "double them: change of p(answer) (level)": "把它们加倍：p(答案) 的变化（数值）",
    "{change}: the same 5, p above 0.95 before": "{change}：同样的 5 个单元，原本 p 高于 0.95",
    "through the final LayerNorm and layer 1; both held, rises for {n} of 48 (section 4)": (
        "经由最终的 LayerNorm 和第 1 层；两者都固定时，48 条中有 {n} 条上升（第 4 节）"
    ),
    "where a fact's top units sit": "一条事实归因最高的单元所在的层",
    "mostly the top layers": "大多在最上面几层",
    "units per fact above 0.2 x the largest attribution": "每条事实中归因超过最大值 0.2 倍的单元数",
    "≈{n:.0f}, a target of their refining over paraphrases (their code moves its threshold until a relation's mean count is 2 to 5)": "≈{n:.0f}，这是他们按同义句筛选时设定的目标（他们的代码会调整阈值，直到每种关系的平均个数落在 2 到 5 之间）",
    "not comparable": "不可比",
    "yes": "是",
    "no": "否",
    "semantic keys, lower / upper layer": "语义键的个数，低层 / 高层",
    "more in upper layers": "高层更多",
    "units active per token, trained (level)": "训练后每个 token 激活的单元比例（数值）",
    "Li et al.: the toy's FFN stays near half active, many times the paper's level": (
        "Li 等人：玩具模型的 FFN 仍有近一半单元激活，是论文中比例的许多倍"
    ),
    "training lowers the units active per token (direction)": (
        "训练降低每个 token 激活的单元比例（方向）"
    ),
    "in both layers, and in {n} of {pairs} sweep (seed, layer) pairs at d_ff 256 (section 5)": "两层都如此；在 d_ff 256 处，扫描中种子与层的 {pairs} 种组合里有 {n} 种如此（第 5 节）",
    "Li et al.: training makes the FFN sparser here too": "Li 等人：这里训练也让 FFN 更稀疏",
    "consistent in direction only: the paper's models also grow deeper; both widths learn every fact (section 5)": "只是方向一致：论文的模型同时也更深；两种宽度都学会了全部事实（第 5 节）",
    "{n} of {total} right": "{total} 条中答对 {n} 条",
    "that guess: {guessed} of 48": "那样猜只能答对 48 条中的 {guessed} 条",
    "unit {unit} above is a relation key": "上面的单元 {unit} 是关系键",
    "{hit} of 48": "48 条中 {hit} 条",
    "{half} of 48 facts lose more than half": "48 条中有 {half} 条损失过半",
    "it rises for {rose} of 48 facts": "48 条事实中上升的有 {rose} 条",
    "{fell} of 48 facts, lower": "48 条中有 {fell} 条下降",
    "{kept} of 48": "48 条中 {kept} 条",
    "above 30%": "高于 30%",
    "below 1e-12": "差别小于 1e-12",
    # lesson 5's labelled output
    "parameters: {n}": "参数量：{n}",
    "facts: {facts}, lines: {lines}, words: {words}": "事实 {facts} 条，句子 {lines} 句，词表 {words} 个词",
    "distinct prefixes: {n}  activations: {shape}": "不同的前缀共 {n} 个，激活的形状为 {shape}",
    'layer 1, unit {unit}: fires most on "{prompt}"': "第 1 层，单元 {unit}：对“{prompt}”激活最强",
    "its top 5 trigger prefixes:": "它的前 5 个触发前缀：",
    "layer 1, unit {unit}: its top 5 trigger prefixes": "第 1 层，单元 {unit}：它的前 5 个触发前缀",
    "layer 1, unit {unit} (relation key) promotes: {words}": "第 1 层，单元 {unit}（关系键）提升的词：{words}",
    "layer 1, unit {unit} (token key) promotes: {words}": "第 1 层，单元 {unit}（token 键）提升的词：{words}",
    "layer {layer}, top {firing} firing unit(s): {r.hits} of {r.facts} facts (chance {r.chance:.1f}, control {r.control:.1f})": "第 {layer} 层，激活最强的 {firing} 个单元：{r.facts} 条事实中命中 {r.hits} 条（随机水平 {r.chance:.1f}，对照 {r.control:.1f}）",
    "the facts' top 5 units: {share:.0%} in layer 0": "各条事实归因最高的 5 个单元：{share:.0%} 位于第 0 层",
    "doubling only the layer-{layer} ones ({n} facts have some): {run:+.1f}, scale held {held:+.1f}": "只加倍其中的第 {layer} 层单元（{n} 条事实有这类单元）：{run:+.1f}；固定尺度时 {held:+.1f}",
    "all 5: as run {as_run:+.1f}, scale held {scale_held:+.1f}, layer 1 blind {later_layers_blind:+.1f}, both held {both_held:+.1f}": "全部 5 个：照常运行 {as_run:+.1f}，固定尺度 {scale_held:+.1f}，对第 1 层屏蔽 {later_layers_blind:+.1f}，两者都固定 {both_held:+.1f}",
    "mean change of log-odds: erasing {erasing:+.1f}, doubling {doubling:+.1f}": "对数几率的平均变化：擦除 {erasing:+.1f}，加倍 {doubling:+.1f}",
    "layer {layer}: {trained:.2f} of the units fire per token trained, {untrained:.2f} at initialisation (of {d_ff})": "第 {layer} 层：每个 token 上激活的单元比例，训练后为 {trained:.2f}，初始化时为 {untrained:.2f}（共 {d_ff} 个单元）",
    "{steps} steps per run, {seeds} seeds per width": "每次运行 {steps} 步，每种宽度 {seeds} 个种子",
    # the scoreboard's studies
    "Geva et al. 2021": "Geva 等人 2021",
    "Dai et al. 2022": "Dai 等人 2022",
    "Li et al. 2023": "Li 等人 2023",
    # lesson 5's questions
    "Each fact's 5 most attributed units (of 512) are zeroed together at its prompt's last word. On average over the 48 facts, what happens to p(answer) of that fact, and of the unrelated facts (another entity, another relation) under the same edit?": "在 512 个单元中，取每条事实归因最高的 5 个，在提示的最后一个词处同时置零。在 48 条事实上平均而言，这条事实的 p(答案) 会怎样？在同样的编辑下，无关事实（实体和关系都与之不同）的 p(答案) 又会怎样？",
    "the fact's p falls to almost 0; unrelated facts keep theirs": "这条事实的 p 几乎降到 0；无关事实保持不变",
    "Five units do not hold a whole fact here: the fact loses over half of its p on average, from under a fifth to nearly all, and unrelated facts lose some too, less than half as much.": "这里 5 个单元承载不了一整条事实：这条事实平均损失一半以上的 p，从不到五分之一到几乎全部不等；无关事实也有损失，但不到这条事实损失的一半。",
    "the fact's p falls by over half; unrelated facts lose less, but not nothing": "这条事实的 p 下降一半以上；无关事实损失较少，但并非为零",
    "Right: the fact loses over half on average, unrelated facts less than half as much, and five random firing units almost nothing (within 3 %).": "对：这条事实平均损失一半以上，无关事实的损失不到这条事实的一半，而随机挑选的 5 个已激活单元几乎毫无影响（在 3% 以内）。",
    "the fact and the unrelated facts lose about the same": "这条事实和无关事实损失差不多",
    "The units chosen by a fact's attribution serve it more than other facts: the fact is hit harder than the unrelated facts, for nearly every fact.": "按一条事实的归因挑出的单元，对这条事实的作用大于对其他事实：几乎每条事实自身的损失都比无关事实大。",
    "hardly anything changes: 5 units of 512 are too few": "几乎没有变化：512 个单元中的 5 个太少了",
    "Five random units among those that fire barely matter (within 3 %), but these five are the units whose erasure alone costs their fact most: together they take over half of p(answer) on average.": "从激活的单元中随机挑 5 个，几乎没有影响（在 3% 以内）；但这 5 个是单独擦除时让这条事实损失最大的单元：合在一起，它们平均拿走一半以上的 p(答案)。",
    "Dai et al. report that doubling a fact's knowledge neurons raises p(answer) by about {paper:.0%}. Here the model already gives every answer p > 0.95. Doubling the same 5 units, p(answer) on average…": "Dai 等人报告，把一条事实的知识神经元加倍，p(答案) 约上升 {paper:.0%}。这里的模型给每个答案的概率都已高于 0.95。把同样的 5 个单元加倍，p(答案) 平均会……",
    "rises, as in the paper": "像论文中那样上升",
    "There is little room: no answer here could rise even 2 %. And it does not rise here: p falls for every fact, and so do the log-odds, which have no ceiling.": "上升的空间很小：这里没有哪个答案还能再升 2%。而实际上它也没有上升：每条事实的 p 都下降了，没有上限的对数几率也下降了。",
    "does not change": "不变",
    "It changes: the answer's log-odds fall for all 48 facts when their 5 units are doubled.": "它会变：把 5 个单元加倍后，全部 48 条事实答案的对数几率都下降了。",
    "falls, for every fact": "下降，每条事实都如此",
    "Right: p falls for every fact, by a fraction of a percent for some and nearly all of it for others, and so do the log-odds, which have no ceiling; the ceiling of p is not the whole story. Where the fall comes from is tested next.": "对：每条事实的 p 都下降了，有的只降不到百分之一，有的几乎降光；没有上限的对数几率也下降了，所以 p 的上限并不能解释全部。下降从哪里来，接下来就检验。",
    # section 9: locate a fact, then rewrite it (course_lib.lessons.l06_locating_and_editing.experiments.editing)
    "p(answer): clean {clean:.2f}, subject corrupted {corrupted:.2f}": (
        "p(答案)：干净 {clean:.2f}，主语被破坏 {corrupted:.2f}"
    ),
    "the FFN's output": "FFN 的输出",
    "restoring {site}": "恢复：{site}",
    "layer {i}": "第 {i} 层",
    "corrupting the subject takes most of p(answer)": "破坏主语后，p(答案) 大半丢失",
    '"{prompt}": "{b}" -> "{a}"': "“{prompt}”：“{b}” → “{a}”",
    "the edited fact now gives the new answer": "被编辑的事实现在给出新答案",
    "rank-one, layer 1, last word": "秩一，第 1 层，最后一个词",
    "rank-one, layer 0, subject": "秩一，第 0 层，主语",
    "knowledge neurons": "知识神经元",
    "fine-tuning W2": "微调 W2",
    # course_lib.core.questions: trace-peak
    "Positions before the subject never see the noise (attention is causal): restoring them "
    "changes nothing.": "主语之前的位置根本碰不到噪声（注意力只往回看）：恢复它们什么也不会改变。",
    # course_lib.lessons.l05_ffn_memory.checks: check_rank_one_update
    "u is C k, not C⁻¹ k: solve C u = k (torch.linalg.solve)": (
        "u 是 C k 而不是 C⁻¹ k：应当解 C u = k（torch.linalg.solve）"
    ),
    "the update ignores C: use u = C⁻¹ k, so the output on the corpus' keys changes least": (
        "这个更新忽略了 C：应当用 u = C⁻¹ k，让语料的键上的输出改变得最少"
    ),
    "the change is v - W k, what W k still lacks, not v": "改变量是 v - W k，即 W k 还差的部分，而不是 v",
    "divide by u·k, so that W' k is exactly v": "要除以 u·k，这样 W' k 才恰好等于 v",
    "the result differs from W + (v − W k) (C⁻¹k)ᵀ / (kᵀ C⁻¹ k)": (
        "结果与 W + (v − W k) (C⁻¹k)ᵀ / (kᵀ C⁻¹ k) 不同"
    ),
    "W' k = v, and the output on the corpus' keys changes as little as it can.": (
        "W' k = v，且语料各键上的输出改动最少。"
    ),
    "rank-one edit": "秩一编辑",
    "the mean over the {n} facts": "{n} 条事实的平均",
    'one fact: "{prompt}"': "一条事实：“{prompt}”",
    # course_lib.lessons.l05_ffn_memory.figures and widgets.memory: the fact-rewriting demo
    "keeps its answer": "保持原答案",
    "answer changed": "答案被改变",
    "rewritten": "编辑生效",
    "not rewritten": "编辑未生效",
    "p(word) after the prompt": "提示之后的 p(词)",
    "old: {word}": "旧：“{word}”",
    "new: {word}": "新：“{word}”",
    "“{prompt}”: “{old}” → “{new}”": "“{prompt}”：“{old}” → “{new}”",
    "{n} changed": "改变了 {n} 条",
    # course_lib.lessons.l05_ffn_memory.checks: rewrite a fact (exercise 5)
    "rewrite a fact": "编辑一条事实",
    "your function changed the lesson's model itself: edit a copy (copy.deepcopy(model))": (
        "你的函数改动了本课的模型本身：请编辑一份副本（copy.deepcopy(model)）"
    ),
    "return the edited copy of the model, not {kind}": "请返回编辑后的模型副本，而不是 {kind}",
    "only layer 1's W2 should change, yet {name} changed too": (
        "只应改变第 1 层的 W2，可是 {name} 也变了"
    ),
    "layer 1's W2 differs from the lesson's rank-one edit: yours changes the answers of {n} other facts, the lesson's {m}": (
        "第 1 层的 W2 与本课的秩一编辑不同：你的编辑改变了其他 {n} 条事实的答案，本课的编辑改变了 {m} 条"
    ),
    "the same W2 as the lesson's edit, and the lesson's model untouched.": (
        "W2 与本课的编辑相同，本课的模型也没有被改动。"
    ),
    "the update is written along k* itself, as if C were the identity or k* k*ᵀ: C is the covariance of every key the corpus makes (fact_edits.key_covariance), so that the other keys' outputs move least": (
        "这个更新沿着 k* 本身写入，仿佛 C 是单位矩阵或 k* k*ᵀ：C 应是语料产生的所有键的协方差（fact_edits.key_covariance），这样其他键的输出才变化最小"
    ),
    # section 9: generalisation, on the two-phrasing model
    "edited prompt": "编辑所用的提示",
    "other phrasing": "同义句",
    "other phrasing: “{paraphrase}”": "同义句：“{paraphrase}”",
    # lesson 5, reworked (issue 57, the reviews)
    "your search zeroes the unit at every word of the prompt; the task zeroes it at the last word only, h[:, -1, unit]": "你的搜索在提示的每个词处都把单元置零；题目只在最后一个词处置零，即 h[:, -1, unit]",
    "that unit lowers the answer's logit most; the task asks for p(answer), which the softmax also moves through the other words' logits: compare p": "这个单元让答案的 logit 降得最多；题目问的是 p(答案)，而 softmax 还会通过其他词的 logit 改变它：请比较 p",
    "that is the unit that fires most; firing is not mattering: zero each unit and measure": "这是激活最强的单元；激活强不等于影响大：请逐个把单元置零并测量",
    "that is the largest gradient x activation, a first-order estimate at the trained point: zero each unit in turn and measure": "这是梯度 × 激活最大的单元，只是在训练点上的一阶估计：请依次把每个单元置零并测量",
    "zeroing your unit does not lower p(answer): take the largest drop, not the smallest": "把你的单元置零并没有降低 p(答案)：应取降幅最大的，而不是最小的",
    "for fact {fact}, zeroing your unit lowers p(answer) by {drop:.3f}; the costliest unit lowers it by {most:.3f}: zero each unit in turn and measure": "对事实 {fact}，把你的单元置零使 p(答案) 降低 {drop:.3f}；擦除代价最大的单元使它降低 {most:.3f}：请依次把每个单元置零并测量",
    "zeroing L{layer} unit {unit} lowers p(answer) of fact {fact} from {p:.2f} by {drop:.2f}: the costliest single unit, on each of the {n} facts tried.": "把第 {layer} 层的单元 {unit} 置零，事实 {fact} 的 p(答案) 从 {p:.2f} 降了 {drop:.2f}。在试过的 {n} 条事实上，你找到的都是擦除代价最大的单个单元。",
    "could not tell": "无法判断",
    "value's top token follows the top trigger prefix somewhere in the corpus (theirs: the top trigger example's next token), lower / upper layer (level)": "一致率，低层 / 高层（数值；定义见第 3 节：值的首选词在语料中某处紧跟最强的触发前缀，论文则看最强触发样例后面紧跟的那个 token）",
    "{low:.0f} % / {high:.1f} % (about {words:,} words)": "{low:.0f}% / {high:.1f}%（约 {words:,} 个词）",
    "{low:.0f} % / {high:.0f} % ({words} words)": "{low:.0f}% / {high:.0f}%（{words} 个词）",
    "{a:.1f} and {b:.1f} times a shuffled pairing (section 3)": "分别是打乱配对的 {a:.1f} 倍和 {b:.1f} 倍（第 3 节）",
    "Geva et al.: agreement levels not comparable; the vocabularies differ 3,000-fold": "Geva 等人：一致率的数值不可比；两边的词表大小相差三千多倍",
    "agreement, lower -> upper layer (direction)": "一致率，低层 → 高层（方向）",
    "rises": "上升",
    "{rise:+.1f} points, 95 % interval {lo:+.1f} to {hi:+.1f}": "{rise:+.1f} 个百分点，95% 置信区间 {lo:+.1f} 到 {hi:+.1f}",
    "Geva et al.: whether agreement rises with depth, the toy could not tell": "Geva 等人：一致率是否随深度上升，玩具模型无法判断",
    "{lower} / {upper} (the lesson's own rule)": "{lower} / {upper}（本课自己的规则）",
    "untrained, the upper layer has more in {n} of {draws} draws (section 2)": "{draws} 组未训练的随机权重中，有 {n} 组高层更多（第 2 节）",
    "Geva et al.: semantic keys by layer not comparable; the lesson's own rule, and random weights order them either way": "Geva 等人：各层语义键的个数不可比；规则是本课自己的，随机权重下哪层多都有可能",
    "{share:.0f} % in layer 0 of 2 (top 5 of one prompt)": "{share:.0f}% 位于第 0 层（共 2 层；一个提示上的前 5 个）",
    "Dai et al.: where the top units sit not comparable; here most sit in layer 0": "Dai 等人：归因最高的单元所在的层不可比；这里大多位于第 0 层",
    "{a:.0f} (paper's equation) or {b:.0f} (their code's path), one prompt": "{a:.0f}（论文的公式）或 {b:.0f}（他们代码的路径），一个提示",
    "Dai et al.: counts not comparable; here the count depends on the path integrated": "Dai 等人：个数不可比；这里的个数取决于积分所沿的路径",
    "fewer in larger models, deeper and wider": "模型越大越少（更深也更宽）",
    "layer 1: the unit firing most promotes the answer, above the relation-matched control": "第 1 层：激活最强的单元会提升答案，命中数高于按关系匹配的对照",
    "{r.hits} of 48, control {r.control:.1f}: one-sided binomial p {p:.0e}, {x:.1f} x the control at the point estimate": "48 条中命中 {r.hits} 条，对照 {r.control:.1f}；单侧二项检验 p = {p:.0e}；按点估计是对照的 {x:.1f} 倍",
    "{rise:+.1f} points, 95 % interval {lo:+.1f} to {hi:+.1f}; it would see a rise of Geva et al.'s {geva:.1f} points with probability {power:.0%}": "变化 {rise:+.1f} 个百分点，95% 置信区间 {lo:+.1f} 到 {hi:+.1f}；若真有 Geva 等人那样 {geva:.1f} 个百分点的上升，检验测得出它的概率为 {power:.0%}",
    "layer 0: could not tell from its control": "第 0 层：无法判断是否高于对照",
    "{r.hits} of 48, control {r.control:.1f}; a test at 5 % needs {n}, and would see an effect of layer 1's size ({x:.1f} x the control) with probability {power:.0%}": "48 条中命中 {r.hits} 条，对照 {r.control:.1f}；要在 5% 水平上显著，需要命中 {n} 条；若效应与第 1 层一样大，即对照的 {x:.1f} 倍，检验测得出它的概率为 {power:.0%}",
    "layer {layer}: {rate:.0%} of {units} units agree (chance {chance:.0%}, shuffled {null:.1%})": "第 {layer} 层：一致率 {rate:.0%}（共 {units} 个单元；随机水平 {chance:.0%}，打乱配对 {null:.1%}）",
    "several times the shuffled pairing": "两层的一致率都是打乱配对的好几倍",
    "over 4 times": "超过 4 倍",
    "whether the rate rises from the lower layer to the upper one, this test could not tell": "一致率是否从低层到高层上升，这个检验无法判断",
    "layer 0: {total:.1f} = direct {d:.1f} + through layer 1 {l[0]:.1f} / {l[1]:.1f} + rescaling {r[0]:+.1f} / {r[1]:+.1f}": "第 0 层：{total:.1f} = 直接 {d:.1f} + 经由第 1 层 {l[0]:.1f} / {l[1]:.1f} + 重新缩放 {r[0]:+.1f} / {r[1]:+.1f}",
    "layer 1: {total:.1f} = direct {d:.1f} + rescaling {r:+.1f} (per fact {lo:+.1f} to {hi:+.1f})": "第 1 层：{total:.1f} = 直接 {d:.1f} + 重新缩放 {r:+.1f}（单条事实的重新缩放项在 {lo:+.1f} 到 {hi:+.1f} 之间）",
    "layer 0's units raise the answer straight through the final LayerNorm and E, for every fact": "对每条事实，第 0 层的单元都会直接经最终的 LayerNorm 和 E 提升答案",
    "the direct part {lo:.1f} to {hi:.1f}": "直接部分在 {lo:.1f} 到 {hi:.1f} 之间",
    "through layer 1 too; whether more than directly depends on the order": "经由第 1 层也会提升答案；这部分比直接部分多还是少，取决于先固定哪条路径",
    "{a:.1f} / {b:.1f} against {d:.1f}": "两种顺序下为 {a:.1f} / {b:.1f}，直接部分为 {d:.1f}",
    "the final LayerNorm's rescaling damps the drop: with its scale held, zeroing costs more": "最终 LayerNorm 的重新缩放减小了降幅：固定它的尺度，置零的代价更大",
    "for {n} of 48 facts, {held:.1f} against {total:.1f}": "48 条中有 {n} 条如此；平均 {held:.1f}，不固定时为 {total:.1f}",
    "zeroing layer 0 costs the answer more than zeroing layer 1, for every fact": "对每条事实，把第 0 层置零都比把第 1 层置零让答案损失更多",
    "zeroing layer 0's units enlarges the stream the final LayerNorm divides by, for every fact": "对每条事实，把第 0 层的单元置零后，最终 LayerNorm 用来相除的残差流尺度都会变大",
    "{r:.1f} times on average": "平均变为原来的 {r:.1f} 倍",
    "layer 1's units act almost only directly, on average": "平均而言，第 1 层的单元几乎只走直接路径",
    "the rescaling beyond 1 for {n} of 48 facts": "48 条中有 {n} 条的重新缩放项绝对值超过 1",
    "the first fact's 10 strongest units: the midpoint 20-point sum is the exact score within 1 %": "第一条事实归因最高的 10 个单元：取 20 个中点求和，结果与精确的归因相差不到 1%",
    "the left-point sum within {left:.0%}": "取左端点求和，相差在 {left:.0%} 以内",
    "the authors' code's path ranks the units otherwise": "按作者代码的路径，单元的排序不同",
    "{shared:.1f} of a fact's top 5 shared on average, the same top unit for {n} of 48": "平均每条事实的前 5 个中有 {shared:.1f} 个相同，48 条中有 {n} 条的首位单元相同",
    "training leaves ReLU units a hair from switching": "训练后，一些 ReLU 单元离切换只差一点点",
    "the nudge switches some of them at the prompts' last word": "这次微扰让提示最后一个词处的一些单元切换了开关",
    "the slope's top 5 units change for several facts, each with a unit the nudge switched": "按斜率排出的前 5 个单元在好几条事实上变了，每条都有被微扰切换的单元",
    "{n} of 48": "48 条中 {n} 条",
    "{n} of {total} facts": "{total} 条中 {n} 条",
    "the integral's top 5 stay the same for every fact, as continuity requires": "按归因排出的前 5 个单元在每条事实上都不变；积分随输入连续变化，本该如此",
    "the nudge moves a score by {shift:.0e}, the closest 5th and 6th differ by {tie:.0e}": "微扰让分数最多移动 {shift:.0e}，而第 5、6 名最接近时也相差 {tie:.0e}",
    "own fact: mean {mean:.0%}; averaged as Dai et al.'s code averages (per relation, mean change of p over mean p): {dai:.0%}; spread (std) {std:.0%}": "本条事实：平均 {mean:.0%}；按 Dai 等人代码的算法（每种关系内，p 的平均变化除以平均 p）为 {dai:.0%}；标准差 {std:.0%}",
    "unrelated facts: mean {mean:.0%}": "无关事实：平均 {mean:.0%}",
    "random firing units barely matter": "随机挑选的已激活单元几乎没有影响",
    "doubling, change of p(answer): mean {mean:+.1%}, from {lo:+.1%} to {hi:+.1%}": "加倍后 p(答案) 的变化：平均 {mean:+.1%}，范围从 {lo:+.1%} 到 {hi:+.1%}",
    "d_ff {d_ff:3d}: at initialisation {init[0]:.2f} / {init[1]:.2f}": "d_ff {d_ff:3d}：初始化时第 0 层 {init[0]:.2f}，第 1 层 {init[1]:.2f}",
    "d_ff 32 to 128 miss several facts in some seed": "d_ff 32 到 128 各有种子漏掉好几条事实",
    "at least 3 of 48": "48 条中至少漏掉 3 条",
    "the largest rise and the largest fall each over 2 points": "最大升幅和最大降幅都超过 2 个百分点",
    "layer {layer}: {c[0]} token, {c[1]} semantic, {c[2]} mixed; in 10 untrained draws {lo[0]}–{hi[0]}, {lo[1]}–{hi[1]}, {lo[2]}–{hi[2]}": "第 {layer} 层：token 键 {c[0]} 个，语义键 {c[1]} 个，混合键 {c[2]} 个；10 组未训练的随机权重中依次为 {lo[0]}–{hi[0]}、{lo[1]}–{hi[1]}、{lo[2]}–{hi[2]} 个",
    "random weights give mostly token keys too, in both layers": "随机权重的两层也都以 token 键为主",
    "at least {n} of 256 in every draw": "256 个单元中，每组都至少有 {n} 个",
    "this trained model has fewer token keys and more mixed ones than any draw, in both layers": "训练后的模型在两层中 token 键都比任何一组随机权重少，混合键都比任何一组多",
    "this trained model's layer 0 has more semantic keys than any draw": "训练后的模型第 0 层的语义键比任何一组随机权重都多",
    "{n} against at most {m}": "{n} 个，随机权重最多 {m} 个",
    "layer 1 ends below every draw": "第 1 层的语义键则比每一组都少",
    "layer 1, hits (control) per relation: capital {h[capital][0]} ({c[capital]:.1f}), colour {h[colour][0]} ({c[colour]:.1f}), animal {h[animal][0]} ({c[animal]:.1f}), food {h[food][0]} ({c[food]:.1f}), of 12 each": "第 1 层各关系的命中数（括号内为对照）：首都 {h[capital][0]}（{c[capital]:.1f}）、颜色 {h[colour][0]}（{c[colour]:.1f}）、动物 {h[animal][0]}（{c[animal]:.1f}）、食物 {h[food][0]}（{c[food]:.1f}），每种关系各 12 条",
    "fitted over every width, each seed's slope against log2 d_ff is negative": "在所有宽度上拟合，每个种子、每一层的激活比例对 log2 d_ff 的斜率都为负",
    "at d_ff 256, the shipped width, training lowers the fraction in every seed and layer": "在随课程发布的宽度 d_ff 256 处，训练让每个种子、每一层的激活比例都下降",
    "by more than 2 points in {n} of {total}": "{total} 种组合中有 {n} 种降幅超过 2 个百分点",
    "{n} of {total} (seed, layer) slopes below 0": "种子与层的 {total} 种组合中，有 {n} 种的斜率小于 0",
    # the notebook's progress bar over the random draws
    "zeroing 5 random firing units per fact: draws": "每条事实随机置零 5 个已激活单元：抽样次数",
    "{n} against {lo} to {hi}: one trained run, a margin of {gap}": "{n} 个，随机权重为 {lo} 到 {hi} 个；只训练了一次，差距仅 {gap} 个",
    "in every relation the count is above its own control, at the point estimate": "按点估计，每种关系的命中数都高于本关系的对照",
    "one-sided binomial p: capital {p[capital]:.4f}, colour {p[colour]:.4f}, animal {p[animal]:.4f}, food {p[food]:.4f}; {k} of 4 pass Holm's correction at 5 %": "单侧二项检验 p：首都 {p[capital]:.4f}、颜色 {p[colour]:.4f}、动物 {p[animal]:.4f}、食物 {p[food]:.4f}；在 5% 水平上做 Holm 校正，4 种关系中有 {k} 种通过",
    "{r.hits} of 48, control {r.control:.1f}: one-sided binomial p {p:.0e}": "48 条中命中 {r.hits} 条，对照 {r.control:.1f}；单侧二项检验 p = {p:.0e}",
    "in both layers between a quarter and a third of the units agree": "两层一致的单元都占四分之一到三分之一",
    "{a:.0%} and {b:.0%}": "{a:.0%} 和 {b:.0%}",
    "units chosen by attribution matter more than the most active ones, as their selection on the outcome favours": "按归因挑出的单元比激活最强的单元影响更大；它们本来就是按结果挑的，这对它们有利",
    "on average the two paths roughly add": "平均而言，两条路径的作用大致可以相加",
    "interaction {i:+.1f} of a {g:.1f} gap; per fact {lo:+.1f} to {hi:+.1f}": "交互项 {i:+.1f}，总差距 {g:.1f}；单条事实的交互项在 {lo:+.1f} 到 {hi:+.1f} 之间",
    "not reported (their code computes it: rm_oth)": "未报告（他们的代码算了这一项，即 rm_oth）",
    "not reported": "未报告",
    "Dai et al.: erasing hits the fact harder than unrelated facts here, a comparison the paper does not report": "Dai 等人：这里擦除让这条事实损失得比无关事实多；论文没有报告这项比较",
    "on the {n} facts with top units in both layers, doubling only layer 0's: log-odds {first:+.1f}; only layer 1's: {second:+.1f} (section 4)": "在两层都有归因最高单元的 {n} 条事实上，只加倍第 0 层单元：对数几率 {first:+.1f}；只加倍第 1 层单元：{second:+.1f}（第 4 节）",
    "Li et al.: in layer 0, d_ff 512 is sparser than 256 here too, by the seeds' interval": "Li 等人：按种子间的置信区间，第 0 层的 FFN 从 256 加宽到 512 后也更稀疏",
    "Li et al.: whether layer 1 is sparser at the wider FFN, the seeds could not tell": "Li 等人：FFN 更宽时第 1 层是否更稀疏，这几个种子无法判断",
    "units active per token, wider FFN at the same depth, layer {layer} (direction)": "每个 token 激活的单元比例，深度不变、FFN 加宽，第 {layer} 层（方向）",
    "{mean:+.1f} points, 95 % interval {low:+.1f} to {high:+.1f}; lower in {n} of {seeds} seeds, d_ff {narrow} -> {wide} (width alone)": "{mean:+.1f} 个百分点，95% 置信区间 {low:+.1f} 到 {high:+.1f}；{seeds} 个种子中有 {n} 个更低，d_ff {narrow} → {wide}（只改宽度）",
    "layer {layer}, d_ff 256 -> 512: {m:+.1f} points (95 % interval {lo:+.1f} to {hi:+.1f}), lower in {n} of {seeds} seeds": "第 {layer} 层，d_ff 256 → 512：{m:+.1f} 个百分点（95% 置信区间 {lo:+.1f} 到 {hi:+.1f}），{seeds} 个种子中有 {n} 个更低",
    "layer 0: d_ff 512 ends below d_ff 256, the seeds' interval below 0": "第 0 层：训练结束时 d_ff 512 的激活比例低于 d_ff 256，跨种子的置信区间整个在 0 以下",
    "layer 1: whether d_ff 512 ends below d_ff 256, the seeds could not tell": "第 1 层：训练结束时 d_ff 512 的激活比例是否低于 d_ff 256，这几个种子无法判断",
    "with layer 1's spread, 5 seeds would find a change of layer 0's size with probability {p:.0%}": "按第 1 层的离散程度，即使变化和第 0 层一样大，5 个种子测得出它的概率也只有 {p:.0%}",
    "on the facts that have both, doubling the layer-0 ones alone lowers the answer far more than the layer-1 ones alone, about twice as much per unit doubled at the point estimate": "在两层都有这类单元的事实上，只加倍位于第 0 层的单元，答案的降幅远大于只加倍第 1 层的单元；折算到每个被加倍的单元，点估计约为两倍",
    "{n} facts: {a:+.1f} against {b:+.1f}; per unit {c:+.2f} against {d:+.2f}, a ratio with a 95 % bootstrap interval of {lo:.1f} to {hi:.1f}": "{n} 条事实：{a:+.1f} 对 {b:+.1f}；每个单元 {c:+.2f} 对 {d:+.2f}，两者之比的 95% 自助法置信区间为 {lo:.1f} 到 {hi:.1f}",
    "the code path's top 5, doubled, also lower every answer": "按代码路径选出的前 5 个单元，加倍后同样让每个答案都下降",
    "mean {p:+.0%} in p, {o:+.1f} in log-odds; {n} of 48 lower": "p 平均变化 {p:+.0%}，对数几率平均变化 {o:+.1f}；48 条中有 {n} 条下降",
    "more than 5 within 1e-7 of zero at the last word, {b} at initialisation": "提示最后一个词处，超过 5 个单元的输入离零不到 1e-7；初始化时为 {b} 个",
    "more than 20 units": "超过 20 个",
    "fewer than 20 of 48": "48 条中不到 20 条",
    "at least 5 of 48": "48 条中至少 5 条",
    "within 3 % in every one of 10 draws": "10 次抽样中每次都在 3% 以内",
    # lesson 5's quoted lines and list items, in Chinese quotation marks and punctuation
    '    "{line}"': "    “{line}”",
    '    "{prefix}"': "    “{prefix}”",
    '"{prompt}" -> "{answer}"': "“{prompt}” → “{answer}”",
    "{change:+.0f} %": "{change:+.0f}%",
    "{change:+.1f} %": "{change:+.1f}%",
    "{share:.1f} % ({model})": "{model} 中为 {share:.1f}%",
    "{share:.0f} %": "{share:.0f}%",
    "{before:.0f} % -> {after:.0f} %": "{before:.0f}% → {after:.0f}%",
}
