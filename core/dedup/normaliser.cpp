#include "core/dedup/normaliser.h"
#include "core/dedup/normaliser_names.h"

#include <xxhash.h>

#include <array>
#include <cstring>
#include <numeric>

namespace sieve {

namespace normaliser_tokens {
std::uint64_t hashText(std::string_view text)
{
    // Zero marks an empty slot in the name tables; no real token may hash to it.
    const std::uint64_t h = XXH3_64bits(text.data(), text.size());
    return h == 0 ? 1 : h;
}
} // namespace normaliser_tokens

namespace {

using normaliser_restructure::Kind;
using normaliser_restructure::RawToken;
using normaliser_tokens::hashText;

// The fixed tokens that replace what normalisation removes or buckets.
struct Fixed
{
    std::uint64_t nl = hashText("<NL>"), indent = hashText("<INDENT>"), dedent = hashText("<DEDENT>"),
                  str = hashText("STR"), chr = hashText("CHR"), flt = hashText("FLOAT"),
                  numSmall = hashText("NUM_SMALL"), numBig = hashText("NUM_BIG"), zero = hashText("0"),
                  one = hashText("1"), two = hashText("2");
};
const Fixed &fixed()
{
    static const Fixed f;
    return f;
}

// Punctuation is a third of all tokens: single characters come from a table instead of a hash call.
std::uint64_t opHash(std::string_view op)
{
    static const auto table = [] {
        std::array<std::uint64_t, 128> t{};
        for (int c = 0; c < 128; ++c) {
            const char ch = static_cast<char>(c);
            t[static_cast<size_t>(c)] = hashText(std::string_view(&ch, 1));
        }
        return t;
    }();
    if (op.size() == 1 && static_cast<unsigned char>(op[0]) < 128)
        return table[static_cast<unsigned char>(op[0])];
    return hashText(op);
}

bool isIdentStart(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
}
bool isIdentChar(unsigned char c)
{
    return isIdentStart(c) || (c >= '0' && c <= '9');
}
bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// Longest operator at s[i]; punctuation is kept verbatim. A switch, not string compares: the lexer
// calls this for about a third of all tokens.
size_t operatorLength(std::string_view s, size_t i, bool cuda)
{
    const char c = s[i];
    const char d = i + 1 < s.size() ? s[i + 1] : '\0';
    const char e = i + 2 < s.size() ? s[i + 2] : '\0';
    switch (c) {
    case '*':
    case '/':
        if (d == c)
            return e == '=' && !cuda ? 3 : 2; // ** // **= //=
        return d == '=' ? 2 : 1;
    case '<':
    case '>':
        if (d == c)
            return (e == '=' || (cuda && e == c)) ? 3 : 2; // << >> <<= >>= <<< >>>
        return d == '=' ? 2 : 1;
    case '.':
        return (d == '.' && e == '.') ? 3 : 1;
    case '=':
    case '!':
    case '%':
    case '^':
    case '@':
        return d == '=' ? 2 : 1;
    case '+':
        return (d == '=' || d == '+') ? 2 : 1;
    case '-':
        return (d == '=' || d == '-' || d == '>') ? 2 : 1;
    case '&':
    case '|':
        return (d == '=' || d == c) ? 2 : 1;
    case ':':
        return (d == ':' || d == '=') ? 2 : 1;
    default:
        return 1;
    }
}

} // namespace

struct CodeNormaliser::State
{
    std::vector<RawToken> &raw;
    std::vector<std::uint64_t> &tokens;   // the source-order stream, numbered as it is lexed
    std::vector<std::string_view> *texts; // null without wantText
    std::uint32_t epoch = 0;              // of the current function's locals
    bool cuda = false;                    // lexing C++ (a .cu file or the source inside a load_inline string)

    void push(const RawToken &t, std::string_view text)
    {
        raw.push_back(t);
        if (t.kind != Kind::CudaBegin && t.kind != Kind::CudaEnd && t.kind != Kind::Local && t.kind != Kind::Global)
            tokens.push_back(t.hash);
        if (texts)
            texts->push_back(text);
    }
    void literal(std::uint64_t h, std::string_view text)
    {
        RawToken t;
        t.hash = h;
        t.flags = normaliser_restructure::Literal;
        push(t, text);
    }
    void kept(std::uint64_t h, std::string_view ident)
    {
        RawToken t;
        t.hash = h;
        normaliser_restructure::classifyName(ident, h, cuda, t);
        push(t, ident);
    }
    void op(std::string_view text)
    {
        RawToken t;
        t.hash = opHash(text);
        normaliser_restructure::classifyOperator(text, cuda, t);
        push(t, text);
    }
    void name(Kind kind, std::uint32_t id, std::uint64_t numbered)
    {
        RawToken t;
        t.hash = id;
        t.kind = kind;
        t.epoch = epoch;
        push(t, {});
        tokens.push_back(numbered);
    }
    void layout(Kind kind, std::uint64_t h)
    {
        RawToken t;
        t.hash = h;
        t.kind = kind;
        push(t, {});
    }
    void breakLine()
    {
        if (!raw.empty())
            raw.back().flags |= normaliser_restructure::BreakAfter;
    }
    // Numbers: 0, 1 and 2 carry meaning (axis, stride, halves); 3..15 are one bucket; 16 and above
    // (block sizes, warps, tile widths) another, so BLOCK=512 and BLOCK=1024 look the same.
    void number(std::string_view s, bool isFloat)
    {
        const Fixed &f = fixed();
        if (isFloat) {
            literal(f.flt, "FLOAT");
            return;
        }
        std::uint64_t v = 0;
        int base = 10;
        size_t i = 0;
        if (s.size() > 2 && s[0] == '0' && std::strchr("xXbBoO", s[1])) {
            base = (s[1] == 'x' || s[1] == 'X') ? 16 : (s[1] == 'b' || s[1] == 'B') ? 2 : 8;
            i = 2;
        }
        for (; i < s.size(); ++i) {
            const char c = s[i];
            int d;
            if (c >= '0' && c <= '9')
                d = c - '0';
            else if (base == 16 && c >= 'a' && c <= 'f')
                d = c - 'a' + 10;
            else if (base == 16 && c >= 'A' && c <= 'F')
                d = c - 'A' + 10;
            else if (c == '_' || c == '\'')
                continue;
            else
                break; // a suffix (u, l, ...)
            if (v > (1ULL << 56))
                break; // large enough to be NUM_BIG
            v = v * static_cast<std::uint64_t>(base) + static_cast<std::uint64_t>(d);
        }
        if (v == 0)
            literal(f.zero, "0");
        else if (v == 1)
            literal(f.one, "1");
        else if (v == 2)
            literal(f.two, "2");
        else if (v < 16)
            literal(f.numSmall, "NUM_SMALL");
        else
            literal(f.numBig, "NUM_BIG");
    }
};

CodeNormaliser::NameTable::NameTable() : m_keys(256), m_vals(256), m_stamp(256, 0) {}

void CodeNormaliser::NameTable::clear()
{
    m_count = 0;
    if (++m_epoch == 0) { // wrapped: stale stamps could alias the new epoch
        std::fill(m_stamp.begin(), m_stamp.end(), 0);
        m_epoch = 1;
    }
}

void CodeNormaliser::NameTable::grow()
{
    NameTable bigger;
    bigger.m_keys.assign(m_keys.size() * 2, 0);
    bigger.m_vals.assign(m_keys.size() * 2, 0);
    bigger.m_stamp.assign(m_keys.size() * 2, 0);
    const size_t mask = bigger.m_keys.size() - 1;
    for (size_t i = 0; i < m_keys.size(); ++i) {
        if (m_stamp[i] != m_epoch)
            continue;
        size_t j = m_keys[i] & mask;
        while (bigger.m_stamp[j] == bigger.m_epoch)
            j = (j + 1) & mask;
        bigger.m_keys[j] = m_keys[i];
        bigger.m_vals[j] = m_vals[i];
        bigger.m_stamp[j] = bigger.m_epoch;
    }
    bigger.m_count = m_count;
    *this = std::move(bigger);
}

bool CodeNormaliser::NameTable::find(std::uint64_t key, std::uint32_t &index) const
{
    const size_t mask = m_keys.size() - 1;
    for (size_t j = key & mask; m_stamp[j] == m_epoch; j = (j + 1) & mask) {
        if (m_keys[j] == key) {
            index = m_vals[j];
            return true;
        }
    }
    return false;
}

std::uint32_t CodeNormaliser::NameTable::intern(std::uint64_t key, bool &added)
{
    if ((m_count + 1) * 2 >= m_keys.size()) // grow at half load so probes stay short
        grow();
    const size_t mask = m_keys.size() - 1;
    size_t j = key & mask;
    while (m_stamp[j] == m_epoch && m_keys[j] != key)
        j = (j + 1) & mask;
    added = m_stamp[j] != m_epoch;
    if (added) {
        m_stamp[j] = m_epoch;
        m_keys[j] = key;
        m_vals[j] = m_count++;
    }
    return m_vals[j];
}

CodeNormaliser::CodeNormaliser() = default;

void CodeNormaliser::emitLocal(std::uint64_t identHash, Scope scope, State &st)
{
    std::uint32_t index;
    bool added;
    Kind kind = Kind::Global;
    if (scope == Scope::Global) {
        index = m_globals.intern(identHash, added);
    } else if (m_locals.find(identHash, index)) {
        kind = Kind::Local;
    } else if (!m_globals.find(identHash, index)) {
        index = m_locals.intern(identHash, added);
        kind = Kind::Local;
    }
    // A dense id per name (a local's per function), so that later passes index arrays instead of hashing.
    const std::uint64_t key = kind == Kind::Local ? (identHash ^ (0x9E3779B97F4A7C15ULL * (st.epoch + 1))) : identHash;
    st.name(kind, m_ids.intern(key ? key : 1, added), nameHash(kind == Kind::Global, index));
}

std::uint64_t CodeNormaliser::nameHash(bool global, std::uint32_t index)
{
    std::vector<std::uint64_t> &table = m_nameHashes[global ? 1 : 0];
    if (index < table.size())
        return table[index];
    const char prefix = global ? 'g' : 'v';
    while (table.size() <= index)
        table.push_back(hashText(prefix + std::to_string(table.size())));
    return table[index];
}

void CodeNormaliser::newFunctionScope(State &st)
{
    m_locals.clear();
    ++st.epoch;
}

void CodeNormaliser::number(const std::vector<std::uint32_t> &order, std::uint64_t *hash, std::string *text)
{
    m_number.assign(m_ids.size(), ~0u);
    std::uint32_t counts[2] = {0, 0};
    std::uint64_t h = hash ? *hash : 0;
    auto put = [&](std::uint64_t v) { h = ((h ^ v) * 0x9E3779B97F4A7C15ULL) ^ (h >> 29); };
    std::uint32_t epoch = ~0u;
    auto numbered = [&](const RawToken &t) {
        // A function's own names restart with each function; module-level names are shared.
        const bool global = t.kind == Kind::Global;
        if (!global && t.epoch != epoch) {
            counts[0] = 0;
            epoch = t.epoch;
        }
        std::uint32_t &index = m_number[t.hash];
        if (index == ~0u)
            index = counts[global ? 1 : 0]++;
        return index;
    };
    if (!text) { // the common case: the hash alone
        for (const std::uint32_t idx : order) {
            const RawToken &t = m_raw[idx];
            if (t.kind == Kind::Local || t.kind == Kind::Global)
                put(nameHash(t.kind == Kind::Global, numbered(t)));
            else if (t.kind != Kind::CudaBegin && t.kind != Kind::CudaEnd)
                put(t.hash);
        }
        *hash = h;
        return;
    }
    int indent = 0;
    bool lineStart = true;
    std::string name;
    auto render = [&](std::string_view t) {
        if (lineStart) {
            text->append(static_cast<size_t>(std::max(indent, 0)) * 4, ' ');
            lineStart = false;
        } else {
            *text += ' ';
        }
        *text += t;
    };
    auto breakLine = [&] {
        if (!lineStart) {
            *text += '\n';
            lineStart = true;
        }
    };
    for (const std::uint32_t idx : order) {
        const RawToken &t = m_raw[idx];
        switch (t.kind) {
        case Kind::Local:
        case Kind::Global: {
            const bool global = t.kind == Kind::Global;
            const std::uint32_t index = numbered(t);
            put(nameHash(global, index));
            name = (global ? 'g' : 'v') + std::to_string(index);
            render(name);
            break;
        }
        case Kind::Newline:
            put(t.hash);
            *text += '\n';
            lineStart = true;
            break;
        case Kind::Indent:
        case Kind::Dedent:
            put(t.hash);
            indent += t.kind == Kind::Indent ? 1 : -1;
            break;
        case Kind::CudaBegin:
        case Kind::CudaEnd:
            breakLine();
            break;
        case Kind::Fixed:
            put(t.hash);
            render(idx < m_texts.size() ? m_texts[idx] : t.role == normaliser_restructure::Role::Open ? "(" : ")");
            break;
        }
        if (t.flags & normaliser_restructure::BreakAfter)
            breakLine();
    }
    if (hash)
        *hash = h;
}

CodeLanguage CodeNormaliser::detect(std::string_view s)
{
    size_t i = 0;
    while (i < s.size()) {
        const size_t e = s.find('\n', i);
        const std::string_view line = s.substr(i, e == std::string_view::npos ? std::string_view::npos : e - i);
        for (const char *p : {"import ", "from ", "def ", "class ", "@triton"})
            if (line.substr(0, std::strlen(p)) == p)
                return CodeLanguage::Python;
        if (line.substr(0, 1) == "#" && line.substr(0, 2) != "# " && line.find("include") != std::string_view::npos)
            return CodeLanguage::Cuda;
        if (e == std::string_view::npos)
            break;
        i = e + 1;
    }
    return s.find("__global__") != std::string_view::npos ? CodeLanguage::Cuda : CodeLanguage::Python;
}

CodeLanguage CodeNormaliser::fromBackend(std::string_view backend)
{
    // KernelBench CUDA answers are Python files that carry the CUDA source in a string, so a "cuda"
    // backend does not mean a C++ file: let detect() look.
    (void)backend;
    return CodeLanguage::Auto;
}

NormalisedCode CodeNormaliser::normalise(std::string_view source, CodeLanguage language, bool wantText)
{
    NormalisedCode out;
    normalise(source, language, out, wantText);
    return out;
}

void CodeNormaliser::normalise(std::string_view source, CodeLanguage language, NormalisedCode &out, bool wantText)
{
    out.tokens.clear();
    out.text.clear();
    out.canonicalText.clear();
    m_locals.clear();
    m_globals.clear();
    m_ids.clear();
    m_cudaFunctions.clear();
    m_raw.clear();
    m_raw.reserve(source.size() / 3);
    m_texts.clear();
    out.tokens.reserve(source.size() / 3);
    State st{m_raw, out.tokens, wantText ? &m_texts : nullptr};
    if (language == CodeLanguage::Auto)
        language = detect(source);
    if (language == CodeLanguage::Python) {
        lexPython(source, st);
    } else {
        st.cuda = true;
        lexCuda(source, st);
    }
    if (wantText) {
        m_order.resize(m_raw.size());
        std::iota(m_order.begin(), m_order.end(), 0u);
        number(m_order, nullptr, &out.text);
    }
    m_restructurer.run(m_raw, language == CodeLanguage::Python, m_ids.size(), m_order);
    out.canonical = 0x6361636E6F6E ^ m_order.size();
    number(m_order, &out.canonical, wantText ? &out.canonicalText : nullptr);
}

void CodeNormaliser::lexPython(std::string_view s, State &st)
{
    const Fixed &f = fixed();
    const size_t n = s.size();
    std::vector<int> indents{0};
    size_t i = 0;
    int depth = 0;
    int defParamDepth = -1; // bracket depth of a def's parameter list: `name=` there is a local default
    bool pendingDef = false;
    int funcIndent = -1;       // indentation of the def whose body we are in; -1 at module or class level
    bool pendingScope = false; // a def outside any function: its parameters open a new scope
    int lineIndent = 0;
    bool atLineStart = true, lineHasTokens = false, importLine = false;
    enum class Prev { Start, Dot, Open, Comma, Other } prev = Prev::Start;
    bool lastWasSelf = false, dotAfterSelf = false;
    bool lastKept = false;         // the previous token was an API name: a '(' after it opens an API call
    std::vector<bool> apiBrackets; // per open bracket: is it the argument list of an API call

    auto skipToEol = [&] {
        while (i < n && s[i] != '\n')
            ++i;
    };
    auto token = [&](Prev kind) {
        lineHasTokens = true;
        prev = kind;
    };

    while (i < n) {
        if (atLineStart && depth == 0) {
            int col = 0;
            size_t j = i;
            while (j < n && (s[j] == ' ' || s[j] == '\t' || s[j] == '\f')) {
                col = s[j] == '\t' ? (col / 8 + 1) * 8 : col + 1;
                ++j;
            }
            if (j >= n)
                break;
            if (s[j] == '\n' || s[j] == '\r' || s[j] == '#') { // blank or comment-only line
                i = j;
                skipToEol();
                if (i < n)
                    ++i;
                continue;
            }
            if (col > indents.back()) {
                indents.push_back(col);
                st.layout(Kind::Indent, f.indent);
            }
            while (col < indents.back() && indents.size() > 1) {
                indents.pop_back();
                st.layout(Kind::Dedent, f.dedent);
            }
            lineIndent = col;
            if (funcIndent >= 0 && col <= funcIndent)
                funcIndent = -1;
            i = j;
            atLineStart = false;
            lineHasTokens = importLine = false;
            prev = Prev::Start;
        }
        const char c = s[i];
        if (c == '\n' || c == '\r') {
            ++i;
            if (depth == 0) {
                if (lineHasTokens)
                    st.layout(Kind::Newline, f.nl);
                lineHasTokens = false; // so that the end of the file adds no second newline
                atLineStart = true;
            }
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\f' || (c == '\\' && i + 1 < n && (s[i + 1] == '\n' || s[i + 1] == '\r'))) {
            i += (c == '\\') ? 2 : 1;
            continue;
        }
        if (c == '#') {
            skipToEol();
            continue;
        }
        // Identifier, or the prefix of a string literal (r"", f'', b"""...).
        size_t quoteAt = std::string_view::npos;
        size_t identEnd = i;
        if (isIdentStart(static_cast<unsigned char>(c))) {
            while (identEnd < n && isIdentChar(static_cast<unsigned char>(s[identEnd])))
                ++identEnd;
            if (identEnd < n && (s[identEnd] == '"' || s[identEnd] == '\'') && identEnd - i <= 2) {
                bool prefix = true;
                for (size_t k = i; k < identEnd; ++k)
                    prefix = prefix && std::strchr("rRbBuUfF", s[k]) != nullptr;
                if (prefix)
                    quoteAt = identEnd;
            }
        } else if (c == '"' || c == '\'') {
            quoteAt = i;
        }
        if (quoteAt != std::string_view::npos) {
            const char q = s[quoteAt];
            const bool triple = quoteAt + 2 < n && s[quoteAt + 1] == q && s[quoteAt + 2] == q;
            const size_t open = quoteAt + (triple ? 3 : 1);
            size_t j = open, close = n;
            while (j < n) {
                if (s[j] == '\\') {
                    j += 2;
                    continue;
                }
                if (s[j] == q && (!triple || (j + 2 < n && s[j + 1] == q && s[j + 2] == q))) {
                    close = j;
                    j += triple ? 3 : 1;
                    break;
                }
                if (!triple && s[j] == '\n') { // unterminated: stop at the line end
                    close = j;
                    break;
                }
                ++j;
            }
            if (j > n)
                j = n;
            const std::string_view body = s.substr(open, std::min(close, n) - open);
            i = j;
            // A string that is a whole statement (docstring, commented-out block) is dropped.
            if (prev == Prev::Start && depth == 0 && !lineHasTokens) {
                size_t k = i;
                while (k < n && (s[k] == ' ' || s[k] == '\t'))
                    ++k;
                if (k >= n || s[k] == '\n' || s[k] == '\r' || s[k] == '#' || s[k] == ';')
                    continue;
            }
            if (body.find("__global__") != std::string_view::npos) {
                // load_inline's CUDA source: its structure is the kernel, so lex it instead of hiding it.
                st.layout(Kind::CudaBegin, 0);
                st.cuda = true;
                lexCuda(body, st);
                st.cuda = false;
                st.layout(Kind::CudaEnd, 0);
                lineHasTokens = true;
                prev = Prev::Other;
            } else {
                st.literal(f.str, "STR");
                token(Prev::Other);
            }
            lastWasSelf = lastKept = false;
            continue;
        }
        if (isDigit(c) || (c == '.' && i + 1 < n && isDigit(s[i + 1]))) {
            size_t j = i;
            bool isFloat = false;
            if (c == '0' && i + 1 < n && std::strchr("xXbBoO", s[i + 1])) {
                j += 2;
                while (j < n && (isIdentChar(static_cast<unsigned char>(s[j]))))
                    ++j;
            } else {
                while (j < n && (isDigit(s[j]) || s[j] == '_'))
                    ++j;
                if (j < n && s[j] == '.') {
                    isFloat = true;
                    ++j;
                    while (j < n && (isDigit(s[j]) || s[j] == '_'))
                        ++j;
                }
                if (j < n && (s[j] == 'e' || s[j] == 'E') &&
                    ((j + 1 < n && isDigit(s[j + 1])) ||
                     (j + 2 < n && (s[j + 1] == '+' || s[j + 1] == '-') && isDigit(s[j + 2])))) {
                    isFloat = true;
                    j += 2;
                    while (j < n && isDigit(s[j]))
                        ++j;
                }
                if (j < n && (s[j] == 'j' || s[j] == 'J')) {
                    isFloat = true;
                    ++j;
                }
            }
            st.number(s.substr(i, j - i), isFloat);
            lineHasTokens = true;
            prev = Prev::Other;
            lastWasSelf = lastKept = false;
            i = j;
            continue;
        }
        if (identEnd > i) {
            const std::string_view ident = s.substr(i, identEnd - i);
            const std::uint64_t h = hashText(ident);
            i = identEnd;
            bool keep, kwarg = false;
            std::uint32_t cudaIndex;
            if (prev == Prev::Dot)
                // Attributes are API (x.to, .shape) except the module's own members and the functions
                // of its load_inline source (self.ext.add_cuda names the C++ add_cuda).
                keep = !dotAfterSelf && !m_cudaFunctions.find(h, cudaIndex);
            else if (importLine || normaliser_names::pythonKept(ident, h))
                keep = true;
            else {
                // A keyword argument of a call (mask=, other=, axis=) names the callee's parameter.
                size_t k = i;
                while (k < n && (s[k] == ' ' || s[k] == '\t' || (depth > 0 && (s[k] == '\n' || s[k] == '\r'))))
                    ++k;
                kwarg = depth > 0 && depth != defParamDepth && (prev == Prev::Open || prev == Prev::Comma) && k < n &&
                        s[k] == '=' && (k + 1 >= n || s[k + 1] != '=');
                // An API's keyword names its parameter (mask=, axis=); one of our own kernel's (BLOCK_N=)
                // is a name of this module like the kernel itself.
                keep = kwarg && !apiBrackets.empty() && apiBrackets.back();
            }
            if (prev == Prev::Start && (ident == "import" || ident == "from"))
                importLine = true;
            if (ident == "def") {
                pendingDef = true;
                pendingScope = funcIndent < 0;
            }
            if (keep)
                st.kept(h, ident);
            else
                emitLocal(h, (funcIndent < 0 || kwarg || prev == Prev::Dot) ? Scope::Global : Scope::Local, st);
            lastKept = keep;
            lineHasTokens = true;
            prev = Prev::Other;
            lastWasSelf = ident == "self";
            continue;
        }
        const size_t len = operatorLength(s, i, false);
        const std::string_view op = s.substr(i, len);
        i += len;
        Prev kind = Prev::Other;
        if (len == 1 && (c == '(' || c == '[' || c == '{')) {
            ++depth;
            apiBrackets.push_back(c == '(' && lastKept);
            if (c == '(' && pendingDef) {
                defParamDepth = depth;
                pendingDef = false;
                if (pendingScope) {
                    newFunctionScope(st);
                    funcIndent = lineIndent;
                    pendingScope = false;
                }
            }
            kind = Prev::Open;
        } else if (len == 1 && (c == ')' || c == ']' || c == '}')) {
            if (depth > 0)
                --depth;
            if (!apiBrackets.empty())
                apiBrackets.pop_back();
            if (defParamDepth > depth)
                defParamDepth = -1;
        } else if (len == 1 && c == ',') {
            kind = Prev::Comma;
        } else if (len == 1 && c == '.') {
            kind = Prev::Dot;
            dotAfterSelf = lastWasSelf;
        }
        if (len == 1 && c == ':' && depth == 0)
            pendingDef = false;
        st.op(op);
        token(kind);
        lastWasSelf = lastKept = false;
    }
    if (lineHasTokens)
        st.layout(Kind::Newline, f.nl);
    while (indents.size() > 1) {
        indents.pop_back();
        st.layout(Kind::Dedent, f.dedent);
    }
}

void CodeNormaliser::lexCuda(std::string_view s, State &st)
{
    const Fixed &f = fixed();
    const size_t n = s.size();
    size_t i = 0;
    bool afterMember = false; // the previous token was '.', '->' or '::'
    bool afterInclude = false;
    int braces = 0, parens = 0; // top-level names (functions, globals) are shared; the rest is per function
    while (i < n) {
        const char c = s[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' ||
            (c == '\\' && i + 1 < n && (s[i + 1] == '\n' || s[i + 1] == '\r'))) {
            if (c == '\n')
                afterInclude = false;
            i += (c == '\\') ? 2 : 1;
            continue;
        }
        if (c == '/' && i + 1 < n && s[i + 1] == '/') {
            while (i < n && s[i] != '\n')
                ++i;
            continue;
        }
        if (c == '/' && i + 1 < n && s[i + 1] == '*') {
            const size_t e = s.find("*/", i + 2);
            i = e == std::string_view::npos ? n : e + 2;
            continue;
        }
        if (afterInclude && c == '<') { // a system header name is one token
            const size_t e = s.find('>', i);
            const size_t end = e == std::string_view::npos ? n : e + 1;
            const std::string_view header = s.substr(i, end - i);
            st.literal(hashText(header), header);
            st.breakLine();
            i = end;
            afterInclude = false;
            continue;
        }
        if (c == '"' || c == '\'') {
            size_t j = i + 1;
            while (j < n && s[j] != c && s[j] != '\n')
                j += (s[j] == '\\') ? 2 : 1;
            i = std::min(j + 1, n);
            st.literal(c == '"' ? f.str : f.chr, c == '"' ? "STR" : "CHR");
            afterMember = false;
            continue;
        }
        if (isDigit(c) || (c == '.' && i + 1 < n && isDigit(s[i + 1]))) {
            size_t j = i;
            bool isFloat = false, hex = false;
            if (c == '0' && i + 1 < n && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
                hex = true;
                j += 2;
            }
            while (j < n) {
                const char d = s[j];
                if (isDigit(d) || d == '\'' || (hex && std::strchr("abcdefABCDEF", d))) {
                    ++j;
                } else if (!hex && d == '.') {
                    isFloat = true;
                    ++j;
                } else if (!hex && (d == 'e' || d == 'E') && j + 1 < n &&
                           (isDigit(s[j + 1]) || s[j + 1] == '+' || s[j + 1] == '-')) {
                    isFloat = true;
                    j += 2;
                } else {
                    break;
                }
            }
            while (j < n && std::strchr("uUlLfF", s[j]) && s[j] != '\0') {
                if (!hex && (s[j] == 'f' || s[j] == 'F'))
                    isFloat = true;
                ++j;
            }
            st.number(s.substr(i, j - i), isFloat);
            i = j;
            afterMember = false;
            continue;
        }
        if (isIdentStart(static_cast<unsigned char>(c))) {
            size_t j = i;
            while (j < n && isIdentChar(static_cast<unsigned char>(s[j])))
                ++j;
            const std::string_view ident = s.substr(i, j - i);
            const std::uint64_t h = hashText(ident);
            i = j;
            if (afterMember || normaliser_names::cudaKept(ident, h)) {
                st.kept(h, ident);
            } else {
                const bool top = braces == 0 && parens == 0;
                emitLocal(h, top ? Scope::Global : Scope::Local, st);
                size_t k = i;
                while (k < n && (s[k] == ' ' || s[k] == '\t'))
                    ++k;
                if (top && k < n && s[k] == '(') {
                    bool added;
                    m_cudaFunctions.intern(h, added);
                }
            }
            afterInclude = ident == "include";
            afterMember = false;
            continue;
        }
        const size_t len = operatorLength(s, i, true);
        const std::string_view op = s.substr(i, len);
        i += len;
        st.op(op);
        afterMember = op == "." || op == "->" || op == "::";
        if (len == 1) {
            if (c == '(' || c == '[')
                ++parens;
            else if ((c == ')' || c == ']') && parens > 0)
                --parens;
            else if (c == '{')
                ++braces;
            else if (c == '}' && braces > 0 && --braces == 0)
                newFunctionScope(st);
            else if (c == ';' && braces == 0 && parens == 0)
                newFunctionScope(st);
        }
    }
}

} // namespace sieve
