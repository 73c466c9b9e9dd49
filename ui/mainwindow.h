#pragma once
#include <QMainWindow>

namespace sieve::ui {

class MainWindow final : public QMainWindow {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;
    bool openCorpus(const QString &path);
};

} // namespace sieve::ui
