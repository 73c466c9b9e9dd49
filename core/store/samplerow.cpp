#include "core/store/samplerow.h"

#include "core/db/payload.h"

namespace sieve::store {

namespace {
const char *expression(SampleColumn c)
{
    switch (c) {
    case SampleColumn::Id:
        return "s.id";
    case SampleColumn::TaskId:
        return "s.task_id";
    case SampleColumn::Name:
        return "s.name";
    case SampleColumn::TaskName:
        return "t.name";
    case SampleColumn::Status:
        return "s.status";
    case SampleColumn::Review:
        return "s.review";
    case SampleColumn::Speedup:
        return "s.speedup";
    case SampleColumn::Cluster:
        return "s.cluster_id";
    case SampleColumn::Attempt:
        return "s.attempt";
    case SampleColumn::Model:
        return "s.model";
    case SampleColumn::Backend:
        return "s.backend";
    case SampleColumn::Reviewer:
        return "(SELECT r.reviewer FROM reviews r WHERE r.sample_id = s.id ORDER BY r.id DESC LIMIT 1)";
    case SampleColumn::Reason:
        return "(SELECT r.reason FROM reviews r WHERE r.sample_id = s.id ORDER BY r.id DESC LIMIT 1)";
    case SampleColumn::Code:
        return "p.code";
    }
    return "NULL";
}

std::optional<std::string> optText(const db::Statement &st, int c)
{
    return st.isNull(c) ? std::nullopt : std::optional<std::string>(st.text(c));
}
} // namespace

std::string SampleColumns::selectList() const
{
    std::string s;
    for (SampleColumn c : m_columns) {
        s += s.empty() ? "" : ", ";
        s += expression(c);
    }
    return s;
}

SampleRow SampleColumns::read(const db::Statement &st, int first) const
{
    SampleRow r;
    int i = first;
    for (SampleColumn c : m_columns) {
        switch (c) {
        case SampleColumn::Id:
            r.id = st.int64(i);
            break;
        case SampleColumn::TaskId:
            r.taskId = st.int64(i);
            break;
        case SampleColumn::Name:
            r.name = st.text(i);
            break;
        case SampleColumn::TaskName:
            r.taskName = st.text(i);
            break;
        case SampleColumn::Status:
            r.status = st.text(i);
            break;
        case SampleColumn::Review:
            r.review = st.text(i);
            break;
        case SampleColumn::Speedup:
            r.speedup = st.optReal(i);
            break;
        case SampleColumn::Cluster:
            r.cluster = st.optInt64(i);
            break;
        case SampleColumn::Attempt:
            r.attempt = st.optInt64(i);
            break;
        case SampleColumn::Model:
            r.model = optText(st, i);
            break;
        case SampleColumn::Backend:
            r.backend = st.text(i);
            break;
        case SampleColumn::Reviewer:
            r.reviewer = optText(st, i);
            break;
        case SampleColumn::Reason:
            r.reason = optText(st, i);
            break;
        case SampleColumn::Code:
            if (!st.isNull(i))
                r.code = payload::unpack(st.blob(i));
            break;
        }
        ++i;
    }
    return r;
}

} // namespace sieve::store
