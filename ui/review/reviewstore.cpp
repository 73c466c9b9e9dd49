#include "ui/review/reviewstore.h"

#include "core/db/database.h"
#include "core/review/review.h"

#include <stdexcept>

namespace sieve::ui::reviewstore {

void write(db::Database &db, const QList<ReviewWrite> &writes, const QString &reviewer)
{
    if (writes.isEmpty())
        return;
    auto optText = [](const QString &s) {
        return s.isEmpty() ? std::optional<std::string>() : std::optional<std::string>(s.toStdString());
    };
    // Writes in one batch may carry different decisions (undo restores each sample's own), so they are
    // grouped into one transaction here rather than one recordReviews call.
    db::Transaction tx(db);
    for (const ReviewWrite &w : writes) {
        const auto decision = parseReviewValue(w.decision.toStdString());
        if (!decision)
            throw std::runtime_error("unknown review decision '" + w.decision.toStdString() + "'");
        ReviewInput in;
        in.decision = *decision;
        in.reason = optText(w.reason);
        in.note = optText(w.note);
        in.reviewer = optText(reviewer);
        recordReview(db, w.sampleId, in);
    }
    tx.commit();
}

} // namespace sieve::ui::reviewstore
