"""Chinese texts for the two-languages topic (see course_lib.core.i18n.zh)."""

MESSAGES: dict[str, str] = {
    # course_lib.lessons.l09_two_languages (the lesson's title and goal)
    "One memory, two languages (跨语言)": "跨语言：一份记忆，两种语言（cross-lingual）",
    "train lesson 5's fact model on its facts in English and in Chinese, find whether the same FFN units store a fact in both languages, and whether an edit made in one language reaches the other": (
        "用英文和中文两种语言的事实训练第 5 课的事实模型，查明同一条事实在两种语言里是否由同一批 FFN 单元存储，"
        "以及用一种语言做的编辑能否传到另一种语言"
    ),
    # course_lib.lessons.l09_two_languages.questions
    "With the dictionary, the model translates every name both ways, and still shows no detectable sign of one memory per fact. What does that show?": (
        "有了词典，模型能把每个名字双向翻译，却仍然测不出每条事实只存一份记忆的迹象。这说明了什么？"
    ),
    "that knowing a word's translation left no detectable sign of one memory, in this model": (
        "说明在这个模型里，知道一个词的译名并没有让两种语言显出共用一份记忆的迹象"
    ),
    "Right: the link between the words was learned, and no sign of one memory was found. Other links (facts stated across languages, a larger model) are not tested.": (
        "对：词与词之间的联系学会了，却测不出一份记忆的迹象。其他联系（跨语言陈述的事实、更大的模型）没有检验。"
    ),
    "that multilingual models keep one memory per language": "说明多语言模型为每种语言各存一份记忆",
    "Chen et al. report knowledge neurons shared across languages in real multilingual models; one two-layer model on 48 facts cannot speak for them.": (
        "Chen 等人报告，在真实的多语言模型中有跨语言共用的知识神经元；一个只学了 48 条事实的两层模型代表不了它们。"
    ),
    "that the dictionary was too small to be learned": "说明词典太小，模型没学会",
    "The model answers every dictionary entry both ways: it was learned. What it did not show is any sign of storing the facts once.": (
        "模型对词典的每个词条都能双向答对：词典是学会了的。它没有显示出的，是把事实只存一份的任何迹象。"
    ),
    "that the attribution cannot find shared units": "说明归因找不出共用的单元",
    "It resolves a fraction of a unit, and on lesson 6's model it finds what two phrasings of a fact share beyond their answer: it has the power to find sharing of that size, for two phrasings of one name; for two different names its power is untested.": (
        "这个检验能分辨不到一个单元的差别；在第 6 课的模型上，它找到了一条事实的两种句式在答案之外还共有的东西："
        "对同一个名字的两种句式，这么大的共用它有能力找到；对两个不同的名字，它的功效没有检验过。"
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
    ". Too many: the Chinese prompt's answer hardly moved.": "。太多了：中文提示的答案几乎没有动。",
    ". Too few.": "。太少了。",
    ". The edit did not reach the Chinese prompt.": "。编辑没有传到中文提示上。",
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
    "in every seed, the same fact's two statements share no detectably more top units than chance pairings of facts do (permutation p above 0.05)": (
        "在每个种子中，同一条事实的两种语言陈述共有的归因最高的单元，都看不出比随机配对的两条事实多（置换检验 p 高于 0.05）"
    ),
    "and in every seed both are above what random units share": "而在每个种子中，两者都高于随机单元的共有数",
    "the test resolves as much as before: in every seed the same fact shares at most a quarter of a unit more than two different facts (95 % bound)": (
        "这个检验的分辨力与之前一样：按 95% 上界计，在每个种子中，同一条事实共有的单元至多比两条不同的事实多四分之一个"
    ),
    "the test resolves a fraction of a unit: in every seed the same fact shares at most a quarter of a unit more than two different facts (95 % bound)": (
        "这个检验能分辨不到一个单元的差别：按 95% 上界计，在每个种子中，同一条事实共有的单元至多比两条不同的事实多四分之一个"
    ),
    "at most {b:.2f}": "至多 {b:.2f}",
    "two English phrasings: same fact {s:.2f}, different facts of the same answer {a:.2f}, all different facts {d:.2f}, permutation p = {p:.3f}": (
        "两种英文句式：同一条事实 {s:.2f}，答案相同的不同事实 {a:.2f}，所有不同的事实 {d:.2f}，置换检验 p = {p:.3f}"
    ),
    "the two phrasings of a fact share more top units than two facts with the same answer do, by over twice the largest excess the bilingual models could hide": (
        "一条事实的两种句式共有的归因最高的单元比答案相同的两条事实多，多出的部分超过双语模型可能藏住的最大多出量的两倍"
    ),
    "{x:.2f} units against {b:.2f}": "{x:.2f} 个单元，对比 {b:.2f}",
    "its own language's top units": "本语言归因最高的单元",
    "the other language's, same fact": "另一种语言的，同一条事实",
    "the other language's, another fact": "另一种语言的，另一条事实",
    "asked in {language}": "用{language}提问",
    "asked": "提问",
    "erased at the last word": "在最后一个词处擦除",
    "p(answer) change": "p(答案) 的变化",
    "still top-1": "仍为首选词",
    "layer {layer}'s unit {u} is in the top ten of {en} of the 48 facts in English and {zh} in Chinese": (
        "第 {layer} 层的单元 {u} 出现在 {en} 条事实的英文提示、{zh} 条事实的中文提示归因最高的十个单元里（共 48 条）"
    ),
    "as a share ({x:.0%}) of each bilingual model's overlap between different facts: {v} units, against its bound {b}; ruled out in {n} of 3 seeds": (
        "按比例（{x:.0%}）换算到每个双语模型中不同事实之间的重合：{v} 个单元，对照各自的上界 {b}；在 3 个种子中的 {n} 个里排除得了"
    ),
    "in every seed and both directions, erasing the other language's top units of the same fact changes p(answer) within 5 points of what erasing those of another fact does": (
        "在每个种子、两个方向上，擦除另一种语言中同一条事实归因最高的单元，对 p(答案) 的改变与擦除另一条事实的相差都在 5 个百分点以内"
    ),
    "the two means at most {g:.0%} apart": "两个平均值至多相差 {g:.0%}",
    "on lesson 6's two phrasings the same erasure tells the same fact's units from another fact's, by over 5 points in both directions": (
        "在第 6 课的两种句式上，同样的擦除能把同一条事实的单元和另一条事实的单元区分开来，两个方向都相差 5 个百分点以上"
    ),
    "but not from those of another fact with the same answer: within 5 points in both directions": (
        "却区分不开答案相同的另一条事实的单元：两个方向都相差不到 5 个百分点"
    ),
    "at most {x:.1%} apart": "至多相差 {x:.1%}",
    "by at least {x:.1%}": "至少 {x:.1%}",
    "while erasing a fact's own top units takes most of its answer": (
        "而擦除一条事实本语言归因最高的单元，会拿走它答案的大部分"
    ),
    "at least {o:.0%}": "至少 {o:.0%}",
    "model": "模型",
    "layer": "层",
    "different": "不同实体",
    "gap": "差距",
    "permutation p": "置换检验 p",
    "in every seed and layer the gap across languages is within what shuffled names give (permutation p above 0.05)": (
        "在每个种子的每一层，跨语言的差距都在打乱名字所得的范围之内：置换检验 p 都高于 0.05"
    ),
    "lowest p {p:.2f}": "最低的 p 为 {p:.2f}",
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
    "units of": "单元所属语言",
    "firing ratio, least": "激活比，最小",
    "most": "最大",
    "own language's rise": "所属语言的升幅",
    "the other's": "另一种语言的升幅",
    "random units, 95 %": "随机单元，95% 分位数",
    "p, own − other": "p，所属语言减另一种语言",
    "in every seed, no unit fires in one language only, in either layer: every unit's activation probability is above 0 in both languages": (
        "在每个种子中，两层都没有只在一种语言中激活的单元：每个单元在两种语言中的激活概率都大于 0"
    ),
    "the lowest {x:.1%}": "最低 {x:.1%}",
    "every unit Tang et al.'s rule selects fires in both languages, at least twice as often in its own": (
        "Tang 等人的规则选出的每个单元都在两种语言中激活，在所属语言中激活的次数至少是另一种语言的两倍"
    ),
    "least {x:.1f} times": "最少 {x:.1f} 倍",
    "in every selection but one, zeroing the units costs their language not detectably more than random sets of as many units, nor widens the gap between the languages (own rise minus the other's, Tang et al.'s contrast) beyond theirs (p against 500 sets above 0.05)": (
        "除了一组之外，每一组选出的单元置零后给所属语言带来的代价，都看不出比同样多的随机单元更大，"
        "在两种语言之间造成的差距（所属语言的升幅减去另一种语言的，即 Tang 等人所作的对比）也没有超出随机单元组的"
        "（与 500 组随机单元相比，p 都高于 0.05）"
    ),
    "the one, seed 2's English pair, costs English more than random pairs do and widens the gap more, but neither survives counting the five selections (5 × p above 0.05)": (
        "这一组是种子 2 英文的那两个单元：它给英文带来的代价比随机取两个单元更大，造成的差距也更大，"
        "但把五组选择都算上之后，两者都不显著（5 × p 高于 0.05）"
    ),
    "p {a:.3f} and {b:.3f}": "p 分别为 {a:.3f} 和 {b:.3f}",
    "at most {x:.1%}": "至多 {x:.1%}",
    # section 2: Chen et al.'s measure, and the papers
    "seed {seed}: the same fact's two lists intersect for {a:.0%} of facts; two different facts' for {b:.0%} of pairs": (
        "种子 {seed}：同一条事实的两份名单，有 {a:.0%} 的事实有交集；两条不同事实的名单，有 {b:.0%} 的配对有交集"
    ),
    "in every seed, the same fact's lists intersect no more often than two different facts' do, allowing 10 points": (
        "在每个种子中，同一条事实的两份名单有交集的比例，都不比两条不同事实的高（允许相差 10 个百分点）"
    ),
    "their models": "他们的模型",
    "their finding": "他们的发现",
    "this model": "本课的模型",
    "language-independent knowledge neurons: a fact's English and Chinese neurons intersect": (
        "语言无关的知识神经元：一条事实的英文知识神经元与中文知识神经元有交集"
    ),
    "an analogue of their count (top 10 here, far denser than their thresholds): {lo:.0%} to {hi:.0%} of facts; but two different facts intersect about as often": (
        "仿照他们的计数（这里取归因最高的 10 个单元，比他们按阈值选出的多得多）：{lo:.0%} 到 {hi:.0%} 的事实有交集；"
        "但两条不同的事实有交集的比例也差不多"
    ),
    "language-specific neurons, mostly in the first and last layers; deactivating them raises their language's perplexity": (
        "语言特定神经元，大多在最前面和最后面几层；停用它们会让相应语言的困惑度升高"
    ),
    "units skewed to one language, none silent in the other; zeroing them costs not detectably more than random units in 4 selections of 5, nor the fifth once the five are counted; first and last layers: untestable in two layers": (
        "偏向一种语言的单元，但没有一个在另一种语言中沉默；五组选择中有四组，置零的代价看不出比随机单元更大，"
        "第五组在把五组都算上之后也不显著；最前面和最后面几层的分布：两层的模型无从检验"
    ),
    "features specific to a language at the model's two ends, shared in the middle; more shared in the larger model": (
        "模型两端的特征专属于某种语言，中间的特征跨语言共用；较大的模型共用的更多"
    ),
    "not measured here; a two-layer model has no middle": "这里没有测量；两层的模型没有中间层",
    # section 3: a dictionary between the languages
    "{n} dictionary lines, for example {a} and {b}": "词典共 {n} 行，例如“{a}”和“{b}”",
    "seed {seed}: facts right {en} and {zh} of 48; words translated {ez:.0%} en→zh, {ze:.0%} zh→en": (
        "种子 {seed}：48 条事实中英文答对 {en} 条、中文答对 {zh} 条；译对的词：英→中 {ez:.0%}，中→英 {ze:.0%}"
    ),
    "with the dictionary, every seed knows all 48 facts in both languages and translates every word both ways": (
        "有了词典，每个种子的模型都用两种语言答对全部 48 条事实，并能双向翻译每个词"
    ),
    "in every seed, the same fact's top units overlap not detectably more than chance pairings of facts (p above 0.05)": (
        "在每个种子中，同一条事实的归因最高的单元都看不出比随机配对的事实重合得多（p 高于 0.05）"
    ),
    "and erasing the other language's units of the same fact hurts within 5 points of erasing another fact's": (
        "而擦除另一种语言中同一条事实的单元，造成的损害与擦除另一条事实的单元相差在 5 个百分点以内"
    ),
    "the permutation test finds a gap below p 0.05 in one seed and layer of the six, seed 2's layer 0": (
        "在六个（种子，层）中，置换检验只在一处找到 p 低于 0.05 的差距：种子 2 的第 0 层"
    ),
    "gap {g:+.3f}, p {p:.3f}": "差距 {g:+.3f}，p 为 {p:.3f}",
    "not significant once the six tests are counted (Bonferroni: p times 6, above 0.05)": (
        "把六次检验都算上就不显著了：按邦费罗尼校正，p 乘以 6 后高于 0.05"
    ),
    "dictionary, seed {seed}": "词典，种子 {seed}",
    "two phrasings, same answer": "两种英文句式，同答案对照",
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
    "English → Chinese": "英文 → 中文",
    "Chinese → English": "中文 → 英文",
    "before any edit, the other language's p(old) is {a:.2f} on average (edits made in English) and {b:.2f} (in Chinese)": (
        "在任何编辑之前，另一种语言的 p(旧答案) 平均为 {a:.2f}（用英文编辑时）和 {b:.2f}（用中文编辑时）"
    ),
    "direction": "方向",
    "CS": "跨语言得分",
    "other: top-1 new": "另一种语言：新答案为首选词",
    "p(new), other": "另一种语言的 p(新答案)",
    "p(old), other": "另一种语言的 p(旧答案)",
    "NS, both languages": "NS（两种语言）",
    "of the edits that reached p(new) 0.9 in their language, in every method, direction and seed, none makes the other language's top answer the new one": (
        "在自己的语言里让 p(新答案) 达到 0.9 的编辑中，无论哪种方法、哪个方向、哪个种子，都没有一次让另一种语言的首选答案变成新答案"
    ),
    "all edits at matched strength, the unreached ones at their strongest: at most {x:.1%} of a seed's edits cross": (
        "相同强度下的全部编辑（没达到的取最强的强度）：一个种子的编辑中，传到另一种语言的至多 {x:.1%}"
    ),
    "and the other language's mean p(new) stays below 0.05": "另一种语言的 p(新答案) 平均值也一直低于 0.05",
    "at most {x:.3f}": "至多 {x:.3f}",
    "knowledge neurons at their default λ = 1: {en} of each seed's English edits cross, {zh} of its Chinese ones": (
        "取默认 λ = 1 的知识神经元：各个种子的英文编辑中传到另一种语言的分别为 {en}，中文编辑为 {zh}"
    ),
    "edited fact's p(old) falls": "被编辑事实的 p(旧答案) 降幅",
    "other facts' p(answer) falls": "其他事实的 p(答案) 降幅",
    "for knowledge neurons and fine-tuning, in every seed and direction, the facts the edit was not asked to change lose about as much in the other language as the edited fact's old answer (within 0.1)": (
        "对知识神经元和微调来说，在每个种子、每个方向上，编辑没被要求改动的那些事实在另一种语言里损失的，"
        "与被编辑事实的旧答案差不多，相差不到 0.1"
    ),
    "at most {x:.2f} apart": "至多相差 {x:.2f}",
    "at λ = 1, in every seed where knowledge neurons carry an English edit into Chinese, they make unedited facts of its relation answer the new word there too": (
        "取 λ = 1 时，在知识神经元把英文编辑带进中文的每个种子中，它们也让同一关系下没被编辑的事实在中文里答出新词"
    ),
    "{x} of them, per seed": "各个种子中分别占 {x}",
    "every other method, at every strength and in every seed, crosses for at most 5 % of the edits": (
        "其他每种方法，在每种强度、每个种子中，传到另一种语言的编辑都至多 5%"
    ),
    "below λ = 1 no knowledge-neuron edit crosses, in either direction or seed": (
        "λ 小于 1 时，无论哪个方向、哪个种子，知识神经元的编辑都没有一次传到另一种语言"
    ),
    "in every seed and direction, knowledge neurons and fine-tuning lower the other language's mean p(old) by over 0.05, while the rank-one edit at layer 1 lowers it by under 0.01": (
        "在每个种子、每个方向上，知识神经元和微调都让另一种语言的 p(旧答案) 平均值下降 0.05 以上，"
        "而第 1 层的秩一编辑让它下降不到 0.01"
    ),
    "by at least {a:.2f} (from at least {b:.2f}) against at most {c:.3f}": (
        "至少下降 {a:.2f}，原本至少为 {b:.2f}；对比至多 {c:.3f}"
    ),
    "the same two keep fewer neighbours (NS, the neighbours asked in both languages) than the rank-one edit, by over 20 points": (
        "这两种方法保住的邻居（NS，每个邻居都用两种语言提问）比秩一编辑少 20 分以上"
    ),
    "NS at most {n:.0f} against {r:.0f}": "NS 至多 {n:.0f}，对比 {r:.0f}",
    "with the dictionary, again no method, direction or seed crosses for more than 5 % of its edits at matched strength": (
        "有词典时也一样：在相同强度下，无论哪种方法、哪个方向、哪个种子，传到另一种语言的编辑都不超过 5%"
    ),
    "{n} English and {m} Chinese edits reached it; were Wang et al.'s rates true here ({a}% and {b}%), none crossing would have probability {pa:.3f} and {pb:.2f}": (
        "达到 0.9 的有 {n} 次英文编辑和 {m} 次中文编辑；假如这里的比率就是 Wang 等人的（{a}% 和 {b}%），一次也没有传过去的概率分别为 {pa:.3f} 和 {pb:.2f}"
    ),
    "so the English edits' zero is unlikely at Wang et al.'s rate (below 0.05), the fewer Chinese edits' zero is not (above 0.05)": (
        "所以按 Wang 等人的比率，英文编辑的“一次也没有”不太可能出现（低于 0.05），数量更少的中文编辑则不然（高于 0.05）"
    ),
    ", ": "、",  # between the items of a list in a printed line
    "the test detects only a cost above what 95 % of random sets give, {lo:+.1%} to {hi:+.1%}; units that cost the other language more than their own: {o}": (
        "这个检验只能看出超过 95% 随机单元组代价的损失，即 {lo:+.1%} 到 {hi:+.1%}；给另一种语言带来的代价比给所属语言还大的单元：{o}"
    ),
    "the toy's ROME reached p(new) 0.9 on {en:.0%} of its English edits and {zh:.0%} of its Chinese ones; the others are read at its strongest": (
        "玩具模型的 ROME 在 {en:.0%} 的英文编辑和 {zh:.0%} 的中文编辑上让 p(新答案) 达到了 0.9；其余的编辑取它最强的强度来读"
    ),
    "none in this corpus": "这份语料中没有",
    "near: theirs the whole answer, this the first token": (
        "相近：他们对整个答案计分，这里只看第一个 token"
    ),
    "no: theirs translates a paraphrase, this the edited prompt": (
        "不可比：他们用的是同义句的译文，这里用的是编辑所用提示的译文"
    ),
    "Wang et al., EM (%)": "Wang 等人，EM（%）",
    "this model, top-1 new (%)": "本课的模型，新答案为首选词的比例（%）",
    "alike?": "可比吗？",
    "the edited prompt": "编辑所用的提示",
    "another phrasing, English": "同义句，英文",
    "in Chinese": "用中文",
    "another phrasing, Chinese": "同义句，中文",
    "in English": "用英文",
    "in both directions, none of the toy ROME's edits that reached p(new) 0.9 makes the other language's top answer the new one": (
        "在两个方向上，玩具模型的 ROME 编辑中让 p(新答案) 达到 0.9 的，没有一次让另一种语言的首选答案变成新答案"
    ),
    "{prompt}: {old} → {new}, p({new}) {en:.3f} after the edit; asked in Chinese, p({new_zh}) "
    "{before:.3f} before, {after:.3f} after": (
        "“{prompt}”：“{old}” → “{new}”，编辑后新答案的概率为 {en:.3f}；"
        "用中文提问时，p({new_zh}) 编辑前为 {before:.3f}，编辑后为 {after:.3f}"
    ),
    # section 6: experts by language
    "seed": "种子",
    "p": "p",
    "I(route; language)": "I(路由; 语言)",
    "H(language) = {h:.2f} bits: {c:.0%} of the routed tokens are Chinese": (
        "H(语言) = {h:.2f} 比特：被路由的 token 中有 {c:.0%} 是中文"
    ),
    "95 % of shuffled types": "打乱 token 类型后的 95% 分位数",
    "Chinese share per expert": "各专家的中文比例",
    "in every seed and layer, the token explains most of the route's entropy (over half)": (
        "在每个种子的每一层，token 都能解释路由熵的大部分，即一半以上"
    ),
    "at least {x:.0%}": "至少 {x:.0%}",
    "the route says more of the language than a shuffled split of the vocabulary does in every seed and layer (p below 0.05, uncorrected), yet under a third of the 0.99 bits there are": (
        "在每个种子的每一层，路由透露的语言信息都比词表的随机划分多（p 低于 0.05，未经校正），但不到总共 0.99 比特的三分之一"
    ),
    "{lo:.2f} to {hi:.2f} bits": "{lo:.2f} 到 {hi:.2f} 比特",
    "with Bonferroni's correction for the six tests, {n} of 6 stay below 0.05": (
        "对这六次检验做邦费罗尼校正后，6 次中仍有 {n} 次低于 0.05"
    ),
    "Chen et al. 2024": "Chen 等人 2024",
    "Tang et al. 2024": "Tang 等人 2024",
    "and no expert takes over 90 % of its tokens from one language": (
        "而且没有哪个专家有 90% 以上的 token 来自同一种语言"
    ),
    "prompts in": "提示的语言",
    "I(route; relation)": "I(路由; 关系)",
    "95 % of shuffles": "打乱后的 95% 分位数",
    "purity": "纯度",
    "by chance": "随机时",
    "in layer 1 of every seed, one language's prompts are routed by relation: p at most 0.001, and purer than by chance by over 0.2": (
        "在每个种子的第 1 层，一种语言的提示按关系路由：p 至多 0.001，纯度比随机时高 0.2 以上"
    ),
    "the other language's routes are no purer by relation than by chance (within 0.02), though their information may pass the shuffles": (
        "另一种语言的路由按关系算的纯度并不比随机时高（相差不超过 0.02），尽管它的互信息可能超过打乱后的水平"
    ),
    "p {p}": "p 为 {p}",
    "the language routed by relation: {which}": "按关系路由的语言：{which}",
    "seed {seed}, layer 1: the same pair for {same:.0%} of facts; by chance {chance:.0%} (p = {p:.2f})": (
        "种子 {seed}，第 1 层：{same:.0%} 的事实的两个提示走同一对专家；随机时为 {chance:.0%}（p = {p:.2f}）"
    ),
    "in no seed does a fact's English prompt share its route with its own Chinese prompt more than with a random one (p above 0.05)": (
        "在任何一个种子中，一条事实的英文提示与它自己的中文提示走同一条路由的比例，都不比与随机一个中文提示的高（p 高于 0.05）"
    ),
}
