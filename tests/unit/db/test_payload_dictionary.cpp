// Payload dictionaries (core/db/payload.h): trained by a corpus's first large import, stored in
// payload_dicts in the same transaction as the first blob that needs one, found again by any process
// that opens the corpus; used by both codecs (zstd frames, LZ4 blocks).
#include "core/db/corpus.h"
#include "core/db/payload.h"
#include "core/import/importer.h"
#include "tests/unit/testutil.h"

#include <gtest/gtest.h>

#include <fstream>
#include <random>

using namespace sieve;

namespace {
// A Triton kernel file like a teacher's: shared boilerplate, its own names, numbers and comment words.
std::string kernelText(int i, std::size_t minBytes = 0)
{
    std::mt19937 rng(static_cast<unsigned>(i));
    static const char *ops[] = {"relu", "gelu", "add", "mul", "softmax", "layernorm", "rmsnorm", "silu"};
    static const char *words[] = {"tile", "mask",  "stride", "warp", "block",  "row",    "column", "fused",
                                  "load", "store", "grid",   "lane", "offset", "reduce", "scale",  "bias"};
    const std::string op = ops[rng() % 8], k = op + "_kernel_" + std::to_string(rng() % 100000);
    const std::string v = "acc_" + std::to_string(rng() % 1000), block = std::to_string(128 << (rng() % 4));
    std::string t;
    while (t.size() + 700 < minBytes) {
        t += "#";
        for (int w = 0; w < 12; ++w)
            t += std::string(" ") + words[rng() % 16];
        t += "\n";
    }
    t += "import torch\nimport torch.nn as nn\nimport triton\nimport triton.language as tl\n\n\n@triton.jit\n"
         "def " +
         k +
         "(x_ptr, y_ptr, n_elements, BLOCK_SIZE: tl.constexpr):\n"
         "    pid = tl.program_id(axis=0)\n    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)\n"
         "    mask = offsets < n_elements\n    " +
         v +
         " = tl.load(x_ptr + offsets, mask=mask, other=0.0)\n"
         "    tl.store(y_ptr + offsets, " +
         v + " * " + std::to_string(rng() % 97) +
         ".5, mask=mask)\n\n\n"
         "class ModelNew(nn.Module):\n    def forward(self, x):\n        y = torch.empty_like(x)\n"
         "        n = x.numel()\n        grid = (triton.cdiv(n, " +
         block +
         "),)\n"
         "        " +
         k + "[grid](x, y, n, BLOCK_SIZE=" + block + ")\n        return y\n";
    return t;
}

std::string jsonString(const std::string &s)
{
    std::string o = "\"";
    for (char c : s)
        o += c == '\n' ? std::string("\\n") : c == '"' ? std::string("\\\"") : std::string(1, c);
    return o + "\"";
}

// Rows of Sieve JSONL for task t/double (tests/data/import/sieve_tasks.jsonl), about 2.1 KB each.
void writeSamples(const std::string &path, int from, int count)
{
    std::ofstream out(path);
    out << test::readFile(test::testData("import/sieve_tasks.jsonl"));
    for (int i = from; i < from + count; ++i)
        out << "{\"sample_id\":\"s" << i << "\",\"task_id\":\"t/double\",\"code\":" << jsonString(kernelText(i, 2100))
            << "}\n";
}
} // namespace

TEST(PayloadDictionary, ATrainedDictionaryPacksKernelsSmallerAndTheyRoundTrip)
{
    std::vector<std::string> texts;
    for (int i = 0; i < 1000; ++i)
        texts.push_back(kernelText(i));
    const std::string dict = payload::trainDictionary(std::vector<std::string_view>(texts.begin(), texts.end()));
    ASSERT_FALSE(dict.empty());
    const std::uint32_t id = payload::dictionaryId(dict);
    ASSERT_NE(id, 0u);
    EXPECT_FALSE(payload::hasDictionary(id));
    EXPECT_THROW(payload::pack(kernelText(5000), id), std::logic_error);
    payload::registerDictionary(dict);
    payload::registerDictionary(dict); // idempotent
    EXPECT_TRUE(payload::hasDictionary(id));

    std::size_t plain = 0, withDict = 0;
    for (int i = 5000; i < 5100; ++i) { // texts the dictionary never saw
        const std::string text = kernelText(i);
        const std::string a = payload::pack(text), b = payload::pack(text, id);
        EXPECT_EQ(payload::dictionaryOf(a), 0u);
        EXPECT_EQ(payload::dictionaryOf(b), id);
        EXPECT_EQ(payload::unpack(b), text);
        plain += a.size();
        withDict += b.size();
    }
    EXPECT_LT(withDict * 3, plain * 2) << plain << " plain bytes against " << withDict;
    // Short texts stay raw whatever the dictionary.
    EXPECT_EQ(payload::unpack(payload::pack("x = 1", id)), "x = 1");
    EXPECT_EQ(payload::dictionaryOf(payload::pack("x = 1", id)), 0u);
    EXPECT_EQ(payload::dictionaryId("not a dictionary"), 0u);
    EXPECT_THROW(payload::registerDictionary("not a dictionary"), std::runtime_error);
}

TEST(PayloadDictionary, Lz4BlocksRoundTripWithAndWithoutTheDictionaryAndNameIt)
{
    std::vector<std::string> texts;
    for (int i = 0; i < 1000; ++i)
        texts.push_back(kernelText(i + 100000));
    const std::string dict = payload::trainDictionary(std::vector<std::string_view>(texts.begin(), texts.end()));
    ASSERT_FALSE(dict.empty());
    const std::uint32_t id = payload::dictionaryId(dict);
    EXPECT_THROW(payload::pack(kernelText(1), id, payload::Codec::Lz4), std::logic_error) << "not registered yet";
    payload::registerDictionary(dict);

    std::size_t plain = 0, withDict = 0, zstd = 0;
    for (int i = 200000; i < 200100; ++i) {
        const std::string text = kernelText(i);
        const std::string a = payload::pack(text, 0, payload::Codec::Lz4),
                          b = payload::pack(text, id, payload::Codec::Lz4);
        ASSERT_EQ(a[0], 'l');
        ASSERT_EQ(b[0], 'l');
        EXPECT_EQ(payload::dictionaryOf(a), 0u);
        EXPECT_EQ(payload::dictionaryOf(b), id);
        EXPECT_EQ(payload::unpack(a), text);
        EXPECT_EQ(payload::unpack(b), text);
        plain += a.size();
        withDict += b.size();
        zstd += payload::pack(text, id).size();
    }
    EXPECT_LT(withDict * 3, plain * 2) << plain << " bytes without the dictionary against " << withDict;
    EXPECT_LT(zstd, withDict) << "zstd packs smaller; LZ4 is the fast one";

    // Large, non-ASCII and repetitive texts; short ones stay raw.
    std::string large;
    for (int i = 0; i < 20000; ++i)
        large += "écart " + std::to_string(i % 97) + " ∑ tl.load(x_ptr + offs)\n";
    EXPECT_EQ(payload::unpack(payload::pack(large, id, payload::Codec::Lz4)), large);
    EXPECT_EQ(payload::pack("x = 1", id, payload::Codec::Lz4)[0], 'r');

    // A damaged block fails instead of returning other text.
    std::string bad = payload::pack(kernelText(7), id, payload::Codec::Lz4);
    EXPECT_THROW(payload::unpack(bad.substr(0, bad.size() / 2)), std::runtime_error);
    EXPECT_THROW(payload::unpack(bad.substr(0, 5)), std::runtime_error);
    bad[6] = static_cast<char>(bad[6] + 1); // the recorded size
    EXPECT_THROW(payload::unpack(bad), std::runtime_error);
    // A block whose dictionary is not registered names it.
    std::string other = payload::pack(kernelText(8), id, payload::Codec::Lz4);
    other[1] = static_cast<char>(other[1] ^ 0x5a);
    try {
        payload::unpack(other);
        ADD_FAILURE() << "unpacked without its dictionary";
    } catch (const std::runtime_error &e) {
        EXPECT_NE(std::string(e.what()).find("dictionary " + std::to_string(payload::dictionaryOf(other))),
                  std::string::npos)
            << e.what();
    }
}

TEST(PayloadDictionary, ImportsPackWithLz4UnlessAskedForZstdAndBothReadBack)
{
    test::TempDir dir;
    const std::string data = dir.file("s.jsonl");
    writeSamples(data, 300000, 40);
    auto codes = [](Corpus &c, std::int64_t importId) {
        std::vector<std::string> out;
        db::Statement st = c.db().prepare("SELECT p.code FROM sample_payloads p JOIN samples s ON s.id = p.sample_id "
                                          "WHERE s.import_id = ?1 ORDER BY s.name");
        st.bind(1, importId);
        while (st.step())
            out.push_back(st.blob(0));
        return out;
    };
    Corpus fast = Corpus::create(dir.file("fast.sieve")), small = Corpus::create(dir.file("small.sieve"));
    const auto a = importFiles(fast, ImportFormat::Sieve, {data});
    ImportOptions zstd;
    zstd.codec = payload::Codec::Zstd;
    const auto b = importFiles(small, ImportFormat::Sieve, {data}, zstd);
    const auto lz4Blobs = codes(fast, a.importId), zstdBlobs = codes(small, b.importId);
    ASSERT_EQ(lz4Blobs.size(), 40u);
    ASSERT_EQ(zstdBlobs.size(), 40u);
    for (std::size_t i = 0; i < lz4Blobs.size(); ++i) {
        EXPECT_EQ(lz4Blobs[i][0], 'l');
        EXPECT_EQ(zstdBlobs[i][0], 'z');
        EXPECT_EQ(payload::unpack(lz4Blobs[i]), payload::unpack(zstdBlobs[i]));
    }
    // The command line's switch, and its error.
    const auto cli =
        test::runCli({"import", dir.file("small.sieve"), "--format", "sieve", "--compression", "brotli", data});
    EXPECT_EQ(cli.exitCode, 2);
    EXPECT_NE(cli.err.find("--compression takes one of lz4, zstd; not 'brotli'"), std::string::npos) << cli.err;
    const auto again =
        test::runCli({"import", dir.file("small.sieve"), "--format", "sieve", "--compression", "zstd", data});
    EXPECT_EQ(again.exitCode, 0) << again.err;
}

TEST(PayloadDictionary, ALargeImportTrainsOneThatLaterImportsAndOtherProcessesUse)
{
    test::TempDir dir;
    const std::string db = dir.file("c.sieve"), big = dir.file("big.jsonl"), small = dir.file("small.jsonl");
    writeSamples(big, 0, 12000);
    writeSamples(small, 20000, 50);
    std::uint32_t id = 0;
    {
        Corpus c = Corpus::create(db);
        EXPECT_EQ(c.payloadDictionary(), 0u);
        const auto r = importFiles(c, ImportFormat::Sieve, {big});
        EXPECT_EQ(r.samplesAdded(), 12000u);
        EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM payload_dicts"), 1);
        EXPECT_EQ(c.db().queryInt("SELECT trained_on FROM payload_dicts"), 1000);
        EXPECT_EQ(c.db().queryInt("SELECT import_id FROM payload_dicts"), r.importId);
        id = c.payloadDictionary();
        ASSERT_NE(id, 0u);
        // Batches packed before the dictionary existed have none; the others use it.
        std::size_t used = 0, rows = 0;
        db::Statement st = c.db().prepare("SELECT code FROM sample_payloads ORDER BY sample_id");
        while (st.step()) {
            const std::string blob = st.blob(0);
            used += payload::dictionaryOf(blob) == id;
            ++rows;
            if (rows % 997 == 0) {
                EXPECT_NE(payload::unpack(blob).find("class ModelNew(nn.Module)"), std::string::npos);
            }
        }
        EXPECT_EQ(rows, 12000u);
        // How many batches other workers packed while one trained depends on the scheduler; the batch
        // that completed the training set is always packed with the result.
        EXPECT_GE(used, 1000u);

        // A small import trains nothing and uses the corpus's dictionary from its first row.
        const auto r2 = importFiles(c, ImportFormat::Sieve, {small});
        EXPECT_EQ(r2.samplesAdded(), 50u);
        EXPECT_EQ(c.db().queryInt("SELECT count(*) FROM payload_dicts"), 1);
        db::Statement last = c.db().prepare("SELECT p.code FROM sample_payloads p JOIN samples s ON s.id = p.sample_id "
                                            "WHERE s.import_id = ?1");
        last.bind(1, r2.importId);
        while (last.step())
            EXPECT_EQ(payload::dictionaryOf(last.blob(0)), id);
        EXPECT_EQ(c.db().queryText("PRAGMA integrity_check").value_or(""), "ok");
    }
    // Another process reads every code blob (dedup unpacks them all) through the stored dictionary.
    const auto ok = test::runCli({"dedup", db, "--dry-run"});
    EXPECT_EQ(ok.exitCode, 0) << ok.err;
    // Without it, the error names the dictionary instead of calling the payload corrupt.
    {
        db::Database raw(db, db::Database::Mode::ReadWrite);
        raw.exec("DELETE FROM payload_dicts");
    }
    const auto missing = test::runCli({"dedup", db, "--dry-run"});
    EXPECT_NE(missing.exitCode, 0);
    EXPECT_NE(missing.err.find("dictionary " + std::to_string(id)), std::string::npos) << missing.err;
}
