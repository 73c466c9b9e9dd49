#pragma once
// The compiled side of CUDA answers: for each compared sample (A/B/C, as in the code comparison) the
// registers, spills, stack, shared and constant memory of every kernel, and its PTX, SASS and NVRTC log.
// Compiling runs on a pool thread through the NVRTC service (with its disk cache), only while the view
// is shown, so that stepping through Triton samples costs nothing.
#include "ui/compare/cudainspection.h"
#include "ui/data/corpustypes.h"

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QSplitter;
class QTableWidget;
class QTabWidget;

namespace sieve::ui {

class PtxView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PtxView)
public:
    explicit PtxView(QWidget *parent = nullptr);

    void setArch(const QString &arch);
    QString arch() const { return m_arch; }
    void setCacheDir(const QString &dir) { m_cacheDir = dir; }
    void showSamples(const QList<SampleDetail> &samples);
    void clear();
    // True when at least one shown sample holds a CUDA kernel.
    bool hasCuda() const { return m_hasCuda; }
    bool isBusy() const { return m_pending > 0; }
    const QList<CudaInspection> &inspections() const { return m_results; }

Q_SIGNALS:
    void inspected(); // every column is filled

protected:
    void showEvent(QShowEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    struct Column
    {
        QWidget *box = nullptr;
        QLabel *head = nullptr;
        QTableWidget *resources = nullptr;
        QTabWidget *texts = nullptr;
        QPlainTextEdit *ptx = nullptr;
        QPlainTextEdit *sass = nullptr;
        QPlainTextEdit *log = nullptr;
    };
    void retranslateUi();
    void start();
    void fill(int index, const CudaInspection &result);
    Column makeColumn(int index, const SampleDetail &sample);
    void translateColumn(Column &c);
    void updateSummary();

    QLabel *m_summary;
    QSplitter *m_splitter;
    QList<Column> m_columns;
    QList<SampleDetail> m_samples;
    QList<CudaInspection> m_results;
    QString m_arch = QStringLiteral("sm_90");
    QString m_cacheDir;
    quint64 m_job = 0;
    int m_pending = 0;
    bool m_dirty = false;
    bool m_hasCuda = false;
};

} // namespace sieve::ui
