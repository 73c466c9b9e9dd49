#pragma once
// One review action (on one sample or a bulk selection) as an undoable command. Redo appends the new
// decision to the history; undo appends each sample's previous decision back, so the history keeps
// every step and nothing is ever deleted.
#include "ui/review/reviewstore.h"

#include <QUndoCommand>

#include <functional>

namespace sieve::ui {

struct PriorReview
{
    qint64 sampleId = 0;
    QString decision;
};

class ReviewCommand final : public QUndoCommand
{
public:
    // `apply` performs the writes (on the database thread) and updates the views.
    using Apply = std::function<void(const QList<ReviewWrite> &)>;
    ReviewCommand(QList<PriorReview> prior, QString decision, QString reason, QString note, Apply apply);
    void redo() override;
    void undo() override;
    const QList<PriorReview> &prior() const { return m_prior; }

private:
    QList<PriorReview> m_prior;
    QString m_decision;
    QString m_reason;
    QString m_note;
    Apply m_apply;
};

} // namespace sieve::ui
