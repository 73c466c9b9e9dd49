#pragma once
// Plain value structs that cross from the database thread to the GUI thread. No pointers into the
// database, no QObjects: a result stays valid however long it waits in the event queue.
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <cmath>
#include <limits>

namespace sieve::ui {

inline constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();

struct TaskRow
{
    qint64 id = 0;
    QString name;
    int level = 0; // 0: unknown
    QString category;
    QString backend;
    qint64 samples = 0;
    qint64 passed = 0;
    qint64 pending = 0;
    qint64 accepted = 0;
    qint64 rejected = 0;
};

// What the sample table shows; sorting and filtering happen in SQL so that a million rows never
// have to be held in memory.
struct SampleQuery
{
    QList<qint64> taskIds;      // empty: every task, unless tasksFiltered
    bool tasksFiltered = false; // taskIds is the whole set even when empty (a task filter that matches none)
    QString status;             // empty: any
    QString review;             // empty: any
    QString text;               // substring of the sample name or the teacher model
    QString codeText;           // substring (any case) of the sample's code or reasoning
    QString judge;              // the judge's suggestion: a verdict, "flagged", "unjudged"; empty: any
    int sortColumn = 0;
    Qt::SortOrder order = Qt::AscendingOrder;
    bool operator==(const SampleQuery &) const = default;
};

// A sample table row: the Qt view of core's store::SampleRow (core/samplerow.h), made by
// ui/corpusqueries from what core/corpusbrowse reads.
struct SampleItem
{
    qint64 id = 0;
    qint64 taskId = 0;
    QString name;
    QString status;
    double speedup = kNoValue;
    int attempt = -1;
    QString model;
    qint64 cluster = -1;
    QString review;
    QString backend;
    QString reviewer; // of the latest review
    QString reason;   // of the latest review (a reason code; "undo" when it took one back)
};

struct CheckRow
{
    int shapeIndex = 0;
    QString shape;
    qint64 seed = 0;
    bool ok = false;
    double maxAbs = kNoValue;
    double maxRel = kNoValue;
    qint64 mismatches = 0;
    qint64 nonfinite = 0;
};

struct TimingRow
{
    int shapeIndex = 0;
    QString which; // candidate, eager, compile
    double medianMs = kNoValue;
    double stdMs = kNoValue;
    qint64 runs = 0;
};

struct VerdictInfo
{
    bool present = false;
    qint64 id = 0;
    QString status;
    QString stage;
    QStringList reasons;
    QString message;
    QString device;
    bool interpreted = false;
    qint64 kernelsLaunched = -1;
    double customKernelShare = kNoValue;
    double speedup = kNoValue;
    QStringList flags;
    double durationMs = kNoValue;
    QString log;
    QString envJson;
    QString verifierVersion;
    QList<CheckRow> checks;
    QList<TimingRow> timings;
};

struct ReviewEntry
{
    qint64 sampleId = 0;
    QString decision;
    QString reason;
    QString note;
    QString reviewer;
    qint64 createdAt = 0; // seconds since the epoch
};

struct JudgeLine
{
    int line = 0; // 0: the teacher gave no number
    QString text, why;
    bool matches = false; // the quote is that line of the code
};

// The teacher judge's suggestion for a sample (sieve-cli judge): never the verifier's verdict.
struct JudgeInfo
{
    bool present = false;
    QString verdict, model, rubric, rubricHash, summary, error;
    double confidence = kNoValue;
    QStringList delegatedTo;
    QList<JudgeLine> lines;
};

// Reasoning a teacher wrote for a sample without its own (sieve-cli explain), with its provenance.
struct TeacherReasoningInfo
{
    bool present = false;
    QString text, model, prompt, promptHash;
    qint64 createdAt = 0;
};

struct SampleDetail
{
    SampleItem row;
    QString taskName;
    QString code;
    QString reasoning;
    QString reference;
    VerdictInfo verdict;
    QList<ReviewEntry> history;
    JudgeInfo judge;
    TeacherReasoningInfo teacherReasoning;
};

struct ClusterRow
{
    qint64 id = 0;
    qint64 taskId = -1;
    QString taskName;
    qint64 representative = -1;
    qint64 size = 0;
};

struct ClusterMember
{
    qint64 sampleId = 0;
    QString name;
    QString status;
    QString review;
    double similarity = kNoValue;
    double speedup = kNoValue;
    bool representative = false;
};

} // namespace sieve::ui

Q_DECLARE_METATYPE(sieve::ui::SampleQuery)
Q_DECLARE_METATYPE(sieve::ui::SampleItem)
