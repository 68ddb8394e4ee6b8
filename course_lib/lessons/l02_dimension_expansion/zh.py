"""Chinese texts for the expansion topic (see course_lib.core.i18n.zh)."""

MESSAGES: dict[str, str] = {
    # course_lib.lessons.l02_dimension_expansion: LESSON, the index's row
    "Dimension expansion (升维), measured": "维度扩展（升维）：实测",
    "explain and measure why d_ff > d_model, why the activation is needed, how capacity grows with width": "解释并测量为什么 d_ff > d_model、为什么需要激活函数，以及表达能力如何随宽度增长",
    # course_lib.lessons.l02_dimension_expansion.figures
    "Adam step": "Adam 步数",
    "training loss (BCE)": "训练损失（BCE）",
    "{task}: {count} unit line": "{task}：{count} 条单元直线",
    "{task}: {count} unit lines": "{task}：{count} 条单元直线",
    "d_ff={d_ff}, {activation}: accuracy {accuracy:.3f}, {parameters} parameters": (
        "d_ff={d_ff}，{activation}：准确率 {accuracy:.3f}，{parameters} 个参数"
    ),
    "d_ff={d_ff}: {count} regions (bound {bound})": "d_ff={d_ff}：{count} 个区域（上界 {bound}）",
    "parameters (weights, no biases; M = million)": "参数量（仅权重，不含偏置；M = 百万）",
    "plain\nd_ff={d_ff}": "普通 FFN\nd_ff={d_ff}",
    "d_model = {d_model}: the same budgets for every variant": (
        "d_model = {d_model}：换成哪种变体，柱子都一样"
    ),
    "{variant}'s gate: {activation}(z)": "{variant} 的门控：{activation}(z)",
    "bound 1 + n + n(n-1)/2": "上界 1 + n + n(n-1)/2",
    "exact count in [-1, 1]²": "[-1, 1]² 内的精确计数",
    "distinct patterns on a grid": "网格上不同开/关模式的个数",
    "d_ff (ReLU units)": "d_ff（ReLU 单元数）",
    "linear regions": "线性区域数",
    "units of [I, -I]": "[I, -I] 的单元",
    "random W1": "随机 W1",
    "unexplained variance of x": "x 的未解释方差比例",
    "unexplained variance (held out)": "未解释方差比例（留出数据）",
    "parameters (k)": "参数量（千）",
    "FLOPs/token (k)": "每个 token 的 FLOPs（千）",
    "{depth} layer\nwidth {width}, {parameters} params": "{depth} 层\n宽度 {width}，{parameters} 个参数",
    "{depth} layers\nwidth {width}, {parameters} params": (
        "{depth} 层\n宽度 {width}，{parameters} 个参数"
    ),
    "task: {task}": "{task}",
    "triangles": "三角形任务",
    "ring": "圆环任务",
    "xor": "异或任务",
    "tanh approximation error": "tanh 近似的误差",
    # course_lib.lessons.l02_dimension_expansion.demos
    # course_lib.lessons.l02_dimension_expansion.checks: names
    "collapsed rank": "合并后的秩",
    "identity FFN": "恒等 FFN",
    "ring width": "圆环所需宽度",
    "gated budget": "门控 FFN 的参数预算",
    "SwiGLU": "实现 SwiGLU",
    # collapsed rank
    "rank(W1 W2) <= min(d_model, d_ff): expanding to 2048 and back gives nothing a single 512 × 512 matrix could not.": (
        "rank(W1 W2) ≤ min(d_model, d_ff)。升维到 2048 再降回来，"
        "得不到任何单个 512 × 512 矩阵做不到的东西。"
    ),
    "{call}: W1 W2 is a (d_model, d_model) matrix; its rank cannot exceed d_model": (
        "{call}：W1 W2 是 (d_model, d_model) 矩阵，它的秩不可能超过 d_model"
    ),
    "{call}: everything passes through the d_ff hidden numbers; a narrow d_ff caps the rank": (
        "{call}：所有信息都要经过 d_ff 个隐藏数值；d_ff 较窄时，秩受它限制"
    ),
    "{call}: the rank of a product is at most the smaller of the ranks": (
        "{call}：乘积的秩不超过各因子的秩中较小的那个"
    ),
    "fn({d_model}, {d_ff}) = {got}, expected {expected}": (
        "fn({d_model}, {d_ff}) = {got}，正确答案是 {expected}"
    ),
    # identity FFN
    "return a dict with exactly the keys 'W1', 'b1', 'W2', 'b2'": (
        "请返回一个 dict，它的键恰好是 'W1'、'b1'、'W2'、'b2'"
    ),
    "W1 must have shape (d_model, d_ff) = ({d_model}, d_ff), got {shape}": (
        "W1 的形状应为 (d_model, d_ff) = ({d_model}, d_ff)，实际是 {shape}"
    ),
    "W2 has shape {W2}, W1 {W1}: W2 maps back, shape (d_ff, d_model); in the formula's layout it is W1's transpose, not a copy": (
        "W2 的形状是 {W2}，W1 是 {W1}。W2 负责映射回去，形状为 (d_ff, d_model)。"
        "按公式的布局，它是 W1 的转置，而不是 W1 的副本"
    ),
    "only the positive half comes through: add units for -x (W1 = [I, -I])": (
        "只有正的一半通过了：再为 -x 加上单元（W1 = [I, -I]）"
    ),
    "FFN(x) = |x|: relu(x) + relu(-x); the -x units must be subtracted (W2 = [I; -I])": (
        "FFN(x) = |x|：这是 relu(x) + relu(-x)；-x 单元的输出应当减去（W2 = [I; -I]）"
    ),
    "FFN(x) = -x: the signs of W2's two blocks are swapped": (
        "FFN(x) = -x：W2 两个分块的符号弄反了"
    ),
    "d_ff = {d_ff} < 2 * d_model = {twice}: too few units to keep both halves": (
        "d_ff = {d_ff} < 2 * d_model = {twice}：单元太少，无法同时保留正负两半"
    ),
    "FFN(x) differs from x: check W1 = [I, -I], W2 = [I; -I] and zero biases": (
        "FFN(x) 与 x 不同：请检查 W1 = [I, -I]、W2 = [I; -I]，以及偏置是否为零"
    ),
    "relu(x) - relu(-x) = x: 2 * d_model units pass every input through unchanged.": (
        "relu(x) - relu(-x) = x，因此 2 * d_model 个单元让任何输入原样通过。"
    ),
    # ring width
    "d_ff={got} is the first width whose median reaches {threshold} ({median:.3f}).": (
        "d_ff={got} 是中位数准确率首次达到 {threshold} 的宽度（{median:.3f}）。"
    ),
    "{got} is xor's width: xor's boundary is two straight lines, the ring's a curve": (
        "{got} 是异或所需的宽度：异或的边界是两条直线，而圆环的边界是曲线"
    ),
    "{got} is the triangles' edge count: the ring's boundary is two circles, polygons only approximate them": (
        "{got} 是两个三角形的边数：圆环的边界是两个圆，多边形只能近似它们"
    ),
    "{got} is the triangles' width; read the ring row": (
        "{got} 是三角形任务所需的宽度；请看表中圆环任务那一行"
    ),
    "{got} is tanh's width on the ring; the question asks about ReLU": (
        "{got} 是 tanh 在圆环上所需的宽度；题目问的是 ReLU"
    ),
    "the sweep has the widths {widths}: the answer is one of them": (
        "扫描中的宽度是 {widths}：答案是其中之一"
    ),
    "at d_ff={got} the median is {median:.3f}, below {threshold}": (
        "d_ff={got} 时中位数为 {median:.3f}，低于 {threshold}"
    ),
    "a smaller width already reaches {threshold}: look left of d_ff={got}": (
        "更小的宽度已经达到 {threshold}：看看 d_ff={got} 左边"
    ),
    # gated budget
    "e.g. d_model=768, d_ff=3072 -> d_ff'={d_equal}, {parameters:,} parameters, as many as the plain FFN's weights.": (
        "例如 d_model=768，d_ff=3072 → d_ff'={d_equal}，共 {parameters:,} 个参数，"
        "与普通 FFN 的权重一样多。"
    ),
    "{call}: that is the gated FFN at the same d_ff; shrink it to d_ff' = round(2/3 * d_ff) = {d_equal} first": (
        "{call}：这是相同 d_ff 下的门控 FFN；要先把宽度缩小到 d_ff' = round(2/3 * d_ff) = {d_equal}"
    ),
    "{call}: a gated FFN has three matrices (W, V, W2), not two": (
        "{call}：门控 FFN 有三个矩阵（W、V、W2），不是两个"
    ),
    "{call}: that is the plain FFN's weights; the question is the gated one with d_ff' = {d_equal}": (
        "{call}：这是普通 FFN 的权重数；题目问的是 d_ff' = {d_equal} 的门控 FFN"
    ),
    "{call}: Shazeer's gated layers have no biases": "{call}：Shazeer 的门控层没有偏置",
    "{call}, expected 3 * d_model * d_ff' with d_ff' = round(2 * d_ff / 3) = {d_equal}": (
        "{call}，正确答案是 3 * d_model * d_ff'，其中 d_ff' = round(2 * d_ff / 3) = {d_equal}"
    ),
    # SwiGLU
    "the output has shape {got}, expected {expected}: did you apply W2 (d_ff -> d_model)?": (
        "输出的形状是 {got}，应为 {expected}：是否乘了 W2（d_ff → d_model）？"
    ),
    "that is ReGLU: the gate's activation should be SiLU (x * sigmoid(x)), not ReLU": (
        "这是 ReGLU：门控的激活函数应是 SiLU（x * sigmoid(x)），而不是 ReLU"
    ),
    "that is GEGLU: the gate's activation should be SiLU, not GELU": (
        "这是 GEGLU：门控的激活函数应是 SiLU，而不是 GELU"
    ),
    "that is the original GLU: sigmoid(x W) gates; SwiGLU uses silu(x W) = x W * sigmoid(x W)": (
        "这是最初的 GLU：用 sigmoid(x W) 做门控；SwiGLU 用的是 silu(x W) = x W * sigmoid(x W)"
    ),
    "the activation is on the wrong branch: silu(x W) * (x V), not (x W) * silu(x V)": (
        "激活函数放错了分支：应是 silu(x W) * (x V)，而不是 (x W) * silu(x V)"
    ),
    "the linear branch x V is missing: the gate multiplies it": (
        "缺少线性分支 x V：门控要与它相乘"
    ),
    "the SiLU is applied after the product; it acts on x W alone": (
        "SiLU 用在了乘积之后；它只应作用于 x W"
    ),
    "the values differ from (silu(x W) * (x V)) W2: check each step": (
        "数值与 (silu(x W) * (x V)) W2 不同：请逐步检查"
    ),
    "matches (silu(x W) * (x V)) W2.": "与 (silu(x W) * (x V)) W2 一致。",
    # lesson 2's claims: statements and their measured parts
    "both curves fall as d_ff grows": "两条曲线都随 d_ff 增大而下降",
    "the built units lose nothing from d_ff = 2·d_model on": (
        "从 d_ff = 2·d_model 起，构造的单元不丢失任何信息"
    ),
    "a live retrain with these settings reproduces the stored sweep": (
        "用这些设置现场重新训练，复现了存储的扫描结果"
    ),
    "identity: the same accuracy at every width, on every task": (
        "恒等函数（identity）：在每个任务上，所有宽度的准确率都相同"
    ),
    "ReLU: the ring needs more units than xor": "ReLU：圆环比异或需要更多单元",
    "the spiral: no activation reaches the threshold within the sweep": (
        "螺旋：在扫描范围内，没有哪种激活函数达到阈值"
    ),
    "ReLU: trained networks need more units than the triangles' edges": (
        "ReLU：训练出的网络所需的单元数多于三角形的边数"
    ),
    "SiLU on the ring sits at the threshold: just above at 32, just below at 64": (
        "SiLU 在圆环上恰好处于阈值附近：32 时略高于阈值，64 时略低于阈值"
    ),
    "the exact count never exceeds the bound": "精确计数从不超过上界",
    "the grid never finds more regions than there are": "网格找到的区域从不多于实际的区域",
    "doubling the units about quadruples the pieces": "单元数翻倍，线性区域数约变为四倍",
    "from d_ff = 6 on, every seed's count stays below the bound": (
        "从 d_ff = 6 起，每个种子的区域数都低于上界"
    ),
    "identity: the same accuracy at d_ff 1, 8 and 64, and below 0.6, on every task": (
        "恒等函数（identity）：在每个任务上，d_ff 取 1、8、64 时准确率都相同，且都低于 0.6"
    ),
    "relu on the triangles passes 0.95 within the stored widths": (
        "在已存储的各个宽度中，ReLU 在三角形任务上的准确率能超过 0.95"
    ),
    "each doubling of d_ff gains less than the one before": ("d_ff 每翻一倍，收益都比上一次小"),
    "one linear layer has 3 parameters": "一个线性层有 3 个参数",
    "one linear layer draws one straight line": "一个线性层只能画出一条直线",
    "every stack with a hidden layer beats it on every seed": (
        "每个带隐藏层的堆叠在每个种子上都胜过它"
    ),
    "no depth wins on every seed": "没有哪个深度在每个种子上都最好",
    "the 2-layer stack is best on no seed": "两层的堆叠在任何种子上都不是最好的",
    "SwiGLU at 8/3·d_model matches a plain FFN at 4·d_model": (
        "宽 8/3·d_model 的 SwiGLU 与宽 4·d_model 的普通 FFN 参数量相当"
    ),
    "gated at the same d_ff: 1.5 times the plain weights": (
        "相同 d_ff 下，门控 FFN 的权重是普通 FFN 的 1.5 倍"
    ),
    "gated at d_ff' = {d_ff_equal}: the plain budget up to rounding": (
        "d_ff' = {d_ff_equal} 的门控 FFN：除取整误差外，与普通 FFN 的预算相同"
    ),
    "d_model=8, d_ff={d_ff:>2}: two layers equal one matrix": "d_model=8，d_ff={d_ff:>2}：两个线性层合起来等于一个矩阵",
    "max |difference| below 1e-10, rank {rank} (bound {bound})": "最大 |差值| 低于 1e-10，秩为 {rank}，上界为 {bound}",
    "from d_ff={exact_from}": "即 d_ff={exact_from}",
    "{ring} against {xor}": "{ring} 对比 {xor}",
    "{TRIANGLE_EDGES} edges, first width reaching {THRESHOLD}: {relu_triangles}": "{TRIANGLE_EDGES} 条边，首个达到 {THRESHOLD} 的宽度为 {relu_triangles}",
    "medians {at_32:.3f} and {at_64:.3f}": "中位数分别为 {at_32:.3f} 和 {at_64:.3f}",
    "64 -> 128 units: ×{growth:.1f}": "64 → 128 个单元：×{growth:.1f}",
    "seeds {REGIONS_SEEDS}, widths up to {widest}": "种子 {REGIONS_SEEDS}，宽度最大到 {widest}",
    "best per seed: {best} layers": "各种子的最佳层数为 {best}",
    "d_model 4096: d_ff' = {d_equal}, 8/3 · 4096 = {product:.2f}": "d_model 为 4096 时：d_ff' = {d_equal}，8/3 · 4096 = {product:.2f}",
    "{gated_equal:,} against {plain:,}": "{gated_equal:,} 对比 {plain:,}",
    "xor, relu, {widths} widths × {seeds} seeds, all within 0.005": "异或任务，ReLU，{widths} 个宽度 × {seeds} 个种子，误差全部在 0.005 以内",
    "every seed below 0.6": "每个种子都低于 0.6",
    # lesson 2's labelled output
    "         input: {shape}": "          输入：{shape}",
    " after Linear1: {shape}": "  Linear1 之后：{shape}",
    "    after ReLU: {shape}": "     ReLU 之后：{shape}",
    " after Dropout: {shape}": "  dropout 之后：{shape}",
    " after Linear2: {shape}": "  Linear2 之后：{shape}",
    "max |FFN(x) - x| = {gap}": "最大 |FFN(x) - x| = {gap}",
    "d_ff={d_ff:>2}: [I, -I] units miss {built:.3f}, random units miss {random:.3f}": "d_ff={d_ff:>2}：[I, -I] 单元的未解释方差比例 {built:.3f}，随机单元 {random:.3f}",
    "{networks} networks; widths {widths}": "{networks} 个网络；宽度 {widths}",
    "seeds {seeds}; {steps} Adam steps, learning rate {lr}; threshold {threshold}": "种子 {seeds}；Adam {steps} 步，学习率 {lr}；阈值 {threshold}",
    "      task | {columns}": "      任务 | {columns}",
    "x=0 and y=0 (a cross): 4               -> count_regions = {n}": "x=0 与 y=0（十字）：4                  → count_regions = {n}",
    "three lines through (0, 0): 6          -> count_regions = {n}": "三条直线都过 (0, 0)：6                 → count_regions = {n}",
    "two parallel lines x=±0.5: 3           -> count_regions = {n}": "两条平行线 x=±0.5：3                   → count_regions = {n}",
    "three lines in general position: 7     -> count_regions = {n}": "三条处于一般位置的直线：7              → count_regions = {n}",
    "x=2, outside the window: 1             -> count_regions = {n}": "x=2，在窗口之外：1                     → count_regions = {n}",
    "d_ff={n:>3}: exact {exact:>5}, grid {grid:>5}, bound {bound:>5}": "d_ff={n:>3}：精确 {exact:>5}，网格 {grid:>5}，上界 {bound:>5}",
    "d_model 64, {steps} Adam steps per student, {seeds} seeds": "d_model 64，每个学生 Adam {steps} 步，{seeds} 个种子",
    "d_ff/d_model  d_ff parameters FLOPs/token         missed": "d_ff/d_model  d_ff  参数量 每 token FLOPs 未解释方差比例",
    "gain per doubling of d_ff: {gains}": "d_ff 每翻一倍的收益：{gains}",
    "{d} linear layer(s), hidden width {w}, {p} parameters: {above} of {n} seeds above 0.75": "{d} 个线性层，隐藏宽度 {w}，{p} 个参数：{n} 个种子中有 {above} 个的准确率高于 0.75",
    "act(z)": "激活值 f(z)",
    "max |gelu_tanh - gelu| on [-3, 3]: {gap:.1e}": "在 [-3, 3] 上，最大 |gelu_tanh - gelu| = {gap:.1e}",
    "plain FFN weights (d_ff={d_ff}): {plain:,}; equal-budget gated d_ff' = {d_ff_equal}": "普通 FFN 的权重（d_ff={d_ff}）：{plain:,}；参数预算相同的门控 FFN：d_ff' = {d_ff_equal}",
    "{variant:>7}: {n:,} parameters": "{variant:>7}：{n:,} 个参数",
    # course_lib.lessons.l02_dimension_expansion.experiments.collapse: the progress bar
    "reading x back: widths d_ff": "从隐藏层读回 x：各个 d_ff",
}
