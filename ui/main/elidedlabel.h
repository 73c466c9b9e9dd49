#pragma once
// A one-line label that never widens its layout: the text is elided in the middle (names differ at
// both ends: "kernelbench_l2_…_attempt3") and shown whole in the tooltip.
#include <QLabel>

namespace sieve::ui {

class ElidedLabel final : public QLabel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ElidedLabel)
public:
    explicit ElidedLabel(QWidget *parent = nullptr);
    // Sets the text and, when it does not fit, the tooltip that shows all of it.
    void setFullText(const QString &text);
    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;
};

} // namespace sieve::ui
