#pragma once
// What a view says when it has nothing to show: why, and what to do. A "clear filter" link in the text
// (href "#clear") asks the view to drop its filters.
#include <QLabel>

namespace sieve::ui {

class EmptyState final : public QLabel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(EmptyState)
public:
    explicit EmptyState(const QString &objectName, QWidget *parent = nullptr);
    // Shows `html` (empty: hides the label).
    void say(const QString &html);
    // "No … matches the filter. Clear filter", with the link.
    static QString noMatch(const QString &what);

Q_SIGNALS:
    void clearRequested();
};

} // namespace sieve::ui
