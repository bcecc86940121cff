<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>QObject</name>
    <message>
        <location filename="../../ui/document/script_file.cpp" line="16"/>
        <source>%1 does not exist</source>
        <translation>%1 不存在</translation>
    </message>
    <message>
        <location filename="../../ui/document/script_file.cpp" line="18"/>
        <source>%1 is not a regular file</source>
        <translation>%1 不是普通文件</translation>
    </message>
    <message>
        <location filename="../../ui/document/script_file.cpp" line="21"/>
        <source>%1 is larger than 4 MiB; GradLab scripts are small text files</source>
        <translation>%1 大于 4 MiB；GradLab 脚本应是小型文本文件</translation>
    </message>
    <message>
        <location filename="../../ui/document/script_file.cpp" line="23"/>
        <source>cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <location filename="../../ui/document/script_file.cpp" line="26"/>
        <source>%1 is not a text file (it contains NUL bytes)</source>
        <translation>%1 不是文本文件（其中含有 NUL 字节）</translation>
    </message>
    <message>
        <location filename="../../ui/document/script_file.cpp" line="29"/>
        <source>%1 is not valid UTF-8 text</source>
        <translation>%1 不是有效的 UTF-8 文本</translation>
    </message>
    <message>
        <location filename="../../ui/document/script_file.cpp" line="36"/>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <location filename="../../ui/document/script_file.cpp" line="41"/>
        <location filename="../../ui/document/script_file.cpp" line="43"/>
        <source>saving %1 failed: %2</source>
        <translation>保存 %1 失败：%2</translation>
    </message>
    <message>
        <location filename="../../ui/export/lesson_export.cpp" line="52"/>
        <location filename="../../ui/export/lesson_export.cpp" line="74"/>
        <location filename="../../ui/export/lesson_export.cpp" line="83"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location filename="../../ui/export/lesson_export.cpp" line="92"/>
        <source>cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <location filename="../../ui/export/lesson_export.cpp" line="109"/>
        <source>unknown format &apos;%1&apos; (formats: %2)</source>
        <translation>未知格式“%1”（可用格式：%2）</translation>
    </message>
    <message>
        <location filename="../../ui/export/lesson_export.cpp" line="116"/>
        <source>no formats given</source>
        <translation>未指定任何格式</translation>
    </message>
    <message>
        <location filename="../../ui/export/lesson_export.cpp" line="126"/>
        <source>cannot create the folder %1</source>
        <translation>无法创建文件夹 %1</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="21"/>
        <source>TensorArray of %1</source>
        <translation>TensorArray（元素为 %1）</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/tensor_text.cpp" line="16"/>
        <source>%1  min %2  max %3  mean %4  L2 %5</source>
        <translation>%1  最小值 %2  最大值 %3  均值 %4  L2 %5</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/tensor_text.cpp" line="29"/>
        <source>first: %1 …</source>
        <translation>前几项：%1 …</translation>
    </message>
    <message>
        <location filename="../../ui/present/result_views.cpp" line="58"/>
        <source>This graph has %1 nodes (%2 even with loops folded and the backward pass hidden): too many to draw. Lower the lesson&apos;s params to see it.</source>
        <translation>此计算图有 %1 个节点（即使折叠循环并隐藏反向传播，仍有 %2 个），节点过多，无法绘制。请调小课程的参数后再查看。</translation>
    </message>
    <message>
        <location filename="../../ui/present/result_views.cpp" line="127"/>
        <source>%1 at line %2</source>
        <translation>第 %2 行的 %1</translation>
    </message>
    <message>
        <location filename="../../ui/present/result_views.cpp" line="128"/>
        <source>%1 #%2</source>
        <translation>%1 #%2</translation>
    </message>
    <message>
        <location filename="../../ui/graph/edge_item.cpp" line="31"/>
        <source>|gradient| = %1</source>
        <translation>|梯度| = %1</translation>
    </message>
    <message>
        <location filename="../../ui/graph/frame_item.cpp" line="17"/>
        <source>click [–] or double-click to fold</source>
        <translation>点击 [–] 或双击以折叠</translation>
    </message>
    <message>
        <location filename="../../ui/graph/frame_item.cpp" line="20"/>
        <source>the ops this tape recorded; a gradient through an op outside is None</source>
        <translation>此 tape 记录的运算；经过框外运算的梯度为 None</translation>
    </message>
    <message>
        <location filename="../../ui/graph/frame_item.cpp" line="73"/>
        <source>|gradient| (log)</source>
        <translation>|梯度|（对数）</translation>
    </message>
    <message>
        <location filename="../../ui/graph/node_item.cpp" line="25"/>
        <source>node #%1</source>
        <translation>节点 #%1</translation>
    </message>
    <message>
        <location filename="../../ui/graph/node_item.cpp" line="26"/>
        <source>, line %1</source>
        <translation>，第 %1 行</translation>
    </message>
    <message>
        <location filename="../../ui/graph/node_item.cpp" line="28"/>
        <source>double-click to unfold</source>
        <translation>双击以展开</translation>
    </message>
    <message>
        <location filename="../../ui/graph/node_item.cpp" line="35"/>
        <source>Gradient is None here:</source>
        <translation>此处梯度为 None：</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/present/numerics_fault.cpp" line="12"/>
        <source>%n NaN</source>
        <translation>
            <numerusform>%n 个 NaN</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/present/numerics_fault.cpp" line="14"/>
        <source>%n Inf</source>
        <translation>
            <numerusform>%n 个 Inf</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../ui/present/numerics_fault.cpp" line="15"/>
        <source>%1 and %2</source>
        <translation>%1 和 %2</translation>
    </message>
    <message>
        <location filename="../../ui/present/numerics_fault.cpp" line="17"/>
        <source>%1 made the first %2 of the run here</source>
        <translation>%1 在这里产生了本次运行的第一个 %2</translation>
    </message>
    <message>
        <location filename="../../ui/present/numerics_fault.cpp" line="19"/>
        <source> (loop iteration %1)</source>
        <translation>（循环第 %1 次迭代）</translation>
    </message>
    <message>
        <location filename="../../ui/step/execution_view.cpp" line="70"/>
        <source>jacobian row %1</source>
        <translation>雅可比矩阵第 %1 行</translation>
    </message>
    <message>
        <location filename="../../ui/step/execution_view.cpp" line="72"/>
        <source>execution %1 of %2</source>
        <translation>第 %1 次执行，共 %2 次</translation>
    </message>
    <message>
        <location filename="../../ui/step/execution_view.cpp" line="74"/>
        <source>execution %1 of %2 (at %3)</source>
        <translation>第 %1 次执行，共 %2 次（位于 %3）</translation>
    </message>
    <message>
        <location filename="../../ui/step/execution_view.cpp" line="82"/>
        <source>The record budget kept the first %1 of this loop&apos;s %2 executions</source>
        <translation>记录预算只保留了该循环 %2 次执行中的前 %1 次</translation>
    </message>
</context>
<context>
    <name>ScriptTemplates</name>
    <message>
        <location filename="../../ui/editor/templates.cpp" line="71"/>
        <source>tf.while_loop</source>
        <translation>tf.while_loop</translation>
    </message>
    <message>
        <location filename="../../ui/editor/templates.cpp" line="74"/>
        <source>tf.cond</source>
        <translation>tf.cond</translation>
    </message>
    <message>
        <location filename="../../ui/editor/templates.cpp" line="75"/>
        <source>tf.map_fn</source>
        <translation>tf.map_fn</translation>
    </message>
    <message>
        <location filename="../../ui/editor/templates.cpp" line="77"/>
        <source>tf.vectorized_map</source>
        <translation>tf.vectorized_map</translation>
    </message>
    <message>
        <location filename="../../ui/editor/templates.cpp" line="81"/>
        <source>GradientTape block</source>
        <translation>GradientTape 代码块</translation>
    </message>
    <message>
        <location filename="../../ui/editor/templates.cpp" line="85"/>
        <source>TensorArray write loop</source>
        <translation>TensorArray 写入循环</translation>
    </message>
    <message>
        <location filename="../../ui/editor/templates.cpp" line="88"/>
        <source>Variant block</source>
        <translation>变体代码块</translation>
    </message>
    <message>
        <location filename="../../ui/editor/templates.cpp" line="89"/>
        <source>Param line</source>
        <translation>参数行</translation>
    </message>
    <message>
        <location filename="../../ui/editor/templates.cpp" line="99"/>
        <source>Two ways to compute the sum of squares of n numbers and its gradient:</source>
        <translation>用两种方法计算 n 个数的平方和及其梯度：</translation>
    </message>
    <message>
        <location filename="../../ui/editor/templates.cpp" line="101"/>
        <source>a tf.while_loop that adds one square per step, and one vectorized sum.</source>
        <translation>一个每步累加一个平方项的 tf.while_loop，以及一次向量化求和。</translation>
    </message>
    <message>
        <location filename="../../ui/editor/templates.cpp" line="103"/>
        <source>GradLab runs both, checks that they agree and times them side by side.</source>
        <translation>GradLab 会运行这两种方法，检查结果是否一致，并并排比较它们的耗时。</translation>
    </message>
    <message>
        <location filename="../../ui/editor/templates.cpp" line="105"/>
        <source>Move the n slider to see how the loop&apos;s cost grows with its length.</source>
        <translation>拖动 n 滑块，观察循环的开销如何随其长度增长。</translation>
    </message>
    <message>
        <location filename="../../ui/window/translations.cpp" line="18"/>
        <source>Lesson title</source>
        <translation>课程标题</translation>
    </message>
</context>
<context>
    <name>gl::ui::Diagnostic</name>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="20"/>
        <source>%1 at line %2</source>
        <translation>%1（第 %2 行）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="29"/>
        <source>name &apos;%1&apos;</source>
        <translation>名称 &apos;%1&apos;</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="31"/>
        <source>number &apos;%1&apos;</source>
        <translation>数字 &apos;%1&apos;</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="32"/>
        <source>string</source>
        <translation>字符串</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="33"/>
        <source>end of line</source>
        <translation>行尾</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="34"/>
        <source>indent</source>
        <translation>缩进</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="35"/>
        <source>unindent</source>
        <translation>取消缩进</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="36"/>
        <source>end of file</source>
        <translation>文件末尾</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="45"/>
        <source>the chain from %1 to the target breaks at %2: it passes through tf.stop_gradient, which blocks the gradient on purpose</source>
        <translation>从 %1 到目标的链在 %2 处断开：它经过 tf.stop_gradient，该运算有意阻断梯度</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="51"/>
        <source>the chain from %1 to the target breaks at %2: it passes through %3, a random draw, which has no gradient</source>
        <translation>从 %1 到目标的链在 %2 处断开：它经过 %3，这是一次随机采样，没有梯度</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="57"/>
        <source>the chain from %1 to the target breaks at %2: it passes through %3, whose %4 result has no gradient (integer and bool tensors carry none)</source>
        <translation>从 %1 到目标的链在 %2 处断开：它经过 %3，其 %4 结果没有梯度（整数和布尔张量不携带梯度）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="63"/>
        <source>the chain from %1 to the target breaks at %2: it passes through %3, which has no gradient</source>
        <translation>从 %1 到目标的链在 %2 处断开：它经过 %3，该运算没有梯度</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="69"/>
        <source>the chain from %1 to the target breaks at %2, which was computed inside tape.stop_recording()</source>
        <translation>从 %1 到目标的链在 %2 处断开：它是在 tape.stop_recording() 内计算的</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="75"/>
        <source>the chain from %1 to the target breaks at %2: it was computed after the tape stopped recording (outside the `with tf.GradientTape()` block), so the tape never saw it. Compute it inside the block</source>
        <translation>从 %1 到目标的链在 %2 处断开：它是在 tape 停止记录之后（`with tf.GradientTape()` 代码块之外）计算的，所以 tape 从未见过它。请在代码块内计算它</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="82"/>
        <source>the chain from %1 to the target breaks at %2: it was computed before the tape started recording</source>
        <translation>从 %1 到目标的链在 %2 处断开：它是在 tape 开始记录之前计算的</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="88"/>
        <source>the chain from %1 to the target breaks at %2: this tape did not record it</source>
        <translation>从 %1 到目标的链在 %2 处断开：这个 tape 没有记录它</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="100"/>
        <source>the source %1 is %2: integer and bool tensors carry no gradient</source>
        <translation>源 %1 的类型是 %2：整数和布尔张量不携带梯度</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="105"/>
        <source>the source %1 was created inside the body of %2: the body runs once per iteration and makes a new leaf each time, so the value the loop used is not the one you asked about. Create it once, outside the loop (for per-step weights: a list of variables, or one [T] variable indexed by the step)</source>
        <translation>源 %1 是在 %2 的循环体内创建的：循环体每次迭代运行一次，每次都创建一个新的叶子节点，所以循环用到的值并不是你求导的那个。请在循环外只创建一次（逐步权重可以用变量列表，或一个按步索引的 [T] 变量）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="114"/>
        <source>the source %1 only exists inside a branch of %2; differentiate with respect to a value created outside the cond</source>
        <translation>源 %1 只存在于 %2 的某个分支内；请对在 cond 之外创建的值求导</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="120"/>
        <source>the target %2 does not depend on %1 at all: no chain of operations leads from it to the target</source>
        <translation>目标 %2 完全不依赖 %1：没有任何运算链从它通向目标</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="126"/>
        <source>the source %1 was never watched: a plain tensor (unlike a tf.Variable) is recorded only after tape.watch(%2) inside the tape</source>
        <translation>源 %1 从未被监视：普通张量（与 tf.Variable 不同）只有在 tape 内调用 tape.watch(%2) 之后才会被记录</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="132"/>
        <source>the target %2 is not connected to %1 on this tape</source>
        <translation>在这个 tape 上，目标 %2 与 %1 没有连接</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="144"/>
        <source>unknown name &apos;%1&apos;</source>
        <translation>未知的名称 &apos;%1&apos;</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="146"/>
        <source>unknown name &apos;%1&apos; (did you mean &apos;%2&apos;?)</source>
        <translation>未知的名称 &apos;%1&apos;（你是想写 &apos;%2&apos; 吗？）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="150"/>
        <source>shapes %1 and %2 cannot be broadcast together</source>
        <translation>形状 %1 和 %2 无法广播到一起</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="154"/>
        <source>matmul inner dimensions do not match: %1 @ %2</source>
        <translation>矩阵乘法的内维不匹配：%1 @ %2</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="158"/>
        <source>%1 takes at most %2 positional arguments (%3 given)</source>
        <translation>%1 最多接受 %2 个位置参数（给出了 %3 个）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="162"/>
        <source>%1 got an unexpected keyword argument &apos;%2&apos;</source>
        <translation>%1 收到了意外的关键字参数 &apos;%2&apos;</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="166"/>
        <source>%1 missing required argument &apos;%2&apos;</source>
        <translation>%1 缺少必需的参数 &apos;%2&apos;</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="169"/>
        <source>index %1 is out of range for size %2</source>
        <translation>索引 %1 超出范围（大小为 %2）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="173"/>
        <source>axis %1 is out of range for rank %2</source>
        <translation>轴 %1 超出范围（秩为 %2）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="177"/>
        <source>this needs %1, over the memory budget of %2 (set a larger one with --memory-budget or in Settings)</source>
        <translation>这需要 %1，超出了 %2 的内存预算（可用 --memory-budget 或在“设置”中调大）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="183"/>
        <source>unexpected %1</source>
        <translation>意外的%1</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="185"/>
        <source>expected an expression, found %1</source>
        <translation>这里需要一个表达式，却遇到了%1</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="188"/>
        <source>&apos;%1&apos; was never closed</source>
        <translation>&apos;%1&apos; 没有闭合</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="191"/>
        <source>expected an indented block after %1</source>
        <translation>%1 之后需要一个缩进的代码块</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="200"/>
        <source>%1: &apos;%2&apos; vs &apos;%3&apos;: </source>
        <translation>%1：&apos;%2&apos; 与 &apos;%3&apos;：</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="204"/>
        <source>agree (max abs diff %1)</source>
        <translation>一致（最大绝对差 %1）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="207"/>
        <source>DIFFER (max abs diff %1)</source>
        <translation>不一致（最大绝对差 %1）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="210"/>
        <source>DIFFERENT SHAPES</source>
        <translation>形状不同</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="213"/>
        <source>DIFFER (None in one variant only)</source>
        <translation>不一致（只有一个变体中为 None）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="223"/>
        <source>(main)</source>
        <translation>（主程序）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="225"/>
        <source>variant %1  [%2 executor]</source>
        <translation>变体 %1  [%2执行器]</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="229"/>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="231"/>
        <source>grad %1: None</source>
        <translation>梯度 %1：None</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="234"/>
        <source>... %1 more entries of %2</source>
        <translation>…… %2 还有 %1 个条目</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="236"/>
        <source>... %1 more entries of %2 (%3 None)</source>
        <translation>…… %2 还有 %1 个条目（其中 %3 个为 None）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="241"/>
        <source>grad %1: %2</source>
        <translation>梯度 %1：%2</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="242"/>
        <source>out  %1: %2</source>
        <translation>输出 %1：%2</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="245"/>
        <source>  min %1  max %2  mean %3  l2 %4</source>
        <translation>  最小 %1  最大 %2  均值 %3  L2 范数 %4</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="250"/>
        <source>time %1 s   peak memory %2 MiB   saved for reverse %3 MiB</source>
        <translation>用时 %1 秒   峰值内存 %2 MiB   为反向保存 %3 MiB</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="254"/>
        <source>timed again, warm: its first run took %1 s, %2 MiB of its memory new to the process</source>
        <translation>已在预热后重新计时：首次运行用时 %1 秒，其中 %2 MiB 内存是进程首次使用</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="260"/>
        <source>agreement:</source>
        <translation>一致性：</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="262"/>
        <source>%1 at line %2: one batched graph, no fallback</source>
        <translation>第 %2 行的 %1：一张批处理图，没有回退</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="266"/>
        <source>%1 at line %2: fallback: %3 at line %4 runs in a loop over the batch (%5)</source>
        <translation>第 %2 行的 %1：回退：第 %4 行的 %3 在批次上逐个循环运行（%5）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="275"/>
        <source>%1 NaN and %2 Inf</source>
        <translation>%1 个 NaN 和 %2 个 Inf</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="278"/>
        <source>%1 Inf</source>
        <translation>%1 个 Inf</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="280"/>
        <source>%1 NaN</source>
        <translation>%1 个 NaN</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="282"/>
        <source>numerics: %1 made the first %2 at %3</source>
        <translation>数值：%1 在 %3 产生了第一个 %2</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="285"/>
        <source> (loop iteration %1)</source>
        <translation>（循环第 %1 次迭代）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="287"/>
        <source>; values computed from it are not finite either</source>
        <translation>；由它计算出的值也不是有限数</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="291"/>
        <source>fused: %1 elementwise ops in %2 fused groups</source>
        <translation>融合：%1 个逐元素运算，分为 %2 个融合组</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="309"/>
        <source>eager: %1 ops run one at a time, as TF 2 runs code outside a tf.function</source>
        <translation>即时执行：%1 个运算逐个运行，与 TF 2 在 tf.function 之外运行代码的方式相同</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="314"/>
        <source>graph: tf.function %1 (calls: %2, traces: %3)</source>
        <translation>计算图：tf.function %1（调用 %2 次，追踪 %3 次）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="318"/>
        <source>the time covers all of them, replayed by the %1 executor</source>
        <translation>计时包括以上全部，由%1执行器重放</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="295"/>
        <source>side by side: %1 independent ops ran one per thread, in %2 phases</source>
        <translation>并行执行：%1 个互不依赖的运算各占一个线程同时运行，共 %2 批</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="300"/>
        <source>%1 at line %2: element-major, %3 iterations per block of elements</source>
        <translation>第 %2 行的 %1：按元素优先执行，每个元素块 %3 次迭代</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="305"/>
        <source>%1 at line %2: fallback: runs step by step (%3)</source>
        <translation>第 %2 行的 %1：回退：逐步运行（%3）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="322"/>
        <source>time per variant:</source>
        <translation>各变体用时：</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="326"/>
        <source>%1 failed</source>
        <translation>%1 失败</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="327"/>
        <source>%1 %2 s</source>
        <translation>%1 %2 秒</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="341"/>
        <source>serial</source>
        <translation>串行</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="343"/>
        <source>parallel</source>
        <translation>并行</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="345"/>
        <source>fused</source>
        <translation>融合</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="359"/>
        <source>en</source>
        <comment>the diagnostics&apos; language: en keeps the engine&apos;s text</comment>
        <translation>zh</translation>
    </message>
    <message>
        <location filename="../../ui/i18n/diagnostic_text.cpp" line="396"/>
        <source>why: %1</source>
        <translation>原因：%1</translation>
    </message>
</context>
<context>
    <name>gl::ui::GradientLinesPlot</name>
    <message>
        <location filename="../../ui/plots/gradient_lines_plot.cpp" line="10"/>
        <source>Gradient norm per step</source>
        <translation>每步的梯度范数</translation>
    </message>
    <message>
        <location filename="../../ui/plots/gradient_lines_plot.cpp" line="11"/>
        <source>step t (iteration)</source>
        <translation>步 t（迭代）</translation>
    </message>
    <message>
        <location filename="../../ui/plots/gradient_lines_plot.cpp" line="11"/>
        <source>‖gradient‖₂ (L2 norm)</source>
        <translation>‖梯度‖₂（L2 范数）</translation>
    </message>
    <message>
        <location filename="../../ui/plots/gradient_lines_plot.cpp" line="77"/>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <location filename="../../ui/plots/gradient_lines_plot.cpp" line="77"/>
        <source>norm</source>
        <translation>范数</translation>
    </message>
</context>
<context>
    <name>gl::ui::GraphOverview</name>
    <message>
        <location filename="../../ui/graph/graph_overview.cpp" line="21"/>
        <source>Overview: click or drag to move the view</source>
        <translation>概览：单击或拖动以移动视图</translation>
    </message>
</context>
<context>
    <name>gl::ui::GraphScene</name>
    <message numerus="yes">
        <location filename="../../ui/graph/graph_scene.cpp" line="33"/>
        <source>The layout of %n node(s) was stopped after %1 s. Fold loops or groups (View &gt; Fold All Loops) to see the graph.</source>
        <translation>
            <numerusform>%n 个节点的布局在 %1 秒后被停止。折叠循环或组（视图 &gt; 折叠所有循环）即可查看图。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/graph/graph_scene.cpp" line="39"/>
        <source>%n node(s) are too many to lay out (at most %1). Fold loops or groups (View &gt; Fold All Loops) to see the graph.</source>
        <translation>
            <numerusform>%n 个节点太多，无法布局（最多 %1 个）。折叠循环或组（视图 &gt; 折叠所有循环）即可查看图。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../ui/graph/graph_scene.cpp" line="45"/>
        <source>Graphviz stopped without a layout (%1).</source>
        <translation>Graphviz 未给出布局便停止了（%1）。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/graph/graph_scene.cpp" line="194"/>
        <source>Unfolded as far as %n node(s) can be laid out readably; left folded: %1 (all unfolded would show %2 nodes).</source>
        <translation>
            <numerusform>已展开到可清晰布局的 %n 个节点以内；仍折叠：%1（全部展开将显示 %2 个节点）。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../ui/graph/graph_scene.cpp" line="204"/>
        <source>%1 stays folded: unfolded, the graph would show %2 nodes, more than the %3 that can be laid out readably. Fold other loops first.</source>
        <translation>%1 保持折叠：展开后图将显示 %2 个节点，超过可清晰布局的 %3 个。请先折叠其他循环。</translation>
    </message>
    <message>
        <location filename="../../ui/graph/graph_scene.cpp" line="216"/>
        <source>group %1</source>
        <translation>组 %1</translation>
    </message>
    <message>
        <location filename="../../ui/graph/graph_scene.cpp" line="216"/>
        <source>node #%1</source>
        <translation>节点 #%1</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/graph/graph_scene.cpp" line="396"/>
        <source>Laying out %n node(s)…</source>
        <translation>
            <numerusform>正在布局 %n 个节点…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/graph/graph_scene.cpp" line="397"/>
        <source>Laying out %n node(s)… %1 s (stopped after %2 s; folding loops stops it now)</source>
        <translation>
            <numerusform>正在布局 %n 个节点… %1 秒（%2 秒后停止；折叠循环可立即停止）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gl::ui::Handout</name>
    <message>
        <location filename="../../ui/export/handout.cpp" line="30"/>
        <source>Script</source>
        <translation>脚本</translation>
    </message>
    <message>
        <location filename="../../ui/export/handout.cpp" line="31"/>
        <source>Graph</source>
        <translation>计算图</translation>
    </message>
    <message>
        <location filename="../../ui/export/handout.cpp" line="32"/>
        <source>Plots</source>
        <translation>图表</translation>
    </message>
    <message>
        <location filename="../../ui/export/handout.cpp" line="33"/>
        <source>Variant agreement</source>
        <translation>变体一致性</translation>
    </message>
    <message>
        <location filename="../../ui/export/handout.cpp" line="34"/>
        <source>Why gradients are None</source>
        <translation>梯度为什么是 None</translation>
    </message>
    <message>
        <location filename="../../ui/export/handout.cpp" line="35"/>
        <source>Gradient norm per step</source>
        <translation>每步的梯度范数</translation>
    </message>
    <message>
        <location filename="../../ui/export/handout.cpp" line="36"/>
        <source>Jacobian</source>
        <translation>雅可比矩阵</translation>
    </message>
    <message>
        <location filename="../../ui/export/handout.cpp" line="37"/>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <location filename="../../ui/export/handout.cpp" line="38"/>
        <source>Time per variant</source>
        <translation>各变体用时</translation>
    </message>
    <message>
        <location filename="../../ui/export/handout.cpp" line="39"/>
        <source>output</source>
        <translation>输出</translation>
    </message>
    <message>
        <location filename="../../ui/export/handout.cpp" line="40"/>
        <source>variant</source>
        <translation>变体</translation>
    </message>
    <message>
        <location filename="../../ui/export/handout.cpp" line="41"/>
        <source>reference</source>
        <translation>参照</translation>
    </message>
    <message>
        <location filename="../../ui/export/handout.cpp" line="42"/>
        <source>result</source>
        <translation>结果</translation>
    </message>
    <message>
        <location filename="../../ui/export/handout.cpp" line="43"/>
        <source>max abs diff</source>
        <translation>最大绝对差</translation>
    </message>
    <message>
        <location filename="../../ui/export/handout.cpp" line="44"/>
        <source>agree</source>
        <translation>一致</translation>
    </message>
    <message>
        <location filename="../../ui/export/handout.cpp" line="45"/>
        <source>DIFFER</source>
        <translation>不一致</translation>
    </message>
    <message>
        <location filename="../../ui/export/handout.cpp" line="46"/>
        <source>different shapes</source>
        <translation>形状不同</translation>
    </message>
    <message>
        <location filename="../../ui/export/handout.cpp" line="47"/>
        <source>None in one variant only</source>
        <translation>只有一个变体中为 None</translation>
    </message>
    <message>
        <location filename="../../ui/export/handout.cpp" line="48"/>
        <source>(main)</source>
        <translation>（主程序）</translation>
    </message>
    <message>
        <location filename="../../ui/export/handout.cpp" line="49"/>
        <source>The lesson was not run: no plots.</source>
        <translation>课程尚未运行：没有图表。</translation>
    </message>
    <message>
        <location filename="../../ui/export/handout.cpp" line="50"/>
        <source>Fewer than two variants ran: nothing to compare.</source>
        <translation>运行的变体少于两个：没有可比较的内容。</translation>
    </message>
    <message>
        <location filename="../../ui/export/handout.cpp" line="51"/>
        <source>Every gradient exists: none is None.</source>
        <translation>所有梯度都存在：没有 None。</translation>
    </message>
    <message>
        <location filename="../../ui/export/handout.cpp" line="52"/>
        <source>This variant failed: %1</source>
        <translation>该变体运行失败：%1</translation>
    </message>
    <message>
        <location filename="../../ui/export/handout.cpp" line="215"/>
        <source>cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
</context>
<context>
    <name>gl::ui::HeatMapPlot</name>
    <message>
        <location filename="../../ui/plots/heat_map_plot.cpp" line="28"/>
        <location filename="../../ui/plots/plot_data.cpp" line="82"/>
        <source>Gradient matrix</source>
        <translation>梯度矩阵</translation>
    </message>
    <message>
        <location filename="../../ui/plots/plot_data.cpp" line="85"/>
        <source>row (axis 0 of %1)</source>
        <translation>行（第 0 轴，共 %1）</translation>
    </message>
    <message>
        <location filename="../../ui/plots/plot_data.cpp" line="88"/>
        <source>column (axis 1 of %1)</source>
        <translation>列（第 1 轴，共 %1）</translation>
    </message>
    <message>
        <location filename="../../ui/plots/plot_data.cpp" line="89"/>
        <source>element (flattened)</source>
        <translation>元素（展平）</translation>
    </message>
</context>
<context>
    <name>gl::ui::InspectorPanel</name>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="32"/>
        <source>Property</source>
        <translation>属性</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="32"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="96"/>
        <source>Select a node in the graph or a loop step to inspect it.</source>
        <translation>在计算图中选择一个节点或一个循环步以进行检查。</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="112"/>
        <source>values</source>
        <translation>数值</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="112"/>
        <source>head</source>
        <translation>前几项</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="129"/>
        <source>node</source>
        <translation>节点</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="130"/>
        <source>op</source>
        <translation>操作</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="134"/>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="136"/>
        <source>math</source>
        <translation>数学</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="139"/>
        <source>gradient is None</source>
        <translation>梯度为 None</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="139"/>
        <source>the chain breaks here</source>
        <translation>链在这里断开</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="140"/>
        <source>why</source>
        <translation>原因</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="143"/>
        <source>name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="144"/>
        <source>phase</source>
        <translation>阶段</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="144"/>
        <source>backward (gradient)</source>
        <translation>反向（梯度）</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="144"/>
        <source>forward</source>
        <translation>前向</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="146"/>
        <source>script</source>
        <translation>脚本</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="155"/>
        <source>inside</source>
        <translation>所在区域</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="156"/>
        <source> of node %1</source>
        <translation>（属于节点 %1）</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="158"/>
        <source>run values</source>
        <translation>运行值</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="171"/>
        <source>output %1</source>
        <translation>输出 %1</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="171"/>
        <source>output</source>
        <translation>输出</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="175"/>
        <source>value</source>
        <translation>值</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="180"/>
        <source>gradient %1</source>
        <translation>梯度 %1</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="180"/>
        <source>gradient</source>
        <translation>梯度</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="184"/>
        <source>not computed in this run</source>
        <translation>本次运行未计算</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="162"/>
        <source>iterations</source>
        <translation>迭代次数</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="208"/>
        <source>at step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="210"/>
        <source>not recorded</source>
        <translation>未记录</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="213"/>
        <source>%1, adjoint of var %2</source>
        <translation>%1，变量 %2 的伴随值</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="214"/>
        <source>%1, var %2</source>
        <translation>%1，变量 %2</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="229"/>
        <source>loop node</source>
        <translation>循环节点</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="234"/>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="234"/>
        <source>%1 of %2 (%3)</source>
        <translation>第 %1 步，共 %2 次迭代（%3）</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="237"/>
        <source>adjoints, backward pass</source>
        <translation>伴随值，反向传播</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="237"/>
        <source>carried values</source>
        <translation>循环携带值</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="239"/>
        <source>record</source>
        <translation>记录</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="239"/>
        <source>not recorded: the record budget ran out</source>
        <translation>未记录：记录预算已用完</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="240"/>
        <source>no record for this step</source>
        <translation>此步没有记录</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="245"/>
        <source>adjoint of var %1</source>
        <translation>变量 %1 的伴随值</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="245"/>
        <source>var %1</source>
        <translation>变量 %1</translation>
    </message>
</context>
<context>
    <name>gl::ui::LessonBrowser</name>
    <message>
        <location filename="../../ui/panels/lesson_browser.cpp" line="24"/>
        <source>Built-in lessons</source>
        <translation>内置课程</translation>
    </message>
    <message>
        <location filename="../../ui/panels/lesson_browser.cpp" line="25"/>
        <source>Recent files</source>
        <translation>最近的文件</translation>
    </message>
    <message>
        <location filename="../../ui/panels/lesson_browser.cpp" line="72"/>
        <source>en</source>
        <comment>the language of lesson titles: en, or zh for the Chinese title line</comment>
        <translation>zh</translation>
    </message>
    <message>
        <location filename="../../ui/panels/lesson_browser.cpp" line="108"/>
        <source>%1 (file not found)</source>
        <translation>%1（找不到文件）</translation>
    </message>
    <message>
        <location filename="../../ui/panels/lesson_browser.cpp" line="122"/>
        <source>(no lessons found)</source>
        <translation>（未找到课程）</translation>
    </message>
    <message>
        <location filename="../../ui/panels/lesson_browser.cpp" line="179"/>
        <source>Remove from recent files</source>
        <translation>从最近的文件中移除</translation>
    </message>
    <message>
        <location filename="../../ui/panels/lesson_browser.cpp" line="183"/>
        <source>Clear recent files</source>
        <translation>清除最近的文件</translation>
    </message>
</context>
<context>
    <name>gl::ui::MainWindow</name>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="69"/>
        <source>&amp;New Lesson</source>
        <translation>新建课程(&amp;N)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="70"/>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="71"/>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="72"/>
        <source>Save &amp;As…</source>
        <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="74"/>
        <source>&amp;Export Lesson…</source>
        <translation>导出课程(&amp;E)…</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="74"/>
        <source>Ctrl+E</source>
        <translation>Ctrl+E</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="75"/>
        <source>Export &amp;Handout…</source>
        <translation>导出讲义(&amp;H)…</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="77"/>
        <source>Export &amp;Graph…</source>
        <translation>导出计算图(&amp;G)…</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="77"/>
        <source>Ctrl+Shift+E</source>
        <translation>Ctrl+Shift+E</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="78"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="79"/>
        <location filename="../../ui/window/main_window.cpp" line="150"/>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="79"/>
        <location filename="../../ui/window/main_window.cpp" line="80"/>
        <source>Ctrl+R</source>
        <translation>Ctrl+R</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="82"/>
        <source>Run the chosen variant (Ctrl+R, F5)</source>
        <translation>运行所选变体（Ctrl+R、F5）</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="84"/>
        <source>Run &amp;All Variants</source>
        <translation>运行全部变体(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="84"/>
        <source>Ctrl+Shift+R</source>
        <translation>Ctrl+Shift+R</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="85"/>
        <source>Run every variant and compare their results</source>
        <translation>运行每个变体并比较它们的结果</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="87"/>
        <source>&amp;Cancel Run</source>
        <translation>取消运行(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="89"/>
        <source>S&amp;weep a Param…</source>
        <translation>参数扫描(&amp;W)…</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="90"/>
        <source>Time every variant over several values of a param (scaling plot)</source>
        <translation>在一个参数的多个取值上为每个变体计时（扩展性图）</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="91"/>
        <source>&amp;Fit Graph</source>
        <translation>计算图适合窗口(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="91"/>
        <source>Ctrl+0</source>
        <translation>Ctrl+0</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="92"/>
        <source>Zoom &amp;In</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="93"/>
        <source>Zoom &amp;Out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="94"/>
        <source>Fold All Loops</source>
        <translation>折叠所有循环</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="96"/>
        <source>Unfold All Loops</source>
        <translation>展开所有循环</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="97"/>
        <source>Show &amp;Forward Graph</source>
        <translation>显示前向计算图(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="101"/>
        <source>Show &amp;Backward (Gradient) Graph</source>
        <translation>显示反向（梯度）计算图(&amp;B)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="105"/>
        <source>&amp;Presentation</source>
        <translation>演示模式(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="108"/>
        <source>&amp;Dark Palette</source>
        <translation>深色配色(&amp;D)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="110"/>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="111"/>
        <source>&amp;About GradLab</source>
        <translation>关于 GradLab(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="112"/>
        <source>About GradLab</source>
        <translation>关于 GradLab</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="113"/>
        <source>&lt;b&gt;GradLab %1&lt;/b&gt;&lt;p&gt;Loops, branches and gradients: build a computation, step through its iterations, watch the gradient flow, and time serial against vectorized versions.&lt;/p&gt;</source>
        <translation>&lt;b&gt;GradLab %1&lt;/b&gt;&lt;p&gt;循环、分支与梯度：构建一个计算，逐次迭代地单步执行，观察梯度的流动，并比较串行版本与向量化版本的耗时。&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="126"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="135"/>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="136"/>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="137"/>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="143"/>
        <source>&amp;Insert</source>
        <translation>插入(&amp;I)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="155"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="164"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="173"/>
        <location filename="../../ui/window/main_window.cpp" line="177"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="174"/>
        <source>Run All Variants</source>
        <translation>运行全部变体</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="175"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="176"/>
        <source>Fit Graph</source>
        <translation>计算图适合窗口</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="190"/>
        <source>Find node…</source>
        <translation>查找节点…</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="193"/>
        <source>Find a node by name or op; Enter again for the next match</source>
        <translation>按名称或操作查找节点；再按 Enter 跳到下一个匹配项</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="196"/>
        <source>No node matches &apos;%1&apos;</source>
        <translation>没有与“%1”匹配的节点</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="199"/>
        <source>&amp;Find Node</source>
        <translation>查找节点(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="229"/>
        <source>Lessons</source>
        <translation>课程</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="231"/>
        <source>Script</source>
        <translation>脚本</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="240"/>
        <source>Params</source>
        <translation>参数</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="242"/>
        <source>Inspector</source>
        <translation>检查器</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="247"/>
        <source>Step Through</source>
        <translation>单步执行</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="249"/>
        <source>Plots</source>
        <translation>图表</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="250"/>
        <source>Run Log</source>
        <translation>运行日志</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="171"/>
        <location filename="../../ui/window/main_window_files.cpp" line="47"/>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="101"/>
        <source>Recover</source>
        <translation>恢复</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="53"/>
        <source>An autosaved copy of %1 has changes that were not saved. Recover them?</source>
        <translation>%1 的自动保存副本中有尚未保存的更改。要恢复这些更改吗？</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="68"/>
        <source>Opened %1</source>
        <translation>已打开 %1</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="172"/>
        <location filename="../../ui/window/main_window_files.cpp" line="118"/>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="123"/>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="137"/>
        <source>Save Lesson</source>
        <translation>保存课程</translation>
    </message>
    <message>
        <source>GradLab scripts (*.gls)</source>
        <translation type="vanished">GradLab 脚本 (*.gls)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="147"/>
        <source>Open Lesson</source>
        <translation>打开课程</translation>
    </message>
    <message>
        <source>GradLab scripts (*.gls);;All files (*)</source>
        <translation type="vanished">GradLab 脚本 (*.gls);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="180"/>
        <source>Unsaved changes</source>
        <translation>未保存的更改</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="181"/>
        <source>%1 has unsaved changes. Save them?</source>
        <translation>%1 有未保存的更改。要保存吗？</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_results.cpp" line="83"/>
        <source>Autosave failed: %1</source>
        <translation>自动保存失败：%1</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="79"/>
        <source>an untitled script</source>
        <translation>一个未命名的脚本</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="83"/>
        <source>GradLab found work in %1 that was never saved (autosaved %2). Recover it?</source>
        <translation>GradLab 发现 %1 中有从未保存的内容（自动保存于 %2）。要恢复吗？</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="89"/>
        <source>Recovered unsaved work of %1</source>
        <translation>已恢复 %1 中未保存的内容</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/window/main_window_files.cpp" line="107"/>
        <source>Recovering changes %n line(s):</source>
        <translation>
            <numerusform>恢复将改动 %n 行：</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="138"/>
        <source>GradLab scripts (*.gls *.py)</source>
        <translation>GradLab 脚本 (*.gls *.py)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="147"/>
        <source>GradLab scripts (*.gls *.py);;All files (*)</source>
        <translation>GradLab 脚本 (*.gls *.py);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="190"/>
        <source>%1[*] — GradLab</source>
        <translation>%1[*] — GradLab 梯度实验室</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="199"/>
        <source>Export Graph</source>
        <translation>导出计算图</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="200"/>
        <source>SVG (*.svg);;PNG image (*.png);;PDF (*.pdf);;Graphviz DOT (*.dot)</source>
        <translation>SVG (*.svg);;PNG 图像 (*.png);;PDF (*.pdf);;Graphviz DOT (*.dot)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="207"/>
        <source>Graph export failed: %1</source>
        <translation>计算图导出失败：%1</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="210"/>
        <source>Exported the graph to %1</source>
        <translation>已将计算图导出到 %1</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="216"/>
        <source>Export Lesson To</source>
        <translation>将课程导出到</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="220"/>
        <source>Export Lesson</source>
        <translation>导出课程</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="221"/>
        <source>Run the lesson first: the export holds its graph, plots and data.</source>
        <translation>请先运行课程：导出的内容包括其计算图、图表和数据。</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="229"/>
        <location filename="../../ui/window/main_window_results.cpp" line="104"/>
        <source>Exported %1</source>
        <translation>已导出 %1</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="231"/>
        <source>Exported %1 files to %2</source>
        <translation>已将 %1 个文件导出到 %2</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="236"/>
        <location filename="../../ui/window/main_window_files.cpp" line="243"/>
        <source>Export Handout</source>
        <translation>导出讲义</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="237"/>
        <source>Run the lesson first: the handout shows its graph, plots and agreement table.</source>
        <translation>请先运行课程：讲义包含它的计算图、图表和一致性表。</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="243"/>
        <source>_handout.pdf</source>
        <translation>_讲义.pdf</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="244"/>
        <source>PDF document (*.pdf)</source>
        <translation>PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="255"/>
        <source>Exported the handout (%1 pages) to %2</source>
        <translation>已将讲义（%1 页）导出到 %2</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="256"/>
        <source>Exported the handout to %1</source>
        <translation>已将讲义导出到 %1</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_results.cpp" line="47"/>
        <source>Running variant &apos;%1&apos;…</source>
        <translation>正在运行变体“%1”…</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_results.cpp" line="57"/>
        <source>Recording variant &apos;%1&apos; for the step-through and inspector…</source>
        <translation>正在为单步查看和检查器记录变体“%1”…</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_results.cpp" line="66"/>
        <source>Recording variant &apos;%1&apos; for the step-through and inspector… step %2 of %3</source>
        <translation>正在为单步查看和检查器记录变体“%1”… 第 %2 步，共 %3 步</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_results.cpp" line="71"/>
        <source>Recording variant &apos;%1&apos; for the step-through and inspector… step %2</source>
        <translation>正在为单步查看和检查器记录变体“%1”… 第 %2 步</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_results.cpp" line="94"/>
        <source>Seed sizes: the question&apos;s own params (runs take longer)</source>
        <translation>原始规模：题目本身的参数（运行较慢）</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_results.cpp" line="95"/>
        <source>Classroom sizes: small params for a first look</source>
        <translation>课堂规模：用于初步观察的小参数</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_results.cpp" line="153"/>
        <source>print: %1</source>
        <translation>print：%1</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_results.cpp" line="155"/>
        <source>Traced: %1 nodes, %2 variants</source>
        <translation>已追踪：%1 个节点，%2 个变体</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_results.cpp" line="190"/>
        <source>Running on the %1 executor…</source>
        <translation>正在%1执行器上运行…</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_results.cpp" line="192"/>
        <source>Running all variants on the %1 executor…</source>
        <translation>正在%1执行器上运行全部变体…</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_results.cpp" line="193"/>
        <source>Running variant &apos;%1&apos; on the %2 executor…</source>
        <translation>正在%2执行器上运行变体“%1”…</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_results.cpp" line="222"/>
        <source>Run cancelled</source>
        <translation>运行已取消</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_results.cpp" line="224"/>
        <source>%1 variant(s) failed; see the run log</source>
        <translation>%1 个变体运行失败，请查看运行日志</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_results.cpp" line="225"/>
        <source>Run finished</source>
        <translation>运行完成</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_results.cpp" line="232"/>
        <location filename="../../ui/window/main_window_results.cpp" line="318"/>
        <source>Run finished; the first NaN/Inf appeared at line %1</source>
        <translation>运行结束；第一个 NaN/Inf 出现在第 %1 行</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_results.cpp" line="243"/>
        <source>This script declares no param to sweep.</source>
        <translation>此脚本没有声明可供扫描的参数。</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_results.cpp" line="255"/>
        <source>Sweeping %1 over %2 values…</source>
        <translation>正在对 %1 的 %2 个取值进行扫描…</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_results.cpp" line="264"/>
        <source>Sweep of %1 finished</source>
        <translation>%1 的扫描已完成</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_results.cpp" line="265"/>
        <source>Sweep finished</source>
        <translation>扫描完成</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_results.cpp" line="281"/>
        <source>not run: run this variant to see its values</source>
        <translation>未运行：运行此变体以查看其值</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_results.cpp" line="283"/>
        <source>not run</source>
        <translation>未运行</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_results.cpp" line="296"/>
        <source>recording… (this variant runs again with records on for the step-through and inspector)</source>
        <translation>记录中…（此变体会开启记录再运行一次，供单步查看和检查器使用）</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_results.cpp" line="300"/>
        <source>recording…</source>
        <translation>记录中…</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_results.cpp" line="312"/>
        <source>Variant &apos;%1&apos; recorded: step through it</source>
        <translation>变体“%1”已记录：可以单步查看</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_results.cpp" line="311"/>
        <source>Run recorded: step through it</source>
        <translation>运行已记录：可以单步查看</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_results.cpp" line="332"/>
        <source>Recording variant &apos;%1&apos; failed: %2</source>
        <translation>记录变体“%1”失败：%2</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_results.cpp" line="334"/>
        <source>Recording variant &apos;%1&apos; stopped</source>
        <translation>记录变体“%1”已停止</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_results.cpp" line="338"/>
        <source>not recorded</source>
        <translation>未记录</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_results.cpp" line="339"/>
        <source>not recorded: switch variants or run again to record them</source>
        <translation>未记录：切换变体或再次运行即可记录</translation>
    </message>
</context>
<context>
    <name>gl::ui::ParamsPanel</name>
    <message>
        <location filename="../../ui/panels/params_panel.cpp" line="99"/>
        <source>This script declares no params. Add one with &quot;param steps = 100 in 1..1000&quot; (Insert menu, Param line).</source>
        <translation>此脚本未声明任何参数。可以用“param steps = 100 in 1..1000”添加一个（插入菜单 → 参数行）。</translation>
    </message>
    <message>
        <location filename="../../ui/panels/params_panel.cpp" line="105"/>
        <source>Reset to script values</source>
        <translation>重置为脚本中的值</translation>
    </message>
    <message>
        <location filename="../../ui/panels/params_panel.cpp" line="106"/>
        <source>Forget the values set here and use those written in the script</source>
        <translation>放弃在此处设置的值，改用脚本中写明的值</translation>
    </message>
    <message>
        <location filename="../../ui/panels/params_panel.cpp" line="118"/>
        <source>Classroom</source>
        <translation>课堂</translation>
    </message>
    <message>
        <location filename="../../ui/panels/params_panel.cpp" line="118"/>
        <source>Seed size</source>
        <translation>原始规模</translation>
    </message>
    <message>
        <location filename="../../ui/panels/params_panel.cpp" line="125"/>
        <source>Small sizes for a first look (the script&apos;s &quot;class&quot; values)</source>
        <translation>用于初步观察的小规模（脚本中的 &quot;class&quot; 值）</translation>
    </message>
    <message>
        <location filename="../../ui/panels/params_panel.cpp" line="126"/>
        <source>The sizes of the original question (the script&apos;s own values)</source>
        <translation>原始题目的规模（脚本本身的值）</translation>
    </message>
    <message>
        <location filename="../../ui/panels/params_panel.cpp" line="185"/>
        <source>Custom values: press a preset to go back to its sizes</source>
        <translation>自定义数值：按下一个预设即可恢复它的规模</translation>
    </message>
    <message>
        <location filename="../../ui/panels/params_panel.cpp" line="323"/>
        <source>%1 = %2 in %3..%4</source>
        <translation>%1 = %2 in %3..%4</translation>
    </message>
    <message>
        <location filename="../../ui/panels/params_panel.cpp" line="328"/>
        <source> class %1</source>
        <translation> 课堂 %1</translation>
    </message>
    <message>
        <location filename="../../ui/panels/params_panel.cpp" line="330"/>
        <source> (line %1)</source>
        <translation>（第 %1 行）</translation>
    </message>
    <message>
        <location filename="../../ui/panels/params_panel.cpp" line="331"/>
        <source>In the script: %1%2</source>
        <translation>脚本中：%1%2</translation>
    </message>
</context>
<context>
    <name>gl::ui::PlotsPanel</name>
    <message>
        <location filename="../../ui/plots/plots_panel.cpp" line="47"/>
        <source>Gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <location filename="../../ui/plots/plots_panel.cpp" line="48"/>
        <source>Jacobian</source>
        <translation>雅可比矩阵</translation>
    </message>
    <message>
        <location filename="../../ui/plots/plots_panel.cpp" line="49"/>
        <source>Timings</source>
        <translation>耗时</translation>
    </message>
    <message>
        <location filename="../../ui/plots/plots_panel.cpp" line="50"/>
        <source>Scaling</source>
        <translation>扩展性</translation>
    </message>
    <message>
        <location filename="../../ui/plots/plots_panel.cpp" line="51"/>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <location filename="../../ui/plots/plots_panel.cpp" line="58"/>
        <source>Export plot as %1</source>
        <translation>将图表导出为 %1</translation>
    </message>
    <message>
        <location filename="../../ui/plots/plots_panel.cpp" line="62"/>
        <source>Export Timeline as Chrome Trace</source>
        <translation>将时间线导出为 Chrome Trace</translation>
    </message>
    <message>
        <location filename="../../ui/plots/plots_panel.cpp" line="63"/>
        <source>Chrome trace (*.json)</source>
        <translation>Chrome trace (*.json)</translation>
    </message>
    <message>
        <location filename="../../ui/plots/plots_panel.cpp" line="75"/>
        <source>Fit</source>
        <translation>适合窗口</translation>
    </message>
    <message>
        <location filename="../../ui/plots/plots_panel.cpp" line="76"/>
        <source>Fit the axes to the data (undo zoom and pan)</source>
        <translation>使坐标轴适合数据范围（撤销缩放和平移）</translation>
    </message>
    <message>
        <location filename="../../ui/plots/plots_panel.cpp" line="84"/>
        <source>Log y</source>
        <translation>对数 y</translation>
    </message>
    <message>
        <location filename="../../ui/plots/plots_panel.cpp" line="86"/>
        <source>Logarithmic y axis (gradients that vanish or explode)</source>
        <translation>对数 y 轴（便于观察消失或爆炸的梯度）</translation>
    </message>
    <message>
        <location filename="../../ui/plots/plots_panel.cpp" line="91"/>
        <source>%1…</source>
        <translation>%1…</translation>
    </message>
    <message>
        <location filename="../../ui/plots/plots_panel.cpp" line="96"/>
        <source>Timeline as Chrome Trace (*.json)…</source>
        <translation>时间线导出为 Chrome Trace (*.json)…</translation>
    </message>
    <message>
        <location filename="../../ui/plots/plots_panel.cpp" line="97"/>
        <source>The Timeline tab&apos;s events for Perfetto or chrome://tracing</source>
        <translation>“时间线”页的事件，可在 Perfetto 或 chrome://tracing 中打开</translation>
    </message>
    <message>
        <location filename="../../ui/plots/plots_panel.cpp" line="102"/>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <location filename="../../ui/plots/plots_panel.cpp" line="103"/>
        <source>Export the current plot as PNG, SVG, PDF or its data as CSV</source>
        <translation>将当前图表导出为 PNG、SVG、PDF，或将其数据导出为 CSV</translation>
    </message>
    <message>
        <location filename="../../ui/plots/plots_panel.cpp" line="132"/>
        <source>Gradient norm per step</source>
        <translation>每步的梯度范数</translation>
    </message>
    <message>
        <location filename="../../ui/plots/plots_panel.cpp" line="133"/>
        <source>‖gradient‖₂ (L2 norm)</source>
        <translation>‖梯度‖₂（L2 范数）</translation>
    </message>
    <message>
        <location filename="../../ui/plots/plots_panel.cpp" line="138"/>
        <source>Values per step</source>
        <translation>每步的值</translation>
    </message>
    <message>
        <location filename="../../ui/plots/plots_panel.cpp" line="139"/>
        <source>value per step (script outputs)</source>
        <translation>每步的值（脚本输出）</translation>
    </message>
    <message>
        <location filename="../../ui/plots/plots_panel.cpp" line="209"/>
        <source>Could not export %1: the timeline is empty (run the lesson first)</source>
        <translation>无法导出 %1：时间线为空（请先运行课程）</translation>
    </message>
    <message>
        <location filename="../../ui/plots/plots_panel.cpp" line="213"/>
        <location filename="../../ui/plots/plots_panel.cpp" line="224"/>
        <source>Could not export %1: %2</source>
        <translation>无法导出 %1：%2</translation>
    </message>
</context>
<context>
    <name>gl::ui::RunLog</name>
    <message>
        <location filename="../../ui/panels/run_log.cpp" line="21"/>
        <source>Run output appears here.</source>
        <translation>运行输出将显示在这里。</translation>
    </message>
    <message>
        <location filename="../../ui/panels/run_log.cpp" line="92"/>
        <source>Go to %1 in the editor</source>
        <translation>在编辑器中转到 %1</translation>
    </message>
</context>
<context>
    <name>gl::ui::RunOptions</name>
    <message>
        <location filename="../../ui/run/run_options.cpp" line="23"/>
        <source> Variant </source>
        <translation> 变体 </translation>
    </message>
    <message>
        <location filename="../../ui/run/run_options.cpp" line="26"/>
        <source>Variant to run and to show</source>
        <translation>要运行和显示的变体</translation>
    </message>
    <message>
        <location filename="../../ui/run/run_options.cpp" line="28"/>
        <source> Executor </source>
        <translation> 执行器 </translation>
    </message>
    <message>
        <location filename="../../ui/run/run_options.cpp" line="32"/>
        <source> Threads </source>
        <translation> 线程数 </translation>
    </message>
    <message>
        <location filename="../../ui/run/run_options.cpp" line="37"/>
        <source>auto</source>
        <translation>自动</translation>
    </message>
    <message>
        <location filename="../../ui/run/run_options.cpp" line="40"/>
        <source>Threads of the parallel executor (auto: one per core that no other program is using)</source>
        <translation>并行执行器使用的线程数（自动：每个未被其他程序占用的核心一个线程）</translation>
    </message>
    <message>
        <location filename="../../ui/run/run_options.cpp" line="52"/>
        <source>(main)</source>
        <translation>（主程序）</translation>
    </message>
</context>
<context>
    <name>gl::ui::RunProgress</name>
    <message>
        <location filename="../../ui/run/run_progress.cpp" line="32"/>
        <location filename="../../ui/run/run_progress.cpp" line="45"/>
        <source>run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../../ui/run/run_progress.cpp" line="33"/>
        <source>Variant &apos;%1&apos;</source>
        <translation>变体“%1”</translation>
    </message>
</context>
<context>
    <name>gl::ui::RunWorker</name>
    <message>
        <location filename="../../ui/run/run_worker.cpp" line="121"/>
        <source>%1 at %2 = %3</source>
        <translation>%1（%2 = %3）</translation>
    </message>
    <message>
        <location filename="../../ui/run/run_worker.cpp" line="142"/>
        <source>the sweep was cancelled</source>
        <translation>扫描已取消</translation>
    </message>
    <message>
        <location filename="../../ui/run/run_worker.cpp" line="204"/>
        <source>no variant named &apos;%1&apos;</source>
        <translation>没有名为“%1”的变体</translation>
    </message>
</context>
<context>
    <name>gl::ui::ScalingPlot</name>
    <message>
        <location filename="../../ui/plots/scaling_plot.cpp" line="17"/>
        <source>Scaling</source>
        <translation>扩展性</translation>
    </message>
    <message>
        <location filename="../../ui/plots/scaling_plot.cpp" line="18"/>
        <location filename="../../ui/plots/scaling_plot.cpp" line="47"/>
        <source>param</source>
        <translation>参数</translation>
    </message>
    <message>
        <location filename="../../ui/plots/scaling_plot.cpp" line="18"/>
        <location filename="../../ui/plots/scaling_plot.cpp" line="84"/>
        <source>seconds</source>
        <translation>时间 (秒)</translation>
    </message>
    <message>
        <location filename="../../ui/plots/scaling_plot.cpp" line="21"/>
        <source>Sweep a param…</source>
        <translation>扫描一个参数…</translation>
    </message>
    <message>
        <location filename="../../ui/plots/scaling_plot.cpp" line="23"/>
        <source>Run the lesson at several values of one param and plot the time against it (Run &gt; Sweep)</source>
        <translation>用一个参数的多个取值运行课程，并绘制时间随它的变化（运行 &gt; 扫描）</translation>
    </message>
</context>
<context>
    <name>gl::ui::ScriptDocument</name>
    <message>
        <location filename="../../ui/document/script_document.cpp" line="80"/>
        <source>untitled.gls</source>
        <translation>未命名.gls</translation>
    </message>
    <message>
        <location filename="../../ui/document/script_document.cpp" line="113"/>
        <source>%1 is a built-in lesson; save it under a name of your own</source>
        <translation>%1 是内置课程；请以你自己的文件名保存</translation>
    </message>
    <message>
        <location filename="../../ui/document/script_document.cpp" line="114"/>
        <source>%1 has no file yet; save it under a name</source>
        <translation>%1 还没有对应的文件；请指定文件名保存</translation>
    </message>
    <message>
        <location filename="../../ui/document/script_document.cpp" line="161"/>
        <source>cannot create the folder %1</source>
        <translation>无法创建文件夹 %1</translation>
    </message>
</context>
<context>
    <name>gl::ui::SettingsDialog</name>
    <message>
        <location filename="../../ui/window/settings_dialog.cpp" line="24"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../../ui/window/settings_dialog.cpp" line="27"/>
        <source>System default</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../../ui/window/settings_dialog.cpp" line="30"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location filename="../../ui/window/settings_dialog.cpp" line="32"/>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <location filename="../../ui/window/settings_dialog.cpp" line="32"/>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <location filename="../../ui/window/settings_dialog.cpp" line="33"/>
        <source>Palette</source>
        <translation>配色</translation>
    </message>
    <message>
        <location filename="../../ui/window/settings_dialog.cpp" line="34"/>
        <source>A new language applies fully after a restart.</source>
        <translation>更改语言后需重新启动才能完全生效。</translation>
    </message>
    <message>
        <location filename="../../ui/window/settings_dialog.cpp" line="36"/>
        <source>Limits</source>
        <translation>限制</translation>
    </message>
    <message>
        <location filename="../../ui/window/settings_dialog.cpp" line="41"/>
        <source> MiB</source>
        <translation> MiB</translation>
    </message>
    <message>
        <location filename="../../ui/window/settings_dialog.cpp" line="42"/>
        <source>Bytes of tensors a trace or run may hold (--memory-budget)</source>
        <translation>一次追踪或运行可持有的张量字节数（--memory-budget）</translation>
    </message>
    <message>
        <location filename="../../ui/window/settings_dialog.cpp" line="43"/>
        <source>Memory budget</source>
        <translation>内存预算</translation>
    </message>
    <message>
        <location filename="../../ui/window/settings_dialog.cpp" line="45"/>
        <source>Python loop iterations unrolled while tracing (--max-unroll)</source>
        <translation>追踪时展开的 Python 循环迭代次数（--max-unroll）</translation>
    </message>
    <message>
        <location filename="../../ui/window/settings_dialog.cpp" line="46"/>
        <source>Unrolled iterations</source>
        <translation>展开的迭代次数</translation>
    </message>
    <message>
        <location filename="../../ui/window/settings_dialog.cpp" line="48"/>
        <source>Nodes the traced graph may have (--max-nodes)</source>
        <translation>追踪出的计算图可有的节点数（--max-nodes）</translation>
    </message>
    <message>
        <location filename="../../ui/window/settings_dialog.cpp" line="49"/>
        <source>Graph nodes</source>
        <translation>计算图节点数</translation>
    </message>
    <message>
        <location filename="../../ui/window/settings_dialog.cpp" line="51"/>
        <source>Items of a Python list or characters of a string (--max-items)</source>
        <translation>Python 列表的元素数或字符串的字符数（--max-items）</translation>
    </message>
    <message>
        <location filename="../../ui/window/settings_dialog.cpp" line="52"/>
        <source>List and string items</source>
        <translation>列表和字符串元素数</translation>
    </message>
    <message>
        <location filename="../../ui/window/settings_dialog.cpp" line="54"/>
        <source>Ops a run may execute, every loop iteration counted (--max-ops)</source>
        <translation>一次运行可执行的操作数，每次循环迭代都计入（--max-ops）</translation>
    </message>
    <message>
        <location filename="../../ui/window/settings_dialog.cpp" line="55"/>
        <source>Ops per run</source>
        <translation>每次运行的操作数</translation>
    </message>
</context>
<context>
    <name>gl::ui::StepControls</name>
    <message>
        <location filename="../../ui/step/step_controls.cpp" line="22"/>
        <source>Loop to step through</source>
        <translation>要单步执行的循环</translation>
    </message>
    <message>
        <location filename="../../ui/step/step_controls.h" line="82"/>
        <source>Which execution of the loop to step through</source>
        <translation>逐步查看该循环的哪一次执行</translation>
    </message>
    <message>
        <location filename="../../ui/step/step_controls.cpp" line="27"/>
        <source>Forward</source>
        <translation>前向</translation>
    </message>
    <message>
        <location filename="../../ui/step/step_controls.cpp" line="27"/>
        <source>Backward</source>
        <translation>反向</translation>
    </message>
    <message>
        <location filename="../../ui/step/step_controls.cpp" line="28"/>
        <source>Forward pass: loop-carried values; backward pass: their adjoints</source>
        <translation>前向传播：循环携带的值；反向传播：它们的伴随值</translation>
    </message>
    <message>
        <location filename="../../ui/step/step_controls.cpp" line="37"/>
        <source>First iteration</source>
        <translation>第一次迭代</translation>
    </message>
    <message>
        <location filename="../../ui/step/step_controls.cpp" line="38"/>
        <source>Previous iteration</source>
        <translation>上一次迭代</translation>
    </message>
    <message>
        <location filename="../../ui/step/step_controls.cpp" line="39"/>
        <source>Play</source>
        <translation>播放</translation>
    </message>
    <message>
        <location filename="../../ui/step/step_controls.cpp" line="41"/>
        <source>Next iteration</source>
        <translation>下一次迭代</translation>
    </message>
    <message>
        <location filename="../../ui/step/step_controls.cpp" line="42"/>
        <source>Last iteration</source>
        <translation>最后一次迭代</translation>
    </message>
    <message>
        <location filename="../../ui/step/step_controls.cpp" line="44"/>
        <source>Play speed</source>
        <translation>播放速度</translation>
    </message>
    <message>
        <location filename="../../ui/step/step_controls.cpp" line="46"/>
        <source>%1 steps/s</source>
        <translation>每秒 %1 步</translation>
    </message>
    <message>
        <location filename="../../ui/step/step_controls.cpp" line="99"/>
        <source>%1 (%2 iterations)</source>
        <translation>%1（%2 次迭代）</translation>
    </message>
    <message>
        <location filename="../../ui/step/step_controls.cpp" line="222"/>
        <source>/ %1</source>
        <translation>/ %1</translation>
    </message>
    <message>
        <location filename="../../ui/step/step_controls.cpp" line="222"/>
        <source>no loop</source>
        <translation>无循环</translation>
    </message>
</context>
<context>
    <name>gl::ui::SweepDialog</name>
    <message>
        <location filename="../../ui/window/sweep_dialog.cpp" line="19"/>
        <source>Sweep a Param</source>
        <translation>参数扫描</translation>
    </message>
    <message>
        <location filename="../../ui/window/sweep_dialog.cpp" line="24"/>
        <source>Param</source>
        <translation>参数</translation>
    </message>
    <message>
        <location filename="../../ui/window/sweep_dialog.cpp" line="25"/>
        <source>Values</source>
        <translation>取值</translation>
    </message>
    <message>
        <location filename="../../ui/window/sweep_dialog.cpp" line="45"/>
        <source>%1 takes values in %2..%3</source>
        <translation>%1 的取值范围为 %2..%3</translation>
    </message>
    <message>
        <location filename="../../ui/window/sweep_dialog.cpp" line="78"/>
        <source>&apos;%1&apos; is not a number</source>
        <translation>“%1”不是数字</translation>
    </message>
    <message>
        <location filename="../../ui/window/sweep_dialog.cpp" line="82"/>
        <source>%1 is outside %2..%3</source>
        <translation>%1 超出范围 %2..%3</translation>
    </message>
    <message>
        <location filename="../../ui/window/sweep_dialog.cpp" line="87"/>
        <source>give at least one value</source>
        <translation>请至少给出一个值</translation>
    </message>
</context>
<context>
    <name>gl::ui::TimelinePlot</name>
    <message>
        <location filename="../../ui/plots/timeline_plot.cpp" line="100"/>
        <location filename="../../ui/plots/timeline_plot.cpp" line="149"/>
        <source>Timeline per thread</source>
        <translation>各线程的时间线</translation>
    </message>
    <message>
        <location filename="../../ui/plots/timeline_plot.cpp" line="101"/>
        <source>time (ms)</source>
        <translation>时间（毫秒）</translation>
    </message>
    <message>
        <location filename="../../ui/plots/timeline_plot.cpp" line="101"/>
        <source>thread</source>
        <translation>线程</translation>
    </message>
    <message>
        <location filename="../../ui/plots/timeline_plot.cpp" line="156"/>
        <source>Timeline per thread: the first %1 events only, %2 ms of a %3 ms run</source>
        <translation>每线程时间线：仅前 %1 个事件，%3 毫秒运行中的 %2 毫秒</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/plots/timeline_plot.cpp" line="236"/>
        <source>%n other op(s)</source>
        <translation>
            <numerusform>其他 %n 个操作</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../ui/plots/timeline_plot.cpp" line="249"/>
        <source>thread %1</source>
        <translation>线程 %1</translation>
    </message>
    <message>
        <location filename="../../ui/plots/timeline_plot.cpp" line="333"/>
        <source>
iteration %1</source>
        <translation>
迭代 %1</translation>
    </message>
    <message>
        <location filename="../../ui/plots/timeline_plot.cpp" line="334"/>
        <source>
%1 ms on thread %2</source>
        <translation>
在线程 %2 上耗时 %1 毫秒</translation>
    </message>
    <message>
        <location filename="../../ui/plots/timeline_plot.cpp" line="377"/>
        <source>Export as Chrome Trace (Perfetto)…</source>
        <translation>导出为 Chrome Trace (Perfetto)…</translation>
    </message>
</context>
<context>
    <name>gl::ui::TimingBarsPlot</name>
    <message>
        <location filename="../../ui/plots/timing_bars_plot.cpp" line="15"/>
        <source>Time per variant</source>
        <translation>各变体耗时</translation>
    </message>
    <message>
        <location filename="../../ui/plots/timing_bars_plot.cpp" line="16"/>
        <source>variant</source>
        <translation>变体</translation>
    </message>
    <message>
        <location filename="../../ui/plots/timing_bars_plot.cpp" line="16"/>
        <source>seconds</source>
        <translation>时间 (秒)</translation>
    </message>
</context>
</TS>
