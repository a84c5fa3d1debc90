/* coalescer.h — the LD/ST unit's coalescer: one warp memory instruction's
 * per-lane accesses become the memory requests the L1 and L2 see.
 *
 * What it models (GPGPU-Sim's warp_inst_t::memory_coalescing_arch and
 * memory_coalescing_arch_atomic in abstract_hardware_model.cc, on the
 * path its -gpgpu_coalesce_arch >= 40 takes: Maxwell and later, sm_70+,
 * where L1 and L2 are sectored and every transaction is a 32-byte sector):
 *
 *  - The warp is split into sub-warps of consecutive lanes (GPGPU-Sim's
 *    -gpgpu_shmem_warp_parts, which it uses for global and local memory
 *    too, whatever the access size). Each sub-warp is coalesced alone, so
 *    two sub-warps touching one line make two requests.
 *  - Within a sub-warp, every 32-byte sector any active lane touches is
 *    fetched once; lanes reading the same bytes are merged. An access
 *    that straddles a sector or a 128-byte line touches both (GPGPU-Sim's
 *    trace-driven special case).
 *  - Atomics: lanes share a request only while their bytes do not
 *    overlap; a lane whose bytes collide with every request made so far
 *    for its sector starts another, so k lanes on one address make k
 *    requests (GPGPU-Sim's first-fit transaction list per segment).
 *    Atomics must be naturally aligned and global (GPGPU-Sim asserts the
 *    same: no straddling, global space only).
 *  - Local memory: GPGPU-Sim splits a local access of 4 bytes or more into
 *    4-byte pieces at the per-thread addresses its functional model gives;
 *    here the caller gives one address per lane (already laid out as it
 *    wants local memory interleaved), and the pieces of an access touch
 *    the same sectors as the whole, so local is coalesced as global.
 *  - Order: by sub-warp, then by ascending address (GPGPU-Sim walks a
 *    std::map keyed by address), then, for atomics, by creation.
 *
 * Where it differs, deliberately:
 *  - By default a request is one 128-byte line with the mask of its
 *    touched sectors (tm_req.sectors): the L1/L2 of this model take a
 *    sector mask. GPGPU-Sim emits one 32-byte access per sector; set
 *    per_sector for that (the same sectors, split). Atomic requests in
 *    line mode group GPGPU-Sim's per-sector transactions of one line by
 *    their creation round (the i-th transaction of each sector of the
 *    line travel together): the same sectors, fewer requests.
 *  - warp_parts 0 selects sub-warps by access size, the hardware rule of
 *    128 bytes of lane data per sub-warp (32 lanes for accesses up to 4
 *    bytes, 16 for 8, 8 for 16, 4 for 32); GPGPU-Sim has no such mode.
 *  - tm_req.bytes is 32 x the number of sectors (the data a request moves
 *    at sector granularity), as GPGPU-Sim's access size is 32 per sector.
 *
 * The constant cache rule (tm_const_accesses): GPGPU-Sim makes one access
 * per distinct constant-cache line the warp's lanes read (block size
 * = the const L1 line, -gpgpu_const_cache:l1's <bsize>) and the LD/ST unit
 * serves one access per cycle, so a warp's constant load takes as many
 * cycles as it touches distinct lines; all lanes reading one address is a
 * broadcast, one cycle. With granule_bytes 4 the same function counts
 * distinct 32-bit words instead, the rule NVIDIA's programming guide
 * states for the hardware constant cache ("distinct addresses").
 *
 * Nothing is allocated: requests go into the caller's array. */
#ifndef SIMTLAB_TIMING_COALESCER_H
#define SIMTLAB_TIMING_COALESCER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "timing/request.h"

/* The most requests one warp instruction makes: 32 lanes, each touching at
 * most two sectors (or two lines) when its access straddles a boundary. */
#define TM_COALESCE_MAX_REQS 64u
/* The largest per-lane access: a vector of elements (size x count). */
#define TM_COALESCE_MAX_LANE_BYTES 32u
/* GPGPU-Sim's default -gpgpu_shmem_warp_parts (Accel-Sim's tested A100
 * configuration sets 1). */
#define TM_MEM_WARP_PARTS_DEFAULT 2u

/* One warp memory instruction, as the emulator reports it. */
typedef struct tm_warp_access {
    uint32_t active;      /* bit i: lane i takes part */
    const uint64_t *addr; /* addr[i]: first byte lane i touches (warp_size entries) */
    uint32_t bytes;       /* bytes per lane: 1, 2, 4, 8, 16 or 32 (vectors: size x elements) */
    tm_req_kind kind;     /* TM_REQ_READ, TM_REQ_WRITE or TM_REQ_ATOMIC */
    tm_req_space space;   /* TM_SPACE_GLOBAL or TM_SPACE_LOCAL (atomics: global) */
} tm_warp_access;

typedef struct tm_coalesce_params {
    uint32_t warp_size;   /* lanes per warp, 1..32 */
    uint32_t warp_parts;  /* sub-warps (-gpgpu_shmem_warp_parts), dividing warp_size; 0: by access size */
    bool per_sector;      /* one request per 32-byte sector, as GPGPU-Sim; false: one per line */
} tm_coalesce_params;

/* Coalesce one warp access into out[0..*n_out). Each request's addr is
 * its 128-byte line (or, per_sector, its 32-byte sector), sectors its
 * touched sectors of that line, bytes 32 per sector, kind and space the
 * access's, lanes the active lanes touching those sectors; sm, warp, tag
 * and t_made are copied from proto (zero when proto is NULL). Returns 0, or -1 with a message in err when the
 * parameters or the access are invalid or out_cap is too small
 * (TM_COALESCE_MAX_REQS always suffices); nothing is truncated. */
int tm_coalesce(const tm_coalesce_params *p, const tm_warp_access *a, const tm_req *proto, tm_req *out,
                uint32_t out_cap, uint32_t *n_out, char *err, size_t errlen);

/* A constant (or kernel parameter) load: the distinct granule_bytes-sized
 * blocks holding the active lanes' addresses (first byte of each lane),
 * counted into *n_blocks — the cycles the constant cache spends on the
 * warp. When out is not NULL, one TM_REQ_READ of space TM_SPACE_CONST per
 * block (ascending addresses) goes into out[0..*n_blocks): addr the
 * block, bytes granule_bytes, sectors the 32-byte sectors of its 128-byte
 * line the block covers, lanes the active lanes reading in it.
 * granule_bytes: a power of two from 4 to 128 (the const L1 line size for
 * GPGPU-Sim's behaviour, 4 for per-word). Returns 0, or -1 with a message
 * in err. */
int tm_const_accesses(const tm_warp_access *a, uint32_t warp_size, uint32_t granule_bytes, const tm_req *proto,
                      tm_req *out, uint32_t out_cap, uint32_t *n_blocks, char *err, size_t errlen);

#endif
