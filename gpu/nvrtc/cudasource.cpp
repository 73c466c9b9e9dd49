#include "gpu/nvrtc/cudasource.h"

#include <cctype>
#include <map>
#include <optional>

// Enough of Python's lexical grammar to find string literals, names and brackets with exact line
// numbers: a full parser is not needed to read `cuda_sources=...`, but string escapes and line
// continuations must be decoded exactly or the line map drifts.

namespace sieve::gpu {

namespace {

struct Piece
{
    std::string text;
    std::vector<int> lines; // lines[k] = source line of text line k+1
    std::string dynamic;
    int firstLine = 0;
    int lastLine = 0;

    bool empty() const { return lines.empty(); }
    void append(const Piece &b) // concatenation: b's first line continues our last
    {
        if (empty()) {
            *this = b;
            return;
        }
        // A line that is still empty (we ended on a newline) starts where b's first character is.
        if (!text.empty() && text.back() == '\n')
            lines.back() = b.lines.front();
        text += b.text;
        lines.insert(lines.end(), b.lines.begin() + 1, b.lines.end());
        if (dynamic.empty())
            dynamic = b.dynamic;
        lastLine = b.lastLine;
    }
    void join(const Piece &b) // torch joins the list of cuda_sources with '\n'
    {
        if (empty()) {
            *this = b;
            return;
        }
        text += "\n" + b.text;
        lines.insert(lines.end(), b.lines.begin(), b.lines.end());
        if (dynamic.empty())
            dynamic = b.dynamic;
        lastLine = b.lastLine;
    }
};

struct Token
{
    enum Kind { Name, String, Op, Number } kind;
    std::string text; // names, ops; for strings the decoded value lives in `piece`
    int line = 0;
    Piece piece;
};

bool isPrefix(const std::string &name)
{
    std::string lower;
    for (char c : name)
        lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (const char *p : {"r", "b", "u", "f", "rb", "br", "fr", "rf"})
        if (lower == p)
            return true;
    return false;
}

class Lexer
{
public:
    explicit Lexer(const std::string &s) : m_s(s) {}

    std::vector<Token> run()
    {
        std::vector<Token> out;
        while (m_i < m_s.size()) {
            const char c = m_s[m_i];
            if (c == '\n') {
                ++m_line;
                ++m_i;
            } else if (c == '#') {
                while (m_i < m_s.size() && m_s[m_i] != '\n')
                    ++m_i;
            } else if (c == '\\' && m_i + 1 < m_s.size() && m_s[m_i + 1] == '\n') {
                m_i += 2;
                ++m_line;
            } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' ||
                       static_cast<unsigned char>(c) >= 0x80) {
                const std::size_t start = m_i;
                while (m_i < m_s.size() && (std::isalnum(static_cast<unsigned char>(m_s[m_i])) || m_s[m_i] == '_' ||
                                            static_cast<unsigned char>(m_s[m_i]) >= 0x80))
                    ++m_i;
                std::string name = m_s.substr(start, m_i - start);
                if (m_i < m_s.size() && (m_s[m_i] == '"' || m_s[m_i] == '\'') && isPrefix(name))
                    out.push_back(string(name));
                else
                    out.push_back({Token::Name, name, m_line, {}});
            } else if (std::isdigit(static_cast<unsigned char>(c))) {
                const std::size_t start = m_i;
                while (m_i < m_s.size() &&
                       (std::isalnum(static_cast<unsigned char>(m_s[m_i])) || m_s[m_i] == '_' || m_s[m_i] == '.'))
                    ++m_i;
                out.push_back({Token::Number, m_s.substr(start, m_i - start), m_line, {}});
            } else if (c == '"' || c == '\'') {
                out.push_back(string(""));
            } else if (std::isspace(static_cast<unsigned char>(c))) {
                ++m_i;
            } else {
                static const char *twoChar[] = {"==", "!=", "<=", ">=", "**", "//", "->", ":=", "+=", "-=", "*=", "/="};
                std::string op(1, c);
                for (const char *t : twoChar)
                    if (m_s.compare(m_i, 2, t) == 0)
                        op = t;
                m_i += op.size();
                out.push_back({Token::Op, op, m_line, {}});
            }
        }
        return out;
    }

private:
    Token string(const std::string &prefix)
    {
        bool raw = false, fmt = false, bytes = false;
        for (char p : prefix) {
            const char l = static_cast<char>(std::tolower(static_cast<unsigned char>(p)));
            raw |= l == 'r';
            fmt |= l == 'f';
            bytes |= l == 'b';
        }
        const char q = m_s[m_i];
        const bool triple = m_s.compare(m_i, 3, std::string(3, q)) == 0;
        m_i += triple ? 3 : 1;
        Token tok{Token::String, prefix, m_line, {}};
        Piece &p = tok.piece;
        p.firstLine = m_line;
        p.lines.push_back(m_line);
        auto newline = [&](bool physical) {
            if (physical)
                ++m_line;
            p.text += '\n';
            p.lines.push_back(m_line);
        };
        while (m_i < m_s.size()) {
            if (triple ? m_s.compare(m_i, 3, std::string(3, q)) == 0 : m_s[m_i] == q) {
                m_i += triple ? 3 : 1;
                break;
            }
            const char c = m_s[m_i];
            if (c == '\n' && !triple)
                break; // unterminated: Python would refuse the file; keep what we have
            if (c == '\n') {
                newline(true);
                ++m_i;
            } else if (c == '\\' && m_i + 1 < m_s.size()) {
                const char n = m_s[m_i + 1];
                m_i += 2;
                if (raw) {
                    p.text += '\\';
                    if (n == '\n')
                        newline(true);
                    else
                        p.text += n;
                    continue;
                }
                switch (n) {
                case '\n':
                    ++m_line;
                    break; // line continuation inside the literal: no character
                case 'n':
                    newline(false);
                    break;
                case 't':
                    p.text += '\t';
                    break;
                case 'r':
                    p.text += '\r';
                    break;
                case 'a':
                    p.text += '\a';
                    break;
                case 'b':
                    p.text += '\b';
                    break;
                case 'f':
                    p.text += '\f';
                    break;
                case 'v':
                    p.text += '\v';
                    break;
                case '\\':
                    p.text += '\\';
                    break;
                case '\'':
                    p.text += '\'';
                    break;
                case '"':
                    p.text += '"';
                    break;
                case 'x': {
                    int v = 0;
                    for (int k = 0; k < 2 && m_i < m_s.size() && std::isxdigit(static_cast<unsigned char>(m_s[m_i]));
                         ++k)
                        v = v * 16 + (std::isdigit(static_cast<unsigned char>(m_s[m_i]))
                                          ? m_s[m_i] - '0'
                                          : (std::tolower(m_s[m_i]) - 'a' + 10)),
                        ++m_i;
                    p.text += static_cast<char>(v);
                    break;
                }
                default:
                    if (n >= '0' && n <= '7') {
                        int v = n - '0';
                        for (int k = 0; k < 2 && m_i < m_s.size() && m_s[m_i] >= '0' && m_s[m_i] <= '7'; ++k)
                            v = v * 8 + (m_s[m_i++] - '0');
                        p.text += static_cast<char>(v);
                    } else {
                        p.text += '\\'; // unknown escapes (and \u, \N in CUDA code) stay as written
                        p.text += n;
                    }
                }
            } else if (fmt && (c == '{' || c == '}')) {
                if (m_i + 1 < m_s.size() && m_s[m_i + 1] == c) {
                    p.text += c;
                    m_i += 2;
                } else {
                    if (c == '{' && p.dynamic.empty())
                        p.dynamic = "f-string with {...} substitutions at line " + std::to_string(m_line);
                    p.text += c;
                    ++m_i;
                }
            } else {
                p.text += c;
                ++m_i;
            }
        }
        (void)bytes;
        p.lastLine = m_line;
        return tok;
    }

    const std::string &m_s;
    std::size_t m_i = 0;
    int m_line = 1;
};

bool isOp(const std::vector<Token> &t, std::size_t i, const char *op)
{
    return i < t.size() && t[i].kind == Token::Op && t[i].text == op;
}

class Extractor
{
public:
    explicit Extractor(std::vector<Token> tokens) : m_t(std::move(tokens)) {}

    void collectAssignments()
    {
        for (std::size_t k = 0; k + 1 < m_t.size(); ++k) {
            if (m_t[k].kind != Token::Name || !isOp(m_t, k + 1, "="))
                continue;
            if (k > 0 && isOp(m_t, k - 1, "."))
                continue; // self.x = ...
            std::size_t j = k + 2;
            Piece p;
            if (parseString(j, p, m_t[k].line))
                m_vars[m_t[k].text].push_back({m_t[k].line, p});
        }
    }

    // One string expression: literals, known variables, '+', implicit concatenation, parentheses.
    bool parseString(std::size_t &j, Piece &out, int atLine) const
    {
        const std::size_t start = j;
        int parens = 0;
        while (isOp(m_t, j, "(")) {
            ++parens;
            ++j;
        }
        bool got = false;
        while (j < m_t.size()) {
            if (m_t[j].kind == Token::String) {
                out.append(m_t[j].piece);
                ++j;
            } else if (m_t[j].kind == Token::Name && !isOp(m_t, j + 1, "(") && !isOp(m_t, j + 1, "[")) {
                const Piece *v = lookup(m_t[j].text, atLine);
                if (!v) {
                    if (got && out.dynamic.empty())
                        out.dynamic = "concatenated with '" + m_t[j].text + "' at line " + std::to_string(m_t[j].line) +
                                      ", known only at run time";
                    break;
                }
                out.append(*v);
                ++j;
            } else {
                break;
            }
            got = true;
            if (isOp(m_t, j, "+"))
                ++j;
            else if (j >= m_t.size() || m_t[j].kind != Token::String)
                break;
        }
        while (parens > 0 && isOp(m_t, j, ")")) {
            --parens;
            ++j;
        }
        if (!got || parens != 0) {
            j = start;
            return false;
        }
        if ((isOp(m_t, j, ".") || isOp(m_t, j, "%") || isOp(m_t, j, "+")) && out.dynamic.empty())
            out.dynamic =
                "built at run time (" + m_t[j].text + " after the literal at line " + std::to_string(m_t[j].line) + ")";
        return true;
    }

    std::vector<CudaUnit> loadInlineCalls(const std::string &file) const
    {
        std::vector<CudaUnit> units;
        for (std::size_t k = 0; k + 1 < m_t.size(); ++k) {
            if (m_t[k].kind != Token::Name || m_t[k].text != "load_inline" || !isOp(m_t, k + 1, "("))
                continue;
            std::map<std::string, std::pair<std::size_t, std::size_t>> keywords;
            std::vector<std::pair<std::size_t, std::size_t>> positional;
            std::size_t j = k + 2, argStart = j;
            int depth = 0;
            for (; j < m_t.size(); ++j) {
                const bool open = isOp(m_t, j, "(") || isOp(m_t, j, "[") || isOp(m_t, j, "{");
                const bool close = isOp(m_t, j, ")") || isOp(m_t, j, "]") || isOp(m_t, j, "}");
                if (open)
                    ++depth;
                if ((close && depth == 0) || (depth == 0 && isOp(m_t, j, ","))) {
                    if (j > argStart) {
                        if (m_t[argStart].kind == Token::Name && isOp(m_t, argStart + 1, "="))
                            keywords[m_t[argStart].text] = {argStart + 2, j};
                        else
                            positional.push_back({argStart, j});
                    }
                    argStart = j + 1;
                    if (close)
                        break;
                    continue;
                }
                if (close)
                    --depth;
            }
            auto arg = [&](const char *name, std::size_t index) -> std::optional<std::pair<std::size_t, std::size_t>> {
                if (auto it = keywords.find(name); it != keywords.end())
                    return it->second;
                if (index < positional.size())
                    return positional[index];
                return std::nullopt;
            };
            CudaUnit unit;
            std::string name;
            if (auto a = arg("name", 0)) {
                std::size_t p = a->first;
                Piece n;
                if (parseString(p, n, m_t[k].line))
                    name = n.text;
            }
            unit.origin = "load_inline(" + (name.empty() ? std::string() : "name='" + name + "'") + ") cuda_sources";
            auto src = arg("cuda_sources", 2);
            if (!src) {
                continue; // a C++-only extension: nothing for NVRTC
            }
            Piece all;
            std::size_t p = src->first;
            if (isOp(m_t, p, "[") || isOp(m_t, p, "(")) {
                const bool list = isOp(m_t, p, "[");
                std::size_t q = p + 1;
                Piece item;
                // A parenthesised single string is a string, not a tuple.
                if (!list && parseString(p, item, m_t[k].line) && p == src->second) {
                    all = item;
                } else {
                    while (q < src->second) {
                        Piece one;
                        if (!parseString(q, one, m_t[k].line)) {
                            all.dynamic = "an element of cuda_sources at line " + std::to_string(m_t[q].line) +
                                          " is not a string literal or string variable";
                            break;
                        }
                        all.join(one);
                        if (isOp(m_t, q, ","))
                            ++q;
                        else
                            break;
                    }
                }
            } else if (!parseString(p, all, m_t[k].line)) {
                all.dynamic = "cuda_sources at line " + std::to_string(m_t[src->first].line) +
                              " is not a string literal or string variable";
            }
            unit.source = all.text;
            unit.map = {file, all.lines};
            unit.firstLine = all.firstLine ? all.firstLine : m_t[k].line;
            unit.lastLine = all.lastLine ? all.lastLine : m_t[k].line;
            unit.dynamicReason = all.dynamic;
            if (auto flags = arg("extra_cuda_cflags", 99)) {
                for (std::size_t q = flags->first; q < flags->second; ++q) {
                    if (m_t[q].kind != Token::String)
                        continue;
                    const std::string &f = m_t[q].piece.text;
                    if (f.rfind("-D", 0) == 0 || f == "--use_fast_math" || f == "-use_fast_math")
                        unit.extraOptions.push_back(f == "-use_fast_math" ? "--use_fast_math" : f);
                }
            }
            units.push_back(std::move(unit));
        }
        return units;
    }

    std::vector<CudaUnit> kernelLiterals(const std::string &file) const
    {
        std::vector<CudaUnit> units;
        for (const auto &t : m_t) {
            if (t.kind != Token::String || t.piece.text.find("__global__") == std::string::npos)
                continue;
            CudaUnit unit;
            unit.origin = "string literal at line " + std::to_string(t.piece.firstLine);
            unit.source = t.piece.text;
            unit.map = {file, t.piece.lines};
            unit.firstLine = t.piece.firstLine;
            unit.lastLine = t.piece.lastLine;
            unit.dynamicReason = t.piece.dynamic;
            units.push_back(std::move(unit));
        }
        return units;
    }

private:
    // The last assignment before `line`, else the first one after it (a helper defined further down).
    const Piece *lookup(const std::string &name, int line) const
    {
        auto it = m_vars.find(name);
        if (it == m_vars.end() || it->second.empty())
            return nullptr;
        const Piece *best = nullptr;
        for (const auto &[at, piece] : it->second)
            if (at <= line)
                best = &piece;
        return best ? best : &it->second.front().second;
    }

    std::vector<Token> m_t;
    std::map<std::string, std::vector<std::pair<int, Piece>>> m_vars;
};

} // namespace

std::vector<CudaUnit> extractCudaFromPython(const std::string &python, const std::string &fileName)
{
    Extractor ex(Lexer(python).run());
    ex.collectAssignments();
    auto units = ex.loadInlineCalls(fileName);
    if (units.empty())
        units = ex.kernelLiterals(fileName);
    return units;
}

CudaUnit cudaUnitFromFile(const std::string &source, const std::string &fileName)
{
    CudaUnit unit;
    unit.origin = "whole file";
    unit.source = source;
    unit.map = SourceMap::identity(fileName, source);
    unit.firstLine = 1;
    unit.lastLine = static_cast<int>(unit.map.lines.size());
    return unit;
}

} // namespace sieve::gpu
