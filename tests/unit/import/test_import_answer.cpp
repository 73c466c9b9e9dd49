#include "core/prompt/answer.h"

#include <gtest/gtest.h>

using namespace sieve;

namespace {
const std::string kAnswer = "import torch\nclass ModelNew(torch.nn.Module):\n    pass\n";
}

TEST(ImportAnswer, TakesTheLastFencedBlockThatDefinesModelNew)
{
    const std::string text = "First try:\n```python\nclass ModelNew(nn.Module):\n    old = 1\n```\n"
                             "A helper:\n```python\ndef helper():\n    pass\n```\n"
                             "Final:\n```python\n" +
                             kAnswer + "```\nDone.";
    const auto a = answer::extract(text);
    ASSERT_TRUE(a.hasAnswer);
    EXPECT_EQ(a.code, kAnswer);
    EXPECT_TRUE(a.reasoning.empty());
}

TEST(ImportAnswer, ReasoningComesFromThinkTagsAndBlocksInsideThemAreDrafts)
{
    const std::string text = "<think>\nplan it\n```python\nclass ModelNew(nn.Module):\n    draft = 1\n```\n</think>\n"
                             "No final code, sorry.";
    const auto a = answer::extract(text);
    EXPECT_FALSE(a.hasAnswer);
    EXPECT_NE(a.reasoning.find("plan it"), std::string::npos);
}

TEST(ImportAnswer, AClosingThinkTagWithoutAnOpeningOneEndsTheReasoning)
{
    const auto a = answer::extract("the template opened it\n</think>\n```python\n" + kAnswer + "```");
    ASSERT_TRUE(a.hasAnswer);
    EXPECT_EQ(a.reasoning, "the template opened it");
}

TEST(ImportAnswer, ReadsOpenAiCompletionsChoicesAndMessages)
{
    const std::string content = "```python\\n"
                                "class ModelNew(nn.Module):\\n    pass\\n"
                                "```";
    for (const std::string &json :
         {"{\"choices\":[{\"message\":{\"content\":\"" + content + "\",\"reasoning_content\":\"why\"}}]}",
          "{\"message\":{\"content\":\"" + content + "\",\"reasoning_content\":\"why\"}}",
          "{\"role\":\"assistant\",\"content\":\"" + content + "\",\"reasoning\":\"why\"}"}) {
        const auto a = answer::extract(json);
        EXPECT_TRUE(a.hasAnswer) << json;
        EXPECT_EQ(a.reasoning, "why") << json;
        EXPECT_EQ(a.code, "class ModelNew(nn.Module):\n    pass\n") << json;
    }
}

TEST(ImportAnswer, TildeFencesLongerFencesAndAnUnclosedLastBlock)
{
    EXPECT_TRUE(answer::extract("~~~\n" + kAnswer + "~~~\n").hasAnswer);
    const auto nested = answer::extract("````python\n" + kAnswer + "```\nnot the end\n````\n");
    ASSERT_TRUE(nested.hasAnswer);
    EXPECT_NE(nested.code.find("not the end"), std::string::npos);
    const auto truncated = answer::extract("Here:\n```python\n" + kAnswer + "    def forward(self");
    ASSERT_TRUE(truncated.hasAnswer);
    EXPECT_NE(truncated.code.find("def forward(self"), std::string::npos);
}

TEST(ImportAnswer, ABlockMentioningModelNewWithoutDefiningItIsNoAnswer)
{
    EXPECT_FALSE(answer::extract("```python\nm = ModelNew()\n# class ModelNewer: no\n```").hasAnswer);
    EXPECT_FALSE(answer::extract("class ModelNew(nn.Module): outside any fence").hasAnswer);
    EXPECT_TRUE(answer::definesClass("  class ModelNew :\n", "ModelNew"));
    EXPECT_FALSE(answer::definesClass("class ModelNewer(nn.Module):\n", "ModelNew"));
}
