#include "core/import/importer.h"

#include "core/db/corpus.h"
#include "core/db/payload.h"
#include "core/db/unixtime.h"
#include "core/db/walcheckpointer.h"
#include "core/import/importformats.h"
#include "core/import/importlock.h"
#include "core/import/importwriter.h"
#include "core/import/jsonlreader.h"

#include <nlohmann/json.hpp>
#include <simdjson.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <ctime>
#include <deque>
#include <malloc.h>
#include <map>
#include <mutex>
#include <thread>

namespace sieve {

using namespace importing;

namespace {

// Below this many expected rows an import keeps the samples indices and updates them row by row.
constexpr std::uint64_t kMinDeferredRows = 10000;
// 8 KiB pages: the WAL rewinds after about 256 MiB.
constexpr int kMaxWalPages = 32768;

// A bounded hand-over between the parsing thread and the writer: memory stays constant however large
// the input, and the parser waits when the writer falls behind.
class BatchQueue
{
public:
    explicit BatchQueue(std::size_t capacity) : m_capacity(capacity) {}
    // False when the consumer has stopped.
    bool push(Batch batch)
    {
        std::unique_lock lock(m_mutex);
        m_notFull.wait(lock, [&] { return m_items.size() < m_capacity || m_stopped; });
        if (m_stopped)
            return false;
        m_items.push_back(std::move(batch));
        m_notEmpty.notify_one();
        return true;
    }
    std::optional<Batch> pop()
    {
        std::unique_lock lock(m_mutex);
        m_notEmpty.wait(lock, [&] { return !m_items.empty() || m_closed; });
        if (m_items.empty())
            return std::nullopt;
        Batch b = std::move(m_items.front());
        m_items.pop_front();
        m_notFull.notify_one();
        return b;
    }
    void close()
    {
        std::lock_guard lock(m_mutex);
        m_closed = true;
        m_notEmpty.notify_all();
    }
    void stop()
    {
        std::lock_guard lock(m_mutex);
        m_stopped = true;
        m_closed = true;
        m_items.clear();
        m_notFull.notify_all();
        m_notEmpty.notify_all();
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_notEmpty, m_notFull;
    std::deque<Batch> m_items;
    std::size_t m_capacity;
    bool m_closed = false;
    bool m_stopped = false;
};

// Reads the inputs and turns them into batches; runs on its own thread (or inline).
class Producer
{
public:
    Producer(ImportFormat format, const std::vector<std::string> &paths, const ImportOptions &options,
             std::function<bool(Batch)> emit)
        : m_format(format), m_paths(paths), m_options(options), m_emit(std::move(emit))
    {
    }

    void run()
    {
        for (std::size_t i = 0; i < m_paths.size() && !m_stop; ++i) {
            m_batch = Batch{};
            m_batch.fileIndex = i;
            readPath(i);
            flush();
        }
    }

private:
    void add(Item item)
    {
        m_batch.items.push_back(std::move(item));
        if (m_batch.items.size() >= m_options.batchRecords)
            flush();
    }
    void flush()
    {
        if (m_stop || m_batch.items.empty())
            return;
        m_batch.bytesDone = m_bytes;
        m_batch.seq = m_seq++;
        const std::size_t file = m_batch.fileIndex;
        if (!m_emit(std::move(m_batch)))
            m_stop = true;
        m_batch = Batch{};
        m_batch.fileIndex = file;
        m_batch.items.reserve(m_options.batchRecords);
    }
    void error(std::uint64_t line, std::string field, std::string message, std::string file = {})
    {
        add({line, RecordError{std::move(field), std::move(message), std::move(file)}});
    }

    void readPath(std::size_t index)
    {
        const std::string &path = m_paths[index];
        std::error_code ec;
        if (m_format == ImportFormat::KernelBench && std::filesystem::is_directory(path, ec)) {
            readKernelBenchFolder(path);
            return;
        }
        if (m_format == ImportFormat::KernelBench && std::filesystem::path(path).extension() == ".py") {
            std::vector<Item> items;
            parseKernelBenchFile(path, items);
            for (Item &it : items)
                add(std::move(it));
            const auto size = std::filesystem::file_size(path, ec);
            m_bytes += ec ? 0 : size;
            return;
        }
        readJsonl(path);
    }

    void readKernelBenchFolder(const std::string &root)
    {
        std::vector<Item> walkErrors;
        const std::vector<std::filesystem::path> files = kernelBenchFiles(root, &walkErrors);
        for (Item &it : walkErrors)
            add(std::move(it));
        if (files.empty()) {
            if (walkErrors.empty())
                error(0, "path", "no KernelBench problem files (levelN/ID_Name.py) in this folder");
            return;
        }
        std::error_code ec;
        for (const auto &f : files) {
            if (m_stop)
                return;
            std::vector<Item> items;
            parseKernelBenchFile(f, items);
            for (Item &it : items)
                add(std::move(it));
            const auto size = std::filesystem::file_size(f, ec);
            m_bytes += ec ? 0 : size;
        }
    }

    void readJsonl(const std::string &path)
    {
        std::unique_ptr<JsonlReader> reader;
        try {
            reader = std::make_unique<JsonlReader>(path);
        } catch (const std::exception &e) {
            error(0, "path", e.what());
            return;
        }
        const RowFormat &own = rowFormat(m_format);
        bool sawLine = false, sawObject = false;
        const std::uint64_t base = m_bytes;
        JsonlReader::Line line;
        try {
            while (!m_stop && reader->next(line)) {
                m_bytes = base + reader->bytesConsumed();
                if (line.error == JsonlReader::LineError::TooLong) {
                    error(line.number, "record", "line is longer than the 16 MiB limit");
                    sawLine = true;
                    continue;
                }
                const std::string_view text = line.text;
                const auto firstChar = text.find_first_not_of(" \t");
                if (firstChar == std::string_view::npos)
                    continue;
                if (line.error == JsonlReader::LineError::InvalidUtf8) {
                    error(line.number, keyBefore(text, line.badOffset),
                          "invalid UTF-8 at byte " + std::to_string(line.badOffset + 1) + " of the line");
                    sawLine = true;
                    continue;
                }
                simdjson::dom::element root;
                const auto err = m_parser.parse(text.data(), text.size(), false).get(root);
                if (err) {
                    if (!sawLine && text[firstChar] != '{') {
                        error(line.number, "record",
                              "not a JSON Lines file (line " + std::to_string(line.number) +
                                  " is not a JSON object); expected --format " +
                                  std::string(importFormatName(m_format)) + " JSONL");
                        return;
                    }
                    sawLine = true;
                    error(line.number, "record", std::string("malformed JSON: ") + simdjson::error_message(err));
                    continue;
                }
                sawLine = true;
                simdjson::dom::object obj;
                if (root.get(obj)) {
                    error(line.number, "record", std::string("expected a JSON object, got ") + typeName(root));
                    continue;
                }
                Row row(obj);
                if (!sawObject) {
                    sawObject = true;
                    if (!own.looksLike(row)) {
                        for (const RowFormat &other : rowFormats()) {
                            if (other.format != m_format && other.looksLike(row)) {
                                error(line.number, "format",
                                      "this looks like a '" + std::string(importFormatName(other.format)) +
                                          "' file, not '" + std::string(importFormatName(m_format)) +
                                          "' (use --format " + std::string(importFormatName(other.format)) +
                                          "); file skipped");
                                return;
                            }
                        }
                    }
                }
                m_items.clear();
                own.parse(row, m_items, line.number);
                for (Item &it : m_items)
                    add(std::move(it));
            }
        } catch (const std::exception &e) {
            error(line.number, "path", e.what());
        }
        m_bytes = base + reader->fileSize();
    }

    ImportFormat m_format;
    const std::vector<std::string> &m_paths;
    const ImportOptions &m_options;
    std::function<bool(Batch)> m_emit;
    simdjson::dom::parser m_parser{JsonlReader::kMaxLine + 1};
    std::vector<Item> m_items;
    Batch m_batch;
    std::uint64_t m_bytes = 0;
    std::uint64_t m_seq = 0;
    bool m_stop = false;
};

std::uint64_t totalBytes(ImportFormat format, const std::vector<std::string> &paths)
{
    std::uint64_t total = 0;
    for (const auto &p : paths) {
        std::error_code ec;
        if (format == ImportFormat::KernelBench && std::filesystem::is_directory(p, ec)) {
            for (const auto &f : kernelBenchFiles(p, nullptr)) {
                const auto n = std::filesystem::file_size(f, ec);
                total += ec ? 0 : n;
            }
            continue;
        }
        const auto n = std::filesystem::file_size(p, ec);
        if (!ec)
            total += n;
    }
    return total;
}

// Batches are allocated on the parsing and packing threads and freed on the writer. By default glibc
// hands such memory back to the kernel after each batch and faults it in again for the next one, which
// cost about a fifth of an import's CPU time in the kernel. An import's working set is bounded (a few
// batches), so keep it.
void keepFreedMemory()
{
    static const bool once = [] {
        mallopt(M_TRIM_THRESHOLD, 512 << 20);
        mallopt(M_MMAP_THRESHOLD, 64 << 20);
        return true;
    }();
    (void)once;
}

// A large import into a corpus without a payload dictionary trains one on its first samples
// (core/db/payload.h). Packing workers use it from the moment it exists; the writer stores it in the
// transaction of the first batch written after that, before any blob made with it.
class DictionaryTrainer
{
public:
    DictionaryTrainer(std::uint32_t existing, bool train) : m_id(existing), m_train(train && existing == 0) {}

    std::uint32_t current() const { return m_id.load(std::memory_order_acquire); }

    // On a packing worker, before it packs `batch`: collects its texts, and trains once enough are in.
    void observe(const Batch &batch)
    {
        if (!m_train || m_done.load(std::memory_order_acquire))
            return;
        std::vector<std::string> texts;
        {
            std::lock_guard lock(m_mutex);
            if (m_done.load(std::memory_order_relaxed))
                return;
            for (const Item &item : batch.items)
                if (const auto *s = std::get_if<SampleRecord>(&item.value); s && m_texts.size() < kTrainSamples) {
                    const std::optional<std::string> &text = s->code ? s->code : s->response;
                    if (text && !text->empty()) {
                        m_bytes += text->size();
                        m_texts.push_back(*text);
                    }
                }
            if (m_texts.size() < kTrainSamples && m_bytes < kTrainBytes)
                return;
            m_done.store(true, std::memory_order_release);
            texts = std::move(m_texts);
        }
        const std::vector<std::string_view> views(texts.begin(), texts.end());
        std::string dict = payload::trainDictionary(views);
        if (dict.empty())
            return; // too little to learn from: the import goes on without one
        payload::registerDictionary(dict);
        {
            std::lock_guard lock(m_mutex);
            m_unstored = std::move(dict);
            m_trainedOn = static_cast<std::int64_t>(texts.size());
        }
        m_id.store(payload::dictionaryId(*m_unstored), std::memory_order_release);
    }

    // On the writer, before each batch.
    void storeIfNew(ImportWriter &writer)
    {
        if (!m_train)
            return;
        std::lock_guard lock(m_mutex);
        if (m_unstored) {
            writer.storeDictionary(*m_unstored, m_trainedOn);
            m_unstored.reset();
        }
    }

private:
    static constexpr std::size_t kTrainSamples = 1000;
    static constexpr std::size_t kTrainBytes = 8u << 20;
    std::atomic<std::uint32_t> m_id;
    const bool m_train;
    std::atomic<bool> m_done{false};
    std::mutex m_mutex;
    std::vector<std::string> m_texts;
    std::size_t m_bytes = 0;
    std::optional<std::string> m_unstored;
    std::int64_t m_trainedOn = 0;
};

double threadCpuSeconds()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

} // namespace

ImportReport importFiles(Corpus &corpus, ImportFormat format, const std::vector<std::string> &paths,
                         const ImportOptions &options)
{
    const auto start = std::chrono::steady_clock::now();
    ImportReport report;
    report.format = std::string(importFormatName(format));
    for (const auto &p : paths)
        report.files.push_back(ImportFileReport{p});
    // Held to the end, the index rebuild included (see core/import/importlock.h).
    const ImportLock importLock(corpus.path(), options.onWaitForLock, options.cancelled);
    corpus.tuneForBulkWrites();
    // The UNIQUE key and name indices of a million samples outgrow the default cache; inserting into
    // them then re-reads pages through the kernel.
    corpus.db().exec("PRAGMA cache_size=-131072");
    keepFreedMemory();
    {
        db::Transaction tx(corpus.db());
        corpus.db()
            .prepare("INSERT INTO imports(started_at, format, paths_json) VALUES(?1, ?2, ?3)")
            .bind(1, unixNow())
            .bind(2, report.format)
            .bind(3, nlohmann::json(paths).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace))
            .run();
        report.importId = corpus.db().lastInsertId();
        tx.commit();
    }
    const std::uint64_t total = totalBytes(format, paths);
    // Rows the input probably holds (sample rows are seldom under 2 KB of JSON) against rows already
    // there: a large import into a small table builds the reviewer's indices once at the end instead.
    const std::uint64_t expectedRows = total / 2048;
    const auto existingRows =
        static_cast<std::uint64_t>(corpus.db().queryInt("SELECT max(id) FROM samples").value_or(0));
    const bool large = expectedRows >= kMinDeferredRows;
    DictionaryTrainer dictionary(corpus.payloadDictionary(), large);
    // Names and keys are checked in memory while their indices are gone, for at most
    // maxRememberedSamples rows, the corpus's own included.
    bool keyed = false;
    if (options.deferIndices && large && expectedRows >= existingRows) {
        keyed = existingRows <= options.maxRememberedSamples / 2;
        db::Transaction tx(corpus.db());
        schema::dropSampleIndices(corpus.db(), keyed);
        tx.commit();
        report.indicesRebuilt = true;
    }
    // Puts the indices back however the import ends (an exception included; a kill -9 leaves that to
    // the next Corpus::open).
    struct Rebuild
    {
        Corpus &corpus;
        bool armed;
        ~Rebuild()
        {
            if (armed) {
                try {
                    schema::ensureSampleIndices(corpus.db());
                } catch (...) {
                }
            }
        }
    } rebuild{corpus, report.indicesRebuilt};
    ImportWriter writer(corpus, report.importId, report, options);
    if (keyed)
        writer.checkSamplesInMemory();
    // Checkpoints (and their fsyncs) on their own thread while the writer writes; 256 MiB of WAL at most.
    std::optional<db::WalCheckpointer> checkpointer(std::in_place, corpus.db(), kMaxWalPages,
                                                    Corpus::kBulkAutoCheckpoint);
    auto consume = [&](Batch &batch) {
        dictionary.storeIfNew(writer);
        writer.write(batch);
        if (options.onProgress)
            options.onProgress(batch.bytesDone, total);
    };
    auto cancelled = [&] { return options.cancelled && options.cancelled(); };

    const double writerCpuStart = threadCpuSeconds();
    if (options.pipeline) {
        // reader/parser -> [parsed] -> packing workers -> [packed] -> this thread, the one writer.
        // Batches are written in reading order (seq) whichever worker finished them first.
        const unsigned workers =
            options.workers ? options.workers : std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
        // Written batches are freed on a thread of their own: freeing memory that other threads
        // allocated takes glibc's arena locks, and the writer is the import's critical path.
        BatchQueue parsed(2), packed(2), written(2);
        std::mutex errorMutex;
        std::exception_ptr failure;
        auto fail = [&] {
            std::lock_guard lock(errorMutex);
            if (!failure)
                failure = std::current_exception();
            parsed.stop();
            packed.stop();
            written.stop();
        };
        std::atomic<unsigned> running{workers};
        std::vector<std::thread> threads;
        threads.emplace_back([&] {
            try {
                Producer(format, paths, options, [&](Batch b) { return parsed.push(std::move(b)); }).run();
            } catch (...) {
                fail();
            }
            report.parseCpuSeconds = threadCpuSeconds();
            parsed.close();
        });
        threads.emplace_back([&] {
            while (written.pop()) {
            }
        });
        std::atomic<std::uint64_t> packCpuNanos{0};
        for (unsigned i = 0; i < workers; ++i) {
            threads.emplace_back([&] {
                try {
                    while (auto batch = parsed.pop()) {
                        dictionary.observe(*batch);
                        packPayloads(*batch, dictionary.current(), options.codec);
                        if (!packed.push(std::move(*batch)))
                            break;
                    }
                } catch (...) {
                    fail();
                }
                packCpuNanos += static_cast<std::uint64_t>(threadCpuSeconds() * 1e9);
                if (--running == 0)
                    packed.close();
            });
        }
        std::map<std::uint64_t, Batch> early;
        std::uint64_t next = 0;
        try {
            while (!report.interrupted) {
                auto batch = packed.pop();
                if (!batch)
                    break;
                early.emplace(batch->seq, std::move(*batch));
                for (auto it = early.find(next); it != early.end(); it = early.find(next)) {
                    consume(it->second);
                    written.push(std::move(it->second));
                    early.erase(it);
                    ++next;
                    if (cancelled()) {
                        report.interrupted = true;
                        break;
                    }
                }
            }
        } catch (...) {
            fail();
        }
        parsed.stop();
        packed.stop();
        written.close();
        for (auto &t : threads)
            t.join();
        report.packCpuSeconds = double(packCpuNanos.load()) / 1e9;
        if (failure)
            std::rethrow_exception(failure);
    } else {
        Producer(format, paths, options, [&](Batch b) {
            dictionary.observe(b);
            packPayloads(b, dictionary.current(), options.codec);
            consume(b);
            if (cancelled()) {
                report.interrupted = true;
                return false;
            }
            return true;
        }).run();
    }
    writer.commit();
    report.writeCpuSeconds = threadCpuSeconds() - writerCpuStart;
    if (rebuild.armed) {
        const double indexStart = threadCpuSeconds();
        const auto indexWall = std::chrono::steady_clock::now();
        schema::ensureSampleIndices(corpus.db());
        rebuild.armed = false;
        report.indexCpuSeconds = threadCpuSeconds() - indexStart;
        report.indexSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - indexWall).count();
    }
    // Only now: the checkpoints of the indices' pages ran on the other core while the next index was built.
    checkpointer.reset();

    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    db::Transaction tx(corpus.db());
    corpus.db()
        .prepare("UPDATE imports SET finished_at = ?1, report_json = ?2 WHERE id = ?3")
        .bind(1, unixNow())
        .bind(2, report.toJson().dump(-1, ' ', false, nlohmann::json::error_handler_t::replace))
        .bind(3, report.importId)
        .run();
    tx.commit();
    return report;
}

} // namespace sieve
