/* smem_banks.c — shared-memory bank-conflict cycles of one warp access
 * (the model and its GPGPU-Sim reference are described in smem_banks.h). */
#include "timing/smem_banks.h"

#include <stdio.h>

/* Cost of one sub-warp without limited broadcast: the most distinct words
 * any bank holds. word[]/bank[] list the sub-warp's active lanes. */
static uint32_t distinct_words_per_bank(const uint64_t *word, const uint32_t *bank, uint32_t n)
{
    /* the common case first: no bank holds two distinct words (cost 1),
     * found in one pass (banks number at most 1024) */
    uint64_t seen[1024 / 64] = {0}, first[1024];
    uint32_t i = 0;
    for (; i < n; i++) {
        uint32_t b = bank[i];
        if (!(seen[b / 64] >> (b % 64) & 1)) {
            seen[b / 64] |= 1ull << (b % 64);
            first[b] = word[i];
        } else if (first[b] != word[i]) {
            break; /* a conflict: count it below */
        }
    }
    if (i == n)
        return n ? 1 : 0;
    uint64_t dword[32];
    uint32_t dbank[32], d = 0;
    for (i = 0; i < n; i++) { /* the distinct words, with their banks */
        uint32_t j = 0;
        while (j < d && dword[j] != word[i])
            j++;
        if (j == d) {
            dword[d] = word[i];
            dbank[d++] = bank[i];
        }
    }
    uint32_t worst = 0;
    for (uint32_t k = 0; k < d; k++) {
        uint32_t in_bank = 0;
        for (uint32_t j = 0; j < d; j++)
            in_bank += dbank[j] == dbank[k];
        if (in_bank > worst)
            worst = in_bank;
    }
    return worst;
}

/* Cost of one sub-warp with limited broadcast: per bank, one cycle per
 * lane, except that the lanes sharing the broadcast word — the repeated
 * word first in (bank, word) order — cost one together; the worst bank. */
static uint32_t limited_broadcast_cost(const uint64_t *word, const uint32_t *bank, uint32_t n)
{
    bool have = false;
    uint64_t bc_word = 0;
    uint32_t bc_bank = 0, bc_lanes = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t same = 0;
        for (uint32_t j = 0; j < n; j++)
            same += word[j] == word[i];
        if (same < 2)
            continue;
        if (!have || bank[i] < bc_bank || (bank[i] == bc_bank && word[i] < bc_word)) {
            have = true;
            bc_bank = bank[i];
            bc_word = word[i];
            bc_lanes = same;
        }
    }
    uint32_t worst = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t lanes = 0;
        for (uint32_t j = 0; j < n; j++)
            lanes += bank[j] == bank[i];
        if (have && bank[i] == bc_bank)
            lanes -= bc_lanes - 1;
        if (lanes > worst)
            worst = lanes;
    }
    return worst;
}

/* Does no bank hold two distinct words among lanes lo..hi-1 (power-of-two
 * banks, at most 64)? The common access, told in one pass with a mask. */
static bool no_conflict(const tm_smem_params *p, uint32_t active, const uint64_t *addr, uint32_t lo, uint32_t hi)
{
    uint64_t seen = 0, first[64];
    for (uint32_t lane = lo; lane < hi; lane++) {
        if (!((active >> lane) & 1))
            continue;
        uint64_t word = addr[lane] / TM_SMEM_WORD_BYTES;
        uint32_t bank = (uint32_t)(word & (p->n_banks - 1));
        if (!(seen >> bank & 1)) {
            seen |= 1ull << bank;
            first[bank] = word;
        } else if (first[bank] != word) {
            return false;
        }
    }
    return true;
}

/* Do all lanes lo..hi-1 (every one active) read words of one aligned
 * block of n_banks words (a power of two)? Then their distinct words fall
 * in distinct banks, so no bank holds two: the usual access (consecutive
 * words, one word for all, a tile's rows) told by the bits the addresses
 * differ in, a loop without branches. */
static bool one_bank_block(const tm_smem_params *p, const uint64_t *addr, uint32_t lo, uint32_t hi)
{
    uint64_t differ = 0;
    for (uint32_t lane = lo; lane < hi; lane++)
        differ |= addr[lane] ^ addr[lo];
    return differ < (uint64_t)TM_SMEM_WORD_BYTES * p->n_banks;
}

int tm_smem_cycles(const tm_smem_params *p, uint32_t active, const uint64_t *addr, uint32_t bytes, uint32_t *cycles,
                   char *err, size_t errlen)
{
    *cycles = 0;
    const char *why = NULL;
    if (p->warp_size == 0 || p->warp_size > 32)
        why = "warp size is not 1..32";
    else if (p->n_banks == 0 || p->n_banks > 1024)
        why = "bank count is not 1..1024";
    else if (p->warp_parts == 0 || p->warp_parts > p->warp_size || p->warp_size % p->warp_parts)
        why = "warp parts do not divide the warp";
    else if (p->warp_size < 32 && (active >> p->warp_size))
        why = "active mask names lanes beyond the warp size";
    else if (bytes == 0 || bytes > 32 || (bytes & (bytes - 1)))
        why = "bytes per lane is not a power of two up to 32";
    else if (active && !addr)
        why = "active lanes but no addresses";
    if (why) {
        if (err && errlen)
            snprintf(err, errlen, "shared memory banks: %s (warp %u, banks %u, parts %u, mask 0x%08x, %u bytes)", why,
                     p->warp_size, p->n_banks, p->warp_parts, active, bytes);
        return -1;
    }
    uint32_t lanes = p->warp_size / p->warp_parts;
    bool pow2 = !(p->n_banks & (p->n_banks - 1)); /* (the usual case: a mask, not a division per lane) */
    for (uint32_t lo = 0; lo < p->warp_size; lo += lanes) {
        uint32_t sub = (uint32_t)((1ull << lanes) - 1) << lo; /* the sub-warp's lanes */
        if (pow2 && !p->limited_broadcast && (active & sub) == sub && one_bank_block(p, addr, lo, lo + lanes)) {
            *cycles += 1;
            continue;
        }
        if (pow2 && p->n_banks <= 64 && !p->limited_broadcast && no_conflict(p, active, addr, lo, lo + lanes)) {
            *cycles += (active & sub) != 0;
            continue;
        }
        uint64_t word[32];
        uint32_t bank[32], n = 0;
        for (uint32_t lane = lo; lane < lo + lanes; lane++) {
            if (!((active >> lane) & 1))
                continue;
            word[n] = addr[lane] / TM_SMEM_WORD_BYTES;
            bank[n] = (uint32_t)(pow2 ? word[n] & (p->n_banks - 1) : word[n] % p->n_banks);
            n++;
        }
        *cycles += p->limited_broadcast ? limited_broadcast_cost(word, bank, n) : distinct_words_per_bank(word, bank, n);
    }
    return 0;
}
