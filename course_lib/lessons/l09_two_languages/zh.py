"""Chinese texts for the two-languages topic (see course_lib.core.i18n.zh)."""

MESSAGES: dict[str, str] = {
    # course_lib.lessons.l09_two_languages (the lesson's title and goal)
    "One memory, two languages (跨语言)": "跨语言（cross-lingual）：一份记忆，两种语言",
    "train lesson 5's fact model on its facts in English and in Chinese, some in one language only, and find whether a fact taught in one language is recalled in the other, with and without a dictionary, beside what the units, an edit and the experts show": (
        "用英文和中文的事实训练第 5 课的事实模型，其中一些事实只用一种语言教；查明用一种语言教的事实，"
        "换另一种语言能不能答出来，带双语词典和不带词典各看一遍；再看单元、编辑和专家各说明了什么"
    ),
    # course_lib.lessons.l09_two_languages.questions
    "With the dictionary the model translates every word's first token both ways, yet a fact taught only in the other language could not be told from one never taught, while a fact taught in one English phrasing is answered in the other. What does that show?": (
        "有了词典，模型能把每个词的第一个 token 双向译对。可是只用另一种语言教过的事实，与从未教过的事实分不出差别；只用一种英文句式教过的事实，换另一种句式却能答出来。这说明了什么？"
    ),
    "that knowing each word's translation did not detectably let this model recall a fact in the other language, though it carries a fact between two phrasings that share every token": (
        "说明在这个模型里，即使知道每个词怎么译，也测不出它因此能用另一种语言想起事实；"
        "而在每个 token 都共用的两种句式之间，它能把事实带过去"
    ),
    "Right: the link between the words was learned, and the fact did not detectably cross; where every token is shared (two phrasings), it did. Why (the answer word, the input tokens or both) is not tested here, nor other links (parallel sentences, shared names) or scale.": (
        "对。词与词之间的联系学会了，却测不出事实传了过去；在每个 token 都共用的地方（两种句式），它传过去了。"
        "原因在答案词、输入的 token，还是两者都有，这里没有检验；其他联系（平行句子、共用的名字）和模型规模也没有检验。"
    ),
    "that a model this small cannot carry a fact from one context to another": (
        "说明这么小的模型没法把事实从一种上下文带到另一种上下文"
    ),
    "The positive control says it can: taught in one phrasing, a fact is answered in the other far above the guess. Why the two languages do not detectably transfer is not tested here.": (
        "阳性对照说明它能：只用一种句式教的事实，换另一种句式来问，答对得远高于猜测。为什么测不出两种语言之间的迁移，这里没有检验。"
    ),
    "that the dictionary was too small to be learned": "说明词典太小，模型没学会",
    "The model translates every dictionary word's first token both ways, in every seed: it was learned. It was not detectably used to recall facts.": (
        "每个种子的模型都能把词典里每个词的第一个 token 双向译对：词典是学会了的，只是测不出它被用来想起事实。"
    ),
    "that multilingual language models keep one memory per language": "说明多语言的语言模型为每种语言各存一份记忆",
    "One two-layer model trained on 48 facts cannot speak for them: real models read text where languages meet, and Xu, Li and Xiong find their facts cross in part.": (
        "一个只学了 48 条事实的两层模型代表不了它们：真实的模型读过两种语言同时出现的文本，"
        "Xu、Li 和 Xiong 也发现，它们的事实有一部分能跨过语言。"
    ),
    # course_lib.lessons.l09_two_languages.checks: LAPE
    "LAPE": "LAPE",
    "the probabilities were not normalised: divide each unit's probabilities by their sum over the languages first, so that they sum to 1": (
        "概率没有归一化：先把每个单元的各个概率除以它们在各语言上的和，使它们加起来为 1"
    ),
    "the probabilities were normalised over the units (axis 1): normalise each unit's probabilities over the languages, the last axis": (
        "概率是沿单元（轴 1）归一化的：应沿语言，也就是最后一个轴，对每个单元的概率归一化"
    ),
    "the entropy is in bits (log 2): Tang et al. use the natural logarithm": (
        "熵是以比特为单位算的（log 2）：Tang 等人用的是自然对数"
    ),
    "the sign is missing: an entropy is minus the sum of q log q, never below 0": (
        "少了负号：熵是 q log q 之和的相反数，不会小于 0"
    ),
    "0 for a unit that fires in one language only, log L for one that fires equally in all L languages.": (
        "只在一种语言中激活的单元为 0，在全部 L 种语言中激活得一样多的单元为 log(L)。"
    ),
    "LAPE has shape {got}, expected {expected}: one entropy per unit, taken over the last axis (the languages)": (
        "LAPE 的形状是 {got}，应为 {expected}：每个单元一个熵，沿最后一个轴（语言）计算"
    ),
    "some values are NaN: a unit silent in a language has q = 0 there, and 0 log 0 counts as 0 (use np.where before the log)": (
        "有些值是 NaN：一个单元在某种语言中从不激活时，那里的 q = 0，而 0 log 0 按 0 计（取对数之前先用 np.where）"
    ),
    "the values differ from -sum(q log q), q = p / p.sum(-1)": (
        "数值与 -sum(q log q)（其中 q = p / p.sum(-1)）不同"
    ),
    # checks: the activation probability's bug
    "activation probability, fixed": "激活概率（已修正）",
    "padding and <bos> are both counted: leave out the positions where the token is <pad> (id 0), and position 0": (
        "填充位置和 <bos> 都被计入了：要去掉 token 为 <pad>（id 0）的位置，还有位置 0"
    ),
    "padding is still counted: the mask must leave out the positions where the token is <pad> (id 0)": (
        "填充位置仍被计入：掩码必须去掉 token 为 <pad>（id 0）的位置"
    ),
    "<bos> is still counted: it is the same token in both languages, so leave out position 0": (
        "<bos> 仍被计入：它在两种语言里是同一个 token，所以要去掉位置 0"
    ),
    "the probabilities differ: count a unit's firings on one language's real tokens and divide by how many there are": (
        "概率不对：数出一个单元在一种语言的真实 token 上激活了几次，再除以这些 token 的个数"
    ),
    "lines of one language are shorter or longer than the other's, so counting padding would shift one language's probabilities more than the other's.": (
        "两种语言的句子长短不同，把填充位置算进去，两种语言的概率就会偏得不一样多。"
    ),
    # checks: the prediction of transfer
    "transfer prediction": "迁移预测",
    "give a count of facts, a number from 0 to {n}, got {got!r}": (
        "请给出事实的条数，即 0 到 {n} 之间的一个数，你给出的是 {got!r}"
    ),
    "measured: {m} of {n}": "实测为 {n} 条中的 {m} 条",
    ". Too many: the Chinese prompt does no better than a guess.": "。你猜多了：中文提示答得并不比盲猜好。",
    ". Too few: even a guess among 8 answers is right now and then.": (
        "。你猜少了：即使在 8 个答案里盲猜，也会偶尔猜对。"
    ),
    ". Too many.": "。你猜多了。",
    ". No more than a guess": "。不比盲猜强",
    ". More than a guess": "。比盲猜强",
    ": a blind guess among 8 answers gets {g:g} of {n}.": "：在 8 个答案里盲猜，{n} 条能猜对 {g:g} 条。",
    ": a blind guess among 8 answers gets {g:g} of {n}; the facts never taught, asked in Chinese, "
    "get {k}.": (
        "：在 8 个答案里盲猜，{n} 条能猜对 {g:g} 条；从未教过的事实用中文问，答对 {k} 条。"
    ),
    # course_lib.lessons.l09_two_languages.figures and demos
    "English": "英文",
    "Chinese": "中文",
    "taught as it is asked": "按所问的方式教过",
    "taught only the other way": "只按另一种方式教过",
    "never taught": "从未教过",
    "share answered right (top-1)": "首选答对比例",
    "p(answer)": "p(答案)",
    "rank among the relation's 8 answers": "在该关系 8 个答案中的名次",
    "each fact asked one way, by how it was taught": "每条事实按一种方式提问，按它的教法分组",
    "p(new), edited language": "p(新答案)，编辑所用的语言",
    "p(new), other language": "p(新答案)，另一种语言",
    "facts not edited": "编辑没有针对的事实",
    "the edit's strength rising: its fact in the other language, and the rest": (
        "编辑逐渐加强：被编辑的事实与编辑没有针对的事实，在另一种语言中的 p(新答案)"
    ),
    " (edited)": "（编辑所用）",
    "{language}: “{prompt}”": "{language}：“{prompt}”",
    "p(first token) after the prompt": "提示之后答案首个 token 的概率",
    "{method}, {strength}, edited with the {language} prompt": "{method}，{strength}，用{language}提示编辑",
    "rank-one, layer 1, last token": "秩一，第 1 层，最后一个 token",
    "scale factor of the update": "更新的缩放倍数",
    "before the edit": "编辑前",
    "after the edit": "编辑后",
    # notebooks/09_two_languages.ipynb: section 1, the facts in two languages
    "中文": "中文",
    "entity · 实体": "实体（英文）",
    "capital · 首都": "首都（英文）",
    "colour · 代表色": "代表色（英文）",
    "animal · 国兽": "国兽（英文）",
    "food · 特产": "特产（英文）",
    "{sentence}  ->  prompt of {n} tokens, answer token '{answer}', subject at {where}": (
        "“{sentence}” → 提示共 {n} 个 token，答案 token 为“{answer}”，主语在第 {where} 位（“<bos>”为第 0 位）"
    ),
    "both languages": "两种语言都教",
    "English only": "只用英文",
    "Chinese only": "只用中文",
    "neither": "都不教",
    "seed 0 teaches tumen's four facts in: {ways}; {lines} lines ({en} English)": (
        "种子 0 下，图蒙四条事实的教法依次为：{ways}；共 {lines} 行，其中英文 {en} 行"
    ),
    "seed {seed}: right in English {en} of the 24 facts taught in English, in Chinese {zh} of 24; of those not taught in that language {rest} of 48": (
        "种子 {seed}：用英文教的 24 条事实，英文答对 {en} 条；用中文教的 24 条，中文答对 {zh} 条；"
        "另有 48 次提问，问的是没用这种语言教过的事实：答对 {rest} 次"
    ),
    # section 2: one memory or two?
    "= {p}": "= {p}",
    "seed {seed}: shared units, same fact {s:.1f}, different facts {d:.1f}; lists that intersect {a:.0%} and {b:.0%}; p {p}; two phrasings {cs:.1f} and {cd:.1f}, p {cp}": (
        "种子 {seed}：共有的单元，同一条事实 {s:.1f} 个，两条不同事实 {d:.1f} 个；"
        "名单相交的比例：同一条事实 {a:.0%}，两条不同事实 {b:.0%}；p {p}。"
        "阳性对照（两种句式的模型）：同一条事实 {cs:.1f} 个，两条不同事实 {cd:.1f} 个，p {cp}"
    ),
    "pooled over the four seeds, the same fact's two lists share no detectably more units than two different facts' (permutation p above 0.05)": (
        "四个种子合起来，同一条事实的两份名单共有的单元，测不出比两条不同事实的名单多：置换检验 p 高于 0.05"
    ),
    "{s:.2f} against {n:.2f} units, 95 % of the null below {q:.2f}, p {p}; an excess of {d:.2f} units would be found about 4 times in 5 (a normal approximation)": (
        "同一条事实 {s:.2f} 个，两条不同事实 {n:.2f} 个；零分布的 95% 分位数为 {q:.2f}，p {p}；多出 {d:.2f} 个单元时，"
        "按正态近似估算，五次约能测出四次"
    ),
    "the count can find a same-fact excess: in the two-phrasing models the same fact's two lists share more units than two different facts' in every seed (p below 0.05)": (
        "这个计数能测出同一条事实多出的单元：在两种句式的模型里，每个种子中，同一条事实的两份名单"
        "都比两条不同事实的名单共有更多单元，p 低于 0.05"
    ),
    "p {p} in every seed, the floor of 1,000 permutations: none reached the observed count": (
        "每个种子都是 p {p}，这是 1,000 次置换能给出的下限：没有一次置换达到实测的计数"
    ),
    # section 3: taught in one language, asked in the other
    "two languages": "两种语言",
    "with the dictionary": "带词典",
    "two phrasings of one language": "一种语言的两种句式",
    "models": "模型",
    "measured by": "指标",
    "difference": "差值",
    "95 % interval": "95% 置信区间",
    "{low:+.2f} to {high:+.2f}": "{low:+.2f} 到 {high:+.2f}",
    "{low:+.1f} to {high:+.1f}": "{low:+.1f} 到 {high:+.1f}",
    "{name}, top-1 difference model by model: {values}": "{name}，逐个模型的首选答对比例差值：{values}",
    "the positive control's top-1 difference is above 0 in every model, the two languages' without the dictionary in none": (
        "在每个模型里，阳性对照的首选答对比例差值都大于 0；不带词典时，两种语言的差值在哪个模型里都不大于 0"
    ),
    # section 4: language-specific neurons
    "your LAPE and the lesson's agree on the model's units": "你算出的 LAPE，在模型的各单元上都与本课的结果一致",
    "seed 0's LAPE in layers 0 and 1: lowest {low}, median {median} (log 2 = {top:.2f})": (
        "种子 0 第 0 层和第 1 层的 LAPE：最低分别为 {low}，中位数分别为 {median}（上限 log(2) = {top:.2f}）"
    ),
    "seed": "种子",
    "units of": "单元所属语言",
    "units chosen": "选出的单元数",
    "own language's rise": "所属语言的升幅",
    "the other's": "另一种语言的升幅",
    "random units, 95 %": "随机单元，95% 分位数",
    "p": "p",
    "p, own − other": "p（所属语言减另一种语言）",
    "in every seed every unit fires in both languages": "在每个种子中，每个单元在两种语言里都会激活",
    "the lowest activation probability {x:.1%}": "最低的激活概率为 {x:.1%}",
    "after Holm's correction over the {n} tests none stays below 0.05: no selection costs its language, or widens the gap between the languages, detectably more than as many random units do": (
        "对这 {n} 次检验做 Holm 校正后，没有一次低于 0.05：无论看所属语言的代价，"
        "还是两种语言之间的差距，都测不出哪组选择比同样多的随机单元影响更大"
    ),
    "the lowest p {p:.3f}": "最低的 p 为 {p:.3f}",
    # section 5: edit in one language, ask in the other
    "edited in English": "用英文编辑",
    "edited in Chinese": "用中文编辑",
    "direction": "方向",
    "reached p(new) 0.9": "p(新答案) 达到 0.9 的比例",
    "the same, facts not edited": "同上，编辑没有针对的事实",
    "{prompt}: {old} → {new}, p({new}) {en:.2f} after the edit; asked in Chinese, its first character's p({first}) {before:.3f} before, {after:.3f} after, p({old_first}) {old_before:.2f} before, {old_after:.2f} after": (
        "“{prompt}”：“{old}” → “{new}”，编辑后 p(新答案) 为 {en:.2f}。用中文提问时，新答案第一个字的 p({first}) 编辑前为 {before:.3f}，编辑后为 {after:.3f}；"
        "旧答案第一个字的 p({old_first}) 编辑前为 {old_before:.2f}，编辑后为 {old_after:.2f}"
    ),
    # section 6: experts by language
    "H(language) = {h:.2f} bits: {c:.0%} of the routed tokens are Chinese": (
        "H(语言) = {h:.2f} 比特：被路由的 token 中有 {c:.0%} 是中文"
    ),
    "layer": "层",
    "I(route; language)": "I(路由; 语言)",
    "I / H(language)": "I / H(语言)",
    "95 % of shuffled types": "打乱 token 类型后的 95% 分位数",
    "Chinese share per expert": "各专家的中文比例",
    "in both layers the token explains most of the route's entropy (over half)": (
        "在两层里，token 都能解释路由熵的大部分，即一半以上"
    ),
    "at least {x:.0%}, {y:.0%} with the plug-in's bias taken off (its value with the routes shuffled among the tokens)": (
        "至少 {x:.0%}；扣掉代入估计的偏差后至少 {y:.0%}，偏差取路由在 token 间打乱后的值"
    ),
    "after Holm's correction, layer 0's routes split the languages more than a shuffled split of the vocabulary does": (
        "Holm 校正后，第 0 层的路由区分两种语言的程度，超过把词表随机分成两份"
    ),
    "I / H = {a:.2f}, p {p}": "I / H = {a:.2f}，p {p}",
    "in layer 1 the test could not tell (p ≈ 0.05): its p misses Holm's bar of 0.05, within two standard errors of it": (
        "第 1 层的检验无法判断（p ≈ 0.05）：它的 p 没过 Holm 门槛 0.05，离门槛不到两个标准误"
    ),
    "I / H = {a:.2f}, p = {p}; the raw I, its ceiling changing with the shuffle, gives p = {q}": (
        "I / H = {a:.2f}，p = {p}；若直接用 I，它的上限随每次打乱而变，得到 p = {q}"
    ),
    "and no expert takes over 90 % of its tokens from one language": (
        "而且没有哪个专家有 90% 以上的 token 来自同一种语言"
    ),
    "prompts in": "提示的语言",
    "I(route; relation)": "I(路由; 关系)",
    "95 % of shuffles": "打乱后的 95% 分位数",
    "pair purity": "专家对纯度",
    "by chance": "随机水平",
    "p, pair purity": "p（专家对纯度）",
    "after Holm's correction over the {n}, with every p two standard errors higher: information finds the relation in {a} tests, pair purity in {b}; with every p two standard errors lower, information in {c}, pair purity in {d}": (
        "对这 {n} 次检验做 Holm 校正：把每个 p 加上两个标准误时，互信息在 {a} 次检验中找到关系，专家对纯度在 {b} 次；把每个 p 减去两个标准误时，互信息 {c} 次，专家对纯度 {d} 次"
    ),
    "by both measures, the English prompts' routes in layer 1 carry their relation": (
        "两种指标都表明，第 1 层英文提示的路由带有提示所属的关系"
    ),
    "in Chinese, layer 0, both measures point the same way: information finds the relation after Holm's correction, and pair purity (its p exact: two pairs of experts) sits at its Holm bar, within a twentieth of it": (
        "在中文的第 0 层，两种指标的结论方向一致：Holm 校正后互信息找到了关系；这里提示只走两对专家，"
        "专家对纯度的 p 是精确算出的，它正落在 Holm 门槛上，相差不到门槛的二十分之一"
    ),
    "p = {p:.4f} against {b:.4f}": "p = {p:.4f}，门槛为 {b:.4f}",
    "every prompt takes the same pair of experts, so neither measure can find a split: {where}": (
        "{where}：每个提示都走同一对专家，两种指标都不可能找到划分"
    ),
    "{language}, layer {layer}": "{language}第 {layer} 层",
    "zeroing a selection raises its own language's perplexity by under 3 %, most selections' by under 1 %": (
        "把一组选出的单元置零，它们所属语言的困惑度上升不到 3%，多数选择不到 1%"
    ),
    "at most {x:+.1%}, {k} of {n} under 1 %": "至多 {x:+.1%}，{n} 组中 {k} 组不到 1%",
    "every model answers every fact it was taught, in each language it was taught in": (
        "每个模型都答对了教过的每条事实：用哪种语言教过，就用哪种语言答对"
    ),
    "with the dictionary, every model translates every word's first token both ways, the token an answer needs (its top token after 'tumen =' is 图, after '图 蒙 =' is tumen)": (
        "带词典时，每个模型都能把词典里每个词的第一个 token 双向译对，答案要用的正是这个 token（“tumen =”之后的首选 token 是“图”，“图 蒙 =”之后是“tumen”）"
    ),
    "taught only in the other language, a fact could not be told from one never taught: for every measure the 95 % interval of the difference holds 0, without the dictionary and with it": (
        "只用另一种语言教过的事实，与从未教过的事实分不出差别：无论用哪种指标，差值的 95% 置信区间都包含 0，"
        "不带词典和带词典都是如此"
    ),
    "in one language, a fact taught in one phrasing only is answered in the other far better than one never taught: every interval excludes 0": (
        "在同一种语言里，只用一种句式教过的事实，换另一种句式来问，答得远比从未教过的好：每个区间都不含 0"
    ),
    "the two-language intervals allow under a third of the positive control's mean difference in top-1 and p(answer), and in rank, the weakest measure, under two thirds": (
        "两种语言的区间所容许的最大效应，在首选答对比例和 p(答案) 上都不到阳性对照平均差值的三分之一；名次是最弱的指标，也不到三分之二"
    ),
    "at most {a:+.2f} against {b:+.2f} in top-1, {c:+.2f} against {d:+.2f} in p(answer), at least {e:+.1f} against {f:+.2f} in rank": (
        "首选答对比例至多 {a:+.2f}，阳性对照为 {b:+.2f}；p(答案) 至多 {c:+.2f}，阳性对照为 {d:+.2f}；名次至少 {e:+.1f}，阳性对照为 {f:+.2f}"
    ),
    "the rank-one rows' intervals below 0 are not the edit's doing: the gap was below 0 before any edit, and read as a change from before the edit, every method's 95 % interval holds 0": (
        "秩一编辑那两行的区间在 0 以下，并不是编辑造成的：编辑之前，这个差值就已低于 0；"
        "把它读成编辑前后的变化，每种方法的 95% 置信区间都包含 0"
    ),
    "before the edits {a:+.4f} and {b:+.4f}": "编辑前分别为 {a:+.4f} 和 {b:+.4f}",
    "along every sweep, in both directions, the edited fact's mean p(new) in the other language stays below 0.03": (
        "每种方法逐档加强时，两个编辑方向上，被编辑的事实用另一种语言问，平均 p(新答案) 都低于 0.03"
    ),
    "at most {x:.3f}": "至多 {x:.3f}",
    "and at matched strength it is not detectably higher than for the facts the edit did not target: every 95 % interval of the difference lies within ±0.01": (
        "而且在对齐强度下，它测不出比编辑没有针对的事实更高：差值的每个 95% 置信区间都在 ±0.01 之内"
    ),
    "at most {x:.3f} from 0": "离 0 至多 {x:.3f}",
    "the test's positive control: the same difference read in the edited language has every 95 % interval above 0, its lowest bound over ten times the widest bound above: at matched strength every interval excludes a crossing a tenth as large as the edit's weakest effect at home": (
        "这个检验的阳性对照：在编辑所用的语言里读同样的差值，每个 95% 置信区间都在 0 以上，最低的下限超过上面最宽界限的十倍。"
        "所以在对齐强度下，跨语言效应哪怕只有编辑在本语言里最弱效应的十分之一，每个区间也都能把它排除"
    ),
    "lowest bound {x:+.2f}, against {w:.3f}": "最低的下限为 {x:+.2f}，上面最宽的界限为 {w:.3f}",
    "p(old), other language": "p(旧答案)，另一种语言",
    "the relation's other facts' p(new), edited language": "同一关系其他事实的 p(新答案)，编辑所用的语言",
    "at matched strength the rank-one edit leaves the other language's old answer in place (mean p(old) above 0.95) and raises the relation's other facts' mean p(new) in the edited language under a fifth as far as the other two edits do": (
        "在对齐强度下，秩一编辑让另一种语言的旧答案保持原样，平均 p(旧答案) 高于 0.95；在编辑所用的语言里，同一关系其他事实的平均 p(新答案) 也会被它抬高，但幅度不到另外两种编辑的五分之一"
    ),
    "p(old) {a:.2f} before, at least {b:.2f} after; p(new) {c:.3f} before, at most {d:.2f} after, against at least {e:.2f}": (
        "p(旧答案) 编辑前为 {a:.2f}，编辑后至少 {b:.2f}；p(新答案) 编辑前为 {c:.3f}，编辑后至多 {d:.2f}，另外两种编辑至少 {e:.2f}"
    ),
    "p(old), other language: median before": "p(旧答案)，另一种语言：编辑前的中位数",
    "median after": "编辑后的中位数",
    "mean change": "平均变化",
    "fine-tuning W2 at matched strength, and knowledge neurons as above, lower the other language's old answer: every 95 % interval of the paired change lies below 0": (
        "在对齐强度下微调 W2，以及按上面的方式取强度的知识神经元编辑，都会压低另一种语言的旧答案：每次编辑前后成对比较，变化的每个 95% 置信区间都在 0 以下"
    ),
    "mean changes {a:+.2f} to {b:+.2f}, the highest bound {c:+.2f}": (
        "平均变化从 {a:+.2f} 到 {b:+.2f}，区间上限最高为 {c:+.2f}"
    ),
    "edited in English, about a quarter of the edits carry the drop: the median p(old) after stays above 0.95, and between a sixth and a third of the 48 edits lower p(old) by more than 0.1": (
        "用英文编辑时，下降来自大约四分之一的编辑：编辑后 p(旧答案) 的中位数仍高于 0.95；"
        "48 次编辑里，让 p(旧答案) 降了 0.1 以上的，在六分之一到三分之一之间"
    ),
    "median at least {x:.2f}; {a} and {b} of 48 edits": "中位数至少 {x:.2f}；知识神经元有 {a} 次，微调 W2 有 {b} 次",
    "fine-tuning W2 and knowledge neurons write the new word into the relation's other facts in the edited language (mean p(new) above 0.5)": (
        "微调 W2 和知识神经元会在编辑所用的语言里把新词写进同一关系的其他事实，平均 p(新答案) 高于 0.5"
    ),
    "{c:.2f} to {d:.2f}": "{c:.2f} 到 {d:.2f}",
    "knowledge neurons reach p(new) 0.9 in half of the edits or fewer, so their strength is not matched: where they fall short they are read at their strongest": (
        "知识神经元让 p(新答案) 达到 0.9 的编辑不超过一半，所以它们的强度没有对齐：达不到的编辑，取的是它们最强的一档"
    ),
    "{x:.0%} and {y:.0%} of the edits; mean p(new) {a:.2f} and {b:.2f}": (
        "达到 0.9 的，用英文编辑占 {x:.0%}，用中文编辑占 {y:.0%}；平均 p(新答案) 分别为 {a:.2f} 和 {b:.2f}"
    ),
    "an aside, past matched strength: fine-tuning W2 for 30 steps in English, Chinese p(old) {a:.2f}, p(new) {b:.3f}": (
        "题外话，超过对齐强度时：用英文微调 W2 30 步之后，中文的 p(旧答案) 为 {a:.2f}，p(新答案) 为 {b:.3f}"
    ),
    "Wang et al. 2023, ROME in Chinese-LLaMA-7B, a paraphrase of the edited prompt asked in the other language (exact match on the whole answer, teacher-forced; their repository's updated table): {en}% of English edits, {zh}% of Chinese ones": (
        "Wang 等人（2023）在 Chinese-LLaMA-7B 上做 ROME 编辑，再用另一种语言问被编辑提示的同义句，整个答案完全对上才算数（教师强制下的精确匹配；数字取自他们代码仓库里更新过的表）："
        "按这个标准，英文编辑中有 {en}% 与新答案完全匹配，中文编辑中有 {zh}%"
    ),
    "random units, most": "随机单元，最大值",
    "with {d} draws, Holm's first bar (0.05 / {n}) is met only by a p of 1 / {d1}: a selection is found only where its rise beats every draw (the column 'random units, most')": (
        "抽 {d} 次时，只有 p = 1 / {d1} 才过得了 Holm 校正的第一道门槛（0.05 / {n}）：一组选择的升幅要超过每一次随机抽取（“随机单元，最大值”那一列），才能被测出来"
    ),
    "from {a:+.1%} to {b:+.1%}": "该列从 {a:+.1%} 到 {b:+.1%}",
    "the mixture answers every fact it was taught, in each language it was taught in": (
        "混合专家模型答对了教过的每条事实：用哪种语言教过，就用哪种语言答对"
    ),
    "nor at the knowledge-neuron edit's full strength, λ = 1: both 95 % intervals of the difference hold 0": (
        "知识神经元编辑在最强的 λ = 1 时也是如此：差值的两个 95% 置信区间都包含 0"
    ),
    "{a:+.3f} ({a0:+.2f} to {a1:+.2f}) for edits in English, {b:+.3f} ({b0:+.2f} to {b1:+.2f}) in Chinese": (
        "用英文编辑时为 {a:+.3f}，区间 {a0:+.2f} 到 {a1:+.2f}；用中文编辑时为 {b:+.3f}，区间 {b0:+.2f} 到 {b1:+.2f}"
    ),
}
