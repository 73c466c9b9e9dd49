#pragma once
// The names the code normaliser keeps as they are: keywords, builtins, the kernel APIs (tl, torch, triton,
// CUDA built-ins and intrinsics) and KernelBench's interface names. Everything else that is not an
// attribute is a local name and gets renamed.
#include <cstdint>
#include <string_view>

namespace sieve::normaliser_names {

// Both take the identifier and its 64-bit hash (normaliser_tokens::hashText) so the lookup costs no rehash.
bool pythonKept(std::string_view ident, std::uint64_t hash);
bool cudaKept(std::string_view ident, std::uint64_t hash);

} // namespace sieve::normaliser_names
