#pragma once
// Help › Keyboard Shortcuts: every shortcut of the window, read from its actions when it opens (so the
// list cannot drift from the keys that work), grouped by the menu or pane that holds the action.
#include <QDialog>

class QLineEdit;
class QTreeWidget;

namespace sieve::ui {

class ShortcutsDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ShortcutsDialog)
public:
    explicit ShortcutsDialog(QWidget *window);
    QTreeWidget *view() const { return m_view; }
    // Reads the window's actions again (after a language switch, or new actions).
    void reload();

protected:
    void changeEvent(QEvent *event) override;

private:
    QWidget *m_window;
    QLineEdit *m_filter;
    QTreeWidget *m_view;
};

} // namespace sieve::ui
