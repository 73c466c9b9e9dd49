#include "ui/dialogs/exportdialog.h"

#include "ui/cli/cliprocess.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace sieve::ui {

namespace {
const char *const kTags[] = {"backend", "target", "dtype", "shapes", "difficulty", "level", "category"};

void addJson(QTreeWidget *tree, QTreeWidgetItem *parent, const QString &key, const QJsonValue &v)
{
    auto *item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(tree);
    item->setText(0, key);
    if (v.isObject()) {
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            addJson(tree, item, it.key(), it.value());
        item->setExpanded(true);
    } else if (v.isArray()) {
        const QJsonArray a = v.toArray();
        item->setText(1, a.isEmpty() ? ExportDialog::tr("none") : QString());
        for (qsizetype i = 0; i < a.size(); ++i)
            addJson(tree, item, QString::number(i + 1), a.at(i));
    } else {
        item->setText(1, v.isNull() ? ExportDialog::tr("not set") : v.toVariant().toString());
    }
}

QComboBox *combo(const char *name, const QList<std::pair<QString, QString>> &items)
{
    auto *c = new QComboBox;
    c->setObjectName(QString::fromLatin1(name));
    for (const auto &[data, text] : items)
        c->addItem(text, data);
    c->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    return c;
}

QStringList words(const QString &text)
{
    return text.split(QRegularExpression(QStringLiteral("[\\s,;]+")), Qt::SkipEmptyParts);
}
} // namespace

ExportDialog::ExportDialog(const QString &corpus, const QString &cliProgram, QWidget *parent)
    : QDialog(parent), m_corpus(corpus), m_process(new CliProcess(this)), m_outDir(new QLineEdit),
      m_format(combo("exportFormat",
                     {{QStringLiteral("messages"), tr("Chat messages (system, user, assistant)")},
                      {QStringLiteral("prompt-completion"), tr("Prompt and completion")},
                      {QStringLiteral("chat-prompt-completion"), tr("Conversational prompt and completion (TRL)")},
                      {QStringLiteral("preference"), tr("Preference pairs as messages (DPO)")},
                      {QStringLiteral("preference-text"), tr("Preference pairs as text")}})),
      m_reasoning(combo("exportReasoning", {{QStringLiteral("think"), tr("In <think> tags before the answer")},
                                            {QStringLiteral("field"), tr("In its own field (reasoning_content)")},
                                            {QStringLiteral("none"), tr("Left out")}})),
      m_split(new QDoubleSpinBox),
      m_require(combo("exportRequire", {{QStringLiteral("passed"), tr("Passed the verifier, not rejected")},
                                        {QStringLiteral("accepted"), tr("Accepted by a reviewer")},
                                        {QStringLiteral("passed-and-accepted"), tr("Passed and accepted")}})),
      m_allInCluster(new QCheckBox(tr("keep every member of a cluster"))), m_maxPerTask(new QSpinBox),
      m_minSpeedup(new QDoubleSpinBox), m_maxPairs(new QSpinBox),
      m_hostileNegatives(new QCheckBox(tr("keep sandbox, sham and harness-patching failures as rejected answers"))),
      m_easyFraction(new QDoubleSpinBox), m_quotas(new QLineEdit), m_maxTokens(new QSpinBox),
      m_tokenizer(new QLineEdit), m_seed(new QSpinBox), m_preview(new QPushButton(tr("&Preview"))),
      m_export(new QPushButton(tr("&Export"))), m_summary(new QLabel), m_tree(new QTreeWidget),
      m_log(new QPlainTextEdit), m_state(new QLabel)
{
    setObjectName(QStringLiteral("exportDialog"));
    setWindowTitle(tr("Export SFT Data"));
    m_process->setProgram(cliProgram);
    m_outDir->setObjectName(QStringLiteral("exportOutDir"));
    m_split->setObjectName(QStringLiteral("exportSplit"));
    m_split->setRange(0.0, 0.9);
    m_split->setSingleStep(0.05);
    m_split->setValue(0.2);
    m_split->setToolTip(
        tr("The fraction of tasks held out for validation: by task, never by sample, stratified by difficulty."));
    m_allInCluster->setObjectName(QStringLiteral("exportAllInCluster"));
    m_maxPerTask->setObjectName(QStringLiteral("exportMaxPerTask"));
    m_maxPerTask->setRange(0, 100000);
    m_maxPerTask->setSpecialValueText(tr("no limit"));
    m_maxPerTask->setToolTip(tr("Accepted, passing, fastest and earliest samples are kept first."));
    m_minSpeedup->setObjectName(QStringLiteral("exportMinSpeedup"));
    m_minSpeedup->setRange(0.0, 1000.0);
    m_minSpeedup->setSingleStep(0.1);
    m_minSpeedup->setSpecialValueText(tr("no bar"));
    m_minSpeedup->setSuffix(QStringLiteral("×"));
    m_minSpeedup->setToolTip(tr("Keep samples at least this many times faster than eager PyTorch (GPU timings; "
                                "samples without them are left out)."));
    m_maxPairs->setObjectName(QStringLiteral("exportMaxPairs"));
    m_maxPairs->setRange(0, 100000);
    m_maxPairs->setValue(4);
    m_maxPairs->setSpecialValueText(tr("no cap"));
    m_hostileNegatives->setObjectName(QStringLiteral("exportHostileNegatives"));
    m_easyFraction->setObjectName(QStringLiteral("exportEasyFraction"));
    m_easyFraction->setRange(0.0, 1.0);
    m_easyFraction->setSingleStep(0.1);
    m_easyFraction->setValue(1.0);
    m_easyFraction->setToolTip(tr("Every hard task, and this fraction of the easy tasks, drawn with the seed."));
    m_quotas->setObjectName(QStringLiteral("exportQuotas"));
    m_quotas->setPlaceholderText(tr("e.g. category=gemm:50 level=*:200"));
    m_quotas->setToolTip(tr("At most N tasks per category or level value (F=V:N, V may be *), separated by spaces."));
    m_maxTokens->setObjectName(QStringLiteral("exportMaxTokens"));
    m_maxTokens->setRange(0, 10'000'000);
    m_maxTokens->setSingleStep(1024);
    m_maxTokens->setSpecialValueText(tr("no budget"));
    m_maxTokens->setToolTip(tr("Rows over this many tokens are left out and listed in the manifest."));
    m_tokenizer->setObjectName(QStringLiteral("exportTokenizer"));
    m_tokenizer->setPlaceholderText(tr("tokenizer.json of the model to train"));
    m_seed->setObjectName(QStringLiteral("exportSeed"));
    m_seed->setRange(0, std::numeric_limits<int>::max());
    m_preview->setObjectName(QStringLiteral("exportPreviewButton"));
    m_export->setObjectName(QStringLiteral("exportRunButton"));
    m_summary->setObjectName(QStringLiteral("exportSummary"));
    m_summary->setWordWrap(true);
    m_summary->setText(tr("Preview to see how many rows the export will have."));
    m_tree->setObjectName(QStringLiteral("exportDistribution"));
    m_tree->setHeaderLabels({tr("Figure"), tr("Value")});
    m_log->setObjectName(QStringLiteral("exportLog"));
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(2000);
    m_log->setPlaceholderText(tr("Messages from sieve-cli appear here."));
    m_state->setObjectName(QStringLiteral("exportState"));
    m_export->setEnabled(false);

    auto browseRow = [this](QLineEdit *edit, bool folder) {
        auto *row = new QHBoxLayout;
        auto *browse = new QPushButton(tr("Browse…"));
        connect(browse, &QPushButton::clicked, this, [this, edit, folder] {
            const QString path =
                folder ? QFileDialog::getExistingDirectory(this, tr("Export Into"), edit->text())
                       : QFileDialog::getOpenFileName(this, tr("Tokenizer"), edit->text(), tr("Tokenizer (*.json)"));
            if (!path.isEmpty())
                edit->setText(path);
        });
        row->addWidget(edit, 1);
        row->addWidget(browse);
        return row;
    };
    auto *tagRow = new QHBoxLayout;
    for (const char *t : kTags) {
        auto *box = new QCheckBox(QString::fromLatin1(t));
        box->setObjectName(QStringLiteral("exportTag_") + QString::fromLatin1(t));
        connect(box, &QCheckBox::toggled, this, &ExportDialog::invalidate);
        tagRow->addWidget(box);
        m_tags << box;
    }
    tagRow->addStretch(1);

    // Any change makes the preview stale: the export runs only with what was previewed.
    for (QLineEdit *e : {m_outDir, m_quotas, m_tokenizer})
        connect(e, &QLineEdit::textChanged, this, &ExportDialog::invalidate);
    for (QComboBox *c : {m_format, m_reasoning, m_require})
        connect(c, &QComboBox::currentIndexChanged, this, &ExportDialog::invalidate);
    for (QDoubleSpinBox *s : {m_split, m_easyFraction})
        connect(s, &QDoubleSpinBox::valueChanged, this, &ExportDialog::invalidate);
    for (QDoubleSpinBox *s : {m_minSpeedup})
        connect(s, &QDoubleSpinBox::valueChanged, this, &ExportDialog::invalidate);
    for (QSpinBox *s : {m_maxPerTask, m_maxTokens, m_seed, m_maxPairs})
        connect(s, &QSpinBox::valueChanged, this, &ExportDialog::invalidate);
    for (QCheckBox *c : {m_allInCluster, m_hostileNegatives})
        connect(c, &QCheckBox::toggled, this, &ExportDialog::invalidate);
    connect(m_maxTokens, &QSpinBox::valueChanged, this, [this](int v) { m_tokenizer->setEnabled(v > 0); });
    // A prompt-completion row is one text: reasoning can only go into it (<think>) or be left out.
    // Pairs options only mean something for the preference formats.
    auto formatChanged = [this] {
        const QString f = m_format->currentData().toString();
        const bool pairs = f.startsWith(QLatin1String("preference"));
        m_maxPairs->setEnabled(pairs);
        m_hostileNegatives->setEnabled(pairs);
    };
    connect(m_format, &QComboBox::currentIndexChanged, this, formatChanged);
    formatChanged();
    connect(m_format, &QComboBox::currentIndexChanged, this, [this] {
        const QString f = m_format->currentData().toString();
        const bool text = f == QLatin1String("prompt-completion") || f == QLatin1String("preference-text");
        auto *items = qobject_cast<QStandardItemModel *>(m_reasoning->model());
        const int field = m_reasoning->findData(QStringLiteral("field"));
        if (items && field >= 0)
            items->item(field)->setEnabled(!text);
        if (text && m_reasoning->currentIndex() == field)
            m_reasoning->setCurrentIndex(m_reasoning->findData(QStringLiteral("think")));
    });
    m_tokenizer->setEnabled(false);

    connect(m_preview, &QPushButton::clicked, this, &ExportDialog::preview);
    connect(m_export, &QPushButton::clicked, this, &ExportDialog::runExport);
    // stdout is the manifest (shown as the tree); the log gets sieve-cli's messages (stderr)
    connect(m_process, &CliProcess::finished, this, [this](int code, const QString &message) {
        setBusy(false);
        const QString err = m_process->stderrText().trimmed();
        if (!err.isEmpty())
            m_log->appendPlainText(err);
        m_state->setText(message);
        if (code != 0) {
            m_summary->setText(tr("sieve-cli export failed: see the messages below."));
            return;
        }
        showResult(m_process->stdoutText());
        if (m_dryRun) {
            m_previewed = true;
            m_export->setEnabled(true);
        }
    });

    auto *output = new QFormLayout;
    output->addRow(tr("Output folder:"), browseRow(m_outDir, true));
    output->addRow(tr("Format:"), m_format);
    output->addRow(tr("Reasoning:"), m_reasoning);
    output->addRow(tr("Validation share:"), m_split);
    output->addRow(tr("Prompt tags:"), tagRow);
    output->addRow(tr("Token budget per row:"), m_maxTokens);
    output->addRow(tr("Tokenizer:"), browseRow(m_tokenizer, false));
    output->addRow(tr("Pairs per task:"), m_maxPairs);
    output->addRow(tr("Negatives:"), m_hostileNegatives);
    auto *selection = new QFormLayout;
    selection->addRow(tr("Samples that:"), m_require);
    selection->addRow(tr("Duplicates:"), m_allInCluster);
    selection->addRow(tr("Samples per task:"), m_maxPerTask);
    selection->addRow(tr("Speedup at least:"), m_minSpeedup);
    selection->addRow(tr("Share of easy tasks:"), m_easyFraction);
    selection->addRow(tr("Quotas:"), m_quotas);
    selection->addRow(tr("Seed:"), m_seed);
    auto *forms = new QHBoxLayout;
    forms->addLayout(output, 1);
    forms->addLayout(selection, 1);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    buttons->setObjectName(QStringLiteral("exportButtons"));
    buttons->addButton(m_preview, QDialogButtonBox::ActionRole);
    buttons->addButton(m_export, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(forms);
    layout->addWidget(new QLabel(tr("What the export will contain (from a dry run):")));
    layout->addWidget(m_summary);
    layout->addWidget(m_tree, 2);
    layout->addWidget(m_log, 1);
    layout->addWidget(m_state);
    layout->addWidget(buttons);
    resize(900, 680);
}

ExportOptions ExportDialog::options() const
{
    ExportOptions o;
    o.format = m_format->currentData().toString();
    o.reasoning = m_reasoning->currentData().toString();
    o.validationFraction = m_split->value();
    o.require = m_require->currentData().toString();
    o.allInCluster = m_allInCluster->isChecked();
    o.maxPerTask = m_maxPerTask->value();
    o.minSpeedup = m_minSpeedup->value();
    o.maxPairsPerTask = m_maxPairs->value();
    o.hostileNegatives = m_hostileNegatives->isChecked();
    o.easyFraction = m_easyFraction->value();
    o.quotas = words(m_quotas->text());
    o.maxTokens = m_maxTokens->value();
    o.tokenizer = m_tokenizer->text().trimmed();
    for (QCheckBox *box : m_tags)
        if (box->isChecked())
            o.tags << box->text();
    o.seed = m_seed->value();
    return o;
}

QStringList ExportDialog::arguments(const QString &corpus, const QString &outDir, const ExportOptions &o, bool dryRun)
{
    QStringList args{QStringLiteral("export"), corpus, outDir, QStringLiteral("--json")};
    args << QStringLiteral("--format") << o.format << QStringLiteral("--reasoning") << o.reasoning
         << QStringLiteral("--split") << QString::number(o.validationFraction) << QStringLiteral("--require")
         << o.require << QStringLiteral("--seed") << QString::number(o.seed);
    if (o.allInCluster)
        args << QStringLiteral("--all-in-cluster");
    if (o.maxPerTask > 0)
        args << QStringLiteral("--max-per-task") << QString::number(o.maxPerTask);
    if (o.minSpeedup > 0)
        args << QStringLiteral("--min-speedup") << QString::number(o.minSpeedup);
    if (o.format.startsWith(QLatin1String("preference"))) {
        args << QStringLiteral("--max-pairs-per-task") << QString::number(o.maxPairsPerTask);
        if (o.hostileNegatives)
            args << QStringLiteral("--hostile-negatives");
    }
    if (o.easyFraction < 1.0)
        args << QStringLiteral("--easy-fraction") << QString::number(o.easyFraction);
    for (const QString &q : o.quotas)
        args << QStringLiteral("--quota") << q;
    if (o.maxTokens > 0)
        args << QStringLiteral("--max-tokens") << QString::number(o.maxTokens) << QStringLiteral("--tokenizer")
             << o.tokenizer;
    if (!o.tags.isEmpty())
        args << QStringLiteral("--tags") << o.tags.join(QLatin1Char(','));
    if (dryRun)
        args << QStringLiteral("--dry-run");
    return args;
}

QString ExportDialog::problem(const ExportOptions &o)
{
    static const QRegularExpression quota(QStringLiteral("^(category|level)=[^:=]+:[0-9]+$"));
    for (const QString &q : o.quotas)
        if (!quota.match(q).hasMatch())
            return tr("Quotas: \"%1\" is not F=V:N (F is category or level, N a number of tasks).").arg(q);
    const bool text = o.format == QLatin1String("prompt-completion") || o.format == QLatin1String("preference-text");
    if (text && o.reasoning == QLatin1String("field"))
        return tr("Reasoning: a text format has no field for it; choose <think> tags or none.");
    if (o.maxTokens > 0 && o.tokenizer.isEmpty())
        return tr("Tokenizer: a token budget needs the tokenizer.json that counts the tokens.");
    return {};
}

QJsonObject ExportDialog::manifestOf(const QString &output)
{
    // The CLI prints the manifest as indented JSON; lines before it (a warning) are skipped.
    const QByteArray bytes = output.toUtf8();
    qsizetype from = 0;
    while (from >= 0 && from < bytes.size()) {
        const QJsonDocument doc = QJsonDocument::fromJson(bytes.mid(from));
        if (doc.isObject())
            return doc.object();
        const qsizetype next = bytes.indexOf("\n{", from);
        from = next < 0 ? -1 : next + 1;
    }
    return {};
}

void ExportDialog::invalidate()
{
    m_previewed = false;
    m_export->setEnabled(false);
}

void ExportDialog::setBusy(bool busy)
{
    m_preview->setEnabled(!busy);
    m_export->setEnabled(!busy && m_previewed);
}

void ExportDialog::preview()
{
    if (m_outDir->text().isEmpty()) {
        m_state->setText(tr("Choose an output folder first."));
        return;
    }
    const ExportOptions o = options();
    if (const QString why = problem(o); !why.isEmpty()) {
        m_state->setText(why);
        return;
    }
    m_dryRun = true;
    m_tree->clear();
    m_state->setText(tr("Running a dry run…"));
    setBusy(true);
    m_process->start(arguments(m_corpus, m_outDir->text(), o, true));
}

void ExportDialog::runExport()
{
    if (!m_previewed)
        return;
    m_dryRun = false;
    m_state->setText(tr("Exporting…"));
    setBusy(true);
    m_process->start(arguments(m_corpus, m_outDir->text(), options(), false));
}

void ExportDialog::showResult(const QString &output)
{
    m_tree->clear();
    const QJsonObject manifest = manifestOf(output);
    if (manifest.isEmpty()) {
        m_summary->setText(tr("sieve-cli printed no manifest: see the messages below."));
        m_log->appendPlainText(output);
        return;
    }
    const QJsonObject counts = manifest.value(QStringLiteral("counts")).toObject();
    const QJsonObject selection = manifest.value(QStringLiteral("selection")).toObject();
    auto rows = [](const QJsonValue &v) {
        return v.isObject() ? v.toObject().value(QStringLiteral("rows")).toInt() : v.toInt();
    };
    const int excluded = manifest.value(QStringLiteral("excluded")).toArray().size();
    const QString text =
        tr("%1 train rows and %2 validation rows from %3 samples of %4 tasks; %5 left out (listed under excluded).")
            .arg(rows(counts.value(QStringLiteral("train"))))
            .arg(rows(counts.value(QStringLiteral("validation"))))
            .arg(selection.value(QStringLiteral("samples")).toInt())
            .arg(selection.value(QStringLiteral("tasks")).toInt())
            .arg(excluded);
    m_summary->setText(m_dryRun ? text : tr("Written: %1").arg(text));
    for (const QString &key :
         {QStringLiteral("counts"), QStringLiteral("selection"), QStringLiteral("excluded"),
          QStringLiteral("parameters"), QStringLiteral("corpus"), QStringLiteral("verifier_versions")})
        if (manifest.contains(key))
            addJson(m_tree, nullptr, key, manifest.value(key));
    m_tree->resizeColumnToContents(0);
}

} // namespace sieve::ui
