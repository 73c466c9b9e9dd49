// The teacher's parts in the workbench: the judge's suggestion above the verdict (quoted lines on demand)
// and as a sample-table filter; teacher-written reasoning labelled with its provenance, and only where the
// sample has no reasoning of its own.
#include "core/store/teacherstore.h"
#include "tests/gui/workbench.h"

#include <QComboBox>
#include <QLabel>
#include <QPlainTextEdit>

#include <gtest/gtest.h>

using namespace sieve;
using namespace sieve::test;

namespace {
store::JudgeSuggestion suggestion(std::int64_t sampleId, const char *verdict, double confidence)
{
    store::JudgeSuggestion s;
    s.sampleId = sampleId;
    s.model = "judge-m";
    s.rubric = "judge";
    s.rubricHash = std::string(64, 'a');
    s.verdict = verdict;
    s.confidence = confidence;
    s.details = {
        {"delegated_to", nlohmann::json::array()},
        {"reasoning_consistent", true},
        {"lines", {{{"line", 4}, {"text", "def relu_kernel(...)"}, {"why", "its own kernel"}, {"matches", true}}}},
        {"summary", "a Triton kernel does the work"}};
    s.answer = "{}";
    return s;
}

store::TeacherReasoning explanation(std::int64_t sampleId, const std::string &text)
{
    return {sampleId, "explain-m", "explain", std::string(64, 'b'), text, "{}", 1700000000};
}
} // namespace

TEST_F(Workbench, JudgeSuggestionShowsAboveTheVerdictAndFiltersTheTable)
{
    {
        Corpus c = Corpus::open(corpus.path.toStdString());
        store::putJudgeSuggestion(c.db(), suggestion(1, "implements", 0.8));
        store::putJudgeSuggestion(c.db(), suggestion(3, "delegates", 0.6));
    }
    pickTask(QStringLiteral("relu"));
    ASSERT_TRUE(waitFor([this] { return samples()->totalCount() == 4; }));
    auto *judge = find<QComboBox>("judgeFilter");
    judge->setCurrentIndex(judge->findData(QStringLiteral("implements")));
    ASSERT_TRUE(waitFor([this] { return samples()->totalCount() == 1 && rowOfSample(1) >= 0; }));
    judge->setCurrentIndex(judge->findData(QStringLiteral("flagged")));
    ASSERT_TRUE(waitFor([this] { return samples()->totalCount() == 1 && rowOfSample(3) >= 0; }));
    judge->setCurrentIndex(judge->findData(QStringLiteral("unjudged")));
    ASSERT_TRUE(waitFor([this] { return samples()->totalCount() == 2; }));
    judge->setCurrentIndex(0);
    ASSERT_TRUE(waitFor([this] { return samples()->totalCount() == 4 && samples()->rowCount() == 4; }));

    selectRows({rowOfSample(1)});
    auto *line = find<QLabel>("judgeLine");
    auto *quoted = find<QLabel>("judgeQuotedLines");
    ASSERT_TRUE(waitFor([&] { return line->text().contains(QStringLiteral("implements")); }))
        << line->text().toStdString();
    EXPECT_TRUE(line->text().contains(QStringLiteral("0.80")));
    EXPECT_TRUE(line->text().contains(QStringLiteral("judge-m")));
    EXPECT_TRUE(line->text().contains(QStringLiteral("not the verdict")));
    EXPECT_FALSE(line->isHidden());
    EXPECT_TRUE(quoted->isHidden()) << "quoted lines only on demand";
    Q_EMIT line->linkActivated(QStringLiteral("lines"));
    EXPECT_FALSE(quoted->isHidden());
    EXPECT_TRUE(quoted->text().contains(QStringLiteral("4: def relu_kernel(...)"))) << quoted->text().toStdString();

    selectRows({rowOfSample(2)});
    ASSERT_TRUE(waitFor([&] { return line->isHidden(); })) << "no suggestion, no line";
    EXPECT_EQ(dbValue("SELECT status FROM samples WHERE id = 1"), QStringLiteral("PASS")) << "the verdict stays";
}

TEST_F(Workbench, TeacherReasoningIsLabelledAndNeverShownOverTheSamplesOwn)
{
    {
        Corpus c = Corpus::open(corpus.path.toStdString());
        // Sample 7 came without reasoning (an archive kernel); sample 5 has its own.
        c.db().exec("UPDATE sample_payloads SET reasoning = NULL WHERE sample_id = 7");
        store::putTeacherReasoning(c.db(), explanation(7, "Tile the matmul in shared memory."));
        store::putTeacherReasoning(c.db(), explanation(5, "A teacher's text that must not show."));
    }
    pickTask(QStringLiteral("matmul_bias"));
    ASSERT_TRUE(waitFor([this] { return samples()->rowCount() == 3; }));
    auto *reasoning = find<QPlainTextEdit>("reasoningView");
    auto *source = find<QLabel>("reasoningSource");
    selectRows({rowOfSample(7)});
    ASSERT_TRUE(waitFor([&] {
        return reasoning->toPlainText() == QStringLiteral("Tile the matmul in shared memory.");
    })) << reasoning->toPlainText().toStdString();
    EXPECT_FALSE(source->isHidden());
    EXPECT_TRUE(source->text().contains(QStringLiteral("Teacher-written")));
    EXPECT_TRUE(source->text().contains(QStringLiteral("explain-m")));
    EXPECT_TRUE(source->text().contains(QStringLiteral("bbbbbbbbbbbb")));

    selectRows({rowOfSample(5)});
    ASSERT_TRUE(waitFor([&] { return reasoning->toPlainText().startsWith(QStringLiteral("Load a block")); }))
        << reasoning->toPlainText().toStdString();
    EXPECT_TRUE(source->isHidden());
}
