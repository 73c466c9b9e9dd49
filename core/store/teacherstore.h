#pragma once
// What the teacher says about samples besides sampling them (schema version 7), in one place:
//  - judge_suggestions: one judge suggestion per sample (sieve-cli judge): the teacher model, the
//    rubric and its SHA-256, the verdict (implements | delegates | wrong | unsure | unparseable), its
//    confidence, the details (quoted lines, where torch or a library does the work, whether the
//    reasoning matches the code) and the raw answer. A suggestion only: samples.status, the verdicts
//    and the reviews never change because of it.
//  - teacher_reasoning: reasoning the teacher wrote for a sample that came without its own (sieve-cli
//    explain), with its provenance (model, prompt and its SHA-256, time). Never in sample_payloads: a
//    sample's own trace and a teacher's explanation of it stay apart.
#include "core/db/database.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <set>
#include <string>

namespace sieve::store {

struct JudgeSuggestion
{
    std::int64_t sampleId = 0;
    std::string model, rubric, rubricHash;
    std::string verdict;
    std::optional<double> confidence;
    nlohmann::json details = nlohmann::json::object();
    std::string answer; // the teacher's answer as received (its content)
    std::int64_t createdAt = 0;
};

struct TeacherReasoning
{
    std::int64_t sampleId = 0;
    std::string model, prompt, promptHash;
    std::string reasoning;
    std::string response; // the raw reply
    std::int64_t createdAt = 0;
};

// Writes (or replaces) a sample's suggestion; createdAt 0 = now.
void putJudgeSuggestion(db::Database &db, const JudgeSuggestion &s);
std::optional<JudgeSuggestion> judgeSuggestion(const db::Database &db, std::int64_t sampleId);
// The samples that have a suggestion (any verdict, unparseable included).
std::set<std::int64_t> judgedSamples(const db::Database &db);
// The samples whose suggestion is `implements`, and those it flags (delegates, wrong).
std::set<std::int64_t> judgeImplements(const db::Database &db);
std::set<std::int64_t> judgeFlagged(const db::Database &db);

void putTeacherReasoning(db::Database &db, const TeacherReasoning &r);
std::optional<TeacherReasoning> teacherReasoning(const db::Database &db, std::int64_t sampleId);
std::set<std::int64_t> samplesWithTeacherReasoning(const db::Database &db);
// Samples with an answer and without reasoning of their own (empty or missing), by id.
std::set<std::int64_t> samplesWithoutOwnReasoning(const db::Database &db);

} // namespace sieve::store
