#include "ui/main/elidedlabel.h"

#include <QPainter>
#include <QStyle>

namespace sieve::ui {

ElidedLabel::ElidedLabel(QWidget *parent) : QLabel(parent)
{
    setTextFormat(Qt::PlainText);
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
}

void ElidedLabel::setFullText(const QString &text)
{
    setText(text);
    setToolTip(text);
}

QSize ElidedLabel::minimumSizeHint() const
{
    const QFontMetrics fm = fontMetrics();
    const QMargins m = contentsMargins();
    return {fm.averageCharWidth() * 6 + m.left() + m.right(), fm.height() + m.top() + m.bottom()};
}

QSize ElidedLabel::sizeHint() const
{
    const QFontMetrics fm = fontMetrics();
    const QMargins m = contentsMargins();
    // At most a short line's worth: the hint of a 300-character name would still push the splitter.
    return {std::min(fm.horizontalAdvance(text()), fm.averageCharWidth() * 40) + m.left() + m.right(),
            fm.height() + m.top() + m.bottom()};
}

void ElidedLabel::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    const QRect r = contentsRect();
    const QString shown = fontMetrics().elidedText(text(), Qt::ElideMiddle, r.width());
    style()->drawItemText(&painter, r, int(alignment()), palette(), isEnabled(), shown, foregroundRole());
}

} // namespace sieve::ui
