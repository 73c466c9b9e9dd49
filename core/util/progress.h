#pragma once
// Progress for long commands: a redrawn bar on a terminal, plain lines (at most one per second)
// otherwise, so logs of CI and cluster jobs stay readable.
#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>

namespace sieve {

class Progress
{
public:
    // total == 0 means unknown (a counter without a bar). tty: whether `out` is a terminal (default:
    // whether stderr is one).
    Progress(std::ostream &out, std::string label, std::uint64_t total, bool enabled = true,
             std::optional<bool> tty = std::nullopt);
    ~Progress();
    void update(std::uint64_t done, const std::string &detail = {});
    void setTotal(std::uint64_t total) { m_total = total; }
    // `done` were done before this process started (a resumed run): they count in done/total, not in the rate.
    void resumedAt(std::uint64_t done) { m_done = m_base = done; }
    void finish(const std::string &detail = {});

private:
    void draw(bool final, const std::string &detail);
    std::ostream &m_out;
    std::string m_label;
    std::uint64_t m_total;
    std::uint64_t m_done = 0;
    std::uint64_t m_base = 0; // done before this process started (a resumed run's earlier work)
    bool m_enabled;
    bool m_tty;
    bool m_finished = false;
    std::chrono::steady_clock::time_point m_start;
    std::chrono::steady_clock::time_point m_lastDraw;
};

} // namespace sieve
