#pragma once
// The verifier's scratch folder, /tmp/sieve-scratch-XXXXXX: candidate code and its outputs live there
// while a run lasts. A run that ends normally removes it; one that is killed (kill -9, a crash, a power
// cut) cannot, so every run first removes the folders whose owner is gone. Ownership is an flock(2) on
// the folder's `.owner` file, held for the run's lifetime (the kernel drops it when the process dies);
// a folder without that file is someone else's or half made, and is left alone unless it is an hour old.
#include <string>

namespace sieve::gpu {

class ScratchDir
{
public:
    // Creates a fresh folder under `parent` (default: the system's temporary folder) after removing the
    // stale ones there. Throws std::runtime_error when it cannot be created.
    explicit ScratchDir(const std::string &parent = {});
    ~ScratchDir(); // removes the folder
    ScratchDir(const ScratchDir &) = delete;
    ScratchDir &operator=(const ScratchDir &) = delete;

    const std::string &path() const { return m_path; }

    // Removes this user's sieve-scratch-* folders under `parent` whose owner is gone; returns how many.
    static int removeStale(const std::string &parent);

private:
    std::string m_path;
    int m_lockFd = -1;
};

} // namespace sieve::gpu
