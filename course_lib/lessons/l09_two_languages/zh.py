"""Chinese texts for the two-languages topic (see course_lib.core.i18n.zh)."""

MESSAGES: dict[str, str] = {
    # course_lib.lessons.l09_two_languages (the lesson's title and goal)
    "One memory, two languages (跨语言)": "跨语言：一份记忆，两种语言（cross-lingual）",
    "train lesson 5's fact model on its facts in English and in Chinese, find whether the same FFN units store a fact in both languages, and whether an edit made in one language reaches the other": (
        "用英文和中文两种语言的事实训练第 5 课的事实模型，查明同一条事实在两种语言里是否由同一批 FFN 单元存储，"
        "以及用一种语言做的编辑能否传到另一种语言"
    ),
    # course_lib.lessons.l09_two_languages.questions
    "With the dictionary, the model translates every name both ways, and still keeps each fact once per language. What does that show?": (
        "有了词典，模型能把每个名字双向翻译，却仍然为每种语言各存一份事实。这说明了什么？"
    ),
    "that knowing a word's translation does not make one memory, in this model": (
        "说明在这个模型里，知道一个词的译名并不会让两种语言共用一份记忆"
    ),
    "Right: the link between the words was learned, and the facts stayed apart. Other links (facts stated across languages, a larger model) are not tested.": (
        "对：词与词之间的联系学会了，事实却仍然分开存放。其他联系（跨语言陈述的事实、更大的模型）没有检验。"
    ),
    "that multilingual models keep one memory per language": "说明多语言模型为每种语言各存一份记忆",
    "Chen et al. find shared knowledge neurons in real multilingual models; one two-layer model on 48 facts cannot speak for them.": (
        "Chen 等人在真实的多语言模型中找到了共用的知识神经元；一个只学了 48 条事实的两层模型代表不了它们。"
    ),
    "that the dictionary was too small to be learned": "说明词典太小，模型没学会",
    "The model answers every dictionary entry both ways: it was learned. What it did not do is store the facts once.": (
        "模型对词典的每个词条都能双向答对：词典是学会了的。它没有做到的，是把事实只存一份。"
    ),
    "that the attribution cannot find shared units": "说明归因找不出共用的单元",
    "The same test finds the memory two English phrasings share (lesson 6's model): it has the power to find sharing where there is some.": (
        "同样的检验能找出两种英文句式共用的记忆（第 6 课的模型）：只要确有共用，它就有能力找到。"
    ),
    # course_lib.lessons.l09_two_languages.checks: LAPE
    "LAPE": "语言激活概率熵",
    "the probabilities were not normalised: divide each unit's probabilities by their sum over the languages first, so that they sum to 1": (
        "概率没有归一化：先把每个单元的各个概率除以它们在各语言上的和，使它们加起来为 1"
    ),
    "the probabilities were normalised over the units (axis 1): normalise each unit's probabilities over the languages, the last axis": (
        "概率是沿单元（axis 1）归一化的：应沿语言，也就是最后一个轴，对每个单元的概率归一化"
    ),
    "the entropy is in bits (log 2): Tang et al. use the natural logarithm": (
        "熵是以比特为单位算的（log 2）：Tang 等人用的是自然对数"
    ),
    "the sign is missing: an entropy is minus the sum of q log q, never below 0": (
        "少了负号：熵是 q log q 之和的相反数，不会小于 0"
    ),
    "LAPE has shape {got}, expected {expected}: one entropy per unit, taken over the last axis (the languages)": (
        "语言激活概率熵的形状是 {got}，应为 {expected}：每个单元一个熵，沿最后一个轴（语言）计算"
    ),
    "some values are NaN: a unit silent in a language has q = 0 there, and 0 log 0 counts as 0 (use np.where before the log)": (
        "有些值是 NaN：一个单元在某种语言中从不激活时，那里的 q = 0，而 0 log 0 按 0 计（取对数之前先用 np.where）"
    ),
    "the values differ from -sum(q log q), q = p / p.sum(-1)": (
        "数值与 -sum(q log q)（其中 q = p / p.sum(-1)）不同"
    ),
    "0 for a unit that fires in one language only, log L for one that fires equally in all L languages.": (
        "只在一种语言中激活的单元为 0，在全部 L 种语言中激活得一样多的单元为 log(L)。"
    ),
    # checks: the activation probability that counts padding
    "activation probability, fixed": "激活概率（已修正）",
    "padding is still counted: the mask must leave out the positions where the token is <pad> (id 0)": (
        "填充位置仍被计入：掩码必须去掉 token 为 <pad>（id 0）的位置"
    ),
    "<bos> is still counted: it is the same token in both languages, so leave out position 0": (
        "<bos> 仍被计入：它在两种语言里是同一个 token，所以要去掉位置 0"
    ),
    "the probabilities differ: count a unit's firings on one language's real tokens and divide by how many there are": (
        "概率不对：数一数一个单元在一种语言的真实 token 上激活了多少次，再除以这些 token 的个数"
    ),
    "lines of one language are shorter or longer than the other's, so counting padding would shift one language's probabilities more than the other's.": (
        "一种语言的句子比另一种的短或长，所以把填充位置算进去，一种语言的概率会比另一种偏得更多。"
    ),
    # checks: how many English edits reach Chinese
    "crossing prediction": "跨语言编辑预测",
    "give a count of edits, a number from 0 to {n}, got {got!r}": (
        "请给出编辑的次数，一个 0 到 {n} 之间的数，实际为 {got!r}"
    ),
    "measured: {m} of {n}": "实测为 {n} 次中的 {m} 次",
    ". Too many: the edit rewrites the English memory only; the Chinese prompt reads its own.": (
        "。太多了：编辑只改动了英文的那份记忆；中文提示读的是它自己的那份。"
    ),
    ". Too few.": "。太少了。",
    ". The two languages keep two memories, and an edit reaches one.": (
        "。两种语言各有一份记忆，一次编辑只改到其中一份。"
    ),
    # course_lib.lessons.l09_two_languages.figures and demos
    "English": "英文",
    "Chinese": "中文",
    "the same fact": "同一条事实",
    "two different facts": "两条不同的事实",
    "shared units of the top {k}": "归因最高的 {k} 个单元中共有的个数",
    "top units shared by two statements": "两种陈述共有的归因最高的单元",
    "restoring the FFN's output: the mean over the 48 facts": "恢复 FFN 的输出：48 条事实的平均",
    " (edited)": "（被编辑）",
    "{method}, {strength}, edited with the {language} prompt": "{method}，{strength}，用{language}提示编辑",
    # notebooks/09_two_languages.ipynb: section 1, the facts in two languages
    "中文": "中文",
    "{sentence}  ->  prompt of {n} tokens, answer token {answer!r}, subject at {where}": (
        "“{sentence}”  ->  提示共 {n} 个 token，答案 token 为 {answer!r}，主语位于 {where}"
    ),
    "{lines} lines, {en} English and {zh} Chinese; {vocab} tokens in the vocabulary": (
        "共 {lines} 行，其中英文 {en} 行、中文 {zh} 行；词表中有 {vocab} 个 token"
    ),
    "seed {seed}: {en} of 48 facts right in English, {zh} of 48 in Chinese": (
        "种子 {seed}：英文答对 48 条事实中的 {en} 条，中文答对 48 条中的 {zh} 条"
    ),
    "in every seed the model answers all 48 facts in both languages": (
        "每个种子的模型都用两种语言答对了全部 48 条事实"
    ),
    # section 2: one memory or two?
    "same fact: {s:.2f} shared units of 10 on average; two different facts: {d:.2f}; ten random units of 512: {c:.2f}": (
        "同一条事实：10 个单元中平均共有 {s:.2f} 个；两条不同的事实：{d:.2f}；从 512 个中随机取 10 个：{c:.2f}"
    ),
    "seed {seed}: same fact {s:.2f}, different facts {d:.2f}, permutation p = {p:.2f}": (
        "种子 {seed}：同一条事实 {s:.2f}，不同的事实 {d:.2f}，置换检验 p = {p:.2f}"
    ),
    "in every seed, the same fact's two statements share no more top units than chance pairings of facts do (permutation p above 0.05)": (
        "在每个种子中，同一条事实的两种语言陈述共有的归因最高的单元，都不比随机配对的两条事实多（置换检验 p 高于 0.05）"
    ),
    "and in every seed both are above what random units share": "而在每个种子中，两者都高于随机单元的共有数",
    "two English phrasings: same fact {s:.2f}, different facts {d:.2f}, permutation p = {p:.3f}": (
        "两种英文句式：同一条事实 {s:.2f}，不同的事实 {d:.2f}，置换检验 p = {p:.3f}"
    ),
    "the test finds one memory where there is one: two phrasings of a fact share more top units than two facts do (p below 0.01)": (
        "确有一份共用的记忆时，这个检验能找到它：一条事实的两种句式共有的归因最高的单元比两条事实多（p 低于 0.01）"
    ),
    "its own language's top units": "本语言归因最高的单元",
    "the other language's, same fact": "另一种语言的，同一条事实",
    "the other language's, another fact": "另一种语言的，另一条事实",
    "asked in {language}": "用{language}提问",
    "asked": "提问",
    "erased at the last word": "在最后一个词处擦除",
    "p(answer) change": "p(答案) 的变化",
    "still top-1": "仍为首选词",
    "in every seed and both directions, erasing the other language's top units of the same fact changes p(answer) no more than erasing those of another fact": (
        "在每个种子、两个方向上，擦除另一种语言中同一条事实归因最高的单元，对 p(答案) 的改变都不比擦除另一条事实的更大"
    ),
    "the two means at most {g:.0%} apart": "两个平均值至多相差 {g:.0%}",
    "while erasing a fact's own top units takes most of its answer": (
        "而擦除一条事实本语言归因最高的单元，会拿走它答案的大部分"
    ),
    "at least {o:.0%}": "至少 {o:.0%}",
    "model": "模型",
    "layer": "层",
    "different": "不同实体",
    "gap": "差距",
    "permutation p": "置换检验 p",
    "gap within English": "英文内部的差距",
    "in every seed and layer the gap across languages is within what shuffled names give (permutation p above 0.05)": (
        "在每个种子的每一层，跨语言的差距都在打乱名字所得的范围之内：置换检验 p 都高于 0.05"
    ),
    "lowest p {p:.2f}": "最低的 p 为 {p:.2f}",
    "and the largest gap across languages is smaller than the smallest gap within English": (
        "而且跨语言的最大差距，比英文内部的最小差距还小"
    ),
    "{a:+.3f} against {b:+.3f}": "{a:+.3f} 对比 {b:+.3f}",
    # section 2: language-specific neurons
    "units firing on at least 1 % of one language's tokens and never on the other's, per layer: {only}": (
        "在一种语言至少 1% 的 token 上激活、在另一种语言上从不激活的单元数，逐层：{only}"
    ),
    "your LAPE and the lesson's agree on the model's units": (
        "在模型的单元上，你算的语言激活概率熵与本课的一致"
    ),
    "LAPE per layer: lowest {low}, median {median} (log 2 = {top:.2f})": (
        "各层的语言激活概率熵：最低 {low}，中位数 {median}（log(2) = {top:.2f}）"
    ),
    "seed {seed}: units selected {n}; perplexity rise on English and Chinese lines {rise}": (
        "种子 {seed}：选出的单元数 {n}；英文句子和中文句子上困惑度的升幅 {rise}"
    ),
    "no unit fires in one language only, in either layer": "两层中都没有只在一种语言中激活的单元",
    "and deactivating the units Tang et al.'s rule selects raises neither language's perplexity by more than 3 %, in any seed": (
        "而且在任何一个种子中，停用 Tang 等人的规则选出的单元，都不会让任一语言的困惑度升高 3% 以上"
    ),
    "at most {x:.1%}": "至多 {x:.1%}",
    "their models": "他们的模型",
    "their finding": "他们的发现",
    "this model": "本课的模型",
    "language-independent knowledge neurons: a fact's English and Chinese neurons intersect": (
        "语言无关的知识神经元：一条事实的英文知识神经元与中文知识神经元有交集"
    ),
    "the same fact's top units overlap no more than two facts' do": (
        "同一条事实的归因最高的单元，重合得并不比两条不同的事实多"
    ),
    "language-specific neurons, mostly in the first and last layers; deactivating them raises their language's perplexity": (
        "语言特定神经元，大多在最前面和最后面几层；停用它们会让相应语言的困惑度升高"
    ),
    "no unit fires in one language only; deactivating the selected ones changes little": (
        "没有只在一种语言中激活的单元；停用选出的单元几乎没有影响"
    ),
    "more features shared across languages in the larger model (over twice the share)": (
        "较大的模型跨语言共用的特征更多（比例是较小模型的两倍以上）"
    ),
    "one small model: nothing shared to count": "只有一个小模型：没有共用可数",
    # section 3: a dictionary between the languages
    "{n} dictionary lines, for example {a} and {b}": "词典共 {n} 行，例如“{a}”和“{b}”",
    "seed {seed}: facts right {en} and {zh} of 48; words translated {ez:.0%} en→zh, {ze:.0%} zh→en": (
        "种子 {seed}：48 条事实中英文答对 {en} 条、中文答对 {zh} 条；译对的词：英→中 {ez:.0%}，中→英 {ze:.0%}"
    ),
    "with the dictionary, every seed knows all 48 facts in both languages and translates every word both ways": (
        "有了词典，每个种子的模型都用两种语言答对全部 48 条事实，并能双向翻译每个词"
    ),
    "in every seed, the same fact's top units overlap no more than chance pairings of facts (p above 0.05)": (
        "在每个种子中，同一条事实的归因最高的单元都不比随机配对的事实重合得多（p 高于 0.05）"
    ),
    "and erasing the other language's units of the same fact hurts no more than erasing another fact's": (
        "而且擦除另一种语言中同一条事实的单元，损害并不比擦除另一条事实的单元更大"
    ),
    "the permutation test finds a gap in one seed and layer of the six, seed 2's layer 0": (
        "在六个（种子，层）中，置换检验只在一处找到差距：种子 2 的第 0 层"
    ),
    "gap {g:+.3f}, p {p:.3f}": "差距 {g:+.3f}，p 为 {p:.3f}",
    "were the 12 tests (six here, six above) independent, with no effect anywhere, at least one p below 0.05 would come in {x:.0%} of runs": (
        "假如这 12 次检验（这里六次，上面六次）相互独立，且处处都没有效应，那么有 {x:.0%} 的运行会出现至少一个低于 0.05 的 p"
    ),
    "that gap, the largest with the dictionary, is smaller than the smallest gap within English": (
        "这个差距是有词典时最大的，却仍小于英文内部的最小差距"
    ),
    "dictionary, seed {seed}": "词典，种子 {seed}",
    "two English phrasings": "两种英文句式",
    # section 4: tracing across languages
    "seed 0, {language}: the peak is layer {layer}'s FFN at {word!r}, {share:.0%} restored": (
        "种子 0，{language}：峰值在第 {layer} 层的 FFN、{word!r} 处，恢复了 {share:.0%}"
    ),
    "in every seed and both languages the peak is layer 1's FFN at the prompt's last token": (
        "在每个种子、两种语言中，峰值都在第 1 层的 FFN、提示的最后一个 token 处"
    ),
    "and no FFN output between <bos> and the last token restores more than 10 %": (
        "而且在起始 token 之后、最后一个 token 之前，没有哪个 FFN 输出能恢复 10% 以上"
    ),
    "at most {x:.0%}": "至多 {x:.0%}",
    # section 5: edit in one language, ask in the other
    "direction": "方向",
    "CS": "跨语言得分",
    "other: top-1 new": "另一种语言：新答案为首选词",
    "p(new), other": "另一种语言的 p(新答案)",
    "p(old), other": "另一种语言的 p(旧答案)",
    "at matched strength, no method in either direction and no seed makes the other language's top answer the new one for more than 5 % of its edits": (
        "在相同强度下，无论哪种方法、哪个方向、哪个种子，另一种语言的首选答案变成新答案的编辑都不超过 5%"
    ),
    "and the other language's mean p(new) stays below 0.05": "另一种语言的 p(新答案) 平均值也一直低于 0.05",
    "at most {x:.3f}": "至多 {x:.3f}",
    "at every strength of the sweep, not only the matched one, under 10 % cross": (
        "不只在相同强度下：在扫描的每一种强度下，传到另一种语言的编辑都不到 10%"
    ),
    "knowledge neurons and fine-tuning lower the other language's old answer to under 0.85 on average, in both directions, while the rank-one edit at layer 1 keeps it above 0.98": (
        "在两个方向上，知识神经元和微调都把另一种语言旧答案的概率平均压到 0.85 以下，而第 1 层的秩一编辑让它保持在 0.98 以上"
    ),
    "at most {a:.2f} against at least {b:.2f}": "至多 {a:.2f}，对比至少 {b:.2f}",
    "the same two keep under 55 % of the neighbours in the edited language": (
        "在被编辑的语言里，这两种方法保住的邻居都不到 55%"
    ),
    "NS at most {n:.0f}": "NS 至多 {n:.0f}",
    "with the dictionary, again no method, direction or seed crosses for more than 5 % of its edits at matched strength": (
        "有词典时也一样：在相同强度下，无论哪种方法、哪个方向、哪个种子，传到另一种语言的编辑都不超过 5%"
    ),
    "asked in": "提问的语言",
    "Wang et al.: ROME, EM (%)": "Wang 等人：ROME，精确匹配率（%）",
    "this model: ROME, top-1 new (%)": "本课的模型：ROME，新答案为首选词的比例（%）",
    "alike?": "可比吗？",
    "English (the edit's language)": "英文（编辑所用的语言）",
    "no: theirs asks another phrasing, this one the edited prompt": (
        "不可比：他们问的是同义句，这里问的是编辑所用的提示本身"
    ),
    "Chinese (the other language)": "中文（另一种语言）",
    "near: their EM scores the whole answer, this the first token": (
        "相近：他们的精确匹配对整个答案计分，这里只看第一个 token"
    ),
    "in both, the share asked in the other language is under a tenth of the share asked in the edit's language": (
        "无论他们的模型还是本课的模型，用另一种语言提问时的比例都不到用编辑所用语言提问时的十分之一"
    ),
    "{prompt}: {old} → {new}; asked in Chinese, p({new_zh}) {before:.3f} before, {after:.3f} after": (
        "“{prompt}”：“{old}” → “{new}”；用中文提问时，p({new_zh}) 编辑前为 {before:.3f}，编辑后为 {after:.3f}"
    ),
    # section 6: experts by language
    "seed": "种子",
    "p": "p",
    "I(route; language)": "I(路由; 语言)",
    "95 % of shuffled types": "打乱 token 类型后的 95% 分位数",
    "share of the route the token explains": "token 能解释的路由比例",
    "Chinese share per expert": "各专家的中文比例",
    "in every seed and layer, the token explains over 75 % of the route's entropy": (
        "在每个种子的每一层，token 都能解释路由熵的 75% 以上"
    ),
    "at least {x:.0%}": "至少 {x:.0%}",
    "the route says more of the language than a shuffled split of the vocabulary does (p below 0.05), but under a quarter of the 0.99 bits there are": (
        "路由透露的语言信息比词表的随机划分多（p 低于 0.05），但不到总共 0.99 比特的四分之一"
    ),
    "{lo:.2f} to {hi:.2f} bits": "{lo:.2f} 到 {hi:.2f} 比特",
    "and no expert takes over 90 % of its tokens from one language": (
        "而且没有哪个专家有 90% 以上的 token 来自同一种语言"
    ),
    "prompts in": "提示的语言",
    "I(route; relation)": "I(路由; 关系)",
    "95 % of shuffles": "打乱后的 95% 分位数",
    "purity": "纯度",
    "by chance": "随机时",
    "in layer 1 of every seed, one language's prompts are routed by relation (over 0.7 bits, p at most 0.001) and the other's far less (under 0.2 bits)": (
        "在每个种子的第 1 层，一种语言的提示按关系路由（超过 0.7 比特，p 至多 0.001），另一种语言的则少得多（不到 0.2 比特）"
    ),
    "the language routed by relation: {which}": "按关系路由的语言：{which}",
}
