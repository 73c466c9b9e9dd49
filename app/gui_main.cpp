#include "ui/main/language.h"
#include "ui/main/mainwindow.h"
#include "ui/main/settings.h"
#include "ui/main/startupbench.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QTimer>

#include <cstdio>

int main(int argc, char **argv)
{
    // Measured before anything else so that the startup benchmark can add the time before main().
    const double sinceLaunchMs = sieve::ui::StartupBench::processAgeMs();
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Sieve"));
    QApplication::setOrganizationName(QStringLiteral("Sieve"));
    QApplication::setApplicationVersion(QStringLiteral(SIEVE_VERSION));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/sieve/icons/sieve.png")));

    sieve::ui::Settings settings;
    sieve::ui::language::install(app, settings.language.value());

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QApplication::translate("main", "Workbench for curating SFT corpora of GPU kernels"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("corpus"), QApplication::translate("main", "Corpus file to open"));
    const QCommandLineOption bench(QStringLiteral("bench-startup"),
                                   QApplication::translate("main", "Measure startup, sorting, filtering and event-loop "
                                                                   "stalls on CORPUS, print JSON and quit"),
                                   QStringLiteral("CORPUS"));
    parser.addOption(bench);
    const QCommandLineOption smoke(QStringLiteral("smoke"),
                                   QApplication::translate("main", "Start, show the window, and quit once it has "
                                                                   "been painted (for package checks)"));
    parser.addOption(smoke);
    parser.process(app);

    sieve::ui::MainWindow window(settings);
    if (parser.isSet(bench)) {
        auto *probe = new sieve::ui::StartupBench(window, parser.value(bench), sinceLaunchMs, &window);
        QObject::connect(probe, &sieve::ui::StartupBench::done, &app, [](const QJsonObject &result) {
            std::fputs(QJsonDocument(result).toJson(QJsonDocument::Compact).constData(), stdout);
            std::fputc('\n', stdout);
            QApplication::quit();
        });
        probe->start();
    } else if (!parser.positionalArguments().isEmpty()) {
        window.openCorpus(parser.positionalArguments().constFirst());
    }
    window.show();
    if (parser.isSet(smoke)) {
        QTimer::singleShot(0, &app, [&window] {
            window.repaint();
            std::printf("sieve: window shown (%dx%d)\n", window.width(), window.height());
            QApplication::quit();
        });
    }
    return app.exec();
}
