// The GUI tests' main: offscreen unless told otherwise, the application object before GoogleTest.
#include <QApplication>

#include <gtest/gtest.h>

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("SieveTests"));
    QApplication::setApplicationName(QStringLiteral("sieve_gui_tests"));
    Q_INIT_RESOURCE(sieve);
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
