/* smem_banks.h — shared-memory bank conflicts: how many cycles one warp's
 * shared-memory access occupies the shared-memory pipeline.
 *
 * What it models (GPGPU-Sim's shared_space case of
 * warp_inst_t::generate_mem_accesses in abstract_hardware_model.cc; the
 * result is its `cycles`, the instruction's initiation interval in the
 * LD/ST unit, which ldst_unit::shared_cycle counts down):
 *
 *  - Shared memory is n_banks banks (-gpgpu_shmem_num_banks) of 4-byte
 *    words; word w = addr / 4 lives in bank w mod n_banks.
 *  - The warp is split into warp_parts sub-warps of consecutive lanes
 *    (-gpgpu_shmem_warp_parts); the sub-warps' costs add up.
 *  - In a sub-warp, lanes reading the same word are served together;
 *    different words of one bank serialize. Without limited broadcast
 *    (-gpgpu_shmem_limited_broadcast 0, as Accel-Sim's A100 config sets) a
 *    sub-warp costs the largest number of distinct words any one bank
 *    holds. With limited broadcast (GPGPU-Sim's default) only one word
 *    per sub-warp is broadcast — the first word, in ascending bank then
 *    address order, that two or more lanes read — and every other lane
 *    access costs its bank a cycle, repeated ones included.
 *  - 8- and 16-byte (and vector) accesses: GPGPU-Sim looks at each lane's
 *    first address only (memreqaddr[0]): the bank of the lane's first
 *    word. This unit does the same. For naturally aligned patterns this
 *    matches the per-word view of the hardware (a 64-bit access of 32
 *    consecutive lanes costs 2, a 128-bit one 4): a lane's words sit in
 *    consecutive banks, so every bank sees the same number of distinct
 *    words as the lanes' first words give it.
 *  - Atomics on shared memory take the same path in GPGPU-Sim (it has no
 *    shared-atomic special case): lanes on one word count as a broadcast.
 *    This unit follows it; hardware serializes same-address atomics, so a
 *    model wanting that must count them itself.
 *  - An instruction with no active lane costs 0 (GPGPU-Sim never gets
 *    there: a predicated-off warp makes no accesses).
 *
 * Nothing is allocated; the work is proportional to the active lanes. */
#ifndef SIMTLAB_TIMING_SMEM_BANKS_H
#define SIMTLAB_TIMING_SMEM_BANKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* GPGPU-Sim's shared-memory word (WORD_SIZE): the width of one bank. */
#define TM_SMEM_WORD_BYTES 4u

typedef struct tm_smem_params {
    uint32_t warp_size;       /* lanes per warp, 1..32 */
    uint32_t n_banks;         /* -gpgpu_shmem_num_banks (config shmem_banks), 1..1024 */
    uint32_t warp_parts;      /* -gpgpu_shmem_warp_parts (GPGPU-Sim's default 2; its A100 config 1), dividing warp_size */
    bool limited_broadcast;   /* -gpgpu_shmem_limited_broadcast (GPGPU-Sim's default 1; its A100 config 0) */
} tm_smem_params;

/* The cycles one warp shared-memory access takes: active lanes (bit i:
 * lane i), addr[i] the shared-memory byte address of lane i, bytes per
 * lane (a power of two up to 32; only each lane's first word counts, as
 * above). Returns 0 with *cycles set, or -1 with a message in err when
 * the parameters or the access are invalid. */
int tm_smem_cycles(const tm_smem_params *p, uint32_t active, const uint64_t *addr, uint32_t bytes, uint32_t *cycles,
                   char *err, size_t errlen);

#endif
