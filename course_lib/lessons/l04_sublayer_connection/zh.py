"""Chinese texts for the sublayer topic (see course_lib.core.i18n.zh)."""

MESSAGES: dict[str, str] = {
    # course_lib.lessons.l04_sublayer_connection: LESSON, the index's row
    "The sublayer connection: residual + LayerNorm (子层连接)": "子层连接（sublayer connection）：残差 + 层归一化",
    "write LayerNorm, RMSNorm and the sublayer connection, post-norm and pre-norm, equal to PyTorch's layers": "写出 LayerNorm、RMSNorm，以及后置层归一化和前置层归一化两种子层连接，结果与 PyTorch 的层一致",
    # course_lib.lessons.l04_sublayer_connection.figures: names, legends, axes and titles
    "post-norm": "后置层归一化",
    "pre-norm": "前置层归一化",
    "no norm": "无归一化",
    "post-norm, residual": "后置层归一化，有残差",
    "post-norm, no residual": "后置层归一化，无残差",
    "pre-norm, residual": "前置层归一化，有残差",
    "pre-norm, no residual": "前置层归一化，无残差",
    "no norm, residual": "无归一化，有残差",
    "no norm, no residual": "无归一化，无残差",
    "layer (1 = nearest the input)": "层（1 = 最靠近输入）",
    "gradient of each layer's FFN W2": "每层 FFN 的 W2 梯度",
    "after layer (0 = input)": "经过的层数（0 = 输入）",
    "RMS of the stream": "残差流的 RMS",
    "activation scale through depth": "激活尺度随深度的变化",
    "{layers} layers = {sublayers} sublayers, at initialisation": (
        "初始化时，{layers} 层（{sublayers} 个子层）"
    ),
    "{depth} layers": "{depth} 层",
    "‖∂L/∂W2‖ at initialisation": "初始化时的 ‖∂L/∂W2‖",
    "{norm}, warm-up {steps} steps: {learned} of {seeds} seeds learn": (
        "{norm}，预热 {steps} 步：{seeds} 个种子中 {learned} 个学会"
    ),
    "{norm}, no warm-up: {learned} of {seeds} seeds learn": (
        "{norm}，无预热：{seeds} 个种子中 {learned} 个学会"
    ),
    "step": "步数",
    "training loss": "训练损失",
    "warm-up race, peak learning rate {lr:g}, {seeds} seeds each": (
        "预热对比实验：峰值学习率 {lr:g}，每种设置 {seeds} 个随机种子"
    ),
    "warm-up race, peak learning rate {lr:g}, {first} to {last} seeds": (
        "预热对比实验：峰值学习率 {lr:g}，{first} 到 {last} 个随机种子"
    ),
    # course_lib.lessons.l04_sublayer_connection.checks: checker names
    "layer_norm": "layer_norm",
    "post-norm connection": "后置层归一化的子层连接",
    "pre-norm connection": "前置层归一化的子层连接",
    "output std prediction": "输出标准差预测",
    "pre-norm encoder layer": "前置层归一化编码器层",
    # course_lib.lessons.l04_sublayer_connection.checks: LayerNorm
    "eps is outside the square root: divide by sqrt(var + eps), not sqrt(var) + eps": (
        "eps 放在了平方根外面：应除以 sqrt(var + eps)，而不是 sqrt(var) + eps"
    ),
    "the variance is unbiased (divides by n - 1): LayerNorm uses mean((x - mean)^2)": (
        "方差用成了无偏估计（除以 n - 1）：LayerNorm 用的是 mean((x - mean)^2)"
    ),
    "that is the unbiased std + eps variant (x.std() divides by n - 1, eps outside the sqrt); "
    "nn.LayerNorm computes sqrt(biased var + eps)": (
        "这是“无偏标准差 + eps”的变体（x.std() 除以 n - 1，eps 在平方根外面）；"
        "nn.LayerNorm 计算的是 sqrt(有偏方差 + eps)"
    ),
    "eps is missing: divide by sqrt(var + eps)": "漏掉了 eps：应除以 sqrt(var + eps)",
    "gain and bias are swapped: multiply by gain, then add bias": (
        "gain 和 bias 用反了：先乘以 gain，再加上 bias"
    ),
    "gain and bias are not applied: after normalising, multiply by gain, add bias": (
        "没有用上 gain 和 bias：归一化之后，乘以 gain，再加上 bias"
    ),
    "the statistics are taken over the whole tensor: LayerNorm normalises each position over its "
    "last dimension (dim=-1, keepdim=True)": (
        "统计量是在整个张量上算的：LayerNorm 对每个位置在最后一维上归一化（dim=-1, keepdim=True）"
    ),
    "the statistics are taken over dim 0, across the batch: that is BatchNorm's direction; "
    "LayerNorm normalises each position over its own features (dim=-1)": (
        "统计量是沿 dim 0、跨批次算的：那是 BatchNorm 的方向；LayerNorm 对每个位置在它自己的特征上归一化（dim=-1）"
    ),
    "the output has shape {got}, expected {expected}: keep the last dimension (keepdim=True when "
    "you take the mean and variance)": (
        "输出形状是 {got}，应为 {expected}：求均值和方差时保留最后一维（keepdim=True）"
    ),
    "the values differ from gain * (x - mean) / sqrt(var + eps) + bias": (
        "数值与 gain * (x - mean) / sqrt(var + eps) + bias 不一致"
    ),
    "matches gain * (x - mean) / sqrt(var + eps) + bias, the formula of nn.LayerNorm.": (
        "与 nn.LayerNorm 的公式 gain * (x - mean) / sqrt(var + eps) + bias 一致。"
    ),
    # course_lib.lessons.l04_sublayer_connection.checks: the two sublayer connections
    "the norm is on the wrong side of the residual: that is the post-norm formula": (
        "归一化放错了残差的一侧：这是后置层归一化的公式"
    ),
    "the norm is on the wrong side of the residual: that is the pre-norm formula": (
        "归一化放错了残差的一侧：这是前置层归一化的公式"
    ),
    "the residual is missing: add x back (x + ...)": "缺少残差连接：要把 x 加回来（x + ...）",
    "the residual adds norm(x); it must add the raw x": ("残差加的是 norm(x)；应该加原始的 x"),
    "the norm wraps only the sublayer's output; post-norm normalises the sum x + sublayer(x)": (
        "归一化只作用在子层的输出上；后置层归一化要对和 x + sublayer(x) 做归一化"
    ),
    "the sum is normalised again at the end: pre-norm returns x + sublayer(norm(x)) as it is": (
        "最后又对和做了一次归一化：前置层归一化直接返回 x + sublayer(norm(x))"
    ),
    "the values differ from {formula}": "数值与 {formula} 不一致",
    "matches {formula}.": "与 {formula} 一致。",
    # course_lib.lessons.l04_sublayer_connection.checks: the output-scale prediction
    "return two numbers: (post-norm std, pre-norm std)": (
        "请返回两个数：(后置层归一化的标准差, 前置层归一化的标准差)"
    ),
    "post-norm ends with LayerNorm: whatever the input's scale, it leaves at std 1": (
        "后置层归一化以 LayerNorm 结尾：无论输入的尺度多大，输出的标准差都是 1"
    ),
    "post-norm's last step is LayerNorm (gain 1, bias 0 at initialisation)": (
        "后置层归一化的最后一步是 LayerNorm（初始化时增益为 1，偏置为 0）"
    ),
    "pre-norm normalises only the copy the sublayer reads; the residual adds the raw x (std 3) "
    "back, so the output keeps x's scale": (
        "前置层归一化只对子层读入的那份副本做归一化；残差连接把原始的 x（标准差 3）加回来，"
        "所以输出保留了 x 的尺度"
    ),
    "9 is the variance of x; the question asks for the standard deviation": (
        "9 是 x 的方差；题目问的是标准差"
    ),
    "pre-norm returns x + sublayer(norm(x)): x has std 3, and the sublayer reads a std-1 copy, "
    "so it adds comparatively little": (
        "前置层归一化返回 x + sublayer(norm(x))：x 的标准差是 3，而子层读入的是标准差为 1 "
        "的副本，所以它加上的部分相对很小"
    ),
    "measured: post-norm {post:.1f}, pre-norm {pre:.1f}. The norm's place decides whether the "
    "input's scale survives.": (
        "实测后置层归一化为 {post:.1f}，前置层归一化为 {pre:.1f}。归一化的位置决定了输入的尺度"
        "能否保留下来。"
    ),
    # course_lib.lessons.l04_sublayer_connection.checks: the pre-norm encoder layer
    "that is post-norm placement, norm(x + sublayer(x)); pre-norm normalises the sublayer's "
    "input: x + sublayer(norm(x))": (
        "这是后置层归一化的位置 norm(x + sublayer(x))；前置层归一化是对子层的输入做归一化："
        "x + sublayer(norm(x))"
    ),
    "the final residual is missing: the layer returns h + ffn(norm2(h))": (
        "缺少最后一个残差连接：这一层应返回 h + ffn(norm2(h))"
    ),
    "the first residual is missing: h = x + attention(norm1(x))": (
        "缺少第一个残差连接：h = x + attention(norm1(x))"
    ),
    "the sums are normalised after the residual as well: pre-norm adds the sublayer's output to "
    "the raw stream and normalises nothing after it": (
        "残差相加之后又做了归一化：前置层归一化把子层的输出加到原始的残差流上，之后不再归一化"
    ),
    "the residual adds the normalised x; it must add the raw x": (
        "残差加的是归一化后的 x；应该加原始的 x"
    ),
    "norm1 and norm2 are swapped: norm1 goes before attention, norm2 before the FFN": (
        "norm1 和 norm2 用反了：norm1 在注意力之前，norm2 在 FFN 之前"
    ),
    "one norm is used twice: norm1 before attention, norm2 before the FFN": (
        "同一个归一化层用了两次：注意力之前用 norm1，FFN 之前用 norm2"
    ),
    "the output is normalised again at the end: a pre-norm layer returns the sum as it is (the "
    "stack's final LayerNorm comes after the last layer)": (
        "最后又对输出做了一次归一化：前置层归一化的层直接返回这个和（整个堆叠的最终 LayerNorm "
        "放在最后一层之后）"
    ),
    "the output has shape {got}, expected {expected}": "输出形状是 {got}，应为 {expected}",
    "the values differ from h = x + attention(norm1(x)); h + ffn(norm2(h))": (
        "数值与 h = x + attention(norm1(x))；h + ffn(norm2(h)) 不一致"
    ),
    "equals nn.TransformerEncoderLayer(norm_first=True) within 1e-5, 3 random layers.": (
        "在 3 个随机层上与 nn.TransformerEncoderLayer(norm_first=True) 相同，误差在 1e-5 以内。"
    ),
    # notebooks/04_sublayer_connection.ipynb: claims, in the order the lesson makes them
    "after: every position has mean 0": "归一化后：每个位置的均值都是 0",
    "largest |mean| below 1e-5": "最大 |均值| 低于 1e-5",
    "after: every position has variance 1 (up to ε)": "归一化后：除去 ε 的影响，每个位置的方差都是 1",
    "ours equals nn.LayerNorm": "我们的实现与 nn.LayerNorm 相同",
    "LayerNorm: each of the 6 positions has mean 0": "LayerNorm：6 个位置的均值都是 0",
    "BatchNorm: each of the 4 features has mean 0": "BatchNorm：4 个特征的均值都是 0",
    "BatchNorm: not every position has mean 0": "BatchNorm：各位置的均值仍不全为 0",
    "BatchNorm: sequence 1's output changes when sequence 2 leaves the batch": (
        "BatchNorm：序列 2 离开批次后，序列 1 的输出随之改变"
    ),
    "LayerNorm: it does not": "LayerNorm：序列 1 的输出不变",
    "BatchNorm: the same input gives another output at inference": (
        "BatchNorm：同一个输入在推理时得到不同的输出"
    ),
    "ours equals nn.RMSNorm": "我们的实现与 nn.RMSNorm 相同",
    "every position leaves with RMS 1": "每个位置输出的 RMS 都是 1",
    "unlike LayerNorm, RMSNorm keeps each position's mean": (
        "与 LayerNorm 不同，RMSNorm 保留了每个位置的均值"
    ),
    "every |mean| above 0.2": "每个 |均值| 都高于 0.2",
    "post-norm: every position leaves with std 1": "后置层归一化：每个位置输出的标准差都是 1",
    "pre-norm: the output keeps the scale of x": "前置层归一化：输出保留了 x 的尺度",
    "std above 2.5": "标准差高于 2.5",
    "both layers have exactly these 4 dropout sites": "两个层都恰好有这 4 处 dropout",
    "no norm, no residual: signal and gradient fade toward 0": (
        "无归一化、无残差：信号和梯度都衰减到接近 0"
    ),
    "no norm, residual alone: the signal grows and the gradient explodes": (
        "无归一化、只有残差：信号不断增大，梯度爆炸"
    ),
    "with a norm, the first layer's gradient stays of order 1": (
        "有归一化时，第一层的梯度保持在 1 的量级"
    ),
    "0.1 to 10": "0.1 到 10 之间",
    "post-norm holds the stream at RMS 1": "后置层归一化让残差流的 RMS 保持为 1",
    "pre-norm's stream grows, layer after layer": "前置层归一化的残差流逐层增大",
    "without a final LayerNorm, the output's scale grows with depth": (
        "没有最终的 LayerNorm，输出的尺度随深度增大"
    ),
    "16 layers against 4": "16 层对比 4 层",
    "with it, the output leaves at RMS 1": "加上它，输出的 RMS 为 1",
    "pre-norm: the last layer's gradient falls at every doubling of depth": (
        "前置层归一化：深度每翻一倍，最后一层的梯度都会下降"
    ),
    "from 2 to 16 layers it falls by a factor near sqrt(2/16), the ratio of the O(.) bounds": (
        "从 2 层到 16 层，最后一层的梯度约降到原来的 √(2/16)，即两个 O(·) 上界之比"
    ),
    "post-norm: the last layer's gradient does not shrink with depth": (
        "后置层归一化：最后一层的梯度不随深度减小"
    ),
    "16 layers: pre-norm's gradient falls from input to output (the paper's is about flat)": (
        "16 层：前置层归一化的梯度从输入端到输出端下降，论文测得的则大致持平"
    ),
    "first layer over last above 4": "第一层与最后一层之比高于 4",
    "pre-norm: the first layer's gradient does not fall with depth": (
        "前置层归一化：第一层的梯度不随深度下降"
    ),
    "16 layers against 2": "16 层对比 2 层",
    "post-norm: no growth toward the output (the paper's grows): last below first, every depth": (
        "后置层归一化：梯度没有朝输出端增大（论文测得的会增大），每种深度下最后一层都低于第一层"
    ),
    "16 layers: post-norm's output side stays within 1.5x of its input side": (
        "16 层：后置层归一化的第一层梯度不到最后一层的 1.5 倍"
    ),
    "post-norm learns fewer seeds without warm-up than with it": (
        "后置层归一化不预热时，学会任务的种子比预热时少"
    ),
    "pre-norm learns every seed, with or without warm-up": (
        "前置层归一化无论是否预热，每个种子都能学会"
    ),
    "post-norm's stalled seeds stay far below the learned ones": (
        "后置层归一化中停滞的种子远远落后于学会的种子"
    ),
    "none above 0.7, where chance is 0.125": "没有一个高于 0.7，而随机猜测为 0.125",
    "default: the stream's RMS is 1 after every layer": "默认设置：每层之后残差流的 RMS 都是 1",
    "default: every layer's gradient within a factor 3 of the others": (
        "默认设置：各层梯度中，最大值不到最小值的 3 倍"
    ),
    "pre-norm, 8 layers: the stream's RMS rises after every layer": (
        "前置层归一化，8 层：残差流的 RMS 每经过一层都会升高"
    ),
    "post-norm: every position leaves with mean 0": "后置层归一化：每个位置输出的均值都是 0",
    "causal mask: sequences 2 and 3 differ only in token 4, so they agree on tokens 1-3 only": (
        "因果掩码：序列 2 和 3 只在第 4 个 token 上不同，所以两者只在第 1–3 个 token 上一致"
    ),
    "d_model = {d}: the ratio is sqrt(d/(d-1))": "d_model = {d}：比值为 √(d/(d−1))",
    "{norm} (norm_first={norm_first}), {activation}: encoder and decoder equal PyTorch's": (
        "{norm}（norm_first={norm_first}），{activation}：编码器层和解码器层都与 PyTorch 的层相同"
    ),
    "{fall:.2f} measured, {bound:.2f} from the bound": "实测 {fall:.2f}，上界之比为 {bound:.2f}",
    "{post_cold} of {seeds} against {post_warm} of {seeds}": (
        "{post_cold}/{seeds} 对比 {post_warm}/{seeds}"
    ),
    "within 1e-4": "误差在 1e-4 以内",
    "within 1e-6": "误差在 1e-6 以内",
    "within 1e-3, at 16 layers": "16 层时，误差在 1e-3 以内",
    "within 1e-3": "误差在 1e-3 以内",
    # the depth demo's residual toggle
    "on": "开",
    "off": "关",
    # lesson 4's labelled output
    "encoder sublayer connections: {n}": "编码器层的子层连接数：{n}",
    "decoder sublayer connections: {n}": "解码器层的子层连接数：{n}",
    "before: mean per position {means}": "归一化前，各位置的均值依次为 {means}",
    "d_model = {d}: max |difference| = {gap:.4f}, ratio = {ratio:.4f}": "d_model = {d}：最大 |差值| = {gap:.4f}，比值 = {ratio:.4f}",
    "input shape: {shape}": "输入形状：{shape}",
    "after the attention sublayer: {shape}": "经过注意力子层后：{shape}",
    "PyTorch            ours                 p, ours / PyTorch's": "PyTorch            我们的实现           p（我们的 / PyTorch 的）",
    "{t:18} {o:20} {ours} / {theirs}   the paper's": "{t:18} {o:20} {ours} / {theirs}   论文规定",
    "{t:18} {o:20} {ours} / {theirs}   an implementation's": "{t:18} {o:20} {ours} / {theirs}   实现额外添加",
    "the paper's, on embeddings + positional encoding: PositionalEncoding.dropout, p = {p}": "论文规定的另一处在词嵌入 + 位置编码之后：PositionalEncoding.dropout，p = {p}",
    "{stack}: ‖∂L/∂W2‖ of layer 1 {grad:.0e}, RMS after 16 layers {rms:.0e}": "{stack}：第一层 ‖∂L/∂W2‖ 为 {grad:.0e}，16 层后 RMS 为 {rms:.0e}",
    "pre-norm, {depth} layers: stream RMS {rms:.1f} before the final norm": "前置层归一化，{depth} 层：最终归一化之前，残差流的 RMS 为 {rms:.1f}",
    "{norm}, {p.depth} layers: last layer {last:.3f}, first layer {p.w2_grad[0]:.3f}": (
        "{norm}，{p.depth} 层：最后一层 {last:.3f}，第一层 {p.w2_grad[0]:.3f}"
    ),
    "{norm}, warm-up {warmup}: {n} of {seeds} seeds above {threshold}": (
        "{norm}，预热 {warmup} 步：{seeds} 个种子中有 {n} 个准确率高于 {threshold}"
    ),
    "settings measured: {n}": "已测量的设置数：{n}",
    "token ids:               {shape}": "token 编号：            {shape}",
    "embeddings + positions:  {shape}": "词嵌入 + 位置编码：     {shape}",
    "after the encoder layer: {shape}": "经过编码器层后：        {shape}",
    # lesson 4's question
    "A pre-norm stack at initialisation grows from 2 to 16 layers. What happens to the gradient of its last layer's W2?": "一个处于初始化状态的前置层归一化堆叠，从 2 层加深到 16 层。最后一层 W2 的梯度会怎样？",
    "it falls, by a factor near √(2/16)": "下降，约降到原来的 √(2/16)",
    "Right: the bound is O(d·√(ln d / L)); more layers dilute the last one's share.": "对：上界是 O(d·√(ln d / L))；层数越多，最后一层分到的份额越小。",
    "it stays the same": "保持不变",
    "That is post-norm: its last-layer bound O(d·√ln d) does not depend on L.": "那是后置层归一化：它最后一层的上界 O(d·√ln d) 与 L 无关。",
    "it grows with depth": "随深度增大",
    "Growth toward the output is what post-norm shows in the paper; pre-norm's stream grows, and its normalised last layer sees a smaller share of it.": "越靠近输出梯度越大，这是论文中后置层归一化的表现；前置层归一化的残差流不断变大，最后一层读入的是归一化后的副本，分到的份额更小。",
    "it vanishes": "消失",
    "The residual path keeps every layer's gradient of order 1; it falls, but only like 1/√L.": "残差路径让每一层的梯度都保持在 1 的量级；它会下降，但只按 1/√L 的速度下降。",
    # lesson 4's explain question
    "BatchNorm's output for sequence 1 changed when sequence 2 left the batch; LayerNorm's did not. Why do Transformers use LayerNorm?": "序列 2 离开批次后，BatchNorm 对序列 1 的输出变了，LayerNorm 的却没变。Transformer 为什么用 LayerNorm？",
    "A position's output depends on that position alone": "每个位置的输出只取决于这个位置本身",
    "Right: not on the batch, its padding or its size, and the same function runs at training and at inference, where BatchNorm switches to running averages.": "对：与批次、批次里的填充和批次大小都无关，而且训练和推理时计算的是同一个函数；BatchNorm 在推理时则要改用滑动平均。",
    "BatchNorm cannot take 3-D tensors": "BatchNorm 处理不了三维张量",
    "It can: nn.BatchNorm1d took (batch, features, positions) above; what differs is what it averages over, not the shape.": "可以处理：上面的 nn.BatchNorm1d 接收的就是 (batch, features, positions)；两者的区别在于对哪些数求平均，而不在于形状。",
    "LayerNorm has no learnable parameters": "LayerNorm 没有可学习的参数",
    "It has two per feature, a gain γ and a bias β; RMSNorm is the one that drops the bias.": "它每个特征有两个参数：增益 γ 和偏置 β；去掉偏置的是 RMSNorm。",
    "Only LayerNorm removes the input's scale": "只有 LayerNorm 会去掉输入的尺度",
    "Both remove it, over different axes: BatchNorm over the batch and the positions, LayerNorm over each position's features.": "两者都会去掉尺度，只是沿不同的轴：BatchNorm 沿批次和位置，LayerNorm 沿每个位置的特征。",
}
