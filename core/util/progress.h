#pragma once
// Progress for long commands: a redrawn bar on a terminal, plain lines (at most one per second)
// otherwise, so logs of CI and cluster jobs stay readable.
#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <string>

namespace sieve {

class Progress
{
public:
    // total == 0 means unknown (a counter without a bar).
    Progress(std::ostream &out, std::string label, std::uint64_t total, bool enabled = true);
    ~Progress();
    void update(std::uint64_t done, const std::string &detail = {});
    void setTotal(std::uint64_t total) { m_total = total; }
    void finish(const std::string &detail = {});

private:
    void draw(bool final, const std::string &detail);
    std::ostream &m_out;
    std::string m_label;
    std::uint64_t m_total;
    std::uint64_t m_done = 0;
    bool m_enabled;
    bool m_tty;
    bool m_finished = false;
    std::chrono::steady_clock::time_point m_start;
    std::chrono::steady_clock::time_point m_lastDraw;
};

} // namespace sieve
