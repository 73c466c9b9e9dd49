#include "ui/clusters/clustermodels.h"

#include "ui/main/language.h"
#include "ui/main/statusstyle.h"

#include <QFont>

#include <cmath>

namespace sieve::ui {

ClusterModel::ClusterModel(QObject *parent) : QAbstractTableModel(parent)
{
    language::watchModel(this); // headers and composed cells follow a language switch
}

void ClusterModel::setClusters(QList<ClusterRow> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

int ClusterModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}
int ClusterModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColCount;
}

QVariant ClusterModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ClusterRow &r = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case ColId:
            return r.id;
        case ColTask:
            return r.taskName.isEmpty() ? tr("(all tasks)") : r.taskName;
        case ColSize:
            return r.size;
        case ColRepresentative:
            return r.representative >= 0 ? QVariant(r.representative) : QVariant();
        }
        return {};
    case IdRole:
        return r.id;
    case SizeRole:
        return r.size;
    case RepresentativeRole:
        return r.representative;
    }
    return {};
}

QVariant ClusterModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case ColId:
        return tr("Cluster");
    case ColTask:
        return tr("Task");
    case ColSize:
        return tr("Members");
    case ColRepresentative:
        return tr("Representative");
    }
    return {};
}

ClusterMemberModel::ClusterMemberModel(QObject *parent) : QAbstractTableModel(parent)
{
    language::watchModel(this); // headers and composed cells follow a language switch
}

void ClusterMemberModel::setMembers(QList<ClusterMember> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

int ClusterMemberModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}
int ClusterMemberModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColCount;
}

QVariant ClusterMemberModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ClusterMember &m = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case ColSample:
            return m.sampleId;
        case ColName:
            return m.representative ? tr("%1 (representative)").arg(m.name) : m.name;
        case ColSimilarity:
            return std::isnan(m.similarity) ? QVariant() : QVariant(QString::number(m.similarity, 'f', 3));
        case ColStatus:
            return m.status;
        case ColSpeedup:
            return std::isnan(m.speedup) ? QVariant() : QVariant(tr("%1×").arg(m.speedup, 0, 'f', 2));
        case ColReview:
            return reviewText(m.review);
        }
        return {};
    case Qt::FontRole:
        if (m.representative) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::ForegroundRole:
        if (index.column() == ColStatus)
            return statusColor(m.status);
        return {};
    case IdRole:
        return m.sampleId;
    case SimilarityRole:
        return m.similarity;
    case RepresentativeRole:
        return m.representative;
    }
    return {};
}

QVariant ClusterMemberModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case ColSample:
        return tr("ID");
    case ColName:
        return tr("Sample");
    case ColSimilarity:
        return tr("Similarity");
    case ColStatus:
        return tr("Status");
    case ColSpeedup:
        return tr("Speedup");
    case ColReview:
        return tr("Review");
    }
    return {};
}

} // namespace sieve::ui
