/* mempart.h — a memory partition: one DRAM channel and the L2 slices
 * (sub-partitions, -gpgpu_n_sub_partition_per_mchannel) in front of it.
 *
 * A request from the interconnect waits -gpgpu_l2_rop_latency L2 cycles
 * (GPGPU-Sim's ROP queue), then accesses its L2 slice: a hit answers at
 * once, a miss reaches the channel's DRAM scheduler -dram_latency L2
 * cycles later (GPGPU-Sim counts them in core cycles; the presets but
 * H100 run L2 and core at one clock) and answers when the fill returns.
 * Both waits are pipelines: their queues hold at least as many requests
 * as they have cycles of latency (GPGPU-Sim's ROP queue has no bound), so
 * a long latency costs time, not bandwidth. Writes and write-backs answer
 * nothing (the SMs wait for
 * no acknowledgement); atomics are performed at the L2 and answer with
 * the line's data. Answers leave towards the interconnect's reply
 * network in the order they became ready. A sectored L2 takes one 32-byte
 * sector per access, so a request for several sectors (an instruction
 * fetch, a constant-cache line) is split into sector requests on arrival
 * and answered once all of them are, as GPGPU-Sim's memory sub-partition
 * does (breakdown_request_to_sector_requests); likewise an L2 that is not
 * sectored takes one line per access, so a request wider than its lines
 * (a 256-byte instruction line over 64-byte L2 lines) becomes one access
 * per line. The pieces are served by the slice the request reached: the
 * request's address picked it (as for a whole line in GPGPU-Sim). */
#ifndef SIMTLAB_TIMING_MEMPART_H
#define SIMTLAB_TIMING_MEMPART_H

#include <stdbool.h>
#include <stdint.h>

#include "timing/addrmap.h"
#include "timing/cache.h"
#include "timing/config.h"
#include "timing/dram.h"
#include "timing/request.h"

/* A request in the ROP queue, due at an L2 cycle. */
typedef struct tm_rop_entry {
    tm_req r;
    uint64_t due;
} tm_rop_entry;

/* A request split into sector requests, waiting for their answers. */
typedef struct tm_split {
    tm_req orig;
    uint32_t remaining;       /* 0: the entry is free */
} tm_split;

/* One L2 slice. */
typedef struct tm_l2slice {
    uint32_t id;              /* global sub-partition number */
    tm_cache *l2;
    tm_split *splits;         /* TM_SPLITS entries */
    tm_rop_entry *rop;        /* ring */
    uint32_t rop_cap, rop_head, rop_n;
    tm_queue replies;         /* answers towards the interconnect */
} tm_l2slice;

/* One channel with its slices. */
typedef struct tm_mempart {
    uint32_t channel;
    const tm_config *cfg;
    const tm_addrdec *dec;
    tm_dram *dram;
    uint64_t dram_now;        /* the DRAM clock's current cycle (what tm_dram_push takes) */
    tm_rop_entry *delay;      /* L2 misses on their way to DRAM (-dram_latency), a ring */
    uint32_t delay_cap, delay_head, delay_n;
    tm_l2slice *slices;       /* n_sub_partition_per_mchannel */
    uint32_t nslices;
    char error[200];          /* set when an L2 refused a request as malformed (a model error) */
} tm_mempart;

bool tm_mempart_init(tm_mempart *mp, const tm_config *cfg, const tm_addrdec *dec, uint32_t channel, char *err,
                     size_t errlen);
void tm_mempart_free(tm_mempart *mp);
/* Room in slice k's ROP queue for request r (all its sector requests). */
bool tm_mempart_can_accept(const tm_mempart *mp, uint32_t k, const tm_req *r);
/* A request for slice k arrives at L2 cycle now. */
void tm_mempart_push(tm_mempart *mp, uint32_t k, const tm_req *r, uint64_t now);
/* One L2 cycle of the slices. */
void tm_mempart_l2_cycle(tm_mempart *mp, uint64_t now);
/* One DRAM command cycle of the channel (and the fills it returns). */
void tm_mempart_dram_cycle(tm_mempart *mp, uint64_t l2_now, uint64_t now);
/* Nothing queued or in flight. */
bool tm_mempart_idle(const tm_mempart *mp);

#endif
