#include "core/store/teacherstore.h"

#include "core/db/payload.h"
#include "core/db/unixtime.h"

namespace sieve::store {

namespace {
std::set<std::int64_t> ids(const db::Database &db, const char *sql)
{
    std::set<std::int64_t> out;
    db::Statement st = db.prepare(sql);
    while (st.step())
        out.insert(st.int64(0));
    return out;
}
} // namespace

void putJudgeSuggestion(db::Database &db, const JudgeSuggestion &s)
{
    db.prepare("INSERT OR REPLACE INTO judge_suggestions(sample_id, model, rubric, rubric_hash, verdict, confidence, "
               "created_at, details_json, answer) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)")
        .bind(1, s.sampleId)
        .bind(2, s.model)
        .bind(3, s.rubric)
        .bind(4, s.rubricHash)
        .bind(5, s.verdict)
        .bind(6, s.confidence)
        .bind(7, s.createdAt ? s.createdAt : unixNow())
        .bind(8, s.details.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace))
        .bindBlob(9, payload::pack(s.answer))
        .run();
}

std::optional<JudgeSuggestion> judgeSuggestion(const db::Database &db, std::int64_t sampleId)
{
    db::Statement st = db.prepare("SELECT model, rubric, rubric_hash, verdict, confidence, created_at, details_json, "
                                  "answer FROM judge_suggestions WHERE sample_id = ?1");
    st.bind(1, sampleId);
    if (!st.step())
        return std::nullopt;
    JudgeSuggestion s;
    s.sampleId = sampleId;
    s.model = st.text(0);
    s.rubric = st.text(1);
    s.rubricHash = st.text(2);
    s.verdict = st.text(3);
    s.confidence = st.optReal(4);
    s.createdAt = st.int64(5);
    s.details = nlohmann::json::parse(st.textView(6), nullptr, false);
    if (s.details.is_discarded())
        s.details = nlohmann::json::object();
    if (!st.isNull(7))
        s.answer = payload::unpack(st.blobView(7));
    return s;
}

std::set<std::int64_t> judgedSamples(const db::Database &db)
{
    return ids(db, "SELECT sample_id FROM judge_suggestions");
}

std::set<std::int64_t> judgeImplements(const db::Database &db)
{
    return ids(db, "SELECT sample_id FROM judge_suggestions WHERE verdict = 'implements'");
}

std::set<std::int64_t> judgeFlagged(const db::Database &db)
{
    return ids(db, "SELECT sample_id FROM judge_suggestions WHERE verdict IN ('delegates', 'wrong')");
}

void putTeacherReasoning(db::Database &db, const TeacherReasoning &r)
{
    db.prepare("INSERT OR REPLACE INTO teacher_reasoning(sample_id, model, prompt, prompt_hash, created_at, reasoning, "
               "response) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)")
        .bind(1, r.sampleId)
        .bind(2, r.model)
        .bind(3, r.prompt)
        .bind(4, r.promptHash)
        .bind(5, r.createdAt ? r.createdAt : unixNow())
        .bindBlob(6, payload::pack(r.reasoning))
        .bindBlob(7, payload::pack(r.response))
        .run();
}

std::optional<TeacherReasoning> teacherReasoning(const db::Database &db, std::int64_t sampleId)
{
    db::Statement st = db.prepare("SELECT model, prompt, prompt_hash, created_at, reasoning, response FROM "
                                  "teacher_reasoning WHERE sample_id = ?1");
    st.bind(1, sampleId);
    if (!st.step())
        return std::nullopt;
    TeacherReasoning r;
    r.sampleId = sampleId;
    r.model = st.text(0);
    r.prompt = st.text(1);
    r.promptHash = st.text(2);
    r.createdAt = st.int64(3);
    r.reasoning = payload::unpack(st.blobView(4));
    if (!st.isNull(5))
        r.response = payload::unpack(st.blobView(5));
    return r;
}

std::set<std::int64_t> samplesWithTeacherReasoning(const db::Database &db)
{
    return ids(db, "SELECT sample_id FROM teacher_reasoning");
}

std::set<std::int64_t> samplesWithoutOwnReasoning(const db::Database &db)
{
    // A packed empty text is a few bytes, never zero: unpack what is short to be sure.
    std::set<std::int64_t> out;
    db::Statement st = db.prepare("SELECT s.id, p.reasoning FROM samples s LEFT JOIN sample_payloads p ON "
                                  "p.sample_id = s.id WHERE s.has_answer = 1 AND (p.reasoning IS NULL OR "
                                  "length(p.reasoning) < 64)");
    while (st.step())
        if (st.isNull(1) || payload::unpack(st.blobView(1)).find_first_not_of(" \t\r\n") == std::string::npos)
            out.insert(st.int64(0));
    return out;
}

} // namespace sieve::store
