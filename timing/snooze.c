/* snooze.c — cache leakage power states (snooze.h): per unit, its state,
 * since when, when a waking unit is ON, and when its last use ends. */
#include "timing/snooze.h"

#include <stdlib.h>

typedef struct unit {
    uint8_t state;      /* tm_snooze_state; ON also while waking */
    uint64_t since;     /* the state's start */
    uint64_t ready;     /* ON: the cycle the wake-up is over */
    uint64_t busy_end;  /* ON: one past its last use (the wake's end if not used yet) */
} unit;

struct tm_snooze {
    uint32_t n, wake;
    unit *u;
    uint64_t cycles[TM_SNOOZE_STATES];
};

tm_snooze *tm_snooze_new(uint32_t n, uint32_t wake)
{
    tm_snooze *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->n = n ? n : 1;
    s->wake = wake;
    s->u = calloc(s->n, sizeof *s->u);
    if (!s->u) {
        free(s);
        return NULL;
    }
    for (uint32_t i = 0; i < s->n; i++)
        s->u[i].state = TM_SNOOZE_OFF;
    return s;
}

void tm_snooze_free(tm_snooze *s)
{
    if (s)
        free(s->u);
    free(s);
}

/* Count u's cycles in its state from its start to t, and start the state
 * again at t. */
static void account(tm_snooze *s, unit *u, uint64_t t)
{
    if (t > u->since)
        s->cycles[u->state] += t - u->since;
    u->since = t > u->since ? t : u->since;
}

/* Bring u up to cycle now: an ON unit whose last use ended more than
 * `wake` cycles before went to Sleep when it ended. */
static void settle(tm_snooze *s, unit *u, uint64_t now)
{
    if (u->state == TM_SNOOZE_ON && now > u->busy_end + s->wake) {
        account(s, u, u->busy_end);
        u->state = TM_SNOOZE_SLEEP;
    }
}

void tm_snooze_wake(tm_snooze *s, uint32_t i, uint64_t now)
{
    unit *u = &s->u[i];
    settle(s, u, now);
    if (u->state == TM_SNOOZE_ON) {
        if (u->busy_end < now) /* kept ON over a gap too short to sleep in */
            u->busy_end = now;
        return;
    }
    account(s, u, now);
    u->state = TM_SNOOZE_ON;
    u->ready = now + s->wake;
    u->busy_end = u->ready;
}

bool tm_snooze_ready(tm_snooze *s, uint32_t i, uint64_t now)
{
    unit *u = &s->u[i];
    settle(s, u, now);
    if (u->state != TM_SNOOZE_ON)
        tm_snooze_wake(s, i, now);
    return now >= u->ready;
}

void tm_snooze_use(tm_snooze *s, uint32_t i, uint64_t now)
{
    unit *u = &s->u[i];
    settle(s, u, now);
    if (u->state != TM_SNOOZE_ON) {
        account(s, u, now);
        u->state = TM_SNOOZE_ON;
        u->ready = now;
    }
    if (u->busy_end < now + 1)
        u->busy_end = now + 1;
}

void tm_snooze_fill(tm_snooze *s, uint32_t i, uint64_t now)
{
    unit *u = &s->u[i];
    settle(s, u, now);
    if (u->state != TM_SNOOZE_ON) {
        uint64_t woke = now >= s->wake ? now - s->wake : 0;
        account(s, u, woke > u->since ? woke : u->since);
        u->state = TM_SNOOZE_ON;
        u->ready = now;
    }
    if (u->busy_end < now + 1)
        u->busy_end = now + 1;
}

void tm_snooze_all_off(tm_snooze *s, uint64_t now)
{
    for (uint32_t i = 0; i < s->n; i++) {
        unit *u = &s->u[i];
        settle(s, u, now);
        account(s, u, now);
        u->state = TM_SNOOZE_OFF;
    }
}

void tm_snooze_cycles(tm_snooze *s, uint64_t now, uint64_t out[TM_SNOOZE_STATES])
{
    for (uint32_t i = 0; i < s->n; i++) {
        settle(s, &s->u[i], now);
        account(s, &s->u[i], now);
    }
    for (int k = 0; k < TM_SNOOZE_STATES; k++)
        out[k] = s->cycles[k];
}

double tm_snooze_leakage(const uint64_t c[TM_SNOOZE_STATES])
{
    double total = (double)c[TM_SNOOZE_ON] + (double)c[TM_SNOOZE_SLEEP] + (double)c[TM_SNOOZE_OFF];
    if (total <= 0)
        return 0;
    return ((double)c[TM_SNOOZE_ON] + TM_SNOOZE_SLEEP_LEAKAGE * (double)c[TM_SNOOZE_SLEEP] +
            TM_SNOOZE_OFF_LEAKAGE * (double)c[TM_SNOOZE_OFF]) / total;
}

const char *tm_snooze_state_name(tm_snooze_state st)
{
    static const char *const names[] = {"on", "sleep", "off"};
    return st < TM_SNOOZE_STATES ? names[st] : "?";
}
