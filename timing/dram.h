/* dram.h — one DRAM channel of a memory partition: banks with open rows,
 * the command and data buses, and the request scheduler in front of them.
 *
 * What it models (GPGPU-Sim's dram_t, dram.cc, and its FR-FCFS scheduler,
 * dram_sched.cc), in DRAM command-clock cycles (-gpgpu_clock_domains'
 * fourth value):
 * - nbk banks in nbkgrp bank groups (-gpgpu_dram_timing_opt). Bank b is in
 *   group b / (nbk / nbkgrp) (GPGPU-Sim's default bank-group indexing,
 *   higher bits) or b % nbkgrp (-dram_bnkgrp_indexing_policy 1, through
 *   tm_dram_set_options). Each bank is idle or has one row open; it works
 *   on one request at a time.
 * - Commands ACT, PRE, RD, WR, with these distances in cycles from an
 *   earlier command (the names of the timing option):
 *     ACT -> ACT any bank  tRRD        ACT -> ACT same bank  tRC
 *     PRE -> ACT same bank tRP         ACT -> RD same bank   tRCD
 *     ACT -> WR same bank  tRCDWR = tRCD - (tWL + 1)  (GPGPU-Sim's; 0 if negative)
 *     ACT -> PRE same bank tRAS        RD -> PRE same bank   burst
 *     RD -> PRE same group tRTPL       WR -> PRE same bank   tWTP = tWL + burst + tWR
 *     column -> column     tCCD (any bank), tCCDL (same bank group)
 *     WR -> RD             tWTR = tWL + burst + tCDLR  (write data, then tCDLR)
 *     RD -> WR             tRTW = tCL + burst + 2 - tWL (0 if negative)
 *   A row is precharged only when a request for another row of that bank
 *   is being served (open-page policy, as GPGPU-Sim).
 * - Bursts: one column command moves one burst of
 *   atom = burst_length * dram_buswidth * chips_per_channel bytes (GPGPU-Sim's
 *   dram_atom_size). The burst's BL data transfers happen at
 *   -dram_data_command_freq_ratio transfers per command cycle, so a burst
 *   holds the data bus for burst = BL / freq_ratio command cycles (GPGPU-Sim
 *   adds exactly BL / data_command_freq_ratio to its bwutil per column
 *   command). A request of `bytes` takes ceil(bytes / atom) column
 *   commands; BL must be a multiple of the ratio. Read data occupies the
 *   bus from tCL after the RD for `burst` cycles, write data from tWL
 *   after the WR.
 * - Scheduling (-gpgpu_dram_scheduler): FIFO — only the oldest waiting
 *   request may go to its bank, once that bank is free; FR-FCFS — a free
 *   bank takes its oldest request to its open row if there is one, else
 *   its oldest request. At most one request goes to a bank per cycle;
 *   banks are considered round robin (GPGPU-Sim's prio).
 * - Commands per cycle: one, on a single command bus (GPGPU-Sim's default,
 *   -dram_dual_bus_interface 0), column commands before row commands; or
 *   one row and one column command with a dual bus interface (HBM).
 * - The queue (-gpgpu_frfcfs_dram_sched_queue_size, 0 unlimited) bounds
 *   the requests waiting for a bank; requests at a bank or with data on
 *   the bus do not count (GPGPU-Sim's num_pending).
 *
 * Deliberate differences from GPGPU-Sim:
 * - The data bus is a resource: a column command waits until its data
 *   would not overlap the previous burst on the bus. GPGPU-Sim relies on
 *   tCCD alone and overlaps data when tCCD < BL / ratio; with the usual
 *   tCCD >= BL / ratio nothing changes.
 * - A read completes when its last burst has crossed the bus: RD + tCL +
 *   burst (GPGPU-Sim's return pipeline pops an atom CL + 1 cycles after
 *   the RD and does not count the burst).
 * - The single command bus issues one command per cycle; GPGPU-Sim's loop
 *   can issue a row command to one bank and a column command to a later
 *   bank in the same cycle even then.
 * - FIFO uses the same queue size option as FR-FCFS (GPGPU-Sim's FIFO path
 *   has a fixed two-entry queue), so the two differ only in policy.
 * - Writes (TM_REQ_WRITE and TM_REQ_WRITEBACK) complete silently; GPGPU-Sim
 *   sends a reply for writes that are not write-backs.
 * - A row-buffer hit is a request served without an ACT of its own
 *   (GPGPU-Sim counts it in the FR-FCFS scheduler by comparing with the
 *   bank's last row, even when that row was precharged, and not at all
 *   under FIFO).
 * - The separate write queue (-dram_seperate_write_queue_enable, FR-FCFS
 *   only, as GPGPU-Sim): writes wait in a queue of their own; the
 *   scheduler serves only reads until the waiting writes reach the high
 *   watermark, then only writes until they fall below the low one
 *   (-dram_write_queue_size SIZE:HIGH:LOW). simtlab also serves writes
 *   while no read waits, where GPGPU-Sim leaves writes below the high
 *   watermark waiting until more come.
 * - Not modelled: refresh, bank-index hashing (-dram_bnk_indexing_policy),
 *   the bounded return queue.
 *
 * Mechanisms of the papers (simtlab options):
 * - Sub-ranks (-simtlab_dram_subranks N; Rhu's thesis, Sec. 5.2, LAMAR's
 *   sub-ranked GDDR5): the channel's chips_per_channel chips form N
 *   sub-ranks, each with its own banks (nbk each, with their own rows), its
 *   own data bus (1/N of the channel's width) and its own command bus (the
 *   doubled command bandwidth of the thesis, for N = 2). A burst is then
 *   atom / N bytes (32 B for a 64-bit GDDR5 channel of two 32-bit chips at
 *   BL 8). A request's data is cut into bursts of that size, burst k of
 *   the address space on sub-rank k % N, and each sub-rank serves its part
 *   as a request of its own (same bank, row and column); the reply comes
 *   when the last part has crossed its bus. A 32-byte request occupies one
 *   sub-rank; a 128-byte line two bursts of each of two sub-ranks.
 *   The queues hold parts (a request needs room for one per sub-rank), and
 *   statistics count parts as accesses (access_num, read_num, write_num,
 *   row-buffer hits, the queue waits and lengths, holds) and bursts as
 *   column commands; n_req, reads_done, writes_done and the push-to-data
 *   latencies count the requests pushed.
 * - Row-buffer hints (-simtlab_dram_row_hold CYCLES, FR-FCFS; Narasiman's
 *   thesis, Sec. 7.2): when the last burst of a request with tm_req.row_hint
 *   issues, its bank holds its row for CYCLES cycles: it takes only a
 *   request to that row (the hinted load's follow-up, a row hit), and the
 *   hold ends when one comes or the time runs out; other banks are
 *   unaffected. The thesis sets CYCLES to the row-conflict latency minus
 *   the row-hit latency (the break-even point of Fig. 7.3).
 *
 * Use, per DRAM cycle `now` (strictly increasing): tm_dram_push() the
 * requests that arrive (bank, row and column from timing/addrmap.h's
 * decode: the caller decodes, since it needs the channel and the
 * sub-partition anyway), tm_dram_cycle(), then tm_dram_pop_reply() until
 * false. Cycles may be skipped: tm_dram_cycle(now) first runs every cycle
 * before `now` at which something could happen (tm_dram_next_event()), so
 * a caller may call it only at next_event() or when it pushes. */
#ifndef SIMTLAB_TIMING_DRAM_H
#define SIMTLAB_TIMING_DRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "timing/config.h"
#include "timing/request.h"

typedef struct tm_dram tm_dram;

/* Options read from config.h after the channel is made; GPGPU-Sim's
 * defaults: false, false, false, 32:28:16. */
typedef struct tm_dram_options {
    bool dual_bus_interface;  /* -dram_dual_bus_interface: a row and a column command per cycle */
    bool bankgrp_low_bits;    /* -dram_bnkgrp_indexing_policy 1: group = bank % nbkgrp */
    bool write_queue;         /* -dram_seperate_write_queue_enable: writes wait in a queue of their
                                 own (FR-FCFS), of wq_size entries, drained from wq_high waiting
                                 writes down to below wq_low (-dram_write_queue_size) */
    uint32_t wq_size, wq_high, wq_low;
    /* QoS scheduling of prioritized requests (tm_req.prio; Rhu's thesis, Ch. 6), FR-FCFS only:
     * 0 none; 1 FRFP-FCFS (row hits first, among them and among the rest prioritized first);
     * 2 FP-FRFCFS (prioritized first, among them and among the rest row hits first) */
    uint8_t priority;
    uint32_t row_hold;        /* -simtlab_dram_row_hold: cycles a bank holds its row after a hinted
                                 request (0: hints are ignored) */
} tm_dram_options;

/* Counters, in GPGPU-Sim's terms where it has them (its names in the
 * comments). Cycles are DRAM command cycles. */
typedef struct tm_dram_stats {
    uint64_t n_cmd;          /* n_cmd: cycles simulated (including skipped idle ones) */
    uint64_t n_nop;          /* n_nop: cycles with no command issued */
    uint64_t n_act, n_pre;   /* n_act, n_pre */
    uint64_t n_req;          /* n_req: requests accepted (each may be several parts with sub-ranks) */
    uint64_t n_rd, n_write;  /* n_rd, n_write: RD / WR column commands (bursts) */
    uint64_t n_wr_bk;        /* n_wr_bk: WR commands of TM_REQ_WRITEBACK requests (not in n_write) */
    uint64_t bwutil;         /* bwutil: cycles the data bus carried data (burst per column command),
                                summed over sub-ranks */
    uint64_t n_activity;     /* n_activity: cycles with a request in the channel (waiting, at a bank, or data on the bus) */
    uint64_t reads_done, writes_done; /* requests whose last burst has crossed the bus */
    uint64_t access_num, hits_num;    /* requests served, and those without an ACT of their own */
    uint64_t read_num, hits_read_num, write_num, hits_write_num;
    uint64_t tot_mrq_latency, tot_mrq_num, max_mrq_latency; /* wait from push to its bank */
    uint64_t tot_latency, max_latency;  /* push to last data beat, over reads_done + writes_done */
    uint64_t max_mrqs, ave_mrqs;        /* waiting requests: most, and the sum over cycles */
    /* row-buffer hints (-simtlab_dram_row_hold): holds started, and how they ended when the bank
     * next took a request: the follow-up came in time (a row hit), or the hold had run out */
    uint64_t holds, hold_hits, hold_timeouts;
    uint64_t hold_hit_wait;  /* over the hold hits: cycles from the hold's start to the follow-up */
} tm_dram_stats;

/* A channel configured from cfg: dram (timing), dram_scheduler,
 * frfcfs_queue, dram_buswidth, dram_burst_length,
 * dram_data_command_freq_ratio, chips_per_channel, dram_subranks (0 or 1:
 * not sub-ranked; otherwise a power of two dividing chips_per_channel,
 * with at most 64 banks in all). channel_id names it in
 * statistics. NULL with a message in err when a value is unusable (no
 * banks, more than 64 banks, nbk not a multiple of nbkgrp, a burst length
 * that is not a multiple of the frequency ratio, a zero width) or memory
 * is short. */
tm_dram *tm_dram_new(const tm_config *cfg, uint32_t channel_id, char *err, size_t errlen);
void tm_dram_free(tm_dram *d);

/* Set the options config.h lacks; call before the first push. */
void tm_dram_set_options(tm_dram *d, const tm_dram_options *o);

/* Whether tm_dram_push would take a request (a write or not) now: its
 * queue has room. */
bool tm_dram_can_accept(const tm_dram *d, bool is_write);

/* Queue request r (its kind and bytes matter; it comes back as the reply)
 * for bank (< nbk), row and column col, arriving at cycle now. false when
 * the queue is full (or, unlimited, memory is short): nothing changed. */
bool tm_dram_push(tm_dram *d, const tm_req *r, uint32_t bank, uint32_t row, uint32_t col,
                  uint64_t now);

/* Advance to cycle now (> the last cycle run) and run it: data bursts that
 * finished leave the bus, a waiting request may go to a free bank, and
 * commands issue. Cycles skipped since the last call in which something
 * could happen run first. */
void tm_dram_cycle(tm_dram *d, uint64_t now);

/* Take the oldest finished read (r->is_reply set), whose data finished
 * crossing the bus at or before the cycle last run; false when none. */
bool tm_dram_pop_reply(tm_dram *d, tm_req *out);

/* The earliest cycle after the last one run at which tm_dram_cycle could
 * change anything (a command, an assignment to a bank, the end of a data
 * burst); UINT64_MAX when the channel holds no request. Finished replies
 * waiting for tm_dram_pop_reply are not events. */
uint64_t tm_dram_next_event(const tm_dram *d);

/* Requests in the channel (waiting, at banks, with data on the bus, or
 * finished and not yet taken). */
uint32_t tm_dram_pending(const tm_dram *d);

const tm_dram_stats *tm_dram_get_stats(const tm_dram *d);

/* Bytes one column command moves (one sub-rank's burst). */
uint32_t tm_dram_burst_bytes(const tm_dram *d);

/* Sub-ranks (1 when not sub-ranked): each has a data bus, so bwutil counts
 * up to n_cmd * sub-ranks cycles. */
uint32_t tm_dram_subranks(const tm_dram *d);

/* Cycles, summed over the sub-ranks, in which the sub-rank had a row open
 * (active standby, for the energy model), from the start to the last
 * cycle run. The rest of n_cmd * sub-ranks is precharge standby. */
uint64_t tm_dram_open_cycles(const tm_dram *d);

/* A command as it issues (GPGPU-Sim prints these under DRAM_VIEWCMD):
 * cmd is 'A' (ACT), 'P' (PRE), 'R' (RD) or 'W' (WR); row is the row
 * opened, closed or accessed; tag the tm_req tag of the request served. */
typedef void (*tm_dram_trace_fn)(void *ctx, uint64_t cycle, char cmd, uint32_t bank, uint32_t row,
                                 uint32_t tag);

/* Call fn for every command from now on (NULL: stop). For checking and
 * debugging; costs one test per command when unset. */
void tm_dram_set_trace(tm_dram *d, tm_dram_trace_fn fn, void *ctx);

/* GPGPU-Sim-style report: a "DRAM[id]: ..." header with the timing, then
 * one "name = value" line per statistic (n_cmd, n_nop, n_act, n_pre, n_req,
 * n_rd, n_write, n_wr_bk, bw_util (= bwutil / (n_cmd x sub-ranks)), n_activity,
 * dram_eff (= bwutil / (n_activity x sub-ranks)), Row_Buffer_Locality(_read/_write), avg_mrq_latency,
 * maxmrqlatency — GPGPU-Sim's names — and simtlab's row_buffer_hits,
 * row_buffer_misses, avg_dram_latency, max_dram_latency (push to last data
 * beat), mrqq_max, mrqq_avg (waiting requests), and with row holds
 * row_holds, row_hold_hits, row_hold_timeouts, row_hold_hit_wait (their mean
 * wait)). */
void tm_dram_print_stats(const tm_dram *d, FILE *f);

#endif
