#pragma once
// Item delegate for the large list views. The style draws each cell's text through a fresh QTextLayout,
// shaping it with HarfBuzz on every repaint; in the profile of a busy window (rows paging in, verdicts
// arriving) that text shaping was most of the GUI thread's longest stretches. This delegate lets the style
// draw everything but the text, and draws the text from a cache of laid-out, elided QStaticText.
#include <QCache>
#include <QStaticText>
#include <QStyledItemDelegate>

class CachedTextDelegate : public QStyledItemDelegate
{
public:
    explicit CachedTextDelegate(QObject *parent = nullptr);
    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;

private:
    mutable QCache<QString, QStaticText> m_cache;
};
