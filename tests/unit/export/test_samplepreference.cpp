#include "core/select/samplepreference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

using namespace sieve;

TEST(SamplePreference, EachStepOfTheRuleDecidesInOrder)
{
    const SampleMerit base{10, "none", "PASS", 1.0, 2};
    SampleMerit accepted = base, rejected = base, failing = base, faster = base, noSpeed = base, earlier = base,
                noAttempt = base, lowerId = base;
    accepted.review = "accepted";
    accepted.status = "FAIL_CORRECT"; // accepted beats unreviewed whatever the status
    rejected.review = "rejected";
    rejected.speedup = 9.0;
    failing.status = "FAIL_COMPILE";
    failing.speedup = 5.0; // passing beats failing whatever the speed
    faster.speedup = 1.5;
    faster.attempt = 7; // faster beats earlier
    noSpeed.speedup.reset();
    earlier.attempt = 1;
    earlier.id = 99; // an earlier attempt beats a lower id
    noAttempt.attempt.reset();
    lowerId.id = 3;

    EXPECT_TRUE(preferredSample(accepted, base));
    EXPECT_TRUE(preferredSample(base, rejected));
    EXPECT_TRUE(preferredSample(base, failing));
    EXPECT_TRUE(preferredSample(faster, base));
    EXPECT_TRUE(preferredSample(base, noSpeed));
    EXPECT_TRUE(preferredSample(earlier, base));
    EXPECT_TRUE(preferredSample(base, noAttempt));
    EXPECT_TRUE(preferredSample(lowerId, base));
    EXPECT_FALSE(preferredSample(base, base)); // irreflexive: a strict weak order for std::sort

    std::vector<SampleMerit> all{rejected, lowerId, noAttempt, failing, base, faster, accepted, noSpeed, earlier};
    std::sort(all.begin(), all.end(), preferredSample);
    EXPECT_EQ(all.front().review, "accepted");
    EXPECT_EQ(all.back().review, "rejected");
    EXPECT_EQ(all[1].speedup, 1.5);           // faster
    EXPECT_EQ(all[2].attempt, 1);             // earlier attempt
    EXPECT_EQ(all[3].id, 3);                  // lower id
    EXPECT_EQ(all[4].id, 10);                 // base
    EXPECT_FALSE(all[5].attempt.has_value()); // unknown attempt after known ones
    EXPECT_FALSE(all[6].speedup.has_value()); // unknown speed after known ones
    EXPECT_EQ(all[7].status, "FAIL_COMPILE"); // failing after every passing one
}
