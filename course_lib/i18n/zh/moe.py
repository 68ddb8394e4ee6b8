"""Chinese texts for the mixture-of-experts topic (see course_lib.i18n.zh)."""

MESSAGES: dict[str, str] = {
    # notebooks/06_mixture_of_experts.ipynb: section 1
    "router scores {shape}: one per expert": "路由器分数 {shape}：每个专家一个",
    "gates         {shape}: nonzero per token {n}": "门控权重      {shape}：每个 token 的非零个数 {n}",
    "output        {shape}": "输出          {shape}",
    "every token's gates sum to 1": "每个 token 的门控权重之和为 1",
    "each token runs exactly 2 of the 8 experts": "每个 token 恰好运行 8 个专家中的 2 个",
    "one expert: the layer is the FFN": "一个专家：这一层就是 FFN",
    "k = E: the softmax-weighted sum of every expert": "k = E：全部专家按 softmax 加权的和",
    # section 2
    "model               parameters  active per token  FLOPs per token and layer (router, experts)": (
        "模型                参数量      每 token 激活参数   每 token 每层 FLOPs（路由器与专家）"
    ),
    "{name:18s} {total:9.2f}B {active:12.2f}B {flops:>21,}": (
        "{name:18s} {total:9.2f}B {active:12.2f}B {flops:>21,}"
    ),
    "Mixtral's published total follows from its shape": "Mixtral 公布的总参数量可由其结构算出",
    "{ours:.1f}B against the paper's {paper:.0f}B": "{ours:.1f}B，论文为 {paper:.0f}B",
    "and so does its active count": "它的激活参数量也一样",
    "a token uses about 28 % of the parameters, not 2/8": "一个 token 约用到 28% 的参数，而不是 2/8",
    "the experts hold almost all the weights": "专家几乎占了全部权重",
    "against Mistral 7B: ×{held:.1f} the parameters, ×{used:.1f} per token": (
        "与 Mistral 7B 相比：参数量 ×{held:.1f}，每 token ×{used:.1f}"
    ),
    "DeepSeek-V3's published total follows from its configuration": (
        "DeepSeek-V3 公布的总参数量可由其配置算出"
    ),
    "{ours:.1f}B against the report's {paper:.0f}B": "{ours:.1f}B，报告为 {paper:.0f}B",
    "a DeepSeek-V3 token uses under 6 % of the parameters": "DeepSeek-V3 的一个 token 用到的参数不到 6%",
    "over 6 times the parameters held, under 2 times used": "拥有的参数超过 6 倍，用到的不到 2 倍",
    "its FFN compute per token is twice Mistral's": "它每个 token 的 FFN 计算量是 Mistral 的两倍",
    # section 3
    "{steps} Adam steps; per seed: the busiest expert's share, experts ranked first on more than": (
        "{steps} 步 Adam；每个种子：最忙专家的份额、在超过 5% 的点上排第一的"
    ),
    "5 % of the points, accuracy; and the same count before training": "专家数、准确率；以及训练前的同一计数",
    "before training: ranked first {u}": "训练前：排第一 {u}",
    "α = {alpha}: busiest {b}  ranked first {u}  accuracy {acc}": (
        "α = {alpha}：最忙 {b}  排第一 {u}  准确率 {acc}"
    ),
    "with it, more than half, on every seed": "加上它，每个种子都用上一半以上",
    "the busiest expert takes less with the loss, on every seed": (
        "加上损失后，每个种子中最忙的专家分到的都更少"
    ),
    "the mean accuracy moves by less than 0.05": "平均准确率的变化小于 0.05",
    # section 4
    "capacity factor {factor}: {room} points per expert": "容量因子 {factor}：每个专家 {room} 个点",
    "  dropped per seed, α = 0: {without}; α = 0.1: {with_}": (
        "  每个种子丢弃的比例，α = 0：{without}；α = 0.1：{with_}"
    ),
    "at factor 2 the balanced routers drop under 2 % of the points, on every seed": (
        "因子为 2 时，均衡后的路由器在每个种子上丢弃的点都不到 2%"
    ),
    "the unbalanced ones drop more than 5 %, on every seed": "未均衡的在每个种子上都丢弃 5% 以上",
    "at 1.25 both drop more than 10 %, on every seed": "因子为 1.25 时，两者在每个种子上都丢弃 10% 以上",
    "even balanced, the busiest expert takes over 1.5 × the even share, on every seed": (
        "即使均衡了，每个种子中最忙的专家仍分到均匀份额的 1.5 倍以上"
    ),
    # course_lib.plots.moe
    "α = {alpha}, seed {seed}": "α = {alpha}，种子 {seed}",
    "α = {alpha}": "α = {alpha}",
    "even load": "均匀负载",
    "experts, busiest first": "专家（最忙的在前）",
    "share of the points": "所占的点的比例",
    "load, every seed ({task})": "负载，每个种子（{task}）",
    # course_lib.checks.moe
    "top-k router": "top-k 路由器",
    "balancing loss": "均衡损失",
    "the k gates do not sum to 1: divide the kept probabilities by their sum": (
        "k 个门控权重之和不为 1：把保留的概率除以它们的和"
    ),
    "every expert keeps its gate: zero all but the k largest": (
        "每个专家都保留了门控权重：除最大的 k 个外全部置零"
    ),
    "the gates are raw logits: take the softmax first": "门控权重用的是原始 logits：先做 softmax",
    "the k smallest are kept: keep the k largest (topk's default, largest=True)": (
        "保留的是最小的 k 个：应保留最大的 k 个（topk 的默认值 largest=True）"
    ),
    "the gates have shape {got}, expected {expected}: one gate per expert, zeros included": (
        "门控权重的形状是 {got}，应为 {expected}：每个专家一个权重，零也算在内"
    ),
    "the gates differ from the renormalised top-k of the softmax": (
        "门控权重与 softmax 的 top-k 重新归一化的结果不同"
    ),
    "k gates per token, renormalised to sum to 1, the others 0.": (
        "每个 token 有 k 个门控权重，重新归一化后和为 1，其余为 0。"
    ),
    "the factor E is missing: α · E · Σ f_i P_i is α when the load is even": (
        "缺少因子 E：负载均匀时 α · E · Σ f_i P_i 等于 α"
    ),
    "f_i counts tokens (the share whose top expert is i), not mean probabilities": (
        "f_i 数的是 token（首选专家为 i 的比例），不是平均概率"
    ),
    "α is missing: the loss is α · E · Σ f_i P_i": "缺少 α：损失是 α · E · Σ f_i P_i",
    "the value differs from α · E · Σ_i f_i · P_i": "结果与 α · E · Σ_i f_i · P_i 不同",
    "an even load should give α = 0.01, got {got:.4f}": "均匀负载应得到 α = 0.01，实际为 {got:.4f}",
    "α · E · Σ f_i P_i: α for an even load, up to α · E when one expert takes all.": (
        "α · E · Σ f_i P_i：负载均匀时为 α，一个专家包揽全部时可达 α · E。"
    ),
    # course_lib.questions: mixtral-active
    "Mixtral 8x7B has 8 experts in every layer and sends each token to 2 of them. What "
    "share of its parameters does one token use?": (
        "Mixtral 8x7B 每层有 8 个专家，每个 token 被送往其中 2 个。一个 token 用到它多大比例的参数？"
    ),
    "2 of 8: a quarter": "8 个中的 2 个：四分之一",
    "Only the experts are split: attention, the norms and the embeddings are used by every "
    "token, so the share is more than 2/8.": (
        "被拆分的只有专家：注意力、归一化和词嵌入每个 token 都要用，所以比例大于 2/8。"
    ),
    "about 28 %": "约 28%",
    "Right: the experts are 97 % of the weights and a token uses 2 of 8 of them; the shared "
    "attention and embeddings add the rest.": (
        "对：专家占权重的 97%，一个 token 用到其中的 2/8；共用的注意力和词嵌入补上其余部分。"
    ),
    "all of them": "全部",
    "The router runs 2 experts per token; the other 6 of each layer stay idle.": (
        "路由器每个 token 只运行 2 个专家；每层其余 6 个闲着。"
    ),
    "1 of 8": "8 个中的 1 个",
    "Mixtral's router picks the top 2, not the top 1 (that is the Switch Transformer).": (
        "Mixtral 的路由器选前 2 个，而不是前 1 个（那是 Switch Transformer）。"
    ),
    # course_lib.plots.moe: the router demo
    "seed {seed}, its experts' colours": "种子 {seed}，颜色同其专家",
    "the other seeds": "其他种子",
    "{E} experts, top {k}, α = {alpha}; left, seed {seed}: accuracy {acc:.2f}": (
        "{E} 个专家，选前 {k} 个，α = {alpha}；左图为种子 {seed}：准确率 {acc:.2f}"
    ),
    # section 3: the stored runs and the demo's grid
    "seed 0 trained now has the stored network's load": "现在训练的种子 0 与存下的网络负载相同",
    "α = 0.1: every expert's share within 0.001": "α = 0.1：每个专家的份额相差都在 0.001 以内",
    "every setting, per α = 0 / 0.01 / 0.1: experts ranked first and the busiest share (seed means)": "每个设置，依次为 α = 0 / 0.01 / 0.1：排第一的专家数和最忙专家的份额（种子平均）",
    "{experts} experts, top {k}: ranked first {u}; busiest {b}": "{experts} 个专家，选前 {k} 个：排第一 {u}；最忙 {b}",
    "2 experts: both ranked first somewhere, on every seed, whatever k and α": "2 个专家：每个种子上两个都在某处排第一，不论 k 和 α",
    "8 experts: α = 0.1 ranks more of them first than α = 0 on every seed, for either k": "8 个专家：每个种子上 α = 0.1 都比 α = 0 让更多专家排第一，k 取哪个都一样",
    "α = 0.1 leaves the busiest expert a smaller share than α = 0, for 4 and 8 experts, either k": (
        "α = 0.1 时最忙专家的份额比 α = 0 时小，4 个和 8 个专家、k 取哪个都一样"
    ),
    # section 5: experts in the fact model
    "FFN per layer                parameters held   used per word   facts right": (
        "每层 FFN                     拥有的参数   每个词用到的   答对的事实"
    ),
    "{E} × width {d_ff:>3d}, top {k}      {held:>13,} {used:>15,}   {right} of {n}": (
        "{E} × 宽 {d_ff:>3d}，选前 {k} 个    {held:>13,} {used:>15,}   {n} 个中的 {right} 个"
    ),
    "both mixtures learn every fact, as the dense FFN does": "两个混合模型都学会了每条事实，和稠密 FFN 一样",
    "layer {layer}: each expert's share of all tokens {load}": "第 {layer} 层：每个专家在全部 token 上的份额 {load}",
    "  fact prompts' last word, experts 0–3, per relation:": "  事实提示的最后一个词，专家 0–3，按关系：",
    "over all tokens the load is balanced: every expert within 0.1 of 1/4, in both layers": (
        "在全部 token 上负载是均衡的：两层里每个专家与 1/4 相差都不到 0.1"
    ),
    "largest gap {spread:.2f}": "最大相差 {spread:.2f}",
    "seed layer  busiest  relation: purity / at random  entity: purity / at random": (
        "种子 层  最忙   按关系：纯度 / 随机      按实体：纯度 / 随机"
    ),
    "{seed:4d} {layer:5d} {busiest:5d}/48 {relation:17.2f} / {relation_chance:.2f} "
    "{entity:15.2f} / {entity_chance:.2f}": (
        "{seed:4d} {layer:5d} {busiest:5d}/48 {relation:17.2f} / {relation_chance:.2f} "
        "{entity:15.2f} / {entity_chance:.2f}"
    ),
    "layer 1 routes by relation more than at random, on every seed": (
        "每个种子上，第 1 层按关系路由的程度都高于随机"
    ),
    "and by entity no more than at random, on every seed": "而按实体路由的程度在每个种子上都不高于随机",
    "on most seeds, layer 0 sends every fact prompt to one expert": (
        "多数种子上，第 0 层把每条事实提示都送给同一个专家"
    ),
    "{whole} of 3 seeds": "3 个种子中的 {whole} 个",
    "facts lost when one expert of layer 0 is erased, experts 0–3": (
        "擦除第 0 层的一个专家后丢掉的事实，专家 0–3"
    ),
    "seed {seed}: {lost}": "种子 {seed}：{lost}",
    "  expert {e}'s: {kinds}": "  专家 {e} 带走的：{kinds}",
    "on every seed, one expert of layer 0 carries many facts": "每个种子上，第 0 层都有一个专家承载着许多事实",
    "at least {least} of 48": "48 个中至少 {least} 个",
    "and another carries none": "而另一个一个也不承载",
    # the review's mends
    "before training, some experts are never ranked first, on every seed": (
        "训练前，每个种子上都有专家从未排在第一"
    ),
    "training without the loss ranks no more experts first than the start did, on every seed": (
        "不加损失的训练在每个种子上排第一的专家都不比开始时多"
    ),
    "without the loss, at most half the experts are ever ranked first, on every seed": (
        "不加该损失时，每个种子上至多一半的专家曾排在第一"
    ),
    "and its active count, within 2 %": "它的激活参数量也一样，相差在 2% 以内",
    "2 experts fit the spiral worse than 4 or 8, in every setting of k and α": (
        "在 k 和 α 的每个设置下，2 个专家对螺旋的拟合都比 4 个或 8 个差"
    ),
    "mean accuracy over the seeds: at most {two:.2f} against at least {more:.2f}": (
        "种子上的平均准确率：至多 {two:.2f}，对比至少 {more:.2f}"
    ),
    "{points:,} points, {experts} experts": "{points:,} 个点，{experts} 个专家",
    "equal total spends about half the dense FFN's parameters per word": (
        "总参数相同的模型每个词用到的参数约为稠密 FFN 的一半"
    ),
    "yet no expert takes one relation's facts and only those, on any seed": (
        "但在任何种子上，都没有哪个专家恰好拿走某一个关系的全部事实、且只拿这些"
    ),
    "a dense FFN twice Mistral's width spends what Mixtral spends per token": (
        "宽度为 Mistral 两倍的稠密 FFN，每个 token 的计算量和 Mixtral 一样"
    ),
    "and holds over 3 times fewer parameters": "而拥有的参数少 3 倍以上",
    "×{fewer:.1f}": "×{fewer:.1f}",
}
