#include "promptsource.h"

namespace sieve::net {

namespace {
std::string languageFor(const std::string &backend)
{
    if (backend == "cuda")
        return "custom CUDA kernels (compiled with torch.utils.cpp_extension.load_inline)";
    return "custom Triton kernels";
}
} // namespace

const char *promptTemplateId() { return "sampler-interim/kernelbench-v1"; }

nlohmann::json renderMessages(const PromptInput &task)
{
    // KernelBench's standard instruction, so that samples match what the benchmark and the export ask.
    std::string user = "You write " + languageFor(task.backend) +
                       " to replace the pytorch operators in the given architecture to get speedups.\n\n"
                       "You have complete freedom to choose the set of operators you want to replace. You may make "
                       "the decision to replace some operators with custom kernels and leave others unchanged. You "
                       "may replace multiple operators with custom implementations, consider operator fusion "
                       "opportunities (combining multiple operators into a single kernel), or algorithmic changes.\n\n"
                       "You are given the following architecture:\n\n```python\n" +
                       task.referenceCode +
                       (task.referenceCode.empty() || task.referenceCode.back() == '\n' ? "" : "\n") +
                       "```\n\nOptimize the architecture named Model with custom operators! Name your optimized "
                       "output architecture ModelNew. Output the new code in codeblocks. Please generate real code, "
                       "NOT pseudocode, make sure the code compiles and is fully functional. Just output the new "
                       "model code, no other text, and NO testing code!\n";
    return nlohmann::json::array({{{"role", "user"}, {"content", user}}});
}

} // namespace sieve::net
