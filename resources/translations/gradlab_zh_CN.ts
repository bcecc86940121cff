<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>QObject</name>
    <message>
        <location filename="../../ui/document/script_file.cpp" line="15"/>
        <source>%1 does not exist</source>
        <translation>%1 不存在</translation>
    </message>
    <message>
        <location filename="../../ui/document/script_file.cpp" line="18"/>
        <source>%1 is larger than 4 MiB; GradLab scripts are small text files</source>
        <translation>%1 大于 4 MiB；GradLab 脚本应是小型文本文件</translation>
    </message>
    <message>
        <location filename="../../ui/document/script_file.cpp" line="20"/>
        <source>cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <location filename="../../ui/document/script_file.cpp" line="23"/>
        <source>%1 is not a text file (it contains NUL bytes)</source>
        <translation>%1 不是文本文件（其中含有 NUL 字节）</translation>
    </message>
    <message>
        <location filename="../../ui/document/script_file.cpp" line="26"/>
        <source>%1 is not valid UTF-8 text</source>
        <translation>%1 不是有效的 UTF-8 文本</translation>
    </message>
    <message>
        <location filename="../../ui/document/script_file.cpp" line="33"/>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <location filename="../../ui/document/script_file.cpp" line="38"/>
        <location filename="../../ui/document/script_file.cpp" line="40"/>
        <source>saving %1 failed: %2</source>
        <translation>保存 %1 失败：%2</translation>
    </message>
    <message>
        <location filename="../../ui/export/lesson_export.cpp" line="51"/>
        <location filename="../../ui/export/lesson_export.cpp" line="73"/>
        <location filename="../../ui/export/lesson_export.cpp" line="82"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location filename="../../ui/export/lesson_export.cpp" line="91"/>
        <source>cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <location filename="../../ui/export/lesson_export.cpp" line="108"/>
        <source>unknown format &apos;%1&apos; (formats: %2)</source>
        <translation>未知格式“%1”（可用格式：%2）</translation>
    </message>
    <message>
        <location filename="../../ui/export/lesson_export.cpp" line="115"/>
        <source>no formats given</source>
        <translation>未指定任何格式</translation>
    </message>
    <message>
        <location filename="../../ui/export/lesson_export.cpp" line="125"/>
        <source>cannot create the folder %1</source>
        <translation>无法创建文件夹 %1</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="16"/>
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
        <location filename="../../ui/window/result_views.cpp" line="82"/>
        <source>This graph has %1 nodes (%2 even with loops folded and the backward pass hidden): too many to draw. Lower the lesson&apos;s params to see it.</source>
        <translation>此计算图有 %1 个节点（即使折叠循环并隐藏反向传播，仍有 %2 个），节点过多，无法绘制。请调小课程的参数后再查看。</translation>
    </message>
    <message>
        <location filename="../../ui/window/result_views.cpp" line="149"/>
        <source>%1 at line %2</source>
        <translation>第 %2 行的 %1</translation>
    </message>
    <message>
        <location filename="../../ui/window/result_views.cpp" line="150"/>
        <source>%1 #%2</source>
        <translation>%1 #%2</translation>
    </message>
    <message>
        <location filename="../../ui/graph/edge_item.cpp" line="30"/>
        <source>|gradient| = %1</source>
        <translation>|梯度| = %1</translation>
    </message>
    <message>
        <location filename="../../ui/graph/frame_item.cpp" line="16"/>
        <source>click [–] or double-click to fold</source>
        <translation>点击 [–] 或双击以折叠</translation>
    </message>
    <message>
        <location filename="../../ui/graph/frame_item.cpp" line="61"/>
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
        <location filename="../../ui/graph/node_item.cpp" line="27"/>
        <source>double-click to unfold</source>
        <translation>双击以展开</translation>
    </message>
    <message>
        <location filename="../../ui/graph/node_item.cpp" line="33"/>
        <source>Gradient is None here:</source>
        <translation>此处梯度为 None：</translation>
    </message>
</context>
<context>
    <name>ScriptTemplates</name>
    <message>
        <location filename="../../ui/editor/templates.cpp" line="61"/>
        <source>tf.while_loop</source>
        <translation>tf.while_loop</translation>
    </message>
    <message>
        <location filename="../../ui/editor/templates.cpp" line="62"/>
        <source>tf.cond</source>
        <translation>tf.cond</translation>
    </message>
    <message>
        <location filename="../../ui/editor/templates.cpp" line="63"/>
        <source>tf.map_fn</source>
        <translation>tf.map_fn</translation>
    </message>
    <message>
        <location filename="../../ui/editor/templates.cpp" line="64"/>
        <source>tf.vectorized_map</source>
        <translation>tf.vectorized_map</translation>
    </message>
    <message>
        <location filename="../../ui/editor/templates.cpp" line="65"/>
        <source>GradientTape block</source>
        <translation>GradientTape 代码块</translation>
    </message>
    <message>
        <location filename="../../ui/editor/templates.cpp" line="66"/>
        <source>TensorArray write loop</source>
        <translation>TensorArray 写入循环</translation>
    </message>
    <message>
        <location filename="../../ui/editor/templates.cpp" line="68"/>
        <source>Variant block</source>
        <translation>变体代码块</translation>
    </message>
    <message>
        <location filename="../../ui/editor/templates.cpp" line="69"/>
        <source>Param line</source>
        <translation>参数行</translation>
    </message>
    <message>
        <location filename="../../ui/editor/templates.cpp" line="79"/>
        <source>Two ways to compute the sum of squares of n numbers and its gradient:</source>
        <translation>用两种方法计算 n 个数的平方和及其梯度：</translation>
    </message>
    <message>
        <location filename="../../ui/editor/templates.cpp" line="81"/>
        <source>a tf.while_loop that adds one square per step, and one vectorized sum.</source>
        <translation>一个每步累加一个平方项的 tf.while_loop，以及一次向量化求和。</translation>
    </message>
    <message>
        <location filename="../../ui/editor/templates.cpp" line="83"/>
        <source>GradLab runs both, checks that they agree and times them side by side.</source>
        <translation>GradLab 会运行这两种方法，检查结果是否一致，并并排比较它们的耗时。</translation>
    </message>
    <message>
        <location filename="../../ui/editor/templates.cpp" line="85"/>
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
    <name>gl::ui::GradientLinesPlot</name>
    <message>
        <location filename="../../ui/plots/gradient_lines_plot.cpp" line="6"/>
        <source>Gradient norm per step</source>
        <translation>每步的梯度范数</translation>
    </message>
    <message>
        <location filename="../../ui/plots/gradient_lines_plot.cpp" line="7"/>
        <source>step t (iteration)</source>
        <translation>步 t（迭代）</translation>
    </message>
    <message>
        <location filename="../../ui/plots/gradient_lines_plot.cpp" line="7"/>
        <source>‖gradient‖₂ (L2 norm)</source>
        <translation>‖梯度‖₂（L2 范数）</translation>
    </message>
    <message>
        <location filename="../../ui/plots/gradient_lines_plot.cpp" line="53"/>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <location filename="../../ui/plots/gradient_lines_plot.cpp" line="53"/>
        <source>norm</source>
        <translation>范数</translation>
    </message>
</context>
<context>
    <name>gl::ui::HeatMapPlot</name>
    <message>
        <location filename="../../ui/plots/heat_map_plot.cpp" line="28"/>
        <source>Per-step jacobian</source>
        <translation>逐步雅可比矩阵</translation>
    </message>
</context>
<context>
    <name>gl::ui::InspectorPanel</name>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="27"/>
        <source>Property</source>
        <translation>属性</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="27"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="58"/>
        <source>Select a node in the graph or a loop step to inspect it.</source>
        <translation>在计算图中选择一个节点或一个循环步以进行检查。</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="74"/>
        <source>values</source>
        <translation>数值</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="74"/>
        <source>head</source>
        <translation>前几项</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="90"/>
        <source>node</source>
        <translation>节点</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="91"/>
        <source>op</source>
        <translation>操作</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="92"/>
        <source>name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="93"/>
        <source>phase</source>
        <translation>阶段</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="93"/>
        <source>backward (gradient)</source>
        <translation>反向（梯度）</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="93"/>
        <source>forward</source>
        <translation>前向</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="95"/>
        <source>script</source>
        <translation>脚本</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="104"/>
        <source>inside</source>
        <translation>所在区域</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="105"/>
        <source> of node %1</source>
        <translation>（属于节点 %1）</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="109"/>
        <source>output %1</source>
        <translation>输出 %1</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="109"/>
        <source>output</source>
        <translation>输出</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="113"/>
        <source>value</source>
        <translation>值</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="118"/>
        <source>gradient %1</source>
        <translation>梯度 %1</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="118"/>
        <source>gradient</source>
        <translation>梯度</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="122"/>
        <source>not computed in this run</source>
        <translation>本次运行未计算</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="128"/>
        <source>iterations</source>
        <translation>迭代次数</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="139"/>
        <source>loop node</source>
        <translation>循环节点</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="144"/>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="144"/>
        <source>%1 of %2 (%3)</source>
        <translation>第 %1 步，共 %2 次迭代（%3）</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="147"/>
        <source>adjoints, backward pass</source>
        <translation>伴随值，反向传播</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="147"/>
        <source>carried values</source>
        <translation>循环携带值</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="149"/>
        <source>record</source>
        <translation>记录</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="149"/>
        <source>not recorded: the record budget ran out</source>
        <translation>未记录：记录预算已用完</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="150"/>
        <source>no record for this step</source>
        <translation>此步没有记录</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="155"/>
        <source>adjoint of var %1</source>
        <translation>变量 %1 的伴随值</translation>
    </message>
    <message>
        <location filename="../../ui/inspect/inspector_panel.cpp" line="155"/>
        <source>var %1</source>
        <translation>变量 %1</translation>
    </message>
</context>
<context>
    <name>gl::ui::LessonBrowser</name>
    <message>
        <location filename="../../ui/panels/lesson_browser.cpp" line="23"/>
        <source>Built-in lessons</source>
        <translation>内置课程</translation>
    </message>
    <message>
        <location filename="../../ui/panels/lesson_browser.cpp" line="24"/>
        <source>Recent files</source>
        <translation>最近的文件</translation>
    </message>
    <message>
        <location filename="../../ui/panels/lesson_browser.cpp" line="73"/>
        <source>%1 (file not found)</source>
        <translation>%1（找不到文件）</translation>
    </message>
    <message>
        <location filename="../../ui/panels/lesson_browser.cpp" line="85"/>
        <source>(no lessons found)</source>
        <translation>（未找到课程）</translation>
    </message>
    <message>
        <location filename="../../ui/panels/lesson_browser.cpp" line="140"/>
        <source>Remove from recent files</source>
        <translation>从最近的文件中移除</translation>
    </message>
    <message>
        <location filename="../../ui/panels/lesson_browser.cpp" line="144"/>
        <source>Clear recent files</source>
        <translation>清除最近的文件</translation>
    </message>
</context>
<context>
    <name>gl::ui::MainWindow</name>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="64"/>
        <source>&amp;New Lesson</source>
        <translation>新建课程(&amp;N)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="65"/>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="66"/>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="67"/>
        <source>Save &amp;As…</source>
        <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="69"/>
        <source>&amp;Export Lesson…</source>
        <translation>导出课程(&amp;E)…</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="69"/>
        <source>Ctrl+E</source>
        <translation>Ctrl+E</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="71"/>
        <source>Export &amp;Graph…</source>
        <translation>导出计算图(&amp;G)…</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="71"/>
        <source>Ctrl+Shift+E</source>
        <translation>Ctrl+Shift+E</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="72"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="73"/>
        <location filename="../../ui/window/main_window.cpp" line="140"/>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="73"/>
        <location filename="../../ui/window/main_window.cpp" line="74"/>
        <source>Ctrl+R</source>
        <translation>Ctrl+R</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="76"/>
        <source>Run the chosen variant (Ctrl+R, F5)</source>
        <translation>运行所选变体（Ctrl+R、F5）</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="78"/>
        <source>Run &amp;All Variants</source>
        <translation>运行全部变体(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="78"/>
        <source>Ctrl+Shift+R</source>
        <translation>Ctrl+Shift+R</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="79"/>
        <source>Run every variant and compare their results</source>
        <translation>运行每个变体并比较它们的结果</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="81"/>
        <source>&amp;Cancel Run</source>
        <translation>取消运行(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="83"/>
        <source>S&amp;weep a Param…</source>
        <translation>参数扫描(&amp;W)…</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="84"/>
        <source>Time every variant over several values of a param (scaling plot)</source>
        <translation>在一个参数的多个取值上为每个变体计时（扩展性图）</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="85"/>
        <source>&amp;Fit Graph</source>
        <translation>计算图适合窗口(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="85"/>
        <source>Ctrl+0</source>
        <translation>Ctrl+0</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="86"/>
        <source>Zoom &amp;In</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="87"/>
        <source>Zoom &amp;Out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="88"/>
        <source>Fold All Loops</source>
        <translation>折叠所有循环</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="90"/>
        <source>Unfold All Loops</source>
        <translation>展开所有循环</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="91"/>
        <source>Show &amp;Forward Graph</source>
        <translation>显示前向计算图(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="95"/>
        <source>Show &amp;Backward (Gradient) Graph</source>
        <translation>显示反向（梯度）计算图(&amp;B)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="99"/>
        <source>&amp;Dark Palette</source>
        <translation>深色配色(&amp;D)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="101"/>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="102"/>
        <source>&amp;About GradLab</source>
        <translation>关于 GradLab(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="103"/>
        <source>About GradLab</source>
        <translation>关于 GradLab</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="104"/>
        <source>&lt;b&gt;GradLab %1&lt;/b&gt;&lt;p&gt;Loops, branches and gradients: build a computation, step through its iterations, watch the gradient flow, and time serial against vectorized versions.&lt;/p&gt;</source>
        <translation>&lt;b&gt;GradLab %1&lt;/b&gt;&lt;p&gt;循环、分支与梯度：构建一个计算，逐次迭代地单步执行，观察梯度的流动，并比较串行版本与向量化版本的耗时。&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="117"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="125"/>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="126"/>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="127"/>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="133"/>
        <source>&amp;Insert</source>
        <translation>插入(&amp;I)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="145"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="153"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="162"/>
        <location filename="../../ui/window/main_window.cpp" line="166"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="163"/>
        <source>Run All Variants</source>
        <translation>运行全部变体</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="164"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="165"/>
        <source>Fit Graph</source>
        <translation>计算图适合窗口</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="179"/>
        <source>Find node…</source>
        <translation>查找节点…</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="182"/>
        <source>Find a node by name or op; Enter again for the next match</source>
        <translation>按名称或操作查找节点；再按 Enter 跳到下一个匹配项</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="185"/>
        <source>No node matches &apos;%1&apos;</source>
        <translation>没有与“%1”匹配的节点</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="188"/>
        <source>&amp;Find Node</source>
        <translation>查找节点(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="218"/>
        <source>Lessons</source>
        <translation>课程</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="220"/>
        <source>Script</source>
        <translation>脚本</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="225"/>
        <source>Params</source>
        <translation>参数</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="227"/>
        <source>Inspector</source>
        <translation>检查器</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="231"/>
        <source>Step Through</source>
        <translation>单步执行</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="233"/>
        <source>Plots</source>
        <translation>图表</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="234"/>
        <source>Run Log</source>
        <translation>运行日志</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="160"/>
        <location filename="../../ui/window/main_window_files.cpp" line="28"/>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="34"/>
        <location filename="../../ui/window/main_window_files.cpp" line="61"/>
        <source>Recover</source>
        <translation>恢复</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="35"/>
        <source>An autosaved copy of %1 has changes that were not saved. Recover them?</source>
        <translation>%1 的自动保存副本中有尚未保存的更改。要恢复这些更改吗？</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="48"/>
        <source>Opened %1</source>
        <translation>已打开 %1</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window.cpp" line="161"/>
        <location filename="../../ui/window/main_window_files.cpp" line="76"/>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="81"/>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="96"/>
        <source>Save Lesson</source>
        <translation>保存课程</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="96"/>
        <source>GradLab scripts (*.gls)</source>
        <translation>GradLab 脚本 (*.gls)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="102"/>
        <source>Open Lesson</source>
        <translation>打开课程</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="103"/>
        <source>GradLab scripts (*.gls);;All files (*)</source>
        <translation>GradLab 脚本 (*.gls);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="118"/>
        <source>Unsaved changes</source>
        <translation>未保存的更改</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="119"/>
        <source>%1 has unsaved changes. Save them?</source>
        <translation>%1 有未保存的更改。要保存吗？</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_results.cpp" line="53"/>
        <source>Autosave failed: %1</source>
        <translation>自动保存失败：%1</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="59"/>
        <source>an untitled script</source>
        <translation>一个未命名的脚本</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="62"/>
        <source>GradLab found work in %1 that was never saved (autosaved %2). Recover it?</source>
        <translation>GradLab 发现 %1 中有从未保存的内容（自动保存于 %2）。要恢复吗？</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="67"/>
        <source>Recovered unsaved work of %1</source>
        <translation>已恢复 %1 中未保存的内容</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="137"/>
        <source>Export Graph</source>
        <translation>导出计算图</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="138"/>
        <source>SVG (*.svg);;PNG image (*.png);;PDF (*.pdf);;Graphviz DOT (*.dot)</source>
        <translation>SVG (*.svg);;PNG 图像 (*.png);;PDF (*.pdf);;Graphviz DOT (*.dot)</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="145"/>
        <source>Graph export failed: %1</source>
        <translation>计算图导出失败：%1</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="148"/>
        <source>Exported the graph to %1</source>
        <translation>已将计算图导出到 %1</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="154"/>
        <source>Export Lesson To</source>
        <translation>将课程导出到</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="158"/>
        <source>Export Lesson</source>
        <translation>导出课程</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="159"/>
        <source>Run the lesson first: the export holds its graph, plots and data.</source>
        <translation>请先运行课程：导出的内容包括其计算图、图表和数据。</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="164"/>
        <location filename="../../ui/window/main_window_results.cpp" line="67"/>
        <source>Exported %1</source>
        <translation>已导出 %1</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_files.cpp" line="166"/>
        <source>Exported %1 files to %2</source>
        <translation>已将 %1 个文件导出到 %2</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_results.cpp" line="41"/>
        <source>Running variant &apos;%1&apos;…</source>
        <translation>正在运行变体“%1”…</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_results.cpp" line="103"/>
        <source>print: %1</source>
        <translation>print：%1</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_results.cpp" line="105"/>
        <source>Traced: %1 nodes, %2 variants</source>
        <translation>已追踪：%1 个节点，%2 个变体</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_results.cpp" line="133"/>
        <source>Running on the %1 executor…</source>
        <translation>正在%1执行器上运行…</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_results.cpp" line="135"/>
        <source>Running all variants on the %1 executor…</source>
        <translation>正在%1执行器上运行全部变体…</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_results.cpp" line="136"/>
        <source>Running variant &apos;%1&apos; on the %2 executor…</source>
        <translation>正在%2执行器上运行变体“%1”…</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_results.cpp" line="161"/>
        <source>%1 variant(s) failed; see the run log</source>
        <translation>%1 个变体运行失败，请查看运行日志</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_results.cpp" line="162"/>
        <source>Run finished</source>
        <translation>运行完成</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_results.cpp" line="170"/>
        <source>This script declares no param to sweep.</source>
        <translation>此脚本没有声明可供扫描的参数。</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_results.cpp" line="182"/>
        <source>Sweeping %1 over %2 values…</source>
        <translation>正在对 %1 的 %2 个取值进行扫描…</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_results.cpp" line="191"/>
        <source>Sweep of %1 finished</source>
        <translation>%1 的扫描已完成</translation>
    </message>
    <message>
        <location filename="../../ui/window/main_window_results.cpp" line="192"/>
        <source>Sweep finished</source>
        <translation>扫描完成</translation>
    </message>
</context>
<context>
    <name>gl::ui::ParamsPanel</name>
    <message>
        <location filename="../../ui/panels/params_panel.cpp" line="97"/>
        <source>This script declares no params. Add one with &quot;param steps = 100 in 1..1000&quot; (Insert menu, Param line).</source>
        <translation>此脚本未声明任何参数。可以用“param steps = 100 in 1..1000”添加一个（插入菜单 → 参数行）。</translation>
    </message>
    <message>
        <location filename="../../ui/panels/params_panel.cpp" line="103"/>
        <source>Reset to script values</source>
        <translation>重置为脚本中的值</translation>
    </message>
    <message>
        <location filename="../../ui/panels/params_panel.cpp" line="104"/>
        <source>Forget the values set here and use those written in the script</source>
        <translation>放弃在此处设置的值，改用脚本中写明的值</translation>
    </message>
    <message>
        <location filename="../../ui/panels/params_panel.cpp" line="225"/>
        <source>%1 = %2 in %3..%4</source>
        <translation>%1 = %2 in %3..%4</translation>
    </message>
    <message>
        <location filename="../../ui/panels/params_panel.cpp" line="231"/>
        <source> (line %1)</source>
        <translation>（第 %1 行）</translation>
    </message>
    <message>
        <location filename="../../ui/panels/params_panel.cpp" line="232"/>
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
        <location filename="../../ui/plots/plots_panel.cpp" line="57"/>
        <source>Export plot as %1</source>
        <translation>将图表导出为 %1</translation>
    </message>
    <message>
        <location filename="../../ui/plots/plots_panel.cpp" line="65"/>
        <source>Fit</source>
        <translation>适合窗口</translation>
    </message>
    <message>
        <location filename="../../ui/plots/plots_panel.cpp" line="66"/>
        <source>Fit the axes to the data (undo zoom and pan)</source>
        <translation>使坐标轴适合数据范围（撤销缩放和平移）</translation>
    </message>
    <message>
        <location filename="../../ui/plots/plots_panel.cpp" line="74"/>
        <source>Log y</source>
        <translation>对数 y</translation>
    </message>
    <message>
        <location filename="../../ui/plots/plots_panel.cpp" line="76"/>
        <source>Logarithmic y axis (gradients that vanish or explode)</source>
        <translation>对数 y 轴（便于观察消失或爆炸的梯度）</translation>
    </message>
    <message>
        <location filename="../../ui/plots/plots_panel.cpp" line="81"/>
        <source>%1…</source>
        <translation>%1…</translation>
    </message>
    <message>
        <location filename="../../ui/plots/plots_panel.cpp" line="86"/>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <location filename="../../ui/plots/plots_panel.cpp" line="87"/>
        <source>Export the current plot as PNG, SVG, PDF or its data as CSV</source>
        <translation>将当前图表导出为 PNG、SVG、PDF，或将其数据导出为 CSV</translation>
    </message>
    <message>
        <location filename="../../ui/plots/plots_panel.cpp" line="162"/>
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
        <location filename="../../ui/panels/run_log.cpp" line="85"/>
        <source>Go to %1 in the editor</source>
        <translation>在编辑器中转到 %1</translation>
    </message>
</context>
<context>
    <name>gl::ui::RunOptions</name>
    <message>
        <location filename="../../ui/run/run_options.cpp" line="20"/>
        <source> Variant </source>
        <translation> 变体 </translation>
    </message>
    <message>
        <location filename="../../ui/run/run_options.cpp" line="23"/>
        <source>Variant to run and to show</source>
        <translation>要运行和显示的变体</translation>
    </message>
    <message>
        <location filename="../../ui/run/run_options.cpp" line="25"/>
        <source> Executor </source>
        <translation> 执行器 </translation>
    </message>
    <message>
        <location filename="../../ui/run/run_options.cpp" line="27"/>
        <source>serial</source>
        <translation>串行</translation>
    </message>
    <message>
        <location filename="../../ui/run/run_options.cpp" line="28"/>
        <source>parallel</source>
        <translation>并行</translation>
    </message>
    <message>
        <location filename="../../ui/run/run_options.cpp" line="30"/>
        <source> Threads </source>
        <translation> 线程数 </translation>
    </message>
    <message>
        <location filename="../../ui/run/run_options.cpp" line="35"/>
        <source>Threads of the parallel executor</source>
        <translation>并行执行器使用的线程数</translation>
    </message>
    <message>
        <location filename="../../ui/run/run_options.cpp" line="46"/>
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
        <location filename="../../ui/run/run_worker.cpp" line="99"/>
        <source>%1 at %2 = %3</source>
        <translation>%1（%2 = %3）</translation>
    </message>
    <message>
        <location filename="../../ui/run/run_worker.cpp" line="118"/>
        <source>the sweep was cancelled</source>
        <translation>扫描已取消</translation>
    </message>
    <message>
        <location filename="../../ui/run/run_worker.cpp" line="154"/>
        <source>no variant named &apos;%1&apos;</source>
        <translation>没有名为“%1”的变体</translation>
    </message>
</context>
<context>
    <name>gl::ui::ScalingPlot</name>
    <message>
        <location filename="../../ui/plots/scaling_plot.cpp" line="16"/>
        <source>Scaling</source>
        <translation>扩展性</translation>
    </message>
    <message>
        <location filename="../../ui/plots/scaling_plot.cpp" line="17"/>
        <location filename="../../ui/plots/scaling_plot.cpp" line="26"/>
        <source>param</source>
        <translation>参数</translation>
    </message>
    <message>
        <location filename="../../ui/plots/scaling_plot.cpp" line="17"/>
        <location filename="../../ui/plots/scaling_plot.cpp" line="63"/>
        <source>seconds</source>
        <translation>秒</translation>
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
        <location filename="../../ui/window/settings_dialog.cpp" line="12"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../../ui/window/settings_dialog.cpp" line="15"/>
        <source>System default</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../../ui/window/settings_dialog.cpp" line="18"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location filename="../../ui/window/settings_dialog.cpp" line="20"/>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <location filename="../../ui/window/settings_dialog.cpp" line="20"/>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <location filename="../../ui/window/settings_dialog.cpp" line="21"/>
        <source>Palette</source>
        <translation>配色</translation>
    </message>
    <message>
        <location filename="../../ui/window/settings_dialog.cpp" line="22"/>
        <source>A new language applies fully after a restart.</source>
        <translation>更改语言后需重新启动才能完全生效。</translation>
    </message>
</context>
<context>
    <name>gl::ui::StepControls</name>
    <message>
        <location filename="../../ui/step/step_controls.cpp" line="17"/>
        <source>Loop to step through</source>
        <translation>要单步执行的循环</translation>
    </message>
    <message>
        <location filename="../../ui/step/step_controls.cpp" line="19"/>
        <source>Forward</source>
        <translation>前向</translation>
    </message>
    <message>
        <location filename="../../ui/step/step_controls.cpp" line="19"/>
        <source>Backward</source>
        <translation>反向</translation>
    </message>
    <message>
        <location filename="../../ui/step/step_controls.cpp" line="20"/>
        <source>Forward pass: loop-carried values; backward pass: their adjoints</source>
        <translation>前向传播：循环携带的值；反向传播：它们的伴随值</translation>
    </message>
    <message>
        <location filename="../../ui/step/step_controls.cpp" line="28"/>
        <source>First iteration</source>
        <translation>第一次迭代</translation>
    </message>
    <message>
        <location filename="../../ui/step/step_controls.cpp" line="29"/>
        <source>Previous iteration</source>
        <translation>上一次迭代</translation>
    </message>
    <message>
        <location filename="../../ui/step/step_controls.cpp" line="30"/>
        <source>Play</source>
        <translation>播放</translation>
    </message>
    <message>
        <location filename="../../ui/step/step_controls.cpp" line="32"/>
        <source>Next iteration</source>
        <translation>下一次迭代</translation>
    </message>
    <message>
        <location filename="../../ui/step/step_controls.cpp" line="33"/>
        <source>Last iteration</source>
        <translation>最后一次迭代</translation>
    </message>
    <message>
        <location filename="../../ui/step/step_controls.cpp" line="75"/>
        <source>%1 (%2 iterations)</source>
        <translation>%1（%2 次迭代）</translation>
    </message>
    <message>
        <location filename="../../ui/step/step_controls.cpp" line="133"/>
        <source>/ %1</source>
        <translation>/ %1</translation>
    </message>
    <message>
        <location filename="../../ui/step/step_controls.cpp" line="133"/>
        <source>no loop</source>
        <translation>无循环</translation>
    </message>
</context>
<context>
    <name>gl::ui::SweepDialog</name>
    <message>
        <location filename="../../ui/window/sweep_dialog.cpp" line="18"/>
        <source>Sweep a Param</source>
        <translation>参数扫描</translation>
    </message>
    <message>
        <location filename="../../ui/window/sweep_dialog.cpp" line="23"/>
        <source>Param</source>
        <translation>参数</translation>
    </message>
    <message>
        <location filename="../../ui/window/sweep_dialog.cpp" line="24"/>
        <source>Values</source>
        <translation>取值</translation>
    </message>
    <message>
        <location filename="../../ui/window/sweep_dialog.cpp" line="42"/>
        <source>%1 takes values in %2..%3</source>
        <translation>%1 的取值范围为 %2..%3</translation>
    </message>
    <message>
        <location filename="../../ui/window/sweep_dialog.cpp" line="75"/>
        <source>&apos;%1&apos; is not a number</source>
        <translation>“%1”不是数字</translation>
    </message>
    <message>
        <location filename="../../ui/window/sweep_dialog.cpp" line="79"/>
        <source>%1 is outside %2..%3</source>
        <translation>%1 超出范围 %2..%3</translation>
    </message>
    <message>
        <location filename="../../ui/window/sweep_dialog.cpp" line="84"/>
        <source>give at least one value</source>
        <translation>请至少给出一个值</translation>
    </message>
</context>
<context>
    <name>gl::ui::TimelinePlot</name>
    <message>
        <location filename="../../ui/plots/timeline_plot.cpp" line="94"/>
        <source>Timeline per thread</source>
        <translation>各线程的时间线</translation>
    </message>
    <message>
        <location filename="../../ui/plots/timeline_plot.cpp" line="95"/>
        <source>time (ms)</source>
        <translation>时间（毫秒）</translation>
    </message>
    <message>
        <location filename="../../ui/plots/timeline_plot.cpp" line="95"/>
        <source>thread</source>
        <translation>线程</translation>
    </message>
    <message>
        <location filename="../../ui/plots/timeline_plot.cpp" line="167"/>
        <source>thread %1</source>
        <translation>线程 %1</translation>
    </message>
    <message>
        <location filename="../../ui/plots/timeline_plot.cpp" line="245"/>
        <source>
iteration %1</source>
        <translation>
迭代 %1</translation>
    </message>
    <message>
        <location filename="../../ui/plots/timeline_plot.cpp" line="246"/>
        <source>
%1 ms on thread %2</source>
        <translation>
在线程 %2 上耗时 %1 毫秒</translation>
    </message>
</context>
<context>
    <name>gl::ui::TimingBarsPlot</name>
    <message>
        <location filename="../../ui/plots/timing_bars_plot.cpp" line="13"/>
        <source>Time per variant</source>
        <translation>各变体耗时</translation>
    </message>
    <message>
        <location filename="../../ui/plots/timing_bars_plot.cpp" line="14"/>
        <source>variant</source>
        <translation>变体</translation>
    </message>
    <message>
        <location filename="../../ui/plots/timing_bars_plot.cpp" line="14"/>
        <source>seconds</source>
        <translation>秒</translation>
    </message>
</context>
</TS>
