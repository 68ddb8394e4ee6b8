"""Chinese texts for the regions topic (see course_lib.core.i18n.zh)."""

MESSAGES: dict[str, str] = {
    # course_lib.lessons.l03_triangle_regions: LESSON, the index's row
    "Triangle regions: what the features of a ReLU layer mean (三角形区域与特征)": "三角形区域：ReLU 层的特征表示什么",
    'build by hand a 2 → 6 → 2 ReLU network deciding "inside the triangle?", see what nonlinearity loses and gains': "亲手搭建一个判断“是否在三角形内？”的 2 → 6 → 2 ReLU 网络，看清非线性带来的得与失",
    # course_lib.lessons.l03_triangle_regions.figures: static figures
    "triangle {name}": "三角形 {name}",
    "two triangles; their overlap is the darker region": "两个三角形：颜色更深处是二者的交集",
    "feature {name}{index}": "特征 {name}{index}",
    "in_triangle_{name} (AND)": "in_triangle_{name}（AND）",
    "overlap (AND)": "交集（AND）",
    "union (OR)": "并集（OR）",
    "XOR": "异或（XOR）",
    "preimages: whole regions": "原像：整片区域",
    "(x, y) -> (in_f, in_g): 4 values": "(x, y) → (in_f, in_g)：只有 4 个值",
    "invertible linear map: grid stays a grid": "可逆线性映射：网格仍是网格",
    "one seed": "单个种子",
    "best seed": "最佳种子",
    "6 = the edges of f and g": "6 = f 与 g 的边数之和",
    "d_ff (hidden units)": "d_ff（隐藏单元数）",
    "accuracy (both labels right)": "准确率（两个标签都对）",
    "2 -> d_ff -> 2, trained by gradient descent ({activation})": (
        "2 → d_ff → 2，用梯度下降训练（{activation}）"
    ),
    "non-convex: OR of {n} convex pieces": "非凸区域：{n} 个凸块的并集（OR）",
    # course_lib.lessons.l03_triangle_regions.figures: live views
    "in_triangle_f": "in_triangle_f（在 f 内）",
    "in_triangle_g": "in_triangle_g（在 g 内）",
    "overlap = AND": "交集 = AND",
    "{network} network, sharpness {sharpness:g}: "
    "agrees with the geometric test on {agreement:.2%} of the grid": (
        "{network}，陡度 {sharpness:g}：在 {agreement:.2%} 的网格点上与几何判定一致"
    ),
    "n (edges = features)": "n（边数 = 特征数）",
    "disc area − n-gon area": "圆盘面积 − 正 n 边形面积",
    "the disc, approximated": "用多边形逼近圆盘",
    "{n}-gon from {n} edge features": "由 {n} 个边特征构成的正多边形",
    "d_ff={d_ff}, {activation}: accuracy {accuracy:.1%} (best of {n_seeds} seeds)": (
        "d_ff={d_ff}，{activation}：准确率 {accuracy:.1%}（{n_seeds} 个种子中最佳）"
    ),
    # course_lib.lessons.l03_triangle_regions.checks: checker names and success notes
    "edge weights": "边的权重",
    "AND from ReLU": "用 ReLU 实现 AND",
    "OR from ReLU": "用 ReLU 实现 OR",
    "six-unit prediction": "六单元网络的预测",
    "polygon detector": "多边形检测器",
    "each edge's unit normal and offset, oriented so the inside is positive.": (
        "每条边的单位法向量和偏移量都正确，且方向使内侧为正。"
    ),
    "{name} on (0,0), (0,1), (1,0), (1,1) gives {values}.": (
        "{name} 在 (0,0)、(0,1)、(1,0)、(1,1) 上的结果依次为 {values}。"
    ),
    "at {point}: {out_5:.2f} at k = 5, {out_20:.2f} at k = 20 "
    "(the output ReLU makes it 0), and the band at k = 20 is {band:.2f} wide.": (
        "在 {point} 处，k = 5 时为 {out_5:.2f}，k = 20 时为 {out_20:.2f}"
        "（输出端的 ReLU 会把它变成 0）；k = 20 时过渡带宽 {band:.2f}。"
    ),
    "a square, a pentagon and a random pentagon, equal to the six-unit construction.": (
        "在正方形、正五边形和随机五边形上，你的输出都与按本课构造法（每条边一个 ReLU）搭出的检测器完全相同。"
    ),
    # course_lib.lessons.l03_triangle_regions.checks: hints
    "for the edge {start} -> {end} your half-plane is positive on the OUTSIDE "
    "(w · inside_point + b < 0): flip the signs of w and b": (
        "对于边 {start} → {end}，你的半平面在外侧为正（w · inside_point + b < 0）："
        "把 w 和 b 的符号都取反"
    ),
    "w is not perpendicular to the edge: the normal of direction (dx, dy) is (-dy, dx)": (
        "w 与这条边不垂直：方向 (dx, dy) 的法向量是 (-dy, dx)"
    ),
    "|w| = {norm:.3f}: divide w and b by the edge's length, so that "
    "w · p + b is the distance of p from the edge's line": (
        "|w| = {norm:.3f}：把 w 和 b 都除以边长，使 w · p + b 等于点 p 到这条边所在直线的距离"
    ),
    "w · start + b = {value:.3f}, but the line must pass through the edge: b = -w · start": (
        "w · start + b = {value:.3f}，但这条直线必须经过这条边：b = -w · start"
    ),
    "w must have 2 entries (one per input x, y), got shape {shape}": (
        "w 必须有 2 个分量（输入 x、y 各一个），实际形状为 {shape}"
    ),
    "{name}(a, b) must work elementwise and return 4 values for 4 pairs, got shape {shape}": (
        "{name}(a, b) 必须逐元素计算，4 组输入应返回 4 个值，实际形状为 {shape}"
    ),
    "{name} on (0,0), (0,1), (1,0), (1,1) gave {got}, expected {expected}": (
        "{name} 在 (0,0)、(0,1)、(1,0)、(1,1) 上得到 {got}，应为 {expected}"
    ),
    "(0, 0) gives -1: the ReLU is missing around a + b - 1": (
        "(0, 0) 得到 -1：a + b - 1 外面少了 ReLU"
    ),
    "that is OR-like (relu(a + b)): subtract 1 inside the ReLU, so only 1 + 1 stays positive": (
        "这更像 OR（relu(a + b)）：在 ReLU 里减去 1，这样只有 1 + 1 仍为正"
    ),
    "that is OR: for AND only (1, 1) may give 1": "这是 OR：对 AND 来说，只有 (1, 1) 能得到 1",
    "relu(a + b - 2) is 0 even at (1, 1): the threshold is n - 1 = 1, not n = 2": (
        "relu(a + b - 2) 在 (1, 1) 处也是 0：阈值应为 n - 1 = 1，而不是 n = 2"
    ),
    "(1, 1) gives 2: clip the sum at 1, e.g. 1 - relu(1 - a - b)": (
        "(1, 1) 得到 2：把和截断在 1，例如 1 - relu(1 - a - b)"
    ),
    "that is AND: OR must be 1 when either input is 1": (
        "这是 AND：只要有一个输入为 1，OR 就必须为 1"
    ),
    "(0, 0) gives 1 and the rest 0: that is NOR, 1 - OR; drop the outer `1 -` or the "
    "inner sign": "(0, 0) 得到 1，其余为 0：这是 NOR，即 1 - OR；去掉外层的 `1 -` 或里面的负号",
    "that is XOR: OR is 1 at (1, 1) too": "这是 XOR：OR 在 (1, 1) 处也应为 1",
    "return three numbers (out_5, out_20, band_20), got {size}": (
        "请返回三个数 (out_5, out_20, band_20)，实际得到 {size} 个"
    ),
    "you forgot k: the output is 1 - k · (distance outside), not 1 - distance": (
        "你忘了 k：输出是 1 − k × 外侧距离，而不是 1 − 外侧距离"
    ),
    "the point is outside edge f1 (y = -0.6): its unit relu(-f1) = 0.1, not 0": (
        "这个点在边 f1（y = -0.6）的外侧：它的单元 relu(-f1) = 0.1，而不是 0"
    ),
    "the output adds k · distance instead of subtracting it (W2 = -k)": (
        "输出加上了 k · 距离，应该减去它（W2 = -k）"
    ),
    "at k = 20 you gave 0, the membership after the output ReLU; the FFN's output "
    "itself is 1 - 20 · 0.1": (
        "k = 20 时你给出的 0 是经过输出端 ReLU 之后的隶属度；FFN 本身的输出是 1 - 20 · 0.1"
    ),
    "out_5, out_20 = {got}: use 1 - k · 0.1 for each k": (
        "out_5, out_20 = {got}：对每个 k 都用 1 - k · 0.1 计算"
    ),
    "the band is 1/k wide, not k: the output reaches 0 at distance 1/k": (
        "过渡带宽 1/k，而不是 k：输出在距离 1/k 处降到 0"
    ),
    "band_20 = {band:g}: the output 1 - 20 d reaches 0 at d = 1/20": (
        "band_20 = {band:g}：输出 1 - 20 d 在 d = 1/20 处降到 0"
    ),
    "the normals point outward: the hidden units must be relu(-f_i), positive OUTSIDE "
    "edge i (W1 = -normals, b1 = -offsets)": (
        "法向量朝外了：隐藏单元必须是 relu(-f_i)，在边 i 的外侧为正（W1 = -normals，b1 = -offsets）"
    ),
    "W2 is missing k: each unit's weight is -k, so the output falls to 0 within 1/k": (
        "W2 少了 k：每个单元的权重是 -k，这样输出才会在 1/k 之内降到 0"
    ),
    "b2 is missing the 1: the output must be 1 inside, 1 - k · sum": (
        "b2 少了 1：输出在内部必须是 1，即 1 - k · sum"
    ),
    "W2 has the wrong sign: -k, so that the output falls outside": (
        "W2 的符号反了：应为 -k，这样输出在外侧才会下降"
    ),
    "the normals are not of length 1: divide each by its edge's length, so every band "
    "is 1/k wide": "法向量的长度不是 1：把每个法向量除以对应的边长，使每条过渡带都宽 1/k",
    "W1 must be (2, {n}) for {n} edges, one column per edge (x W1), got {shape}": (
        "{n} 条边时 W1 必须是 (2, {n})，每条边一列（x W1），实际为 {shape}"
    ),
    "b1 and W2 need {n} entries, b2 one: got {b1}, {W2}, {b2}": (
        "b1 和 W2 需要 {n} 个元素，b2 需要 1 个：实际为 {b1}、{W2}、{b2}"
    ),
    "{n}-gon: {hint}": "{n} 边形：{hint}",
    "{n}-gon: at {point} your detector disagrees with the geometric test": (
        "{n} 边形：在 {point} 处，你的检测器与几何判定不一致"
    ),
    "{n}-gon: the inside is right, but the output is not 1 - k · sum relu(-f_i)": (
        "{n} 边形：内部是对的，但输出不是 1 - k · sum relu(-f_i)"
    ),
    # notebooks/03_triangle_regions.ipynb: claims
    "f's columns of W1 are its unit normals negated, its entries of b1 the offsets negated": (
        "W1 中属于 f 的三列是其单位法向量取负，b1 中属于 f 的三项是偏移量取负"
    ),
    "p = ({x:g}, {y:g}): out_f = {f:+.3f}, out_g = {g:+.3f}": (
        "p = ({x:g}, {y:g})：out_f = {f:+.3f}，out_g = {g:+.3f}"
    ),
    "out_f is 1 - k · (distance outside f's edges) at every point": (
        "在每个点上，out_f 都等于 1 − k·d，d 是该点在 f 各边外侧的距离之和"
    ),
    "exact outside the band, for every k": "对每个 k，过渡带之外都是精确的",
    "the band narrows as k grows": "k 越大，过渡带越窄",
    "under 1% of the points at k = 1000": "k = 1000 时落在过渡带内的点不到 1%",
    "the sharp variant is exact outside its band": "陡峭变体在其过渡带之外是精确的",
    "k = 10, 0.05 from the edge: six-unit is 1 inside, 0.5 outside; sharp 0.5 inside, 0 outside": (
        "k = 10、离边 0.05 处，六单元网络内侧为 1、外侧为 0.5；陡峭变体内侧为 0.5、外侧为 0"
    ),
    "the inverse gives every point back": "逆映射找回了每一个点",
    "the network collapses the 40,000 grid points onto 4 outputs": (
        "网络把 40,000 个网格点坍缩到 4 个输出值上"
    ),
    "the linear map keeps every grid point distinct": "线性映射让每个网格点保持互不相同",
    "six edge features tell apart more cells than the two outputs": (
        "六个边特征区分出的小格比两个输出多"
    ),
    "fewer units than edges: no seed solves it": "单元数少于边数时，没有一个种子能完成任务",
    "with exactly six units fewer seeds solve it than with eight": (
        "恰好六个单元时，完成任务的种子比八个单元时少"
    ),
    "every seed solves it from d_ff = 8 on": "从 d_ff = 8 起，每个种子都能完成任务",
    "six units find only some of the edges, twelve find all six": (
        "六个单元只找到部分边，十二个单元找全了六条边"
    ),
    "doubling n divides the missed area by about 4, like 1/n²": (
        "n 翻倍，缺失的面积约缩小为四分之一，与 1/n² 一致"
    ),
    "the L-shape network agrees with the oracle except within 1/k inside a piece's edge": (
        "L 形网络与判定一致，只有凸块边界内侧 1/k 以内的点除外"
    ),
    "hidden == relu(|w_j| · signed distance)": ("隐藏单元的值 = relu(|w_j| · 有符号距离)"),
    "about half of the 2048 units are active for each input": (
        "对每个输入，2048 个单元中约有一半被激活"
    ),
    "between 45% and 55%": "介于 45% 与 55% 之间",
    "six-unit {six_unit}; sharp {sharp}": "实测：六单元网络 {six_unit}；陡峭变体 {sharp}",
    "the rarest output is shared by {rarest} points": "最少见的输出值也由 {rarest} 个点共享",
    "{n_codes} against {n_outputs}": "{n_codes} 对比 {n_outputs}",
    "{six} of {seeds} against {eight} of {seeds}": "六个单元时 {seeds} 个种子中 {six} 个完成，八个单元时 {eight} 个",
    "n 8 -> 16: ÷{ratio:.1f}": "n 从 8 到 16：÷{ratio:.1f}",
    "{agreed:.2%} of the grid agrees": "{agreed:.2%} 的网格点一致",
    "max error below 1e-9": "最大误差低于 1e-9",
    "max error below 1e-12": "最大误差低于 1e-12",
    "d_ff 2 to 5": "d_ff 从 2 到 5",
    "d_ff 8 to 12": "d_ff 从 8 到 12",
    # lesson 3's labelled output and the triangle demo's choices
    "f1, f2, f3 at the centre of f: {values}": "f 的中心处 f1、f2、f3 的值：{values}",
    "W1 (2, 6), columns f1 f2 f3 g1 g2 g3:\n{W1}": "W1 (2, 6)，各列依次为 f1 f2 f3 g1 g2 g3：\n{W1}",
    "     k     agree  in a band\n{rows}": "     k    一致率   过渡带内\n{rows}",
    "W1 rows of triangle f (k·w, twice per edge):\n{W1}": "三角形 f 对应的 W1 行（k·w，每条边两行）：\n{W1}",
    "b1 (k·b, k·b − 1 per edge): {b1}": "b1（每条边 k·b 与 k·b − 1）：{b1}",
    "b1 (6): {b1}": "b1 (6)：{b1}",
    "W2 (6, 2):\n{W2}": "W2 (6, 2)：\n{W2}",
    "b2 (2): {b2}": "b2 (2)：{b2}",
    "AND weights, triangle f: {weights}": "三角形 f 的 AND 权重：{weights}",
    "AND bias (−(n−1)): {bias}": "AND 偏置（−(n−1)）：{bias}",
    "a={a} b={b} -> overlap {overlap:.0f}, union {union:.0f}, xor {xor:.0f}": "a={a} b={b} → 交集 {overlap:.0f}，并集 {union:.0f}，异或 {xor:.0f}",
    "grid points per (in_f, in_g) = (0,0), (1,0), (0,1), (1,1): {n}": "(in_f, in_g) = (0,0)、(1,0)、(0,1)、(1,1) 各自的网格点数：{n}",
    "seeds {seeds}, {steps} Adam steps, {points} points": "种子 {seeds}，Adam {steps} 步，{points} 个点",
    "d_ff={d_ff:>2}: {count} of {n} seeds solve it": "d_ff={d_ff:>2}：{n} 个种子中有 {count} 个完成",
    "d_ff={d_ff:>2}, best seed: a learned line within 0.25 of {n} of the 6 edges": "d_ff={d_ff:>2}，最佳种子：6 条边中有 {n} 条与某条学到的直线相距不到 0.25",
    "n={n:>2}: {n} features, disc − n-gon area = {gap:.4f}": "n={n:>2}：{n} 个特征，圆盘面积 − 正 n 边形面积 = {gap:.4f}",
    "check, square inscribed in r = 0.8: area {area:.4f} = 2 r² = {formula:.4f}": "核对：半径 r = 0.8 的圆的内接正方形，面积 {area:.4f} = 2 r² = {formula:.4f}",
    "hidden units: {edges} + {n} AND": "隐藏单元：{edges} 个边单元 + {n} 个 AND 单元",
    "{n} triangle(s): 2 -> {d_ff} -> {d_out}, output {shape}, {params} params": "{n} 个三角形：2 → {d_ff} → {d_out}，输出 {shape}，{params} 个参数",
    "seed picture": "课程笔记中的图",
    "apart": "分开",
    "inside f": "在 f 内",
    "mirrored": "镜像",
    "six-unit": "六单元网络",
    "sharp": "陡峭变体",
    # lesson 3's question
    "An inscribed n-gon approximates a disc with n features. Doubling n divides the area it misses by about…": "内接正 n 边形用 n 个特征逼近一个圆盘。n 翻倍后，原来缺失的面积大约是现在的几倍？",
    "2": "2",
    "The gap shrinks faster than 1/n: every edge also gets shorter.": "缺失的面积缩小得比 1/n 更快：每条边也变短了。",
    "4": "4",
    "Right: the missed area shrinks like 1/n².": "对：缺失的面积按 1/n² 缩小。",
    "That would be 1/n³: but there are n slivers of area ~1/n³, so ~1/n² in all.": "那是 1/n³；但一共有 n 条面积约为 1/n³ 的细条，合起来约为 1/n²。",
    "it does not shrink": "1 倍，不会缩小",
    "More features describe the disc better: the gap goes to 0 as n grows.": "特征越多，对圆盘的描述越好：n 增大时缺失的面积趋于 0。",
}
