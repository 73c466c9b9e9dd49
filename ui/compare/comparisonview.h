#pragma once
// Two or three samples of one task side by side (variants A/B/C), each in its own editor: aligned (filler
// rows keep matching lines on one row), changed lines marked against A with the changed characters boxed,
// previous/next change, scrolling kept in step; the task's reference one click away.
#include "ui/data/corpustypes.h"

#include <QWidget>

#include <vector>

class QLabel;
class QLineEdit;
class QSplitter;
class QToolButton;

namespace sieve::ui {

class CodeEditor;
class ElidedLabel;

class ComparisonView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ComparisonView)
public:
    static constexpr int kMaxVariants = 3;
    explicit ComparisonView(QWidget *parent = nullptr);

    // More than kMaxVariants: the first ones are shown and the view says how many were left out.
    void showSamples(const QList<SampleDetail> &samples, int selected = -1);
    void clear();
    int editorCount() const { return int(m_editors.size()); }
    CodeEditor *editor(int i) const { return m_editors.value(i); }
    CodeEditor *referenceEditor() const { return m_reference; }
    bool isReferenceVisible() const;
    void setReferenceVisible(bool visible);
    void setSyncScrolling(bool on) { m_sync = on; }
    // The verdict's log points into the sample it belongs to (variant 0 = A).
    void jumpToLine(int line, int variant = 0);
    // Changes (hunks against A), as rows of A; the current one is -1 before any navigation.
    const std::vector<int> &changeRows() const { return m_changeRows; }
    int currentChange() const { return m_change; }
    void nextChange(bool forward = true);
    QString summaryText() const;

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void syncFrom(CodeEditor *source, int firstLine);
    void findNext(bool forward);
    QWidget *column(const QString &title, const QString &subtitle, CodeEditor *editor);

    QSplitter *m_splitter;
    QToolButton *m_referenceButton;
    QToolButton *m_syncButton;
    QToolButton *m_prevButton;
    QToolButton *m_nextButton;
    QLineEdit *m_find;
    ElidedLabel *m_summary;
    QLabel *m_empty; // what to do while nothing is shown
    QList<CodeEditor *> m_editors;
    QList<QWidget *> m_columns;
    CodeEditor *m_reference = nullptr;
    QWidget *m_referenceColumn = nullptr;
    QString m_referenceCode;
    QList<SampleDetail> m_samples; // what is shown, for a re-render in another language
    std::vector<int> m_changeRows;
    int m_change = -1;
    QString m_diffText;
    int m_omitted = 0;
    bool m_sync = true;
    bool m_syncing = false;
};

} // namespace sieve::ui
