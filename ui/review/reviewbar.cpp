#include "ui/review/reviewbar.h"

#include "ui/data/corpusqueries.h"
#include "ui/data/dbthread.h"
#include "ui/main/statusstyle.h"
#include "ui/models/samplemodel.h"
#include "ui/review/reviewcommand.h"

#include <QAction>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QTableView>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>

namespace sieve::ui {

QList<ReviewBar::Reason> ReviewBar::reasons()
{
    return {
        {QStringLiteral("incorrect"), tr("Incorrect output")},
        {QStringLiteral("sham"), tr("Sham or fallback kernel")},
        {QStringLiteral("slow"), tr("Not faster than the reference")},
        {QStringLiteral("duplicate"), tr("Duplicate of another sample")},
        {QStringLiteral("reasoning"), tr("Reasoning does not match the code")},
        {QStringLiteral("style"), tr("Unreadable code")},
        {QStringLiteral("unsafe"), tr("Unsafe or forbidden code")},
        {QStringLiteral("task"), tr("The task itself is broken")},
        {QStringLiteral("other"), tr("Other (see the note)")},
    };
}

ReviewBar::ReviewBar(DbThread *reader, DbThread *writer, SampleModel *model, QTableView *view, QWidget *parent)
    : QWidget(parent), m_reader(reader), m_writer(writer), m_model(model), m_view(view), m_undo(new QUndoStack(this)),
      m_reason(new QComboBox(this)), m_note(new QLineEdit(this))
{
    setObjectName(QStringLiteral("reviewBar"));
    m_undo->setObjectName(QStringLiteral("reviewUndoStack"));
    m_reason->setObjectName(QStringLiteral("reasonCombo"));
    m_note->setObjectName(QStringLiteral("noteEdit"));
    m_note->setClearButtonEnabled(true);
    const auto all = reasons();
    m_reason->addItem(QString(), QString());
    for (const Reason &r : all)
        m_reason->addItem(QString(), r.code);

    auto makeAction = [this](const QString &name, const QKeySequence &key) {
        auto *a = new QAction(this);
        a->setObjectName(name);
        a->setShortcut(key);
        // The table and the details pane both have focus at times; the window is the right scope.
        a->setShortcutContext(Qt::WindowShortcut);
        return a;
    };
    m_accept = makeAction(QStringLiteral("acceptAction"), QKeySequence(Qt::Key_A));
    m_reject = makeAction(QStringLiteral("rejectAction"), QKeySequence(Qt::Key_R));
    m_next = makeAction(QStringLiteral("nextUnreviewedAction"), QKeySequence(Qt::Key_J));
    m_previous = makeAction(QStringLiteral("previousUnreviewedAction"), QKeySequence(Qt::Key_K));
    m_acceptMatching =
        makeAction(QStringLiteral("acceptMatchingAction"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A));
    m_rejectMatching =
        makeAction(QStringLiteral("rejectMatchingAction"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    connect(m_accept, &QAction::triggered, this, [this] { decide(QStringLiteral("accepted")); });
    connect(m_reject, &QAction::triggered, this, [this] { decide(QStringLiteral("rejected")); });
    connect(m_next, &QAction::triggered, this, [this] { moveToUnreviewed(+1); });
    connect(m_previous, &QAction::triggered, this, [this] { moveToUnreviewed(-1); });
    connect(m_acceptMatching, &QAction::triggered, this, [this] { decideMatching(QStringLiteral("accepted")); });
    connect(m_rejectMatching, &QAction::triggered, this, [this] { decideMatching(QStringLiteral("rejected")); });
    for (int i = 1; i <= 9; ++i) {
        QAction *a = makeAction(QStringLiteral("reasonAction%1").arg(i), QKeySequence(Qt::Key(Qt::Key_0 + i)));
        connect(a, &QAction::triggered, this, [this, i] { setReason(i); });
        m_reasonActions << a;
    }
    // Shortcuts only fire for actions that belong to a visible widget of the window.
    addActions(reviewActions());
    addActions(m_reasonActions);

    auto button = [this](QAction *a) {
        auto *b = new QToolButton(this);
        b->setDefaultAction(a);
        b->setToolButtonStyle(Qt::ToolButtonTextOnly);
        return b;
    };
    auto *moves = new QHBoxLayout;
    moves->addWidget(button(m_previous));
    moves->addWidget(button(m_next));
    moves->addStretch(1);
    moves->addWidget(button(m_accept));
    moves->addWidget(button(m_reject));
    auto *why = new QHBoxLayout;
    why->addWidget(m_reason);
    why->addWidget(m_note, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->setSpacing(2);
    layout->addLayout(moves);
    layout->addLayout(why);

    m_confirm = [this](qint64 count, const QString &decision) {
        return QMessageBox::question(
                   this, tr("Review All Matching"),
                   tr("Mark %n sample(s) matching the filter as %1?", nullptr, int(count)).arg(reviewText(decision))) ==
               QMessageBox::Yes;
    };
    retranslateUi();
    connect(m_model, &SampleModel::pageLoaded, this, [this] {
        if (m_pendingDirection != 0) {
            const int d = m_pendingDirection;
            m_pendingDirection = 0;
            moveToUnreviewed(d);
        }
    });
}

void ReviewBar::retranslateUi()
{
    m_note->setPlaceholderText(tr("Note (optional)"));
    const auto all = reasons();
    m_reason->setItemText(0, tr("No reason"));
    for (int i = 0; i < all.size(); ++i) {
        m_reason->setItemText(i + 1, tr("%1  %2").arg(i + 1).arg(all.at(i).label));
        if (i < m_reasonActions.size())
            m_reasonActions.at(i)->setText(all.at(i).label);
    }
    m_accept->setText(tr("&Accept"));
    m_reject->setText(tr("&Reject"));
    m_next->setText(tr("&Next Unreviewed"));
    m_previous->setText(tr("&Previous Unreviewed"));
    m_acceptMatching->setText(tr("Accept All Matching the Filter…"));
    m_rejectMatching->setText(tr("Reject All Matching the Filter…"));
    m_accept->setToolTip(tr("Accept the selected samples (A)"));
    m_reject->setToolTip(tr("Reject the selected samples with the chosen reason (R)"));
}

void ReviewBar::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

QList<QAction *> ReviewBar::reviewActions() const
{
    return {m_accept, m_reject, m_next, m_previous, m_acceptMatching, m_rejectMatching};
}

void ReviewBar::setActive(bool active)
{
    for (QAction *a : reviewActions() + m_reasonActions)
        a->setEnabled(active);
}

void ReviewBar::setReason(int index)
{
    if (index >= 0 && index < m_reason->count())
        m_reason->setCurrentIndex(index);
}

void ReviewBar::apply(const QList<ReviewWrite> &writes)
{
    QHash<QPair<QString, QString>, QList<qint64>> byDecision;
    QList<qint64> ids;
    for (const ReviewWrite &w : writes) {
        byDecision[{w.decision, w.reason}] << w.sampleId;
        ids << w.sampleId;
    }
    for (auto it = byDecision.cbegin(); it != byDecision.cend(); ++it)
        m_model->setReview(it.value(), it.key().first, it.key().second.isNull() ? QStringLiteral("") : it.key().second,
                           m_reviewer);
    m_writer->post(
        this,
        [writes, who = m_reviewer](db::Database &db) {
            try {
                reviewstore::write(db, writes, who);
                return QString();
            } catch (const std::exception &e) {
                return QString::fromStdString(e.what());
            }
        },
        [this, ids](const QString &error) {
            if (error.isEmpty())
                Q_EMIT reviewsWritten(ids);
            else
                revert(ids, error);
        });
}

void ReviewBar::revert(const QList<qint64> &ids, const QString &error)
{
    // The write rolled back: the rows show what the database holds, and the history (whose steps no
    // longer match the database) starts afresh.
    m_undo->clear();
    m_reader->post(
        this, [ids](const db::Database &db) { return queries::reviewsOf(db, ids); },
        [this, ids, error](const QList<QPair<qint64, QString>> &held) {
            QHash<QString, QList<qint64>> byReview;
            for (const auto &[id, review] : held)
                byReview[review] << id;
            for (auto it = byReview.cbegin(); it != byReview.cend(); ++it)
                m_model->setReview(it.value(), it.key());
            Q_EMIT reviewsWritten(ids);
            Q_EMIT writeFailed(
                tr("The review of %n sample(s) could not be saved: %1\nThe table shows what the corpus holds; "
                   "the undo history was cleared.",
                   nullptr, int(ids.size()))
                    .arg(error));
        });
}

void ReviewBar::decide(const QString &decision)
{
    QList<PriorReview> prior;
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    for (const QModelIndex &i : rows)
        prior << PriorReview{i.data(SampleModel::IdRole).toLongLong(), i.data(SampleModel::ReviewRole).toString()};
    if (prior.isEmpty())
        return;
    const int lastRow = rows.last().row();
    m_undo->push(new ReviewCommand(prior, decision, m_reason->currentData().toString(), m_note->text(),
                                   [this](const QList<ReviewWrite> &w) { apply(w); }));
    m_note->clear();
    m_reason->setCurrentIndex(0);
    // A single decision moves on, so a reviewer can work through a task with A, R and J alone.
    if (prior.size() == 1) {
        select(lastRow);
        moveToUnreviewed(+1);
    }
}

void ReviewBar::decideSamples(const QList<PriorReview> &prior, const QString &decision, const QString &reason,
                              const QString &note)
{
    if (prior.isEmpty())
        return;
    m_undo->push(new ReviewCommand(prior, decision, reason, note, [this](const QList<ReviewWrite> &w) { apply(w); }));
}

void ReviewBar::decideMatching(const QString &decision)
{
    const QString reason = m_reason->currentData().toString();
    const QString note = m_note->text();
    m_reader->post(
        this, [q = m_model->query()](const db::Database &db) { return queries::matchingReviews(db, q); },
        [this, decision, reason, note](QList<QPair<qint64, QString>> matches) {
            if (matches.isEmpty() || !m_confirm(matches.size(), decision))
                return;
            QList<PriorReview> prior;
            prior.reserve(matches.size());
            for (const auto &[id, review] : matches)
                prior << PriorReview{id, review};
            m_undo->push(
                new ReviewCommand(prior, decision, reason, note, [this](const QList<ReviewWrite> &w) { apply(w); }));
        });
}

void ReviewBar::select(int row)
{
    const QModelIndex index = m_model->index(row, 0);
    m_view->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_view->scrollTo(index);
}

void ReviewBar::moveToUnreviewed(int direction)
{
    const QModelIndex current = m_view->selectionModel()->currentIndex();
    int row = current.isValid() ? current.row() + direction : (direction > 0 ? 0 : m_model->rowCount() - 1);
    for (; row >= 0 && row < m_model->rowCount(); row += direction) {
        const QString review = m_model->rowAt(row).review;
        if (review.isEmpty() || review == QLatin1String("none")) {
            select(row);
            return;
        }
    }
    if (direction > 0 && m_model->canFetchMore({})) {
        m_pendingDirection = direction;
        m_model->fetchMore({});
    }
}

} // namespace sieve::ui
