/* icnt.h — the interconnect between the SMs and the memory sub-partitions
 * (L2 slices): a crossbar with two subnetworks, requests towards memory
 * and replies towards the SMs.
 *
 * What it models (GPGPU-Sim's built-in "local xbar", -network_mode 2 of
 * the Accel-Sim configurations, local_interconnect.cc, with its
 * icnt_wrapper.cc options and defaults):
 *
 *  - Per subnetwork, one input queue per source and one output queue per
 *    destination, bounded in packets (-icnt_in_buffer_limit,
 *    -icnt_out_buffer_limit; defaults 64 and 64). A source asks
 *    tm_icnt_can_push before it pushes (GPGPU-Sim's icnt_has_buffer); a
 *    refusal counts as an input-buffer-full stall.
 *  - Each output takes packets from the inputs whose oldest packet is for
 *    it, round-robin: after input i wins an output, the output favours
 *    input i+1 next (the per-output pointer of GPGPU-Sim's iSLIP arbiter,
 *    -icnt_arbiter_algo 1, with -icnt_grant_cycles 1). A packet is granted
 *    only when its output queue has room for it.
 *  - Packet sizes as GPGPU-Sim sends them: a read request is its control
 *    header only (READ_PACKET_SIZE, 8 bytes); a write or atomic request
 *    carries its data (8 + data bytes, WRITE_PACKET_SIZE 8); a read or
 *    atomic reply carries data (8 + data bytes); a write acknowledgement
 *    is a header (8).
 *  - Subnetwork statistics with GPGPU-Sim's names (Req_Network_* and
 *    Reply_Network_*: injected packets, cycles, conflicts, in/out buffer
 *    full per cycle), plus flits and mean latency.
 *
 * Where it differs, deliberately:
 *  - GPGPU-Sim's local xbar moves a whole packet per output per cycle with
 *    no latency ("no flits are implemented"). Here a packet is
 *    ceil(bytes / flit_bytes) flits (-icnt_flit_size), and an output and
 *    an input each move one flit per interconnect cycle, so bandwidth
 *    depends on packet size; and a packet arrives a fixed traversal
 *    latency (-simtlab_icnt_latency) after its last flit leaves. With a
 *    40-byte flit (GPGPU-Sim's LOCAL_INCT_FLIT_SIZE) a 32-byte sector
 *    reply (8 + 32 bytes) is one flit, and latency 0 gives GPGPU-Sim's
 *    one packet per output per cycle.
 *  - A granted packet leaves its input queue at once and takes its slot in
 *    the output queue at once (a credit), while its flits cross and its
 *    latency runs; it can be popped from cycle t + flits + latency, where
 *    t is the cycle of its first flit. So a packet pushed at cycle t into
 *    an idle crossbar is delivered after latency + flits cycles.
 *  - GPGPU-Sim's iSLIP scans outputs in order and may let one input send
 *    to several outputs in a cycle; here an input sends one packet at a
 *    time, one flit per cycle.
 *
 * Times are interconnect cycles; the caller converts clock domains.
 * Everything is allocated in tm_icnt_new; per-cycle work is proportional
 * to the occupied queues (bitmaps of non-empty ones). */
#ifndef SIMTLAB_TIMING_ICNT_H
#define SIMTLAB_TIMING_ICNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "timing/request.h"

#define TM_ICNT_IN_BUFFER_DEFAULT 64u  /* -icnt_in_buffer_limit (packets) */
#define TM_ICNT_OUT_BUFFER_DEFAULT 64u /* -icnt_out_buffer_limit (packets) */
#define TM_ICNT_CTRL_BYTES 8u          /* READ_PACKET_SIZE = WRITE_PACKET_SIZE: the control header */

typedef enum tm_icnt_net {
    TM_ICNT_REQUEST, /* SM -> memory sub-partition */
    TM_ICNT_REPLY,   /* memory sub-partition -> SM */
    TM_ICNT_NETS
} tm_icnt_net;

typedef enum tm_icnt_status {
    TM_ICNT_OK,
    TM_ICNT_FULL,    /* the source's input queue is full: nothing changed */
    TM_ICNT_BAD_NODE /* source or destination out of range: nothing changed */
} tm_icnt_status;

typedef struct tm_icnt_stats {
    uint64_t packets;     /* injected (pushed): GPGPU-Sim's *_injected_packets_num */
    uint64_t delivered;   /* granted packets (their flits cross, then they arrive) */
    uint64_t flits;       /* flits of the granted packets */
    uint64_t latency_sum; /* over granted packets: arrival cycle - push cycle */
    uint64_t cycles;      /* interconnect cycles, 0 up to the last tm_icnt_cycle */
    uint64_t conflicts;   /* input-cycles a ready packet waited for an output another input held or won */
    uint64_t in_full;     /* refused tm_icnt_can_push calls: *_in_buffer_full */
    uint64_t out_full;    /* output-cycles packets waited because the output queue was full: *_out_buffer_full */
} tm_icnt_stats;

typedef struct tm_icnt tm_icnt;

/* A crossbar between n_sms SMs and n_subparts memory sub-partitions:
 * latency in interconnect cycles (config icnt_latency), flit_bytes
 * (config icnt_flit_bytes, >= 1), queue bounds in packets (>= 1; the
 * TM_ICNT_*_DEFAULT values are GPGPU-Sim's). NULL with a message in err
 * when a parameter is out of range or memory is short. */
tm_icnt *tm_icnt_new(uint32_t n_sms, uint32_t n_subparts, uint32_t latency, uint32_t flit_bytes, uint32_t in_buffer,
                     uint32_t out_buffer, char *err, size_t errlen);
void tm_icnt_free(tm_icnt *icnt);

/* Bytes of the packet carrying r on net (control header plus data, as
 * above), and the flits they take. */
uint32_t tm_icnt_packet_bytes(const tm_req *r, tm_icnt_net net);
uint32_t tm_icnt_packet_flits(const tm_icnt *icnt, const tm_req *r, tm_icnt_net net);

/* Whether source src (an SM on the request net, a sub-partition on the
 * reply net) may push a packet now; a refusal counts an in_full stall.
 * False for a source out of range. */
bool tm_icnt_can_push(tm_icnt *icnt, tm_icnt_net net, uint32_t src);

/* Queue r at source src for destination dst (a sub-partition on the
 * request net, an SM on the reply net), at interconnect cycle now. */
tm_icnt_status tm_icnt_push(tm_icnt *icnt, tm_icnt_net net, uint32_t src, uint32_t dst, const tm_req *r,
                            uint64_t now);

/* Advance both subnetworks by interconnect cycle now (call with now
 * increasing; cycles skipped because tm_icnt_next_event said nothing
 * happens are fine). */
void tm_icnt_cycle(tm_icnt *icnt, uint64_t now);

/* The oldest packet for destination dst that has arrived by cycle now, or
 * NULL; tm_icnt_pop removes it (false when there is none). */
const tm_req *tm_icnt_peek(const tm_icnt *icnt, tm_icnt_net net, uint32_t dst, uint64_t now);
bool tm_icnt_pop(tm_icnt *icnt, tm_icnt_net net, uint32_t dst, uint64_t now, tm_req *out);

/* The first destination >= from on net whose output queue holds a packet
 * (arrived or still crossing), UINT32_MAX when none: the callers visit
 * only those destinations. */
uint32_t tm_icnt_next_busy_dst(const tm_icnt *icnt, tm_icnt_net net, uint32_t from);

/* The earliest cycle >= now at which the crossbar moves a flit or a packet
 * arrives at an output queue (a packet arriving at now itself counts);
 * UINT64_MAX when nothing is on its way. Packets that arrived before now
 * and wait to be popped, and packets waiting for room in a full output
 * queue, are not events: the consumer's pop is. */
uint64_t tm_icnt_next_event(const tm_icnt *icnt, uint64_t now);

/* True when no packet is queued, crossing or waiting anywhere. */
bool tm_icnt_idle(const tm_icnt *icnt);

const tm_icnt_stats *tm_icnt_stats_of(const tm_icnt *icnt, tm_icnt_net net);

/* GPGPU-Sim's statistic lines (Req_Network_injected_packets_num = ...,
 * and Reply_Network_*), then simtlab's flits and mean latency. */
void tm_icnt_print_stats(const tm_icnt *icnt, FILE *f);

#endif
