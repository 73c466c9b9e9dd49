#pragma once
// The GUI tests' fixture: a real main window on a real corpus file (GuiCorpus), found by object name.
#include "tests/gui/guitest.h"

#include "core/db/corpus.h"
#include "ui/main/mainwindow.h"
#include "ui/main/settings.h"
#include "ui/models/samplemodel.h"

#include <QTableView>
#include <QTest>
#include <QTreeView>

#include <memory>

namespace sieve::test {

using namespace sieve::ui;

class Workbench : public ::testing::Test
{
protected:
    void SetUp() override
    {
        settings = std::make_unique<Settings>(dir.filePath(QStringLiteral("settings.ini")));
        settings->reviewer.setValue(QStringLiteral("tester"));
        window = std::make_unique<MainWindow>(*settings);
        window->setErrorHandler([this](const QString &m) { errors << m; });
        window->resize(1500, 900);
        window->show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(window.get()));
        ASSERT_TRUE(window->openCorpus(corpus.path));
        ASSERT_TRUE(waitFor([this] { return taskView()->model()->rowCount() == 3; }));
    }

    template <typename T> T *find(const char *name)
    {
        T *w = window->findChild<T *>(QString::fromLatin1(name));
        EXPECT_NE(w, nullptr) << name;
        return w;
    }
    QTreeView *taskView() { return find<QTreeView>("taskView"); }
    QTableView *sampleView() { return find<QTableView>("sampleView"); }
    SampleModel *samples() { return static_cast<SampleModel *>(sampleView()->model()); }

    void pickTask(const QString &name)
    {
        QAbstractItemModel *m = taskView()->model();
        for (int r = 0; r < m->rowCount(); ++r)
            if (m->index(r, 0).data().toString() == name) {
                taskView()->setFocus();
                taskView()->selectionModel()->setCurrentIndex(m->index(r, 0), QItemSelectionModel::ClearAndSelect |
                                                                                  QItemSelectionModel::Rows);
                return;
            }
        FAIL() << "no task " << name.toStdString();
    }
    void selectRows(const QList<int> &rows)
    {
        sampleView()->setFocus();
        auto *sel = sampleView()->selectionModel();
        sel->clearSelection();
        for (int r : rows)
            sel->select(samples()->index(r, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
        sel->setCurrentIndex(samples()->index(rows.last(), 0), QItemSelectionModel::NoUpdate);
    }
    int rowOfSample(qint64 id) { return samples()->rowOf(id); }
    QString dbValue(const std::string &sql)
    {
        Corpus c = Corpus::open(corpus.path.toStdString(), true);
        return QString::fromStdString(c.db().queryText(sql).value_or("<null>"));
    }
    qint64 dbInt(const std::string &sql)
    {
        Corpus c = Corpus::open(corpus.path.toStdString(), true);
        return c.db().queryInt(sql).value_or(-1);
    }

    QTemporaryDir dir;
    GuiCorpus corpus;
    std::unique_ptr<Settings> settings;
    std::unique_ptr<MainWindow> window;
    QStringList errors;
};

} // namespace sieve::test
