#include "mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Sieve"));
    QApplication::setOrganizationName(QStringLiteral("Sieve"));
    QApplication::setApplicationVersion(QStringLiteral(SIEVE_VERSION));
    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate("main", "Workbench for curating SFT corpora of GPU kernels"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("corpus"), QApplication::translate("main", "Corpus file to open"));
    parser.process(app);
    sieve::ui::MainWindow w;
    if (!parser.positionalArguments().isEmpty())
        w.openCorpus(parser.positionalArguments().constFirst());
    w.show();
    return app.exec();
}
