// The native path's output comparison (gpu/cuda/nativeverify.h): the same rules as the worker's compare.py.
#include "gpu/cuda/nativeverify.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

using namespace sieve::gpu;

namespace {

HostTensor f32(std::vector<float> v, std::vector<std::int64_t> shape = {})
{
    HostTensor t;
    t.dtype = ElemType::F32;
    t.shape = shape.empty() ? std::vector<std::int64_t>{static_cast<std::int64_t>(v.size())} : shape;
    t.bytes.assign(reinterpret_cast<const char *>(v.data()), v.size() * 4);
    return t;
}

HostTensor bits16(ElemType type, std::vector<std::uint16_t> v)
{
    HostTensor t;
    t.dtype = type;
    t.shape = {static_cast<std::int64_t>(v.size())};
    t.bytes.assign(reinterpret_cast<const char *>(v.data()), v.size() * 2);
    return t;
}

nlohmann::json check()
{
    return {{"ok", true}};
}

} // namespace

TEST(NativeCompare, WithinToleranceIsOkAndRecordsTheWorstError)
{
    auto c = check();
    compareTensor(f32({1.f, 2.f, -3.f}), f32({1.f, 2.00005f, -3.f}), 1e-4, 1e-4, c, "y");
    EXPECT_TRUE(c["ok"].get<bool>());
    EXPECT_EQ(c["mismatches"], 0);
    EXPECT_NEAR(c["max_abs"].get<double>(), 5e-5, 1e-6);
}

TEST(NativeCompare, OutsideToleranceCountsEachValue)
{
    auto c = check();
    compareTensor(f32({1.f, 2.f, 3.f, 4.f}), f32({1.1f, 2.f, 3.5f, 4.f}), 1e-4, 1e-4, c, "y");
    EXPECT_FALSE(c["ok"].get<bool>());
    EXPECT_EQ(c["mismatches"], 2);
}

TEST(NativeCompare, NonFiniteValuesMatchOnlyTheSameNonFiniteValue)
{
    const float nan = std::nanf(""), inf = INFINITY;
    auto same = check();
    compareTensor(f32({nan, inf, -inf}), f32({nan, inf, -inf}), 1e-4, 1e-4, same, "y");
    EXPECT_TRUE(same["ok"].get<bool>());
    auto diff = check();
    compareTensor(f32({nan, inf, 1.f}), f32({0.f, -inf, nan}), 1e-4, 1e-4, diff, "y");
    EXPECT_FALSE(diff["ok"].get<bool>());
    EXPECT_EQ(diff["nonfinite_mismatches"], 3);
    EXPECT_EQ(diff["mismatches"], 0); // counted apart
}

TEST(NativeCompare, HalfAndBfloatAreDecodedFromTheirBits)
{
    // 1.0, -2.0, 0.5 in fp16 and in bf16, against fp32 references
    auto h = check();
    compareTensor(f32({1.f, -2.f, 0.5f}), bits16(ElemType::F16, {0x3c00, 0xc000, 0x3800}), 1e-3, 1e-3, h, "y");
    EXPECT_TRUE(h["ok"].get<bool>()) << h.dump();
    auto b = check();
    compareTensor(f32({1.f, -2.f, 0.5f}), bits16(ElemType::BF16, {0x3f80, 0xc000, 0x3f00}), 1e-3, 1e-3, b, "y");
    EXPECT_TRUE(b["ok"].get<bool>()) << b.dump();
    auto wrong = check();
    compareTensor(f32({1.f}), bits16(ElemType::BF16, {0x4000}), 1e-3, 1e-3, wrong, "y"); // 2.0
    EXPECT_FALSE(wrong["ok"].get<bool>());
}

TEST(NativeCompare, AShapeMismatchSaysWhichOutput)
{
    auto c = check();
    compareTensor(f32({1, 2, 3, 4}, {2, 2}), f32({1, 2, 3, 4}, {4}), 1e-4, 1e-4, c, "output y");
    EXPECT_FALSE(c["ok"].get<bool>());
    EXPECT_NE(c["note"].get<std::string>().find("output y has shape [4]"), std::string::npos) << c.dump();
}

// A derived input set's case (inputsets.py) names its set and may carry its own tolerance: `exact` checks
// with zero tolerance whatever the job's; a case without one keeps the job's.
TEST(NativeCompare, ACaseCarriesItsInputSetAndItsOwnTolerance)
{
    const nlohmann::json c0{{"shape_index", 0},      {"seed", 1},
                            {"inputs", {"a.npy"}},   {"input_dtypes", {"fp32"}},
                            {"expected", {"e.npy"}}, {"expected_dtypes", {"fp32"}}};
    nlohmann::json c1 = c0;
    c1["shape_index"] = 1;
    c1["input_set"] = "exact";
    c1["atol"] = 0.0;
    c1["rtol"] = 0.0;
    const NativeJob job =
        NativeJob::fromJson({{"code", "x"}, {"atol", 0.1}, {"rtol", 0.05}, {"scratch", "/tmp"}, {"cases", {c0, c1}}});
    ASSERT_EQ(job.cases.size(), 2u);
    EXPECT_EQ(job.cases[0].inputSet, "");
    EXPECT_EQ(job.atolOf(job.cases[0]), 0.1);
    EXPECT_EQ(job.rtolOf(job.cases[0]), 0.05);
    EXPECT_EQ(job.cases[1].inputSet, "exact");
    EXPECT_EQ(job.atolOf(job.cases[1]), 0.0);
    EXPECT_EQ(job.rtolOf(job.cases[1]), 0.0);
    // one unit off in 2049 passes the job's tolerance and fails the exact set's
    auto loose = check(), exact = check();
    compareTensor(f32({2049.f}), f32({2048.f}), job.atolOf(job.cases[0]), job.rtolOf(job.cases[0]), loose, "y");
    compareTensor(f32({2049.f}), f32({2048.f}), job.atolOf(job.cases[1]), job.rtolOf(job.cases[1]), exact, "y");
    EXPECT_TRUE(loose["ok"].get<bool>());
    EXPECT_FALSE(exact["ok"].get<bool>());
    c1["atol"] = "zero";
    EXPECT_THROW(
        NativeJob::fromJson({{"code", "x"}, {"atol", 0.1}, {"rtol", 0.05}, {"scratch", "/tmp"}, {"cases", {c1}}}),
        std::runtime_error);
}
