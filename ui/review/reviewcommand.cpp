#include "ui/review/reviewcommand.h"

#include "ui/main/statusstyle.h"

#include <QCoreApplication>

namespace sieve::ui {

ReviewCommand::ReviewCommand(QList<PriorReview> prior, QString decision, QString reason, QString note, Apply apply)
    : m_prior(std::move(prior)), m_decision(std::move(decision)), m_reason(std::move(reason)), m_note(std::move(note)),
      m_apply(std::move(apply))
{
    const QString what = reviewText(m_decision);
    if (m_prior.size() == 1)
        setText(QCoreApplication::translate("sieve::ui::ReviewCommand", "%1 sample %2")
                    .arg(what)
                    .arg(m_prior.first().sampleId));
    else
        setText(QCoreApplication::translate("sieve::ui::ReviewCommand", "%1 %n sample(s)", nullptr, int(m_prior.size()))
                    .arg(what));
}

void ReviewCommand::redo()
{
    QList<ReviewWrite> writes;
    writes.reserve(m_prior.size());
    for (const PriorReview &p : std::as_const(m_prior))
        writes << ReviewWrite{p.sampleId, m_decision, m_reason, m_note};
    m_apply(writes);
}

void ReviewCommand::undo()
{
    QList<ReviewWrite> writes;
    writes.reserve(m_prior.size());
    for (const PriorReview &p : std::as_const(m_prior))
        writes << ReviewWrite{
            p.sampleId, p.decision.isEmpty() ? QStringLiteral("none") : p.decision, QStringLiteral("undo"), {}};
    m_apply(writes);
}

} // namespace sieve::ui
