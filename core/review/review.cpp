#include "core/review/review.h"

#include "core/db/database.h"
#include "core/db/unixtime.h"

#include <chrono>
#include <stdexcept>

namespace sieve {

const char *reviewValue(ReviewDecision d)
{
    switch (d) {
    case ReviewDecision::Accept:
        return "accepted";
    case ReviewDecision::Reject:
        return "rejected";
    case ReviewDecision::Clear:
        return "none";
    }
    return "none";
}

std::optional<ReviewDecision> parseReviewValue(std::string_view value)
{
    for (ReviewDecision d : {ReviewDecision::Accept, ReviewDecision::Reject, ReviewDecision::Clear})
        if (value == reviewValue(d))
            return d;
    return std::nullopt;
}

std::int64_t resolveSample(const db::Database &db, const std::string &idOrName)
{
    const bool numeric = !idOrName.empty() && idOrName.find_first_not_of("0123456789") == std::string::npos;
    if (numeric) {
        db::Statement st = db.prepare("SELECT id FROM samples WHERE id=?1");
        st.bind(1, static_cast<std::int64_t>(std::stoll(idOrName)));
        if (st.step())
            return st.int64(0);
    }
    db::Statement st = db.prepare("SELECT id FROM samples WHERE name=?1 ORDER BY id");
    st.bind(1, idOrName);
    std::vector<std::int64_t> ids;
    while (st.step())
        ids.push_back(st.int64(0));
    if (ids.empty())
        throw std::runtime_error("no sample with id or name '" + idOrName + "'");
    if (ids.size() > 1) {
        std::string list;
        for (std::size_t i = 0; i < ids.size() && i < 10; ++i)
            list += (i ? ", " : "") + std::to_string(ids[i]);
        throw std::runtime_error("the name '" + idOrName + "' matches " + std::to_string(ids.size()) +
                                 " samples (ids " + list + (ids.size() > 10 ? ", ..." : "") + "); give the id");
    }
    return ids.front();
}

std::vector<RecordedReview> recordReviews(db::Database &db, const std::vector<std::int64_t> &sampleIds,
                                          const ReviewInput &input)
{
    const std::int64_t now = unixNow();
    const std::string value = reviewValue(input.decision);
    std::vector<RecordedReview> out;
    db::Transaction tx(db);
    db::Statement current = db.prepare("SELECT review FROM samples WHERE id=?1");
    db::Statement insert = db.prepare(
        "INSERT INTO reviews(sample_id, decision, reason, note, reviewer, created_at) VALUES(?1,?2,?3,?4,?5,?6)");
    db::Statement update = db.prepare("UPDATE samples SET review=?2 WHERE id=?1");
    for (std::int64_t id : sampleIds) {
        current.reset();
        current.bind(1, id);
        if (!current.step())
            throw std::runtime_error("no sample with id " + std::to_string(id));
        RecordedReview r;
        r.sampleId = id;
        r.previous = current.text(0);
        r.current = value;
        insert.reset();
        insert.bind(1, id)
            .bind(2, value)
            .bind(3, input.reason)
            .bind(4, input.note)
            .bind(5, input.reviewer)
            .bind(6, now);
        insert.run();
        r.reviewId = db.lastInsertId();
        update.reset();
        update.bind(1, id).bind(2, value);
        update.run();
        out.push_back(std::move(r));
    }
    tx.commit();
    return out;
}

RecordedReview recordReview(db::Database &db, std::int64_t sampleId, const ReviewInput &input)
{
    return recordReviews(db, {sampleId}, input).front();
}

std::vector<ReviewEntry> reviewHistory(const db::Database &db, std::int64_t sampleId)
{
    db::Statement st = db.prepare("SELECT id, sample_id, decision, reason, note, reviewer, created_at FROM reviews "
                                  "WHERE sample_id=?1 ORDER BY id");
    st.bind(1, sampleId);
    std::vector<ReviewEntry> out;
    auto opt = [&](int col) { return st.isNull(col) ? std::optional<std::string>() : st.text(col); };
    while (st.step())
        out.push_back({st.int64(0), st.int64(1), st.text(2), opt(3), opt(4), opt(5), st.int64(6)});
    return out;
}

} // namespace sieve
