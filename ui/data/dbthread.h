#pragma once
// A named thread that owns one connection to the corpus. The GUI posts work (a callable taking the
// database) and a completion (called back on the receiver's thread with the plain value the work
// returned). The holder quits and waits for the thread in its destructor, so no work outlives it.
#include "core/db/corpus.h"

#include <QObject>
#include <QPointer>
#include <QThread>

#include <memory>
#include <optional>
#include <type_traits>

namespace sieve::ui {

class DbWorker final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DbWorker)
public:
    DbWorker() = default;
    std::optional<Corpus> corpus; // only ever touched on the worker's thread
Q_SIGNALS:
    void failed(const QString &message);
};

class DbThread final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DbThread)
public:
    explicit DbThread(const QString &name, QObject *parent = nullptr);
    ~DbThread() override;

    // Replaces the connection; `done(error)` runs on the receiver's thread (empty error: success).
    void open(const QString &path, bool readOnly, QObject *receiver, std::function<void(QString)> done);
    void close();

    // `work` takes either the db::Database& (queries) or the whole Corpus& (e.g. corpusStats).
    template <typename Work, typename Done> void post(QObject *receiver, Work work, Done done)
    {
        using R = typename decltype(resultOf(work))::type;
        QPointer<QObject> guard(receiver);
        DbWorker *w = m_worker;
        QMetaObject::invokeMethod(
            m_worker,
            [w, guard, work = std::move(work), done = std::move(done)]() mutable {
                if (!w->corpus || !guard)
                    return;
                try {
                    if constexpr (std::is_void_v<R>) {
                        call(work, *w->corpus);
                        QMetaObject::invokeMethod(
                            guard.data(),
                            [guard, done = std::move(done)]() mutable {
                                if (guard)
                                    done();
                            },
                            Qt::QueuedConnection);
                    } else {
                        R result = call(work, *w->corpus);
                        QMetaObject::invokeMethod(
                            guard.data(),
                            [guard, done = std::move(done), result = std::move(result)]() mutable {
                                if (guard)
                                    done(std::move(result));
                            },
                            Qt::QueuedConnection);
                    }
                } catch (const std::exception &e) {
                    Q_EMIT w->failed(QString::fromStdString(e.what()));
                }
            },
            Qt::QueuedConnection);
    }

Q_SIGNALS:
    void failed(const QString &message);

private:
    template <typename T> struct Type
    {
        using type = T;
    };
    template <typename Work> static auto resultOf(Work &)
    {
        if constexpr (std::is_invocable_v<Work &, Corpus &>)
            return Type<std::invoke_result_t<Work &, Corpus &>>{};
        else
            return Type<std::invoke_result_t<Work &, db::Database &>>{};
    }
    template <typename Work> static decltype(auto) call(Work &work, Corpus &corpus)
    {
        if constexpr (std::is_invocable_v<Work &, Corpus &>)
            return work(corpus);
        else
            return work(corpus.db());
    }

    QThread m_thread;
    DbWorker *m_worker; // lives on m_thread, deleted there when the thread finishes
};

} // namespace sieve::ui
