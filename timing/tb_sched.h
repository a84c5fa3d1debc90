/* tb_sched.h — the thread-block scheduler: which block an SM with room
 * starts next (Tripathy's thesis, Ch. 3).
 *
 *   LRR   loose round robin, GigaThread's observed policy (Sec. 3.5.1):
 *         blocks in number order, one to each SM with room.
 *   BCS   block CTA scheduling (Lee et al., HPCA 2014): two consecutive
 *         blocks at once to an SM with room for two (the last block alone;
 *         one at a time where an SM holds one block of the kernel).
 *   MST, KWAY, RB  PAVER (Sec. 3.3-3.4): groups of blocks from the
 *         launch's locality graph (tb_groups.h) in a global queue; at the
 *         start SM s takes group s, and an SM whose group is spent takes the
 *         next one. Each SM keeps PAVER's registers: next (the block it
 *         starts next) and tail (one past its group's last waiting block).
 *         With stealing on (KWAY and RB; MST's later groups hold one block),
 *         an SM with room whose group is spent once the queue is empty
 *         takes blocks from the tail of the SM with the most waiting
 *         (Algorithm 2): max - floor(mean) blocks, the mean waiting over
 *         every SM.
 *
 * The GPU visits the SMs in its round-robin order each core cycle and
 * starts on each at most what tm_tb_sched_next hands out. PAVER's nextTB
 * register is loaded off the critical path (Sec. 3.4.1): no cycles. */
#ifndef SIMTLAB_TIMING_TB_SCHED_H
#define SIMTLAB_TIMING_TB_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "timing/tb_groups.h"

typedef enum tm_tb_policy { TM_TB_LRR, TM_TB_BCS, TM_TB_MST, TM_TB_KWAY, TM_TB_RB } tm_tb_policy;

/* Whether policy p schedules from a locality graph. */
static inline bool tm_tb_policy_uses_graph(tm_tb_policy p) { return p >= TM_TB_MST; }

typedef struct tm_tb_sm_regs {
    uint32_t next, tail; /* positions in groups.tb: [next, tail) wait; next == tail: none */
} tm_tb_sm_regs;

typedef struct tm_tb_sched {
    tm_tb_policy policy;
    bool steal;
    uint32_t nsms, per_sm;
    uint64_t ntbs, handed;        /* blocks, and those handed out so far */
    tm_tb_groups groups;          /* graph policies: owned */
    uint32_t next_group;          /* the global queue's head */
    tm_tb_sm_regs *sm;
    uint64_t steals, stolen;      /* stealing events, blocks stolen */
} tm_tb_sched;

/* What a launch's thread-block scheduling did (the report's tb_* lines). */
typedef struct tm_tb_report {
    tm_tb_policy policy;
    bool steal;                /* stealing was on (kway, rb) */
    const char *graph_source;  /* tm_tb_graph_info.source; NULL: no graph */
    bool graph_exact;
    uint64_t graph_edges, graph_weight;
    uint64_t groups, captured; /* groups made; edge weight inside them */
    uint64_t steals, stolen;
    double graph_seconds, partition_seconds; /* host time to make the graph and the groups */
} tm_tb_report;

/* A launch of ntbs blocks on nsms SMs holding per_sm each, under policy p; the graph
 * policies take groups of the ntbs blocks (ownership passes; ignored
 * otherwise). False when
 * memory is short (groups freed). */
bool tm_tb_sched_start(tm_tb_sched *t, tm_tb_policy p, bool steal, uint32_t nsms, uint32_t per_sm, uint64_t ntbs,
                       tm_tb_groups *groups);

/* Blocks SM s, which has room for `room` more, starts now: written to
 * out[0..], their count returned (0, 1, or 2 under BCS). */
uint32_t tm_tb_sched_next(tm_tb_sched *t, uint32_t s, uint32_t room, uint64_t out[2]);

/* Blocks still to hand out. */
static inline uint64_t tm_tb_sched_left(const tm_tb_sched *t) { return t->ntbs - t->handed; }

void tm_tb_sched_free(tm_tb_sched *t);

/* "lrr", "bcs", "mst", "kway", "rb". */
const char *tm_tb_policy_name(tm_tb_policy p);

#endif
