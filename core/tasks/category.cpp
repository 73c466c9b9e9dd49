#include "core/tasks/category.h"

#include "core/db/payload.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <stdexcept>

namespace sieve {

namespace {

// Operator names (lowercased; torch.X, F.X, nn.X, tensor.X) by the category they belong to.
const std::map<std::string, std::string> &opCategories()
{
    static const std::map<std::string, std::string> ops = [] {
        std::map<std::string, std::string> m;
        auto add = [&](const char *category, std::initializer_list<const char *> names) {
            for (const char *n : names)
                m[n] = category;
        };
        add("gemm", {"matmul", "mm", "bmm", "linear", "addmm", "baddbmm", "addbmm", "einsum", "bilinear", "tensordot",
                     "mv", "addmv", "chain_matmul", "lazylinear"});
        add("convolution",
            {"conv1d", "conv2d", "conv3d", "convtranspose1d", "convtranspose2d", "convtranspose3d", "conv_transpose1d",
             "conv_transpose2d", "conv_transpose3d", "lazyconv1d", "lazyconv2d", "lazyconv3d"});
        add("normalization",
            {"batchnorm1d", "batchnorm2d", "batchnorm3d", "layernorm", "groupnorm", "instancenorm1d", "instancenorm2d",
             "instancenorm3d", "rmsnorm", "localresponsenorm", "layer_norm", "batch_norm", "group_norm",
             "instance_norm", "rms_norm", "normalize", "norm", "local_response_norm", "syncbatchnorm"});
        add("pooling", {"maxpool1d",
                        "maxpool2d",
                        "maxpool3d",
                        "avgpool1d",
                        "avgpool2d",
                        "avgpool3d",
                        "adaptiveavgpool1d",
                        "adaptiveavgpool2d",
                        "adaptiveavgpool3d",
                        "adaptivemaxpool1d",
                        "adaptivemaxpool2d",
                        "adaptivemaxpool3d",
                        "max_pool1d",
                        "max_pool2d",
                        "max_pool3d",
                        "avg_pool1d",
                        "avg_pool2d",
                        "avg_pool3d",
                        "adaptive_avg_pool1d",
                        "adaptive_avg_pool2d",
                        "adaptive_avg_pool3d",
                        "adaptive_max_pool1d",
                        "adaptive_max_pool2d",
                        "adaptive_max_pool3d",
                        "lppool1d",
                        "lppool2d"});
        add("activation", {"relu",        "relu6",    "leakyrelu",   "leaky_relu", "gelu",       "sigmoid",
                           "tanh",        "softmax",  "log_softmax", "logsoftmax", "softmin",    "elu",
                           "selu",        "celu",     "silu",        "mish",       "hardtanh",   "hardswish",
                           "hardsigmoid", "softplus", "softsign",    "tanhshrink", "hardshrink", "softshrink",
                           "prelu",       "glu",      "threshold",   "logsigmoid", "swish",      "rrelu"});
        add("reduction",
            {"sum",     "mean",      "max", "min", "amax",   "amin",   "argmax",  "argmin", "prod",   "cumsum",
             "cumprod", "logsumexp", "var", "std", "median", "nansum", "nanmean", "cummax", "cummin", "logcumsumexp"});
        add("loss", {"cross_entropy", "binary_cross_entropy", "binary_cross_entropy_with_logits", "kl_div", "nll_loss",
                     "mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "hinge_embedding_loss",
                     "triplet_margin_loss", "cosine_embedding_loss", "margin_ranking_loss", "soft_margin_loss",
                     "multi_margin_loss", "poisson_nll_loss", "gaussian_nll_loss", "ctc_loss"});
        add("attention", {"scaled_dot_product_attention", "multiheadattention", "flash_attn_func"});
        return m;
    }();
    return ops;
}

// The code without comments, string literals and the input generators' bodies (get_inputs and
// get_init_inputs make tensors; they are not the operator).
std::string operatorCode(std::string_view code)
{
    std::string out;
    out.reserve(code.size());
    for (std::size_t i = 0; i < code.size();) {
        const char c = code[i];
        if (c == '#') {
            while (i < code.size() && code[i] != '\n')
                ++i;
        } else if (c == '"' || c == '\'') {
            const bool triple = code.substr(i, 3) == std::string(3, c);
            const std::size_t q = triple ? 3 : 1;
            i += q;
            while (i < code.size()) {
                if (code[i] == '\\') {
                    i += 2;
                } else if (code.substr(i, q) == std::string(q, c)) {
                    i += q;
                    break;
                } else if (!triple && code[i] == '\n') {
                    break;
                } else {
                    ++i;
                }
            }
            out += "\"\"";
        } else {
            out += c;
            ++i;
        }
    }
    std::string kept;
    bool skipping = false;
    std::size_t pos = 0;
    while (pos < out.size()) {
        std::size_t end = out.find('\n', pos);
        end = end == std::string::npos ? out.size() : end + 1;
        const std::string_view line(out.data() + pos, end - pos);
        pos = end;
        const bool topLevel = !line.empty() && line[0] != ' ' && line[0] != '\t' && line[0] != '\n';
        if (topLevel)
            skipping = line.rfind("def get_inputs", 0) == 0 || line.rfind("def get_init_inputs", 0) == 0;
        if (!skipping)
            kept += line;
    }
    return kept;
}

bool identChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

} // namespace

const std::vector<std::string> &taskCategories()
{
    static const std::vector<std::string> all = {"gemm", "convolution", "normalization", "activation",  "reduction",
                                                 "loss", "attention",   "pooling",       "elementwise", "fusion"};
    return all;
}

std::optional<std::string> inferCategory(std::string_view reference)
{
    const std::string code = operatorCode(reference);
    if (code.find("def forward") == std::string::npos)
        return std::nullopt;
    std::set<std::string> found;
    for (std::size_t i = 0; i < code.size(); ++i) {
        if (code[i] == '@') {
            // a decorator starts its line; the matmul operator sits between two operands
            std::size_t b = i;
            while (b > 0 && (code[b - 1] == ' ' || code[b - 1] == '\t'))
                --b;
            if (b > 0 && code[b - 1] != '\n')
                found.insert("gemm");
            continue;
        }
        if (!identChar(code[i]) || (i > 0 && identChar(code[i - 1])))
            continue;
        std::size_t e = i;
        while (e < code.size() && identChar(code[e]))
            ++e;
        std::string name(code.substr(i, e - i));
        std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
        std::size_t p = e;
        while (p < code.size() && code[p] == ' ')
            ++p;
        i = e - 1;
        if (p >= code.size() || code[p] != '(')
            continue; // a call (torch.relu(x), nn.ReLU(), x.sum()) names the operator
        const auto it = opCategories().find(name);
        if (it != opCategories().end())
            found.insert(it->second);
        else if (name.size() > 4 && name.compare(name.size() - 4, 4, "loss") == 0)
            found.insert("loss"); // nn.MSELoss(), nn.CrossEntropyLoss(), ...
    }
    if (found.count("attention"))
        return "attention";
    if (found.count("loss"))
        return "loss";
    if (found.empty())
        return "elementwise";
    if (found.size() == 1)
        return *found.begin();
    return "fusion";
}

std::vector<CategoryChange> inferTaskCategories(db::Database &db, bool redo, bool dryRun)
{
    std::vector<CategoryChange> out;
    {
        db::Statement st = db.prepare(
            "SELECT t.id, t.name, t.category, p.reference_code FROM tasks t LEFT JOIN task_payloads p "
            "ON p.task_id = t.id WHERE t.category IS NULL OR t.category = '' OR (?1 AND json_valid(t.provenance_json) "
            "AND json_extract(t.provenance_json, '$.category_inferred') = 1) ORDER BY t.id");
        st.bind(1, static_cast<std::int64_t>(redo));
        while (st.step()) {
            CategoryChange c{st.int64(0), st.text(1), st.isNull(2) ? std::nullopt : std::optional(st.text(2)),
                             std::nullopt};
            if (!st.isNull(3)) {
                try {
                    c.after = inferCategory(payload::unpack(st.blobView(3)));
                } catch (const std::exception &) {
                    // an unreadable reference is the verifier's to report (CORRUPT_PAYLOAD); nothing to infer
                }
            }
            out.push_back(std::move(c));
        }
    }
    if (dryRun)
        return out;
    db::Transaction tx(db);
    db::Statement up = db.prepare(
        "UPDATE tasks SET category = ?1, provenance_json = CASE WHEN provenance_json IS NULL THEN "
        "json_object('category_inferred', json('true')) WHEN json_valid(provenance_json) THEN "
        "json_set(provenance_json, '$.category_inferred', json('true')) ELSE provenance_json END WHERE id = ?2");
    for (const CategoryChange &c : out) {
        if (!c.after || c.after == c.before)
            continue;
        up.reset();
        up.bind(1, *c.after).bind(2, c.taskId);
        up.run();
    }
    tx.commit();
    return out;
}

CategoryChange setTaskCategory(db::Database &db, const std::string &task, const std::string &category)
{
    db::Statement st = db.prepare("SELECT id, category FROM tasks WHERE name = ?1");
    st.bind(1, task);
    if (!st.step())
        throw std::runtime_error("no task named '" + task + "' in the corpus");
    CategoryChange c{st.int64(0), task, st.isNull(1) ? std::nullopt : std::optional(st.text(1)), category};
    db.prepare("UPDATE tasks SET category = ?1, provenance_json = CASE WHEN json_valid(provenance_json) THEN "
               "json_remove(provenance_json, '$.category_inferred') ELSE provenance_json END WHERE id = ?2")
        .bind(1, category)
        .bind(2, c.taskId)
        .run();
    return c;
}

} // namespace sieve
