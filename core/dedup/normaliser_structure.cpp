// The restructurer's parser: Python blocks by indentation, C++ blocks by braces, statements with their
// children (bodies, a load_inline string's C++), and what each statement reads, writes and defines.
#include "core/dedup/normaliser_restructure_impl.h"

namespace sieve::normaliser_restructure {

std::uint32_t Restructurer::Impl::newStmt(bool python)
{
    stmts.emplace_back();
    stmts.back().python = python;
    return static_cast<std::uint32_t>(stmts.size() - 1);
}

std::uint32_t Restructurer::Impl::finishBlock(std::size_t base, bool reorder)
{
    Block b;
    b.first = static_cast<std::uint32_t>(blockStmts.size());
    b.count = static_cast<std::uint32_t>(stack.size() - base);
    b.reorder = reorder;
    b.loopBegin = loopBegin;
    for (std::size_t k = base; k < stack.size(); ++k) {
        const Stmt &s = stmts[stack[k]];
        blockStmts.push_back(stack[k]);
        b.reads |= s.reads;
        b.writes |= s.writes;
        b.barrier |= s.barrier;
        b.bloom |= s.bloom;
    }
    stack.resize(base);
    blocks.push_back(b);
    return static_cast<std::uint32_t>(blocks.size() - 1);
}

std::uint32_t Restructurer::Impl::enterLoop(bool loop, std::uint32_t begin)
{
    const std::uint32_t outer = loopBegin;
    if (loop && loopBegin == ~0u)
        loopBegin = begin;
    return outer;
}

void Restructurer::Impl::addChild(std::uint32_t begin, std::uint32_t end, std::uint32_t block)
{
    childStack.push_back(static_cast<std::uint32_t>(children.size()));
    children.push_back({begin, end, block});
}

void Restructurer::Impl::takeChildren(Stmt &s, std::size_t base)
{
    s.childCount = static_cast<std::uint32_t>(childStack.size() - base);
    s.firstChild = s.childCount ? childStack[base] : 0;
    childStack.resize(base);
}

std::uint32_t Restructurer::Impl::matching(std::uint32_t p, std::uint32_t end, Role open, Role close) const
{
    int depth = 0;
    for (; p < end; ++p) {
        const Role r = tok(p).role;
        if (tok(p).kind != Kind::Fixed)
            continue;
        if (r == open)
            ++depth;
        else if (r == close && --depth == 0)
            return p;
    }
    return end;
}

std::uint32_t Restructurer::Impl::matchingLayout(std::uint32_t p, std::uint32_t end) const
{
    int depth = 0;
    for (; p < end; ++p) {
        if (tok(p).kind == Kind::Indent)
            ++depth;
        else if (tok(p).kind == Kind::Dedent && --depth == 0)
            return p;
    }
    return end;
}

std::uint32_t Restructurer::Impl::parsePyBlock(std::uint32_t &p, std::uint32_t end, int depth, bool inFunction,
                                               bool top)
{
    const std::size_t base = stack.size();
    while (p < end) {
        if (tok(p).kind == Kind::Dedent) {
            if (!top)
                break;
            const std::uint32_t id = newStmt(true); // a stray dedent at the top: a statement of its own
            stmts[id].begin = p;
            stmts[id].end = ++p;
            stack.push_back(id);
            continue;
        }
        stack.push_back(parsePyStmt(p, end, depth, inFunction));
    }
    return finishBlock(base, inFunction);
}

std::uint32_t Restructurer::Impl::parsePyStmt(std::uint32_t &p, std::uint32_t end, int depth, bool inFunction)
{
    const std::uint32_t id = newStmt(true);
    const std::size_t childBase = childStack.size();
    const std::uint32_t begin = p;
    const Role head = tok(p).kind == Kind::Fixed ? tok(p).role : Role::None;
    const bool isDef = head == Role::KwDef || (head == Role::KwAsync && p + 1 < end && tok(p + 1).role == Role::KwDef);
    bool compound = false;
    while (true) {
        if (tok(p).kind != Kind::Indent) { // a stray indent has no header line
            while (p < end && tok(p).kind != Kind::Newline) {
                if (tok(p).kind == Kind::CudaBegin) {
                    const std::uint32_t open = ++p;
                    while (p < end && tok(p).kind != Kind::CudaEnd)
                        ++p;
                    std::uint32_t q = open;
                    const std::uint32_t block = parseCudaBlock(q, p, depth + 1, false, true);
                    addChild(open, p, block);
                }
                if (p < end)
                    ++p;
            }
            if (p < end)
                ++p; // the newline
        }
        if (p >= end || tok(p).kind != Kind::Indent)
            break;
        compound = true;
        if (depth >= kMaxDepth) {
            p = std::min(end, matchingLayout(p, end) + 1);
        } else {
            const std::uint32_t open = ++p;
            const std::uint32_t outer = enterLoop(head == Role::KwFor || head == Role::KwWhile, begin);
            const std::uint32_t block = parsePyBlock(p, end, depth + 1, inFunction || isDef, false);
            loopBegin = outer;
            addChild(open, p, block);
            if (p < end)
                ++p; // the dedent
        }
        if (p < end && tok(p).kind == Kind::Fixed &&
            (tok(p).role == Role::KwElif || tok(p).role == Role::KwElse || tok(p).role == Role::KwExcept ||
             tok(p).role == Role::KwFinally))
            continue;
        break;
    }
    Stmt &s = stmts[id];
    s.begin = begin;
    s.end = p;
    s.head = head;
    s.compound = compound || isCompoundHead(head);
    takeChildren(s, childBase);
    analyse(id);
    return id;
}

std::uint32_t Restructurer::Impl::parseCudaBlock(std::uint32_t &p, std::uint32_t end, int depth, bool inFunction,
                                                 bool top)
{
    const std::size_t base = stack.size();
    while (p < end) {
        if (tok(p).role == Role::RBrace && tok(p).kind == Kind::Fixed) {
            if (!top)
                break;
            const std::uint32_t id = newStmt(false); // a stray '}' at file scope
            stmts[id].begin = p;
            stmts[id].end = ++p;
            stack.push_back(id);
            continue;
        }
        stack.push_back(parseCudaStmt(p, end, depth, inFunction, top));
    }
    return finishBlock(base, inFunction);
}

std::uint32_t Restructurer::Impl::parseCudaStmt(std::uint32_t &p, std::uint32_t end, int depth, bool inFunction,
                                                bool top)
{
    const std::uint32_t id = newStmt(false);
    const std::size_t childBase = childStack.size();
    const std::uint32_t begin = p;
    const Role head = tok(p).kind == Kind::Fixed ? tok(p).role : Role::None;
    int paren = 0;
    bool sawParen = false, compound = false;
    // A control statement's body: braced or not, it is a child block, so that `if (c) x;` and
    // `if (c) { x; }` parse alike. expectBody: the header (`if (...)`, `else`, `do`) just ended.
    bool headerParen = false, expectBody = head == Role::KwDo;
    if (expectBody)
        ++p;
    while (p < end) {
        const RawToken &t = tok(p);
        if (expectBody && !(t.kind == Kind::Fixed && (t.role == Role::LBrace || t.role == Role::RBrace)) &&
            depth < kMaxDepth) {
            expectBody = false;
            compound = true;
            const std::uint32_t open = p;
            const std::size_t base = stack.size();
            const std::uint32_t outer =
                enterLoop(head == Role::KwFor || head == Role::KwWhile || head == Role::KwDo, begin);
            stack.push_back(parseCudaStmt(p, end, depth + 1, inFunction, false));
            const std::uint32_t block = finishBlock(base, inFunction);
            loopBegin = outer;
            addChild(open, p, block);
            if (p < end && tok(p).kind == Kind::Fixed &&
                (tok(p).role == Role::KwElse || (head == Role::KwDo && tok(p).role == Role::KwWhile)))
                continue;
            break;
        }
        expectBody = false;
        if (t.kind != Kind::Fixed) {
            ++p;
            continue;
        }
        if (t.role == Role::KwElse) {
            expectBody = true;
            ++p;
            continue;
        }
        if (t.role == Role::Open) {
            headerParen |=
                paren == 0 && p == begin + 1 &&
                (head == Role::KwIf || head == Role::KwFor || head == Role::KwWhile || head == Role::KwSwitch);
            ++paren;
            sawParen = true;
        } else if (t.role == Role::Close) {
            paren = std::max(0, paren - 1);
            if (paren == 0 && headerParen) {
                headerParen = false;
                expectBody = true;
            }
        } else if (t.role == Role::Semicolon && paren == 0) {
            ++p;
            break;
        } else if (t.role == Role::RBrace) {
            break; // the enclosing block's end
        } else if (t.role == Role::LBrace) {
            const Role prev = p > begin ? tok(p - 1).role : Role::None;
            const bool initializer = p > begin && (prev == Role::Assign || prev == Role::Comma || prev == Role::Open ||
                                                   prev == Role::KwReturn || prev == Role::LBrace);
            if (initializer || paren > 0 || depth >= kMaxDepth) {
                p = std::min(end, matching(p, end, Role::LBrace, Role::RBrace) + 1);
                continue;
            }
            compound = true;
            const std::uint32_t open = ++p;
            const bool function = inFunction || (top && sawParen);
            const std::uint32_t outer =
                enterLoop(head == Role::KwFor || head == Role::KwWhile || head == Role::KwDo, begin);
            const std::uint32_t block = parseCudaBlock(p, end, depth + 1, function, top && !function);
            loopBegin = outer;
            addChild(open, p, block);
            if (p < end)
                ++p; // the '}'
            if (p < end && tok(p).kind == Kind::Fixed) {
                const Role next = tok(p).role;
                if (next == Role::KwElse || (head == Role::KwDo && next == Role::KwWhile))
                    continue;
                if (next == Role::Semicolon)
                    ++p;
            }
            break;
        }
        ++p;
    }
    if (p == begin) // cannot happen (a '}' first is handled by the block), but never loop forever
        ++p;
    Stmt &s = stmts[id];
    s.begin = begin;
    s.end = p;
    s.head = head;
    s.compound = compound || isCompoundHead(head);
    takeChildren(s, childBase);
    analyse(id);
    return id;
}

std::uint32_t Restructurer::Impl::directInit(const Stmt &s) const
{
    std::uint32_t q = s.begin;
    while (q < s.end && !(tok(q).kind == Kind::Fixed && tok(q).role == Role::Open))
        ++q;
    if (q >= s.end || q < s.begin + 2 || tok(q).hash != tok(lparen).hash || !isName(tok(q - 1)))
        return kNone;
    for (std::uint32_t k = s.begin; k + 1 < q; ++k) {
        const RawToken &t = tok(k);
        const bool typeLike = isName(t) || (t.kind == Kind::Fixed && !(t.flags & Literal) &&
                                            (t.role == Role::None || t.role == Role::Dot || t.role == Role::Operator));
        if (!typeLike)
            return kNone;
    }
    return q - 1;
}

void Restructurer::Impl::analyse(std::uint32_t id)
{
    Stmt &s = stmts[id];
    s.firstDef = static_cast<std::uint32_t>(defs.size());
    std::uint32_t c = 0; // next child
    int depth = 0;
    int assigns = 0;
    bool depth0Comma = false, incDec = false, call = false, nested = false;
    const RawToken *prev = nullptr;
    for (std::uint32_t p = s.begin; p < s.end; ++p) {
        while (c < s.childCount && p == children[s.firstChild + c].begin) {
            const Child &ch = children[s.firstChild + c++];
            const Block &b = blocks[ch.block];
            s.reads |= b.reads;
            s.writes |= b.writes;
            s.barrier |= b.barrier;
            s.bloom |= b.bloom;
            p = ch.end;
            prev = nullptr;
        }
        if (p >= s.end)
            break;
        const RawToken &t = tok(p);
        s.reads |= (t.flags & ReadsMemory) != 0;
        s.writes |= (t.flags & WritesMemory) != 0;
        if (t.kind != Kind::Fixed) {
            if (isName(t))
                s.bloom |= std::uint64_t{1} << (nameKey(t) % 64);
            prev = &t;
            continue;
        }
        switch (t.role) {
        case Role::KwReturn:
        case Role::KwBarrier:
        case Role::Hash:
            s.barrier = true;
            break;
        case Role::At:
            s.barrier |= p == s.begin; // a decorator belongs to the def below it
            break;
        case Role::Open:
            if (!s.python && t.hash == tok(lparen).hash && prev && (isName(*prev) || prev->role == Role::None))
                call = true;
            [[fallthrough]];
        case Role::LBrace:
            ++depth;
            break;
        case Role::Close:
        case Role::RBrace:
            depth = std::max(0, depth - 1);
            break;
        case Role::Comma:
            depth0Comma |= depth == 0;
            break;
        case Role::Semicolon:
            s.barrier |= s.python && depth == 0; // two statements on one line
            break;
        case Role::Assign:
        case Role::AugAssign:
            if (depth == 0) {
                s.lastAssign = static_cast<std::int32_t>(p);
                ++assigns;
            } else if (!s.python || t.role == Role::AugAssign) { // C++ a[i = 0], Python's :=
                nested = true;
            }
            break;
        case Role::IncDec:
            incDec = true;
            break;
        default:
            break;
        }
        prev = &t;
    }
    if (s.python && s.compound && s.childCount == 0)
        s.barrier = true; // `if x: y = 1` on one line
    if (s.compound) {
        s.defsAll = true;
        return;
    }
    if (s.lastAssign < 0) {
        // No assignment: a Python expression statement is a call for its effect; in C++ so is a call,
        // but `dim3 grid(x, y)` declares grid, `i++` defines i and a declaration its names.
        if (!s.python) {
            const std::uint32_t name = directInit(s);
            if (name != kNone) {
                defs.push_back(name);
                defAt[name] |= AnyDef | PlainDef;
                s.defCount = 1;
                return;
            }
        }
        if (s.python || call)
            s.writes = true;
        s.defsAll = true;
        return;
    }
    if (nested || (!s.python && depth0Comma)) {
        s.defsAll = true;
        return;
    }
    // The target part: names at bracket depth 0 before the last assignment are defined; a subscript,
    // attribute or dereference there is a store.
    depth = 0;
    bool pure = true;
    for (std::uint32_t p = s.begin; p < static_cast<std::uint32_t>(s.lastAssign); ++p) {
        const RawToken &t = tok(p);
        if (t.kind == Kind::Fixed) {
            if (t.role == Role::Open || t.role == Role::LBrace) {
                pure &= depth > 0 || p == s.begin;
                ++depth;
            } else if (t.role == Role::Close || t.role == Role::RBrace) {
                depth = std::max(0, depth - 1);
            } else if (depth == 0 && (t.role == Role::Dot || (t.role == Role::Operator && p == s.begin))) {
                pure = false;
            }
        } else if (isName(t) && depth == 0) {
            defs.push_back(p);
            defAt[p] |= tok(static_cast<std::uint32_t>(s.lastAssign)).role == Role::Assign ? AnyDef | PlainDef : AnyDef;
        }
    }
    s.defCount = static_cast<std::uint32_t>(defs.size()) - s.firstDef;
    if (!pure)
        s.writes = true;
    if (incDec)
        s.defsAll = true;
    // An inline candidate: `t = E` (Python) or `type... t = E;` (C++), one plain '=', E free of effects.
    const auto a = static_cast<std::uint32_t>(s.lastAssign);
    if (assigns != 1 || tok(a).role != Role::Assign || !pure || s.writes || s.barrier || s.childCount || incDec ||
        a == s.begin || tok(a - 1).kind != Kind::Local)
        return;
    for (std::uint32_t p = s.begin; p + 1 < a; ++p) // C++: only type keywords before the name
        if (s.python || tok(p).kind != Kind::Fixed || tok(p).role != Role::None)
            return;
    const std::uint32_t last = s.end - 1;
    const bool terminated = s.python ? tok(last).kind == Kind::Newline : tok(last).role == Role::Semicolon;
    if (!terminated || last <= a + 1)
        return;
    s.target = static_cast<std::int32_t>(a - 1);
    s.eBegin = a + 1;
    s.eEnd = last;
}

} // namespace sieve::normaliser_restructure
