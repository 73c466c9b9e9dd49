#pragma once
// The one order in which samples are preferred to each other: a cluster's representative (dedup) and
// the member that selection keeps from a cluster or under a per-task cap are both the first sample by
// this order. In order: accepted over unreviewed over rejected (samples.review); passing over anything
// else (samples.status); faster over slower (samples.speedup, unknown last); then the earliest: the lower
// attempt number (unknown last), then the lower sample id.
#include <cstdint>
#include <optional>
#include <string_view>

namespace sieve {

struct SampleMerit
{
    std::int64_t id = 0;
    std::string_view review; // "accepted", "rejected", "none" (core/review/review.h)
    std::string_view status; // the verifier status, "PASS" when it passed
    std::optional<double> speedup;
    std::optional<std::int64_t> attempt;
};

// True when a comes before b. A strict weak order (ids differ between samples), usable by std::sort.
bool preferredSample(const SampleMerit &a, const SampleMerit &b);

// The rule above as one line, for help texts, manifests and the clusters' params_json.
const char *samplePreferenceRule();

} // namespace sieve
