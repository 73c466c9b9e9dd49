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
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMap>
#include <QMessageBox>
#include <QPushButton>
#include <QTableView>
#include <QTimer>
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
    m_slowWrite = new QTimer(this);
    m_slowWrite->setSingleShot(true);
    m_slowWrite->setInterval(500);
    connect(m_slowWrite, &QTimer::timeout, this, &ReviewBar::writeWaiting);
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
    connect(m_accept, &QAction::triggered, this, [this] {
        m_awaitingReason = false;
        decide(QStringLiteral("accepted"));
    });
    // A rejection says why: R with no reason chosen asks for one, and the number key then rejects.
    connect(m_reject, &QAction::triggered, this, [this] {
        if (m_reason->currentIndex() > 0) {
            m_awaitingReason = false;
            decide(QStringLiteral("rejected"));
        } else if (!target().ids.isEmpty()) {
            m_awaitingReason = true;
            Q_EMIT notice(tr("Reject: why? Press 1–9 for the reason (A accepts instead)."));
        } else {
            decide(QStringLiteral("rejected")); // says that nothing is shown
        }
    });
    // N: write a note for the next decision; Enter keeps it and goes back to the table, Esc drops it.
    m_noteAction = makeAction(QStringLiteral("noteAction"), QKeySequence(Qt::Key_N));
    connect(m_noteAction, &QAction::triggered, this, [this] {
        m_note->setFocus(Qt::ShortcutFocusReason);
        m_note->selectAll();
    });
    connect(m_note, &QLineEdit::returnPressed, this, &ReviewBar::leaveNote);
    // An R waiting for its reason belongs to the sample it was pressed on: another selection drops it.
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] { m_awaitingReason = false; });
    m_note->installEventFilter(this);
    // Undo takes the reviewer back to the sample it gave back its decision.
    connect(m_undo, &QUndoStack::indexChanged, this, [this](int index) {
        const bool undone = index < m_undoIndex;
        m_undoIndex = index;
        if (!undone)
            return;
        const QUndoCommand *c = m_undo->command(index);
        if (c && c->childCount() > 0)
            c = c->child(0);
        const auto *review = dynamic_cast<const ReviewCommand *>(c);
        if (!review || review->prior().isEmpty())
            return;
        const int row = m_model->rowOf(review->prior().first().sampleId);
        if (row >= 0)
            select(row);
    });
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

    m_confirmBulk = [this](const BulkPlan &plan) {
        QMessageBox box(QMessageBox::Question, tr("Review Several Samples"),
                        tr("Mark %n sample(s) as %1?", nullptr, int(plan.total)).arg(reviewText(plan.decision)), {},
                        this);
        if (plan.overriding > 0)
            box.setInformativeText(
                tr("%n of them hold a decision a person made; it would be replaced.", nullptr, int(plan.overriding)));
        QPushButton *all = box.addButton(tr("Change All %1").arg(plan.total), QMessageBox::AcceptRole);
        QPushButton *unreviewed = nullptr;
        if (plan.overriding > 0 && plan.unreviewed > 0)
            unreviewed = box.addButton(tr("Only the %1 Unreviewed").arg(plan.unreviewed), QMessageBox::AcceptRole);
        box.addButton(QMessageBox::Cancel);
        box.setDefaultButton(unreviewed ? unreviewed : all);
        box.exec();
        if (box.clickedButton() == all)
            return BulkChoice::All;
        return unreviewed && box.clickedButton() == unreviewed ? BulkChoice::OnlyUnreviewed : BulkChoice::Cancel;
    };
    m_confirmHidden = [this](int selected, int shown, const QString &decision) {
        return QMessageBox::question(
                   this, tr("Review Samples Not Shown"),
                   tr("%n sample(s) are selected but only %1 shown. Mark all of them as %2?", nullptr, selected)
                       .arg(shown)
                       .arg(reviewText(decision))) == QMessageBox::Yes;
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
    m_note->setPlaceholderText(tr("Note (N; Enter keeps it, Esc drops it)"));
    m_noteAction->setText(tr("Write a &Note"));
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
    return {m_accept, m_reject, m_next, m_previous, m_acceptMatching, m_rejectMatching, m_noteAction};
}

void ReviewBar::setActive(bool active)
{
    m_active = active;
    const bool writable = m_readOnly.isEmpty();
    for (QAction *a : reviewActions() + m_reasonActions)
        a->setEnabled(active && (writable || a == m_next || a == m_previous));
    m_note->setEnabled(writable);
    m_reason->setEnabled(writable);
}

void ReviewBar::setReadOnly(const QString &reason)
{
    m_readOnly = reason;
    setActive(m_active);
}

bool ReviewBar::refuseReadOnly()
{
    if (m_readOnly.isEmpty())
        return false;
    // The banner above says why and what to do; the status bar has room only for the outcome.
    Q_EMIT notice(tr("This corpus is read-only: nothing was saved."));
    return true;
}

void ReviewBar::setReason(int index)
{
    if (index < 0 || index >= m_reason->count())
        return;
    m_reason->setCurrentIndex(index);
    if (m_awaitingReason && index > 0) {
        m_awaitingReason = false;
        decide(QStringLiteral("rejected"));
    }
}

void ReviewBar::leaveNote()
{
    // Back to the table, or (focus mode hides it) to the window, where the review keys work.
    QWidget *back = m_view->isVisible() ? static_cast<QWidget *>(m_view) : window();
    back->setFocus(Qt::ShortcutFocusReason);
}

bool ReviewBar::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_note && event->type() == QEvent::KeyPress &&
        static_cast<QKeyEvent *>(event)->key() == Qt::Key_Escape) {
        m_note->clear();
        leaveNote();
        return true;
    }
    return QWidget::eventFilter(watched, event);
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
    if (m_writing++ == 0)
        m_slowWrite->start();
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
            if (--m_writing == 0)
                m_slowWrite->stop();
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

ReviewTarget ReviewBar::target() const
{
    if (m_target)
        return m_target();
    ReviewTarget t;
    for (const QModelIndex &i : m_view->selectionModel()->selectedRows())
        t.ids << i.data(SampleModel::IdRole).toLongLong();
    t.shown = int(t.ids.size());
    return t;
}

void ReviewBar::decide(const QString &decision)
{
    if (refuseReadOnly())
        return;
    const ReviewTarget t = target();
    if (t.ids.isEmpty()) {
        Q_EMIT notice(tr("No sample is shown: select one in the table first."));
        return;
    }
    if (t.ids.size() > t.shown && !m_confirmHidden(int(t.ids.size()), t.shown, decision))
        return;
    const QString reason = m_reason->currentData().toString();
    const QString note = m_note->text();
    m_note->clear();
    m_reason->setCurrentIndex(0);
    // The prior decisions (for undo) come from the table's rows; samples it has not loaded (a cluster's
    // members under another filter) are asked of the database first.
    QList<PriorReview> prior;
    for (qint64 id : t.ids) {
        const int row = m_model->rowOf(id);
        if (row < 0)
            break;
        prior << PriorReview{id, m_model->rowAt(row).review};
    }
    if (prior.size() < t.ids.size()) {
        m_reader->post(
            this, [ids = t.ids](const db::Database &db) { return queries::reviewsOf(db, ids); },
            [this, decision, reason, note](const QList<QPair<qint64, QString>> &held) {
                QList<PriorReview> fetched;
                for (const auto &[id, review] : held)
                    fetched << PriorReview{id, review};
                push(fetched, decision, reason, note);
            });
        return;
    }
    push(prior, decision, reason, note);
    // A single decision moves on, so a reviewer can work through a task with A, R and J alone.
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    if (t.ids.size() == 1 && rows.size() == 1 && rows.first().data(SampleModel::IdRole).toLongLong() == t.ids.first()) {
        select(rows.first().row());
        moveToUnreviewed(+1);
    }
}

void ReviewBar::push(const QList<PriorReview> &prior, const QString &decision, const QString &reason,
                     const QString &note)
{
    if (!prior.isEmpty())
        m_undo->push(
            new ReviewCommand(prior, decision, reason, note, [this](const QList<ReviewWrite> &w) { apply(w); }));
}

namespace {
bool isUndecided(const QString &review)
{
    return review.isEmpty() || review == QLatin1String("none");
}
} // namespace

void ReviewBar::decideBulk(QList<BulkItem> items, const QString &decision, const QString &note, bool ask)
{
    if (refuseReadOnly())
        return;
    items.removeIf([&](const BulkItem &i) { return i.review == decision; });
    if (items.isEmpty()) {
        Q_EMIT notice(tr("Nothing to change: every sample is %1 already.").arg(reviewText(decision)));
        return;
    }
    BulkPlan plan{decision, items.size(), 0, 0};
    for (const BulkItem &i : std::as_const(items))
        ++(isUndecided(i.review) ? plan.unreviewed : plan.overriding);
    if (ask || plan.total > kHandful || plan.overriding > 0) {
        const BulkChoice choice = m_confirmBulk(plan);
        if (choice == BulkChoice::Cancel)
            return;
        if (choice == BulkChoice::OnlyUnreviewed)
            items.removeIf([](const BulkItem &i) { return !isUndecided(i.review); });
    }
    if (items.isEmpty())
        return;
    // One step, even when members get different reasons (a failing duplicate is "incorrect").
    QMap<QString, QList<PriorReview>> byReason;
    for (const BulkItem &i : std::as_const(items))
        byReason[i.reason] << PriorReview{i.sampleId, i.review};
    if (byReason.size() == 1) {
        push(byReason.first(), decision, byReason.firstKey(), note);
        return;
    }
    m_undo->beginMacro(tr("%1 %n sample(s)", nullptr, int(items.size())).arg(reviewText(decision)));
    for (auto it = byReason.cbegin(); it != byReason.cend(); ++it)
        push(it.value(), decision, it.key(), note);
    m_undo->endMacro();
}

void ReviewBar::decideMatching(const QString &decision)
{
    if (refuseReadOnly())
        return;
    const QString reason = m_reason->currentData().toString();
    const QString note = m_note->text();
    m_reader->post(
        this, [q = m_model->query()](const db::Database &db) { return queries::matchingReviews(db, q); },
        [this, decision, reason, note](QList<QPair<qint64, QString>> matches) {
            QList<BulkItem> items;
            items.reserve(matches.size());
            for (const auto &[id, review] : matches)
                items << BulkItem{id, review, reason};
            decideBulk(items, decision, note, true);
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
