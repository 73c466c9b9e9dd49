#pragma once
// Review decisions. The `reviews` table is the append-only history; samples.review holds the current
// decision. Both change in one transaction. The decision vocabulary is the one samples.review uses:
// "accepted", "rejected" and "none" (a clear). Undo is persisted by recording the previous decision
// again (RecordedReview::previous says what it was), so the history never loses a step.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sieve {
namespace db {
class Database;
}

enum class ReviewDecision { Accept, Reject, Clear };

// "accepted", "rejected", "none".
const char *reviewValue(ReviewDecision d);
std::optional<ReviewDecision> parseReviewValue(std::string_view value);

struct ReviewInput
{
    ReviewDecision decision = ReviewDecision::Accept;
    std::optional<std::string> reason; // a short code, e.g. "wrong-algorithm", "style"
    std::optional<std::string> note;   // free text
    std::optional<std::string> reviewer;
};

struct RecordedReview
{
    std::int64_t reviewId = 0;
    std::int64_t sampleId = 0;
    std::string previous; // samples.review before this decision
    std::string current;
};

struct ReviewEntry
{
    std::int64_t id = 0;
    std::int64_t sampleId = 0;
    std::string decision;
    std::optional<std::string> reason, note, reviewer;
    std::int64_t createdAt = 0;
};

// A sample given as its numeric id or its name. Throws std::runtime_error when there is none, or when
// a name matches several samples (listing their ids).
std::int64_t resolveSample(const db::Database &db, const std::string &idOrName);

// Records one decision for each sample, all in one transaction (all or nothing). Throws
// std::runtime_error for an unknown sample id.
std::vector<RecordedReview> recordReviews(db::Database &db, const std::vector<std::int64_t> &sampleIds,
                                          const ReviewInput &input);
RecordedReview recordReview(db::Database &db, std::int64_t sampleId, const ReviewInput &input);

// The history of one sample, oldest first.
std::vector<ReviewEntry> reviewHistory(const db::Database &db, std::int64_t sampleId);

} // namespace sieve
