#include "core/select/samplepreference.h"

#include "core/review/review.h"
#include "core/select/difficulty.h"

namespace sieve {

namespace {

int reviewRank(std::string_view review)
{
    if (review == reviewValue(ReviewDecision::Accept))
        return 0;
    if (review == reviewValue(ReviewDecision::Reject))
        return 2;
    return 1;
}

} // namespace

bool preferredSample(const SampleMerit &a, const SampleMerit &b)
{
    if (reviewRank(a.review) != reviewRank(b.review))
        return reviewRank(a.review) < reviewRank(b.review);
    const bool pa = isPassStatus(a.status), pb = isPassStatus(b.status);
    if (pa != pb)
        return pa;
    if (a.speedup.has_value() != b.speedup.has_value())
        return a.speedup.has_value();
    if (a.speedup && *a.speedup != *b.speedup)
        return *a.speedup > *b.speedup;
    if (a.attempt.has_value() != b.attempt.has_value())
        return a.attempt.has_value();
    if (a.attempt && *a.attempt != *b.attempt)
        return *a.attempt < *b.attempt;
    return a.id < b.id;
}

const char *samplePreferenceRule()
{
    return "accepted > unreviewed > rejected, then PASS over other statuses, then higher speedup (unknown last), "
           "then earliest attempt (unknown last), then lowest sample id";
}

} // namespace sieve
