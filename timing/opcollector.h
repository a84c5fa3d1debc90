/* opcollector.h — the operand collector and the banked register file of
 * one SM (GPGPU-Sim's opndcoll_rfu_t, shader.cc).
 *
 * An issued instruction takes a free collector unit: one of its unit
 * kind's own set (-gpgpu_operand_collector_num_units_{sp,dp,int,sfu,
 * tensor_core,mem}) or else of the generic set (..._num_units_gen). Each of
 * its source operands (tm_inst_class.read) is a read request to the
 * register bank holding that register:
 *     bank = (reg + (reg_bank_use_warp_id ? warp : 0)) % reg_banks
 * (GPGPU-Sim's register_bank(); with -gpgpu_sub_core_model each scheduler
 * owns reg_banks / n_schedulers consecutive banks: bank = (reg [+ warp]) %
 * banks_per_sched + sched * banks_per_sched). A bank serves one access per
 * cycle; writebacks claim their banks first (GPGPU-Sim: "write gets
 * priority") and the remaining banks go to read requests, oldest collector
 * first. When all its operands are read, the instruction leaves its
 * collector, the cycle after its last read, into its kind's OC_EX register
 * (capacity oc_ex[kind] of -gpgpu_pipeline_widths), from which the core
 * hands it to a functional unit; a full OC_EX register keeps it (and its
 * collector) waiting.
 *
 * Cycle order expected of the core within one cycle `now` (GPGPU-Sim runs
 * its stages in reverse pipeline order the same way): tm_opcollector_
 * writeback() for results written back this cycle, then tm_opcollector_
 * ready()/pop() to feed the functional units, then tm_opcollector_cycle(),
 * then tm_opcollector_issue() for the instructions the schedulers issue
 * (their reads start next cycle). So an instruction issued at cycle t with
 * its operands in distinct banks is read at t+1 and is in OC_EX at t+2;
 * each extra access to a bank one of its operands needs adds a cycle.
 *
 * Bank conflicts: tm_opcollector_bank_conflict_stalls() counts, for every
 * cycle, each collector unit that had an operand it could not read because
 * its bank was busy that cycle (with another operand's read, its own
 * included, or with a write). GPGPU-Sim 4.x (gpgpu-sim_distribution)
 * prints gpu_reg_bank_conflict_stalls but never increments it (always 0); its older
 * decode-stage model counted one per cycle an instruction was held for its
 * operands' bank conflicts (an instruction with two operands in one bank:
 * 1), which is what this counter gives for a single instruction.
 *
 * Differences from GPGPU-Sim: its read arbiter (a wavefront allocator)
 * gives each collector unit at most one operand per cycle, so a
 * two-operand instruction always needs two read cycles, banks or not;
 * here a collector may receive one operand from each of several banks in
 * the same cycle, which is what banking is for (reads_per_collector = 1 in
 * tm_opcollector_new gives GPGPU-Sim's limit). Per-port input/output
 * counts (-gpgpu_operand_collector_num_in_ports_*, ..._out_ports_*) are
 * not modelled: the OC_EX capacity bounds dispatch, the core's issue width
 * bounds allocation.
 *
 * Cost per cycle: O(collector units busy + their unread operands); nothing
 * is allocated after tm_opcollector_new. */
#ifndef SIMTLAB_TIMING_OPCOLLECTOR_H
#define SIMTLAB_TIMING_OPCOLLECTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "timing/config.h"
#include "timing/opclass.h"

/* An instruction whose operands are all read, waiting in OC_EX. */
typedef struct tm_oc_entry {
    uint64_t tag;        /* the caller's reference, as given to tm_opcollector_issue */
    uint32_t warp;
    uint32_t collector;  /* the collector unit it used */
    uint8_t kind;        /* tm_unit */
} tm_oc_entry;

/* One collector unit. */
typedef struct tm_oc_cu {
    bool busy;
    uint8_t kind;        /* tm_unit of its instruction */
    uint32_t warp, sched;
    uint64_t tag;
    uint64_t seq;        /* allocation order: older collectors read first */
    uint64_t ready_at;   /* first cycle it may leave (all reads done) */
    uint32_t npending;   /* operands not yet read */
    uint32_t *bank;      /* [max_reads]: their banks */
} tm_oc_cu;

typedef struct tm_opcollector {
    uint32_t reg_banks, banks_per_sched, n_sched;
    uint32_t bank_mask;                /* the banks a register picks among - 1 when a power of two (0: not) */
    bool use_warp_id, sub_core;
    uint32_t reads_per_collector;      /* 0: no limit */
    uint32_t max_reads;
    tm_oc_cu *cu;
    uint32_t ncu;
    uint32_t set_first[TM_UNIT_KINDS + 1], set_count[TM_UNIT_KINDS + 1]; /* [TM_UNIT_KINDS]: generic */
    uint32_t *active;                  /* busy collectors, oldest first */
    uint32_t nactive;
    uint64_t *bank_read, *bank_write;  /* [reg_banks]: cycle of the bank's last read / write */
    tm_oc_entry *ex;                   /* OC_EX registers: one ring per kind */
    uint32_t ex_first[TM_UNIT_KINDS], ex_cap[TM_UNIT_KINDS];
    uint32_t ex_head[TM_UNIT_KINDS], ex_n[TM_UNIT_KINDS];
    uint64_t seq;
    /* with at most 64 collectors: the collectors an instruction of kind k from scheduler s may
     * take, by bit (its own set's, then the generic set's, in index order), cand[k * n_sched + s],
     * and the busy ones: the first free one is the lowest bit of cand & ~busy (NULL: look) */
    uint64_t *cand, busy;
    uint32_t *bank_store;
    /* statistics */
    uint64_t bank_conflict_stalls;     /* see above */
    uint64_t regfile_reads;            /* operand reads served */
    uint64_t regfile_writes;           /* register writes accepted */
} tm_opcollector;

#define TM_OC_BUSY (-1)  /* no free collector unit for it now */
#define TM_OC_BAD (-2)   /* more reads than max_reads, or a kind without collectors or OC_EX width */

/* The operand collector of cfg (reg_banks, reg_bank_use_warp_id,
 * sub_core_model, n_schedulers, oc_units[], oc_units_gen, oc_ex[]).
 * max_reads: the most source operands one instruction may have (the
 * largest tm_opclass_fn.max_reads of the functions to run; 0: 32).
 * reads_per_collector: operands one collector may receive per cycle (0: as
 * many as there are free banks; 1: GPGPU-Sim's allocator). NULL, with err
 * set, when reg_banks is 0, sub_core_model splits the banks unevenly, or
 * memory is short. */
tm_opcollector *tm_opcollector_new(const tm_config *cfg, uint32_t max_reads,
                                   uint32_t reads_per_collector, char *err, size_t errlen);
void tm_opcollector_free(tm_opcollector *oc);

/* The bank that holds register reg of warp (scheduler sched). */
uint32_t tm_opcollector_bank(const tm_opcollector *oc, uint32_t reg, uint32_t warp, uint32_t sched);

/* Is a collector unit free for an instruction of kind from scheduler sched?
 * Inline with the collector masks (every issue scan asks);
 * tm_opcollector_can_issue_slow looks through the collectors otherwise. */
bool tm_opcollector_can_issue_slow(const tm_opcollector *oc, tm_unit kind, uint32_t sched);
static inline bool tm_opcollector_can_issue(const tm_opcollector *oc, tm_unit kind, uint32_t sched)
{
    if ((unsigned)kind >= TM_UNIT_KINDS || oc->ex_cap[kind] == 0)
        return false;
    if (oc->cand && sched < oc->n_sched)
        return (oc->cand[kind * oc->n_sched + sched] & ~oc->busy) != 0;
    return tm_opcollector_can_issue_slow(oc, kind, sched);
}

/* Put ic (executed on ic->unit) of warp into a free collector unit at cycle
 * now: returns the collector's number, TM_OC_BUSY or TM_OC_BAD. Collectors
 * are numbered set by set: SP's, DP's, INT's, SFU's, TENSOR's, MEM's (in
 * tm_unit order, oc_units[] each), then the generic ones. */
int tm_opcollector_issue(tm_opcollector *oc, uint32_t warp, uint32_t sched,
                         const tm_inst_class *ic, uint64_t tag, uint64_t now);

/* Write back registers regs[0..n) of warp in cycle now: claims their banks
 * in order and returns how many it could write (it stops at the first
 * bank already used this cycle); the core writes the rest in later
 * cycles. */
uint32_t tm_opcollector_writeback(tm_opcollector *oc, uint32_t warp, uint32_t sched,
                                  const uint32_t *regs, uint32_t n, uint64_t now);

/* One cycle: collectors whose operands are all read move to OC_EX (room
 * permitting), then the banks serve read requests. */
void tm_opcollector_cycle(tm_opcollector *oc, uint64_t now);

/* The oldest instruction of kind waiting in OC_EX (false: none). Inline:
 * the core asks for every kind every cycle. */
static inline bool tm_opcollector_ready(const tm_opcollector *oc, tm_unit kind, tm_oc_entry *out)
{
    if ((unsigned)kind >= TM_UNIT_KINDS || oc->ex_n[kind] == 0)
        return false;
    *out = oc->ex[oc->ex_first[kind] + oc->ex_head[kind]];
    return true;
}

/* Remove that instruction (it went to its functional unit). */
static inline void tm_opcollector_pop(tm_opcollector *oc, tm_unit kind)
{
    if ((unsigned)kind >= TM_UNIT_KINDS || oc->ex_n[kind] == 0)
        return;
    oc->ex_head[kind] = oc->ex_head[kind] + 1 == oc->ex_cap[kind] ? 0 : oc->ex_head[kind] + 1;
    oc->ex_n[kind]--;
}

/* The first cycle >= now at which tm_opcollector_cycle has work (reads
 * pending, or a collector due to leave), or UINT64_MAX. */
uint64_t tm_opcollector_next_event(const tm_opcollector *oc, uint64_t now);

static inline uint64_t tm_opcollector_bank_conflict_stalls(const tm_opcollector *oc)
{
    return oc->bank_conflict_stalls;
}

#endif
