// The canonical form: inlining, keys, the order of each block, the output sequence.
#include "core/dedup/normaliser_restructure_impl.h"

namespace sieve::normaliser_restructure {

namespace {

// Parentheses after this token may group an expression (not call, cast or enclose a C++ condition) ...
bool groupsAfter(const RawToken *left)
{
    if (!left)
        return true;
    if (left->kind == Kind::Local || left->kind == Kind::Global)
        return false; // a call
    if (left->kind != Kind::Fixed)
        return true; // the start of a line
    switch (left->role) {
    case Role::Operator:
    case Role::Assign:
    case Role::AugAssign:
    case Role::Comma:
    case Role::Open:
    case Role::Colon:
    case Role::Question:
    case Role::At:
    case Role::KwReturn:
    case Role::KwIn:
    case Role::KwNot:
    case Role::KwElse:
    case Role::Semicolon:
    case Role::LBrace:
    case Role::RBrace:
        return true;
    case Role::KwIf:
        return left->prec != 0; // Python's `if (a):` and the ternary; not C++'s if (...)
    default:
        return false;
    }
}
// ... and before this one: not (f)(x) nor a cast (float)x.
bool groupsBefore(const RawToken *right)
{
    return !right || (right->kind == Kind::Fixed && right->role != Role::None && right->role != Role::Open);
}

} // namespace

Restructurer::Impl::DepEntry &Restructurer::Impl::dep(std::uint32_t name)
{
    if (depStamp[name] != depEpoch) {
        depStamp[name] = depEpoch;
        deps[name] = DepEntry{};
    }
    return deps[name];
}

// The names of a statement's tokens (with what was inlined into it), duplicates included.
void Restructurer::Impl::collectNames(const Stmt &s, std::vector<std::uint32_t> &out) const
{
    out.clear();
    auto f = [&](std::uint32_t p) {
        if (isName(tok(p)))
            out.push_back(nameKey(tok(p)));
    };
    walk(s.begin, s.end, f);
}

bool Restructurer::Impl::needsParens(const RawToken *leftLeft, const RawToken *left, const RawToken *right,
                                     std::uint8_t bind, std::uint64_t op)
{
    if (bind >= PPrimary)
        return false;
    if (right && right->kind == Kind::Fixed) {
        if (right->role == Role::Open || right->role == Role::Dot)
            return true; // (a + b).to(...), (a + b)[i]
        if (right->prec && right->role != Role::Colon) {
            const bool rightAssoc = right->prec == PPow;
            const bool chained = right->prec == PCompare;
            if (bind < right->prec || (bind == right->prec && (rightAssoc || chained)))
                return true;
        }
    }
    if (left && left->kind == Kind::Fixed && left->prec && left->role != Role::Colon) {
        if (left->role == Role::KwLambda)
            return false;
        const bool operandBefore = leftLeft && (leftLeft->kind != Kind::Fixed || leftLeft->role == Role::None ||
                                                leftLeft->role == Role::Close || leftLeft->role == Role::RBrace);
        const bool unary = left->role == Role::KwNot || (left->role == Role::Operator && !operandBefore);
        if (unary)
            return bind < (left->role == Role::KwNot ? PNot : PUnary);
        if (bind < left->prec)
            return true;
        if (bind == left->prec)
            return !((left->flags & Associative) && op == left->hash);
    }
    return false;
}

void Restructurer::Impl::dropRedundantParens(std::vector<std::uint32_t> &seq)
{
    const std::size_t n = seq.size();
    frames.clear();
    if (dropped.size() < n)
        dropped.resize(n, 0); // all 0: the positions set last time were cleared below
    bool any = false;
    const std::uint64_t open = tok(lparen).hash, close = tok(rparen).hash;
    auto before = [&](std::size_t i) { // the token before position i that stays, or n
        while (i > 0 && dropped[i - 1])
            --i;
        return i > 0 ? i - 1 : n;
    };
    for (std::size_t i = 0; i < n; ++i) {
        const RawToken &t = tok(seq[i]);
        const bool fixed = t.kind == Kind::Fixed;
        if (fixed && (t.role == Role::Open || t.role == Role::LBrace)) {
            if (t.hash == open) {
                const std::size_t l = before(i);
                const RawToken *left = l < n ? &tok(seq[l]) : nullptr;
                if (groupsAfter(left)) {
                    Frame f;
                    f.at = i;
                    f.left = left;
                    const std::size_t ll = l < n ? before(l) : n;
                    f.leftLeft = ll < n ? &tok(seq[ll]) : nullptr;
                    f.atDepth0 = frames.empty() || frames.back().nested == 0;
                    frames.push_back(f);
                    continue;
                }
            }
            if (!frames.empty())
                ++frames.back().nested;
            continue;
        }
        if (frames.empty())
            continue;
        Frame &f = frames.back();
        if (fixed && (t.role == Role::Close || t.role == Role::RBrace)) {
            if (f.nested > 0) { // a call's or a subscript's inside the group
                if (--f.nested == 0)
                    f.operand = true;
                continue;
            }
            const Frame g = f;
            frames.pop_back();
            bool drop = false;
            if (t.hash == close && g.at + 1 < i && g.plain) {
                const RawToken *right = i + 1 < n ? &tok(seq[i + 1]) : nullptr;
                drop = groupsBefore(right) && !needsParens(g.leftLeft, g.left, right, g.weakest, g.op);
            }
            if (drop) {
                dropped[g.at] = dropped[i] = 1;
                any = true;
            }
            if (!frames.empty() && g.atDepth0) {
                Frame &up = frames.back();
                if (drop) { // its operators are now the enclosing group's
                    up.plain &= g.plain;
                    if (g.weakest < up.weakest) {
                        up.weakest = g.weakest;
                        up.op = g.op;
                    } else if (g.weakest == up.weakest && g.weakest < PPrimary && g.op != up.op) {
                        up.op = 0;
                    }
                }
                up.operand = true;
            }
            continue;
        }
        if (f.nested > 0)
            continue;
        if (!fixed) {
            f.operand = true;
            continue;
        }
        if (t.role == Role::Dot)
            continue; // x.y stays an operand
        if (t.role == Role::Comma || t.role == Role::KwFor || t.role == Role::KwReturn || t.role == Role::Assign ||
            t.role == Role::AugAssign || t.role == Role::KwBarrier || t.role == Role::Semicolon) {
            f.plain = false;
            f.operand = false;
            continue;
        }
        std::uint8_t prec = t.prec;
        if (prec == 0) {
            f.operand = t.role == Role::None; // a kept name or a literal
            continue;
        }
        if (!f.operand && t.role == Role::Operator)
            prec = PUnary; // -x, ~x, *p
        if (prec < f.weakest) {
            f.weakest = prec;
            f.op = t.hash;
        } else if (prec == f.weakest && f.op != t.hash) {
            f.op = 0;
        }
        f.operand = false;
    }
    if (!any)
        return;
    std::size_t w = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (!dropped[i])
            seq[w++] = seq[i];
        dropped[i] = 0;
    }
    seq.resize(w);
}

void Restructurer::Impl::inlineBlock(const Block &b)
{
    // The block's statements in one compact array: where they end, and what an expression moving
    // past them must not meet (a barrier, a store if it loads, a definition of its names).
    moves.resize(b.count);
    for (std::uint32_t k = 0; k < b.count; ++k) {
        const Stmt &w = stmts[blockStmts[b.first + k]];
        Move &m = moves[k];
        m.end = w.end;
        m.barrier = w.barrier;
        m.writes = w.writes;
        m.all = w.defsAll || w.writes;
        m.removed = false;
        m.defs = 0;
        if (m.all) {
            m.defs = w.bloom;
        } else {
            for (std::uint32_t d = 0; d < w.defCount; ++d)
                m.defs |= std::uint64_t{1} << (nameKey(tok(defs[w.firstDef + d])) % 64);
        }
    }
    const std::uint64_t open = tok(lparen).hash, close = tok(rparen).hash;
    for (std::uint32_t k = 0; k < b.count; ++k) {
        Stmt &s = stmts[blockStmts[b.first + k]];
        if (s.target < 0)
            continue;
        // This value's uses: the occurrences of t up to its next plain definition in this block, all
        // in later statements of the block; none before it that a loop could carry it back to.
        const auto tp = static_cast<std::uint32_t>(s.target);
        const std::uint32_t before = prevOcc[tp];
        if (before != kNone && !(defAt[before] & AnyDef) && b.loopBegin != kNone && before >= b.loopBegin)
            continue;
        // One pass over E's own tokens (when first needed); what was inlined into E counts by what it
        // cached: its size (parentheses do not count: inlining adds them, writers differ), names and
        // constancy. It is an operand for E's binding: unparenthesised, it binds at least as tightly
        // as its neighbours.
        bool scanned = false;
        Binding bind;
        auto scanE = [&] {
            if (scanned)
                return;
            scanned = true;
            std::uint32_t size = 0;
            std::uint64_t bloom = 0;
            bool constant = !s.reads;
            for (std::uint32_t p = s.eBegin; p < s.eEnd; ++p) {
                const RawToken &e = tok(p);
                if (subst[p] >= 0) {
                    const Stmt &sub = stmts[static_cast<std::uint32_t>(subst[p] / 2)];
                    size += sub.eSize;
                    bloom |= sub.eBloom;
                    constant &= sub.eConstant;
                } else if (isName(e)) {
                    bloom |= std::uint64_t{1} << (nameKey(e) % 64);
                    constant = false;
                    ++size;
                } else {
                    size += e.hash != open && e.hash != close;
                }
                bind.add(e);
            }
            s.eSize = size;
            s.eBloom = bloom;
            s.eConstant = constant;
        };
        auto isConstant = [&] {
            scanE();
            return s.eConstant;
        };
        sites.clear();
        std::uint32_t j = k + 1;
        bool ok = true;
        std::uint32_t first = nextOcc[tp];
        while (first != kNone && first < s.end) // t = f(t): uses of the value before
            first = nextOcc[first];
        for (std::uint32_t at = first; at != kNone && ok; at = nextOcc[at]) {
            while (j < b.count && moves[j].end <= at)
                ++j;
            if (defAt[at] & PlainDef) { // redefined: these were all the uses of this value
                ok = j == b.count || !stmts[blockStmts[b.first + j]].compound;
                break;
            }
            if (j == b.count) {
                ok = false;
            } else {
                ok = useSiteAllows(stmts[blockStmts[b.first + j]], at, isConstant);
                sites.push_back({at, j});
            }
        }
        if (!ok || sites.empty())
            continue;
        scanE();
        const std::uint32_t lastUse = sites.back().stmt;
        const std::size_t size = s.eSize;
        if (size > (sites.size() == 1 ? kMaxInlinedTokens : kMaxSharedTokens) || size * sites.size() > inlineBudget)
            continue;
        // E's names must keep their values on the way to the uses.
        const std::uint64_t eBloom = s.eBloom;
        bool movable = true, listed = false; // listed: eNames holds E's names
        for (std::uint32_t w = k + 1; w < lastUse && movable; ++w) {
            const Move &m = moves[w];
            if (m.removed)
                continue;
            if (m.barrier || (s.reads && m.writes)) {
                movable = false;
                break;
            }
            if (!(m.defs & eBloom))
                continue; // it defines none of E's names
            const Stmt &ws = stmts[blockStmts[b.first + w]];
            wNames.clear();
            if (m.all) {
                collectNames(ws, wNames);
            } else {
                for (std::uint32_t d = 0; d < ws.defCount; ++d)
                    wNames.push_back(nameKey(tok(defs[ws.firstDef + d])));
            }
            if (!listed) {
                eNames.clear();
                auto f = [&](std::uint32_t p) {
                    if (isName(tok(p)))
                        eNames.push_back(nameKey(tok(p)));
                };
                walk(s.eBegin, s.eEnd, f);
                listed = true;
            }
            for (std::uint32_t n : wNames)
                if (std::find(eNames.begin(), eNames.end(), n) != eNames.end()) {
                    movable = false;
                    break;
                }
        }
        if (!movable)
            continue;
        inlineBudget -= size * sites.size();
        s.removed = true;
        moves[k].removed = true;
        const auto id = static_cast<std::int32_t>(blockStmts[b.first + k]);
        for (const Site &site : sites) {
            const RawToken *left = site.at > 0 ? &tok(site.at - 1) : nullptr;
            const RawToken *leftLeft = site.at > 1 ? &tok(site.at - 2) : nullptr;
            const bool paren = !bind.plain || needsParens(leftLeft, left, &tok(site.at + 1), bind.weakest, bind.op);
            subst[site.at] = id * 2 + (paren ? 1 : 0);
            Stmt &u = stmts[blockStmts[b.first + site.stmt]];
            u.reads |= s.reads;
            u.bloom |= eBloom;
            if (moves[site.stmt].all)
                moves[site.stmt].defs |= eBloom;
        }
    }
}

std::uint64_t Restructurer::Impl::keyRange(std::uint32_t b, std::uint32_t e, std::uint64_t h)
{
    const std::uint64_t open = tok(lparen).hash, close = tok(rparen).hash;
    auto f = [&](std::uint32_t p) {
        const RawToken &t = tok(p);
        if (!isName(t)) {
            // inlining adds parentheses that writers leave out; C++ braces may or may not be there
            if (t.hash != open && t.hash != close && t.role != Role::LBrace && t.role != Role::RBrace)
                h = mix(h, t.hash);
            return;
        }
        namePool.push_back(nameKey(t));
        std::uint64_t &v = values[nameKey(t)];
        if (v == 0) // where it first appears; but in a block that is reordered, that could be anywhere
            v = keyingReordered ? (t.kind == Kind::Local ? 0x667265654CULL : 0x6672656547ULL)
                                : mix(h, 0x6E65774E616D65ULL) | 1;
        h = mix(h, v);
    };
    walk(b, e, f);
    return h;
}

std::uint64_t Restructurer::Impl::statementKey(Stmt &s)
{
    s.namesBegin = static_cast<std::uint32_t>(namePool.size());
    std::uint64_t h = s.python ? 0x7079ULL : 0x637070ULL;
    std::uint32_t p = s.begin;
    for (std::uint32_t c = 0; c < s.childCount; ++c) {
        const Child ch = children[s.firstChild + c];
        h = keyRange(p, ch.begin, h);
        h = mix(h, processBlock(ch.block));
        p = ch.end;
    }
    h = keyRange(p, s.end, h);
    for (std::uint32_t d = 0; d < s.defCount; ++d)
        values[nameKey(tok(defs[s.firstDef + d]))] = mix(h, d + 1) | 1;
    s.namesEnd = static_cast<std::uint32_t>(namePool.size());
    return h;
}

std::uint64_t Restructurer::Impl::processBlock(std::uint32_t id)
{
    inlineBlock(blocks[id]);
    const Block b = blocks[id];
    const bool outer = keyingReordered;
    keyingReordered = b.reorder;
    for (std::uint32_t k = 0; k < b.count; ++k) {
        Stmt &s = stmts[blockStmts[b.first + k]];
        if (!s.removed) // an inlined one is keyed where it is used
            s.key = statementKey(s);
    }
    keyingReordered = outer;
    const std::uint32_t orderFirst = static_cast<std::uint32_t>(order.size());
    std::size_t n = 0;
    for (std::uint32_t k = 0; k < b.count; ++k)
        if (!stmts[blockStmts[b.first + k]].removed) {
            order.push_back(blockStmts[b.first + k]);
            ++n;
        }
    blocks[id].orderFirst = orderFirst;
    blocks[id].count = static_cast<std::uint32_t>(n); // from here on: the live statements
    if (b.reorder && n > 1 && n <= kMaxOrderedStatements)
        canonicalOrder(orderFirst, n);
    std::uint64_t h = 0xB10CULL;
    for (std::size_t k = 0; k < n; ++k)
        h = mix(h, stmts[order[orderFirst + k]].key);
    return h;
}

// The dependences of the block's statements in source order, then the order by (level, key, source
void Restructurer::Impl::canonicalOrder(std::uint32_t first, std::size_t n)
{
    live.assign(order.begin() + first, order.begin() + first + static_cast<std::ptrdiff_t>(n));
    level.assign(n, 0);
    if (++depEpoch == 0) {
        std::fill(depStamp.begin(), depStamp.end(), 0);
        depEpoch = 1;
    }
    std::int32_t lastWrite = -1, lastBarrier = -1;
    Bits readsSinceWrite;
    for (std::size_t j = 0; j < n; ++j) {
        const Stmt &s = stmts[live[j]];
        Bits pj;
        const std::uint32_t *names = namePool.data() + s.namesBegin, *namesEnd = namePool.data() + s.namesEnd;
        for (const std::uint32_t *k = names; k != namesEnd; ++k) {
            const DepEntry &e = dep(*k);
            if (e.lastDef >= 0)
                pj.set(static_cast<std::size_t>(e.lastDef)); // read or overwrite after a definition
        }
        const bool all = s.defsAll || s.writes;
        wNames.clear();
        if (all) {
            wNames.assign(names, namesEnd);
        } else { // the explicit definitions
            for (std::uint32_t d = 0; d < s.defCount; ++d)
                wNames.push_back(nameKey(tok(defs[s.firstDef + d])));
        }
        for (std::uint32_t k : wNames)
            pj |= dep(k).uses; // overwrite after a read
        for (const std::uint32_t *k = names; k != namesEnd; ++k)
            dep(*k).uses.set(j);
        for (std::uint32_t k : wNames) {
            DepEntry &e = dep(k);
            e.lastDef = static_cast<std::int32_t>(j);
            e.uses = Bits{};
        }
        if ((s.reads || s.writes) && lastWrite >= 0)
            pj.set(static_cast<std::size_t>(lastWrite));
        if (s.writes) {
            pj |= readsSinceWrite;
            lastWrite = static_cast<std::int32_t>(j);
            readsSinceWrite = Bits{};
        } else if (s.reads) {
            readsSinceWrite.set(j);
        }
        if (s.barrier) {
            pj |= Bits::below(j);
            lastBarrier = static_cast<std::int32_t>(j);
        } else if (lastBarrier >= 0) {
            pj.set(static_cast<std::size_t>(lastBarrier));
        }
        std::uint32_t lv = 0;
        for (std::size_t w = 0; w < pj.w.size(); ++w)
            for (std::uint64_t bits = pj.w[w]; bits; bits &= bits - 1)
                lv = std::max(lv, level[w * 64 + static_cast<std::size_t>(__builtin_ctzll(bits))] + 1);
        level[j] = lv;
    }
    rank.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        rank[i] = static_cast<std::uint32_t>(i);
    std::sort(rank.begin(), rank.end(), [&](std::uint32_t a, std::uint32_t b) {
        if (level[a] != level[b])
            return level[a] < level[b];
        const std::uint64_t ka = stmts[live[a]].key, kb = stmts[live[b]].key;
        return ka != kb ? ka < kb : a < b;
    });
    for (std::size_t i = 0; i < n; ++i)
        order[first + i] = live[rank[i]];
}

void Restructurer::Impl::emitBlock(std::uint32_t id, std::vector<std::uint32_t> &out)
{
    const Block &b = blocks[id];
    for (std::uint32_t k = 0; k < b.count; ++k) {
        const Stmt &s = stmts[order[b.orderFirst + k]];
        std::uint32_t p = s.begin;
        auto f = [&](std::uint32_t q) { out.push_back(q); };
        const bool control = !s.python && (s.head == Role::KwIf || s.head == Role::KwFor || s.head == Role::KwWhile ||
                                           s.head == Role::KwDo || s.head == Role::KwSwitch || s.head == Role::KwElse);
        for (std::uint32_t c = 0; c < s.childCount; ++c) {
            const Child ch = children[s.firstChild + c];
            // `if (c) { x; }` reads as `if (c) x;`: the braces of a single statement go, unless an
            // `else` after them would then belong to an inner `if`.
            const Block &body = blocks[ch.block];
            const bool unbrace = control && body.count == 1 && ch.begin > p && tok(ch.begin - 1).role == Role::LBrace &&
                                 ch.end < s.end && tok(ch.end).role == Role::RBrace &&
                                 (!stmts[order[body.orderFirst]].compound || ch.end + 1 >= s.end ||
                                  tok(ch.end + 1).role != Role::KwElse);
            walk(p, unbrace ? ch.begin - 1 : ch.begin, f);
            emitBlock(ch.block, out);
            p = unbrace ? ch.end + 1 : ch.end;
        }
        walk(p, s.end, f);
    }
}

void Restructurer::Impl::run(std::vector<RawToken> &toks, bool python, std::uint32_t nameCount,
                             std::vector<std::uint32_t> &out)
{
    tokens = &toks;
    const auto n = static_cast<std::uint32_t>(toks.size());
    RawToken paren;
    paren.hash = hashText("(");
    paren.role = Role::Open;
    lparen = n;
    toks.push_back(paren);
    paren.hash = hashText(")");
    paren.role = Role::Close;
    rparen = n + 1;
    toks.push_back(paren);
    stmts.clear();
    blocks.clear();
    children.clear();
    blockStmts.clear();
    order.clear();
    defs.clear();
    stack.clear();
    childStack.clear();
    loopBegin = ~0u;
    subst.assign(toks.size(), -1);
    namePool.clear();
    inlineBudget = 4 * static_cast<std::size_t>(n) + 1024;
    lastOcc.assign(nameCount, 0);
    values.assign(nameCount, 0);
    if (deps.size() < nameCount) {
        deps.resize(nameCount);
        depStamp.resize(nameCount, 0);
    }
    nextOcc.assign(toks.size(), kNone);
    prevOcc.assign(toks.size(), kNone);
    defAt.assign(toks.size(), 0);
    for (std::uint32_t p = 0; p < n; ++p) {
        if (toks[p].kind != Kind::Local)
            continue;
        std::uint32_t &last = lastOcc[nameKey(toks[p])];
        if (last) {
            nextOcc[last - 1] = p;
            prevOcc[p] = last - 1;
        }
        last = p + 1;
    }
    std::uint32_t p = 0;
    const std::uint32_t top = python ? parsePyBlock(p, n, 0, false, true) : parseCudaBlock(p, n, 0, false, true);
    processBlock(top);
    out.clear();
    out.reserve(n);
    emitBlock(top, out);
    dropRedundantParens(out);
}

Restructurer::Restructurer() : m_impl(std::make_unique<Impl>()) {}
Restructurer::~Restructurer() = default;

void Restructurer::run(std::vector<RawToken> &tokens, bool python, std::uint32_t nameCount,
                       std::vector<std::uint32_t> &order)
{
    m_impl->run(tokens, python, nameCount, order);
}

} // namespace sieve::normaliser_restructure
