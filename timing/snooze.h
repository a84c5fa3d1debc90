/* snooze.h — cache leakage power states (Snooze, Tripathy's thesis, Ch.
 * 5): a cache's data array in units (the whole bank, or each block of 128
 * or 32 bytes), each ON (100% leakage), Sleep (state-retentive, 22.8%) or
 * OFF (data lost, 1.5%), Table 5.2's factors; leaving Sleep or OFF takes
 * `wake` cycles (2).
 *
 * The control (Sec. 5.2.2): everything is OFF when the cache is made; a
 * unit wakes when an access to it enters the cache's input queue (the
 * AGU->L1 queue for an L1, ICNT->L2 for an L2 bank: tm_snooze_wake, early
 * enough to hide the wake-up when the queue holds the access long
 * enough), or when a fill arriving through ICNT->L1 or DRAM->L2 is about
 * to write it (woken the wake-up time before the write, hidden by the
 * queue: no stall, tm_snooze_fill);
 * a unit goes to Sleep when its last use is over and no access to it
 * follows within `wake` cycles (sleeping for less would cost more than it
 * saves); an access refused for want of an MSHR or a line puts its set in
 * the cache's 32-entry reservation queue (tm_cache.c), and until a fill
 * comes into that set, accesses to it waiting in the input queue wake
 * nothing (Sec. 5.2.1; a full queue keeps no more sets); the whole cache goes OFF when its SM has no block left (L1) or
 * the kernel ends (L2): tm_snooze_all_off. An access that finds its unit
 * still waking (tm_snooze_ready false) waits: the cache refuses it for
 * now, the stall the thesis's queues would show.
 *
 * Cycles are counted per unit in each state (unit-cycles); ON includes the
 * wake-up cycles. States are brought up to date lazily, at each call:
 * nothing runs per cycle. */
#ifndef SIMTLAB_TIMING_SNOOZE_H
#define SIMTLAB_TIMING_SNOOZE_H

#include <stdbool.h>
#include <stdint.h>

typedef enum tm_snooze_state { TM_SNOOZE_ON, TM_SNOOZE_SLEEP, TM_SNOOZE_OFF, TM_SNOOZE_STATES } tm_snooze_state;

/* Sec. 5.2.1: entries of the reservation queue of an L1 or an L2 bank. */
#define TM_SNOOZE_RQ 32u

/* Table 5.2: static power of Sleep and OFF relative to ON. */
#define TM_SNOOZE_SLEEP_LEAKAGE 0.228
#define TM_SNOOZE_OFF_LEAKAGE 0.015

typedef struct tm_snooze tm_snooze;

/* n units, all OFF from cycle 0; NULL when memory is short. */
tm_snooze *tm_snooze_new(uint32_t n, uint32_t wake);
void tm_snooze_free(tm_snooze *s);

/* An access to unit u entered the input queue at cycle now: start waking it. */
void tm_snooze_wake(tm_snooze *s, uint32_t u, uint64_t now);
/* Can unit u be read or written at cycle now? If it is not on its way
 * ON, its wake starts now. */
bool tm_snooze_ready(tm_snooze *s, uint32_t u, uint64_t now);
/* Unit u is read or written at cycle now (woken now if it was not). */
void tm_snooze_use(tm_snooze *s, uint32_t u, uint64_t now);
/* A fill writes unit u at cycle now: the fill's arrival in the cache's
 * fill queue (ICNT->L1, DRAM->L2) woke it `wake` cycles before, which the
 * queue's latency hides: ON from then, no stall. */
void tm_snooze_fill(tm_snooze *s, uint32_t u, uint64_t now);
/* Every unit OFF from cycle now. */
void tm_snooze_all_off(tm_snooze *s, uint64_t now);
/* Unit-cycles spent in each state up to cycle now (the states are
 * brought up to date, nothing else changes). */
void tm_snooze_cycles(tm_snooze *s, uint64_t now, uint64_t out[TM_SNOOZE_STATES]);

/* Leakage energy relative to the same units always ON, from their
 * unit-cycles per state (0 when there are none). */
double tm_snooze_leakage(const uint64_t cycles[TM_SNOOZE_STATES]);

const char *tm_snooze_state_name(tm_snooze_state s);

#endif
