// What the restructurer needs to know about a fixed token: its role, flags and binding strength.
#include "core/dedup/normaliser_restructure_impl.h"

#include <initializer_list>

namespace sieve::normaliser_restructure {

namespace {

void setOp(RawToken &t, std::uint8_t prec, bool associative = false)
{
    t.role = Role::Operator;
    t.prec = prec;
    if (associative)
        t.flags |= Associative;
}

} // namespace

void classifyOperator(std::string_view op, bool cuda, RawToken &t)
{
    const char c = op[0];
    if (op.size() == 1) {
        switch (c) {
        case '(':
        case '[':
            t.role = Role::Open;
            if (cuda && c == '[')
                t.flags |= ReadsMemory;
            return;
        case ')':
        case ']':
            t.role = Role::Close;
            return;
        case '{':
            t.role = Role::LBrace;
            t.flags |= cuda ? BreakAfter : 0;
            return;
        case '}':
            t.role = Role::RBrace;
            t.flags |= cuda ? BreakAfter : 0;
            return;
        case ',':
            t.role = Role::Comma;
            return;
        case ';':
            t.role = Role::Semicolon;
            t.flags |= cuda ? BreakAfter : 0;
            return;
        case ':':
            t.role = Role::Colon;
            t.prec = cuda ? PTernary : 0;
            return;
        case '.':
            t.role = Role::Dot;
            return;
        case '=':
            t.role = Role::Assign;
            return;
        case '?':
            t.role = Role::Question;
            t.prec = PTernary;
            return;
        case '#':
            t.role = Role::Hash;
            return;
        case '@': // a decorator at the start of a statement, else matrix multiplication
            t.role = Role::At;
            t.prec = PMul;
            return;
        case '|':
            setOp(t, cuda ? CBitOr : PBitOr, true);
            return;
        case '^':
            setOp(t, cuda ? CBitXor : PBitXor, true);
            return;
        case '&':
            setOp(t, cuda ? CBitAnd : PBitAnd, true);
            return;
        case '<':
        case '>':
            setOp(t, cuda ? CRelational : PCompare);
            return;
        case '+':
            setOp(t, PAdd, true);
            return;
        case '-':
            setOp(t, PAdd);
            return;
        case '*':
            setOp(t, PMul, true);
            return;
        case '/':
        case '%':
            setOp(t, PMul);
            return;
        case '~':
        case '!':
            setOp(t, PUnary);
            return;
        default:
            return;
        }
    }
    if (op.size() >= 2 && op.back() == '=' && op != "==" && op != "!=" && op != "<=" && op != ">=") {
        t.role = Role::AugAssign; // += -= ... //= **= <<= >>= and Python's :=
        return;
    }
    if (op == "->" || op == "::") {
        t.role = Role::Dot;
    } else if (op == "++" || op == "--") {
        t.role = Role::IncDec;
    } else if (op == "<<<") { // a kernel launch's configuration reads as brackets
        t.role = Role::Open;
    } else if (op == ">>>") {
        t.role = Role::Close;
    } else if (op == "==" || op == "!=") {
        setOp(t, cuda ? CEquality : PCompare);
    } else if (op == "<=" || op == ">=") {
        setOp(t, cuda ? CRelational : PCompare);
    } else if (op == "<<" || op == ">>") {
        setOp(t, PShift);
    } else if (op == "**") {
        setOp(t, PPow);
    } else if (op == "//") {
        setOp(t, PMul);
    } else if (op == "&&") {
        setOp(t, PAnd, true);
    } else if (op == "||") {
        setOp(t, POr, true);
    }
}

void classifyName(std::string_view ident, std::uint64_t hash, bool cuda, RawToken &t)
{
    struct Entry
    {
        const char *name;
        Role role;
        std::uint8_t prec;
        std::uint8_t flags;
    };
    struct Table
    {
        std::vector<std::uint64_t> keys;
        std::vector<Entry> vals;
        Table(std::initializer_list<Entry> entries) : keys(256, 0), vals(256)
        {
            for (const Entry &e : entries) {
                const std::uint64_t h = hashText(e.name);
                std::size_t j = h & 255;
                while (keys[j] != 0)
                    j = (j + 1) & 255;
                keys[j] = h;
                vals[j] = e;
            }
        }
        const Entry *find(std::uint64_t h) const
        {
            for (std::size_t j = h & 255; keys[j] != 0; j = (j + 1) & 255)
                if (keys[j] == h)
                    return &vals[j];
            return nullptr;
        }
    };
    static const Table python = {
        {"def", Role::KwDef, 0, 0},
        {"class", Role::KwClass, 0, 0},
        {"if", Role::KwIf, PTernary, 0},
        {"elif", Role::KwElif, 0, 0},
        {"else", Role::KwElse, PTernary, 0},
        {"for", Role::KwFor, 0, 0},
        {"while", Role::KwWhile, 0, 0},
        {"with", Role::KwWith, 0, 0},
        {"try", Role::KwTry, 0, 0},
        {"except", Role::KwExcept, 0, 0},
        {"finally", Role::KwFinally, 0, 0},
        {"async", Role::KwAsync, 0, 0},
        {"in", Role::KwIn, PCompare, 0},
        {"as", Role::KwAs, 0, 0},
        {"lambda", Role::KwLambda, PLambda, 0},
        {"not", Role::KwNot, PNot, 0},
        {"and", Role::Operator, PAnd, Associative},
        {"or", Role::Operator, POr, Associative},
        {"is", Role::Operator, PCompare, 0},
        {"return", Role::KwReturn, 0, 0},
        {"yield", Role::KwReturn, 0, 0},
        {"break", Role::KwBarrier, 0, 0},
        {"continue", Role::KwBarrier, 0, 0},
        {"raise", Role::KwBarrier, 0, 0},
        {"pass", Role::KwBarrier, 0, 0},
        {"del", Role::KwBarrier, 0, 0},
        {"global", Role::KwBarrier, 0, 0},
        {"nonlocal", Role::KwBarrier, 0, 0},
        {"import", Role::KwBarrier, 0, 0},
        {"from", Role::KwBarrier, 0, 0},
        {"assert", Role::KwBarrier, 0, 0},
        {"load", Role::None, 0, ReadsMemory},
        {"store", Role::None, 0, WritesMemory},
        {"debug_barrier", Role::None, 0, WritesMemory},
        {"device_print", Role::None, 0, WritesMemory},
        {"device_assert", Role::None, 0, WritesMemory},
        {"static_print", Role::None, 0, WritesMemory},
        {"print", Role::None, 0, WritesMemory},
    };
    static const Table cpp = {
        {"if", Role::KwIf, 0, 0},
        {"else", Role::KwElse, 0, 0},
        {"for", Role::KwFor, 0, 0},
        {"while", Role::KwWhile, 0, 0},
        {"do", Role::KwDo, 0, 0},
        {"switch", Role::KwSwitch, 0, 0},
        {"try", Role::KwTry, 0, 0},
        {"return", Role::KwReturn, 0, 0},
        {"break", Role::KwBarrier, 0, 0},
        {"continue", Role::KwBarrier, 0, 0},
        {"goto", Role::KwBarrier, 0, 0},
        {"case", Role::KwBarrier, 0, 0},
        {"default", Role::KwBarrier, 0, 0},
        {"throw", Role::KwBarrier, 0, 0},
        {"__ldg", Role::None, 0, ReadsMemory},
        {"printf", Role::None, 0, WritesMemory},
        {"memcpy", Role::None, 0, WritesMemory},
        {"memset", Role::None, 0, WritesMemory},
    };
    if (const Entry *e = (cuda ? cpp : python).find(hash)) {
        t.role = e->role;
        t.prec = e->prec;
        t.flags |= e->flags;
        return;
    }
    auto starts = [&](std::string_view p) { return ident.substr(0, p.size()) == p; };
    const char c = ident.empty() ? '\0' : ident[0];
    if (cuda) {
        if (c != 'a' && c != '_' && c != 's' && c != 'l') // most names: none of the prefixes below
            return;
        if (starts("atomic") || starts("__sync") || starts("__threadfence") || starts("__st") || starts("store") ||
            starts("__pipeline"))
            t.flags |= WritesMemory;
        else if (starts("__ld") || starts("load"))
            t.flags |= ReadsMemory;
        else if (ident == "asm" || ident == "__asm__")
            t.role = Role::KwBarrier;
        return;
    }
    if (c == 'a' && starts("atomic_"))
        t.flags |= WritesMemory;
    else if (ident.size() > 1 && ident.back() == '_' && c != '_') // x.copy_(y), out.zero_()
        t.flags |= WritesMemory;
}

// ---------------------------------------------------------------------------------------------------------

} // namespace sieve::normaliser_restructure
