/* test_coalescer.c — the coalescer (timing/coalescer.h): which 128-byte
 * lines and 32-byte sectors one warp memory instruction touches.
 *
 * Expected values are worked out by hand from the addresses each test
 * gives (the derivation is beside each assertion) and from the rules of
 * GPGPU-Sim's sectored coalescer that coalescer.h states (sub-warps,
 * sectors, atomic first-fit); one test compares against a brute-force
 * reference written here (a byte-by-byte walk over each lane's range). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "timing/coalescer.h"

static const tm_coalesce_params ONE_PART = {.warp_size = 32, .warp_parts = 1, .per_sector = false};

/* Coalesce and expect success; returns the request count. */
static uint32_t run(const tm_coalesce_params *p, uint32_t active, const uint64_t *addr, uint32_t bytes,
                    tm_req_kind kind, tm_req_space space, tm_req *out)
{
    tm_warp_access a = {.active = active, .addr = addr, .bytes = bytes, .kind = kind, .space = space};
    uint32_t n = 99;
    char err[200] = "";
    int rc = tm_coalesce(p, &a, NULL, out, TM_COALESCE_MAX_REQS, &n, err, sizeof err);
    if (rc)
        fail_msg("tm_coalesce failed: %s", err);
    return n;
}

/* Coalesce and expect a refusal whose message contains `needle`. */
static void expect_error(const tm_coalesce_params *p, const tm_warp_access *a, uint32_t cap, const char *needle)
{
    tm_req out[TM_COALESCE_MAX_REQS];
    uint32_t n = 99;
    char err[200] = "";
    assert_int_equal(tm_coalesce(p, a, NULL, out, cap, &n, err, sizeof err), -1);
    if (!strstr(err, needle))
        fail_msg("error \"%s\" does not mention \"%s\"", err, needle);
}

static void expect_req(const tm_req *r, uint64_t addr, uint8_t sectors)
{
    assert_int_equal(r->addr, addr);
    assert_int_equal(r->sectors, sectors);
    assert_int_equal(r->bytes, 32u * (uint32_t)__builtin_popcount(sectors));
}

/* 32 lanes x 4 bytes at consecutive aligned words: 128 bytes = one line,
 * all four sectors (4 sector requests' worth). */
static void test_consecutive_words_one_line(void **state)
{
    (void)state;
    uint64_t addr[32];
    tm_req out[TM_COALESCE_MAX_REQS];
    for (int i = 0; i < 32; i++)
        addr[i] = 0x10000 + 4u * i;
    assert_int_equal(run(&ONE_PART, ~0u, addr, 4, TM_REQ_READ, TM_SPACE_GLOBAL, out), 1);
    expect_req(&out[0], 0x10000, 0xF);
    assert_int_equal(out[0].kind, TM_REQ_READ);
    assert_int_equal(out[0].space, TM_SPACE_GLOBAL);

    /* per_sector: GPGPU-Sim's four 32-byte accesses, ascending */
    tm_coalesce_params ps = ONE_PART;
    ps.per_sector = true;
    assert_int_equal(run(&ps, ~0u, addr, 4, TM_REQ_READ, TM_SPACE_GLOBAL, out), 4);
    for (uint32_t s = 0; s < 4; s++)
        expect_req(&out[s], 0x10000 + 32u * s, (uint8_t)(1u << s));

    /* two sub-warps (GPGPU-Sim's default -gpgpu_shmem_warp_parts 2): lanes
     * 0..15 read bytes 0..63 (sectors 0,1), lanes 16..31 bytes 64..127
     * (sectors 2,3): two requests for the one line */
    tm_coalesce_params two = ONE_PART;
    two.warp_parts = 2;
    assert_int_equal(run(&two, ~0u, addr, 4, TM_REQ_READ, TM_SPACE_GLOBAL, out), 2);
    expect_req(&out[0], 0x10000, 0x3);
    expect_req(&out[1], 0x10000, 0xC);
}

/* Stride 32 words (128 bytes): every lane its own line, first sector only:
 * 32 lines x 1 sector, in ascending address order. */
static void test_stride_128_bytes(void **state)
{
    (void)state;
    uint64_t addr[32];
    tm_req out[TM_COALESCE_MAX_REQS];
    for (int i = 0; i < 32; i++)
        addr[31 - i] = 0x20000 + 128u * i; /* lanes in descending address order */
    assert_int_equal(run(&ONE_PART, ~0u, addr, 4, TM_REQ_READ, TM_SPACE_GLOBAL, out), 32);
    for (uint32_t i = 0; i < 32; i++)
        expect_req(&out[i], 0x20000 + 128u * i, 0x1);
}

/* 32 consecutive words starting 100 bytes into a line: bytes 100..227.
 * Line 0 holds bytes 100..127 = sector 3 (96..127); line 1 holds offsets
 * 0..99 = sectors 0 (0..31), 1 (32..63), 2 (64..95), 3 (96..99). */
static void test_misaligned_range_two_lines(void **state)
{
    (void)state;
    uint64_t addr[32];
    tm_req out[TM_COALESCE_MAX_REQS];
    for (int i = 0; i < 32; i++)
        addr[i] = 0x30000 + 100 + 4u * i;
    assert_int_equal(run(&ONE_PART, ~0u, addr, 4, TM_REQ_READ, TM_SPACE_GLOBAL, out), 2);
    expect_req(&out[0], 0x30000, 0x8);
    expect_req(&out[1], 0x30080, 0xF);

    /* one lane's 8 bytes at offset 124 straddle the line: bytes 124..127
     * (line 0, sector 3) and 128..131 (line 1, sector 0) */
    uint64_t one[32] = {0x30000 + 124};
    assert_int_equal(run(&ONE_PART, 0x1, one, 8, TM_REQ_READ, TM_SPACE_GLOBAL, out), 2);
    expect_req(&out[0], 0x30000, 0x8);
    expect_req(&out[1], 0x30080, 0x1);

    /* 4 bytes at offset 30 straddle sectors 0 and 1 of one line */
    one[0] = 0x30000 + 30;
    assert_int_equal(run(&ONE_PART, 0x1, one, 4, TM_REQ_READ, TM_SPACE_GLOBAL, out), 1);
    expect_req(&out[0], 0x30000, 0x3);
}

/* 8-byte lanes: 32 x 8 = 256 bytes = 2 full lines; 16-byte lanes: 512
 * bytes = 4 full lines; 32-byte lanes (v8.b32): 1024 bytes = 8 lines. */
static void test_wide_accesses(void **state)
{
    (void)state;
    uint64_t addr[32];
    tm_req out[TM_COALESCE_MAX_REQS];
    static const uint32_t sizes[] = {8, 16, 32};
    for (unsigned k = 0; k < 3; k++) {
        uint32_t bytes = sizes[k], lines = 32 * bytes / 128;
        for (uint32_t i = 0; i < 32; i++)
            addr[i] = 0x40000 + (uint64_t)bytes * i;
        assert_int_equal(run(&ONE_PART, ~0u, addr, bytes, TM_REQ_READ, TM_SPACE_GLOBAL, out), lines);
        for (uint32_t l = 0; l < lines; l++)
            expect_req(&out[l], 0x40000 + 128u * l, 0xF);
        /* by-size sub-warps (warp_parts 0) cover exactly one line each
         * here (128 / bytes lanes x bytes = 128): the same requests */
        tm_coalesce_params by_size = ONE_PART;
        by_size.warp_parts = 0;
        assert_int_equal(run(&by_size, ~0u, addr, bytes, TM_REQ_READ, TM_SPACE_GLOBAL, out), lines);
    }
    /* 8-byte lanes strided 16 bytes: lane i covers bytes 16i..16i+7 of a
     * 512-byte range, every sector touched: 4 lines, all sectors */
    for (uint32_t i = 0; i < 32; i++)
        addr[i] = 0x40000 + 16u * i;
    assert_int_equal(run(&ONE_PART, ~0u, addr, 8, TM_REQ_READ, TM_SPACE_GLOBAL, out), 4);
    /* all lanes one 8-byte address: one sector with warp_parts 1; by size,
     * 16 lanes per sub-warp, two sub-warps, two requests */
    for (uint32_t i = 0; i < 32; i++)
        addr[i] = 0x40008;
    assert_int_equal(run(&ONE_PART, ~0u, addr, 8, TM_REQ_READ, TM_SPACE_GLOBAL, out), 1);
    expect_req(&out[0], 0x40000, 0x1);
    tm_coalesce_params by_size = ONE_PART;
    by_size.warp_parts = 0;
    assert_int_equal(run(&by_size, ~0u, addr, 8, TM_REQ_READ, TM_SPACE_GLOBAL, out), 2);
}

/* Inactive lanes make no requests, whatever their addresses hold. */
static void test_inactive_lanes_ignored(void **state)
{
    (void)state;
    uint64_t addr[32];
    tm_req out[TM_COALESCE_MAX_REQS];
    for (int i = 0; i < 32; i++)
        addr[i] = 0x50000 + 32u * i; /* lane i: sector i%4 of line i/4 */
    /* lanes 0 and 2: sectors 0 and 2 of line 0x50000 */
    assert_int_equal(run(&ONE_PART, 0x5, addr, 4, TM_REQ_READ, TM_SPACE_GLOBAL, out), 1);
    expect_req(&out[0], 0x50000, 0x5);
    /* lanes 4..7 only: line 0x50080, all sectors */
    assert_int_equal(run(&ONE_PART, 0xF0, addr, 4, TM_REQ_READ, TM_SPACE_GLOBAL, out), 1);
    expect_req(&out[0], 0x50080, 0xF);
    /* an inactive lane at the top of memory would wrap: not looked at */
    addr[9] = UINT64_MAX;
    assert_int_equal(run(&ONE_PART, 0x1, addr, 8, TM_REQ_READ, TM_SPACE_GLOBAL, out), 1);
    /* an active lane whose last byte is the last of memory does not wrap */
    addr[9] = UINT64_MAX - 7;
    assert_int_equal(run(&ONE_PART, 0x200, addr, 8, TM_REQ_READ, TM_SPACE_GLOBAL, out), 1);
    expect_req(&out[0], (UINT64_MAX - 7) & ~(uint64_t)127, 0x8);
    /* no active lane: no request */
    assert_int_equal(run(&ONE_PART, 0, addr, 4, TM_REQ_READ, TM_SPACE_GLOBAL, out), 0);
}

/* Lanes reading the same bytes share one request: all 32 lanes on one
 * word make one request for that word's sector; pairs of lanes on 16
 * consecutive words (64 bytes) make one request for sectors 0 and 1. */
static void test_duplicates_merged(void **state)
{
    (void)state;
    uint64_t addr[32];
    tm_req out[TM_COALESCE_MAX_REQS];
    for (int i = 0; i < 32; i++)
        addr[i] = 0x60044; /* offset 0x44 = 68: sector 2 */
    assert_int_equal(run(&ONE_PART, ~0u, addr, 4, TM_REQ_READ, TM_SPACE_GLOBAL, out), 1);
    expect_req(&out[0], 0x60000, 0x4);
    for (int i = 0; i < 32; i++)
        addr[i] = 0x60000 + 4u * (i / 2);
    assert_int_equal(run(&ONE_PART, ~0u, addr, 4, TM_REQ_WRITE, TM_SPACE_GLOBAL, out), 1);
    expect_req(&out[0], 0x60000, 0x3);
    assert_int_equal(out[0].kind, TM_REQ_WRITE);
}

/* Atomics, GPGPU-Sim's first fit: a lane joins the first request of its
 * segment whose bytes it does not overlap. */
static void test_atomics(void **state)
{
    (void)state;
    uint64_t addr[32];
    tm_req out[TM_COALESCE_MAX_REQS];
    /* 32 lanes on one word: every lane collides with every earlier
     * request, so 32 requests, all for that word's sector */
    for (int i = 0; i < 32; i++)
        addr[i] = 0x70010;
    assert_int_equal(run(&ONE_PART, ~0u, addr, 4, TM_REQ_ATOMIC, TM_SPACE_GLOBAL, out), 32);
    for (int i = 0; i < 32; i++) {
        expect_req(&out[i], 0x70000, 0x1);
        assert_int_equal(out[i].kind, TM_REQ_ATOMIC);
    }
    /* 32 distinct consecutive words: no overlap, one request as a load */
    for (int i = 0; i < 32; i++)
        addr[i] = 0x70000 + 4u * i;
    assert_int_equal(run(&ONE_PART, ~0u, addr, 4, TM_REQ_ATOMIC, TM_SPACE_GLOBAL, out), 1);
    expect_req(&out[0], 0x70000, 0xF);
    /* lanes 0 and 1 on word A (sector 0), lane 2 on A+32 (sector 1).
     * GPGPU-Sim per sector: sector 0 has transactions {0}, {1}; sector 1
     * has {2}. Line mode groups the i-th transactions of the line: round
     * 0 = lanes 0 and 2 (sectors 0,1), round 1 = lane 1 (sector 0). */
    addr[0] = addr[1] = 0x70000;
    addr[2] = 0x70020;
    assert_int_equal(run(&ONE_PART, 0x7, addr, 4, TM_REQ_ATOMIC, TM_SPACE_GLOBAL, out), 2);
    expect_req(&out[0], 0x70000, 0x3);
    expect_req(&out[1], 0x70000, 0x1);
    /* per sector, GPGPU-Sim's order: sector 0's two, then sector 1's */
    tm_coalesce_params ps = ONE_PART;
    ps.per_sector = true;
    assert_int_equal(run(&ps, 0x7, addr, 4, TM_REQ_ATOMIC, TM_SPACE_GLOBAL, out), 3);
    expect_req(&out[0], 0x70000, 0x1);
    expect_req(&out[1], 0x70000, 0x1);
    expect_req(&out[2], 0x70020, 0x2);
    /* 8-byte atomics overlapping a 4-byte neighbour's range? Lanes at A and
     * A+8 do not overlap (bytes 0..7, 8..15): one request */
    addr[0] = 0x70000;
    addr[1] = 0x70008;
    assert_int_equal(run(&ONE_PART, 0x3, addr, 8, TM_REQ_ATOMIC, TM_SPACE_GLOBAL, out), 1);

    /* refusals: misaligned, local, wider than 16 bytes */
    tm_warp_access a = {.active = 0x1, .addr = addr, .bytes = 4, .kind = TM_REQ_ATOMIC, .space = TM_SPACE_GLOBAL};
    addr[0] = 0x70002;
    expect_error(&ONE_PART, &a, TM_COALESCE_MAX_REQS, "lane 0");
    addr[0] = 0x70000;
    a.space = TM_SPACE_LOCAL;
    expect_error(&ONE_PART, &a, TM_COALESCE_MAX_REQS, "global");
    a.space = TM_SPACE_GLOBAL;
    a.bytes = 32;
    expect_error(&ONE_PART, &a, TM_COALESCE_MAX_REQS, "16 bytes");
}

/* Local memory: the caller's per-thread addresses coalesce as global ones
 * (interleaved words: lane i's 4-byte word at base + 4i -> one line). */
static void test_local_space(void **state)
{
    (void)state;
    uint64_t addr[32];
    tm_req out[TM_COALESCE_MAX_REQS];
    for (int i = 0; i < 32; i++)
        addr[i] = 0x80000 + 4u * i;
    assert_int_equal(run(&ONE_PART, ~0u, addr, 4, TM_REQ_WRITE, TM_SPACE_LOCAL, out), 1);
    expect_req(&out[0], 0x80000, 0xF);
    assert_int_equal(out[0].space, TM_SPACE_LOCAL);
    assert_int_equal(out[0].kind, TM_REQ_WRITE);
}

/* The request takes the maker's identity from proto. */
static void test_proto_fields(void **state)
{
    (void)state;
    uint64_t addr[32] = {0x1000};
    tm_req out[TM_COALESCE_MAX_REQS];
    tm_req proto = {.sm = 7, .warp = 12, .tag = 99, .t_made = 1234, .is_reply = 1};
    tm_warp_access a = {.active = 1, .addr = addr, .bytes = 4, .kind = TM_REQ_READ, .space = TM_SPACE_GLOBAL};
    uint32_t n;
    assert_int_equal(tm_coalesce(&ONE_PART, &a, &proto, out, 1, &n, NULL, 0), 0);
    assert_int_equal(n, 1);
    assert_int_equal(out[0].sm, 7);
    assert_int_equal(out[0].warp, 12);
    assert_int_equal(out[0].tag, 99);
    assert_int_equal(out[0].t_made, 1234);
    assert_int_equal(out[0].is_reply, 0);
}

/* Bad input is refused with a message, never truncated. */
static void test_refusals(void **state)
{
    (void)state;
    uint64_t addr[32];
    for (int i = 0; i < 32; i++)
        addr[i] = 0x90000 + 128u * i;
    tm_warp_access a = {.active = ~0u, .addr = addr, .bytes = 4, .kind = TM_REQ_READ, .space = TM_SPACE_GLOBAL};
    expect_error(&ONE_PART, &a, 31, "do not fit"); /* 32 lines, room for 31 */
    a.bytes = 3;
    expect_error(&ONE_PART, &a, TM_COALESCE_MAX_REQS, "3 bytes");
    a.bytes = 64;
    expect_error(&ONE_PART, &a, TM_COALESCE_MAX_REQS, "64 bytes");
    a.bytes = 4;
    tm_coalesce_params three = {.warp_size = 32, .warp_parts = 3};
    expect_error(&three, &a, TM_COALESCE_MAX_REQS, "warp parts");
    tm_coalesce_params narrow = {.warp_size = 16, .warp_parts = 1};
    expect_error(&narrow, &a, TM_COALESCE_MAX_REQS, "beyond the warp size");
    addr[5] = UINT64_MAX - 2;
    expect_error(&ONE_PART, &a, TM_COALESCE_MAX_REQS, "lane 5");
    addr[5] = 0;
    a.space = TM_SPACE_CONST;
    expect_error(&ONE_PART, &a, TM_COALESCE_MAX_REQS, "tm_const_accesses");
    a.space = TM_SPACE_GLOBAL;
    a.kind = TM_REQ_WRITEBACK;
    expect_error(&ONE_PART, &a, TM_COALESCE_MAX_REQS, "kind");
}

/* A reference written here: walk every byte of every active lane, mark
 * (sub-warp, line, sector) and the lanes touching each, and compare with
 * the requests (their sectors and lanes) — for random
 * addresses clustered in a few lines, and (one iteration in three) for
 * runs where each lane reads the bytes after the previous lane's, at any
 * alignment, all lanes active or all but one; all sizes and sub-warp
 * splits, as line requests and as one request per sector. */
static void test_random_against_byte_walk(void **state)
{
    (void)state;
    uint64_t seed = 12345;
    for (int iter = 0; iter < 3000; iter++) {
        uint64_t addr[32];
        uint32_t active = 0;
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t bytes = 1u << ((seed >> 33) % 6);
        uint32_t parts = (uint32_t[]){1, 2, 4}[(seed >> 40) % 3];
        bool run_of_bytes = iter % 3 == 0, per_sector = iter % 2 == 0;
        uint64_t start = 0xA0000 + (seed >> 20) % 256;
        uint32_t off_lane = (seed >> 45) % 64; /* >= 32: every lane active */
        for (int i = 0; i < 32; i++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            addr[i] = run_of_bytes ? start + (uint64_t)i * bytes : 0xA0000 + (seed >> 20) % 1024; /* any alignment */
            active |= (run_of_bytes ? i != (int)off_lane : (uint32_t)((seed >> 50) & 1)) << i;
        }
        tm_coalesce_params p = {.warp_size = 32, .warp_parts = parts, .per_sector = per_sector};
        tm_req out[TM_COALESCE_MAX_REQS];
        uint32_t n = run(&p, active, addr, bytes, TM_REQ_READ, TM_SPACE_GLOBAL, out);
        uint32_t lanes = 32 / parts, k = 0;
        for (uint32_t sw = 0; sw < parts; sw++) {
            uint8_t want[10] = {0}; /* sector masks of lines 0xA0000.. (one beyond for straddles) */
            uint32_t want_lanes[10][4] = {{0}}; /* the lanes touching each sector */
            for (uint32_t l = sw * lanes; l < (sw + 1) * lanes; l++)
                for (uint32_t b = 0; b < bytes && ((active >> l) & 1); b++) {
                    uint64_t off = addr[l] + b - 0xA0000;
                    want[off / 128] |= (uint8_t)(1u << (off % 128 / 32));
                    want_lanes[off / 128][off % 128 / 32] |= 1u << l;
                }
            for (uint32_t line = 0; line < 10; line++)
                for (uint32_t sec = 0; sec < 4 && want[line]; sec++) {
                    if (per_sector && !(want[line] >> sec & 1))
                        continue;
                    assert_true(k < n);
                    uint32_t lanes_of = 0;
                    for (uint32_t q = 0; q < 4; q++)
                        lanes_of |= per_sector ? (q == sec ? want_lanes[line][q] : 0) : want_lanes[line][q];
                    assert_int_equal(out[k].lanes, lanes_of);
                    if (per_sector)
                        expect_req(&out[k], 0xA0000 + 128u * line + 32u * sec, (uint8_t)(1u << sec));
                    else
                        expect_req(&out[k], 0xA0000 + 128u * line, want[line]);
                    k++;
                    if (!per_sector)
                        break;
                }
        }
        assert_int_equal(k, n);
    }
}

/* Constant loads: cycles = distinct blocks read (GPGPU-Sim: const L1
 * lines, here 64 bytes; per word with granule 4). */
static void test_constant_broadcast(void **state)
{
    (void)state;
    uint64_t addr[32];
    tm_req out[32];
    uint32_t n;
    tm_warp_access a = {.active = ~0u, .addr = addr, .bytes = 4, .kind = TM_REQ_READ, .space = TM_SPACE_CONST};
    /* all lanes one address: a broadcast, 1 cycle */
    for (int i = 0; i < 32; i++)
        addr[i] = 0x1004;
    assert_int_equal(tm_const_accesses(&a, 32, 64, NULL, out, 32, &n, NULL, 0), 0);
    assert_int_equal(n, 1);
    expect_req(&out[0], 0x1000, 0x3); /* 64-byte block 0x1000: sectors 0 and 1 of its line */
    assert_int_equal(out[0].bytes, 64);
    assert_int_equal(out[0].lanes, ~0u); /* every lane reads in it */
    assert_int_equal(out[0].space, TM_SPACE_CONST);
    /* 16 distinct words of one 64-byte line (lane i -> word i % 16): one
     * line, 1 cycle in GPGPU-Sim; 16 distinct words, 16 cycles per word */
    for (int i = 0; i < 32; i++)
        addr[i] = 0x2040 + 4u * (i % 16);
    assert_int_equal(tm_const_accesses(&a, 32, 64, NULL, NULL, 0, &n, NULL, 0), 0);
    assert_int_equal(n, 1);
    assert_int_equal(tm_const_accesses(&a, 32, 4, NULL, NULL, 0, &n, NULL, 0), 0);
    assert_int_equal(n, 16);
    /* 32 consecutive words = 128 bytes: 2 lines of 64, 32 words; the
     * lines come in ascending order, the second covering sectors 2,3 */
    for (int i = 0; i < 32; i++)
        addr[31 - i] = 0x3000 + 4u * i;
    assert_int_equal(tm_const_accesses(&a, 32, 64, NULL, out, 32, &n, NULL, 0), 0);
    assert_int_equal(n, 2);
    assert_int_equal(out[0].addr, 0x3000);
    assert_int_equal(out[1].addr, 0x3040);
    assert_int_equal(out[1].sectors, 0xC);
    assert_int_equal(out[0].lanes, 0xFFFF0000u); /* lane 31 - i reads word i: lanes 16..31 the first line */
    assert_int_equal(out[1].lanes, 0x0000FFFFu);
    assert_int_equal(tm_const_accesses(&a, 32, 4, NULL, NULL, 0, &n, NULL, 0), 0);
    assert_int_equal(n, 32);
    /* only lanes 0 and 31 active, distinct words: 2 per word */
    a.active = 0x80000001u;
    assert_int_equal(tm_const_accesses(&a, 32, 4, NULL, NULL, 0, &n, NULL, 0), 0);
    assert_int_equal(n, 2);
    /* lanes 0 and 2 on one word, inactive lane 1 elsewhere: one block,
     * read by lanes 0 and 2 only; with lane 0 inactive too, lane 2 alone */
    a.active = 0x5u;
    addr[0] = addr[2] = 0x4008;
    addr[1] = 0x9000;
    assert_int_equal(tm_const_accesses(&a, 32, 64, NULL, out, 32, &n, NULL, 0), 0);
    assert_int_equal(n, 1);
    expect_req(&out[0], 0x4000, 0x3);
    assert_int_equal(out[0].lanes, 0x5u);
    a.active = 0x4u;
    assert_int_equal(tm_const_accesses(&a, 32, 64, NULL, out, 32, &n, NULL, 0), 0);
    assert_int_equal(n, 1);
    assert_int_equal(out[0].lanes, 0x4u);
    /* refusals: granule, room (lanes 0 and 31 on two words) */
    a.active = 0x80000001u;
    char err[160] = "";
    assert_int_equal(tm_const_accesses(&a, 32, 48, NULL, NULL, 0, &n, err, sizeof err), -1);
    assert_non_null(strstr(err, "48"));
    assert_int_equal(tm_const_accesses(&a, 32, 4, NULL, out, 1, &n, err, sizeof err), -1);
    assert_non_null(strstr(err, "do not fit"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_consecutive_words_one_line),
        cmocka_unit_test(test_stride_128_bytes),
        cmocka_unit_test(test_misaligned_range_two_lines),
        cmocka_unit_test(test_wide_accesses),
        cmocka_unit_test(test_inactive_lanes_ignored),
        cmocka_unit_test(test_duplicates_merged),
        cmocka_unit_test(test_atomics),
        cmocka_unit_test(test_local_space),
        cmocka_unit_test(test_proto_fields),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_random_against_byte_walk),
        cmocka_unit_test(test_constant_broadcast),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
