#pragma once
// The code normaliser's second stage: a canonical form of a kernel that sees through restructuring that
// keeps the algorithm. On the normaliser's token stream, before local names are numbered:
//   1. temporaries are inlined: `t = E` (E free of effects) whose t is defined nowhere else and used only
//      later in the same block, in statements that E can move to (nothing between redefines E's names,
//      no store between a load and its use, no control flow), is substituted at every use, with
//      parentheses where precedence needs them; so a temporary and the expression written out, once or
//      at each use, read the same;
//   2. the statements of each block inside a function are put in a canonical order: by their level in
//      the data dependences (def/use of names; loads keep their place around stores and calls; control
//      flow is a barrier), then by a key that hashes their tokens with each name replaced by the key
//      of the statement that defined it (a parameter by where it appears), then by source position.
// Two renderings that differ by renamed names, inlined temporaries or reordered independent statements
// get the same canonical sequence; renderings whose dependent statements are reordered do not. Linear
// in the tokens but for the dependences, which cost a bit set per statement and are skipped for blocks
// longer than kMaxOrderedStatements.
//
// The canonical form is for exact comparison only (CodeNormaliser's NormalisedCode::canonical): a small
// edit can flip whether a temporary is inlined or move a statement, so near-duplicate detection shingles
// the tokens in source order.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace sieve::normaliser_restructure {

enum class Kind : std::uint8_t {
    Fixed,  // kept as it is: keyword, API name, operator, bucketed literal
    Local,  // a function's own name (numbered v0, v1, ... per function)
    Global, // a module-level name (g0, g1, ...)
    Newline,
    Indent,
    Dedent, // Python's layout
    CudaBegin,
    CudaEnd, // CUDA source inside a Python string (not emitted)
};

// What the structure parser and the dependence analysis need to know about a fixed token.
enum class Role : std::uint8_t {
    None,
    Open,
    Close,
    LBrace,
    RBrace,
    Comma,
    Semicolon,
    Colon,
    Dot,
    Assign,
    AugAssign,
    IncDec,
    Question,
    At,
    Hash,
    Operator, // a binary or unary operator (prec says how tightly it binds)
    KwDef,
    KwClass,
    KwIf,
    KwElif,
    KwElse,
    KwFor,
    KwWhile,
    KwWith,
    KwTry,
    KwExcept,
    KwFinally,
    KwDo,
    KwSwitch,
    KwAsync,
    KwIn,
    KwAs,
    KwLambda,
    KwNot,
    KwReturn,  // return / yield: control flow, but a use of an inlined temporary may sit in it
    KwBarrier, // break, continue, raise, pass, del, global, import, goto, case, asm, ...: nothing crosses it
};

enum TokenFlag : std::uint8_t {
    ReadsMemory = 1,  // tl.load, a CUDA subscript
    WritesMemory = 2, // tl.store, atomics, prints, barriers, in-place tensor methods
    BreakAfter = 4,   // the readable rendering breaks the line after it (CUDA ; { })
    Associative = 8,  // + * & | ^ and or && ||: a + (b + c) needs no parentheses
    Literal = 16,     // a number, string or header name
};

struct RawToken
{
    std::uint64_t hash = 0;  // Fixed/layout: the token's hash; Local/Global: the name's dense id (0, 1, ...
                             // per file; a local's id is its function's own)
    std::uint32_t epoch = 0; // Local: the function it belongs to
    Kind kind = Kind::Fixed;
    Role role = Role::None;
    std::uint8_t flags = 0;
    std::uint8_t prec = 0; // Operator: binding strength, higher binds tighter
};

// Fills role, flags and prec of a fixed token from its text (an operator or a kept name).
void classifyOperator(std::string_view op, bool cuda, RawToken &t);
void classifyName(std::string_view ident, std::uint64_t hash, bool cuda, RawToken &t);

inline constexpr std::size_t kMaxOrderedStatements = 128;
inline constexpr std::size_t kMaxInlinedTokens = 256; // an expression inlined at its one use
inline constexpr std::size_t kMaxSharedTokens = 24;   // ... copied to each of several uses

// Reusable per thread; keeps its buffers between files. Not thread-safe.
class Restructurer
{
public:
    Restructurer();
    ~Restructurer();
    Restructurer(const Restructurer &) = delete;
    Restructurer &operator=(const Restructurer &) = delete;

    // order receives the canonical token sequence as indices into tokens; tokens may grow by the
    // parentheses that inlining adds. python: the top level is Python (else CUDA C++); nameCount: the
    // names' dense ids are below it.
    void run(std::vector<RawToken> &tokens, bool python, std::uint32_t nameCount, std::vector<std::uint32_t> &order);

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace sieve::normaliser_restructure
