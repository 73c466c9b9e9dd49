#include "ui/cli/importformat.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

namespace sieve::ui {

QString importFormatOf(const QString &path)
{
    const QFileInfo info(path);
    if (info.isDir() || info.suffix() == QLatin1String("py"))
        return QStringLiteral("kernelbench"); // a KernelBench tree or one problem file
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QByteArray line;
    while (line.trimmed().isEmpty() && !f.atEnd())
        line = f.readLine(4 << 20);
    const QJsonObject first = QJsonDocument::fromJson(line).object();
    if (first.contains(QLatin1String("CUDA_Code")) || first.contains(QLatin1String("Kernel_Name")))
        return QStringLiteral("cuda-archive");
    if (first.contains(QLatin1String("python_code")) || first.contains(QLatin1String("triton_code")))
        return QStringLiteral("kernelbook");
    if (first.contains(QLatin1String("problem_id")))
        return QStringLiteral("kernelbench");
    return QStringLiteral("sieve"); // task_id / reference_code / sample rows; the importer names what is wrong
}

} // namespace sieve::ui
