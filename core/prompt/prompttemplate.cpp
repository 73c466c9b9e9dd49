#include "core/prompt/prompttemplate.h"

#include "core/util/python.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

namespace sieve {

PromptTemplate PromptTemplate::fromString(std::string text, std::string origin)
{
    PromptTemplate t;
    t.m_text = std::move(text);
    t.m_origin = std::move(origin);
    const std::string &s = t.m_text;
    // A stack of open sections; the bottom is the document.
    std::vector<std::pair<std::string, std::vector<Node>>> stack(1);
    auto lineAt = [&](std::size_t pos) { return 1 + std::count(s.begin(), s.begin() + static_cast<long>(pos), '\n'); };
    auto fail = [&](std::size_t pos, const std::string &what) {
        throw std::runtime_error(t.m_origin + ":" + std::to_string(lineAt(pos)) + ": " + what);
    };
    std::size_t pos = 0;
    while (pos < s.size()) {
        const std::size_t open = s.find("{{", pos);
        if (open == std::string::npos) {
            stack.back().second.push_back({Node::Text, s.substr(pos), {}});
            break;
        }
        if (open > pos)
            stack.back().second.push_back({Node::Text, s.substr(pos, open - pos), {}});
        const std::size_t close = s.find("}}", open + 2);
        if (close == std::string::npos)
            fail(open, "'{{' without '}}'");
        std::string tag = s.substr(open + 2, close - open - 2);
        pos = close + 2;
        const char sigil = tag.empty() ? '\0' : tag[0];
        if (sigil == '!' || sigil == '%') {
            // A comment or a pragma renders nothing, nor the line end right after it.
            if (pos < s.size() && s[pos] == '\n')
                ++pos;
            if (sigil == '!')
                continue;
            if (tag != "%verbatim")
                fail(open, "unknown pragma '{{" + tag + "}}' (the one pragma is {{%verbatim}})");
            t.m_verbatim = true;
            continue;
        }
        const std::string name = (sigil == '#' || sigil == '/') ? tag.substr(1) : tag;
        if (name.empty() || name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") != std::string::npos)
            fail(open, "bad placeholder '{{" + tag + "}}' (names are lower-case letters, digits and _)");
        if (sigil == '#') {
            stack.push_back({name, {}});
        } else if (sigil == '/') {
            if (stack.size() < 2 || stack.back().first != name)
                fail(open, "'{{/" + name + "}}' closes no open section");
            Node section{Node::Section, name, std::move(stack.back().second)};
            stack.pop_back();
            stack.back().second.push_back(std::move(section));
        } else {
            stack.back().second.push_back({Node::Value, name, {}});
        }
    }
    if (stack.size() > 1)
        fail(s.size(), "section '{{#" + stack.back().first + "}}' is not closed");
    t.m_nodes = std::move(stack.front().second);
    return t;
}

PromptTemplate PromptTemplate::fromFile(const std::filesystem::path &path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error("cannot read prompt template '" + path.string() + "'");
    std::ostringstream ss;
    ss << in.rdbuf();
    return fromString(ss.str(), path.string());
}

PromptTemplate PromptTemplate::load(const std::string &nameOrPath)
{
    if (nameOrPath.find('/') != std::string::npos || nameOrPath.ends_with(".txt"))
        return fromFile(nameOrPath);
    return fromFile(promptsDir() / (nameOrPath + ".txt"));
}

void PromptTemplate::renderNodes(const std::vector<Node> &nodes, const std::map<std::string, std::string> &values,
                                 std::string &out) const
{
    for (const Node &n : nodes) {
        if (n.kind == Node::Text) {
            out += n.text;
            continue;
        }
        const auto it = values.find(n.text);
        if (n.kind == Node::Section) {
            if (it != values.end() && !it->second.empty())
                renderNodes(n.children, values, out);
            continue;
        }
        if (it == values.end())
            throw std::runtime_error(m_origin + ": no value for placeholder '{{" + n.text + "}}'");
        out += it->second;
    }
}

std::string PromptTemplate::render(const std::map<std::string, std::string> &values) const
{
    std::string out;
    out.reserve(m_text.size() + 4096);
    renderNodes(m_nodes, values, out);
    return out;
}

std::string PromptTemplate::renderPrompt(const std::map<std::string, std::string> &values) const
{
    std::string out = render(values);
    if (!m_verbatim)
        out.resize(trimTrailingSpace(out).size());
    return out;
}

std::vector<std::string> PromptTemplate::names() const
{
    std::set<std::string> names;
    std::function<void(const std::vector<Node> &)> walk = [&](const std::vector<Node> &nodes) {
        for (const Node &n : nodes) {
            if (n.kind != Node::Text)
                names.insert(n.text);
            walk(n.children);
        }
    };
    walk(m_nodes);
    return {names.begin(), names.end()};
}

std::filesystem::path promptsDir()
{
    return resourceDir("prompts", "SIEVE_PROMPTS_DIR");
}

PromptTemplate backendTemplate(const std::string &backend, const std::string &hint)
{
    const auto path = promptsDir() / (backend + ".txt");
    if (!std::filesystem::exists(path))
        throw std::runtime_error("no prompt template for backend '" + backend + "' (" + path.string() + ")" + hint);
    return PromptTemplate::fromFile(path);
}

const std::vector<std::string> &promptTagNames()
{
    static const std::vector<std::string> names = {"backend",    "target", "dtype",   "shapes",
                                                   "difficulty", "level",  "category"};
    return names;
}

std::string precisionDisplay(std::string_view dtype)
{
    // KernelBench's prompts.toml [precision.*]; its default precision is fp32.
    if (dtype == "fp16")
        return "FP16 (16-bit floating point)";
    if (dtype == "bf16")
        return "BF16 (bfloat16)";
    return "FP32 (32-bit floating point)";
}

std::map<std::string, std::string> promptValues(const PromptFacts &f, const std::vector<std::string> &tags)
{
    std::map<std::string, std::string> v;
    v["reference"] = std::string(trimTrailingSpace(f.reference));
    v["reference_raw"] = f.reference;
    v["precision_display"] = precisionDisplay(f.dtype);
    v["task"] = f.task;
    v["backend"] = f.backend;
    v["task_backend"] = f.taskBackend.empty() ? f.backend : f.taskBackend;
    v["target"] = f.target;
    v["dtype"] = f.dtype;
    v["level"] = f.level;
    v["category"] = f.category;
    v["difficulty"] = f.difficulty;
    v["shapes"] = f.shapes;
    v["backend_triton"] = f.backend == "triton" ? "1" : "";
    v["backend_cuda"] = f.backend == "cuda" ? "1" : "";
    std::string line;
    for (const std::string &tag : tags) {
        const auto it = v.find(tag);
        if (it != v.end() && !it->second.empty())
            line += (line.empty() ? "" : " ") + ("[" + tag + ": " + it->second + "]");
    }
    v["tags"] = line;
    return v;
}

std::string shapesText(std::string_view shapesJson)
{
    if (shapesJson.empty())
        return {};
    const auto j = nlohmann::json::parse(shapesJson, nullptr, false);
    if (j.is_discarded() || !j.is_array())
        return std::string(shapesJson);
    std::string out;
    for (const auto &shape : j) {
        if (!shape.is_object())
            return std::string(shapesJson);
        if (!out.empty())
            out += "; ";
        bool first = true;
        for (auto it = shape.begin(); it != shape.end(); ++it) {
            out += (first ? "" : ", ") + it.key() + "=" + it.value().dump();
            first = false;
        }
    }
    return out;
}

std::string_view trimTrailingSpace(std::string_view s)
{
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

} // namespace sieve
