"""Chinese texts for the ffn topic (see course_lib.core.i18n.zh)."""

MESSAGES: dict[str, str] = {
    # course_lib.lessons.l01_feed_forward: LESSON, the index's row
    "The feed-forward network (前馈网络)": "前馈网络（feed-forward network）",
    "build the FFN in PyTorch and NumPy, read its shapes and parameters, and place it after attention in the Transformer pipeline": "用 PyTorch 和 NumPy 实现 FFN，读懂它的形状和参数，并把它放进 Transformer 流水线中注意力之后的位置",
    # course_lib.lessons.l01_feed_forward.figures: the encoder layer
    "Input embeddings + positional encoding": "输入：词嵌入 + 位置编码",
    "Multi-head self-attention": "多头自注意力",
    "Add & Norm": "Add & Norm（残差连接 + 层归一化）",
    "Feed-forward network\n512 → 2048 → ReLU → Dropout → 512": (
        "前馈网络\n512 → 2048 → ReLU → dropout → 512"
    ),
    "Output to the next layer": "输出到下一层",
    "One encoder layer: the FFN is the second sublayer": "一个编码器层：FFN 是第二个子层",
    "residual": "残差",
    # course_lib.lessons.l01_feed_forward.figures: activations and the demo
    "activation(z)": "激活值 f(z)",
    "hidden value after the activation": "激活后的隐藏值",
    "count": "个数",
    "token": "token 序号",
    "fraction of hidden units > 0": "隐藏单元 > 0 的比例",
    "{activation}, d_ff = {d_ff}: {zeros:.0f}% exact zeros": (
        "{activation}，d_ff = {d_ff}：{zeros:.0f}% 恰为 0"
    ),
    "{parameters:,} params, {flops:,} FLOPs/token": "参数 {parameters:,}，每个 token {flops:,} FLOPs",
    # course_lib.lessons.l01_feed_forward.checks: checker names
    "parameter formula": "参数量公式",
    "FeedForward": "FeedForward 模块",
    "attention weights": "注意力权重",
    "GPT-2 small's FFN": "GPT-2 small 的 FFN",
    # check_parameter_formula
    "{call}: you counted the weights but not the biases b1 (d_ff) and b2 (d_model)": (
        "{call}：你只数了权重，没数偏置 b1（d_ff 个）和 b2（d_model 个）"
    ),
    "{call}: one of the two biases is missing (b1 has d_ff entries, b2 has d_model)": (
        "{call}：两个偏置漏了一个（b1 有 d_ff 个数，b2 有 d_model 个）"
    ),
    "{call}: that is only the first layer; W2 and b2 count too": (
        "{call}：这只是第一层；W2 和 b2 也要算上"
    ),
    "{call}: the biases have different sizes: b1 has d_ff entries, b2 has d_model": (
        "{call}：两个偏置大小不同：b1 有 d_ff 个数，b2 有 d_model 个"
    ),
    "{call}, expected {expected}": "{call}，应为 {expected}",
    "for d_model=512, d_ff=2048 that is {count:,} parameters.": (
        "d_model=512、d_ff=2048 时共 {count:,} 个参数。"
    ),
    # check_feed_forward
    "your module needs an attribute `{name}` that is an nn.Linear": (
        "你的模块需要一个名为 `{name}` 的属性，且它是 nn.Linear"
    ),
    "linear1.weight has shape {shape}; nn.Linear(d_model, d_ff) stores (d_ff, d_model) = "
    "(32, 8): are d_model and d_ff swapped?": (
        "linear1.weight 的形状是 {shape}；nn.Linear(d_model, d_ff) 存的是 "
        "(d_ff, d_model) = (32, 8)：是不是把 d_model 和 d_ff 弄反了？"
    ),
    "linear2.weight has shape {shape}; nn.Linear(d_ff, d_model) stores (d_model, d_ff) = "
    "(8, 32): linear2 maps d_ff back to d_model": (
        "linear2.weight 的形状是 {shape}；nn.Linear(d_ff, d_model) 存的是 "
        "(d_model, d_ff) = (8, 32)：linear2 把 d_ff 映射回 d_model"
    ),
    "a linear layer has no bias: the formula has b1 and b2 (leave bias=True)": (
        "有一个线性层没有偏置：公式里有 b1 和 b2（保留 bias=True）"
    ),
    "two calls in eval mode gave different outputs: is dropout applied with "
    "F.dropout(training=True) instead of an nn.Dropout module?": (
        "eval 模式下两次调用的输出不同：是不是用了 F.dropout(training=True)，"
        "而不是 nn.Dropout 模块？"
    ),
    "the output is linear in x: the ReLU between the two layers is missing": (
        "输出是 x 的线性函数：两层之间缺少 ReLU"
    ),
    "the ReLU comes after linear2; it belongs between linear1 and linear2": (
        "ReLU 放在了 linear2 之后；它应该在 linear1 和 linear2 之间"
    ),
    "the activation between the layers is {name}; this FFN uses ReLU": (
        "两层之间的激活函数是 {name}；这个 FFN 用的是 ReLU"
    ),
    "the output differs from linear2(dropout(relu(linear1(x)))): check the order of the steps": (
        "输出与 linear2(dropout(relu(linear1(x)))) 不同：请检查各步的顺序"
    ),
    "in training mode the output never changes: is the dropout layer used in forward()?": (
        "训练模式下输出从不变化：forward() 里用到 dropout 层了吗？"
    ),
    "in training mode whole outputs are zeroed: dropout belongs on the hidden layer, "
    "between the ReLU and linear2, not after linear2": (
        "训练模式下整个输出值被置零：dropout 应作用在隐藏层上，位于 ReLU 和 linear2 之间，"
        "而不是 linear2 之后"
    ),
    "matches the reference in eval mode, and dropout is active only in training mode.": (
        "eval 模式下与参考实现一致，且 dropout 只在训练模式下起作用。"
    ),
    # check_attention_weights
    "the scores are not divided by sqrt(d_k)": "分数没有除以 sqrt(d_k)",
    "the scores are divided by d_k; the scale is sqrt(d_k)": "分数除以了 d_k；缩放因子应是 sqrt(d_k)",
    "the softmax runs over the queries (dim 0); each query's weights over the keys must sum to 1": (
        "softmax 作用在了查询这一维（dim 0）上；每个查询对所有键的权重之和应为 1"
    ),
    "the mask is ignored: a query puts weight on keys it may not see": (
        "掩码被忽略了：查询把权重放在了它不该看到的键上"
    ),
    "the mask is inverted: True means a query may attend to that key": (
        "掩码反了：True 表示查询可以关注这个键"
    ),
    "the masked weights are zeroed after the softmax, so the rows no longer sum to 1: "
    "mask the scores before it": (
        "被掩码的权重是在 softmax 之后才置零的，于是每行之和不再为 1：应在 softmax 之前对分数加掩码"
    ),
    "there is no softmax: the weights must be positive and sum to 1 for each query": (
        "没有 softmax：每个查询的权重必须为正，且和为 1"
    ),
    "the weights have shape {shape}: one row per query, (L, S)": (
        "权重的形状是 {shape}：应为每个查询一行，即 (L, S)"
    ),
    "the weights have shape {got}, expected (L, S) = {expected}": (
        "权重的形状是 {got}，应为 (L, S) = {expected}"
    ),
    "some weights are NaN: a query had every key masked out; "
    "is the mask inverted? True means a query may attend to that key": (
        "有些权重是 NaN：某个查询的所有键都被掩盖了；掩码是不是反了？True 表示查询可以关注这个键"
    ),
    "the weights differ from softmax(q k^T / sqrt(d_k)) with the mask applied first": (
        "权重与先加掩码再算的 softmax(q k^T / sqrt(d_k)) 不同"
    ),
    "softmax(q k^T / sqrt(d_k)) with the masked scores set to -inf: every row sums to 1.": (
        "softmax(q k^T / sqrt(d_k))，被掩码的分数设为 -inf，每行之和为 1。"
    ),
    # check_gpt2_ffn
    "you counted the two weight matrices but forgot the biases b1 (d_ff) and b2 (d_model)": (
        "你数了两个权重矩阵，但忘了偏置 b1（d_ff 个）和 b2（d_model 个）"
    ),
    "that is one weight matrix; the FFN has two (W1 and W2), plus their biases": (
        "这只是一个权重矩阵；FFN 有两个（W1 和 W2），还有各自的偏置"
    ),
    "that is only the first layer (W1, b1); W2 and b2 count too": (
        "这只是第一层（W1、b1）；W2 和 b2 也要算上"
    ),
    "b2 is missing: it has d_model entries": "漏了 b2：它有 d_model 个数",
    "b1 is missing: it has d_ff entries": "漏了 b1：它有 d_ff 个数",
    "the biases have different sizes: b1 has d_ff entries, b2 has d_model": (
        "两个偏置大小不同：b1 有 d_ff 个数，b2 有 d_model 个"
    ),
    "that is the original 512 -> 2048 FFN; GPT-2 small has d_model 768, d_ff 3072": (
        "这是原始论文 512 → 2048 的 FFN；GPT-2 small 的 d_model 是 768，d_ff 是 3072"
    ),
    "the share is {share}: give a fraction between 0 and 1, not a percentage": (
        "占比是 {share}：请给出 0 到 1 之间的小数，而不是百分数"
    ),
    "that is attention's share; the question asks for the FFN's": (
        "这是注意力的占比；题目问的是 FFN 的占比"
    ),
    "not half: the FFN has 2 * d_model * d_ff = 8 d^2 weights, attention 4 d^2": (
        "不是一半：FFN 有 2 * d_model * d_ff = 8 d^2 个权重，注意力只有 4 d^2 个"
    ),
    "return two numbers, (ffn_parameters, ffn_share); got {prediction}": (
        "请返回两个数 (ffn_parameters, ffn_share)；实际得到 {prediction}"
    ),
    "count W1, b1, W2 and b2 at d_model={d_model}, d_ff={d_ff}": (
        "请在 d_model={d_model}、d_ff={d_ff} 时数一数 W1、b1、W2 和 b2"
    ),
    "{count:,} parameters: {hint}": "{count:,} 个参数：{hint}",
    "the share is the FFN's parameters over the layer's {total:,} "
    "(attention, FFN and two LayerNorms)": (
        "占比是 FFN 的参数量除以整层的 {total:,}（注意力、FFN 和两个层归一化）"
    ),
    "{count:,} FFN parameters, {share:.1%} of the layer's {total:,}.": (
        "FFN 有 {count:,} 个参数，占整层 {total:,} 个参数的 {share:.1%}。"
    ),
    # lesson 1's claims
    "NumPy and PyTorch agree to float32 rounding": "NumPy 与 PyTorch 的结果在 float32 舍入误差内一致",
    "numpy_ffn gives the same output": ("numpy_ffn 给出相同的输出"),
    "(1) one position at a time equals the whole sequence": "(1) 逐个位置计算等于整个序列一起计算",
    "(2) FFN(shuffled x) equals the shuffled FFN(x)": "(2) FFN(打乱的 x) 等于打乱后的 FFN(x)",
    "(3) a kernel-size-1 Conv1d equals the FFN": "(3) 卷积核大小为 1 的 Conv1d 等于 FFN",
    "the weights sum to 1": "权重之和为 1",
    "|sum - 1| below 1e-12": "|和 - 1| 低于 1e-12",
    "the output is the weighted average of the values": "输出是各个值的加权平均",
    "the first key, most like the query, gets the largest weight": (
        "与查询最相似的第一个键得到最大的权重"
    ),
    "a padded key gets weight 0": "填充的键权重为 0",
    "the other weights still sum to 1": "其余权重之和仍为 1",
    "train: about p = 0.1 of the values are zeroed": "训练模式：被置零的值约占 p = 0.1",
    "train: every survivor becomes 1 / (1 - p)": "训练模式：每个保留下来的值变为 1 / (1 - p)",
    "train: the mean stays 1": "训练模式：均值保持为 1",
    "train: a second call on the same input zeroes other values": (
        "训练模式：对同一输入再调用一次，置零的是另一些值"
    ),
    "eval: the output equals the input": "eval 模式：输出等于输入",
    "the paper's: embeddings + positions, and each sublayer's output before the add": (
        "论文规定的 dropout：作用在词嵌入 + 位置编码之和上，以及每个子层相加之前的输出上"
    ),
    "in eval mode all of them are off: two runs agree": "eval 模式下全部关闭：两次运行结果一致",
    "the shape [3, 5, 512] is kept from start to end": "形状 [3, 5, 512] 从头到尾保持不变",
    "every row of weights sums to 1": "每一行权重之和为 1",
    "max |row sum - 1| below 1e-6": "最大 |行和 - 1| 低于 1e-6",
    "no weight on a future token": "未来的 token 上没有权重",
    "nn.TransformerEncoderLayer has as many": "nn.TransformerEncoderLayer 的参数量相同",
    "the FFN is about two thirds of the layer": "FFN 约占整层的三分之二",
    "for short sequences the FFN does most of the compute": "序列较短时，FFN 承担了大部分计算量",
    "the tanh GELU is within 1e-3 of the exact one on [-3, 3]": (
        "在 [-3, 3] 上，tanh 近似的 GELU 与精确的 GELU 相差不到 1e-3"
    ),
    "but it is not the same function": "但它们不是同一个函数",
    "max |difference| {difference:.1e}": "最大 |差值| {difference:.1e}",
    "max |difference| above 1e-4": "最大 |差值| 高于 1e-4",
    "ReLU sets about half the units to exactly 0": "ReLU 把大约一半的单元置为恰好 0",
    "GELU, SiLU and the identity make no exact zeros": "GELU、SiLU 和恒等函数不产生恰好为 0 的值",
    "FLOPs grow in proportion to d_ff": "FLOPs 与 d_ff 成正比",
    "parameters grow a little less than 8 × (b2 does not grow)": (
        "参数量增至略低于原来的 8 倍，因为 b2 不随之增长"
    ),
    "{n} of the {total} dropouts": "{total} 个 dropout 中的 {n} 个",
    "×{ratio:.0f} for 8 × the width": "宽度增至 8 倍，FLOPs 也增至 {ratio:.0f} 倍",
    "max |difference| below 1e-6": "最大 |差值| 低于 1e-6",
    # lesson 1's labelled output
    "{shape!s:15} input: word vectors (词向量)": "{shape!s:15} 输入：词向量",
    "{shape!s:15} Linear1, up-projection (升维): room to learn more": "{shape!s:15} Linear1，升维：留出学到更多东西的空间",
    "{shape!s:15} ReLU: adds nonlinearity (增加非线性)": "{shape!s:15} ReLU：增加非线性",
    "{shape!s:15} Dropout: an implementation's choice, not the paper's": "{shape!s:15} dropout：各实现自加的一步，论文里没有",
    "{shape!s:15} Linear2, down-projection (降维): back to d_model": "{shape!s:15} Linear2，降维：回到 d_model",
    "output shape: {shape}": "输出形状：{shape}",
    "total            {total:>10,}": "合计             {total:>10,}",
    "formula 2*d_model*d_ff + d_ff + d_model = {n:,}": "公式 2*d_model*d_ff + d_ff + d_model = {n:,}",
    "PyTorch's count, the sum of p.numel() = {n:,}": "PyTorch 的计数，即各 p.numel() 之和 = {n:,}",
    "FLOPs per token at d_model=512, d_ff=2048: {flops:,}": "d_model=512、d_ff=2048 时，每个 token 的 FLOPs：{flops:,}",
    "a batch of 2 × 4 tokens: {flops:,}": "一批 2 × 4 个 token：{flops:,}",
    "Input shape: {shape}": "输入形状：{shape}",
    "Output shape: {shape}": "输出形状：{shape}",
    "largest |output| value = {largest:.3f}": "|输出| 的最大值 = {largest:.3f}",
    "scores q·k / sqrt(2): {scores}": "分数 q·k / sqrt(2)：{scores}",
    "weights: {w}   output: {out:.3f}": "权重：{w}；输出：{out:.3f}",
    "key 3 padded, weights: {w}": "第 3 个键是填充时，权重：{w}",
    "causal mask, 4 positions (row = query, 1 = may attend):": "因果掩码，4 个位置（行 = 查询，1 = 可以关注）：",
    "{name:33s} p={p} {shape!s:13s} {owner:18s} the paper's": "{name:33s} p={p} {shape!s:13s} {owner:18s} 论文规定",
    "{name:33s} p={p} {shape!s:13s} {owner:18s} an implementation's": "{name:33s} p={p} {shape!s:13s} {owner:18s} 实现自加",
    "tokens                 {shape}": "token 编号             {shape}",
    "embeddings             {shape}": "词嵌入                 {shape}",
    "+ positional encoding  {shape}": "+ 位置编码             {shape}",
    "attention              {shape}": "注意力                 {shape}",
    "ffn_result             {shape}": "FFN 输出               {shape}",
    "causal mask:\n{mask}": "因果掩码：\n{mask}",
    "attention weights: {shape} (batch, heads, query, key)": "注意力权重：{shape}（批次、头、查询、键）",
    "attention   {n:>10,}  {share:6.1%}": "注意力      {n:>10,}  {share:6.1%}",
    "FFN         {n:>10,}  {share:6.1%}": "FFN         {n:>10,}  {share:6.1%}",
    "LayerNorms  {n:>10,}  {share:6.1%}": "层归一化    {n:>10,}  {share:6.1%}",
    "total       {n:>10,}  {share:6.1%}": "合计        {n:>10,}  {share:6.1%}",
    "seq_len {n:5d}: FFN {ffn:>10,}  attention {attention:>10,}  FFN share {share:.0%}": "序列长度 {n:5d}：FFN {ffn:>10,}  注意力 {attention:>10,}  FFN 占比 {share:.0%}",
    "available activations: {names}": "可用的激活函数：{names}",
    "d_ff  activation  > 0    exactly 0  parameters  FLOPs/token": "d_ff  激活函数    > 0    恰为 0     参数量   每 token FLOPs",
    # lesson 1's explain question
    "Running the FFN on one position at a time gives the same output as running it on the whole sequence. What follows?": "逐个位置地运行 FFN，与对整个序列运行它，输出完全相同。由此可以得出什么？",
    "The FFN cannot move information from one token to another": "FFN 无法在 token 之间传递信息",
    "Right: each output row depends on its own input row only; moving information between tokens is attention's job.": "对：每一行输出只取决于它自己那一行输入；在 token 之间传递信息是注意力的工作。",
    "A Transformer ignores the order of the words": "Transformer 不考虑词的顺序",
    "The FFN does, but the model does not: the order enters through the positional encoding, and attention mixes the positions.": "FFN 确实不考虑，但整个模型会考虑：顺序通过位置编码进入模型，再由注意力在位置之间混合。",
    "Each position has its own FFN weights": "每个位置都有自己的一套 FFN 权重",
    "The opposite: one W1 and one W2 serve every position; that is why a kernel-size-1 convolution computes the same thing.": "恰恰相反：所有位置共用同一个 W1 和同一个 W2；正因为如此，卷积核大小为 1 的卷积才会算出同样的结果。",
    "The FFN works only for sequences of a fixed length": "FFN 只能处理固定长度的序列",
    "It works for any length: it sees one position at a time, so the length never enters its weights.": "任何长度都可以：它一次只看一个位置，序列长度根本不会进入它的权重。",
}
