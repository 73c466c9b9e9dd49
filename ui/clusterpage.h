#pragma once
// Dedup clusters: the clusters on the left, the members of the chosen one on the right; any two or
// three members open in the comparison.
#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;

namespace sieve::ui {

class ClusterMemberModel;
class ClusterModel;
class DbThread;

class ClusterPage final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ClusterPage)
public:
    ClusterPage(DbThread *reader, QWidget *parent = nullptr);
    void refresh();
    ClusterModel *clusterModel() const { return m_clusters; }
    ClusterMemberModel *memberModel() const { return m_members; }
    QTableView *clusterView() const { return m_clusterView; }
    QTableView *memberView() const { return m_memberView; }

Q_SIGNALS:
    void compareRequested(const QList<qint64> &sampleIds);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void loadMembers(qint64 clusterId);
    QList<qint64> selectedMembers() const;

    DbThread *m_reader;
    ClusterModel *m_clusters;
    ClusterMemberModel *m_members;
    QTableView *m_clusterView;
    QTableView *m_memberView;
    QPushButton *m_compare;
    QLabel *m_empty;
    quint64 m_job = 0;
};

} // namespace sieve::ui
