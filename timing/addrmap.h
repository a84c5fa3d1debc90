/* addrmap.h — address decoding: which DRAM channel, L2 sub-partition,
 * bank, row and column a global byte address lives in.
 *
 * What it models: GPGPU-Sim's address decoder (addrdec), configured by
 * -gpgpu_mem_addr_mapping (the masks of tm_addrmap, config.h),
 * -gpgpu_n_mem (channels) and -gpgpu_n_sub_partition_per_mchannel.
 *
 * Behaviour matched:
 * - A field's value is the address bits under its mask packed together,
 *   lowest bit first (bit i of the mask that is the k-th set bit, counting
 *   from bit 0, becomes bit k of the value). The column takes the C and
 *   the S (burst offset) bits; the burst field takes the S bits alone.
 * - dramid@N: the channel is (addr >> N) mod n_channels, and the other
 *   fields are taken from the address with the channel removed:
 *   ((addr >> N) / n_channels) << N | (addr's bits below N). For a
 *   power-of-two channel count this is exactly GPGPU-Sim's insertion of
 *   log2(n) channel bits at bit N (the mapping string's masks then
 *   describe the address with those bits taken out); for other counts it
 *   is GPGPU-Sim's modulo/quotient rule.
 * - Without dramid@N the D bits give the channel (their count must be
 *   log2 of the channel count, a power of two).
 * - The sub-partition (L2 slice) is channel * n_sub + (bank mod n_sub):
 *   the low bits of the bank field choose the slice within the channel.
 * - -memory_partition_indexing 0 (GPGPU-Sim's default: no hashing of the
 *   channel). The hashed indexings (XOR, IPoly, PAE, random) are not
 *   modelled; tm_addrmap has no field for them.
 * - The partition address (GPGPU-Sim's partition_address(), what the L2
 *   slice indexes its sets with) drops the channel and the sub-partition
 *   bits.
 *
 * Differences: GPGPU-Sim asserts (aborts) on a bad mapping; here
 * tm_addrdec_init reports it. GPGPU-Sim accepts D masks with fewer bits
 * than the channel count needs (channels left unused); that is refused
 * here as an almost certain configuration mistake. */
#ifndef SIMTLAB_TIMING_ADDRMAP_H
#define SIMTLAB_TIMING_ADDRMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "timing/config.h"

/* A decoded address. */
typedef struct tm_dram_addr {
    uint32_t chip;           /* DRAM channel (memory partition), < n_channels */
    uint32_t sub_partition;  /* global L2 slice id, < n_channels * n_sub */
    uint32_t bank, row, col; /* col includes the burst-offset (S) bits */
    uint32_t burst;          /* the S bits alone */
} tm_dram_addr;

/* A field's mask as its runs of consecutive bits, each moved down into
 * place: the field is the sum of (addr & mask[i]) >> shift[i] (decoding
 * runs for every request, so the runs are found once). */
typedef struct tm_bitfield {
    uint32_t n;
    uint64_t mask[32];
    uint8_t shift[32];
} tm_bitfield;

/* The decoder: the mapping plus the partition counts, checked once. */
typedef struct tm_addrdec {
    tm_addrmap map;
    uint32_t n_channels, n_sub;   /* channels, sub-partitions per channel */
    uint64_t sub_mask;            /* bits (in field coordinates) that pick the sub-partition */
    tm_bitfield chip, bank, row, col, burst, partition; /* partition: what the partition address keeps */
} tm_addrdec;

/* Check map against n_channels and n_sub (sub-partitions per channel) and
 * fill d. false with a message in err when the mapping is unusable:
 * overlapping fields, D bits together with dramid@N, a D-bit count that
 * does not match the channel count, a sub-partition count that is not a
 * power of two or has fewer bank bits than it needs. */
bool tm_addrdec_init(tm_addrdec *d, const tm_addrmap *map, uint32_t n_channels, uint32_t n_sub,
                     char *err, size_t errlen);

/* Check that every bank the mapping can produce exists in a channel of
 * nbk banks (and that nbk is a multiple of the sub-partition count, as
 * GPGPU-Sim requires); false with a message otherwise. */
bool tm_addrdec_check_banks(const tm_addrdec *d, uint32_t nbk, char *err, size_t errlen);

/* Decode a global byte address. */
void tm_addrdec_decode(const tm_addrdec *d, uint64_t addr, tm_dram_addr *out);

/* The address within its sub-partition: channel and sub-partition bits
 * removed (the L2 slice's set index reads this). */
uint64_t tm_addrdec_partition_addr(const tm_addrdec *d, uint64_t addr);

/* The inverse of decode over the mapped bits: the address with channel
 * a->chip, bank, row and col (a->sub_partition and a->burst are implied
 * by those and ignored); bits outside every mask are 0. */
uint64_t tm_addrdec_encode(const tm_addrdec *d, const tm_dram_addr *a);

#endif
