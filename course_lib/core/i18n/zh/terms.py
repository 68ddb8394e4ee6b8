"""One Chinese term per concept: the word the catalogue and the Chinese lessons use, and the
variants they do not (a test reads every text of the Chinese edition against this table). A
glossary table row may still name a variant, once, for a learner who meets it elsewhere."""

TERMS: dict[str, tuple[str, ...]] = {
    "课程笔记": ("原课程", "源讲义", "原文"),  # the source texts the course grew from
    "前馈网络": ("前馈全连接层", "前馈神经网络"),  # 逐位置前馈网络 on first mention
    "前置层归一化": ("前置归一化",),  # pre-norm
    "后置层归一化": ("后置归一化",),  # post-norm
    "层归一化": ("规范化层",),  # LayerNorm
    "子层连接": ("子层连接结构",),  # the sublayer connection
    "dropout": ("随机失活",),  # written so in prose; Dropout only as a class name in code
    "语言无关知识神经元": (
        "语言无关神经元",
    ),  # Chen et al.'s language-independent knowledge neurons
    "token": ("词元",),
    "条事实": ("个事实",),  # the measure word for 事实
    "表达能力": ("模型容量",),  # capacity
    "通用近似器": ("万能逼近器", "万能近似器"),  # universal approximator
    "通用近似定理": ("万能近似定理", "万能逼近定理"),  # universal approximation theorem
    "编辑": (
        "改写",
    ),  # editing a fact (rewrite, edit): 改写 is never used, so it cannot mean paraphrase
    "同义句": ("改述", "另一种说法"),  # paraphrase: another phrasing of the same fact
    "相对熵项": ("KL 项",),  # ROME's KL term (in outputs KL is not a word a Chinese line shows)
    "激活最少的": ("最安静的",),  # quietest: the unit or feature firing least (lesson 8)
    "代入估计": ("插件估计",),  # a plug-in estimate (lesson 9), a statistic, not a software plug-in
    "对齐强度": ("相同强度",),  # matched strength: each edit read where it reaches one effect
    "Holm 校正": ("霍尔姆校正",),  # Holm's correction for many tests, named as lessons 5-9 name it
    "池化": ("汇聚方式",),  # pooling a sentence embedding from its tokens (lesson 10)
    "对照表": ("比分表",),  # the scoreboard that sets a paper's number beside the toy's
    "随机水平": ("机会水平", "随机基线"),  # chance level: a blind guess's or random labels' score
    "指标": ("量法",),  # a measure (top-1, rank, purity): what a number is read as
    "陡度": ("陡峭度",),  # lesson 3's sharpness k (陡峭变体 is the sharp variant, another thing)
    "结论": ("论断",),  # a claim: the ✔ line a cell prints, and what it states
    "匹配的打乱": ("对齐的打乱",),  # lesson 8's matched shuffle (对齐强度: the edits' strength)
    "线性区域": ("线性块",),  # linear region: where a ReLU layer is one linear function
    "无法判断": ("分辨不了",),  # could not tell: a test without the power to decide (lessons 5-9)
    "未解释方差比例": ("未解释方差的比例",),  # 1 − R², FVU (lessons 2, 8 and 10)
    "95% 置信区间": ("95% 区间",),  # a confidence interval, named as such in every lesson
    "蒙特卡洛标准误": ("蒙特卡洛误差", "打乱带来的标准误"),  # a shuffled p's ± (lessons 8, 9)
    "测得出": ("检得出", "能检出", "显得出来", "显不出来"),  # a test's power (lessons 7, 9, 10)
    "盲猜": ("瞎猜",),  # a blind guess among a relation's answers (lesson 9)
    "编辑没有针对的事实": ("未被编辑的事实",),  # lesson 9: facts an edit left alone
}
