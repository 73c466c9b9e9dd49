#include "gpu/nvrtc/nvrtccache.h"

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace fs = std::filesystem;

namespace sieve::gpu {

namespace {

constexpr std::string_view kMagic = "SIEVE-NVRTC-1\n";

void putField(std::string &out, const std::string &field)
{
    const auto n = static_cast<std::uint64_t>(field.size());
    for (int i = 0; i < 8; ++i)
        out += static_cast<char>((n >> (8 * i)) & 0xff);
    out += field;
}

bool getField(const std::string &in, std::size_t &pos, std::string &field)
{
    if (pos + 8 > in.size())
        return false;
    std::uint64_t n = 0;
    for (int i = 0; i < 8; ++i)
        n |= static_cast<std::uint64_t>(static_cast<unsigned char>(in[pos + static_cast<std::size_t>(i)])) << (8 * i);
    pos += 8;
    if (n > in.size() - pos)
        return false;
    field = in.substr(pos, n);
    pos += n;
    return true;
}

} // namespace

NvrtcCache::NvrtcCache(std::string dir) : m_dir(std::move(dir)) {}

std::string NvrtcCache::defaultDir()
{
    if (const char *v = std::getenv("SIEVE_NVRTC_CACHE"); v && *v)
        return v;
    if (const char *v = std::getenv("XDG_CACHE_HOME"); v && *v)
        return (fs::path(v) / "sieve" / "nvrtc").string();
    const char *home = std::getenv("HOME");
    return (fs::path(home && *home ? home : "/tmp") / ".cache" / "sieve" / "nvrtc").string();
}

std::string NvrtcCache::pathFor(const std::string &key) const
{
    return (fs::path(m_dir) / key.substr(0, 2) / (key + ".bin")).string();
}

std::optional<NvrtcCacheEntry> NvrtcCache::load(const std::string &key) const
{
    std::ifstream in(pathFor(key), std::ios::binary);
    if (!in)
        return std::nullopt;
    std::ostringstream buffer;
    buffer << in.rdbuf();
    const std::string data = buffer.str();
    if (data.compare(0, kMagic.size(), kMagic) != 0 || data.size() < kMagic.size() + 1)
        return std::nullopt;
    NvrtcCacheEntry entry;
    std::size_t pos = kMagic.size();
    entry.ok = data[pos++] == '1';
    // A truncated or foreign file is a miss, never an error: the compile simply runs again.
    if (!getField(data, pos, entry.log) || !getField(data, pos, entry.ptx) || !getField(data, pos, entry.cubin))
        return std::nullopt;
    return entry;
}

bool NvrtcCache::store(const std::string &key, const NvrtcCacheEntry &entry) const
{
    static std::atomic<unsigned> counter{0};
    std::string data(kMagic);
    data += entry.ok ? '1' : '0';
    putField(data, entry.log);
    putField(data, entry.ptx);
    putField(data, entry.cubin);
    const fs::path target = pathFor(key);
    std::error_code ec;
    fs::create_directories(target.parent_path(), ec);
    const fs::path temp = target.string() + ".tmp." + std::to_string(getpid()) + "." + std::to_string(counter++);
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        if (!out || !out.write(data.data(), static_cast<std::streamsize>(data.size())))
            return false;
    }
    fs::rename(temp, target, ec);
    if (!ec)
        return true;
    fs::remove(temp, ec);
    return false;
}

} // namespace sieve::gpu
