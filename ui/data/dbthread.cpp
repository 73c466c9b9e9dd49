#include "ui/data/dbthread.h"

#include "core/store/corpusbrowse.h"

#include <algorithm>
#include <cerrno>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace sieve::ui {

namespace {
constexpr int kWorkerNice = 5; // added to the niceness the thread inherited

void lowerThisThread()
{
    const auto tid = id_t(syscall(SYS_gettid));
    errno = 0;
    const int current = getpriority(PRIO_PROCESS, tid);
    if (errno == 0)
        setpriority(PRIO_PROCESS, tid, std::min(current + kWorkerNice, 19));
}
} // namespace

DbThread::DbThread(const QString &name, QObject *parent) : QObject(parent), m_worker(new DbWorker)
{
    m_thread.setObjectName(name);
    m_worker->moveToThread(&m_thread);
    // Below the GUI thread: on a busy machine the scheduler should take time from our own scans and pages
    // before it takes it from the event loop. Linux keeps a nice value per thread.
    connect(&m_thread, &QThread::started, m_worker, &lowerThisThread, Qt::DirectConnection);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &DbWorker::failed, this, &DbThread::failed, Qt::QueuedConnection);
    m_thread.start();
}

DbThread::~DbThread()
{
    close();
    m_thread.quit();
    m_thread.wait();
}

void DbThread::open(const QString &path, bool readOnly, QObject *receiver, std::function<void(QString)> done)
{
    QPointer<QObject> guard(receiver);
    DbWorker *w = m_worker;
    QMetaObject::invokeMethod(
        m_worker,
        [w, path, readOnly, guard, done = std::move(done)] {
            QString error;
            try {
                w->corpus.reset();
                w->corpus.emplace(Corpus::open(path.toStdString(), readOnly));
                // Page and count queries over a large corpus profit from a bigger page cache.
                store::browse::useBrowsingCache(w->corpus->db());
            } catch (const std::exception &e) {
                w->corpus.reset();
                error = QString::fromStdString(e.what());
            }
            if (guard)
                QMetaObject::invokeMethod(
                    guard.data(),
                    [guard, done, error] {
                        if (guard)
                            done(error);
                    },
                    Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
}

void DbThread::close()
{
    DbWorker *w = m_worker;
    QMetaObject::invokeMethod(
        m_worker, [w] { w->corpus.reset(); }, Qt::QueuedConnection);
}

} // namespace sieve::ui
