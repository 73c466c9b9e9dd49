#include "tests/unit/gpu/test_verify_support.h"

#include "core/db/corpus.h"
#include "core/db/payload.h"
#include "core/util/hashing.h"
#include "gpu/nvrtc/nvrtclibrary.h"
#include "gpu/verify/pythonenv.h"
#include "gpu/verify/verificationengine.h"
#include "tests/unit/testutil.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace sieve::test {

std::vector<VerifierFixture> verifierFixtures()
{
    const std::string text = readFile(testData("verifier/manifest.json"));
    if (text.empty())
        throw std::runtime_error("tests/data/verifier/manifest.json is missing or empty");
    const nlohmann::json m = nlohmann::json::parse(text);
    std::vector<VerifierFixture> out;
    for (const auto &f : m.at("fixtures")) {
        VerifierFixture x;
        x.name = f.at("name").get<std::string>();
        x.task = f.at("task").get<std::string>();
        x.answer = f.at("answer").get<std::string>();
        x.backend = f.value("backend", std::string("triton"));
        x.expect = f.at("expect").get<std::string>();
        x.reason = f.contains("reason") && f.at("reason").is_string() ? f.at("reason").get<std::string>() : "";
        x.gpu = f.value("gpu", false);
        x.skipStatic = f.value("skip_static", false);
        x.cpuOnly = f.value("cpu_only", false);
        x.taskMeta = f.value("task_meta", nlohmann::json::object());
        x.raw = f;
        out.push_back(std::move(x));
    }
    return out;
}

std::vector<VerifierFixture> cpuFixtures()
{
    // A raw CUDA answer is compiled with NVRTC even without a GPU (its compile errors and manifest are
    // checked); a machine without the CUDA toolkit cannot, and says so: that is the verdict to expect there.
    std::string why;
    const bool nvrtc = gpu::NvrtcLibrary::get(&why) != nullptr;
    std::vector<VerifierFixture> out;
    for (auto &f : verifierFixtures()) {
        if (f.gpu)
            continue;
        // The source checks before the compile (includes, forbidden calls) still decide; what NVRTC
        // would have decided (compile errors, the manifest against the kernels, "needs a GPU") cannot.
        const bool beforeCompile = f.expect == "FAIL_STATIC" && f.reason != "MANIFEST_MISMATCH";
        if (!nvrtc && f.answer.ends_with(".cu") && !beforeCompile) {
            f.expect = "UNVERIFIABLE";
            f.reason = "NVRTC_UNAVAILABLE";
        }
        out.push_back(std::move(f));
    }
    return out;
}

std::string fixtureTaskName(const VerifierFixture &f)
{
    return f.task + "#" + hashing::contentKey({f.task, f.taskMeta.dump()}).substr(0, 8);
}

std::map<std::string, std::int64_t> addFixturesToCorpus(const std::string &dbPath,
                                                        const std::vector<VerifierFixture> &fixtures, int copies)
{
    Corpus c = Corpus::open(dbPath);
    db::Transaction tx(c.db());
    std::map<std::string, std::int64_t> ids;
    std::map<std::string, std::int64_t> taskIds;
    for (const auto &f : fixtures) {
        const std::string ref = readFile(testData("verifier/" + f.task));
        const std::string code = readFile(testData("verifier/" + f.answer));
        if (ref.empty() || code.empty())
            throw std::runtime_error("fixture " + f.name + ": cannot read " + f.task + " or " + f.answer);
        // One task per (file, meta), as a user corpus would hold one task per operator spec.
        const std::string key = hashing::contentKey({f.task, f.taskMeta.dump()});
        auto t = taskIds.find(key);
        if (t == taskIds.end()) {
            std::int64_t id = 0;
            db::Statement q = c.db().prepare("SELECT id FROM tasks WHERE task_key=?1");
            q.bind(1, key);
            if (q.step()) {
                id = q.int64(0);
            } else {
                const bool kernelbook = f.taskMeta.value("init_inputs_style", std::string()) == "kernelbook";
                c.db()
                    .prepare("INSERT INTO tasks(task_key, name, backend, dtype, atol, rtol, shapes_json, source, "
                             "created_at) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,0)")
                    .bind(1, key)
                    .bind(2, fixtureTaskName(f))
                    .bind(3, f.backend)
                    .bind(4, f.taskMeta.value("dtype", std::string("fp32")))
                    .bind(5, f.taskMeta.contains("atol") ? std::optional<double>(f.taskMeta["atol"].get<double>())
                                                         : std::nullopt)
                    .bind(6, f.taskMeta.contains("rtol") ? std::optional<double>(f.taskMeta["rtol"].get<double>())
                                                         : std::nullopt)
                    .bind(7, f.taskMeta.value("shapes", nlohmann::json::array()).dump())
                    .bind(8, kernelbook ? "kernelbook" : "sieve-fixtures")
                    .run();
                id = c.db().lastInsertId();
                c.db()
                    .prepare("INSERT INTO task_payloads(task_id, reference_code) VALUES(?1, ?2)")
                    .bind(1, id)
                    .bindBlob(2, payload::pack(ref))
                    .run();
            }
            t = taskIds.emplace(key, id).first;
        }
        for (int i = 0; i < copies; ++i) {
            const std::string name = copies == 1 ? f.name : f.name + "#" + std::to_string(i);
            c.db()
                .prepare("INSERT INTO samples(sample_key, name, task_id, backend, origin, has_answer, code_hash, "
                         "code_bytes, created_at) VALUES(?1,?2,?3,?4,'fixture',1,?5,?6,0)")
                .bind(1, hashing::contentKey({name, code}))
                .bind(2, name)
                .bind(3, t->second)
                .bind(4, f.backend)
                .bind(5, hashing::contentKey({code}))
                .bind(6, static_cast<std::int64_t>(code.size()))
                .run();
            const std::int64_t sid = c.db().lastInsertId();
            c.db()
                .prepare("INSERT INTO sample_payloads(sample_id, code) VALUES(?1, ?2)")
                .bind(1, sid)
                .bindBlob(2, payload::pack(code))
                .run();
            ids[name] = sid;
        }
    }
    tx.commit();
    return ids;
}

std::string verifyFixturesInCorpus(const std::string &dbPath, const std::vector<VerifierFixture> &fixtures,
                                   const std::map<std::string, std::int64_t> &ids, const std::string &cacheDir,
                                   std::optional<int> gpu)
{
    // Fixtures that bring their own stage timeouts (the infinite loop) run in a run of their own.
    std::map<std::string, std::vector<const VerifierFixture *>> groups;
    for (const auto &f : fixtures)
        groups[f.raw.value("timeouts", nlohmann::json::object()).dump()].push_back(&f);
    for (const auto &[timeouts, members] : groups) {
        gpu::VerifyOptions o;
        o.dbPath = dbPath;
        o.cpu = !gpu;
        if (gpu)
            o.gpus = {*gpu};
        o.parallel = 4;
        o.cacheDir = cacheDir;
        o.selection.all = true;
        const nlohmann::json t = nlohmann::json::parse(timeouts);
        o.timeouts.compile = t.value("compile", 120.0);
        o.timeouts.correct = t.value("correct", 120.0);
        for (const VerifierFixture *f : members) {
            o.selection.ids.push_back(ids.at(f->name));
            if (f->skipStatic)
                o.skipStaticSampleIds.push_back(ids.at(f->name));
            if (f->taskMeta.contains("max_task_bytes"))
                o.taskOverrides[fixtureTaskName(*f)] = {{"max_task_bytes", f->taskMeta["max_task_bytes"]}};
            const nlohmann::json planted = f->raw.value("planted_env", nlohmann::json::object());
            for (const auto &[k, v] : planted.items())
                o.workerEnv[k] = v.get<std::string>();
        }
        gpu::VerificationEngine engine(o);
        const auto summary = engine.run();
        if (summary.state != "finished")
            return "fixture run " + std::to_string(summary.runId) + " ended " + summary.state + ": " + summary.error;
    }
    return {};
}

std::vector<VerifierFixture> pickFixtures(const std::vector<std::string> &names)
{
    std::vector<VerifierFixture> out;
    for (const auto &f : verifierFixtures())
        if (std::find(names.begin(), names.end(), f.name) != names.end())
            out.push_back(f);
    EXPECT_EQ(out.size(), names.size()) << "fixtures missing from the manifest";
    return out;
}

std::string requireVerifierPython()
{
    try {
        return gpu::findPythonEnv().python;
    } catch (const std::exception &e) {
        ADD_FAILURE() << "the verifier tests need the verifier's Python (torch, triton, numpy): " << e.what();
        return {};
    }
}

} // namespace sieve::test
