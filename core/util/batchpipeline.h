#pragma once
// An ordered batch pipeline: batches go from a reader (the calling thread) to persistent workers, which
// take them in any order, and from those to one writer thread, which gets them in submission order.
// Batch is any default-constructible type with the members `std::size_t seq` and
// `std::exception_ptr error` (both set by the pipeline).
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

namespace sieve {

// Batches go from the reader (the calling thread) to persistent workers (in any order) and from them
// to one writer thread (in batch order), through a fixed set of recycled batches: the reader waits
// when all are in flight, so memory stays bounded. The first error (a worker's or the writer's) stops
// everything and is rethrown by finish(); the destructor stops and joins the threads when the reader
// itself throws.
template <typename Batch> class BatchPipeline
{
public:
    using Work = std::function<void(Batch &, unsigned worker)>;
    using Write = std::function<void(Batch &)>;

    // `batches` recycled batches, each prepared once by `setup`.
    BatchPipeline(unsigned workers, std::size_t batches, const std::function<void(Batch &)> &setup, Work work,
                  Write write)
        : m_work(std::move(work)), m_write(std::move(write))
    {
        m_batches.resize(batches);
        for (Batch &b : m_batches) {
            setup(b);
            m_free.push_back(&b);
        }
        try {
            for (unsigned w = 0; w < workers; ++w)
                m_threads.emplace_back([this, w] { workerLoop(w); });
            m_threads.emplace_back([this] { writerLoop(); });
        } catch (...) {
            stop();
            throw;
        }
    }
    ~BatchPipeline() { stop(); }
    BatchPipeline(const BatchPipeline &) = delete;
    BatchPipeline &operator=(const BatchPipeline &) = delete;

    // A batch to fill, or nullptr once an error has stopped the pipeline.
    Batch *acquire()
    {
        std::unique_lock lock(m_mutex);
        m_freed.wait(lock, [&] { return m_error || !m_free.empty(); });
        if (m_error)
            return nullptr;
        Batch *b = m_free.back();
        m_free.pop_back();
        return b;
    }

    void submit(Batch *b)
    {
        {
            std::lock_guard lock(m_mutex);
            b->seq = m_submitted++;
            b->error = nullptr;
            m_todo.push_back(b);
        }
        m_queued.notify_one();
    }

    // After the last submit: waits until every batch is written; rethrows the first error.
    void finish()
    {
        {
            std::lock_guard lock(m_mutex);
            m_closed = true;
        }
        m_queued.notify_all();
        m_built.notify_all();
        join();
        if (m_error)
            std::rethrow_exception(m_error);
    }

private:
    void stop()
    {
        {
            std::lock_guard lock(m_mutex);
            m_closed = m_aborted = true;
        }
        m_queued.notify_all();
        m_built.notify_all();
        m_freed.notify_all();
        join();
    }
    void join()
    {
        for (std::thread &t : m_threads)
            if (t.joinable())
                t.join();
    }
    void fail(std::exception_ptr e)
    {
        {
            std::lock_guard lock(m_mutex);
            if (!m_error)
                m_error = e;
            m_aborted = true;
        }
        m_queued.notify_all();
        m_built.notify_all();
        m_freed.notify_all();
    }

    void workerLoop(unsigned w)
    {
        for (;;) {
            Batch *b = nullptr;
            {
                std::unique_lock lock(m_mutex);
                m_queued.wait(lock, [&] { return m_aborted || m_closed || !m_todo.empty(); });
                if (m_aborted || m_todo.empty())
                    return;
                b = m_todo.front();
                m_todo.pop_front();
            }
            try {
                m_work(*b, w);
            } catch (...) {
                b->error = std::current_exception();
            }
            {
                std::lock_guard lock(m_mutex);
                m_done[b->seq] = b;
            }
            m_built.notify_one();
        }
    }

    void writerLoop()
    {
        for (;;) {
            Batch *b = nullptr;
            {
                std::unique_lock lock(m_mutex);
                m_built.wait(lock, [&] {
                    return m_aborted || m_done.count(m_written) || (m_closed && m_written == m_submitted);
                });
                if (m_aborted || !m_done.count(m_written))
                    return;
                const auto it = m_done.find(m_written);
                b = it->second;
                m_done.erase(it);
            }
            std::exception_ptr error = b->error;
            if (!error) {
                try {
                    m_write(*b);
                } catch (...) {
                    error = std::current_exception();
                }
            }
            if (error) {
                fail(error);
                return;
            }
            {
                std::lock_guard lock(m_mutex);
                ++m_written;
                m_free.push_back(b);
            }
            m_freed.notify_one();
        }
    }

    Work m_work;
    Write m_write;
    std::vector<Batch> m_batches;
    std::vector<std::thread> m_threads;
    std::mutex m_mutex;
    std::condition_variable m_queued, m_built, m_freed;
    std::vector<Batch *> m_free;
    std::deque<Batch *> m_todo;
    std::map<std::size_t, Batch *> m_done;
    std::size_t m_submitted = 0, m_written = 0;
    bool m_closed = false, m_aborted = false;
    std::exception_ptr m_error;
};

} // namespace sieve
