// The workbench as a reviewer uses it (issue 19): every pane labelled, every setting reaching the CLI,
// keys acting on the page shown, filters narrowing what bulk actions touch, the window showing what
// the database holds after a failed write, the export dialog's options and preview, empty states
// that explain themselves, the compare view's limits. Drives the real window by object name.
#include "tests/gui/workbench.h"

#include "ui/clusters/clustermodels.h"
#include "ui/compare/comparisonview.h"
#include "ui/data/corpusqueries.h"
#include "ui/dialogs/exportdialog.h"
#include "ui/dialogs/settingsdialog.h"
#include "ui/editors/codeeditor.h"
#include "ui/main/language.h"
#include "ui/models/taskmodel.h"
#include "ui/panes/detailspane.h"
#include "ui/panes/samplepane.h"
#include "ui/panes/taskpane.h"
#include "ui/review/reviewbar.h"
#include "ui/stats/statspage.h"
#include "ui/verdict/verdictpanel.h"

#include "ui/cli/verifyrunner.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFontMetrics>
#include <QFormLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLibraryInfo>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QTextBrowser>
#include <QToolButton>
#include <QTreeWidget>
#include <QUndoStack>
#include <QUrl>

using namespace sieve;
using namespace sieve::ui;
using test::GuiCorpus;
using test::waitFor;

namespace {
class Reviewer : public test::Workbench
{
};

// Every row of every form under w has a label with text, whose buddy is the row's field.
QStringList unlabelledRows(QWidget *w)
{
    QStringList missing;
    for (QFormLayout *form : w->findChildren<QFormLayout *>())
        for (int r = 0; r < form->rowCount(); ++r) {
            QLayoutItem *field = form->itemAt(r, QFormLayout::FieldRole);
            QLayoutItem *label = form->itemAt(r, QFormLayout::LabelRole);
            const QString name = field && field->widget() ? field->widget()->objectName() : QStringLiteral("?");
            auto *l = label ? qobject_cast<QLabel *>(label->widget()) : nullptr;
            if (!l || l->text().trimmed().isEmpty())
                missing << name;
        }
    return missing;
}
} // namespace

TEST_F(Reviewer, EveryVerdictRowAndEverySettingHasALabel)
{
    pickTask(QStringLiteral("relu"));
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 4; }));
    selectRows({rowOfSample(GuiCorpus::kReluMismatch)});
    ASSERT_TRUE(
        waitFor([&] { return find<QLabel>("verdictStatus")->text().contains(QStringLiteral("FAIL_MISMATCH")); }));
    auto *panel = find<VerdictPanel>("verdictPanel");
    EXPECT_EQ(unlabelledRows(panel), QStringList());
    for (const char *name : {"verdictStatusLabel", "verdictReasonsLabel", "verdictMessageLabel", "verdictProofLabel"})
        EXPECT_FALSE(find<QLabel>(name)->text().isEmpty()) << name;
    EXPECT_EQ(find<QLabel>("verdictStatusLabel")->text(), QStringLiteral("Status:"));
    EXPECT_EQ(find<QLabel>("verdictProofLabel")->buddy(), find<QLabel>("verdictProof"));

    SettingsDialog dialog(*settings, window.get());
    dialog.show();
    EXPECT_EQ(unlabelledRows(&dialog), QStringList());
    EXPECT_GE(dialog.findChildren<QFormLayout *>().size(), 5);
    auto *seedsLabel = dialog.findChild<QLabel *>(QStringLiteral("seedsSpinLabel"));
    ASSERT_NE(seedsLabel, nullptr);
    EXPECT_EQ(seedsLabel->text(), QStringLiteral("Seeds per shape:"));
    EXPECT_EQ(dialog.findChild<QLabel *>(QStringLiteral("budgetSpinLabel"))->text(),
              QStringLiteral("Time budget per sample:"));
    test::screenshot(&dialog, QStringLiteral("12-settings"));
}

TEST_F(Reviewer, VerificationSettingsReachTheCli)
{
    // Set through the settings dialog, as a reviewer does.
    SettingsDialog dialog(*settings, window.get());
    dialog.findChild<QDoubleSpinBox *>(QStringLiteral("atolFp32Spin"))->setValue(0.002);
    dialog.findChild<QDoubleSpinBox *>(QStringLiteral("rtolFp32Spin"))->setValue(0.003);
    dialog.findChild<QDoubleSpinBox *>(QStringLiteral("atolHalfSpin"))->setValue(0.04);
    dialog.findChild<QDoubleSpinBox *>(QStringLiteral("rtolHalfSpin"))->setValue(0.05);
    dialog.findChild<QSpinBox *>(QStringLiteral("seedsSpin"))->setValue(7);
    dialog.findChild<QSpinBox *>(QStringLiteral("maxRunsSpin"))->setValue(50);
    dialog.findChild<QSpinBox *>(QStringLiteral("budgetSpin"))->setValue(500);
    dialog.findChild<QDialogButtonBox *>(QStringLiteral("settingsButtons"))->button(QDialogButtonBox::Apply)->click();

    const QString cli = test::fakeCli(dir, {QStringLiteral("verify")},
                                      QStringLiteral("{\"sample\":4,\"status\":\"PASS\",\"speedup\":1.5}\n"));
    window->setCliProgram(cli);
    auto *verify = window->findChild<QAction *>(QStringLiteral("verifySelectedAction"));
    ASSERT_TRUE(waitFor([&] { return verify->isEnabled(); }));
    pickTask(QStringLiteral("relu"));
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 4; }));
    selectRows({rowOfSample(4)});
    verify->trigger();
    QFile argsFile(dir.filePath(QStringLiteral("fake-cli.out.args")));
    ASSERT_TRUE(waitFor([&] { return argsFile.exists() && argsFile.size() > 0; }));
    ASSERT_TRUE(argsFile.open(QIODevice::ReadOnly));
    const QStringList args = QString::fromUtf8(argsFile.readAll()).trimmed().split(QLatin1Char(' '));
    auto after = [&](const char *flag) {
        const qsizetype i = args.indexOf(QString::fromLatin1(flag));
        return i >= 0 && i + 1 < args.size() ? args.at(i + 1) : QStringLiteral("<missing>");
    };
    EXPECT_EQ(after("--atol-fp32"), QStringLiteral("0.002"));
    EXPECT_EQ(after("--rtol-fp32"), QStringLiteral("0.003"));
    EXPECT_EQ(after("--atol-half"), QStringLiteral("0.04"));
    EXPECT_EQ(after("--rtol-half"), QStringLiteral("0.05"));
    EXPECT_EQ(after("--seeds"), QStringLiteral("7"));
    EXPECT_EQ(after("--timing-max-runs"), QStringLiteral("50"));
    EXPECT_EQ(after("--timing-budget-ms"), QStringLiteral("500"));

    // The real sieve-cli knows these flags: its help lists them and it takes them (no usage error).
    QProcess help;
    help.start(QStringLiteral(SIEVE_CLI_PATH), {QStringLiteral("verify"), QStringLiteral("--help")});
    ASSERT_TRUE(help.waitForFinished(30000));
    const QString helpText = QString::fromUtf8(help.readAllStandardOutput() + help.readAllStandardError());
    for (const char *flag : {"--atol-fp32", "--rtol-fp32", "--atol-half", "--rtol-half", "--seeds", "--timing-max-runs",
                             "--timing-budget-ms"})
        EXPECT_TRUE(helpText.contains(QString::fromLatin1(flag))) << flag;
    QStringList real = VerifyRunner::arguments(corpus.path, {4}, *settings);
    real[1] = dir.filePath(QStringLiteral("copy.sieve"));
    ASSERT_TRUE(QFile::copy(corpus.path, real[1]));
    real << QStringLiteral("--python") << dir.filePath(QStringLiteral("no-such-python"));
    if (!real.contains(QStringLiteral("--cpu")))
        real << QStringLiteral("--cpu");
    QProcess run;
    run.start(QStringLiteral(SIEVE_CLI_PATH), real);
    ASSERT_TRUE(run.waitForFinished(60000));
    const QString err = QString::fromUtf8(run.readAllStandardError());
    EXPECT_NE(run.exitCode(), 2) << err.toStdString(); // 2: usage
    EXPECT_FALSE(err.contains(QStringLiteral("unknown option"))) << err.toStdString();
}

TEST_F(Reviewer, ReviewKeysActOnlyOnTheReviewPage)
{
    pickTask(QStringLiteral("relu"));
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 4; }));
    selectRows({rowOfSample(GuiCorpus::kReluFast)});
    window->pages()->setCurrentIndex(MainWindow::ClustersPage);
    auto *members = find<QTableView>("clusterMemberView");
    ASSERT_TRUE(waitFor([&] { return members->model()->rowCount() == 2; }));
    members->setFocus();
    members->selectRow(0);
    QTest::keyClick(members, Qt::Key_A);
    QTest::keyClick(members, Qt::Key_R);
    QTest::keyClick(members, Qt::Key_2);
    QTest::qWait(200);
    EXPECT_FALSE(window->findChild<QAction *>(QStringLiteral("acceptAction"))->isEnabled());
    EXPECT_EQ(dbInt("SELECT count(*) FROM reviews"), 0);
    EXPECT_EQ(dbValue("SELECT review FROM samples WHERE id=1"), QStringLiteral("none"));
    EXPECT_EQ(find<QComboBox>("reasonCombo")->currentIndex(), 0);

    // Back on the Review page the same key decides on the sample selected there.
    window->pages()->setCurrentIndex(MainWindow::ReviewPage);
    EXPECT_TRUE(window->findChild<QAction *>(QStringLiteral("acceptAction"))->isEnabled());
    sampleView()->setFocus();
    QTest::keyClick(sampleView(), Qt::Key_A);
    ASSERT_TRUE(
        waitFor([&] { return dbValue("SELECT review FROM samples WHERE id=1") == QStringLiteral("accepted"); }));
}

TEST_F(Reviewer, TaskFiltersNarrowTheSampleTableAndWhatBulkActionsTouch)
{
    ASSERT_TRUE(waitFor([this] { return samples()->totalCount() == 9; }));
    auto *category = find<QComboBox>("categoryFilter");
    ASSERT_GT(category->findData(QStringLiteral("gemm")), 0);
    category->setCurrentIndex(category->findData(QStringLiteral("gemm")));
    ASSERT_TRUE(waitFor([this] { return samples()->totalCount() == 3 && samples()->rowCount() == 3; }));
    for (int r = 0; r < 3; ++r)
        EXPECT_EQ(samples()->index(r, 0).data(SampleModel::TaskIdRole).toLongLong(), GuiCorpus::kMatmul);
    test::screenshot(window.get(), QStringLiteral("13-task-filter"));

    // "On the filter" means the category too: only matmul_bias's three samples are rejected.
    qint64 asked = -1;
    static_cast<ReviewBar *>(find<QWidget>("reviewBar"))->setConfirmBulk([&](const BulkPlan &plan) {
        asked = plan.total;
        return BulkChoice::All;
    });
    window->findChild<QAction *>(QStringLiteral("rejectMatchingAction"))->trigger();
    ASSERT_TRUE(waitFor([&] { return dbInt("SELECT count(*) FROM samples WHERE review='rejected'") == 3; }));
    EXPECT_EQ(asked, 3);
    EXPECT_EQ(dbInt("SELECT count(*) FROM samples WHERE review='rejected' AND task_id=2"), 3);

    // A filter that matches no task shows no samples (not all of them).
    find<QLineEdit>("taskSearch")->setText(QStringLiteral("no-such-task"));
    ASSERT_TRUE(waitFor([this] { return samples()->totalCount() == 0; }));
    find<QLineEdit>("taskSearch")->clear();
    category->setCurrentIndex(0);
    ASSERT_TRUE(waitFor([this] { return samples()->totalCount() == 9; }));

    // The state filter narrows the samples too: every task has a PASS, none is unsolved.
    auto *state = find<QComboBox>("stateFilter");
    state->setCurrentIndex(state->findData(QStringLiteral("unsolved")));
    ASSERT_TRUE(waitFor([this] { return taskView()->model()->rowCount() == 0 && samples()->totalCount() == 0; }));
    state->setCurrentIndex(state->findData(QStringLiteral("solved")));
    ASSERT_TRUE(waitFor([this] { return taskView()->model()->rowCount() == 3 && samples()->totalCount() == 9; }));
}

TEST_F(Reviewer, TaskTooltipCountsAcceptedReviews)
{
    pickTask(QStringLiteral("relu"));
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 4; }));
    selectRows({rowOfSample(GuiCorpus::kReluFast)});
    QTest::keyClick(sampleView(), Qt::Key_A);
    ASSERT_TRUE(
        waitFor([&] { return dbValue("SELECT review FROM samples WHERE id=1") == QStringLiteral("accepted"); }));
    auto tooltip = [&] {
        QAbstractItemModel *m = taskView()->model();
        for (int r = 0; r < m->rowCount(); ++r)
            if (m->index(r, 0).data().toString() == QStringLiteral("relu"))
                return m->index(r, 0).data(Qt::ToolTipRole).toString();
        return QString();
    };
    EXPECT_TRUE(waitFor([&] { return tooltip().contains(QStringLiteral("1 accepted")); })) << tooltip().toStdString();
}

TEST_F(Reviewer, AFailedWriteLeavesTheWindowShowingWhatTheDatabaseHolds)
{
    pickTask(QStringLiteral("matmul_bias"));
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 3; }));
    sampleView()->setFocus();
    sampleView()->selectAll();
    QTest::keyClick(sampleView(), Qt::Key_R);
    QTest::keyClick(sampleView(), Qt::Key_1); // R asks for a reason: incorrect output
    ASSERT_TRUE(
        waitFor([&] { return dbInt("SELECT count(*) FROM samples WHERE task_id=2 AND review='rejected'") == 3; }));

    // The next write fails inside SQLite (a trigger stands in for a full disk or a lost lock).
    {
        Corpus c = Corpus::open(corpus.path.toStdString());
        c.db().exec("CREATE TRIGGER fail_reviews BEFORE INSERT ON reviews BEGIN SELECT RAISE(ABORT, 'disk I/O error "
                    "(test)'); END");
    }
    auto *undo = window->findChild<QUndoStack *>(QStringLiteral("reviewUndoStack"));
    undo->undo();
    ASSERT_TRUE(waitFor([&] { return !errors.isEmpty(); })) << "no error shown";
    EXPECT_TRUE(errors.last().contains(QStringLiteral("disk I/O error (test)"))) << errors.last().toStdString();
    // The database still holds the rejects, and so does the window.
    EXPECT_EQ(dbInt("SELECT count(*) FROM samples WHERE task_id=2 AND review='rejected'"), 3);
    ASSERT_TRUE(waitFor([&] {
        for (int r = 0; r < 3; ++r)
            if (samples()->index(r, 0).data(SampleModel::ReviewRole).toString() != QStringLiteral("rejected"))
                return false;
        return true;
    }));
    EXPECT_EQ(undo->count(), 0); // no step left that would not match the database
}

namespace {
QTreeWidgetItem *child(QTreeWidgetItem *item, const QString &key)
{
    for (int i = 0; item && i < item->childCount(); ++i)
        if (item->child(i)->text(0) == key)
            return item->child(i);
    return nullptr;
}
QTreeWidgetItem *topLevel(QTreeWidget *tree, const QString &key)
{
    const auto found = tree->findItems(key, Qt::MatchExactly);
    return found.isEmpty() ? nullptr : found.first();
}
} // namespace

TEST_F(Reviewer, ExportDialogRunsTheRealCliWithItsOptionsAndPreviewsTheManifest)
{
    // The real sieve-cli, whose manifest is indented JSON over many lines.
    ExportDialog dialog(corpus.path, QStringLiteral(SIEVE_CLI_PATH), window.get());
    EXPECT_TRUE(unlabelledRows(&dialog).isEmpty()) << unlabelledRows(&dialog).join(QLatin1Char(' ')).toStdString();
    const QString out = dir.filePath(QStringLiteral("sft"));
    dialog.findChild<QLineEdit *>(QStringLiteral("exportOutDir"))->setText(out);
    auto *format = dialog.findChild<QComboBox *>(QStringLiteral("exportFormat"));
    auto *reasoning = dialog.findChild<QComboBox *>(QStringLiteral("exportReasoning"));
    EXPECT_EQ(reasoning->currentData().toString(), QStringLiteral("think")); // the CLI's default
    reasoning->setCurrentIndex(reasoning->findData(QStringLiteral("field")));
    auto *pairs = dialog.findChild<QSpinBox *>(QStringLiteral("exportMaxPairs"));
    EXPECT_FALSE(pairs->isEnabled()); // pairs mean something only for the preference formats
    format->setCurrentIndex(format->findData(QStringLiteral("preference")));
    EXPECT_TRUE(pairs->isEnabled());
    format->setCurrentIndex(format->findData(QStringLiteral("prompt-completion")));
    // A text row has no field for reasoning: the dialog moves it into <think> tags, as the CLI would.
    EXPECT_EQ(reasoning->currentData().toString(), QStringLiteral("think"));
    dialog.findChild<QSpinBox *>(QStringLiteral("exportMaxPerTask"))->setValue(1);
    dialog.findChild<QCheckBox *>(QStringLiteral("exportTag_level"))->setChecked(true);
    auto *run = dialog.findChild<QPushButton *>(QStringLiteral("exportRunButton"));
    auto *summary = dialog.findChild<QLabel *>(QStringLiteral("exportSummary"));
    EXPECT_FALSE(run->isEnabled()); // no export before a dry run
    dialog.show();
    dialog.preview();
    ASSERT_TRUE(waitFor([&] { return run->isEnabled(); }, 20000))
        << dialog.findChild<QPlainTextEdit *>(QStringLiteral("exportLog"))->toPlainText().toStdString();
    QTreeWidget *tree = dialog.distribution();
    QTreeWidgetItem *params = topLevel(tree, QStringLiteral("parameters"));
    ASSERT_NE(params, nullptr) << "the multi-line manifest was not read";
    EXPECT_EQ(child(params, QStringLiteral("format"))->text(1), QStringLiteral("prompt-completion"));
    EXPECT_EQ(child(params, QStringLiteral("reasoning"))->text(1), QStringLiteral("think"));
    EXPECT_EQ(child(params, QStringLiteral("max_per_task"))->text(1), QStringLiteral("1"));
    EXPECT_EQ(child(child(params, QStringLiteral("tags")), QStringLiteral("1"))->text(1), QStringLiteral("level"));
    ASSERT_NE(topLevel(tree, QStringLiteral("counts")), nullptr);
    // Three tasks with passing samples, one sample each (max per task 1).
    EXPECT_EQ(child(topLevel(tree, QStringLiteral("selection")), QStringLiteral("samples"))->text(1),
              QStringLiteral("3"));
    EXPECT_TRUE(summary->text().contains(QStringLiteral("from 3 samples of 3 tasks"))) << summary->text().toStdString();
    EXPECT_FALSE(QDir(out).exists()); // a dry run writes nothing
    test::screenshot(&dialog, QStringLiteral("08-export"));

    // A change after the preview makes it stale: no export of options nobody previewed.
    dialog.findChild<QSpinBox *>(QStringLiteral("exportSeed"))->setValue(7);
    EXPECT_FALSE(run->isEnabled());
    dialog.runExport();
    EXPECT_FALSE(QDir(out).exists());
    dialog.preview();
    ASSERT_TRUE(waitFor([&] { return run->isEnabled(); }, 20000));
    dialog.runExport();
    ASSERT_TRUE(waitFor([&] { return summary->text().startsWith(QStringLiteral("Written")); }, 20000))
        << summary->text().toStdString();
    QFile manifest(out + QStringLiteral("/manifest.json"));
    ASSERT_TRUE(manifest.open(QIODevice::ReadOnly));
    const QJsonObject written = QJsonDocument::fromJson(manifest.readAll()).object();
    EXPECT_EQ(written.value(QStringLiteral("parameters")).toObject().value(QStringLiteral("seed")).toInt(), 7);
    EXPECT_EQ(written.value(QStringLiteral("parameters")).toObject().value(QStringLiteral("format")).toString(),
              QStringLiteral("prompt-completion"));
    EXPECT_TRUE(QFile::exists(out + QStringLiteral("/train.jsonl")));
}

TEST_F(Reviewer, ExportDialogNamesTheFieldOfABadOption)
{
    ExportOptions o;
    o.quotas = {QStringLiteral("category=gemm:5"), QStringLiteral("colour=red:2")};
    EXPECT_TRUE(ExportDialog::problem(o).contains(QStringLiteral("colour=red:2")));
    o.quotas = {QStringLiteral("level=*:20")};
    EXPECT_TRUE(ExportDialog::problem(o).isEmpty());
    o.format = QStringLiteral("preference-text");
    o.reasoning = QStringLiteral("field");
    EXPECT_TRUE(ExportDialog::problem(o).startsWith(QStringLiteral("Reasoning:")));
    o.reasoning = QStringLiteral("none");
    o.minSpeedup = 1.5;
    o.hostileNegatives = true;
    const QString pairArgs =
        ExportDialog::arguments(QStringLiteral("c.sieve"), QStringLiteral("out"), o, true).join(QLatin1Char(' '));
    EXPECT_TRUE(pairArgs.contains(QStringLiteral("--min-speedup 1.5 --max-pairs-per-task 4 --hostile-negatives")))
        << pairArgs.toStdString();
    o = ExportOptions{};
    o.quotas = {QStringLiteral("level=*:20")};
    o.maxTokens = 4096;
    EXPECT_TRUE(ExportDialog::problem(o).startsWith(QStringLiteral("Tokenizer:")));
    o.tokenizer = QStringLiteral("/models/tokenizer.json");
    EXPECT_TRUE(ExportDialog::problem(o).isEmpty());
    const QStringList args = ExportDialog::arguments(QStringLiteral("c.sieve"), QStringLiteral("out"), o, false);
    EXPECT_EQ(args.mid(0, 3),
              (QStringList{QStringLiteral("export"), QStringLiteral("c.sieve"), QStringLiteral("out")}));
    EXPECT_TRUE(
        args.join(QLatin1Char(' '))
            .contains(QStringLiteral("--quota level=*:20 --max-tokens 4096 --tokenizer /models/tokenizer.json")))
        << args.join(QLatin1Char(' ')).toStdString();
    EXPECT_FALSE(args.contains(QStringLiteral("--dry-run")));
    // A warning line before the manifest does not hide it.
    EXPECT_EQ(ExportDialog::manifestOf(QStringLiteral("warning: x\n{\n  \"counts\": {}\n}\n")).keys(),
              QStringList{QStringLiteral("counts")});
    EXPECT_TRUE(ExportDialog::manifestOf(QStringLiteral("no json")).isEmpty());

    ExportDialog dialog(corpus.path, QStringLiteral(SIEVE_CLI_PATH), window.get());
    dialog.findChild<QLineEdit *>(QStringLiteral("exportOutDir"))->setText(dir.filePath(QStringLiteral("sft")));
    dialog.findChild<QLineEdit *>(QStringLiteral("exportQuotas"))->setText(QStringLiteral("category gemm 5"));
    dialog.preview();
    EXPECT_TRUE(
        dialog.findChild<QLabel *>(QStringLiteral("exportState"))->text().startsWith(QStringLiteral("Quotas:")));
}

TEST_F(Reviewer, GermanReachesQtsOwnDialogButtons)
{
    // Qt's own strings (standard buttons) come from Qt's translations (qt6-translations-l10n).
    SettingsDialog dialog(*settings, window.get());
    auto *box = dialog.findChild<QDialogButtonBox *>(QStringLiteral("settingsButtons"));
    ASSERT_NE(box, nullptr);
    QAbstractButton *cancel = box->button(QDialogButtonBox::Cancel);
    ASSERT_NE(cancel, nullptr);
    EXPECT_EQ(cancel->text().remove(QLatin1Char('&')), QStringLiteral("Cancel"));
    ASSERT_EQ(language::install(*qApp, QStringLiteral("de")), QStringLiteral("de"));
    EXPECT_TRUE(waitFor([&] { return cancel->text().remove(QLatin1Char('&')) == QStringLiteral("Abbrechen"); }))
        << cancel->text().toStdString() << " (is qtbase_de.qm installed in "
        << QLibraryInfo::path(QLibraryInfo::TranslationsPath).toStdString() << "?)";
    test::screenshot(&dialog, QStringLiteral("14-settings-german"));
    // The sample table's headers and filters fit their German words (they were cut off).
    EXPECT_TRUE(waitFor([&] {
        return samples()->headerData(queries::ColReview, Qt::Horizontal, Qt::DisplayRole).toString() ==
               QStringLiteral("Begutachtung");
    }));
    const QFontMetrics fm(sampleView()->horizontalHeader()->font());
    EXPECT_TRUE(waitFor([&] {
        for (int c = 0; c < samples()->columnCount(); ++c)
            if (sampleView()->columnWidth(c) <
                fm.horizontalAdvance(samples()->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString()))
                return false;
        return true;
    }));
    for (const char *name : {"statusFilter", "reviewFilter"}) {
        auto *combo = find<QComboBox>(name);
        EXPECT_TRUE(waitFor([&] { return combo->width() >= combo->sizeHint().width(); }))
            << name << " " << combo->width() << " < " << combo->sizeHint().width();
    }
    test::screenshot(window.get(), QStringLiteral("20-german-table"));
    // The statistics' figures and the export dialog's options are German too.
    EXPECT_EQ(StatsPage::keyLabel(QStringLiteral("samples_without_answer")), QStringLiteral("Proben ohne Antwort"));
    EXPECT_EQ(StatsPage::keyLabel(QStringLiteral("pass_at_k")), QStringLiteral("pass@k (Anteil der Aufgaben)"));
    ExportDialog exportDialog(corpus.path, QStringLiteral(SIEVE_CLI_PATH), window.get());
    QStringList labels;
    for (QLabel *l : exportDialog.findChildren<QLabel *>())
        labels << l->text();
    EXPECT_TRUE(labels.contains(QStringLiteral("Validierungsanteil:"))) << labels.join(QLatin1Char('|')).toStdString();
    EXPECT_EQ(exportDialog.findChild<QComboBox *>(QStringLiteral("exportFormat"))->itemText(1),
              QStringLiteral("Prompt und Vervollständigung"));
    exportDialog.show();
    test::screenshot(&exportDialog, QStringLiteral("21-export-german"));
    language::install(*qApp, QStringLiteral("en"));
    EXPECT_TRUE(waitFor([&] { return cancel->text().remove(QLatin1Char('&')) == QStringLiteral("Cancel"); }));
}

namespace {
SampleDetail variant(qint64 id, const QString &name, const QString &code)
{
    SampleDetail d;
    d.row.id = id;
    d.row.name = name;
    d.row.status = QStringLiteral("PASS");
    d.row.backend = QStringLiteral("triton");
    d.code = code;
    return d;
}
} // namespace

TEST_F(Reviewer, CompareViewAlignsVariantsBoxesChangedCharactersAndStepsThroughChanges)
{
    const QString a =
        QStringLiteral("import triton\n\n@triton.jit\ndef k(x_ptr, n):\n    pid = tl.program_id(0)\n"
                       "    x = tl.load(x_ptr + pid)\n    tl.store(x_ptr + pid, x * 2)\n\nclass ModelNew:\n    pass\n");
    // B adds a mask (two lines) and changes the factor; the class stays as it is.
    const QString b = QStringLiteral("import triton\n\n@triton.jit\ndef k(x_ptr, n):\n    pid = tl.program_id(0)\n"
                                     "    mask = pid < n\n    other = 0.0\n    x = tl.load(x_ptr + pid, mask=mask)\n"
                                     "    tl.store(x_ptr + pid, x * 3)\n\nclass ModelNew:\n    pass\n");
    auto *view = find<ComparisonView>("comparisonView");
    window->show();
    view->showSamples({variant(101, QStringLiteral("a"), a), variant(102, QStringLiteral("b"), b)});
    ASSERT_EQ(view->editorCount(), 2);
    CodeEditor *ea = view->editor(0), *eb = view->editor(1);
    // "class ModelNew:" is line 8 of A and line 10 of B: on one row.
    EXPECT_EQ(ea->displayRow(8), eb->displayRow(10));
    EXPECT_EQ(ea->displayRow(8), 10);
    EXPECT_EQ(ea->displayRow(0), eb->displayRow(0));
    // The edited store line: only "2" and "3" are boxed.
    bool boxed = false;
    for (const CharRange &r : eb->inlineChanges())
        boxed = boxed || (r.line == 8 && eb->text(8).mid(r.from, r.to - r.from) == QStringLiteral("3"));
    EXPECT_TRUE(boxed);
    // Changes: the mask lines (and the edited load), then the store; Alt+Down steps, wrapping around.
    ASSERT_GE(view->changeRows().size(), 1u);
    auto *next = view->findChild<QToolButton *>(QStringLiteral("nextChangeButton"));
    ASSERT_TRUE(next->isEnabled());
    next->click();
    EXPECT_EQ(view->currentChange(), 0);
    EXPECT_TRUE(view->summaryText().contains(QStringLiteral("change 1 of"))) << view->summaryText().toStdString();
    view->nextChange(false);
    EXPECT_EQ(view->currentChange(), int(view->changeRows().size()) - 1);
    test::screenshot(view, QStringLiteral("15-compare-aligned"));

    // A fourth selected sample is not dropped silently.
    view->showSamples({variant(1, QStringLiteral("a"), a), variant(2, QStringLiteral("b"), b),
                       variant(3, QStringLiteral("c"), a), variant(4, QStringLiteral("d"), b)});
    EXPECT_EQ(view->editorCount(), 3);
    EXPECT_TRUE(view->summaryText().contains(QStringLiteral("1 more selected sample")))
        << view->summaryText().toStdString();
}

TEST_F(Reviewer, VerdictAndTimingFollowTheChosenVariant)
{
    pickTask(QStringLiteral("relu"));
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 4; }));
    selectRows({rowOfSample(GuiCorpus::kReluFast), rowOfSample(GuiCorpus::kReluMismatch)});
    auto *details = find<DetailsPane>("detailsTabs");
    auto *selector = find<QComboBox>("variantSelector");
    ASSERT_TRUE(waitFor([&] { return details->details().size() == 2; }));
    EXPECT_TRUE(selector->isVisible());
    ASSERT_EQ(selector->count(), 2);
    auto *status = find<QLabel>("verdictStatus");
    ASSERT_TRUE(waitFor([&] { return status->text().contains(QStringLiteral("PASS")); }))
        << status->text().toStdString();
    details->showVariant(1);
    EXPECT_TRUE(status->text().contains(QStringLiteral("FAIL_MISMATCH"))) << status->text().toStdString();
    EXPECT_EQ(details->currentVariant(), 1);
    // A log link of B's verdict jumps into B's code.
    auto *log = find<QTextBrowser>("verdictLog");
    Q_EMIT log->anchorClicked(QUrl(QStringLiteral("line:2")));
    EXPECT_EQ(details->comparison()->editor(1)->jumpLine(), 2);
    EXPECT_EQ(details->comparison()->editor(0)->jumpLine(), -1);
    details->setCurrentIndex(DetailsPane::VerdictTab);
    test::screenshot(window.get(), QStringLiteral("16-verdict-of-b"));
}

TEST_F(Reviewer, KeepTheRepresentativeRejectsTheRestOfTheClusterInOneUndoableStep)
{
    window->pages()->setCurrentIndex(MainWindow::ClustersPage);
    auto *members = find<QTableView>("clusterMemberView");
    ASSERT_TRUE(waitFor([&] { return members->model()->rowCount() == 2; }));
    auto *keep = find<QPushButton>("keepRepresentativeButton");
    ASSERT_TRUE(waitFor([&] { return keep->isEnabled(); }));
    test::screenshot(window.get(), QStringLiteral("17-cluster-keep"));
    QTest::mouseClick(keep, Qt::LeftButton);
    // Sample 1 is the duplicate, sample 2 the representative (GuiCorpus).
    ASSERT_TRUE(
        waitFor([&] { return dbValue("SELECT review FROM samples WHERE id=1") == QStringLiteral("rejected"); }));
    EXPECT_EQ(dbValue("SELECT reason FROM reviews WHERE sample_id=1 ORDER BY id DESC LIMIT 1"),
              QStringLiteral("duplicate"));
    EXPECT_TRUE(
        dbValue("SELECT note FROM reviews WHERE sample_id=1 ORDER BY id DESC LIMIT 1").contains(QStringLiteral("#2")));
    EXPECT_NE(dbValue("SELECT review FROM samples WHERE id=2"), QStringLiteral("rejected"));
    // The member table shows it, and one undo step takes it back.
    ASSERT_TRUE(waitFor([&] {
        for (int r = 0; r < members->model()->rowCount(); ++r)
            if (members->model()->index(r, 0).data(ClusterMemberModel::IdRole).toLongLong() == 1)
                return members->model()->index(r, 5).data().toString().contains(QStringLiteral("reject"),
                                                                                Qt::CaseInsensitive);
        return false;
    }));
    auto *undo = window->findChild<QUndoStack *>(QStringLiteral("reviewUndoStack"));
    ASSERT_EQ(undo->count(), 1);
    undo->undo();
    ASSERT_TRUE(
        waitFor([&] { return dbValue("SELECT review FROM samples WHERE id=1") != QStringLiteral("rejected"); }));
    undo->redo();
    ASSERT_TRUE(
        waitFor([&] { return dbValue("SELECT review FROM samples WHERE id=1") == QStringLiteral("rejected"); }));
}

TEST_F(Reviewer, TheSampleTableShowsTheLatestReviewsReviewerAndReason)
{
    pickTask(QStringLiteral("relu"));
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 4; }));
    const int row = rowOfSample(GuiCorpus::kReluMismatch);
    selectRows({row});
    QTest::keyClick(sampleView(), Qt::Key_1); // reason 1: incorrect output
    QTest::keyClick(sampleView(), Qt::Key_R);
    ASSERT_TRUE(
        waitFor([&] { return dbValue("SELECT review FROM samples WHERE id=3") == QStringLiteral("rejected"); }));
    auto cell = [&](int column) {
        return samples()->index(rowOfSample(GuiCorpus::kReluMismatch), column).data().toString();
    };
    EXPECT_EQ(cell(queries::ColReviewer), QStringLiteral("tester"));
    EXPECT_EQ(cell(queries::ColReason), QStringLiteral("Incorrect output"));
    // Read back from the corpus (a fresh page), not only the row the window updated.
    samples()->setQuery(samples()->query());
    ASSERT_TRUE(waitFor([&] { return samples()->rowCount() == 4 && rowOfSample(GuiCorpus::kReluMismatch) >= 0; }));
    EXPECT_EQ(cell(queries::ColReviewer), QStringLiteral("tester"));
    EXPECT_EQ(cell(queries::ColReason), QStringLiteral("Incorrect output"));
    EXPECT_EQ(samples()->headerData(queries::ColReason, Qt::Horizontal, Qt::DisplayRole).toString(),
              QStringLiteral("Reason"));
    // A click on the reason header keeps the order (those columns do not sort).
    const int before = samples()->query().sortColumn;
    sampleView()->horizontalHeader()->setSortIndicator(queries::ColReason, Qt::AscendingOrder);
    EXPECT_EQ(samples()->query().sortColumn, before);
    EXPECT_EQ(sampleView()->horizontalHeader()->sortIndicatorSection(), before);
    test::screenshot(window.get(), QStringLiteral("18-reviewer-reason"));
}

TEST_F(Reviewer, SavedViewsKeepFilterSortAndColumnsAcrossSessions)
{
    auto *pane = find<SamplePane>("samplePane");
    pickTask(QStringLiteral("relu"));
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 4; }));
    // A view: passing samples, fastest first, without the attempt column.
    auto *status = find<QComboBox>("statusFilter");
    status->setCurrentIndex(status->findData(QStringLiteral("PASS")));
    sampleView()->sortByColumn(queries::ColSpeedup, Qt::DescendingOrder);
    pane->setColumnVisible(queries::ColAttempt, false);
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 2; }));
    pane->saveView(QStringLiteral("fastest passing"));
    EXPECT_EQ(pane->savedViewNames(), QStringList{QStringLiteral("fastest passing")});
    test::screenshot(window.get(), QStringLiteral("19-saved-view"));

    // Everything back to the defaults, then the view again.
    status->setCurrentIndex(0);
    sampleView()->sortByColumn(queries::ColId, Qt::AscendingOrder);
    pane->setColumnVisible(queries::ColAttempt, true);
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 4; }));
    ASSERT_TRUE(pane->applyView(QStringLiteral("fastest passing")));
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 2; }));
    EXPECT_EQ(status->currentData().toString(), QStringLiteral("PASS"));
    EXPECT_EQ(samples()->query().sortColumn, int(queries::ColSpeedup));
    EXPECT_EQ(samples()->query().order, Qt::DescendingOrder);
    EXPECT_TRUE(sampleView()->horizontalHeader()->isSectionHidden(queries::ColAttempt));
    EXPECT_EQ(samples()->index(0, 0).data(SampleModel::IdRole).toLongLong(), GuiCorpus::kReluFaster); // 2.10x first
    EXPECT_EQ(find<QComboBox>("savedViews")->currentText(), QStringLiteral("fastest passing"));

    // Kept in the settings: another window (a later session) has it; deleting removes it there too.
    settings->sync();
    Settings again(dir.filePath(QStringLiteral("settings.ini")));
    MainWindow second(again);
    EXPECT_EQ(second.findChild<SamplePane *>(QStringLiteral("samplePane"))->savedViewNames(),
              QStringList{QStringLiteral("fastest passing")});
    pane->deleteView(QStringLiteral("fastest passing"));
    EXPECT_TRUE(pane->savedViewNames().isEmpty());
    EXPECT_EQ(find<QComboBox>("savedViews")->count(), 1);
}

TEST_F(Reviewer, EmptyPanesSayWhatToDo)
{
    // Nothing selected: the code pane says how to fill it, rather than showing blank editors.
    auto *view = find<ComparisonView>("comparisonView");
    view->clear();
    auto *empty = find<QLabel>("compareEmptyLabel");
    EXPECT_FALSE(empty->isHidden());
    EXPECT_TRUE(empty->text().contains(QStringLiteral("Select a sample")));
    pickTask(QStringLiteral("relu"));
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 4; }));
    selectRows({0});
    ASSERT_TRUE(waitFor([&] { return view->editorCount() == 1; }));
    EXPECT_TRUE(empty->isHidden());
    // A corpus whose tasks are still being read says so, not "0 tasks".
    TaskPane pane;
    pane.setLoading(true);
    QStringList texts;
    for (QLabel *l : pane.findChildren<QLabel *>())
        texts << l->text();
    EXPECT_TRUE(texts.contains(QStringLiteral("Reading the corpus's tasks…")))
        << texts.join(QLatin1Char('|')).toStdString();
}

TEST_F(Reviewer, SearchFindsSamplesByTheirCodeAndReasoning)
{
    // Payloads are compressed per row: the search unpacks them in SQLite (sieve_payload_contains).
    auto *code = find<QLineEdit>("codeSearch");
    code->setText(QStringLiteral("TL.MAXIMUM")); // any case; only kReluA's code has it (samples 1, 4, 8)
    ASSERT_TRUE(waitFor([this] { return samples()->totalCount() == 3; })) << samples()->totalCount();
    QList<qint64> ids;
    for (int r = 0; r < samples()->rowCount(); ++r)
        ids << samples()->index(r, 0).data(SampleModel::IdRole).toLongLong();
    std::sort(ids.begin(), ids.end());
    EXPECT_EQ(ids, (QList<qint64>{1, 4, 8}));
    // The reasoning too, and together with the other filters.
    code->setText(QStringLiteral("sample 5."));
    ASSERT_TRUE(waitFor([this] { return samples()->totalCount() == 1 && samples()->rowCount() == 1; }));
    EXPECT_EQ(samples()->index(0, 0).data(SampleModel::IdRole).toLongLong(), 5);
    code->setText(QStringLiteral("tl.maximum"));
    pickTask(QStringLiteral("relu"));
    ASSERT_TRUE(waitFor([this] { return samples()->totalCount() == 2; })) << samples()->totalCount(); // 1 and 4
    code->clear();
    ASSERT_TRUE(waitFor([this] { return samples()->totalCount() == 4; }));
}
