/* test_smem_banks.c — shared-memory bank-conflict cycles
 * (timing/smem_banks.h).
 *
 * Expected cycle counts are derived by hand from the bank rule the unit
 * states (GPGPU-Sim's: word = addr / 4, bank = word mod n_banks; per
 * sub-warp, the most distinct words in one bank, or with limited
 * broadcast the most lane accesses in one bank after one broadcast word's
 * repeats are discounted); each derivation is beside its assertion. One
 * test compares with a reference written here that counts, for every
 * bank, the distinct words of each sub-warp with a plain table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "timing/smem_banks.h"

/* As Accel-Sim's A100 configuration: 32 banks, one sub-warp, unlimited broadcast. */
static const tm_smem_params VOLTA = {.warp_size = 32, .n_banks = 32, .warp_parts = 1, .limited_broadcast = false};

static uint32_t cycles_of(const tm_smem_params *p, uint32_t active, const uint64_t *addr, uint32_t bytes)
{
    uint32_t c = 999;
    char err[200] = "";
    if (tm_smem_cycles(p, active, addr, bytes, &c, err, sizeof err))
        fail_msg("tm_smem_cycles failed: %s", err);
    return c;
}

/* Lane i reads 4-byte word stride*i (from a base word). */
static void strided(uint64_t *addr, uint64_t base, uint32_t stride_bytes)
{
    for (uint32_t i = 0; i < 32; i++)
        addr[i] = base + (uint64_t)stride_bytes * i;
}

/* Consecutive words: word i in bank i, 32 banks, one word each: 1 cycle. */
static void test_consecutive_no_conflict(void **state)
{
    (void)state;
    uint64_t addr[32];
    strided(addr, 0, 4);
    assert_int_equal(cycles_of(&VOLTA, ~0u, addr, 4), 1);
    strided(addr, 0x400 + 4 * 7, 4); /* any start: 32 consecutive words still cover each bank once */
    assert_int_equal(cycles_of(&VOLTA, ~0u, addr, 4), 1);
}

/* Stride s words: lane i -> bank (s*i) mod 32. Lanes i and j share a bank
 * iff 32 / gcd(s,32) divides i - j, so each used bank holds gcd(s,32)
 * lanes, all on distinct words: a gcd(s,32)-way conflict. */
static void test_strided_k_way(void **state)
{
    (void)state;
    uint64_t addr[32];
    static const struct { uint32_t stride_words, cycles; } cases[] = {
        {2, 2}, {4, 4}, {8, 8}, {16, 16}, {32, 32}, /* gcd(s,32) = s */
        {3, 1}, {5, 1}, {33, 1},                    /* odd strides: gcd 1 */
        {6, 2}, {12, 4}, {24, 8}, {48, 16},         /* gcd(6,32)=2, (12,32)=4, (24,32)=8, (48,32)=16 */
    };
    for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        strided(addr, 0, 4 * cases[k].stride_words);
        assert_int_equal(cycles_of(&VOLTA, ~0u, addr, 4), cases[k].cycles);
    }
    /* 16 banks (GT200/Fermi-era configs), consecutive words: words i and
     * i+16 share bank i mod 16: 2 distinct words per bank, 2 cycles */
    tm_smem_params sixteen = VOLTA;
    sixteen.n_banks = 16;
    strided(addr, 0, 4);
    assert_int_equal(cycles_of(&sixteen, ~0u, addr, 4), 2);
}

/* One word read by every lane is one broadcast: 1 cycle. Two words of
 * one bank (words 0 and 32, bank 0), half the lanes each: 2 cycles. */
static void test_broadcast(void **state)
{
    (void)state;
    uint64_t addr[32];
    for (int i = 0; i < 32; i++)
        addr[i] = 0x84;
    assert_int_equal(cycles_of(&VOLTA, ~0u, addr, 4), 1);
    for (int i = 0; i < 32; i++)
        addr[i] = (i & 1) ? 128 : 0;
    assert_int_equal(cycles_of(&VOLTA, ~0u, addr, 4), 2);
    /* bytes within one word are the same word: lanes reading bytes 0..3
     * of word 0 and bytes of word 1 -> 2 words, 2 banks, 1 cycle */
    for (int i = 0; i < 32; i++)
        addr[i] = (uint64_t)(i % 8);
    assert_int_equal(cycles_of(&VOLTA, ~0u, addr, 1), 1);
}

/* 64- and 128-bit accesses: the bank of each lane's first word.
 *  - 8 bytes, consecutive (addr 8i): first words 2i -> banks 2i mod 32,
 *    16 banks with 2 distinct words each: 2 cycles (the hardware's 256
 *    bytes at 128 bytes per cycle, also 2).
 *  - 8 bytes, stride 16 (addr 16i): words 4i -> banks 4i mod 32, 8
 *    banks x 4 words: 4 cycles. Per word (words 4i and 4i+1, banks 4i
 *    and 4i+1 mod 32) each used bank also holds 4 words: 4.
 *  - 16 bytes, consecutive (addr 16i): words 4i: 4 cycles (512 bytes).
 *  - 8 bytes, one address: one word, 1 cycle.
 *  - 8 bytes, stride 64 (addr 64i): words 16i -> banks 0 and 16, 16
 *    words each: 16 cycles. */
static void test_wide_accesses(void **state)
{
    (void)state;
    uint64_t addr[32];
    strided(addr, 0, 8);
    assert_int_equal(cycles_of(&VOLTA, ~0u, addr, 8), 2);
    strided(addr, 0, 16);
    assert_int_equal(cycles_of(&VOLTA, ~0u, addr, 8), 4);
    assert_int_equal(cycles_of(&VOLTA, ~0u, addr, 16), 4);
    for (int i = 0; i < 32; i++)
        addr[i] = 0x200;
    assert_int_equal(cycles_of(&VOLTA, ~0u, addr, 8), 1);
    strided(addr, 0, 64);
    assert_int_equal(cycles_of(&VOLTA, ~0u, addr, 8), 16);
    /* half the warp (lanes 0..15) with 8-byte consecutive accesses:
     * words 0,2,..,30 in 16 distinct banks: 1 cycle */
    strided(addr, 0, 8);
    assert_int_equal(cycles_of(&VOLTA, 0xFFFF, addr, 8), 1);
}

/* Sub-warps add up (GPGPU-Sim's default -gpgpu_shmem_warp_parts 2):
 * consecutive words cost 1 per half-warp, 2 in all; stride 2 words: each
 * half's 16 lanes reach banks 0,2,..,30 once: 1 + 1 = 2; stride 32 words:
 * 16 words in bank 0 per half: 16 + 16 = 32. */
static void test_warp_parts(void **state)
{
    (void)state;
    uint64_t addr[32];
    tm_smem_params two = VOLTA;
    two.warp_parts = 2;
    strided(addr, 0, 4);
    assert_int_equal(cycles_of(&two, ~0u, addr, 4), 2);
    strided(addr, 0, 8);
    assert_int_equal(cycles_of(&two, ~0u, addr, 4), 2);
    strided(addr, 0, 128);
    assert_int_equal(cycles_of(&two, ~0u, addr, 4), 32);
    /* only the first half active: the second costs nothing */
    strided(addr, 0, 4);
    assert_int_equal(cycles_of(&two, 0xFFFF, addr, 4), 1);
}

/* Limited broadcast (GPGPU-Sim's default): one broadcast word per
 * sub-warp, the first repeated word in (bank, word) order.
 *  - all lanes one word: the broadcast, 1 cycle.
 *  - lanes 0..15 on word 0 (bank 0), lanes 16..31 on word 1 (bank 1):
 *    word 0 is the broadcast (bank 0 first): bank 0 costs 16 - 15 = 1;
 *    bank 1's 16 lanes are not discounted: 16 cycles (unlimited: 1).
 *  - consecutive words: no repeats, each bank 1 lane: 1 cycle.
 *  - lanes 0,1 on word 0; lanes 2,3 on word 32 (both bank 0): broadcast
 *    word 0 -> bank 0: 4 lanes - 1 = 3 cycles (unlimited: 2 words, 2). */
static void test_limited_broadcast(void **state)
{
    (void)state;
    uint64_t addr[32];
    tm_smem_params lim = VOLTA;
    lim.limited_broadcast = true;
    for (int i = 0; i < 32; i++)
        addr[i] = 0x40;
    assert_int_equal(cycles_of(&lim, ~0u, addr, 4), 1);
    for (int i = 0; i < 32; i++)
        addr[i] = i < 16 ? 0 : 4;
    assert_int_equal(cycles_of(&lim, ~0u, addr, 4), 16);
    assert_int_equal(cycles_of(&VOLTA, ~0u, addr, 4), 1);
    strided(addr, 0, 4);
    assert_int_equal(cycles_of(&lim, ~0u, addr, 4), 1);
    addr[0] = addr[1] = 0;
    addr[2] = addr[3] = 128;
    assert_int_equal(cycles_of(&lim, 0xF, addr, 4), 3);
    assert_int_equal(cycles_of(&VOLTA, 0xF, addr, 4), 2);
}

/* No active lane costs nothing; bad parameters are refused. */
static void test_empty_and_refusals(void **state)
{
    (void)state;
    uint64_t addr[32] = {0};
    assert_int_equal(cycles_of(&VOLTA, 0, addr, 4), 0);
    uint32_t c;
    char err[200] = "";
    tm_smem_params p = VOLTA;
    p.n_banks = 0;
    assert_int_equal(tm_smem_cycles(&p, ~0u, addr, 4, &c, err, sizeof err), -1);
    assert_non_null(strstr(err, "bank count"));
    p = VOLTA;
    p.warp_parts = 3;
    assert_int_equal(tm_smem_cycles(&p, ~0u, addr, 4, &c, err, sizeof err), -1);
    assert_non_null(strstr(err, "warp parts"));
    assert_int_equal(tm_smem_cycles(&VOLTA, ~0u, addr, 12, &c, err, sizeof err), -1);
    assert_non_null(strstr(err, "12 bytes"));
    p = VOLTA;
    p.warp_size = 16;
    assert_int_equal(tm_smem_cycles(&p, 0x10000, addr, 4, &c, err, sizeof err), -1);
    assert_non_null(strstr(err, "beyond"));
    assert_int_equal(tm_smem_cycles(&VOLTA, 1, NULL, 4, &c, err, sizeof err), -1);
}

/* The table-based reference: per sub-warp, mark each word (of the first
 * 64) an active lane reads, count the distinct words per bank, take the
 * worst bank, add the sub-warps. */
static uint32_t table_cycles(const uint64_t *addr, uint32_t active, uint32_t banks, uint32_t parts)
{
    uint32_t want = 0, lanes = 32 / parts;
    for (uint32_t sw = 0; sw < parts; sw++) {
        bool used[64] = {false};
        for (uint32_t l = sw * lanes; l < (sw + 1) * lanes; l++)
            if ((active >> l) & 1)
                used[addr[l] / 4] = true;
        uint32_t worst = 0;
        for (uint32_t b = 0; b < banks; b++) {
            uint32_t words = 0;
            for (uint32_t w = b; w < 64; w += banks)
                words += used[w];
            worst = words > worst ? words : worst;
        }
        want += worst;
    }
    return want;
}

/* Random accesses against the table-based reference. */
static void test_random_against_table(void **state)
{
    (void)state;
    uint64_t seed = 777;
    for (int iter = 0; iter < 3000; iter++) {
        uint64_t addr[32];
        uint32_t active = 0;
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t banks = (uint32_t[]){32, 16, 8, 24, 12}[(seed >> 33) % 5]; /* (and counts that are no power of two) */
        uint32_t parts = (uint32_t[]){1, 2, 4}[(seed >> 40) % 3];
        for (int i = 0; i < 32; i++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            addr[i] = 4 * ((seed >> 30) % 64) + (seed >> 50) % 4; /* 64 words, any byte */
            active |= (uint32_t)((seed >> 60) & 1) << i;
        }
        tm_smem_params p = {.warp_size = 32, .n_banks = banks, .warp_parts = parts};
        assert_int_equal(cycles_of(&p, active, addr, 4), table_cycles(addr, active, banks, parts));
    }
}

/* Whole warps whose words lie near one aligned block of `banks` words
 * (inside it, or straddling into the next: the usual tile and row
 * accesses, and the cases next to them) against the same reference. */
static void test_near_one_block_against_table(void **state)
{
    (void)state;
    uint64_t seed = 4242;
    for (int iter = 0; iter < 3000; iter++) {
        uint64_t addr[32];
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t banks = (uint32_t[]){32, 16, 8}[(seed >> 33) % 3];
        uint32_t parts = (uint32_t[]){1, 2, 4}[(seed >> 40) % 3];
        uint32_t span = banks + (uint32_t)((seed >> 45) % 3); /* words the lanes may read: a block, or a little more */
        uint32_t first = (uint32_t)((seed >> 50) % (64 - span)); /* (aligned to the block or not) */
        for (int i = 0; i < 32; i++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            addr[i] = 4 * (first + (seed >> 30) % span) + (seed >> 50) % 4;
        }
        tm_smem_params p = {.warp_size = 32, .n_banks = banks, .warp_parts = parts};
        assert_int_equal(cycles_of(&p, UINT32_MAX, addr, 4), table_cycles(addr, UINT32_MAX, banks, parts));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_consecutive_no_conflict),
        cmocka_unit_test(test_strided_k_way),
        cmocka_unit_test(test_broadcast),
        cmocka_unit_test(test_wide_accesses),
        cmocka_unit_test(test_warp_parts),
        cmocka_unit_test(test_limited_broadcast),
        cmocka_unit_test(test_empty_and_refusals),
        cmocka_unit_test(test_random_against_table),
        cmocka_unit_test(test_near_one_block_against_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
