#pragma once
// The read queries behind the workbench's corpus browser (tasks, the sample table and its pages, a
// sample's details with its newest verdict and review history, speedups, clusters), over plain types.
// ui/corpusqueries adapts them to the Qt value structs its models hold; they run on the UI's database
// thread there. Sorting and filtering happen in SQL so that a million rows never have to be in memory.
#include "core/db/database.h"
#include "core/store/samplerow.h"
#include "core/store/teacherstore.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace sieve::store::browse {

// A page cache big enough for page and count queries over a large corpus (64 MiB).
void useBrowsingCache(db::Database &db);

struct TaskSummary
{
    std::int64_t id = 0;
    std::optional<std::string> name, category, backend;
    std::optional<std::int64_t> level;
    std::int64_t samples = 0, passed = 0, pending = 0, accepted = 0, rejected = 0;
};
// Every task with its sample counts, by name.
std::vector<TaskSummary> tasks(const db::Database &db);
std::vector<std::optional<std::string>> distinctStatuses(const db::Database &db);
// Samples per status over the whole corpus (one walk of the status index).
std::vector<std::pair<std::optional<std::string>, std::int64_t>> statusCounts(const db::Database &db);

// The sort columns, in the sample table's column order (each kept by an index).
enum SortColumn {
    SortId,
    SortName,
    SortStatus,
    SortSpeedup,
    SortAttempt,
    SortModel,
    SortCluster,
    SortReview,
    kSortColumnCount
};

struct SampleFilter
{
    std::vector<std::int64_t> taskIds; // empty: every task, unless tasksFiltered
    bool tasksFiltered = false;        // taskIds is the whole set even when empty
    std::string status, review;        // empty: any
    std::string text;                  // substring of the sample name or the teacher model
    std::string codeText;              // substring (any case) of the sample's code or reasoning
    // The teacher judge's suggestion (core/store/teacherstore.h): empty any; a verdict (implements,
    // delegates, wrong, unsure, unparseable); "flagged" (delegates or wrong); "unjudged".
    std::string judge;
    int sortColumn = 0; // a SortColumn; others sort by id
    bool ascending = true;
};

std::int64_t countSamples(const db::Database &db, const SampleFilter &f);

// Where a page starts: after the previous page's last row (keyset; lastValue empty when that row's sort
// value is NULL) or at an OFFSET.
using SortValue = std::variant<std::monostate, std::int64_t, double, std::string>;
struct PageStart
{
    std::int64_t offset = 0;
    bool keyset = false;
    SortValue lastValue;
    std::int64_t lastId = 0;
};
// Whether the sort column's index holds only the rows that have a value (speedup, cluster).
bool partlyIndexed(int sortColumn);
// One page of samples with the latest review's reviewer and reason.
std::vector<SampleRow> samples(const db::Database &db, const SampleFilter &f, const PageStart &start, int limit);
// Every sample the filter matches with its current review decision.
std::vector<std::pair<std::int64_t, std::optional<std::string>>> matchingReviews(const db::Database &db,
                                                                                 const SampleFilter &f);
// The reviews the database holds for these samples.
std::vector<std::pair<std::int64_t, std::optional<std::string>>> reviewsOf(const db::Database &db,
                                                                           const std::vector<std::int64_t> &sampleIds);

struct ReviewRow
{
    std::optional<std::string> decision, reason, note, reviewer;
    std::int64_t createdAt = 0;
};
// A sample's reviews, newest first.
std::vector<ReviewRow> history(const db::Database &db, std::int64_t sampleId);

struct CheckRow
{
    std::int64_t shapeIndex = 0;
    std::optional<std::string> shapeJson;
    std::int64_t seed = 0;
    bool ok = false;
    std::optional<double> maxAbs, maxRel;
    std::optional<std::int64_t> mismatches, nonfinite;
};
struct TimingRow
{
    std::int64_t shapeIndex = 0;
    std::optional<std::string> which;
    std::optional<double> medianMs, stdMs;
    std::optional<std::int64_t> runs;
};
struct NewestVerdict
{
    std::int64_t id = 0;
    std::optional<std::string> status, stage, reasons, message, device, flags, envJson, verifierVersion;
    bool interpreted = false;
    std::optional<std::int64_t> kernelsLaunched;
    std::optional<double> customKernelShare, speedup, durationMs;
    std::optional<std::string> log; // unpacked
    std::vector<CheckRow> checks;
    std::vector<TimingRow> timings;
};
struct SampleDetail
{
    SampleRow row;
    std::optional<std::string> taskName;
    std::optional<std::string> code, reasoning, reference; // unpacked
    std::optional<NewestVerdict> verdict;
    std::vector<ReviewRow> history;
    std::optional<JudgeSuggestion> judge;             // the teacher judge's suggestion
    std::optional<TeacherReasoning> teacherReasoning; // reasoning a teacher wrote (never the sample's own)
};
// nullopt when there is no such sample.
std::optional<SampleDetail> detail(const db::Database &db, std::int64_t sampleId);

// A task's speedups, ascending.
std::vector<double> taskSpeedups(const db::Database &db, std::int64_t taskId);
// Samples whose speedup is in [lo, hi) (either bound absent: open).
std::int64_t countSpeedups(const db::Database &db, std::optional<double> lo, std::optional<double> hi);

struct ClusterRow
{
    std::int64_t id = 0;
    std::optional<std::int64_t> taskId;
    std::optional<std::string> taskName;
    std::optional<std::int64_t> representative;
    std::int64_t size = 0;
};
std::vector<ClusterRow> clusters(const db::Database &db, std::int64_t taskId); // taskId < 0: all
struct ClusterMember
{
    std::int64_t sampleId = 0;
    std::optional<std::string> name, status, review;
    std::optional<double> similarity, speedup;
    bool representative = false;
};
std::vector<ClusterMember> clusterMembers(const db::Database &db, std::int64_t clusterId);

} // namespace sieve::store::browse
