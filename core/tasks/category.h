#pragma once
// A task's operator category (tasks.category), inferred from the operators its reference calls, for tasks
// that come without one (KernelBench's have none), or set by hand. Balancing by category (selection quotas,
// stats) needs it. An inferred category is marked in tasks.provenance_json ("category_inferred": true), so
// inferring again never overwrites a category that was imported or set by hand.
#include "core/db/database.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sieve {

// gemm, convolution, normalization, activation, reduction, loss, attention, pooling, elementwise, fusion.
const std::vector<std::string> &taskCategories();

// The category of a PyTorch reference module from the operators it calls (torch.*, F.*, nn.* modules,
// tensor methods, the @ operator), comments, strings and the input generators left out:
//   attention   scaled_dot_product_attention, nn.MultiheadAttention
//   loss        an nn.*Loss module or a F.*_loss / cross_entropy / kl_div call
//   one of gemm, convolution, normalization, pooling, activation, reduction when the ops are of that
//   kind only; fusion when they are of several; elementwise when only arithmetic remains.
// nullopt when the code has no forward.
std::optional<std::string> inferCategory(std::string_view reference);

struct CategoryChange
{
    std::int64_t taskId = 0;
    std::string task;
    std::optional<std::string> before;
    std::optional<std::string> after; // nullopt: none could be inferred
};

// Infers the category of every task without one (redo: also of those inferred before; never of one that was
// imported or set by hand). Writes them unless dryRun. Returns one entry per task looked at.
std::vector<CategoryChange> inferTaskCategories(db::Database &db, bool redo, bool dryRun);

// Sets a task's category by hand (the inferred mark is removed). Throws std::runtime_error naming an unknown
// task.
CategoryChange setTaskCategory(db::Database &db, const std::string &task, const std::string &category);

} // namespace sieve
