// A worker's verdict message turned into the record the corpus stores (gpu/verify/verdictrecord.cpp): numbers
// that do not fit their field are dropped like any wrongly typed field, never cast. Found by the
// worker-line fuzz target under UBSan: "runs": 1999999999999999999999990 was cast from double to int64.
#include "gpu/verify/verifytypes.h"

#include <gtest/gtest.h>

using namespace sieve::gpu;

namespace {
VerdictRecord fromLine(const std::string &line)
{
    return verdictFromMessage(nlohmann::json::parse(line));
}
} // namespace

TEST(VerdictRecord, FloatOutOfRangeOfAnIntegerFieldIsDropped)
{
    const auto v = fromLine(R"({"op":"verdict","sample_id":9,"status":"PASS","kernels_launched":-1e300,)"
                            R"("timings":[{"shape_index":0,"which":"candidate","median_ms":0.1,)"
                            R"("runs":1999999999999999999999990}]})");
    EXPECT_EQ(v.sampleId, 9);
    EXPECT_EQ(v.status, "PASS");
    EXPECT_FALSE(v.kernelsLaunched);
    ASSERT_EQ(v.timings.size(), 1u);
    EXPECT_FALSE(v.timings[0].runs);
    ASSERT_TRUE(v.timings[0].medianMs);
    EXPECT_DOUBLE_EQ(*v.timings[0].medianMs, 0.1);
}

TEST(VerdictRecord, IntegerOutOfRangeOfItsFieldIsDroppedNotWrapped)
{
    const auto v = fromLine(R"({"op":"verdict","sample_id":18446744073709551615,"status":"FAIL",)"
                            R"("checks":[{"shape_index":1099511627776,"seed":-3000000000,"ok":false,)"
                            R"("mismatches":9223372036854775808}]})");
    EXPECT_EQ(v.sampleId, 0); // absent: the engine then takes the job's sample
    ASSERT_EQ(v.checks.size(), 1u);
    EXPECT_EQ(v.checks[0].shapeIndex, 0);
    EXPECT_EQ(v.checks[0].seed, 0);
    EXPECT_FALSE(v.checks[0].mismatches);
}

TEST(VerdictRecord, NumbersThatFitAreKept)
{
    const auto v = fromLine(R"({"op":"verdict","sample_id":9223372036854775807,"status":"PASS",)"
                            R"("checks":[{"shape_index":2147483647,"seed":-2147483648,"ok":true,"mismatches":0}],)"
                            R"("timings":[{"shape_index":0,"which":"candidate","median_ms":1.5,"runs":10.0}]})");
    EXPECT_EQ(v.sampleId, 9223372036854775807);
    ASSERT_EQ(v.checks.size(), 1u);
    EXPECT_EQ(v.checks[0].shapeIndex, 2147483647);
    EXPECT_EQ(v.checks[0].seed, -2147483648LL);
    EXPECT_EQ(v.checks[0].mismatches, 0);
    ASSERT_EQ(v.timings.size(), 1u);
    EXPECT_EQ(v.timings[0].runs, 10); // a float that fits is taken, as the worker's JSON may write 10.0
}
