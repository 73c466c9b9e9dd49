#include "ui/verdict/verdictpanel.h"

#include "ui/main/statusstyle.h"
#include "ui/verdict/loglinks.h"

#include <QEvent>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTabWidget>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QUrl>
#include <QVBoxLayout>

#include <nlohmann/json.hpp>

#include <cmath>

namespace sieve::ui {

namespace {
QString number(double v, int precision = 3)
{
    return std::isnan(v) ? QStringLiteral("–") : QString::number(v, 'g', precision);
}

void addJson(QTreeWidgetItem *parent, QTreeWidget *tree, const QString &key, const nlohmann::json &j)
{
    auto *item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(tree);
    item->setText(0, key);
    if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it)
            addJson(item, tree, QString::fromStdString(it.key()), it.value());
        item->setExpanded(true);
    } else if (j.is_array()) {
        int i = 0;
        for (const auto &v : j)
            addJson(item, tree, QString::number(i++), v);
    } else {
        item->setText(1, QString::fromStdString(j.is_string() ? j.get<std::string>() : j.dump()));
    }
}
} // namespace

VerdictPanel::VerdictPanel(QWidget *parent)
    : QWidget(parent), m_status(new QLabel(this)), m_reasons(new QLabel(this)), m_message(new QLabel(this)),
      m_proof(new QLabel(this)), m_tabs(new QTabWidget(this)), m_log(new QTextBrowser(this)),
      m_checks(new QTreeWidget(this)), m_env(new QTreeWidget(this))
{
    setObjectName(QStringLiteral("verdictPanel"));
    m_status->setObjectName(QStringLiteral("verdictStatus"));
    m_reasons->setObjectName(QStringLiteral("verdictReasons"));
    m_message->setObjectName(QStringLiteral("verdictMessage"));
    m_proof->setObjectName(QStringLiteral("verdictProof"));
    m_log->setObjectName(QStringLiteral("verdictLog"));
    m_checks->setObjectName(QStringLiteral("verdictChecks"));
    m_env->setObjectName(QStringLiteral("verdictEnvironment"));
    for (QLabel *l : {m_status, m_reasons, m_message, m_proof}) {
        l->setWordWrap(true);
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }

    m_log->setOpenLinks(false);
    m_log->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    connect(m_log, &QTextBrowser::anchorClicked, this, [this](const QUrl &url) {
        if (url.scheme() == QLatin1String("line"))
            Q_EMIT lineActivated(url.path().toInt());
    });

    m_checks->setRootIsDecorated(false);
    m_checks->setAlternatingRowColors(true);
    m_env->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);

    auto *form = m_form = new QFormLayout;
    form->setContentsMargins(8, 6, 8, 6);
    form->setLabelAlignment(Qt::AlignRight);
    // A label of its own for every row (addRow with an empty text makes none).
    for (QLabel *field : {m_status, m_reasons, m_message, m_proof}) {
        auto *label = new QLabel(this);
        label->setObjectName(field->objectName() + QStringLiteral("Label"));
        label->setBuddy(field);
        form->addRow(label, field);
    }

    m_tabs->setObjectName(QStringLiteral("verdictTabs"));
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_log, QString());
    m_tabs->addTab(m_checks, QString());
    m_tabs->addTab(m_env, QString());
    retranslateUi();

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(form);
    layout->addWidget(m_tabs, 1);
    clear();
}

void VerdictPanel::retranslateUi()
{
    m_checks->setHeaderLabels({tr("Shape"), tr("Seed"), tr("Result"), tr("Max abs. error"), tr("Max rel. error"),
                               tr("Mismatches"), tr("Non-finite")});
    m_env->setHeaderLabels({tr("Key"), tr("Value")});
    const QStringList labels{tr("Status:"), tr("Reasons:"), tr("Message:"), tr("Proof of work:")};
    const QList<QLabel *> fields{m_status, m_reasons, m_message, m_proof};
    for (int i = 0; i < fields.size(); ++i)
        if (auto *label = qobject_cast<QLabel *>(m_form->labelForField(fields.at(i))))
            label->setText(labels.at(i));
    m_tabs->setTabText(0, tr("Log"));
    m_tabs->setTabText(1, tr("Errors per Shape and Seed"));
    m_tabs->setTabText(2, tr("Environment"));
}

void VerdictPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void VerdictPanel::clear()
{
    m_status->setText(tr("Not verified yet."));
    m_reasons->clear();
    m_message->clear();
    m_proof->clear();
    m_log->clear();
    m_checks->clear();
    m_env->clear();
}

void VerdictPanel::showVerdict(const VerdictInfo &v)
{
    clear();
    if (!v.present)
        return;
    QString status = QStringLiteral("<b style='color:%1'>%2</b>").arg(statusColor(v.status).name(), v.status);
    if (!v.stage.isEmpty())
        status += tr(" at stage <i>%1</i>").arg(v.stage);
    QStringList where;
    if (!v.device.isEmpty())
        where << v.device;
    if (v.interpreted)
        where << tr("Triton interpreter");
    if (!std::isnan(v.durationMs))
        where << tr("%1 ms").arg(v.durationMs, 0, 'f', 0);
    if (!where.isEmpty())
        status += QStringLiteral(" <span style='color:#666'>(%1)</span>").arg(where.join(QStringLiteral(", ")));
    m_status->setText(status);
    QStringList codes = v.reasons;
    codes += v.flags;
    m_reasons->setText(codes.isEmpty() ? tr("none") : codes.join(QStringLiteral(", ")));
    m_message->setText(v.message);
    QStringList proof;
    if (v.kernelsLaunched >= 0)
        proof << tr("%n kernel launch(es)", nullptr, int(v.kernelsLaunched));
    // On the CPU there is no GPU time: the share is of the interpreter's run time.
    const bool onCpu = v.interpreted || v.device == QLatin1String("cpu");
    if (!std::isnan(v.customKernelShare))
        proof << (onCpu ? tr("%1% of the run time on the CPU in the sample's own kernels")
                        : tr("%1% of GPU time in the sample's own kernels"))
                     .arg(v.customKernelShare * 100.0, 0, 'f', 0);
    if (!std::isnan(v.speedup))
        proof << tr("speedup %1×").arg(v.speedup, 0, 'f', 2);
    m_proof->setText(proof.isEmpty() ? tr("not measured") : proof.join(QStringLiteral(" · ")));

    m_log->setHtml(logToHtml(v.log));
    for (const CheckRow &c : v.checks) {
        auto *item = new QTreeWidgetItem(m_checks);
        item->setText(0, c.shape.isEmpty() ? QString::number(c.shapeIndex) : c.shape);
        item->setText(1, QString::number(c.seed));
        item->setText(2, c.ok ? tr("ok") : tr("mismatch"));
        item->setForeground(2, c.ok ? statusColor(QStringLiteral("PASS")) : statusColor(QStringLiteral("FAIL")));
        item->setText(3, number(c.maxAbs));
        item->setText(4, number(c.maxRel));
        item->setText(5, QString::number(c.mismatches));
        item->setText(6, QString::number(c.nonfinite));
    }
    for (int col = 0; col < m_checks->columnCount(); ++col)
        m_checks->resizeColumnToContents(col);
    if (!v.verifierVersion.isEmpty())
        addJson(nullptr, m_env, tr("verifier"), nlohmann::json(v.verifierVersion.toStdString()));
    if (!v.envJson.isEmpty()) {
        try {
            const auto env = nlohmann::json::parse(v.envJson.toStdString());
            if (env.is_object())
                for (auto it = env.begin(); it != env.end(); ++it)
                    addJson(nullptr, m_env, QString::fromStdString(it.key()), it.value());
        } catch (const nlohmann::json::exception &e) {
            addJson(nullptr, m_env, tr("unreadable"), nlohmann::json(e.what()));
        }
    }
}

} // namespace sieve::ui
