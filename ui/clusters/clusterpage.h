#pragma once
// Dedup clusters: the clusters on the left, the members of the chosen one on the right; any two or
// three members open in the comparison; one action keeps the representative and rejects the rest as
// duplicates (one undoable step on the review page's history).
#include "ui/data/corpustypes.h"

#include <QPair>
#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;
class QVBoxLayout;

namespace sieve::ui {

class ClusterMemberModel;
class CodeEditor;
class ClusterModel;
class DbThread;

class ClusterPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ClusterPage)
public:
    ClusterPage(DbThread *reader, QWidget *parent = nullptr);
    void refresh();
    void reloadMembers(); // the current cluster's members again (their reviews changed)
    void keepRepresentative();
    ClusterModel *clusterModel() const { return m_clusters; }
    ClusterMemberModel *memberModel() const { return m_members; }
    QTableView *clusterView() const { return m_clusterView; }
    QTableView *memberView() const { return m_memberView; }
    // The member that "Keep" would keep, and its code as the reviewer sees it before deciding.
    qint64 shownRepresentative() const { return m_shown; }
    CodeEditor *representativeCode() const { return m_code; }

Q_SIGNALS:
    void compareRequested(const QList<qint64> &sampleIds);
    // Reject `others` (the members not rejected yet, with their reviews and statuses) in favour of
    // `representative`: the member the reviewer selected, else the cluster's own.
    void rejectDuplicatesRequested(qint64 representative, qint64 cluster, const QList<ClusterMember> &others);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void loadMembers(qint64 clusterId);
    QList<qint64> selectedMembers() const;
    qint64 chosenRepresentative() const;
    void updateKeepButton();
    void showRepresentative(qint64 sampleId);

    DbThread *m_reader;
    ClusterModel *m_clusters;
    ClusterMemberModel *m_members;
    QTableView *m_clusterView;
    QTableView *m_memberView;
    QPushButton *m_compare;
    QPushButton *m_keep;
    qint64 m_cluster = -1;
    QLabel *m_empty;
    QLabel *m_keeping;
    QVBoxLayout *m_codeLayout;
    CodeEditor *m_code = nullptr;
    qint64 m_shown = -1;
    quint64 m_codeJob = 0;
    quint64 m_job = 0;
    quint64 m_memberJob = 0;
};

} // namespace sieve::ui
