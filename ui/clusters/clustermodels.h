#pragma once
// Dedup clusters and the members of one cluster, as written by `sieve-cli dedup` (clusters,
// cluster_members). Both lists are short, so they are held in memory.
#include "ui/data/corpustypes.h"

#include <QAbstractTableModel>

namespace sieve::ui {

class ClusterModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ClusterModel)
public:
    enum Column { ColId, ColTask, ColSize, ColRepresentative, ColCount };
    enum Role { IdRole = Qt::UserRole + 1, SizeRole, RepresentativeRole };
    Q_ENUM(Role)
    explicit ClusterModel(QObject *parent = nullptr);
    void setClusters(QList<ClusterRow> rows);
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    QList<ClusterRow> m_rows;
};

class ClusterMemberModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ClusterMemberModel)
public:
    enum Column { ColSample, ColName, ColSimilarity, ColStatus, ColSpeedup, ColReview, ColCount };
    enum Role { IdRole = Qt::UserRole + 1, SimilarityRole, RepresentativeRole };
    Q_ENUM(Role)
    explicit ClusterMemberModel(QObject *parent = nullptr);
    void setMembers(QList<ClusterMember> rows);
    const QList<ClusterMember> &members() const { return m_rows; }
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    QList<ClusterMember> m_rows;
};

} // namespace sieve::ui
