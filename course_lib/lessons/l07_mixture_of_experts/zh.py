"""Chinese texts for the mixture-of-experts topic (see course_lib.core.i18n.zh)."""

MESSAGES: dict[str, str] = {
    # course_lib.lessons.l07_mixture_of_experts: LESSON, the index's row
    "Mixture of experts: the FFN split into experts (混合专家模型)": "混合专家模型（mixture of experts）：把 FFN 拆成多个专家",
    "split the FFN into experts with a router, count Mixtral's and DeepSeek-V3's parameters in total and per token, see when experts go unused and two cures for it, and test whether a small fact model's routers sort the facts by kind": "用路由器把 FFN 拆成多个专家，数出 Mixtral 和 DeepSeek-V3 的总参数量，以及每个 token 实际用到的参数量，看清专家何时闲置，以及应对的两种办法，并检验一个小事实模型的路由器是否按事实的类别分工",
    # notebooks/07_mixture_of_experts.ipynb: section 1
    "every token's gates sum to 1": "每个 token 的门控权重之和为 1",
    "each token gets exactly 2 nonzero gates of the 8": "每个 token 的 8 个门控权重中恰好有 2 个不为零",
    "one expert: the layer is the FFN": "一个专家：这一层就是 FFN",
    "k = E: the softmax-weighted sum of every expert": "k = E：这一层是全部专家按 softmax 加权的和",
    # section 2
    "Mixtral's published total follows from its shape": "Mixtral 公布的总参数量可由其结构算出",
    "{ours:.1f}B against the paper's {paper:.0f}B": "{ours:.1f}B，论文为 {paper:.0f}B",
    "and so does its active count": "它的激活参数量也能这样算出",
    "a token uses about 28 % of the parameters, not 2/8": "一个 token 用到的参数不是 2/8，而是约 28%",
    "the experts hold almost all the weights": "专家几乎占了全部权重",
    "against Mistral 7B: ×{held:.1f} the parameters, ×{used:.1f} per token": (
        "与 Mistral 7B 相比：参数量是它的 {held:.1f} 倍，每个 token 用到的是它的 {used:.1f} 倍"
    ),
    "DeepSeek-V3's published total follows from its configuration": (
        "DeepSeek-V3 公布的总参数量可由其配置算出"
    ),
    "{ours:.1f}B against the report's {paper:.0f}B": "{ours:.1f}B，报告为 {paper:.0f}B",
    "a DeepSeek-V3 token uses under 6 % of the parameters": "DeepSeek-V3 每个 token 用到的参数不到总数的 6%",
    "over 6 times the parameters held, under 2 times used": "拥有的参数是它的 6 倍以上，每个 token 用到的不到 2 倍",
    "its FFN compute per token is twice Mistral's": "每个 token 的 FFN 计算量是 Mistral 的两倍",
    # section 3
    # section 4
    "  dropped per seed, α = 0: {without}; α = 0.1: {with_}": (
        "  各种子被丢弃的比例：α = 0 时 {without}；α = 0.1 时 {with_}"
    ),
    # course_lib.lessons.l07_mixture_of_experts.figures
    "α = {alpha}": "α = {alpha}",
    "even load": "均匀份额",
    "experts, busiest first": "专家（最忙的在前）",
    "share of the points": "以该专家为首选的点所占份额",
    "load, every seed ({task})": "各种子的负载（{task}）",
    # course_lib.lessons.l07_mixture_of_experts.checks
    "top-k router": "top-k 路由器",
    "balancing loss": "均衡损失",
    "every expert keeps its gate: zero all but the k largest": (
        "每个专家都保留了门控权重：除最大的 k 个外，其余都要置零"
    ),
    "the gates are raw logits: take the softmax first": "门控权重用的是原始 logits：先做 softmax",
    "the k smallest are kept: keep the k largest (topk's default, largest=True)": (
        "保留的是最小的 k 个：应保留最大的 k 个（topk 的默认值 largest=True）"
    ),
    "the gates have shape {got}, expected {expected}: one gate per expert, zeros included": (
        "门控权重的形状是 {got}，应为 {expected}：每个专家一个门控权重，为零的也算在内"
    ),
    "f_i counts all k choices of each token, as Hugging Face's Mixtral loss does; the Switch Transformer's loss, asked here, counts each token's first choice only": (
        "f_i 把每个 token 的 k 个选择都算进去了，Hugging Face 的 Mixtral 损失是这样算的；"
        "这里要的是 Switch Transformer 的损失，每个 token 只算它的首选专家"
    ),
    "f_i is each expert's share of all the k choices (Hugging Face's Mixtral loss counts all k choices); the Switch Transformer's loss, asked here, counts each token's first choice only": (
        "f_i 成了每个专家在全部 k 个选择中所占的份额（Hugging Face 的 Mixtral 损失把 k 个选择都算进去）；"
        "这里要的是 Switch Transformer 的损失，每个 token 只算它的首选专家"
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
        "正是 α · E · Σ f_i P_i，负载均匀时为 α，一个专家包揽全部时可达 α · E。"
    ),
    # course_lib.core.questions: mixtral-active
    "Mixtral 8x7B has 8 experts in every layer and sends each token to 2 of them. What "
    "share of its parameters does one token use?": (
        "Mixtral 8x7B 每层有 8 个专家，每个 token 被送往其中 2 个。一个 token 用到它多大比例的参数？"
    ),
    "2 of 8: a quarter": "8 个中的 2 个：四分之一",
    "Only the experts are split: attention, the norms and the embeddings are used by every "
    "token, so the share is more than 2/8.": (
        "拆成专家的只有 FFN：注意力、归一化层和词嵌入每个 token 都要用，所以比例大于 2/8。"
    ),
    "about 28 %": "约 28%",
    "Right: the experts are 97 % of the weights and a token uses 2 of 8 of them; the shared "
    "attention and embeddings add the rest.": (
        "对：专家占权重的 97%，一个 token 用到其中的 2/8；共用的注意力和词嵌入补上其余部分。"
    ),
    "all of them": "全部",
    "The router runs 2 experts per token; the other 6 of each layer stay idle.": (
        "每个 token 只运行路由器选中的 2 个专家；每层其余 6 个闲着。"
    ),
    "1 of 8": "8 个中的 1 个",
    "Mixtral's router picks the top 2, not the top 1 (that is the Switch Transformer).": (
        "Mixtral 的路由器选前 2 个，而不是前 1 个（那是 Switch Transformer 的做法）。"
    ),
    # course_lib.lessons.l07_mixture_of_experts.figures: the router demo
    "seed {seed}, its experts' colours": "种子 {seed}，按专家着色",
    "the other seeds": "其他种子",
    "{E} experts, top {k}, α = {alpha}; left, seed {seed}: accuracy {acc:.2f}": (
        "{E} 个专家，选前 {k} 个，α = {alpha}；左图为种子 {seed}，准确率 {acc:.2f}"
    ),
    # section 3: the stored runs and the demo's grid
    "seed 0 trained now has the stored network's load": "现场训练的种子 0 与存下的网络负载相同",
    "α = 0.1: every expert's share within 0.001": "α = 0.1：每个专家的份额相差都不到 0.001",
    "every setting, per α = 0 / 0.01 / 0.1: experts ranked first on more than 5 % of the points and the busiest share (seed means)": "每种设置下，依次列出 α = 0 / 0.01 / 0.1 时在超过 5% 的点上排第一的专家数，以及最忙专家的份额（对种子取平均）",
    "{experts} experts, top {k}: over 5 % {u}; busiest {b}": "{experts} 个专家，选前 {k} 个：超过 5% 的专家数 {u}；最忙份额 {b}",
    # section 5: experts in the fact model
    # the review's mends
    "equal total spends about half the dense FFN's parameters per word": (
        "总参数相同的模型，每个词用到的参数约为稠密 FFN 的一半"
    ),
    "a dense FFN twice Mistral's width spends what Mixtral spends per token": (
        "宽度为 Mistral 两倍的稠密 FFN，每个 token 的计算量和 Mixtral 一样"
    ),
    "×{fewer:.1f}": "{fewer:.1f} 倍",
    "×{twice:.2f}": "{twice:.2f} 倍",
    "the softmax runs over the batch, not the experts: use dim=-1": "softmax 是沿批次做的，应沿专家这一维做：用 dim=-1",
    "the softmax runs over the sequence, not the experts: use dim=-1": "softmax 是沿序列做的，应沿专家这一维做：用 dim=-1",
    "the gates differ from Mixtral's: the renormalised top k of the softmax": "门控权重与 Mixtral 的不同：应是 softmax 的前 k 个重新归一化",
    "Mixtral's form: k gates per token, renormalised to sum to 1, the others 0.": "这正是 Mixtral 的形式，每个 token 有 k 个门控权重，重新归一化后和为 1，其余为 0。",
    "renormalised": "重新归一化",
    "probabilities kept": "保留概率",
    "give each form a dict with two sets: 'router rows' and 'experts'": "每种形式给一个字典，含两个集合，键为 'router rows' 和 'experts'",
    "renormalised, a token's gates are a softmax over its 2 chosen logits only: the unchosen expert's logit is in none of them, so its row gets no gradient": "重新归一化时，一个 token 的门控权重只是它选中的 2 个 logit 上的 softmax。未被选中的专家，它的 logit 不在其中，所以它那一行得不到梯度",
    "kept as probabilities, each gate divides by the softmax's sum over all 4 experts: the unchosen expert's logit is in that denominator, so its row gets gradient": "保留概率时，每个门控权重都要除以 softmax 在全部 4 个专家上的和。未被选中的专家，它的 logit 就在这个分母里，所以它那一行能得到梯度",
    "P_i averages the whole softmax over every token: the balancing loss reaches every router row, the unchosen expert's too": "P_i 是整个 softmax 在全部 token 上的平均，所以均衡损失能传到路由器的每一行，未被选中的专家那一行也不例外",
    "the chosen experts' rows get gradient in every form: their logits are in the gates": "无论哪种形式，被选中专家的那几行都有梯度：它们的 logit 就在门控权重里",
    "return a dict with one entry per form: {forms}": "返回一个字典，每种形式一项，键为 {forms}",
    "expert 3 never runs, so its weights never touch the output: no gradient reaches them, in any form": "专家 3 从不运行，它的权重影响不到输出：无论哪种形式，梯度都传不到它",
    "experts 0, 1 and 2 each run on some tokens, so each gets gradient from the task": "专家 0、1、2 各自在一些 token 上运行，所以都能从任务得到梯度",
    "{form}: {why}": "{form}：{why}",
    "autograd agrees: only chosen experts learn, and the unchosen row learns only through a softmax over all experts (probabilities kept, or the balancing loss).": "与自动求导的结果一致。只有被选中的专家在学习。未被选中的专家，只有它在路由器里的那一行能得到梯度，而且梯度只能经由对全部专家做的 softmax 传过来；只有保留概率或加上均衡损失时，才有这条路径。",
    "who gets gradient": "谁能得到梯度",
    "the bias is in the gates: it only chooses the experts; each gate is the chosen expert's own affinity s": "偏置进了门控权重：偏置只负责挑选专家，每个门控权重应是被选中专家自己的亲和度 s",
    "the bias did not change the choice: choose the k largest of s + bias": "偏置没有影响选择：应选 s + bias 最大的 k 个",
    "the chosen affinities are not normalised: divide them by their sum": "被选中的亲和度没有归一化：把它们除以它们的和",
    "the affinities are a softmax: DeepSeek-V3 scores each expert with a sigmoid": "亲和度用了 softmax，而 DeepSeek-V3 用 sigmoid 给每个专家打分",
    "the sign is reversed: an overloaded expert's bias goes down by γ, so that it is chosen less": "符号反了：负载过重的专家，偏置要减小 γ，好让它少被选中",
    "the bias moved by the load itself: each step is γ up or down, whatever the load": "偏置移动的幅度用了负载本身：每一步只应上调或下调 γ，与负载大小无关",
    "the bias moved by the expert's count of tokens: compare the count with the mean, then step γ up or down": "偏置移动的幅度用了专家的 token 数：应先把这个数和平均数比较，再上调或下调 γ",
    "return two things: the gates and the new bias": "返回两样东西：门控权重和新的偏置",
    "the gates have shape {got}, expected {expected}": "门控权重的形状是 {got}，应为 {expected}",
    "the gates differ from DeepSeek-V3's: sigmoid affinities, chosen by s + bias, normalised among the chosen": "门控权重与 DeepSeek-V3 的不同：应是 sigmoid 亲和度，按 s + bias 挑选，在被选中的专家之间归一化",
    "the bias chooses, the affinities weigh, and each step moves the bias by ±γ.": "偏置负责挑选，亲和度负责加权，每一步把偏置移动 ±γ。",
    "DeepSeek-V3's balancing": "DeepSeek-V3 的负载均衡",
    "dense FFN, {d_ff} units: accuracy {acc:.2f}": "稠密 FFN，{d_ff} 个单元：准确率 {acc:.2f}",
    "{E} experts × {d_ff} units, top {k}, α = {alpha}: accuracy {acc:.2f}": "{E} 个专家 × {d_ff} 个单元，选前 {k} 个，α = {alpha}：准确率 {acc:.2f}",
    "label {value}": "标签 {value}",
    "2-D inputs, the low-dimensional case ({task}, seed {seed})": "二维输入：低维的情形（{task}，种子 {seed}）",
    "α = {alpha}, layer {layer}": "α = {alpha}，第 {layer} 层",
    "training step": "训练步",
    "share of the tokens ranked first": "以该专家为首选的 token 份额",
    "seed {seed}": "种子 {seed}",
    "busiest expert": "最忙的专家",
    "least used expert": "用得最少的专家",
    "top 2 of 16 experts: {coarse:,} combinations": "16 个专家选 2 个：{coarse:,} 种组合",
    "top 8 of 64 experts: {fine:,} combinations": "64 个专家选 8 个：{fine:,} 种组合",
    "both as DeepSeekMoE counts them": "两者都与 Dai 等人的计数一致",
    "8 experts of a quarter of the width cost the FLOPs of 2 full ones": "8 个四分之一宽度的专家与 2 个全宽专家的 FLOPs 相同",
    "{flops:,} FLOPs per token": "每个 token {flops:,} FLOPs",
    "renormalised, the unchosen expert's router row gets no gradient": "重新归一化时，未被选中的专家在路由器里的那一行得不到梯度",
    "with the probabilities kept it does, through the softmax's sum": "保留概率时，这一行能得到梯度：梯度经由 softmax 分母里对全部专家的求和传过来",
    "and the balancing loss reaches it too": "均衡损失也能传到这一行",
    "the unchosen expert's own weights get none, in every form": "无论哪种形式，未被选中的专家自己的权重都得不到梯度",
    "before training, 3 or more of the 8 experts are ranked first on at most 5 % of the points": "训练前，8 个专家中至少有 3 个只在不超过 5% 的点上排第一",
    "at least {least:.2f}": "至少 {least:.2f}",
    "largest gap {gap:.2f}": "最大相差 {gap:.2f}",
    "and the busiest share ends below the run without it, on every seed and layer": "而且在每个种子和每一层上，最忙专家结束时的份额都低于不加损失的那次运行",
    "both learn the facts: at least 46 of 48 without the loss, all 48 with it": "两者都学会了事实：不加损失时至少答对 48 条中的 46 条，加上损失时 48 条全对",
    "{routed} routed experts and {shared} shared, top {k}, sigmoid affinities normalised among the chosen": "{routed} 个路由专家和 {shared} 个共享专家，选前 {k} 个；亲和度为 σ(u_tᵀ e_i)，在被选中的专家之间归一化",
    "bias update speed γ = {gamma} for the first {first}T tokens, then 0 for the last {last}T": "偏置更新速度：前 {first} 万亿个 token 取 γ = {gamma}，最后 {last} 万亿个取 0",
    "sequence-wise balance loss: α = {alpha}": "序列级均衡损失：α = {alpha}",
    "each token's routed experts on at most {nodes} nodes; no token dropped": "每个 token 的路由专家至多分布在 {nodes} 个节点上；不丢弃任何 token",
    "busiest expert's share of the assignments, per seed: before {b}; after {a}": "最忙专家在全部分配中的份额（按种子）：更新前 {b}；更新后 {a}",
    "experts with more than 5 % of them: before {b}; after {a}": "分到 5% 以上分配的专家数：更新前 {b}；更新后 {a}",
    "after the updates every expert takes more than 5 %, on every seed": "更新之后，在每个种子上，每个专家都分到 5% 以上的分配",
    "and the busiest takes less than before, on every seed": "而且每个种子上最忙的专家分到的都比更新前少",
    "{points} points, top {k} of {experts}: {slots} assignments": "{points} 个点，从 {experts} 个中选 {k} 个：{slots} 次分配",
    "capacity factor {factor}: {room} assignments per expert": "专家容量因子 {factor}：每个专家容纳 {room} 次分配",
    "at factor 2 no seed drops anything, with or without the loss": "因子为 2 时，加不加损失，每个种子都没有丢弃任何分配",
    "at 1.25 the balanced routers drop less than the unbalanced ones, on every seed": "因子为 1.25 时，在每个种子上，加了均衡损失的路由器都比没加的丢弃得少",
    "at 1.0 both drop more than 10 %, on every seed": "因子为 1.0 时，两者在每个种子上都丢弃 10% 以上",
    "even balanced, the busiest expert takes over 1.3 × the even share, on every seed": "即使加了均衡损失，每个种子上最忙的专家仍分到均匀份额的 1.3 倍以上",
    "at least {least:.2f} of the assignments against 1/8": "至少占全部分配的 {least:.2f}，均匀份额为 1/8",
    "{E} × width {d_ff}, top {k}, {s} shared: {held:,} parameters held, {used:,} per word; {right} of {n} facts right": "{E} 个宽 {d_ff} 的专家，选前 {k} 个，共享专家 {s} 个：共 {held:,} 个参数，每个词用到 {used:,} 个；{n} 条事实答对 {right} 条",
    "seed 0 of each mixture learns every fact, as the dense FFN does": "每种混合专家模型的种子 0 都学会了全部事实，和稠密 FFN 一样",
    "with a shared expert the model still learns every fact, on every seed": "有了共享专家，模型在每个种子上仍学会了全部事实",
    "with and without it, every routed expert's load is within 0.1 of 1/E, on every seed": "有没有共享专家，每个种子上每个路由专家的负载与 1/E 相差都不到 0.1",
    # lesson 7, after issue 57: DeepSeek-V3's route scale; the purities' permutation tests
    "route scale: every routed gate × {scale} after normalising": "路由缩放系数：归一化之后，每个路由专家的门控权重再乘以 {scale}",
    "equal total": "总参数相同",
    "shared expert": "共享专家",
    "Holm": "Holm 校正后 p",
    "layer 1's first choices follow the relation beyond chance in 5 of the 6 (model, seed) cases, Holm-corrected at 0.05": "经 Holm 校正、以 0.05 为界，在 6 种模型与种子的组合中，有 5 种的第 1 层倾向于给同一关系的事实选同一个首选专家，这种倾向超出随机水平",
    # lesson 7, the review's mends: intervals, tests with their power, the busiest told from the most needed
    "these are the kept probabilities as they are: a form another model uses (Qwen1.5-MoE), but this exercise asks for Mixtral's, divided by their sum": "这是把保留的概率原样用作门控权重。Qwen1.5-MoE 就这么用，但这道练习要的是 Mixtral 的形式，即除以它们的和",
    "an expert chosen exactly as often as the mean moved: its bias stays as it is": "被选中次数恰好等于平均数的专家，偏置也动了：它的偏置应保持不变",
    "the new bias differs: each expert's bias moves γ down if it took more than the mean number of tokens, γ up if fewer, and stays if exactly the mean": "新的偏置不对：一个专家接收的 token 多于平均数时，它的偏置减小 γ，少于平均数时增大 γ，恰好等于平均数时不变",
    "case": "情形",
    "busiest of 48": "最忙专家拿走的条数（共 48 条）",
    "by relation (at random)": "按关系的纯度（随机时）",
    "by entity (at random)": "按实体的纯度（随机时）",
    "entity purity detectable": "能测出的实体纯度",
    "{model}, seed {seed}, layer {layer}": "{model}，种子 {seed}，第 {layer} 层",
    "{mean} (95 % interval {low} to {high})": "{mean}，95% 置信区间 {low} 到 {high}",
    "router scores {scores}, one per expert; gates {gates}; output {out}": "路由器分数 {scores}，每个专家一个；门控权重 {gates}；输出 {out}",
    "model (counted from its shape)": "模型（按结构计数）",
    "parameters (billions)": "参数量（十亿，B）",
    "active per token (billions)": "每个 token 的激活参数（B）",
    "active per token, counted: {a:.2f}B with the input embedding, {b:.2f}B without it; the documentation's {doc:.1f}B, embedding included, is {da:+.1%} and {db:+.1%} from them": "按配置数出的每个 token 激活参数：含输入词嵌入为 {a:.2f}B，不含为 {b:.2f}B。文档的 {doc:.1f}B 注明包括词嵌入，它与这两个数分别相差 {da:+.1%} 和 {db:+.1%}",
    "the report's 37B lies within 2 % of the count, with or without the input embedding": "不论含不含输入词嵌入，数出的激活参数与报告的 37B 都相差不到 2%",
    "{ra:+.1%} with it, {rb:+.1%} without": "含输入词嵌入时 {ra:+.1%}，不含时 {rb:+.1%}",
    "busiest expert's load / mean load, without balancing losses {none:.2f}, with both of theirs (weights 0.1) {both:.2f}": "最忙专家的负载与平均负载之比：不加均衡损失时为 {none:.2f}，加上他们的两个损失（权重都取 0.1）时为 {both:.2f}",
    "{form}: router rows {r}; experts {e}": "{form}：路由器第 {r} 行；专家 {e}",
    "{starts} random starts per dimension, 2,000 inputs each": "每个维度随机初始化 {starts} 次，每次取 2000 个输入",
    "in the plane, about 3 of the 8 are ranked first on at most 5 % of the inputs": "在平面上，8 个专家中约有 3 个只在不超过 5% 的输入上排第一",
    "{w} on average": "平均 {w} 个",
    "at d = 16, under half an expert on average": "d = 16 时，平均不到半个专家",
    "at d = 64, none, on any start": "d = 64 时，任何一次初始化都没有这样的专家",
    "each cell: seeds 0–3": "每格依次为种子 0–3",
    "busiest share": "最忙专家的份额",
    "ranked first on more than 5 %": "在超过 5% 的点上排第一的专家数",
    "never ranked first": "从未排第一的专家数",
    "before training": "训练前",
    "dense FFN, {d_ff} units": "稠密 FFN，{d_ff} 个单元",
    "mean change {change}": "平均变化 {change}",
    "change at α = 0.01 {a}; at α = 0.1 {b}": "α = 0.01 时变化 {a}；α = 0.1 时 {b}",
    "gain α = 0: {a}; α = 0.01: {b}; α = 0.1: {c}; Holm-corrected p at least {q:.2f}": "准确率之差：α = 0 时 {a}；α = 0.01 时 {b}；α = 0.1 时 {c}；Holm 校正后的 p 至少为 {q:.2f}",
    "the load is uneven from the start: the busiest share at each of the 6 starts (3 seeds, 2 layers) is above the 99th percentile for isotropic inputs": "负载一开始就不均匀：在全部 6 个起点（3 个种子、2 层）上，最忙专家的份额都高于各向同性输入下的第 99 百分位数",
    "{low:.2f} to {high:.2f}, against {top:.2f} (isotropic mean {mean:.2f})": "{low:.2f} 到 {high:.2f}，该百分位数为 {top:.2f}，各向同性时平均为 {mean:.2f}",
    "and no expert ends unused: each takes over 4 % of the tokens at the last step, in every run": "而且没有专家最后闲置：每次运行的最后一步，每个专家都拿到 4% 以上的 token",
    "{m} tests, each against 20,000 random deals; – where one expert takes all 48, or not asked (the shared model's entity grouping)": "共 {m} 次检验，每次与 20,000 次随机分配比较。“–”表示一个专家拿走了全部 48 条，或者不做这项检验（共享专家模型不按实体检验）",
    "the sixth: {q}": "第六种校正后 p 为 {q}",
    "the equal-total model's layer 0 sends all 48 prompts to one expert on 2 of 3 seeds; on the third it follows the relation beyond chance": "总参数相同的模型在 3 个种子中的 2 个上，第 0 层把全部 48 条提示送给同一个专家；在第三个种子上，第 0 层倾向于给同一关系的事实选同一个首选专家，这种倾向超出随机水平",
    "seed {seed}, Holm-corrected p {q}": "种子 {seed}，Holm 校正后 p {q}",
    "by entity, could not tell: none is beyond chance": "按实体分组则无法判断：没有一项超出随机水平",
    "purity {low:.2f} to {high:.2f}; detectable from {need:.2f} up": "纯度 {low:.2f} 到 {high:.2f}；至少 {need:.2f} 才测得出",
    "no expert of layer 1 takes one relation's facts and only those, in either model, on any seed": "不论哪个模型、哪个种子，第 1 层都没有一个专家恰好拿走某种关系的全部事实而不拿别的",
    "the nearest takes all 12 of one relation and {n} other": "最接近的一个拿走了某种关系的全部 12 条，外加另外 {n} 条",
    "layer 0, experts 0–3": "第 0 层，专家 0–3",
    "facts lost, erased everywhere": "处处擦除时丢失的事实数",
    'erased at "is" only': "只在“is”处擦除",
    'prompts gating it at "is"': "在“is”处给它门控权重的提示数",
    'busiest at "is"': "“is”处最忙的专家",
    'erased everywhere, the most-needed expert of layer 0 is needed by 20 or more facts on every seed; the busiest at "is" is not always it': "处处擦除时，每个种子上第 0 层最不可缺的专家，至少有 20 条事实需要它；但“is”处最忙的专家不一定就是它",
    "most needed {m}; busiest {b} (seeds 0, 1, 2)": "种子 0、1、2 依次为：最不可缺的专家有 {m} 条事实需要；处处擦除“is”处最忙的专家，丢失的事实有 {b} 条",
    'an expert needed by 20 or more facts everywhere can be needed by none at "is"': "一个专家处处擦除时至少有 20 条事实需要它，只在“is”处擦除时，却可能没有一条事实需要它",
    "on every seed one expert is needed by no fact, even erased everywhere": "每个种子上都有一个专家，即使处处擦除也没有事实需要它",
    "layer 0 sends every fact prompt to one routed expert on {a} of 3 seeds with a shared expert, {b} of 3 without: could not tell": "第 0 层把全部事实提示送给同一个路由专家：有共享专家时，3 个种子中有 {a} 个如此；没有时，3 个中有 {b} 个；无法判断有无差别",
    "Fisher p {p:.2g}; 3 seeds a side can give no p below {best:.1f}": "Fisher 精确检验 p = {p:.2g}；每组 3 个种子时，p 不可能低于 {best:.1f}",
    "layer 1 follows the relation beyond chance on {c} of 3 seeds with a shared expert, {d} of 3 without: could not tell either": "有共享专家时，第 1 层按关系选专家的倾向在 3 个种子中有 {c} 个超出随机水平；没有共享专家时是 3 个中 {d} 个；同样无法判断有无差别",
    "erased everywhere, layer 0's shared expert is needed by {low} to {high} of 48 facts, layer 1's by none, on every seed": "处处擦除时，在每个种子上，48 条事实中有 {low} 到 {high} 条需要第 0 层的共享专家，没有一条事实需要第 1 层的共享专家",
    "{purity:.2f} ({chance:.2f})": "{purity:.2f}（{chance:.2f}）",
    # the second reading's mends
    "FLOPs per token and MoE layer (router, experts)": "每个 token 在一个混合专家层上的 FLOPs（路由器与专家）",
    "while Mixtral holds over 3 times its parameters": "而 Mixtral 拥有的参数是它的 3 倍以上",
    "as the formula says, the balancing loss pushes the unchosen logit up: its gradient is negative on every token": "正如公式所示，对未被选中的专家，均衡损失把它的 logit 往上推：这个 logit 在每个 token 上的梯度都是负的",
    "after 300 steps without the loss, no more experts are ranked first on more than 5 % of the points than at the start, on every seed": "不加损失训练 300 步后，在超过 5% 的点上排第一的专家数，每个种子都没有比开始时多",
    "after 300 steps at α = 0.1, more than half are ranked first on more than 5 % of the points and the busiest takes less than at α = 0, on every seed": "α = 0.1 训练 300 步后，每个种子都有一半以上的专家在超过 5% 的点上排第一，最忙专家的份额也比 α = 0 时小",
    "yet after 300 steps 2 of the 8 are never ranked first at α = 0.1, on every seed": "但 α = 0.1 训练 300 步后，每个种子的 8 个专家中仍有 2 个从未排第一",
    "after 300 steps at α = 0.01, could not tell whether the busiest share falls": "α = 0.01 训练 300 步后，无法判断最忙专家的份额是否下降",
    "after 300 steps, could not tell whether the loss costs accuracy, 4 seeds": "训练 300 步后，凭 4 个种子无法判断均衡损失是否降低准确率",
    "after 300 steps, whether a mixture fits better than the dense FFN of its active width, 4 seeds cannot tell": "训练 300 步后，与 12 个单元的稠密 FFN 相比（这正是一个点实际经过的单元数），凭 4 个种子无法判断混合专家模型是否拟合得更好",
    "after 300 steps, the dense FFN of its total width fits better than each mixture, on every seed": "训练 300 步后，在每个种子上，总宽度相同的稠密 FFN 都比每个混合专家模型拟合得好",
    "{mean} ({level:.1f} % interval {low} to {high})": "{mean}，{level:.1f}% 置信区间 {low} 到 {high}",
    "after 300 steps, 8 experts: more are ranked first on more than 5 % of the points at α = 0.1 than at α = 0, on every seed, for either k": "训练 300 步后，8 个专家、k 取 1 或 2：每个种子上，在超过 5% 的点上排第一的专家，α = 0.1 都比 α = 0 多",
    "and leaves the busiest expert a smaller share than α = 0 on every seed, for 8 experts at either k and 4 experts at top 2": "α = 0.1 还让最忙专家的份额在每个种子上都比 α = 0 时小：8 个专家不论 k 取几都如此，4 个专家选前 2 个时也如此",
    "4 experts at top 1: could not tell whether it does": "4 个专家选前 1 个时：无法判断是否如此",
    "mean {before:.2f} → {after:.2f}, change {change}; it rises on {rose} of 4 seeds": "平均从 {before:.2f} 变为 {after:.2f}，变化 {change}；4 个种子中有 {rose} 个反而上升",
    '{h} found; the first is seed {seed}\'s expert {e}: {a} facts everywhere; at "is" it gates {n} of 48 prompts, its gate {g:.2f} averaged over all 48': "共找到 {h} 个；种子 {seed} 的专家 {e}：处处擦除时 {a} 条；在“is”处，48 条提示中有 {n} 条给它门控权重，它的门控权重在全部 48 条上平均为 {g:.2f}",
    "word frequencies alone raise the expected busiest share from {iso:.2f} to {mean:.2f} (observed mean {seen:.2f}), with one isotropic vector per word type at the corpus's frequencies": "只凭词频，最忙专家的预期份额就从 {iso:.2f} 升到 {mean:.2f}（实际平均 {seen:.2f}）：每种词用一个各向同性的随机向量表示，各词按语料中的词频出现",
    "{n} of the 6 starts could not be told from that null (Holm-corrected), {b} is beyond it": "6 个起点中，有 {n} 个与只凭词频的预期分不出差别（经 Holm 校正），{b} 个超出了这一预期",
    "detectable from about {need:.1f} up": "起点份额约 {need:.1f} 以上才测得出",
    "not always the start's busiest: another took over in {n} of 6 runs": "拿走它们的不一定是起点时最忙的专家：6 次运行中有 {n} 次是另一个专家",
    "{types} word types, the 4 commonest {common:.0%} of the tokens": "语料共 {types} 种词，最常见的 4 种占全部 token 的 {common:.0%}",
    "early on, one expert of layer 1 takes over three quarters, in every run, α = 0 or 0.01": "训练早期，每次运行中第 1 层都有一个专家拿走四分之三以上的 token，α = 0 和 0.01 都是如此",
    "at least {least:.2f}, by step {when}": "至少 {least:.2f}，最晚在第 {when} 步达到",
    "then the load comes back, with or without the loss: layer 1's busiest share ends at least 0.2 below its early peak, in every run": "随后负载又恢复了，加不加损失都是如此：每次运行中，第 1 层最忙专家的份额最后都比早期峰值低 0.2 以上",
    "at the last step {low:.2f} to {high:.2f}": "最后一步为 {low:.2f} 到 {high:.2f}",
    "without the loss the busiest share ends higher than it started in {grew} of 6 (seed, layer) pairs, lower in the others": "不加损失时，在 6 个种子与层的组合中，最忙专家的份额结束时比开始时高的有 {grew} 个，其余的都更低",
    "changes {low:+.2f} to {high:+.2f}": "变化 {low:+.2f} 到 {high:+.2f}",
    "with the loss, every expert stays within 0.11 of 1/4 over the last 100 steps, in every run": "加上损失时，每次运行的最后 100 步里，每个专家的份额与 1/4 都相差不到 0.11",
    "largest gap {gap:.3f}": "最大相差 {gap:.3f}",
    "none has converged: the four arms retrained for 1,200 steps (3 mixtures, the 48-unit FFN) fit better on every seed": "这些网络都没有收敛：四组网络（3 种混合专家模型和 48 个单元的稠密 FFN）重新训练到 1200 步后，在每个种子上都拟合得更好",
    "gain {low:+.2f} to {high:+.2f}": "准确率提高 {low:+.2f} 到 {high:+.2f}",
    "and in this one draw of 1,200 steps, three results above change: at α = 0.1 at most 1 expert is never ranked first; the 48-unit FFN no longer fits better than every mixture on every seed; α = 0.01 lowers the busiest share on every seed": "在训练 1200 步的这一次抽样里，上面有三条结论变了：α = 0.1 时从未排第一的专家至多 1 个；48 个单元的稠密 FFN 不再在每个种子上都胜过所有混合专家模型；α = 0.01 在每个种子上都让最忙专家的份额下降",
    "never ranked first at α = 0.1: {n}": "α = 0.1 时从未排第一的专家数：{n}",
    # the fifth reading's mends
    "DeepSeek-R1-0528's weights documentation, 36.6B without the input embedding, is the count without it, to its rounding": "DeepSeek-R1-0528 的权重文档给出的 36.6B，在舍入精度内正是不含输入词嵌入的计数",
    "{b:.2f}B against {later:.1f}B": "{b:.2f}B，文档为 {later:.1f}B",
    "every line through the origin puts {low:.2f} to {high:.2f} of the spiral's points on one side, so the 2-expert rows above could not have come out otherwise, whatever α": "过原点的任何一条直线都把螺旋数据的 {low:.2f} 到 {high:.2f} 分在一侧，所以不论 α 取多少，上面 2 个专家的两行只能是这个结果",
    "2-expert busiest shares {a:.2f} to {b:.2f}": "2 个专家时，最忙专家的份额为 {a:.2f} 到 {b:.2f}",
}
