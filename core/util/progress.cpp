#include "core/util/progress.h"

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <unistd.h>

namespace sieve {

Progress::Progress(std::ostream &out, std::string label, std::uint64_t total, bool enabled, std::optional<bool> tty)
    : m_out(out), m_label(std::move(label)), m_total(total), m_enabled(enabled),
      m_tty(tty.value_or(isatty(STDERR_FILENO) != 0)), m_start(std::chrono::steady_clock::now()), m_lastDraw(m_start)
{
}

Progress::~Progress()
{
    if (!m_finished && m_enabled && m_tty && m_done > 0)
        m_out << '\n';
}

void Progress::update(std::uint64_t done, const std::string &detail)
{
    m_done = done;
    if (!m_enabled)
        return;
    const auto now = std::chrono::steady_clock::now();
    const auto interval = m_tty ? std::chrono::milliseconds(100) : std::chrono::milliseconds(1000);
    if (now - m_lastDraw < interval)
        return;
    m_lastDraw = now;
    draw(false, detail);
}

void Progress::finish(const std::string &detail)
{
    if (m_finished)
        return;
    m_finished = true;
    if (m_enabled)
        draw(true, detail);
}

void Progress::draw(bool final, const std::string &detail)
{
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
    std::ostringstream line;
    line << m_label << ' ';
    if (m_total > 0) {
        const double frac = std::min(1.0, double(m_done) / double(m_total));
        if (m_tty) {
            const int width = 30;
            const int filled = int(frac * width);
            line << '[' << std::string(filled, '#') << std::string(width - filled, '.') << "] ";
        }
        line << m_done << '/' << m_total << " (" << int(frac * 100) << "%)";
    } else {
        line << m_done;
    }
    // A rate only once there is one to tell: something done in this run, over at least a second.
    const std::uint64_t doneHere = m_done - std::min(m_done, m_base);
    if (doneHere > 0 && secs >= 1.0) {
        const double rate = doneHere / secs;
        line << ", " << std::fixed << std::setprecision(rate < 10 ? 1 : 0) << rate << "/s";
    }
    if (!detail.empty())
        line << ", " << detail;
    if (m_tty)
        m_out << '\r' << line.str() << "\x1b[K" << (final ? "\n" : "") << std::flush;
    else
        m_out << line.str() << '\n' << std::flush;
}

} // namespace sieve
