/* test_addrmap.c — address decoding (timing/addrmap.h) against fields
 * worked out by hand from GPGPU-Sim's mapping rules (addrdec: masked bits
 * packed lowest first; dramid@N inserts the channel at bit N, or takes it
 * modulo a non-power-of-two channel count; the sub-partition is the low
 * bank bits). The masks are built by hand from the mapping strings here,
 * not by the configuration parser. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "timing/addrmap.h"

/* QV100 (Accel-Sim SM7_QV100 gpgpusim.config):
 *   dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCC.BCCSSSSS
 * The string lists bit 63 first. Its last byte (bits 7..0) is B C C S S S S S,
 * the byte before (bits 15..8) R B B B C C C C, then bits 23..16 all R and
 * bits 27..24 R. So:
 *   S = bits 0-4                       = 0x1f
 *   C = bits 5,6 and 8-11 (S with them) = 0x60 | 0xf00 (| 0x1f for S)
 *   B = bit 7 and bits 12-14           = 0x80 | 0x7000 = 0x7080
 *   R = bits 15-27                     = 0x0fff8000
 * These describe the address with the channel taken out at bit 8. */
static tm_addrmap qv100_map(void)
{
    return (tm_addrmap){.chip_mask = 0,
                        .bank_mask = 0x7080,
                        .row_mask = 0x0fff8000,
                        .col_mask = 0x0f60 | 0x1f,
                        .burst_mask = 0x1f,
                        .dramid_bit = 8};
}

static tm_addrdec make(const tm_addrmap *m, uint32_t n_channels, uint32_t n_sub)
{
    tm_addrdec d;
    char err[256] = "";
    bool ok = tm_addrdec_init(&d, m, n_channels, n_sub, err, sizeof err);
    if (!ok)
        print_error("%s\n", err);
    assert_true(ok);
    return d;
}

/* QV100 with 32 channels (power of two): 5 channel bits at bits 8-12; the
 * string's bits from 8 up move up by 5. Addresses built bit by bit. */
static void test_qv100_32_channels(void **state)
{
    (void)state;
    tm_addrmap m = qv100_map();
    tm_addrdec d = make(&m, 32, 2);
    tm_dram_addr a;

    /* 0x0: everything zero. */
    tm_addrdec_decode(&d, 0, &a);
    assert_int_equal(a.chip, 0);
    assert_int_equal(a.bank, 0);
    assert_int_equal(a.row, 0);
    assert_int_equal(a.col, 0);
    assert_int_equal(a.sub_partition, 0);

    /* 0x80 (bit 7): the first bank bit, below bit 8 so unshifted: bank 1,
     * and bank bit 0 picks the sub-partition: channel 0, slice 1. */
    tm_addrdec_decode(&d, 0x80, &a);
    assert_int_equal(a.chip, 0);
    assert_int_equal(a.bank, 1);
    assert_int_equal(a.sub_partition, 1);

    /* 0x100 (bit 8): lowest channel bit -> channel 1, slice 1*2+0 = 2. */
    tm_addrdec_decode(&d, 0x100, &a);
    assert_int_equal(a.chip, 1);
    assert_int_equal(a.bank, 0);
    assert_int_equal(a.sub_partition, 2);

    /* 0x1f00 (bits 8-12): channel 31; 0x2000 (bit 13) is the string's bit 8,
     * the lowest C bit above the burst: C bits in order are 0-4 (S), 5, 6,
     * 8, 9, 10, 11 -> string bit 8 is column bit 7, value 0x80. */
    tm_addrdec_decode(&d, 0x1f00, &a);
    assert_int_equal(a.chip, 31);
    tm_addrdec_decode(&d, 0x2000, &a);
    assert_int_equal(a.chip, 0);
    assert_int_equal(a.col, 0x80);

    /* String bit 12 (the second B bit) sits at 17: bank 2 (slice 0 of
     * channel 0); string bit 15 (lowest R) at 20: row 1. */
    tm_addrdec_decode(&d, 1ull << 17, &a);
    assert_int_equal(a.bank, 2);
    assert_int_equal(a.sub_partition, 0);
    tm_addrdec_decode(&d, 1ull << 20, &a);
    assert_int_equal(a.row, 1);
    assert_int_equal(a.bank, 0);

    /* A mixed address: channel 21 (0b10101 -> bits 8, 10, 12), bank 0b1011
     * (bank bits in order: bit 7, string 12, 13, 14 -> address 7, 17, 18, 19;
     * value bits 0,1,3 -> address bits 7, 17, 19), row 0x5a5 (string bits
     * 15.. -> address 20..; 0x5a5 << 20), column 0x3f5 (C bits in order:
     * 0-4, 5, 6, string 8-11 -> address 13-16: 0x3f5 = bits 0,2,4,5,6,7,8,9
     * -> address bits 0, 2, 4, 5, 6, 13, 14, 15), burst = low 5 column bits
     * = 0x15.
     * addr = (1<<8|1<<10|1<<12) | (1<<7|1<<17|1<<19) | 0x5a5<<20
     *        | (1|1<<2|1<<4|1<<5|1<<6|1<<13|1<<14|1<<15) */
    uint64_t addr = (1ull << 8 | 1ull << 10 | 1ull << 12) | (1ull << 7 | 1ull << 17 | 1ull << 19) |
                    0x5a5ull << 20 | (1ull | 1ull << 2 | 1ull << 4 | 1ull << 5 | 1ull << 6 | 1ull << 13 |
                                      1ull << 14 | 1ull << 15);
    tm_addrdec_decode(&d, addr, &a);
    assert_int_equal(a.chip, 21);
    assert_int_equal(a.bank, 0xb);
    assert_int_equal(a.row, 0x5a5);
    assert_int_equal(a.col, 0x3f5);
    assert_int_equal(a.burst, 0x15);
    assert_int_equal(a.sub_partition, 21 * 2 + 1); /* bank bit 0 is 1 */
    /* Encoding the fields gives the address back (all its bits are mapped). */
    assert_int_equal(tm_addrdec_encode(&d, &a), addr);

    /* Partition address: channel bits 8-12 and the sub-partition bit 7
     * removed. For 0x2000 (string bit 8 = partition bit 7 after the
     * sub-partition bit leaves from below): 0x80. For 0xff: bits 0-6 stay,
     * bit 7 goes -> 0x7f. */
    assert_int_equal(tm_addrdec_partition_addr(&d, 0x2000), 0x80);
    assert_int_equal(tm_addrdec_partition_addr(&d, 0xff), 0x7f);
    assert_int_equal(tm_addrdec_partition_addr(&d, 0x1f00), 0);

    /* The S bits belong to the column whether the column mask lists them
     * or only the burst mask does (config.h allows both). */
    m.col_mask = 0x0f60;
    d = make(&m, 32, 2);
    tm_addrdec_decode(&d, addr, &a);
    assert_int_equal(a.col, 0x3f5);
    assert_int_equal(a.burst, 0x15);
}

/* QV100's string with 24 channels (not a power of two): channel =
 * (addr >> 8) % 24, the rest (addr >> 8) / 24 put back at bit 8. */
static void test_dramid_non_power_of_two(void **state)
{
    (void)state;
    tm_addrmap m = qv100_map();
    tm_addrdec d = make(&m, 24, 2);
    tm_dram_addr a;

    /* addr >> 8 = 23: channel 23, rest 0. */
    tm_addrdec_decode(&d, 23ull << 8, &a);
    assert_int_equal(a.chip, 23);
    assert_int_equal(a.col, 0);
    assert_int_equal(a.bank, 0);
    /* addr >> 8 = 24: channel 0, quotient 1 at bit 8 -> column bit 7 (0x80). */
    tm_addrdec_decode(&d, 24ull << 8, &a);
    assert_int_equal(a.chip, 0);
    assert_int_equal(a.col, 0x80);
    /* addr >> 8 = 24*16 + 5 = 389: channel 5, quotient 16 = bit 12 after the
     * shift back -> the second bank bit: bank 2, slice 5*2+0 = 10. Low byte
     * 0x80 adds bank bit 0: bank 3, slice 11. */
    tm_addrdec_decode(&d, 389ull << 8 | 0x80, &a);
    assert_int_equal(a.chip, 5);
    assert_int_equal(a.bank, 3);
    assert_int_equal(a.sub_partition, 11);
    assert_int_equal(tm_addrdec_encode(&d, &a), 389ull << 8 | 0x80);
    /* Partition address: the quotient 16 << 8 = 0x1000 and 0x80 minus the
     * sub-partition bit 7: bit 12 moves to 11 -> 0x800. */
    assert_int_equal(tm_addrdec_partition_addr(&d, 389ull << 8 | 0x80), 0x800);
}

/* Explicit D bits, 4 channels: "...RRRRRRRR.RRBBDDCC.CCCSSSSS" (bits 0-4 S,
 * 5-7 and 8-9 C, 10-11 D, 12-13 B, 14-23 R); 1 sub-partition per channel. */
static void test_explicit_d_bits(void **state)
{
    (void)state;
    tm_addrmap m = {.chip_mask = 0xc00, .bank_mask = 0x3000, .row_mask = 0xffc000,
                    .col_mask = 0x3e0 | 0x1f, .burst_mask = 0x1f, .dramid_bit = -1};
    tm_addrdec d = make(&m, 4, 1);
    tm_dram_addr a;
    /* 0x800: D bit 1 -> channel 2. 0x2400: D bit 0 (channel 1) and B bit 1
     * (bank 2). 0x4123: row 1 (bit 14), column 0x123 = 0b1_0010_0011 (bits
     * 0, 1, 5, 8 are all column bits, 9 bits of C/S packed contiguously). */
    tm_addrdec_decode(&d, 0x800, &a);
    assert_int_equal(a.chip, 2);
    assert_int_equal(a.sub_partition, 2);
    tm_addrdec_decode(&d, 0x2400, &a);
    assert_int_equal(a.chip, 1);
    assert_int_equal(a.bank, 2);
    tm_addrdec_decode(&d, 0x4123, &a);
    assert_int_equal(a.chip, 0);
    assert_int_equal(a.row, 1);
    assert_int_equal(a.col, 0x123);
    assert_int_equal(a.burst, 0x3);
    assert_int_equal(tm_addrdec_encode(&d, &a), 0x4123);
    /* Partition address drops bits 10, 11: 0xfff -> 0x3ff | (bits above 11
     * none) ; 0x1000 (bank bit 0) -> 0x400. */
    assert_int_equal(tm_addrdec_partition_addr(&d, 0xfff), 0x3ff);
    assert_int_equal(tm_addrdec_partition_addr(&d, 0x1000), 0x400);
}

/* Decode then encode is the identity over the mapped fields, for both
 * dramid cases (a property of the mapping, whatever the field values). */
static void test_round_trip(void **state)
{
    (void)state;
    tm_addrmap m = qv100_map();
    uint32_t counts[] = {32, 24, 6};
    for (int c = 0; c < 3; c++) {
        tm_addrdec d = make(&m, counts[c], 2);
        uint64_t x = 0x9e3779b97f4a7c15ull;
        for (int i = 0; i < 1000; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            tm_dram_addr a = {.chip = (uint32_t)(x % counts[c]), .bank = (uint32_t)(x >> 8) & 15,
                              .row = (uint32_t)(x >> 12) & 0x1fff, .col = (uint32_t)(x >> 40) & 0x7ff};
            tm_dram_addr b;
            tm_addrdec_decode(&d, tm_addrdec_encode(&d, &a), &b);
            assert_int_equal(b.chip, a.chip);
            assert_int_equal(b.bank, a.bank);
            assert_int_equal(b.row, a.row);
            assert_int_equal(b.col, a.col);
            assert_int_equal(b.sub_partition, a.chip * 2 + (a.bank & 1));
        }
    }
}

/* Unusable mappings are refused with a message naming the problem. */
static void test_errors(void **state)
{
    (void)state;
    tm_addrdec d;
    char err[256];
    tm_addrmap m = qv100_map();
    m.row_mask |= 0x80; /* overlaps B */
    assert_false(tm_addrdec_init(&d, &m, 32, 2, err, sizeof err));
    assert_non_null(strstr(err, "overlap"));
    m = qv100_map();
    m.chip_mask = 1ull << 40; /* D bits with dramid@8 */
    assert_false(tm_addrdec_init(&d, &m, 32, 2, err, sizeof err));
    assert_non_null(strstr(err, "dramid"));
    m = qv100_map();
    assert_false(tm_addrdec_init(&d, &m, 32, 3, err, sizeof err)); /* 3 slices */
    assert_non_null(strstr(err, "power of two"));
    m = (tm_addrmap){.chip_mask = 0xc00, .bank_mask = 0x3000, .row_mask = 0xffc000, .dramid_bit = -1};
    assert_false(tm_addrdec_init(&d, &m, 8, 1, err, sizeof err)); /* 2 D bits, 8 channels */
    assert_non_null(strstr(err, "D bits"));
    assert_false(tm_addrdec_init(&d, &m, 4, 8, err, sizeof err)); /* 2 bank bits, 8 slices */
    assert_non_null(strstr(err, "bank bits"));
    m = qv100_map(); /* 4 bank bits: 16 banks needed */
    d = make(&m, 32, 2);
    assert_true(tm_addrdec_check_banks(&d, 16, err, sizeof err));
    assert_false(tm_addrdec_check_banks(&d, 8, err, sizeof err));
    assert_non_null(strstr(err, "nbk"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_qv100_32_channels),
        cmocka_unit_test(test_dramid_non_power_of_two),
        cmocka_unit_test(test_explicit_d_bits),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
