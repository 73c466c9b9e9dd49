// The workbench's GUI-independent pieces: the line diff, log links, the settings registry, the review
// writes and the CLI overview parser.
#include "tests/gui/guitest.h"

#include "core/db/corpus.h"
#include "ui/cli/cliprocess.h"
#include "ui/compare/linediff.h"
#include "ui/main/settings.h"
#include "ui/review/reviewstore.h"
#include "ui/stats/chart.h"
#include "ui/verdict/loglinks.h"
#include "ui/verdict/timingpanel.h"

#include <QSignalSpy>

using namespace sieve;
using namespace sieve::ui;

namespace {
QList<int> changed(const std::vector<bool> &v)
{
    QList<int> out;
    for (size_t i = 0; i < v.size(); ++i)
        if (v[i])
            out << int(i);
    return out;
}
} // namespace

TEST(LineDiff, IdenticalFilesHaveNoChangedLines)
{
    const QStringList a{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")};
    const LineDiff d = diffLines(a, a);
    EXPECT_TRUE(changed(d.changedA).isEmpty());
    EXPECT_TRUE(changed(d.changedB).isEmpty());
    EXPECT_EQ(d.common, 3);
}

TEST(LineDiff, MarksOnlyTheReplacedLine)
{
    const QStringList a{QStringLiteral("x = 1"), QStringLiteral("y = 2"), QStringLiteral("z = 3")};
    const QStringList b{QStringLiteral("x = 1"), QStringLiteral("y = 20"), QStringLiteral("z = 3")};
    const LineDiff d = diffLines(a, b);
    EXPECT_EQ(changed(d.changedA), QList<int>{1});
    EXPECT_EQ(changed(d.changedB), QList<int>{1});
}

TEST(LineDiff, InsertionAndDeletionMarkOneSideEach)
{
    const QStringList a{QStringLiteral("1"), QStringLiteral("2"), QStringLiteral("3"), QStringLiteral("4")};
    const QStringList b{QStringLiteral("1"), QStringLiteral("new"), QStringLiteral("2"), QStringLiteral("4")};
    const LineDiff d = diffLines(a, b);
    EXPECT_EQ(changed(d.changedA), QList<int>{2}); // "3" removed
    EXPECT_EQ(changed(d.changedB), QList<int>{1}); // "new" added
    EXPECT_EQ(d.common, 3);
}

TEST(LineDiff, TrailingWhitespaceIsNotAChange)
{
    const LineDiff d =
        diffLines({QStringLiteral("a  "), QStringLiteral("b")}, {QStringLiteral("a"), QStringLiteral("b\t")});
    EXPECT_EQ(d.common, 2);
}

TEST(LineDiff, DisjointFilesAreAllChanged)
{
    const LineDiff d = diffLines({QStringLiteral("a"), QStringLiteral("b")}, {QStringLiteral("c")});
    EXPECT_EQ(changed(d.changedA), (QList<int>{0, 1}));
    EXPECT_EQ(changed(d.changedB), QList<int>{0});
    EXPECT_EQ(d.common, 0);
}

TEST(LineDiff, InsertedLinesGetFillerRowsOnTheOtherSide)
{
    const QStringList a{QStringLiteral("x"), QStringLiteral("y"), QStringLiteral("z")};
    const QStringList b{QStringLiteral("x"), QStringLiteral("n1"), QStringLiteral("n2"), QStringLiteral("y"),
                        QStringLiteral("z")};
    const Alignment al = alignVariants(a, {b});
    ASSERT_EQ(al.fillers.size(), 2u);
    EXPECT_EQ(al.fillers[0], (std::vector<int>{0, 2, 0, 0})); // two empty rows in A before y
    EXPECT_EQ(al.fillers[1], (std::vector<int>{0, 0, 0, 0, 0, 0}));
    EXPECT_EQ(al.changeRows, std::vector<int>{1});
    ASSERT_EQ(al.diffs[0].hunks.size(), 1u);
    EXPECT_EQ(al.diffs[0].hunks[0].bCount, 2);
    // A deletion is the mirror image: the filler is on B's side.
    const Alignment del = alignVariants(b, {a});
    EXPECT_EQ(del.fillers[1], (std::vector<int>{0, 2, 0, 0}));
}

TEST(LineDiff, AnEditedLineGetsItsChangedCharacters)
{
    const LineDiff d = diffLines({QStringLiteral("def f(x):"), QStringLiteral("    return x + 1")},
                                 {QStringLiteral("def f(x):"), QStringLiteral("    return x + 2")});
    ASSERT_EQ(d.inlineA.size(), 1u);
    EXPECT_EQ(d.inlineA[0].line, 1);
    EXPECT_EQ(d.inlineA[0].from, 15);
    EXPECT_EQ(d.inlineA[0].to, 16);
    ASSERT_EQ(d.inlineB.size(), 1u);
    EXPECT_EQ(d.inlineB[0].from, 15);
    // A rewritten line is changed as a whole: no character boxes that would mean nothing.
    const LineDiff r = diffLines({QStringLiteral("a = torch.relu(x)")}, {QStringLiteral("launch[grid](y, n)")});
    EXPECT_TRUE(r.inlineA.empty());
    EXPECT_TRUE(r.changedA[0]);
}

TEST(LineDiff, ThreeVariantsLineUpOnACommonLine)
{
    // B inserts one line and C two before q: A gets two empty rows, B one, C none; q is on row 3 in all.
    const QStringList a{QStringLiteral("p"), QStringLiteral("q")};
    const QStringList b{QStringLiteral("p"), QStringLiteral("b1"), QStringLiteral("q")};
    const QStringList c{QStringLiteral("p"), QStringLiteral("c1"), QStringLiteral("c2"), QStringLiteral("q")};
    const Alignment al = alignVariants(a, {b, c});
    EXPECT_EQ(al.fillers[0], (std::vector<int>{0, 2, 0}));
    EXPECT_EQ(al.fillers[1], (std::vector<int>{0, 0, 1, 0}));
    EXPECT_EQ(al.fillers[2], (std::vector<int>{0, 0, 0, 0, 0}));
    auto rowOf = [](const std::vector<int> &fill, int line) {
        int row = 0;
        for (int k = 0; k <= line; ++k)
            row += fill[size_t(k)] + (k < line ? 1 : 0);
        return row;
    };
    EXPECT_EQ(rowOf(al.fillers[0], 1), 3);
    EXPECT_EQ(rowOf(al.fillers[1], 2), 3);
    EXPECT_EQ(rowOf(al.fillers[2], 3), 3);
    // An edit in B next to C's insertion starts on the row of the line it replaces.
    const QStringList b2{QStringLiteral("p2"), QStringLiteral("q")};
    const Alignment edit = alignVariants(a, {b2, c});
    EXPECT_EQ(edit.fillers[1], (std::vector<int>{0, 2, 0})); // p2 on p's row, then C's two rows, then q
}

TEST(TimingPanel, AnEmptyChartSaysWhyAndBarsShowTheirSpread)
{
    TimingPanel panel;
    VerdictInfo v;
    panel.showTimings(v);
    EXPECT_TRUE(panel.perShapeChart()->data().title.contains(QStringLiteral("not been verified")));
    v.present = true;
    v.status = QStringLiteral("PASS");
    v.device = QStringLiteral("cpu");
    v.interpreted = true;
    panel.showTimings(v);
    EXPECT_TRUE(panel.perShapeChart()->data().title.contains(QStringLiteral("CPU")))
        << panel.perShapeChart()->data().title.toStdString();
    v.device = QStringLiteral("NVIDIA H200");
    v.interpreted = false;
    v.status = QStringLiteral("FAIL_MISMATCH");
    panel.showTimings(v);
    EXPECT_TRUE(panel.perShapeChart()->data().title.contains(QStringLiteral("FAIL_MISMATCH")));
    // Every timed shape is a group; hovering a bar gives its median, spread and runs.
    v.status = QStringLiteral("PASS");
    v.timings = {TimingRow{0, QStringLiteral("candidate"), 0.067, 0.004, 100},
                 TimingRow{0, QStringLiteral("eager"), 0.028, 0.001, 100},
                 TimingRow{1, QStringLiteral("candidate"), 0.5, kNoValue, 20}};
    panel.showTimings(v);
    const ChartData &d = panel.perShapeChart()->data();
    EXPECT_EQ(d.categories.size(), 2);
    EXPECT_EQ(d.series.size(), 2); // candidate and eager; no compile timings
    const QString tip = panel.perShapeChart()->tipFor(0, 0);
    EXPECT_TRUE(tip.contains(QStringLiteral("0.067")) && tip.contains(QStringLiteral("± 0.004")) &&
                tip.contains(QStringLiteral("100 runs")))
        << tip.toStdString();
    EXPECT_TRUE(panel.perShapeChart()->tipFor(0, 1).contains(QStringLiteral("20 runs")));
    EXPECT_TRUE(panel.perShapeChart()->tipFor(1, 1).isEmpty()); // eager was not timed on shape 1
}

TEST(LogLinks, FindsPythonAndCompilerLineReferences)
{
    const QString log = QStringLiteral("  File \"/scratch/job-3/sieve_candidate_3.py\", line 12, in f\n"
                                       "sieve_input.cu(33): error: x\n<string>:7:3: bad\nline 30: TORCH_OP_IN_FORWARD");
    const QList<LogLineRef> refs = findLineRefs(log);
    ASSERT_EQ(refs.size(), 4);
    EXPECT_EQ(refs[0].line, 12);
    EXPECT_EQ(refs[1].line, 33);
    EXPECT_EQ(refs[2].line, 7);
    EXPECT_EQ(refs[3].line, 30);
    for (const LogLineRef &r : refs)
        EXPECT_TRUE(r.inAnswer) << r.line;
    EXPECT_TRUE(logToHtml(log).contains(QStringLiteral("<a href='line:12'>line 12</a>")));
    EXPECT_TRUE(logToHtml(log).contains(QStringLiteral("<a href='line:30'>line 30</a>")));
}

TEST(LogLinks, LibraryFramesAreNoLinksIntoTheAnswer)
{
    // A traceback through torch and Triton, and nvcc on the files load_inline writes: none of those
    // line numbers is a line of the answer.
    const QString log =
        QStringLiteral("  File \"/root/.cache/sieve/venv/lib/python3.11/site-packages/torch/nn/modules/module.py\", "
                       "line 1751, in _call_impl\n"
                       "  File \"/scratch/job-9/sieve_candidate_9.py\", line 41, in forward\n"
                       "  File \"/venv/site-packages/triton/runtime/jit.py\", line 330, in <lambda>\n"
                       "/tmp/ext/relu/cuda.cu(17): error: identifier \"x\" is undefined\n"
                       "/usr/include/c10/util/Exception.h(12): note\n");
    const QList<LogLineRef> refs = findLineRefs(log);
    ASSERT_EQ(refs.size(), 5);
    EXPECT_FALSE(refs[0].inAnswer);
    EXPECT_TRUE(refs[1].inAnswer);
    EXPECT_EQ(refs[1].line, 41);
    EXPECT_FALSE(refs[2].inAnswer);
    EXPECT_FALSE(refs[3].inAnswer);
    EXPECT_EQ(refs[3].file, QStringLiteral("/tmp/ext/relu/cuda.cu"));
    EXPECT_FALSE(refs[4].inAnswer);
    const QString html = logToHtml(log);
    EXPECT_EQ(html.count(QStringLiteral("<a href=")), 1) << html.toStdString();
    EXPECT_TRUE(html.contains(QStringLiteral("<a href='line:41'>line 41</a>")));
    EXPECT_FALSE(html.contains(QStringLiteral("line:1751")));
    EXPECT_TRUE(html.contains(QStringLiteral("<span style='color:#808080'>line 1751</span>")));
}

TEST(LogLinks, EscapesTheLogText)
{
    EXPECT_TRUE(logToHtml(QStringLiteral("a < b && line 3")).contains(QStringLiteral("a &lt; b &amp;&amp; ")));
}

TEST(Settings, TypedValuesDefaultPersistAndAnnounceChanges)
{
    QTemporaryDir dir;
    const QString ini = dir.filePath(QStringLiteral("s.ini"));
    {
        Settings s(ini);
        EXPECT_EQ(s.gpus.value(), QStringLiteral("all"));
        EXPECT_DOUBLE_EQ(s.atolFp32.value(), 1e-4);
        QSignalSpy spy(&s, &Settings::changed);
        s.atolFp32.setValue(1e-3);
        s.atolFp32.setValue(1e-3); // unchanged: no second signal
        ASSERT_EQ(spy.count(), 1);
        EXPECT_EQ(spy.at(0).at(0).toString(), QStringLiteral("verify/atol_fp32"));
        s.addRecentCorpus(QStringLiteral("/tmp/a.sieve"));
        s.addRecentCorpus(QStringLiteral("/tmp/b.sieve"));
        s.addRecentCorpus(QStringLiteral("/tmp/a.sieve"));
        s.sync();
    }
    Settings again(ini);
    EXPECT_DOUBLE_EQ(again.atolFp32.value(), 1e-3);
    EXPECT_EQ(again.recentCorpora.value(),
              (QStringList{QStringLiteral("/tmp/a.sieve"), QStringLiteral("/tmp/b.sieve")}));
}

TEST(ReviewStore, AppendsHistoryAndSetsTheCurrentDecision)
{
    test::GuiCorpus corpus;
    Corpus c = Corpus::open(corpus.path.toStdString());
    reviewstore::write(c.db(),
                       {{1, QStringLiteral("accepted"), {}, QStringLiteral("clean")},
                        {3, QStringLiteral("rejected"), QStringLiteral("incorrect"), {}}},
                       QStringLiteral("ada"));
    reviewstore::write(c.db(), {{1, QStringLiteral("rejected"), QStringLiteral("slow"), {}}}, QStringLiteral("bob"));
    EXPECT_EQ(c.db().queryText("SELECT review FROM samples WHERE id=1").value_or(""), "rejected");
    EXPECT_EQ(c.db().queryText("SELECT review FROM samples WHERE id=3").value_or(""), "rejected");
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM reviews").value_or(0), 3);
    EXPECT_EQ(c.db().queryText("SELECT reviewer FROM reviews WHERE sample_id=1 ORDER BY id LIMIT 1").value_or(""),
              "ada");
    EXPECT_EQ(c.db().queryText("SELECT note FROM reviews WHERE sample_id=1 ORDER BY id LIMIT 1").value_or(""), "clean");
}

TEST(ReviewStore, UnknownSampleWritesNothing)
{
    test::GuiCorpus corpus;
    Corpus c = Corpus::open(corpus.path.toStdString());
    EXPECT_THROW(
        reviewstore::write(c.db(), {{1, QStringLiteral("accepted"), {}, {}}, {999, QStringLiteral("accepted"), {}, {}}},
                           QStringLiteral("ada")),
        std::runtime_error);
    EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM reviews").value_or(-1), 0);
    EXPECT_EQ(c.db().queryText("SELECT review FROM samples WHERE id=1").value_or(""), "none");
}

TEST(CliCapabilities, ReadsCommandNamesFromTheOverview)
{
    const QString overview = QStringLiteral("Usage: sieve-cli COMMAND\n\nCurate.\n\nCommands:\n"
                                            "  init          create\n  list          list samples\n"
                                            "  verify        verify samples\n\nRun 'sieve-cli COMMAND --help'\n");
    EXPECT_EQ(CliCapabilities::parseOverview(overview),
              (QSet<QString>{QStringLiteral("init"), QStringLiteral("list"), QStringLiteral("verify")}));
}

TEST(CliProcess, ExitCodesHaveNamedMessages)
{
    EXPECT_NE(CliProcess::exitMessage(3, QProcess::NormalExit), CliProcess::exitMessage(1, QProcess::NormalExit));
    EXPECT_TRUE(CliProcess::exitMessage(130, QProcess::NormalExit).contains(QStringLiteral("resumed")));
}

#include "ui/stats/statspage.h"

#include <QTreeWidget>

TEST(StatsPage, RendersEveryKeyWithValuesAndShares)
{
    StatsPage page(nullptr);
    page.showStats(nlohmann::json{{"tasks", 3},
                                  {"samples", 10},
                                  {"pass_at_k", {{"1", 0.25}, {"5", 0.5}}},
                                  {"by_status", {{"PASS", 4}, {"FAIL_COMPILE", 6}}}});
    QTreeWidget *tree = page.tree();
    const auto tasks = tree->findItems(QStringLiteral("Tasks"), Qt::MatchExactly);
    ASSERT_EQ(tasks.size(), 1);
    EXPECT_EQ(tasks.first()->text(1), QStringLiteral("3"));
    const auto byStatus = tree->findItems(QStringLiteral("By status"), Qt::MatchExactly);
    ASSERT_EQ(byStatus.size(), 1);
    ASSERT_EQ(byStatus.first()->childCount(), 2);
    EXPECT_EQ(byStatus.first()->child(1)->text(0), QStringLiteral("PASS"));
    EXPECT_EQ(byStatus.first()->child(1)->text(1), QStringLiteral("4"));
    EXPECT_EQ(byStatus.first()->child(1)->text(2), QStringLiteral("40.0%"));
    QTreeWidgetItem *passAtK = tree->findItems(QStringLiteral("pass@k (share of tasks)"), Qt::MatchExactly).first();
    EXPECT_EQ(passAtK->child(0)->text(1), QStringLiteral("0.25"));
    EXPECT_EQ(passAtK->child(0)->text(2), QString()); // a rate has no share of anything
    EXPECT_EQ(tree->findItems(QStringLiteral("Samples"), Qt::MatchExactly).first()->text(2), QString());
}

TEST(StatsPage, FillsLongListsWhenOpened)
{
    StatsPage page(nullptr);
    nlohmann::json rows = nlohmann::json::array();
    for (int i = 0; i < 3000; ++i)
        rows.push_back({{"task", "t" + std::to_string(i)}, {"samples", i}});
    page.showStats(nlohmann::json{{"per_task", rows}});
    QTreeWidgetItem *perTask = page.tree()->findItems(QStringLiteral("Per task"), Qt::MatchExactly).first();
    EXPECT_EQ(perTask->childCount(), 1); // only the placeholder until opened
    perTask->setExpanded(true);
    ASSERT_EQ(perTask->childCount(), 3000);
    EXPECT_EQ(perTask->child(2)->text(0), QStringLiteral("t2"));
    EXPECT_EQ(perTask->child(2)->child(0)->text(1), QStringLiteral("2")); // keys sort: samples, task
}
