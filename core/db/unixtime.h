#pragma once
// The corpus stores times as seconds since the Unix epoch (created_at, decided_at, started_at...).
#include <chrono>
#include <cstdint>

namespace sieve {

inline std::int64_t unixNow()
{
    return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

} // namespace sieve
