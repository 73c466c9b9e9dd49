// A seeded mutational fuzzer for everything Sieve reads from outside: each importer (through the real
// importFiles into a real corpus file), answer extraction, the worker protocol decoder and the
// chat-completions wire decoders (JSON replies, server-sent events fed in random pieces, the key check).
// Deterministic for a given --seed, bounded by --cases, so CI runs it as a test: a crash or a broken
// invariant fails it, and in the asan preset (tests/CMakeLists.txt) a memory error or leak too. A case
// that runs longer than --hang-ms is a hang: the driver prints it and exits 3 (--save DIR keeps the
// case being run in DIR/current).
//
//   sieve_fuzz TARGET [--cases N] [--seed S] [--hang-ms MS] [--save DIR]
//   TARGET: answer | sieve | kernelbook | cuda-archive | kernelbench-jsonl | kernelbench-file |
//           worker-line | completion | sse
#include "core/db/corpus.h"
#include "core/import/importer.h"
#include "core/prompt/answer.h"
#include "gpu/verify/verifytypes.h"
#include "gpu/verify/workerprotocol.h"
#include "net/chatwire.h"
#include "net/redaction.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using namespace sieve;

namespace {

std::string readAll(const fs::path &p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<std::string> linesOf(const std::string &text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    std::string l;
    while (std::getline(in, l))
        if (!l.empty())
            out.push_back(l);
    return out;
}

// Tokens that break parsers: structure, escapes, surrogates, invalid UTF-8, huge numbers, the key.
const std::vector<std::string> kTokens = {
    "{",
    "}",
    "[",
    "]",
    "\"",
    ",",
    ":",
    "\\",
    "\\u0000",
    "\\ud800",
    "\\udc00x",
    "\\u0073k-",
    "\xff",
    "\xc3",
    "\xe2\x82",
    "\xf4\x90\x80\x80",
    "\n",
    "\r\n",
    "\n\n",
    "data: ",
    "data: [DONE]\n\n",
    ": ping\n",
    "null",
    "true",
    "1e999999",
    "-0",
    "99999999999999999999999",
    "NaN",
    "\"choices\":[",
    "\"message\":{",
    "\"delta\":{",
    "\"content\":",
    "```",
    "```python\nclass ModelNew(nn.Module):\n",
    "<think>",
    "</think>",
    "\"op\":\"verdict\"",
    "\"job\":",
    "\"status\":",
    "sk-FUZZKEY",
    "\"code\":",
    "\"task_id\":",
    "\"reference_code\":",
    "\"response\":",
    "level99999999999",
};

class Mutator
{
public:
    explicit Mutator(std::uint64_t seed) : m_rng(seed) {}

    std::size_t below(std::size_t n)
    {
        return n == 0 ? 0 : std::uniform_int_distribution<std::size_t>(0, n - 1)(m_rng);
    }

    std::string mutate(std::string s, const std::vector<std::string> &seeds)
    {
        const int rounds = 1 + static_cast<int>(below(6));
        for (int r = 0; r < rounds; ++r) {
            const std::size_t at = below(s.size() + 1);
            switch (below(9)) {
            case 0: // flip a bit
                if (!s.empty())
                    s[below(s.size())] ^= static_cast<char>(1u << below(8));
                break;
            case 1: // random byte
                s.insert(s.begin() + static_cast<std::ptrdiff_t>(at), static_cast<char>(below(256)));
                break;
            case 2: { // delete a range
                const std::size_t n = below(std::min<std::size_t>(s.size() - std::min(at, s.size()), 64) + 1);
                s.erase(std::min(at, s.size()), n);
                break;
            }
            case 3: // duplicate a range
                if (!s.empty()) {
                    const std::size_t from = below(s.size());
                    const std::size_t n = below(std::min<std::size_t>(s.size() - from, 256) + 1);
                    s.insert(at, s.substr(from, n));
                }
                break;
            case 4:
            case 5: // a token
                s.insert(at, kTokens[below(kTokens.size())]);
                break;
            case 6: { // deep nesting
                const char open = below(2) ? '[' : '{';
                const std::string prefix = open == '[' ? "[" : "{\"a\":";
                std::string deep;
                const std::size_t depth = 1 + below(below(2) ? 100 : 20000);
                for (std::size_t i = 0; i < depth; ++i)
                    deep += prefix;
                s.insert(at, deep);
                break;
            }
            case 7: // splice with another seed
                if (!seeds.empty()) {
                    const std::string &o = seeds[below(seeds.size())];
                    s = s.substr(0, at) + o.substr(below(o.size() + 1));
                }
                break;
            case 8: // truncate
                s.resize(at);
                break;
            }
            if (s.size() > (1u << 20))
                s.resize(1u << 20);
        }
        return s;
    }

private:
    std::mt19937_64 m_rng;
};

struct Target
{
    std::vector<std::string> seeds;
    std::function<void(const std::string &input, Mutator &m)> run;
};

[[noreturn]] void fail(const std::string &what, const std::string &input)
{
    std::fprintf(stderr, "sieve_fuzz: %s\ninput (%zu bytes): %s\n", what.c_str(), input.size(),
                 input.substr(0, 400).c_str());
    std::abort();
}

// One corpus per importer target, reused by all of its cases (as a user re-imports into one file).
struct ImportTarget
{
    fs::path dir;
    std::unique_ptr<Corpus> corpus;
    ImportFormat format;
    ImportTarget(const fs::path &work, ImportFormat f) : dir(work), format(f)
    {
        fs::create_directories(dir);
        corpus = std::make_unique<Corpus>(Corpus::create((dir / "fuzz.sieve").string()));
    }
    void import(const std::vector<std::string> &paths, const std::string &input)
    {
        ImportReport r;
        try {
            ImportOptions o;
            o.pipeline = false; // one thread: ASan reports point at the parser, and cases stay cheap
            r = importFiles(*corpus, format, paths, o);
        } catch (const std::exception &e) {
            fail(std::string("importFiles threw (it may only when the corpus cannot be written): ") + e.what(), input);
        }
        (void)r.toJson().dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        if (corpus->db().queryInt("SELECT count(*) FROM imports WHERE finished_at IS NULL").value_or(1) != 0)
            fail("an import was left unfinished", input);
    }
};

std::map<std::string, Target> targets(const fs::path &data, const fs::path &work)
{
    std::map<std::string, Target> t;
    const auto importSeeds = [&](const char *file) { return linesOf(readAll(data / "import" / file)); };

    t["answer"] = {
        {R"({"choices":[{"message":{"content":"```python\nclass ModelNew(nn.Module):\n    pass\n```","reasoning_content":"r"}}]})",
         "<think>draft ```python\nclass ModelNew: pass\n```</think>\n```python\nclass ModelNew(M):\n  x\n```",
         "~~~\nclass ModelNew:\n~~~\n```\nunclosed"},
        [](const std::string &in, Mutator &) {
            const answer::Extracted e = answer::extract(in);
            if (e.hasAnswer && !answer::definesClass(e.code, "ModelNew"))
                fail("an extracted answer does not define ModelNew", in);
        }};

    struct Jsonl
    {
        const char *name;
        ImportFormat format;
        std::vector<const char *> files;
    };
    for (const Jsonl &j :
         {Jsonl{"sieve", ImportFormat::Sieve, {"sieve_tasks.jsonl", "sieve_samples.jsonl", "bad/sieve_bad.jsonl"}},
          Jsonl{"kernelbook", ImportFormat::KernelBook, {"kernelbook.jsonl", "bad/kernelbook_bad.jsonl"}},
          Jsonl{"cuda-archive", ImportFormat::CudaArchive, {"cuda_archive.jsonl", "bad/cuda_archive_bad.jsonl"}},
          Jsonl{"kernelbench-jsonl", ImportFormat::KernelBench, {"kernelbench.jsonl", "bad/kernelbench_bad.jsonl"}}}) {
        std::vector<std::string> seeds;
        for (const char *f : j.files)
            for (auto &l : importSeeds(f))
                seeds.push_back(std::move(l));
        auto target = std::make_shared<ImportTarget>(work / j.name, j.format);
        t[j.name] = {seeds, [target](const std::string &in, Mutator &m) {
                         // A few lines per file: a mutated one among intact ones, so that per-line rejection
                         // and the commit of the rest are exercised together.
                         const fs::path file = target->dir / "input.jsonl";
                         {
                             std::ofstream out(file, std::ios::binary | std::ios::trunc);
                             out << in;
                             if (m.below(2))
                                 out << '\n' << in.substr(0, m.below(in.size() + 1));
                         }
                         target->import({file.string()}, in);
                     }};
    }

    {
        std::vector<std::string> seeds;
        for (const auto &e : fs::recursive_directory_iterator(data / "import" / "kernelbench"))
            if (e.path().extension() == ".py")
                seeds.push_back(readAll(e.path()));
        auto target = std::make_shared<ImportTarget>(work / "kernelbench-file", ImportFormat::KernelBench);
        t["kernelbench-file"] = {
            seeds, [target](const std::string &in, Mutator &m) {
                // The content and, now and then, the file and folder names are mutated.
                const fs::path root = target->dir / "tree";
                fs::remove_all(root);
                static const std::vector<std::string> folders = {"level1",           "level2",  "level007", "level0",
                                                                 "level99999999999", "level1x", "lev\xffl1"};
                static const std::vector<std::string> names = {
                    "19_ReLU.py", "007_Lead.py", "x.py", "1_\xff.py", "99999999999999999999_A.py", "1_.py", "1_A.txt"};
                const fs::path file = root / folders[m.below(2) ? 0 : m.below(folders.size())] /
                                      names[m.below(2) ? 0 : m.below(names.size())];
                fs::create_directories(file.parent_path());
                std::ofstream(file, std::ios::binary) << in;
                target->import({root.string()}, in);
            }};
    }

    t["worker-line"] = {
        {R"({"op":"hello","worker_version":"1","env":{"gpu":"cpu","torch":"2.11"}})",
         R"({"op":"task_ready","task_key":"k","ok":true,"hygiene":[],"dropped_shapes":[]})",
         R"({"op":"verdict","job":3,"sample_id":9,"status":"PASS","stage":"correct","reasons":[],"checks":[{"shape_index":0,"shape":{"N":7},"seed":1,"ok":true,"max_abs":0.0}],"timings":[{"shape_index":0,"which":"candidate","median_ms":0.1,"runs":10}],"details":{"x":[1,2]}})",
         R"({"op":"error","message":"bad request"})"},
        [](const std::string &in, Mutator &) {
            const auto msg = gpu::decodeWorkerLine(in);
            if (!msg)
                return;
            const gpu::VerdictRecord v = gpu::verdictFromMessage(*msg);
            (void)msg->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
            (void)v.details.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        }};

    t["completion"] = {
        {R"({"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"hi sk-FUZZKEY","reasoning_content":"r"},"finish_reason":"stop"}]})",
         R"({"error":{"message":"overloaded"}})", R"({"choices":[]})"},
        [](const std::string &in, Mutator &) {
            try {
                (void)net::parseCompletion(in);
            } catch (const net::WireError &) {
            }
            (void)net::replyCarriesKey(in, false, "sk-FUZZKEY");
        }};

    t["sse"] = {
        {"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"sk-\"}}]}\n\ndata: "
         "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"FUZZKEY\"},\"finish_reason\":\"stop\"}]}\n\ndata: "
         "[DONE]\n\n",
         ": keep-alive\n\ndata: {\"choices\":[{\"delta\":{\"reasoning_content\":\"\\u0073k-FUZZ\"}}]}\ndata: x\n\n",
         "event: error\ndata: {\"error\":{\"message\":\"boom\"}}\n\n"},
        [](const std::string &in, Mutator &m) {
            net::SseDecoder d;
            try {
                std::size_t pos = 0;
                while (pos < in.size()) { // in random pieces, as the network delivers them
                    const std::size_t n = 1 + m.below(std::min<std::size_t>(in.size() - pos, 97));
                    d.feed(std::string_view(in).substr(pos, n));
                    pos += n;
                }
                d.finish();
            } catch (const net::WireError &) {
            }
            const bool carried = net::replyCarriesKey(in, true, "sk-FUZZKEY");
            const auto &p = d.parts();
            if (!carried && (p.content.find("sk-FUZZKEY") != std::string::npos ||
                             p.reasoning.find("sk-FUZZKEY") != std::string::npos))
                fail("the decoder joined the key but replyCarriesKey did not see it", in);
        }};
    return t;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: sieve_fuzz TARGET [--cases N] [--seed S] [--hang-ms MS] [--save DIR]\n");
        return 2;
    }
    const std::string name = argv[1];
    long cases = 2000, hangMs = 10000;
    std::uint64_t seed = 1;
    std::string save;
    for (int i = 2; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        if (a == "--cases")
            cases = std::atol(argv[i + 1]);
        else if (a == "--seed")
            seed = std::strtoull(argv[i + 1], nullptr, 10);
        else if (a == "--hang-ms")
            hangMs = std::atol(argv[i + 1]);
        else if (a == "--save")
            save = argv[i + 1];
    }
    const fs::path work = fs::temp_directory_path() / ("sieve-fuzz-" + std::to_string(::getpid()));
    fs::remove_all(work);
    int rc = 0;
    {
        auto all = targets(SIEVE_TEST_DATA, work);
        auto it = all.find(name);
        if (it == all.end()) {
            std::fprintf(stderr, "sieve_fuzz: unknown target '%s'\n", name.c_str());
            fs::remove_all(work);
            return 2;
        }
        Target &target = it->second;
        Mutator m(seed);
        std::atomic<long> current{-1};
        std::atomic<bool> finished{false};
        std::string input;
        std::thread watchdog([&] {
            long last = -2;
            auto since = std::chrono::steady_clock::now();
            while (!finished.load()) {
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
                const long c = current.load();
                if (c != last) {
                    last = c;
                    since = std::chrono::steady_clock::now();
                } else if (c >= 0 && std::chrono::steady_clock::now() - since > std::chrono::milliseconds(hangMs)) {
                    std::fprintf(stderr, "sieve_fuzz: HANG in %s case %ld (seed %llu), over %ld ms\n", name.c_str(), c,
                                 static_cast<unsigned long long>(seed), hangMs);
                    std::_Exit(3);
                }
            }
        });
        const auto t0 = std::chrono::steady_clock::now();
        for (long c = 0; c < cases; ++c) {
            // Every seed as it is first, then mutations of random seeds.
            const std::string &base = target.seeds[static_cast<std::size_t>(c) % target.seeds.size()];
            input = c < static_cast<long>(target.seeds.size()) ? base : m.mutate(base, target.seeds);
            if (!save.empty()) {
                fs::create_directories(save);
                std::ofstream(fs::path(save) / "current", std::ios::binary | std::ios::trunc) << input;
            }
            current.store(c);
            target.run(input, m);
        }
        finished.store(true);
        watchdog.join();
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::printf("sieve_fuzz %s: %ld cases, seed %llu, %.1f s: crashes 0, hangs 0\n", name.c_str(), cases,
                    static_cast<unsigned long long>(seed), s);
    }
    fs::remove_all(work);
    return rc;
}
