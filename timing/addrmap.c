/* addrmap.c — address decoding (addrmap.h): GPGPU-Sim's addrdec rules in
 * one formula for both dramid@N cases and for explicit D bits. */
#include "timing/addrmap.h"

#include <stdio.h>

/* The runs of consecutive set bits of mask, each with the shift that
 * packs it below the runs before it: field_of then gives the bits of a
 * value under mask packed together, lowest first (what x86's pext does). */
static tm_bitfield field_runs(uint64_t mask)
{
    tm_bitfield f = {0};
    for (uint32_t k = 0; mask;) {
        uint32_t lo = (uint32_t)__builtin_ctzll(mask);
        uint64_t run = ((mask + (mask & -mask)) ^ mask) & mask; /* (the carry out of bit 63 gives 0) */
        f.mask[f.n] = run;
        f.shift[f.n++] = (uint8_t)(lo - k); /* (k <= lo: the k bits packed so far lie below this run) */
        k += 64 - (uint32_t)__builtin_clzll(run >> lo);
        mask &= ~run;
    }
    return f;
}

/* The bits of val under field f's mask, packed together lowest first. */
static uint64_t field_of(const tm_bitfield *f, uint64_t val)
{
    uint64_t out = 0;
    for (uint32_t i = 0; i < f->n; i++)
        out |= (val & f->mask[i]) >> f->shift[i];
    return out;
}

/* The inverse of field_of: the low bits of val spread over mask's set
 * bits, lowest first (pdep). */
static uint64_t spread_bits(uint64_t mask, uint64_t val)
{
    uint64_t out = 0;
    for (uint32_t k = 0; mask;) {
        uint32_t lo = (uint32_t)__builtin_ctzll(mask);
        uint64_t run = ((mask + (mask & -mask)) ^ mask) & mask;
        out |= ((val >> k) << lo) & run;
        k += 64 - (uint32_t)__builtin_clzll(run >> lo);
        mask &= ~run;
    }
    return out;
}

static uint32_t bit_count(uint64_t m) { return (uint32_t)__builtin_popcountll(m); }

static bool is_pow2(uint32_t v) { return v && !(v & (v - 1)); }

/* log2 of a power of two. */
static uint32_t log2_pow2(uint32_t v) { return (uint32_t)__builtin_ctz(v); }

/* The column with its burst-offset bits: config.h lets S bits be in the
 * burst mask alone or in both; the column always has them. */
static uint64_t col_mask(const tm_addrmap *m) { return m->col_mask | m->burst_mask; }

bool tm_addrdec_init(tm_addrdec *d, const tm_addrmap *map, uint32_t n_channels, uint32_t n_sub,
                     char *err, size_t errlen)
{
    const tm_addrmap *m = map;
    if (n_channels == 0) {
        snprintf(err, errlen, "-gpgpu_n_mem: the number of DRAM channels must be at least 1");
        return false;
    }
    if (!is_pow2(n_sub)) {
        snprintf(err, errlen, "-gpgpu_n_sub_partition_per_mchannel %u: must be a power of two", n_sub);
        return false;
    }
    uint64_t fields[] = {m->chip_mask, m->bank_mask, m->row_mask, col_mask(m)};
    const char *names[] = {"D (channel)", "B (bank)", "R (row)", "C/S (column)"};
    for (int i = 0; i < 4; i++) {
        for (int j = i + 1; j < 4; j++)
            if (fields[i] & fields[j]) {
                snprintf(err, errlen, "-gpgpu_mem_addr_mapping: the %s and %s bits overlap (0x%llx)",
                         names[i], names[j], (unsigned long long)(fields[i] & fields[j]));
                return false;
            }
        if (bit_count(fields[i]) > 32) {
            snprintf(err, errlen, "-gpgpu_mem_addr_mapping: %u %s bits, at most 32 are supported",
                     bit_count(fields[i]), names[i]);
            return false;
        }
    }
    if (m->dramid_bit >= 0) {
        if (m->dramid_bit > 63) {
            snprintf(err, errlen, "-gpgpu_mem_addr_mapping: dramid@%d is past bit 63", m->dramid_bit);
            return false;
        }
        if (m->chip_mask) {
            snprintf(err, errlen, "-gpgpu_mem_addr_mapping: D bits and dramid@%d both give the channel",
                     m->dramid_bit);
            return false;
        }
    } else if (!is_pow2(n_channels) || bit_count(m->chip_mask) != log2_pow2(n_channels)) {
        snprintf(err, errlen,
                 "-gpgpu_mem_addr_mapping: %u D bits cannot number %u channels (explicit D bits need "
                 "a power-of-two channel count and log2 of it as bits; use dramid@N otherwise)",
                 bit_count(m->chip_mask), n_channels);
        return false;
    }
    uint32_t sub_bits = log2_pow2(n_sub);
    if (bit_count(m->bank_mask) < sub_bits) {
        snprintf(err, errlen,
                 "-gpgpu_mem_addr_mapping: %u bank bits cannot pick among %u sub-partitions per channel",
                 bit_count(m->bank_mask), n_sub);
        return false;
    }
    d->map = *m;
    d->n_channels = n_channels;
    d->n_sub = n_sub;
    d->sub_mask = 0; /* the lowest sub_bits bits of the bank field */
    uint64_t b = m->bank_mask;
    for (uint32_t k = 0; k < sub_bits; k++, b &= b - 1)
        d->sub_mask |= b & -b;
    d->chip = field_runs(m->chip_mask);
    d->bank = field_runs(m->bank_mask);
    d->row = field_runs(m->row_mask);
    d->col = field_runs(col_mask(m));
    d->burst = field_runs(m->burst_mask);
    d->partition = field_runs(~(m->chip_mask | d->sub_mask));
    return true;
}

bool tm_addrdec_check_banks(const tm_addrdec *d, uint32_t nbk, char *err, size_t errlen)
{
    uint32_t bits = bit_count(d->map.bank_mask);
    if (bits >= 32 || (1u << bits) > nbk) {
        snprintf(err, errlen, "-gpgpu_mem_addr_mapping: %u bank bits address more than the %u banks "
                 "of -gpgpu_dram_timing_opt nbk", bits, nbk);
        return false;
    }
    if (nbk % d->n_sub) {
        snprintf(err, errlen, "nbk=%u is not a multiple of -gpgpu_n_sub_partition_per_mchannel %u",
                 nbk, d->n_sub);
        return false;
    }
    return true;
}

/* Split addr into its channel and the address the field masks apply to
 * (the channel removed when it comes from dramid@N). */
static uint64_t split_channel(const tm_addrdec *d, uint64_t addr, uint32_t *chip)
{
    if (d->map.dramid_bit < 0) {
        *chip = (uint32_t)field_of(&d->chip, addr);
        return addr;
    }
    uint32_t n = (uint32_t)d->map.dramid_bit;
    uint64_t high = addr >> n, low = addr & ((1ull << n) - 1);
    *chip = (uint32_t)(high % d->n_channels);
    return (high / d->n_channels) << n | low;
}

void tm_addrdec_decode(const tm_addrdec *d, uint64_t addr, tm_dram_addr *out)
{
    uint64_t rest = split_channel(d, addr, &out->chip);
    out->bank = (uint32_t)field_of(&d->bank, rest);
    out->row = (uint32_t)field_of(&d->row, rest);
    out->col = (uint32_t)field_of(&d->col, rest);
    out->burst = (uint32_t)field_of(&d->burst, rest);
    out->sub_partition = out->chip * d->n_sub + (out->bank & (d->n_sub - 1));
}

uint64_t tm_addrdec_partition_addr(const tm_addrdec *d, uint64_t addr)
{
    uint32_t chip;
    uint64_t rest = split_channel(d, addr, &chip);
    return field_of(&d->partition, rest);
}

uint64_t tm_addrdec_encode(const tm_addrdec *d, const tm_dram_addr *a)
{
    uint64_t rest = spread_bits(d->map.bank_mask, a->bank) | spread_bits(d->map.row_mask, a->row) |
                    spread_bits(col_mask(&d->map), a->col);
    if (d->map.dramid_bit < 0)
        return rest | spread_bits(d->map.chip_mask, a->chip);
    uint32_t n = (uint32_t)d->map.dramid_bit;
    uint64_t low = rest & ((1ull << n) - 1);
    return ((rest >> n) * d->n_channels + a->chip) << n | low;
}
