#include "ui/main/logging.h"

Q_LOGGING_CATEGORY(lcUi, "sieve.ui", QtInfoMsg)
