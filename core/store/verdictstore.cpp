#include "core/store/verdictstore.h"

#include "core/db/payload.h"

#include <map>

namespace sieve::store {

std::string joinComma(const std::vector<std::string> &v)
{
    std::string s;
    for (size_t i = 0; i < v.size(); ++i) {
        s += i ? "," : "";
        s += v[i];
    }
    return s;
}

std::vector<std::string> splitComma(const std::string &s)
{
    std::vector<std::string> out;
    size_t start = 0;
    while (start < s.size()) {
        const size_t end = s.find(',', start);
        const size_t stop = end == std::string::npos ? s.size() : end;
        if (stop > start)
            out.push_back(s.substr(start, stop - start));
        start = stop + 1;
    }
    return out;
}

VerdictInserter::VerdictInserter(db::Database &db)
    : m_db(db),
      m_verdict(db.prepare(
          "INSERT INTO verdicts(run_id, sample_id, status, stage, reasons, message, device, interpreted, "
          "kernels_launched, custom_kernel_share, candidate_ms, eager_ms, compile_ms, speedup, flags, duration_ms, "
          "created_at) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17) "
          "ON CONFLICT(run_id, sample_id) DO NOTHING")),
      m_payload(db.prepare("INSERT INTO verdict_payloads(verdict_id, log, details) VALUES(?1,?2,?3)")),
      m_check(db.prepare("INSERT OR REPLACE INTO verdict_checks(verdict_id, shape_index, shape_json, seed, ok, "
                         "max_abs, max_rel, mismatches, nonfinite_mismatches) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9)")),
      m_timing(db.prepare("INSERT OR REPLACE INTO verdict_timings(verdict_id, shape_index, which, median_ms, mean_ms, "
                          "std_ms, runs) VALUES(?1,?2,?3,?4,?5,?6,?7)"))
{
}

std::optional<std::int64_t> VerdictInserter::insert(std::int64_t runId, const VerdictRecord &v, std::int64_t createdAt)
{
    m_verdict.reset();
    m_verdict.bind(1, runId)
        .bind(2, v.sampleId)
        .bind(3, v.status)
        .bind(4, v.stage)
        .bind(5, joinComma(v.reasons))
        .bind(6, v.message)
        .bind(7, v.device)
        .bind(8, v.interpreted ? 1 : 0)
        .bind(9, v.kernelsLaunched)
        .bind(10, v.customKernelShare)
        .bind(11, v.candidateMs)
        .bind(12, v.eagerMs)
        .bind(13, v.compileMs)
        .bind(14, v.speedup)
        .bind(15, joinComma(v.flags))
        .bind(16, v.durationMs)
        .bind(17, createdAt)
        .run();
    if (m_db.changes() == 0)
        return std::nullopt;
    const std::int64_t vid = m_db.lastInsertId();
    m_payload.reset();
    m_payload.bind(1, vid).bindBlob(2, payload::pack(v.log)).bindBlob(3, payload::pack(v.details.dump()));
    m_payload.run();
    for (const VerdictCheck &c : v.checks) {
        m_check.reset();
        m_check.bind(1, vid)
            .bind(2, c.shapeIndex)
            .bind(3, c.shapeJson)
            .bind(4, c.seed)
            .bind(5, c.ok ? 1 : 0)
            .bind(6, c.maxAbs)
            .bind(7, c.maxRel)
            .bind(8, c.mismatches)
            .bind(9, c.nonfiniteMismatches)
            .run();
    }
    for (const VerdictTiming &t : v.timings) {
        m_timing.reset();
        m_timing.bind(1, vid)
            .bind(2, t.shapeIndex)
            .bind(3, t.which)
            .bind(4, t.medianMs)
            .bind(5, t.meanMs)
            .bind(6, t.stdMs)
            .bind(7, t.runs)
            .run();
    }
    return vid;
}

void forEachVerdict(const db::Database &db, std::int64_t runId, const std::function<void(const StoredVerdict &)> &fn)
{
    // Checks and timings are read per run up front (two scans) rather than per verdict.
    std::map<std::int64_t, std::vector<VerdictCheck>> checks;
    {
        db::Statement st = db.prepare(
            "SELECT c.verdict_id, c.shape_index, c.shape_json, c.seed, c.ok, c.max_abs, c.max_rel, c.mismatches, "
            "c.nonfinite_mismatches FROM verdict_checks c JOIN verdicts v ON v.id = c.verdict_id WHERE v.run_id=?1 "
            "ORDER BY c.verdict_id, c.shape_index, c.seed");
        st.bind(1, runId);
        while (st.step()) {
            VerdictCheck c;
            c.shapeIndex = static_cast<int>(st.int64(1));
            c.shapeJson = st.isNull(2) ? std::string() : st.text(2);
            c.seed = static_cast<int>(st.int64(3));
            c.ok = st.int64(4) != 0;
            c.maxAbs = st.optReal(5);
            c.maxRel = st.optReal(6);
            c.mismatches = st.optInt64(7);
            c.nonfiniteMismatches = st.optInt64(8);
            checks[st.int64(0)].push_back(std::move(c));
        }
    }
    std::map<std::int64_t, std::vector<VerdictTiming>> timings;
    {
        db::Statement st = db.prepare(
            "SELECT t.verdict_id, t.shape_index, t.which, t.median_ms, t.mean_ms, t.std_ms, t.runs FROM "
            "verdict_timings t "
            "JOIN verdicts v ON v.id = t.verdict_id WHERE v.run_id=?1 ORDER BY t.verdict_id, t.shape_index, t.which");
        st.bind(1, runId);
        while (st.step()) {
            VerdictTiming t;
            t.shapeIndex = static_cast<int>(st.int64(1));
            t.which = st.text(2);
            t.medianMs = st.optReal(3);
            t.meanMs = st.optReal(4);
            t.stdMs = st.optReal(5);
            t.runs = st.optInt64(6);
            timings[st.int64(0)].push_back(std::move(t));
        }
    }
    db::Statement st = db.prepare(
        "SELECT v.id, v.sample_id, s.task_id, s.name, t.name, s.sample_key, t.task_key, s.code_hash, v.status, "
        "v.stage, "
        "v.reasons, v.message, v.device, v.interpreted, v.kernels_launched, v.custom_kernel_share, v.candidate_ms, "
        "v.eager_ms, v.compile_ms, v.speedup, v.flags, v.duration_ms, v.created_at, p.log, p.details "
        "FROM verdicts v JOIN samples s ON s.id = v.sample_id JOIN tasks t ON t.id = s.task_id "
        "LEFT JOIN verdict_payloads p ON p.verdict_id = v.id WHERE v.run_id=?1 ORDER BY v.id");
    st.bind(1, runId);
    while (st.step()) {
        StoredVerdict s;
        VerdictRecord &r = s.record;
        const std::int64_t vid = st.int64(0);
        r.sampleId = st.int64(1);
        r.taskId = st.int64(2);
        r.sampleName = st.text(3);
        r.taskName = st.text(4);
        s.sampleKey = st.text(5);
        s.taskKey = st.text(6);
        s.codeHash = st.isNull(7) ? std::string() : st.text(7);
        r.status = st.text(8);
        r.stage = st.isNull(9) ? std::string() : st.text(9);
        r.reasons = splitComma(st.isNull(10) ? std::string() : st.text(10));
        r.message = st.isNull(11) ? std::string() : st.text(11);
        r.device = st.isNull(12) ? std::string() : st.text(12);
        r.interpreted = st.int64(13) != 0;
        r.kernelsLaunched = st.optInt64(14);
        r.customKernelShare = st.optReal(15);
        r.candidateMs = st.optReal(16);
        r.eagerMs = st.optReal(17);
        r.compileMs = st.optReal(18);
        r.speedup = st.optReal(19);
        r.flags = splitComma(st.isNull(20) ? std::string() : st.text(20));
        r.durationMs = st.optReal(21);
        s.createdAt = st.int64(22);
        r.log = st.isNull(23) ? std::string() : payload::unpack(st.blob(23));
        const std::string details = st.isNull(24) ? std::string() : payload::unpack(st.blob(24));
        r.details = details.empty() ? nlohmann::json() : nlohmann::json::parse(details, nullptr, false);
        if (r.details.is_discarded())
            throw db::Error("verdict " + std::to_string(vid) + " of run " + std::to_string(runId) +
                                ": its details are not JSON",
                            0);
        if (auto it = checks.find(vid); it != checks.end())
            r.checks = std::move(it->second);
        if (auto it = timings.find(vid); it != timings.end())
            r.timings = std::move(it->second);
        fn(s);
    }
}

SampleStatusUpdater::SampleStatusUpdater(db::Database &db, bool unlessNewer)
    : m_update(unlessNewer ? db.prepare("UPDATE samples SET status=?1, speedup=?2 WHERE id=?3 AND NOT EXISTS "
                                        "(SELECT 1 FROM verdicts v WHERE v.sample_id=?3 AND v.created_at > ?4)")
                           : db.prepare("UPDATE samples SET status=?1, speedup=?2 WHERE id=?3")),
      m_unlessNewer(unlessNewer)
{
}

void SampleStatusUpdater::update(std::int64_t sampleId, const std::string &status, std::optional<double> speedup,
                                 std::int64_t verdictCreatedAt)
{
    m_update.reset();
    m_update.bind(1, status).bind(2, speedup).bind(3, sampleId);
    if (m_unlessNewer)
        m_update.bind(4, verdictCreatedAt);
    m_update.run();
}

void setTaskFlags(db::Database &db, std::int64_t taskId, const std::optional<std::string> &flags)
{
    db.prepare("UPDATE tasks SET flags=?1 WHERE id=?2").bind(1, flags).bind(2, taskId).run();
}

const std::vector<std::string> &verdictStatuses()
{
    static const std::vector<std::string> all = {"PENDING",      "PASS",          "FAIL_STATIC",  "FAIL_COMPILE",
                                                 "FAIL_RUNTIME", "FAIL_MISMATCH", "FAIL_SHAM",    "FAIL_SANDBOX",
                                                 "TIMEOUT",      "CRASH",         "UNVERIFIABLE", "CANCELLED"};
    return all;
}

} // namespace sieve::store
