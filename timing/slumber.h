/* slumber.h — register-file leakage power states (Slumber, Tripathy's
 * thesis, Ch. 6): each 128-byte warp-register is ON (1 V), in Shallow
 * Sleep (SS, 0.9 V), Deep Sleep (DS, 0.3 V) or power-gated OFF (0 V);
 * Table 6.1: wake-up 0, 4, 13 and 16 cycles, static power 100, 94, 42 and
 * 0 %. SS and DS keep the value; OFF loses it, so only a register whose
 * next access is a write (its value is dead), or that no block holds,
 * may go OFF.
 *
 * After an access (or when a result is on its way) the caller gives the
 * predicted idle period T, the cycles until the register's next access,
 * and whether that access is a write; the register rests in the deepest
 * state worth it (the thesis's examples, as the digest derives them: OFF
 * when the next access is a write and T >= OFF's wake-up; else DS when T
 * >= DS's; else SS when T >= SS's; else ON) and its counter (10 bits:
 * T is capped at 1023) starts the wake-up wake(state) cycles before the
 * predicted access, so it is ON in time. A register that is OFF stays OFF
 * until then, whatever rest T would give, and takes OFF's wake-up (when
 * T is shorter, the wake-up starts at once and the access waits for the
 * rest of it). An access earlier than
 * predicted finds it still asleep or waking: it waits for the rest of the
 * wake-up (the stall tm_slumber_access returns). Waking counts as ON.
 *
 * Cycles are counted per register and state lazily, at each call; nothing
 * runs per cycle. */
#ifndef SIMTLAB_TIMING_SLUMBER_H
#define SIMTLAB_TIMING_SLUMBER_H

#include <stdbool.h>
#include <stdint.h>

typedef enum tm_rf_state { TM_RF_ON, TM_RF_SS, TM_RF_DS, TM_RF_OFF, TM_RF_STATES } tm_rf_state;

/* Table 6.1. */
#define TM_SLUMBER_WAKE_SS 4u
#define TM_SLUMBER_WAKE_DS 13u
#define TM_SLUMBER_WAKE_OFF 16u
#define TM_SLUMBER_LEAK_SS 0.94
#define TM_SLUMBER_LEAK_DS 0.42
#define TM_SLUMBER_COUNTER_MAX 1023u /* Sec. 6.3.4's 10-bit counter */

typedef struct tm_slumber tm_slumber;

/* n registers, all OFF (unallocated) from cycle 0; NULL when memory is short. */
tm_slumber *tm_slumber_new(uint32_t n);
void tm_slumber_free(tm_slumber *s);

/* Wake-up cycles of state st (Table 6.1). */
uint32_t tm_slumber_wake(tm_rf_state st);
/* The state a register rests in for a predicted idle period of t cycles
 * before an access that is a write (next_write) or a read. */
tm_rf_state tm_slumber_choose(uint64_t t, bool next_write);

/* Register r is read or written at cycle now: the cycles it must wait for
 * its wake-up (0 when ON); it is ON from now + the wait. */
uint32_t tm_slumber_access(tm_slumber *s, uint32_t r, uint64_t now);
/* After an access at cycle now, r rests for a predicted t cycles before
 * its next access (a write: next_write). */
void tm_slumber_rest(tm_slumber *s, uint32_t r, uint64_t now, uint64_t t, bool next_write);
/* r rests in state st from cycle now until an access wakes it (no
 * prediction: the WRF-like policy's drowsy registers, and OFF for
 * registers no block holds or whose warp has finished). */
void tm_slumber_park(tm_slumber *s, uint32_t r, uint64_t now, tm_rf_state st);
/* The state of r at cycle now (ON while waking). */
tm_rf_state tm_slumber_state(tm_slumber *s, uint32_t r, uint64_t now);
/* Register-cycles in each state up to cycle now. */
void tm_slumber_cycles(tm_slumber *s, uint64_t now, uint64_t out[TM_RF_STATES]);

/* Leakage energy relative to always ON, from register-cycles per state. */
double tm_slumber_leakage(const uint64_t cycles[TM_RF_STATES]);

const char *tm_rf_state_name(tm_rf_state st);

#endif
