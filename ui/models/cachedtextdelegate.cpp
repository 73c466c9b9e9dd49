#include "ui/models/cachedtextdelegate.h"

#include <QApplication>
#include <QPainter>
#include <QStyle>

CachedTextDelegate::CachedTextDelegate(QObject *parent) : QStyledItemDelegate(parent), m_cache(20000) {}

void CachedTextDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QString text = opt.text;
    opt.text.clear();
    const QWidget *widget = opt.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget); // background, selection, icon, focus
    if (text.isEmpty())
        return;
    const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, widget) + 1;
    const QRect rect = style->subElementRect(QStyle::SE_ItemViewItemText, &opt, widget).adjusted(margin, 0, -margin, 0);
    if (rect.width() <= 0)
        return;
    // The key holds everything the laid-out text depends on: the text, the font and the width it is
    // elided to.
    const QString key = text + QChar(0) + opt.font.key() + QChar(0) + QString::number(rect.width());
    QStaticText *st = m_cache.object(key);
    if (!st) {
        const QFontMetrics fm(opt.font);
        st = new QStaticText(fm.elidedText(text, opt.textElideMode, rect.width()));
        st->setTextFormat(Qt::PlainText);
        st->prepare(QTransform(), opt.font);
        m_cache.insert(key, st);
    }
    const QSizeF size = st->size();
    qreal x = rect.left();
    if (opt.displayAlignment & Qt::AlignRight)
        x = rect.right() + 1 - size.width();
    else if (opt.displayAlignment & Qt::AlignHCenter)
        x = rect.left() + (rect.width() - size.width()) / 2;
    const qreal y = rect.top() + (rect.height() - size.height()) / 2;
    painter->save();
    painter->setFont(opt.font);
    const QPalette::ColorGroup group = opt.state & QStyle::State_Enabled ? QPalette::Normal : QPalette::Disabled;
    if (opt.state & QStyle::State_Selected)
        painter->setPen(opt.palette.color(group, QPalette::HighlightedText));
    else
        painter->setPen(opt.palette.color(group, QPalette::Text));
    if (const QVariant fg = index.data(Qt::ForegroundRole);
        fg.canConvert<QBrush>() && !(opt.state & QStyle::State_Selected))
        painter->setPen(qvariant_cast<QBrush>(fg).color());
    painter->setClipRect(rect);
    painter->drawStaticText(QPointF(x, y), *st);
    painter->restore();
}
