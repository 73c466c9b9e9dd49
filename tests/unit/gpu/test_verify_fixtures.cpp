// Every CPU fixture of the verifier's regression suite through the real engine, the real worker and a
// real corpus file, one test per fixture. The whole suite is verified once (in runs grouped by the
// fixtures' stage timeouts) and the corpus is shared between the test processes that ctest starts: it is
// cached in the temp dir under a key of the fixtures, the worker's sources and this binary.
#include "core/db/corpus.h"
#include "core/db/payload.h"
#include "core/util/hashing.h"
#include "gpu/nvrtc/nvrtclibrary.h"
#include "gpu/verify/verificationengine.h"
#include "tests/unit/gpu/test_verify_support.h"
#include "tests/unit/testutil.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <filesystem>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace sieve;
using namespace sieve::test;

namespace {

struct StoredVerdict
{
    std::string status, reasons, log, flags;
    nlohmann::json details;
    std::int64_t runId = 0;
    int count = 0; // verdicts for the sample over all runs
};

std::string suiteKey()
{
    std::string all = readFile(testData("verifier/manifest.json"));
    for (const auto &f : verifierFixtures())
        all += readFile(testData("verifier/" + f.task)) + readFile(testData("verifier/" + f.answer));
    // Every source of the worker, its subpackages and the runtime wall's C++ included: with the top folder's .py
    // files alone, a change under candidate/ or wall/ kept the cached verdicts, and a stale PASS of
    // sandbox_subprocess here hid the FAIL a fresh clone's CI got.
    const fs::path worker = fs::path(SIEVE_SOURCE_DIR) / "gpu/worker";
    std::vector<fs::path> files;
    for (const auto &e : fs::recursive_directory_iterator(worker)) {
        const auto ext = e.path().extension();
        if (e.is_regular_file() && (ext == ".py" || ext == ".cpp" || ext == ".h" || ext == ".c"))
            files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    for (const auto &p : files)
        all += fs::relative(p, worker).string() + readFile(p.string());
    // What the machine offers decides verdicts too (raw CUDA without NVRTC): a cache per environment.
    all += gpu::NvrtcLibrary::get() != nullptr ? "nvrtc" : "no-nvrtc";
    struct stat st
    {
    };
    if (stat("/proc/self/exe", &st) == 0)
        all += std::to_string(st.st_size) + ":" + std::to_string(st.st_mtime);
    return hashing::contentKey({all}).substr(0, 16);
}

class SuiteCorpus
{
public:
    static SuiteCorpus &get()
    {
        static SuiteCorpus s;
        return s;
    }
    std::string error;
    std::map<std::string, StoredVerdict> verdicts;

private:
    SuiteCorpus()
    {
        try {
            build();
        } catch (const std::exception &e) {
            error = e.what();
        }
    }

    void build()
    {
        if (requireVerifierPython().empty()) {
            error = "no verifier Python";
            return;
        }
        const fs::path dir = fs::temp_directory_path() / ("sieve-verify-fixtures-" + suiteKey());
        fs::create_directories(dir);
        const std::string db = (dir / "corpus.db").string();
        const int lock = ::open((dir / "lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        flock(lock, LOCK_EX); // another test process may be building it right now
        if (!fs::exists(dir / "done")) {
            fs::remove(db);
            fs::remove(db + "-wal");
            fs::remove(db + "-shm");
            verifyAll(db, (dir / "cache").string());
            writeFile((dir / "done").string(), "ok\n");
        }
        flock(lock, LOCK_UN);
        ::close(lock);
        load(db);
    }

    static void verifyAll(const std::string &db, const std::string &cacheDir)
    {
        Corpus::create(db);
        const auto fixtures = cpuFixtures();
        for (const auto &f : fixtures)
            if (f.raw.contains("must_not_exist"))
                fs::remove(f.raw["must_not_exist"].get<std::string>());
        const auto ids = addFixturesToCorpus(db, fixtures);
        if (const std::string why = verifyFixturesInCorpus(db, fixtures, ids, cacheDir, std::nullopt); !why.empty())
            throw std::runtime_error(why);
    }

    void load(const std::string &db)
    {
        Corpus c = Corpus::open(db, true);
        db::Statement st =
            c.db().prepare("SELECT s.name, v.status, v.reasons, v.flags, v.run_id, p.log, p.details, "
                           "(SELECT count(*) FROM verdicts w WHERE w.sample_id = s.id) FROM samples s "
                           "JOIN verdicts v ON v.sample_id = s.id LEFT JOIN verdict_payloads p ON p.verdict_id = v.id");
        while (st.step()) {
            StoredVerdict v;
            v.status = st.text(1);
            v.reasons = st.text(2);
            v.flags = st.isNull(3) ? "" : st.text(3);
            v.runId = st.int64(4);
            v.log = st.isNull(5) ? "" : payload::unpack(st.blob(5));
            v.details = st.isNull(6) ? nlohmann::json() : nlohmann::json::parse(payload::unpack(st.blob(6)));
            v.count = static_cast<int>(st.int64(7));
            verdicts[st.text(0)] = std::move(v);
        }
    }
};

std::vector<std::string> split(const std::string &s)
{
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= s.size() && !s.empty()) {
        const size_t c = s.find(',', start);
        out.push_back(s.substr(start, c == std::string::npos ? std::string::npos : c - start));
        if (c == std::string::npos)
            break;
        start = c + 1;
    }
    return out;
}

class VerifyFixture : public ::testing::TestWithParam<VerifierFixture>
{
};

TEST_P(VerifyFixture, VerdictMatchesManifest)
{
    const VerifierFixture &f = GetParam();
    SuiteCorpus &suite = SuiteCorpus::get();
    ASSERT_TRUE(suite.error.empty()) << suite.error;
    auto it = suite.verdicts.find(f.name);
    ASSERT_NE(it, suite.verdicts.end()) << "no verdict stored for fixture " << f.name;
    const StoredVerdict &v = it->second;
    EXPECT_EQ(v.count, 1) << "exactly one verdict per sample and run";
    const auto reasons = split(v.reasons);
    // expect_any: a sample several layers stop (stage 0, the runtime wall...) may be caught by any of them
    if (f.raw.contains("expect_any")) {
        bool matched = false;
        for (const auto &alt : f.raw["expect_any"]) {
            const std::string reason = alt.value("reason", std::string());
            matched =
                matched || (alt.value("expect", std::string()) == v.status &&
                            (reason.empty() || std::find(reasons.begin(), reasons.end(), reason) != reasons.end()));
        }
        EXPECT_TRUE(matched) << f.name << ": got " << v.status << " " << v.reasons << ", none of expect_any";
        return;
    }
    EXPECT_EQ(v.status, f.expect) << f.name << ": reasons " << v.reasons << "; message "
                                  << v.details.value("message", std::string()) << "\nlog tail: "
                                  << (v.log.size() > 1500 ? v.log.substr(v.log.size() - 1500) : v.log);
    if (!f.reason.empty()) {
        EXPECT_NE(std::find(reasons.begin(), reasons.end(), f.reason), reasons.end())
            << f.name << ": expected reason " << f.reason << ", got " << v.reasons;
    }
    if (f.raw.contains("must_not_exist")) {
        EXPECT_FALSE(fs::exists(f.raw["must_not_exist"].get<std::string>())) << "the candidate wrote outside scratch";
    }
    if (f.raw.contains("log_must_not_contain")) {
        const std::string secret = f.raw["log_must_not_contain"];
        EXPECT_EQ(v.log.find(secret), std::string::npos) << "a planted secret reached the stored log";
        EXPECT_EQ(v.details.dump().find(secret), std::string::npos) << "a planted secret reached the stored details";
    }
    if (f.raw.contains("expect_dropped_shapes")) {
        EXPECT_EQ(v.details.value("dropped_shapes", nlohmann::json::array()).size(),
                  f.raw["expect_dropped_shapes"].get<size_t>());
    }
    for (const auto &flag : f.raw.value("flags_absent", nlohmann::json::array()))
        EXPECT_EQ(v.flags.find(flag.get<std::string>()), std::string::npos);
    // CPU verdicts must say they were interpreted.
    if (v.details.contains("interpreted") && v.details["interpreted"].is_boolean()) {
        EXPECT_TRUE(v.details["interpreted"].get<bool>());
    }
}

std::string fixtureName(const ::testing::TestParamInfo<VerifierFixture> &info)
{
    std::string n = info.param.name;
    for (char &c : n)
        if (!isalnum(static_cast<unsigned char>(c)))
            c = '_';
    return n;
}

INSTANTIATE_TEST_SUITE_P(Manifest, VerifyFixture, ::testing::ValuesIn(cpuFixtures()), fixtureName);

} // namespace
