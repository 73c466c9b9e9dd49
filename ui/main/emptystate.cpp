#include "ui/main/emptystate.h"

namespace sieve::ui {

EmptyState::EmptyState(const QString &objectName, QWidget *parent) : QLabel(parent)
{
    setObjectName(objectName);
    setWordWrap(true);
    setAlignment(Qt::AlignCenter);
    setTextFormat(Qt::RichText);
    setMargin(12);
    setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    // Wrapped text must not widen the pane (a still layout, issue 32).
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    hide();
    connect(this, &QLabel::linkActivated, this, [this](const QString &link) {
        if (link == QLatin1String("#clear"))
            Q_EMIT clearRequested();
    });
}

void EmptyState::say(const QString &html)
{
    if (text() != html)
        setText(html);
    setVisible(!html.isEmpty());
}

QString EmptyState::noMatch(const QString &what)
{
    return tr("%1 <a href=\"#clear\">Clear filter</a>").arg(what.toHtmlEscaped());
}

} // namespace sieve::ui
