/* slumber.c — register-file leakage power states (slumber.h): per
 * register, the state it is in since t0, when its counter starts its
 * wake-up, and when a wake-up under way ends. */
#include "timing/slumber.h"

#include <stdlib.h>

typedef struct reg {
    uint8_t state;    /* tm_rf_state; ON also while waking */
    uint64_t t0;      /* the state's start (counted up to here) */
    uint64_t wake_at; /* resting: the counter starts the wake-up here (UINT64_MAX: only an access wakes it) */
    uint64_t ready;   /* ON: the wake-up's end */
} reg;

struct tm_slumber {
    uint32_t n;
    reg *r;
    uint64_t cycles[TM_RF_STATES];
};

tm_slumber *tm_slumber_new(uint32_t n)
{
    tm_slumber *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->n = n ? n : 1;
    s->r = calloc(s->n, sizeof *s->r);
    if (!s->r) {
        free(s);
        return NULL;
    }
    for (uint32_t i = 0; i < s->n; i++)
        s->r[i] = (reg){.state = TM_RF_OFF, .wake_at = UINT64_MAX};
    return s;
}

void tm_slumber_free(tm_slumber *s)
{
    if (s)
        free(s->r);
    free(s);
}

uint32_t tm_slumber_wake(tm_rf_state st)
{
    static const uint32_t wake[TM_RF_STATES] = {0, TM_SLUMBER_WAKE_SS, TM_SLUMBER_WAKE_DS, TM_SLUMBER_WAKE_OFF};
    return st < TM_RF_STATES ? wake[st] : 0;
}

tm_rf_state tm_slumber_choose(uint64_t t, bool next_write)
{
    if (next_write && t >= TM_SLUMBER_WAKE_OFF)
        return TM_RF_OFF;
    if (t >= TM_SLUMBER_WAKE_DS)
        return TM_RF_DS;
    if (t >= TM_SLUMBER_WAKE_SS)
        return TM_RF_SS;
    return TM_RF_ON;
}

/* Count x's cycles in its state up to t. */
static void account(tm_slumber *s, reg *x, uint64_t t)
{
    if (t > x->t0) {
        s->cycles[x->state] += t - x->t0;
        x->t0 = t;
    }
}

/* Bring x up to cycle now: a counter that ran out started the wake-up. */
static void settle(tm_slumber *s, reg *x, uint64_t now)
{
    if (x->state != TM_RF_ON && now >= x->wake_at) {
        account(s, x, x->wake_at);
        x->ready = x->wake_at + tm_slumber_wake((tm_rf_state)x->state);
        x->state = TM_RF_ON;
        x->wake_at = UINT64_MAX;
    }
}

uint32_t tm_slumber_access(tm_slumber *s, uint32_t i, uint64_t now)
{
    reg *x = &s->r[i];
    settle(s, x, now);
    if (x->state != TM_RF_ON) { /* earlier than predicted, or parked: wake now */
        account(s, x, now);
        x->ready = now + tm_slumber_wake((tm_rf_state)x->state);
        x->state = TM_RF_ON;
        x->wake_at = UINT64_MAX;
    }
    return x->ready > now ? (uint32_t)(x->ready - now) : 0;
}

void tm_slumber_rest(tm_slumber *s, uint32_t i, uint64_t now, uint64_t t, bool next_write)
{
    tm_rf_state st = tm_slumber_choose(t, next_write);
    reg *x = &s->r[i];
    settle(s, x, now);
    if (x->state == TM_RF_OFF)
        st = TM_RF_OFF; /* leaving OFF takes OFF's wake-up, whatever rest follows */
    else if (st == TM_RF_ON)
        return;
    account(s, x, now);
    uint64_t counter = t < TM_SLUMBER_COUNTER_MAX ? t : TM_SLUMBER_COUNTER_MAX, wake = tm_slumber_wake(st);
    x->state = (uint8_t)st;
    x->wake_at = counter > wake ? now + counter - wake : now; /* (too short to hide it: it starts now) */
}

void tm_slumber_park(tm_slumber *s, uint32_t i, uint64_t now, tm_rf_state st)
{
    reg *x = &s->r[i];
    settle(s, x, now);
    account(s, x, now);
    x->state = (uint8_t)st;
    x->wake_at = UINT64_MAX;
}

tm_rf_state tm_slumber_state(tm_slumber *s, uint32_t i, uint64_t now)
{
    settle(s, &s->r[i], now);
    return (tm_rf_state)s->r[i].state;
}

void tm_slumber_cycles(tm_slumber *s, uint64_t now, uint64_t out[TM_RF_STATES])
{
    for (uint32_t i = 0; i < s->n; i++) {
        settle(s, &s->r[i], now);
        account(s, &s->r[i], now);
    }
    for (int k = 0; k < TM_RF_STATES; k++)
        out[k] = s->cycles[k];
}

double tm_slumber_leakage(const uint64_t c[TM_RF_STATES])
{
    double total = 0;
    for (int k = 0; k < TM_RF_STATES; k++)
        total += (double)c[k];
    if (total <= 0)
        return 0;
    return ((double)c[TM_RF_ON] + TM_SLUMBER_LEAK_SS * (double)c[TM_RF_SS] + TM_SLUMBER_LEAK_DS * (double)c[TM_RF_DS]) /
           total;
}

const char *tm_rf_state_name(tm_rf_state st)
{
    static const char *const names[] = {"on", "ss", "ds", "off"};
    return st < TM_RF_STATES ? names[st] : "?";
}
