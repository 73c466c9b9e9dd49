#pragma once
// A small real corpus built through the core API (the importers are not used, so these tests stand
// alone): tasks with reference modules, samples with code, reasoning, attempts and statuses, and
// verdict rows where the statistics need them.
#include "core/db/corpus.h"
#include "core/db/payload.h"

#include <optional>
#include <string>

namespace sieve::test {

inline std::int64_t addTask(Corpus &c, const std::string &name, std::optional<int> level,
                            std::optional<std::string> category, const std::string &backend = "triton",
                            const std::string &reference = {})
{
    auto st = c.db().prepare("INSERT INTO tasks(task_key, name, level, category, backend, target, created_at) "
                             "VALUES(?1, ?1, ?2, ?3, ?4, 'H200', 0)");
    st.bind(1, name)
        .bind(2, level ? std::optional<std::int64_t>(*level) : std::nullopt)
        .bind(3, category)
        .bind(4, backend);
    st.run();
    const std::int64_t id = c.db().lastInsertId();
    const std::string ref =
        reference.empty()
            ? "import torch\n\nclass Model(torch.nn.Module):\n    def forward(self, x):\n        return torch." + name +
                  "(x)\n\ndef get_inputs():\n    return [torch.randn(16, 256)]\n\n"
                  "def get_init_inputs():\n    return []\n"
            : reference;
    c.db()
        .prepare("INSERT INTO task_payloads(task_id, reference_code) VALUES(?1, ?2)")
        .bind(1, id)
        .bindBlob(2, payload::pack(ref))
        .run();
    return id;
}

struct SampleSpec
{
    std::string name;
    std::optional<int> attempt;
    std::string status = "PASS";
    std::optional<double> speedup;
    std::string model = "teacher-a";
    std::string code;      // default: a small Triton kernel naming the sample
    std::string reasoning; // default: a sentence naming the sample
    bool hasAnswer = true;
    std::string backend; // the answer's; default: the task's
};

inline std::int64_t addSample(Corpus &c, std::int64_t taskId, const SampleSpec &s)
{
    auto st = c.db().prepare(
        "INSERT INTO samples(sample_key, name, task_id, backend, origin, model, attempt, has_answer, status, speedup, "
        "created_at) VALUES(?1, ?2, ?3, coalesce(?9, (SELECT backend FROM tasks WHERE id=?3)), 'test', ?4, ?5, ?6, ?7, "
        "?8, 0)");
    st.bind(1, "key-" + std::to_string(taskId) + "-" + s.name + "-" + std::to_string(s.attempt.value_or(0)))
        .bind(2, s.name)
        .bind(3, taskId)
        .bind(4, s.model);
    st.bind(5, s.attempt ? std::optional<std::int64_t>(*s.attempt) : std::nullopt);
    st.bind(6, s.hasAnswer ? 1 : 0).bind(7, s.status).bind(8, s.speedup);
    st.bind(9, s.backend.empty() ? std::optional<std::string>() : std::optional<std::string>(s.backend));
    st.run();
    const std::int64_t id = c.db().lastInsertId();
    const std::string code = !s.code.empty() ? s.code
                                             : "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k_" +
                                                   std::to_string(id) + "(x_ptr, BLOCK: tl.constexpr):\n    pass  # " +
                                                   s.name + "\n\nclass ModelNew:\n    pass\n";
    const std::string reasoning =
        !s.reasoning.empty() ? s.reasoning : "Reasoning for " + s.name + ": one row per program.";
    c.db()
        .prepare("INSERT INTO sample_payloads(sample_id, code, reasoning) VALUES(?1, ?2, ?3)")
        .bind(1, id)
        .bindBlob(2, payload::pack(code))
        .bindBlob(3, payload::pack(reasoning))
        .run();
    return id;
}

inline void addVerdict(Corpus &c, std::int64_t sampleId, const std::string &status, const std::string &reasons)
{
    // One run per verdict, so that a later verdict of the same sample supersedes the earlier one.
    c.db().exec("INSERT INTO verify_runs(started_at, mode, verifier_version) VALUES(0, 'test', 'v-test')");
    c.db()
        .prepare("INSERT INTO verdicts(run_id, sample_id, status, reasons, created_at) VALUES("
                 "(SELECT max(id) FROM verify_runs), ?1, ?2, ?3, 0)")
        .bind(1, sampleId)
        .bind(2, status)
        .bind(3, reasons)
        .run();
}

inline std::int64_t addCluster(Corpus &c, std::int64_t representative, std::initializer_list<std::int64_t> members)
{
    c.db()
        .prepare("INSERT INTO clusters(scope, representative_id, size, created_at) VALUES('task', ?1, ?2, 0)")
        .bind(1, representative)
        .bind(2, static_cast<std::int64_t>(members.size()))
        .run();
    const std::int64_t id = c.db().lastInsertId();
    for (std::int64_t m : members)
        c.db().prepare("UPDATE samples SET cluster_id=?1 WHERE id=?2").bind(1, id).bind(2, m).run();
    return id;
}

// Eight tasks: easy, hard and unsolved ones over three levels and five categories, one unverified.
struct DemoCorpus
{
    std::int64_t relu, softmax, rmsnorm, gemm, attention, add, pending, conv;
    std::int64_t reluA, reluB, softmax1, softmax2, softmax3, rms1, rms2, gemm1, attn1, add1, pend1, conv1, conv2;
};

inline DemoCorpus buildDemo(Corpus &c)
{
    DemoCorpus d{};
    d.relu = addTask(c, "relu", 1, "activation");
    d.softmax = addTask(c, "softmax", 1, "reduction");
    d.rmsnorm = addTask(c, "rms_norm", 2, "normalization");
    d.gemm = addTask(c, "gemm_relu", 2, "gemm");
    d.attention = addTask(c, "attention", 3, "attention");
    d.add = addTask(c, "add", 1, "elementwise", "cuda");
    d.pending = addTask(c, "pending_op", 1, "activation");
    d.conv = addTask(c, "conv", 2, "conv");
    d.reluA = addSample(c, d.relu, {"relu-a1", 1, "PASS", 1.5});
    d.reluB = addSample(c, d.relu, {"relu-a2", 2, "PASS", 1.1});
    d.softmax1 = addSample(c, d.softmax, {"softmax-a1", 1, "FAIL_MISMATCH"});
    d.softmax2 = addSample(c, d.softmax, {"softmax-a2", 2, "FAIL_STATIC"});
    d.softmax3 = addSample(c, d.softmax, {"softmax-a3", 3, "PASS", 2.5});
    d.rms1 = addSample(c, d.rmsnorm, {"rms-a1", 1, "PASS", 0.9, "teacher-b"});
    d.rms2 = addSample(c, d.rmsnorm, {"rms-a2", 2, "PASS", 1.2, "teacher-b"});
    d.gemm1 = addSample(c, d.gemm, {"gemm-a1", 1, "PASS", 3.0});
    d.attn1 = addSample(c, d.attention, {"attn-a1", 1, "FAIL_RUNTIME"});
    d.add1 = addSample(c, d.add, {"add-a1", 1, "PASS", 1.0, "teacher-b"});
    d.pend1 = addSample(c, d.pending, {"pend-a1", 1, "PENDING"});
    d.conv1 = addSample(c, d.conv, {"conv-a1", 1, "FAIL_COMPILE"});
    d.conv2 = addSample(c, d.conv, {"conv-a2", 2, "PASS", 0.8});
    return d;
}

} // namespace sieve::test
