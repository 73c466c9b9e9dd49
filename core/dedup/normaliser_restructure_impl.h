#pragma once
// Internal to the restructurer (normaliser_roles.cpp, normaliser_structure.cpp, normaliser_restructure.cpp):
// its state and helpers. normaliser_structure.cpp parses the tokens into blocks and statements and records
// what each statement reads, writes and defines; normaliser_restructure.cpp inlines, keys, orders and emits
// them.
#include "core/dedup/normaliser.h"
#include "core/dedup/normaliser_restructure.h"

#include <algorithm>
#include <array>
#include <vector>

namespace sieve::normaliser_restructure {

using normaliser_tokens::hashText;

inline std::uint64_t mix(std::uint64_t h, std::uint64_t v)
{
    h = (h ^ v) * 0x9E3779B97F4A7C15ULL;
    return h ^ (h >> 31);
}

// Blocks nested deeper than this are kept as flat token runs: the parser recurses once per level.
constexpr int kMaxDepth = 48;

// Binding strengths (higher binds tighter). Python and C++ order comparisons and bitwise operators
// differently, hence two sets of numbers on one scale.
enum Prec : std::uint8_t {
    PLambda = 2,
    PTernary = 4,
    POr = 6,
    PAnd = 8,
    PNot = 10,
    PCompare = 12,
    PBitOr = 14,
    PBitXor = 16,
    PBitAnd = 18,
    PShift = 20,
    PAdd = 22,
    PMul = 24,
    PUnary = 26,
    PPow = 28,
    PPrimary = 30,
    // C++ only
    CBitOr = 13,
    CBitXor = 14,
    CBitAnd = 15,
    CEquality = 16,
    CRelational = 18,
};

// Statement sets of a block, one bit per statement.
struct Bits
{
    std::array<std::uint64_t, kMaxOrderedStatements / 64> w{};
    void set(std::size_t i) { w[i / 64] |= std::uint64_t{1} << (i % 64); }
    Bits &operator|=(const Bits &o)
    {
        for (std::size_t k = 0; k < w.size(); ++k)
            w[k] |= o.w[k];
        return *this;
    }
    static Bits below(std::size_t n) // bits 0 .. n-1
    {
        Bits b;
        for (std::size_t k = 0; k < b.w.size(); ++k) {
            const std::size_t lo = k * 64;
            b.w[k] = n >= lo + 64 ? ~std::uint64_t{0} : n > lo ? (std::uint64_t{1} << (n - lo)) - 1 : 0;
        }
        return b;
    }
};

inline bool isCompoundHead(Role r)
{
    switch (r) {
    case Role::KwDef:
    case Role::KwClass:
    case Role::KwIf:
    case Role::KwElif:
    case Role::KwElse:
    case Role::KwFor:
    case Role::KwWhile:
    case Role::KwWith:
    case Role::KwTry:
    case Role::KwExcept:
    case Role::KwFinally:
    case Role::KwDo:
    case Role::KwSwitch:
    case Role::KwAsync:
        return true;
    default:
        return false;
    }
}

inline bool isName(const RawToken &t)
{
    return t.kind == Kind::Local || t.kind == Kind::Global;
}

struct Restructurer::Impl
{
    struct Child
    {
        std::uint32_t begin, end, block; // the child block's tokens [begin, end)
    };
    struct Stmt
    {
        std::uint32_t begin = 0, end = 0;
        std::uint32_t firstChild = 0, childCount = 0;
        std::uint32_t firstDef = 0, defCount = 0; // explicit definitions: token positions, in defs
        std::int32_t lastAssign = -1;             // the last assignment operator at bracket depth 0
        std::int32_t target = -1;                 // `t = E` with a single local t: t's position
        std::uint32_t eBegin = 0, eEnd = 0;       // ... and E's tokens
        std::uint64_t key = 0;
        std::uint32_t namesBegin = 0, namesEnd = 0; // its names in namePool, once keyed
        std::uint64_t bloom = 0;                    // a bit per name (id % 64), nested ones included
        std::uint32_t eSize = 0;                    // an inline candidate's E, with what was inlined into it:
        std::uint64_t eBloom = 0;                   //   tokens, names,
        bool eConstant = false;                     //   whether it names nothing
        Role head = Role::None;
        bool python = true, compound = false;
        bool reads = false, writes = false, barrier = false, defsAll = false;
        bool removed = false;
    };
    struct Block
    {
        std::uint32_t first = 0, count = 0; // statement ids in m_blockStmts, in source order
        std::uint32_t orderFirst = 0;       // the canonical order in m_order, count entries
        std::uint32_t loopBegin = ~0u;      // the outermost loop around the block: its first token
        bool reorder = false;
        bool reads = false, writes = false, barrier = false;
        std::uint64_t bloom = 0; // its statements' names
    };
    struct DepEntry
    {
        std::int32_t lastDef = -1;
        Bits uses;
    };

    std::vector<RawToken> *tokens = nullptr;
    std::vector<Stmt> stmts;
    std::vector<Block> blocks;
    std::vector<Child> children;
    std::vector<std::uint32_t> blockStmts, order, defs, stack, childStack;
    std::vector<std::int32_t> subst; // per token: the statement whose E replaces it, or -1
    static constexpr std::uint32_t kNone = ~0u;
    std::vector<std::uint32_t> nextOcc, prevOcc; // per local name token: the next/previous token of that name
    enum DefFlag : std::uint8_t { AnyDef = 1, PlainDef = 2 };
    std::vector<std::uint8_t> defAt; // per token: an assignment's target (PlainDef: of a plain '=')
    struct Site
    {
        std::uint32_t at, stmt; // a use of a temporary: token, statement in the block
    };
    std::vector<Site> sites;
    struct Move
    {                       // inlineBlock: a statement that an expression may move past
        std::uint64_t defs; // a bit per name it defines (every name, for a call or a compound)
        std::uint32_t end;
        bool barrier, writes, all, removed;
    };
    std::vector<Move> moves;
    struct Frame
    { // an open bracket in dropRedundantParens
        std::size_t at;
        const RawToken *leftLeft, *left;
        std::uint64_t op = 0; // the weakest operator when it is the only one that weak, else 0
        std::uint8_t weakest = PPrimary;
        bool candidate = false;   // a '(' that may go
        bool plain = true;        // no tuple, generator or yield at the group's depth
        bool operand = false;     // the previous token ends an operand (an operator after it is binary)
        bool atDepth0 = true;     // directly inside the enclosing group, not inside a call within it
        std::uint32_t nested = 0; // open calls and subscripts inside the group
    };
    std::vector<Frame> frames;
    std::vector<std::uint8_t> dropped;
    std::size_t inlineBudget = 0; // tokens that inlining may still add: copies of E are not free
    std::uint32_t lparen = 0, rparen = 0;
    std::uint32_t loopBegin = ~0u; // while parsing, see enterLoop
    // Per name (RawToken::hash of a Local or Global is its dense id): the last occurrence + 1 while
    // chaining, the value (0: not seen yet), the dependences within the block being ordered.
    std::vector<std::uint32_t> lastOcc, depStamp;
    std::vector<std::uint64_t> values;
    std::vector<DepEntry> deps;
    std::uint32_t depEpoch = 0;
    DepEntry &dep(std::uint32_t name);
    // Scratch for one block at a time (blocks nest, so these are used before recursing or after it).
    std::vector<std::uint32_t> live;
    std::vector<std::uint32_t> level, rank;
    std::vector<std::uint32_t> eNames, wNames, namePool;

    const RawToken &tok(std::uint32_t p) const { return (*tokens)[p]; }
    static std::uint32_t nameKey(const RawToken &t) { return static_cast<std::uint32_t>(t.hash); }

    // ---- structure ---------------------------------------------------------------------------------

    std::uint32_t newStmt(bool python);
    std::uint32_t finishBlock(std::size_t base, bool reorder);
    // While a loop's body is parsed: the outermost loop's first token. Returns the value to restore.
    std::uint32_t enterLoop(bool loop, std::uint32_t begin);
    void addChild(std::uint32_t begin, std::uint32_t end, std::uint32_t block);
    // Moves the children pushed since base to the statement (they are contiguous in children).
    void takeChildren(Stmt &s, std::size_t base);
    std::uint32_t matching(std::uint32_t p, std::uint32_t end, Role open, Role close) const;
    std::uint32_t matchingLayout(std::uint32_t p, std::uint32_t end) const;

    // Python statements from p until the Dedent that closes the block (not consumed) or end.
    std::uint32_t parsePyBlock(std::uint32_t &p, std::uint32_t end, int depth, bool inFunction, bool top);

    std::uint32_t parsePyStmt(std::uint32_t &p, std::uint32_t end, int depth, bool inFunction);

    // CUDA statements from p until the '}' that closes the block (not consumed) or end. top: file scope
    // (or a namespace, struct, extern "C"), where a braced body after a parenthesis is a function's.
    std::uint32_t parseCudaBlock(std::uint32_t &p, std::uint32_t end, int depth, bool inFunction, bool top);

    std::uint32_t parseCudaStmt(std::uint32_t &p, std::uint32_t end, int depth, bool inFunction, bool top);

    // `type name(args);`: the declared name's position, else kNone.
    std::uint32_t directInit(const Stmt &s) const;

    // Flags, definitions and whether the statement is a `t = E` that could be inlined.
    void analyse(std::uint32_t id);

    // ---- walking with substitutions -----------------------------------------------------------------

    template <typename F> void walk(std::uint32_t b, std::uint32_t e, F &f) const
    {
        for (std::uint32_t p = b; p < e; ++p) {
            const std::int32_t s = subst[p];
            if (s < 0) {
                f(p);
                continue;
            }
            const Stmt &st = stmts[static_cast<std::uint32_t>(s / 2)];
            if (s & 1)
                f(lparen);
            walk(st.eBegin, st.eEnd, f);
            if (s & 1)
                f(rparen);
        }
    }
    // The names of a statement's tokens (with what was inlined into it), duplicates included.
    void collectNames(const Stmt &s, std::vector<std::uint32_t> &out) const;

    // ---- inlining -----------------------------------------------------------------------------------

    // How tightly an expression binds, fed its tokens in order: the weakest operator at its bracket depth
    // 0 (PPrimary for an atom, a call or a parenthesised group), and that operator's hash when it is the
    // only one that weak; plain: no tuple, generator or yield at depth 0.
    struct Binding
    {
        std::uint64_t op = 0;
        std::uint8_t weakest = PPrimary;
        bool plain = true;
        bool operand = false; // the previous token ends an operand: an operator after it is binary
        int depth = 0;
        void add(const RawToken &t)
        {
            if (t.kind != Kind::Fixed) {
                operand = true;
                return;
            }
            if (t.role == Role::Open || t.role == Role::LBrace) {
                ++depth;
                return;
            }
            if (t.role == Role::Close || t.role == Role::RBrace) {
                depth = std::max(0, depth - 1);
                operand = true;
                return;
            }
            if (depth > 0 || t.role == Role::Dot)
                return; // x.y stays an operand
            if (t.role == Role::Comma || t.role == Role::KwFor || t.role == Role::KwReturn || t.role == Role::Assign ||
                t.role == Role::AugAssign || t.role == Role::KwBarrier || t.role == Role::Semicolon) {
                plain = false;
                operand = false;
                return;
            }
            std::uint8_t prec = t.prec;
            if (prec == 0) {
                operand = t.role == Role::None; // a kept name or a literal
                return;
            }
            if (!operand && t.role == Role::Operator)
                prec = PUnary; // -x, ~x, *p
            if (prec < weakest) {
                weakest = prec;
                op = t.hash;
            } else if (prec == weakest && op != t.hash) {
                op = 0;
            }
            operand = false;
        }
    };

    // Whether an expression (binding `bind`, weakest operator `op`) needs parentheses between the tokens
    // left (and the one before it, leftLeft) and right; null when there is none.
    static bool needsParens(const RawToken *leftLeft, const RawToken *left, const RawToken *right, std::uint8_t bind,
                            std::uint64_t op);

    // Drops the parentheses of the canonical sequence that precedence makes redundant, so that
    // `(a // b) * c` and `a // b * c`, or an inlined `x * (y * z)` and `x * y * z`, read the same. Only
    // groups in an expression: not a call's, a subscript's, a tuple's or a C++ `if (...)`. One pass: a
    // group is decided when it closes, from its neighbours and the weakest operator at its own depth
    // (a dropped inner group's operators count as its own); its neighbours are parentheses only when it
    // sits directly inside another group, which then decides with the inner operators. Other brackets
    // only count as nesting in the group around them.
    void dropRedundantParens(std::vector<std::uint32_t> &seq);

    void inlineBlock(const Block &b);

    // Whether the use of a temporary at token `at` of statement u may become E: an operand that is read,
    // evaluated once per run of u (not a loop condition, not inside a nested block).
    template <typename Constant> bool useSiteAllows(const Stmt &u, std::uint32_t at, Constant &constant) const
    {
        for (std::uint32_t c = 0; c < u.childCount; ++c) {
            const Child &ch = children[u.firstChild + c];
            if (at >= ch.begin && at < ch.end)
                return false;
        }
        if (at > u.begin) {
            const RawToken &l = tok(at - 1);
            if (l.kind == Kind::Fixed &&
                (l.role == Role::KwAs || l.role == Role::KwDef || l.role == Role::KwClass || l.role == Role::KwLambda ||
                 l.role == Role::KwFor || l.role == Role::KwBarrier || l.role == Role::Dot || l.role == Role::IncDec))
                return false;
        }
        if (at + 1 < u.end && tok(at + 1).role == Role::IncDec && tok(at + 1).kind == Kind::Fixed)
            return false;
        if (u.compound) {
            if (u.childCount && at >= children[u.firstChild].begin)
                return false;
            if (u.head == Role::KwIf)
                return true;
            // A loop's header may run many times: only an expression of no names (blockDim.x *
            // gridDim.x) is the same each time.
            if (u.head == Role::KwWhile || (u.head == Role::KwFor && !u.python))
                return constant();
            if (u.head != Role::KwFor)
                return false;
            int depth = 0; // `for x in E:`: only after the `in`
            for (std::uint32_t p = u.begin; p < at; ++p) {
                const RawToken &t = tok(p);
                if (t.kind != Kind::Fixed)
                    continue;
                if (t.role == Role::Open || t.role == Role::LBrace)
                    ++depth;
                else if (t.role == Role::Close || t.role == Role::RBrace)
                    depth = std::max(0, depth - 1);
                else if (t.role == Role::KwIn && depth == 0)
                    return true;
            }
            return false;
        }
        if (u.lastAssign >= 0 && at < static_cast<std::uint32_t>(u.lastAssign)) {
            int depth = 0; // in the target part only as an index: a[t] = v
            for (std::uint32_t p = u.begin; p < at; ++p) {
                const RawToken &t = tok(p);
                if (t.kind != Kind::Fixed)
                    continue;
                if (t.role == Role::Open || t.role == Role::LBrace)
                    ++depth;
                else if (t.role == Role::Close || t.role == Role::RBrace)
                    depth = std::max(0, depth - 1);
            }
            return depth > 0;
        }
        return true;
    }

    // ---- keys and the canonical order ---------------------------------------------------------------

    // A statement's key hashes its tokens (with what was inlined into it) with each name replaced by its
    // value: for a name that a statement defined, that statement's key; for a parameter (or any name first
    // seen in a block that is not reordered), a hash of where it first appeared; for another name used
    // before any definition, one value of its kind. So keys depend neither on what names are called nor
    // on the order of independent statements.
    std::uint64_t keyRange(std::uint32_t b, std::uint32_t e, std::uint64_t h);
    bool keyingReordered = false; // the statements being keyed belong to a block that is reordered

    // Also gathers the statement's names (nested ones and what was inlined included) for its block's
    // dependences: [namesBegin, namesEnd) of namePool.
    std::uint64_t statementKey(Stmt &s);

    // Inlines, keys the statements in source order (their keys need the values of what came before),
    // then orders them. Returns the block's key.
    std::uint64_t processBlock(std::uint32_t id);

    // The dependences of the block's statements in source order, then the order by (level, key, source
    // position), level being the longest chain of dependences that leads to the statement: a
    // topological order that two renderings reordered within their dependences share, and in which an
    // edit moves statements only within their levels.
    void canonicalOrder(std::uint32_t first, std::size_t n);

    // ---- output -------------------------------------------------------------------------------------

    void emitBlock(std::uint32_t id, std::vector<std::uint32_t> &out);

    void run(std::vector<RawToken> &toks, bool python, std::uint32_t nameCount, std::vector<std::uint32_t> &out);
};

} // namespace sieve::normaliser_restructure
