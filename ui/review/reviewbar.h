#pragma once
// Review from the keyboard: J/K next and previous unreviewed, A accept, R reject, 1–9 pick a reason,
// on the selected rows or on every sample the filter matches; undo and redo through a QUndoStack.
#include <QWidget>

#include <functional>

class QAction;
class QComboBox;
class QLineEdit;
class QTableView;
class QTimer;
class QUndoStack;

namespace sieve::ui {

class DbThread;
class SampleModel;
struct ReviewWrite;
struct PriorReview;

// What the review keys act on: the samples the details pane was given (all of them), of which the
// first `shown` are on screen. One source of truth: the pane's, whether the table or a cluster set it.
struct ReviewTarget
{
    QList<qint64> ids;
    int shown = 0;
};

// One sample of a bulk action, with its decision now and the reason it would get.
struct BulkItem
{
    qint64 sampleId = 0;
    QString review;
    QString reason;
};
// What a bulk action would change, for the reviewer to confirm: `overriding` decisions a person made.
struct BulkPlan
{
    QString decision;
    qint64 total = 0;
    qint64 unreviewed = 0;
    qint64 overriding = 0;
};
enum class BulkChoice { Cancel, All, OnlyUnreviewed };

class ReviewBar final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ReviewBar)
public:
    ReviewBar(DbThread *reader, DbThread *writer, SampleModel *model, QTableView *view, QWidget *parent = nullptr);

    struct Reason
    {
        QString code;
        QString label;
    };
    static QList<Reason> reasons();

    QUndoStack *undoStack() const { return m_undo; }
    QList<QAction *> reviewActions() const;
    QAction *acceptAction() const { return m_accept; }
    QAction *rejectAction() const { return m_reject; }
    QAction *acceptMatchingAction() const { return m_acceptMatching; }
    QAction *rejectMatchingAction() const { return m_rejectMatching; }
    void setReviewer(const QString &name) { m_reviewer = name; }
    // Bulk actions change more than a handful of samples, or anyone's decision, only when confirmed;
    // tests replace the message box.
    static constexpr qint64 kHandful = 5;
    void setConfirmBulk(std::function<BulkChoice(const BulkPlan &)> confirm) { m_confirmBulk = std::move(confirm); }

    // Where A and R look for their samples; without it, the table's selection (all of it shown).
    void setTarget(std::function<ReviewTarget()> target) { m_target = std::move(target); }
    // Asked when a decision would reach selected samples that are not on screen; tests replace it.
    void setConfirmHidden(std::function<bool(int selected, int shown, const QString &decision)> confirm)
    {
        m_confirmHidden = std::move(confirm);
    }

    void decide(const QString &decision);
    void decideMatching(const QString &decision);
    // One undoable step over the given samples (from another page, e.g. a cluster's duplicates): samples
    // that already hold the decision are left alone; more than a handful, or any human decision changed,
    // asks first (always, with `ask`), offering to spare the reviewed ones.
    void decideBulk(QList<BulkItem> items, const QString &decision, const QString &note, bool ask = false);
    void moveToUnreviewed(int direction);
    // 0: none, 1–9: reasons(). After an R without a reason, the number rejects with it at once.
    void setReason(int index);
    bool awaitingReason() const { return m_awaitingReason; }
    QLineEdit *noteEdit() const { return m_note; }
    // The review keys act on the Review page's selection only: off while another page is shown.
    void setActive(bool active);
    // A corpus that cannot be written: decisions, notes and bulk actions are off (moving J/K still works) and
    // any attempt says `reason`. Empty: writable again.
    void setReadOnly(const QString &reason);

Q_SIGNALS:
    void reviewsWritten(const QList<qint64> &sampleIds);
    void writeFailed(const QString &message);
    // A write has waited half a second for the database (another process is writing): say so at once.
    void writeWaiting();
    // A key that could not act says why (no sample shown, ...), for the status bar.
    void notice(const QString &message);

protected:
    void changeEvent(QEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void retranslateUi();
    void apply(const QList<ReviewWrite> &writes);
    void revert(const QList<qint64> &ids, const QString &error);
    void select(int row);
    void leaveNote();
    void push(const QList<PriorReview> &prior, const QString &decision, const QString &reason, const QString &note);
    ReviewTarget target() const;
    bool refuseReadOnly(); // true (with a notice) when the corpus cannot be written

    DbThread *m_reader;
    DbThread *m_writer;
    SampleModel *m_model;
    QTableView *m_view;
    QUndoStack *m_undo;
    QComboBox *m_reason;
    QLineEdit *m_note;
    QAction *m_accept;
    QAction *m_reject;
    QAction *m_next;
    QAction *m_previous;
    QAction *m_acceptMatching;
    QAction *m_rejectMatching;
    QAction *m_noteAction;
    QList<QAction *> m_reasonActions;
    QString m_reviewer;
    std::function<BulkChoice(const BulkPlan &)> m_confirmBulk;
    std::function<ReviewTarget()> m_target;
    std::function<bool(int, int, const QString &)> m_confirmHidden;
    int m_pendingDirection = 0;    // a J/K waiting for the next page
    bool m_awaitingReason = false; // R was pressed with no reason chosen
    int m_undoIndex = 0;
    bool m_active = true;
    int m_writing = 0; // writes posted and not finished
    QTimer *m_slowWrite;
    QString m_readOnly;
};

} // namespace sieve::ui
