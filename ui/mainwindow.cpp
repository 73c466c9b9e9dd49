#include "mainwindow.h"

#include "corpus.h"

#include <QLabel>
#include <QMessageBox>

namespace sieve::ui {

MainWindow::MainWindow(QWidget *parent) : QMainWindow(parent)
{
    setObjectName(QStringLiteral("MainWindow"));
    setWindowTitle(tr("Sieve"));
    resize(1280, 800);
}

MainWindow::~MainWindow() = default;

bool MainWindow::openCorpus(const QString &path)
{
    try {
        Corpus c = Corpus::open(path.toStdString(), true);
        const auto samples = c.db().queryInt("SELECT count(*) FROM samples").value_or(0);
        setCentralWidget(new QLabel(tr("%1: %n sample(s)", nullptr, int(samples)).arg(path), this));
        setWindowTitle(tr("Sieve — %1").arg(path));
        return true;
    } catch (const std::exception &e) {
        QMessageBox::critical(this, tr("Cannot open corpus"), QString::fromStdString(e.what()));
        return false;
    }
}

} // namespace sieve::ui
