#pragma once
// Helpers that several gpu commands share: the GPUs this process may use (verify, tasks check) and
// reading a source file (compile, cuda-run).
#include <string>
#include <vector>

namespace sieve::gpu {

// The GPUs this process may use, as CUDA numbers them; empty without nvidia-smi.
std::vector<int> detectGpus();

// A source to compile: its text and the name diagnostics show.
struct Input
{
    std::string code;
    std::string name; // shown in diagnostics
};

// The file at `path`, named by its path; throws when it cannot be read.
Input readFile(const std::string &path);

} // namespace sieve::gpu
