/*
 * pump_until.h — pumps a client until the test's completion flag is set. Include after defining
 * _POSIX_C_SOURCE (for nanosleep). The deadline (about 30 s) only keeps a broken build from hanging the run.
 */
#ifndef SVCPP_TESTS_PUMP_UNTIL_H
#define SVCPP_TESTS_PUMP_UNTIL_H

#include <time.h>

#include "check.h"

static inline void PumpUntil(Svcpp_Client *client, const int *done) {
    struct timespec tick = {0, 2000000};
    int i;
    for (i = 0; i < 15000 && !*done; i++) {
        CHECK_OK(Svcpp_Client_RunCallbacks(client));
        if (!*done) nanosleep(&tick, NULL);
    }
    CHECK(*done);
}

#endif
