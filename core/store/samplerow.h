#pragma once
// One sample as the corpus queries read it: the single row type behind the dedup, the stats and the
// workbench's sample table (ui/corpusbrowse adapts it to Qt types). A query names the columns it
// wants as a SampleColumns list; the select list and the reader come from that one list, so no
// caller reads a sample's columns by position.
#include "core/db/database.h"

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace sieve::store {

struct SampleRow
{
    std::int64_t id = 0;
    std::int64_t taskId = 0;
    std::string name, taskName, status, review, backend; // "" when NULL or not selected
    std::optional<std::string> model;
    std::optional<double> speedup;
    std::optional<std::int64_t> attempt, cluster;
    std::optional<std::string> reviewer, reason; // of the latest review ("undo" when it took one back)
    std::string code;                            // unpacked; "" when NULL or not selected
    std::vector<std::string> reasons;            // the newest verdict's reason codes (stats fills them)
};

enum class SampleColumn {
    Id,       // s.id
    TaskId,   // s.task_id
    Name,     // s.name
    TaskName, // t.name (the query joins tasks t)
    Status,   // s.status
    Review,   // s.review
    Speedup,  // s.speedup
    Cluster,  // s.cluster_id
    Attempt,  // s.attempt
    Model,    // s.model
    Backend,  // s.backend
    Reviewer, // the latest review's reviewer (an index lookup per row)
    Reason,   // the latest review's reason
    Code,     // p.code (the query joins sample_payloads p), unpacked
};

class SampleColumns
{
public:
    SampleColumns(std::initializer_list<SampleColumn> columns) : m_columns(columns) {}
    // "s.id, s.task_id, ..." in the list's order.
    std::string selectList() const;
    int size() const { return static_cast<int>(m_columns.size()); }
    // The row from the statement's columns first..first+size()-1; unselected fields keep their defaults.
    SampleRow read(const db::Statement &st, int first = 0) const;

private:
    std::vector<SampleColumn> m_columns;
};

} // namespace sieve::store
