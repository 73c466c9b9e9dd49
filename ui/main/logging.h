#pragma once
// The workbench's logging category: QT_LOGGING_RULES="sieve.ui.debug=true" shows its debug output.
#include <QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcUi)
