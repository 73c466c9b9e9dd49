#include "ui/compare/ptxview.h"

#include <QEvent>
#include <QFontDatabase>
#include <QHash>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPointer>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QThreadPool>
#include <QVBoxLayout>

namespace sieve::ui {

namespace {
enum ResourceColumn { RName, RRegisters, RSpillStores, RSpillLoads, RStack, RShared, RConstant, RBarriers, RCount };

QString variantTitle(int index, int count, const QString &name)
{
    return count > 1 ? QStringLiteral("%1: %2").arg(QChar(char16_t(u'A' + index))).arg(name) : name;
}

QPlainTextEdit *textPane(const QString &name)
{
    auto *t = new QPlainTextEdit;
    t->setObjectName(name);
    t->setReadOnly(true);
    t->setLineWrapMode(QPlainTextEdit::NoWrap);
    t->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    return t;
}

long value(const CudaKernelInfo &k, int column)
{
    switch (column) {
    case RRegisters:
        return k.registers;
    case RSpillStores:
        return k.spillStores;
    case RSpillLoads:
        return k.spillLoads;
    case RStack:
        return k.stack;
    case RShared:
        return k.shared;
    case RConstant:
        return k.constant;
    case RBarriers:
        return k.barriers;
    }
    return 0;
}
} // namespace

PtxView::PtxView(QWidget *parent)
    : QWidget(parent), m_summary(new QLabel(this)), m_splitter(new QSplitter(Qt::Horizontal, this))
{
    setObjectName(QStringLiteral("ptxView"));
    qRegisterMetaType<CudaInspection>();
    m_summary->setObjectName(QStringLiteral("ptxSummary"));
    m_summary->setContentsMargins(6, 2, 6, 2);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_splitter->setObjectName(QStringLiteral("ptxSplitter"));
    m_splitter->setChildrenCollapsible(false);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_summary);
    layout->addWidget(m_splitter, 1);
    retranslateUi();
}

void PtxView::setArch(const QString &arch)
{
    if (arch.isEmpty() || arch == m_arch)
        return;
    m_arch = arch;
    showSamples(m_samples); // recompile for the new architecture (a cache hit when it was seen before)
}

void PtxView::clear()
{
    ++m_job;
    m_pending = 0;
    for (const Column &c : std::as_const(m_columns))
        delete c.box;
    m_columns.clear();
    m_samples.clear();
    m_results.clear();
    m_hasCuda = false;
    m_dirty = false;
    updateSummary();
}

void PtxView::showSamples(const QList<SampleDetail> &samples)
{
    const QList<SampleDetail> keep = samples; // `samples` may be m_samples itself
    clear();
    m_samples = keep;
    for (const SampleDetail &s : std::as_const(m_samples))
        m_hasCuda = m_hasCuda || cuda::looksLikeCuda(s.code);
    for (int i = 0; i < m_samples.size(); ++i) {
        m_columns << makeColumn(i, m_samples.at(i));
        m_results << CudaInspection{};
    }
    m_dirty = m_hasCuda;
    if (isVisible())
        start();
    updateSummary();
}

void PtxView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_dirty)
        start();
}

void PtxView::start()
{
    m_dirty = false;
    const quint64 job = ++m_job;
    m_pending = 0;
    QPointer<PtxView> guard(this);
    for (int i = 0; i < m_samples.size(); ++i) {
        const SampleDetail &s = m_samples.at(i);
        if (!cuda::looksLikeCuda(s.code)) {
            CudaInspection none;
            none.sampleId = s.row.id;
            none.error = tr("No CUDA kernel in this sample (backend: %1).").arg(s.row.backend);
            fill(i, none);
            continue;
        }
        ++m_pending;
        // NVRTC takes up to a second per unit on a cold cache: never on the GUI thread.
        QThreadPool::globalInstance()->start(
            [guard, job, i, id = s.row.id, code = s.code, name = s.row.name, arch = m_arch, cache = m_cacheDir] {
                CudaInspection result = cuda::inspect(id, code, name, arch, cache);
                QMetaObject::invokeMethod(
                    guard.data(),
                    [guard, job, i, result = std::move(result)] {
                        if (!guard || job != guard->m_job)
                            return;
                        --guard->m_pending;
                        guard->fill(i, result);
                        if (guard->m_pending == 0)
                            Q_EMIT guard->inspected();
                    },
                    Qt::QueuedConnection);
            });
    }
    updateSummary();
    if (m_pending == 0)
        Q_EMIT inspected();
}

PtxView::Column PtxView::makeColumn(int index, const SampleDetail &sample)
{
    Column c;
    c.box = new QWidget;
    m_splitter->addWidget(c.box);
    auto *v = new QVBoxLayout(c.box);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(2);
    c.head = new QLabel(c.box);
    c.head->setObjectName(QStringLiteral("ptxHead%1").arg(index));
    c.head->setContentsMargins(6, 2, 6, 2);
    c.head->setText(
        QStringLiteral("<b>%1</b>").arg(variantTitle(index, int(m_samples.size()), sample.row.name).toHtmlEscaped()));
    v->addWidget(c.head);
    c.resources = new QTableWidget(0, RCount, c.box);
    c.resources->setObjectName(QStringLiteral("ptxResources%1").arg(index));
    c.resources->setEditTriggers(QAbstractItemView::NoEditTriggers);
    c.resources->verticalHeader()->hide();
    c.resources->horizontalHeader()->setStretchLastSection(true);
    c.resources->setWordWrap(false);
    c.resources->setMaximumHeight(150);
    v->addWidget(c.resources);
    c.texts = new QTabWidget(c.box);
    c.texts->setDocumentMode(true);
    c.ptx = textPane(QStringLiteral("ptxText%1").arg(index));
    c.sass = textPane(QStringLiteral("sassText%1").arg(index));
    c.log = textPane(QStringLiteral("ptxLog%1").arg(index));
    c.texts->addTab(c.ptx, QString());
    c.texts->addTab(c.sass, QString());
    c.texts->addTab(c.log, QString());
    v->addWidget(c.texts, 1);
    translateColumn(c);
    return c;
}

void PtxView::translateColumn(Column &c)
{
    c.resources->setHorizontalHeaderLabels({tr("Kernel"), tr("Regs"), tr("Spill st."), tr("Spill ld."), tr("Stack"),
                                            tr("Shared"), tr("Const."), tr("Barriers")});
    const QStringList tips{QString(),
                           tr("Registers per thread"),
                           tr("Bytes spilled to local memory (stores)"),
                           tr("Bytes spilled to local memory (loads)"),
                           tr("Stack frame bytes"),
                           tr("Static shared memory bytes"),
                           tr("Constant bank bytes (parameters, compiler constants)"),
                           tr("Named barriers")};
    for (int col = 0; col < RCount; ++col)
        c.resources->horizontalHeaderItem(col)->setToolTip(tips.at(col));
    c.texts->setTabText(0, tr("PTX"));
    c.texts->setTabText(1, tr("SASS"));
    c.texts->setTabText(2, tr("Log"));
}

void PtxView::fill(int index, const CudaInspection &result)
{
    if (index < 0 || index >= m_columns.size())
        return;
    m_results[index] = result;
    Column &c = m_columns[index];
    const SampleDetail &s = m_samples.at(index);
    QString head =
        QStringLiteral("<b>%1</b>").arg(variantTitle(index, int(m_samples.size()), s.row.name).toHtmlEscaped());
    QString ptx, sass, log;
    c.resources->setRowCount(0);
    if (!result.ok()) {
        head += QStringLiteral("&nbsp;&nbsp;<span style='color:#666'>%1</span>").arg(result.error.toHtmlEscaped());
        ptx = result.error;
    }
    // Column A is the baseline: a figure that differs in B or C is bold, with A's value in the tooltip.
    QHash<QString, CudaKernelInfo> baseline;
    if (index > 0)
        for (const CudaUnitInfo &u : std::as_const(m_results.first().units))
            for (const CudaKernelInfo &k : u.kernels)
                baseline.insert(k.name, k);
    QStringList states;
    for (const CudaUnitInfo &u : result.units) {
        QString state = u.status;
        if (!u.arch.isEmpty())
            state = u.fromCache ? tr("%1 for %2 (cached)").arg(u.status, u.arch)
                                : tr("%1 for %2 in %3 ms").arg(u.status, u.arch).arg(u.millis, 0, 'f', 0);
        states << state;
        const bool several = result.units.size() > 1;
        const QString banner =
            several ? QStringLiteral("// ---- %1 (lines %2-%3) ----\n").arg(u.origin).arg(u.firstLine).arg(u.lastLine)
                    : QString();
        ptx += banner +
               (u.ptx.isEmpty() ? (u.reason.isEmpty() ? tr("No PTX: the unit did not compile.") : u.reason) : u.ptx) +
               QLatin1Char('\n');
        sass += banner +
                (u.sass.isEmpty() ? (u.sassWhy.isEmpty() ? tr("No SASS: there is no CUBIN.") : u.sassWhy) : u.sass) +
                QLatin1Char('\n');
        QString unitLog = u.log;
        if (u.prechecked)
            unitLog.prepend(
                tr("Precheck: host code and torch includes were removed before NVRTC compiled the device code.\n"));
        if (!u.reason.isEmpty())
            unitLog += u.reason + QLatin1Char('\n');
        if (!u.nvrtcVersion.isEmpty())
            unitLog += tr("NVRTC %1, %2; module: %3 bytes __constant__, %4 bytes __device__ globals.\n")
                           .arg(u.nvrtcVersion, u.arch)
                           .arg(u.userConstBytes)
                           .arg(u.globalBytes);
        log += banner + unitLog;
        for (const CudaKernelInfo &k : u.kernels) {
            const int row = c.resources->rowCount();
            c.resources->insertRow(row);
            // The parameter list is in the tooltip: the figures must stay in view in a narrow column.
            auto *name = new QTableWidgetItem(k.name.section(QLatin1Char('('), 0, 0));
            name->setToolTip(k.name);
            c.resources->setItem(row, RName, name);
            const auto base = baseline.constFind(k.name);
            for (int col = RRegisters; col < RCount; ++col) {
                auto *item = new QTableWidgetItem(QString::number(value(k, col)));
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
                if (base != baseline.constEnd() && value(*base, col) != value(k, col)) {
                    QFont f = item->font();
                    f.setBold(true);
                    item->setFont(f);
                    item->setToolTip(tr("A: %1").arg(value(*base, col)));
                    item->setForeground(QColor(0xb0, 0x50, 0x00));
                }
                c.resources->setItem(row, col, item);
            }
        }
    }
    if (!states.isEmpty())
        head += QStringLiteral("&nbsp;&nbsp;<span style='color:#666'>%1</span>")
                    .arg(states.join(QStringLiteral("; ")).toHtmlEscaped());
    c.head->setText(head);
    c.ptx->setPlainText(ptx);
    c.sass->setPlainText(sass);
    c.log->setPlainText(log);
    c.resources->resizeColumnsToContents();
    c.resources->setColumnWidth(RName, std::min(c.resources->columnWidth(RName), 180));
    // B and C are marked against A: when A arrives last, mark them now.
    if (index == 0)
        for (int i = 1; i < m_results.size(); ++i)
            if (m_results.at(i).sampleId >= 0)
                fill(i, m_results.at(i));
    updateSummary();
}

void PtxView::updateSummary()
{
    if (m_samples.isEmpty())
        m_summary->setText(tr("Select one to three samples of a task to see what NVRTC makes of their CUDA."));
    else if (!m_hasCuda)
        m_summary->setText(tr("None of the selected samples holds a CUDA kernel."));
    else if (m_pending > 0)
        m_summary->setText(tr("Compiling for %1 with NVRTC…").arg(m_arch));
    else
        m_summary->setText(tr("Compiled for %1 with NVRTC; figures per kernel from ptxas (bytes). "
                              "Bold: differs from A.")
                               .arg(m_arch));
}

void PtxView::retranslateUi()
{
    for (int i = 0; i < m_columns.size(); ++i) {
        translateColumn(m_columns[i]);
        if (m_results.at(i).sampleId >= 0)
            fill(i, m_results.at(i));
    }
    updateSummary();
}

void PtxView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

} // namespace sieve::ui
