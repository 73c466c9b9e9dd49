#pragma once
// `sieve --bench-startup CORPUS`: an instrumented run of the real window. Measures launch to first
// paint, first rows, count, sort and filter round trips (rows and count shown), the longest event-loop
// stall (a 1 ms timer probe) while a verification and an import run as child processes and the table
// pages, and resident memory; prints one JSON object and quits.
#include <QElapsedTimer>
#include <QJsonObject>
#include <QObject>
#include <QTemporaryDir>

#include <functional>

class QTimer;

namespace sieve::ui {

class MainWindow;

class StartupBench final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StartupBench)
public:
    // `sinceLaunchMs`: how long the process ran before main() started the clock.
    StartupBench(MainWindow &window, QString corpus, double sinceLaunchMs, QObject *parent = nullptr);
    void start();
    static double processAgeMs();
    static double residentMiB();

Q_SIGNALS:
    void done(const QJsonObject &result);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    double now() const { return m_launchOffset + m_clock.nsecsElapsed() / 1e6; }
    void step(const QString &name, std::function<void()> action);
    void afterFirstRows();
    void measureSort();
    void measureFilter();
    void measureBackground();
    static void writeImportFile(const QString &path, int samples);
    void finish();
    void startProbe();
    double stopProbe();

    MainWindow &m_window;
    QString m_corpus;
    QTemporaryDir m_scratch; // the file the background phase imports
    double m_launchOffset;
    QElapsedTimer m_clock;
    QJsonObject m_result;
    bool m_painted = false;
    QTimer *m_probe;
    QElapsedTimer m_probeClock;
    qint64 m_lastTick = 0;
    double m_maxGapMs = 0;
    double m_maxBusyMs = 0;
    double m_lastBusyMs = 0;
    double m_lastCpu = 0;
    static double threadCpuMs();
};

} // namespace sieve::ui
