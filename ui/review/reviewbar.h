#pragma once
// Review from the keyboard: J/K next and previous unreviewed, A accept, R reject, 1–9 pick a reason,
// on the selected rows or on every sample the filter matches; undo and redo through a QUndoStack.
#include <QWidget>

#include <functional>

class QAction;
class QComboBox;
class QLineEdit;
class QTableView;
class QUndoStack;

namespace sieve::ui {

class DbThread;
class SampleModel;
struct ReviewWrite;
struct PriorReview;

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
    // The bulk-on-filter confirmation; tests replace the message box.
    void setConfirm(std::function<bool(qint64 count, const QString &decision)> confirm)
    {
        m_confirm = std::move(confirm);
    }

    void decide(const QString &decision);
    void decideMatching(const QString &decision);
    // One undoable step over the given samples (from another page, e.g. a cluster's duplicates).
    void decideSamples(const QList<PriorReview> &prior, const QString &decision, const QString &reason,
                       const QString &note);
    void moveToUnreviewed(int direction);
    void setReason(int index); // 0: none, 1–9: reasons()
    // The review keys act on the Review page's selection only: off while another page is shown.
    void setActive(bool active);

Q_SIGNALS:
    void reviewsWritten(const QList<qint64> &sampleIds);
    void writeFailed(const QString &message);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void apply(const QList<ReviewWrite> &writes);
    void revert(const QList<qint64> &ids, const QString &error);
    void select(int row);

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
    QList<QAction *> m_reasonActions;
    QString m_reviewer;
    std::function<bool(qint64, const QString &)> m_confirm;
    int m_pendingDirection = 0; // a J/K waiting for the next page
};

} // namespace sieve::ui
