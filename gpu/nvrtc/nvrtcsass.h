#pragma once
// SASS of a cubin, when the toolkit's disassembler is installed (nvdisasm, else cuobjdump -sass). NVRTC
// itself cannot disassemble, and the pip-packaged toolkits often ship without either tool, so this is an
// optional extra: callers show `why` instead.
#include <optional>
#include <string>

namespace sieve::gpu {

// The disassembler found on PATH or in the CUDA homes' bin/; empty when there is none.
std::string findDisassembler();

// Runs the disassembler as a child process on a temporary copy of the cubin.
std::optional<std::string> disassemble(const std::string &cubin, std::string *why = nullptr);

} // namespace sieve::gpu
