/* rf_power.h — an SM's register file under Slumber (Tripathy's thesis,
 * Ch. 6) or a WRF-like policy (-simtlab_rf_power): which state each
 * 128-byte warp-register is in (timing/slumber.h), driven by the
 * pipeline.
 *
 * Registers: the kernel's PTX registers mapped to physical ones by the
 * allocator (analysis/regalloc.h: P 32-bit registers a thread); a block
 * in CTA place p holds warp-registers p*W*P .. (p+1)*W*P - 1 (W warps),
 * warp k of it P from p*W*P + k*P. With the model on, occupancy counts P
 * registers a thread (not the analyzer's max_live), so that the places
 * fit the register file (-gpgpu_shader_registers / 32 warp-registers).
 * A function the kernel calls has its own allocation, above the
 * registers of the functions that may be active under it (its caller's
 * and theirs: tm_rf_kernel_add_callee's offset), so that a thread's P
 * counts the deepest chain of calls. Instructions of functions without
 * tables (a launch whose calls recurse or are indirect: gpu.c) leave the
 * file's states alone and are counted (unmodelled_insts), so that a
 * report says how much of a launch the model did not see.
 *
 * Slumber (Sec. 6.3): unallocated registers and those of finished warps
 * are OFF. At issue, each destination rests until its write for the
 * predicted latency (the unit's latency; a load's from the warp's 2-bit
 * MSHR tracker: its last load hit the L1 or missed) before a write (OFF
 * from 16 cycles, DS from 13, SS from 4), and each source, read, rests
 * until its next access: when its value is dead (the analyzer's
 * next-access hint is a write, or none), OFF, unless a later instruction
 * may write its physical register sooner than OFF's wake-up (the fewest
 * cycles over the CFG's paths: one an instruction issued on the way plus
 * the writer's latency), when it rests for that idle period before a
 * write; when it is live, under-volted: where
 * -simtlab_rf_rest says. `buffer` (the default) follows the thesis's
 * cases (Sec. 6.3.3): ON when the warp's buffered instruction reads it
 * (a), SS when the warp's next instruction is buffered or its line is in
 * the L1I (b; at issue, the line of the next instruction in sequence), DS
 * otherwise (c); `deep` rests every live register in DS. A source that
 * is also a destination of the instruction (the allocator gives a result
 * the place of a source that dies with it) rests as a destination. A resting
 * register wakes when its warp is one of the first four in its
 * scheduler's order (the thesis's look-ahead of three warps besides the
 * one issuing) or, at the latest, when an instruction needs it (the warp
 * waits for the rest of the wake-up: TM_STALL_RF). A result whose
 * register is still asleep or waking when it arrives waits for the rest
 * of the wake-up before it is written (tm_rf_power_write_ready: the
 * scoreboard releases it then); after its write-back a register rests
 * the same way.
 * WRF-like (Abdel-Majeed and Annavaram, HPCA 2013, as the thesis compares
 * it): allocated registers are drowsy (DS) unless accessed; an output
 * register stays ON from issue to write-back; finished warps' registers
 * stay drowsy; unallocated ones are OFF.
 * On: every allocated register ON: the baseline with the same occupancy. */
#ifndef SIMTLAB_TIMING_RF_POWER_H
#define SIMTLAB_TIMING_RF_POWER_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/nextaccess.h"
#include "timing/opclass.h"
#include "timing/slumber.h"

typedef enum tm_rf_policy { TM_RFP_NONE, TM_RFP_ON, TM_RFP_SLUMBER, TM_RFP_WRF } tm_rf_policy;
/* -simtlab_rf_rest: Slumber's rest for a live register. */
typedef enum tm_rf_rest { TM_RF_REST_BUFFER, TM_RF_REST_DEEP } tm_rf_rest;

/* What the SM knows of a warp's next instruction when one of its
 * registers goes to rest (the thesis's cases, Sec. 6.3.3). */
typedef struct tm_rf_next {
    const tm_inst_class *buffered; /* the instruction it holds ready to issue, or NULL */
    bool cached;                   /* its next instruction is buffered or in the L1I */
} tm_rf_next;

/* What the model needs of the running kernel (built once per launch):
 * the tables of the kernel function, and in `callees` those of the
 * functions it calls. */
typedef struct tm_rf_kernel {
    const tm_inst_class *ic;  /* the function's classes, [ninstrs] */
    uint32_t ninstrs, nregs, nphys;
    uint32_t offset;          /* its first physical register in a thread's (0: the kernel) */
    uint32_t nphys_all;       /* (the kernel's) physical registers a thread needs: the largest
                                 offset + nphys of the kernel and its callees */
    struct tm_rf_kernel *callees;
    uint32_t ncallees;
    uint32_t *phys;           /* per PTX register: first physical register, or PTX_NO_PHYS */
    uint8_t *width;
    uint32_t *acc_start;      /* per pc: its accesses acc[acc_start[pc] .. acc_start[pc + 1]) */
    uint8_t *dead_idle;       /* per access (next.acc): a read whose value dies: the fewest cycles
                                 before its physical registers are written again, at most
                                 TM_SLUMBER_WAKE_OFF (rf_power.c's predict_dead_idle) */
    ptx_nextaccess next;
} tm_rf_kernel;

/* The tables of kernel f (classes opc); false when memory is short. */
bool tm_rf_kernel_build(tm_rf_kernel *k, const ptx_module *m, const ptx_function *f, const tm_opclass_fn *opc);
/* Add to kernel k the tables of function f that it calls (classes opc),
 * at offset 0: the caller sets each callee's offset, above the registers
 * of every function that may be active under it on a chain of calls, and
 * k's nphys_all (gpu.c). False when memory is short. */
bool tm_rf_kernel_add_callee(tm_rf_kernel *k, const ptx_module *m, const ptx_function *f, const tm_opclass_fn *opc);
void tm_rf_kernel_free(tm_rf_kernel *k);

/* Reuse distances (cycles between two accesses of a warp-register) in
 * buckets of powers of two: bucket 0 holds 0 and 1, bucket k
 * [2^k, 2^(k+1)), the last everything above. */
#define TM_RF_REUSE_BUCKETS 16

/* How the register file was used (Sec. 6.1, Fig. 6.2): accesses by the
 * kind of the later one, and the cycles in which something was accessed
 * at each level. */
typedef struct tm_rf_usage {
    uint64_t reuse_read[TM_RF_REUSE_BUCKETS], reuse_write[TM_RF_REUSE_BUCKETS];
    uint64_t rf_cycles;       /* cycles with an access to the SM's register file */
    uint64_t bank_cycles;     /* summed over banks: cycles with an access to the bank */
    uint64_t warp_cycles;     /* summed over warp slots: cycles with an access to one of its registers */
    uint64_t reg_cycles;      /* summed over registers: cycles it was accessed in */
} tm_rf_usage;

typedef struct tm_rf_power {
    tm_rf_policy policy;
    tm_rf_rest rest;
    tm_slumber *rf;
    uint32_t nregs;           /* warp-registers of the register file */
    uint32_t nslots;
    const tm_rf_kernel *k;
    uint32_t *base;           /* per warp slot: its first warp-register, or UINT32_MAX */
    uint8_t *missed;          /* per warp slot: the MSHR tracker (its last load missed the L1) */
    uint32_t lat_hit, lat_miss;
    uint64_t late_writes;     /* results that waited for their register to wake */
    uint64_t write_wait_cycles; /* the cycles they waited, summed */
    uint64_t unmodelled_insts; /* warp instructions issued in functions without tables (their
                                  registers are not modelled) */
    uint32_t nbanks;          /* register banks: warp-register r is in bank r % nbanks */
    uint64_t *last;           /* per warp-register, warp slot, bank, then the file: the last
                                 cycle accessed + 1 (0: never) */
    tm_rf_usage use;
} tm_rf_power;

/* The model of an SM of nregs warp-registers and nslots warp slots;
 * nbanks register banks; lat_hit / lat_miss: the load latencies the
 * tracker predicts. False when memory is short. */
bool tm_rf_power_init(tm_rf_power *p, tm_rf_policy policy, tm_rf_rest rest, uint32_t nregs, uint32_t nslots,
                      uint32_t nbanks, uint32_t lat_hit, uint32_t lat_miss);
void tm_rf_power_free(tm_rf_power *p);

void tm_rf_power_kernel(tm_rf_power *p, const tm_rf_kernel *k);
/* Warp slot wi holds warp k of the block in CTA place `place` of W warps
 * from cycle now. */
void tm_rf_power_warp_start(tm_rf_power *p, uint32_t wi, uint32_t place, uint32_t W, uint32_t k, uint64_t now);
/* The cycle the sources of ic (warp wi) can be read: now, or later when
 * one is not ON (its wake-up starts). */
uint64_t tm_rf_power_operands(tm_rf_power *p, uint32_t wi, const tm_inst_class *ic, uint64_t now);
/* Wake the sources of ic ahead of its issue (the scheduler's look-ahead). */
void tm_rf_power_lookahead(tm_rf_power *p, uint32_t wi, const tm_inst_class *ic, uint64_t now);
/* ic issued at now: its sources were read; its destinations rest until
 * their write; next: the warp's next instruction. */
void tm_rf_power_issued(tm_rf_power *p, uint32_t wi, const tm_inst_class *ic, uint64_t now, tm_rf_next next);
/* ic's results (warp wi) arrive at now: the cycle they can be written,
 * now or later when a destination is not ON (its wake-up starts). */
uint64_t tm_rf_power_write_ready(tm_rf_power *p, uint32_t wi, const tm_inst_class *ic, uint64_t now);
/* ic's results are written at now (after tm_rf_power_write_ready). */
void tm_rf_power_written(tm_rf_power *p, uint32_t wi, const tm_inst_class *ic, uint64_t now, tm_rf_next next);
/* Warp slot wi's last load hit the L1 (missed false) or not. */
void tm_rf_power_load(tm_rf_power *p, uint32_t wi, bool missed);
/* Warp slot wi's warp finished at now. */
void tm_rf_power_warp_done(tm_rf_power *p, uint32_t wi, uint64_t now);
/* Register-cycles per state up to now. */
void tm_rf_power_cycles(tm_rf_power *p, uint64_t now, uint64_t out[TM_RF_STATES]);

#endif
