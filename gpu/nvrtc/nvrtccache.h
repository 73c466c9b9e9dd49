#pragma once
// Content-addressed cache of NVRTC results on disk: the key covers the source, the options and the exact
// NVRTC build, so a hit is byte-for-byte what a fresh compile would give. Failed compiles are cached too
// (their log is as deterministic as a cubin). Writes go to a temporary file and are renamed into place,
// so concurrent sieve processes never see a half-written entry.
#include <optional>
#include <string>

namespace sieve::gpu {

struct NvrtcCacheEntry
{
    bool ok = false;
    std::string log;
    std::string ptx;
    std::string cubin;
};

class NvrtcCache
{
public:
    explicit NvrtcCache(std::string dir);
    // SIEVE_NVRTC_CACHE, else $XDG_CACHE_HOME/sieve/nvrtc, else ~/.cache/sieve/nvrtc.
    static std::string defaultDir();

    const std::string &dir() const { return m_dir; }
    std::string pathFor(const std::string &key) const;
    std::optional<NvrtcCacheEntry> load(const std::string &key) const;
    // Best effort: a cache that cannot be written (read-only home) only costs speed. Returns success.
    bool store(const std::string &key, const NvrtcCacheEntry &entry) const;

private:
    std::string m_dir;
};

} // namespace sieve::gpu
