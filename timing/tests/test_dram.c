/* test_dram.c — one DRAM channel (timing/dram.h). Every expected cycle is
 * derived by hand, in the comment beside it, from the timing parameters
 * set here and the command rules dram.h states (GPGPU-Sim's dram_t rules:
 * ACT->RD tRCD, RD->data tCL, a burst holds the bus BL/ratio cycles,
 * PRE only after tRAS from the ACT, ...).
 *
 * The base configuration (all tests unless they say otherwise):
 *   nbk=4, nbkgrp=2 (banks 0,1 in group 0; 2,3 in group 1), tRCD=5,
 *   tCL=4, tWL=2, tRP=3, tRAS=10, tRC=13, tCCD=2, tCCDL=3, tRRD=3,
 *   tWR=4, tCDLR=2, tRTPL=2; burst length 4 at a data/command ratio 2,
 *   16-byte bus, 1 chip: a burst is 4*16*1 = 64 bytes and holds the data
 *   bus 4/2 = 2 command cycles ("burst" below).
 * Derived (dram.h): tRCDWR = tRCD-(tWL+1) = 2; tWTR = tWL+burst+tCDLR = 6;
 * tRTW = tCL+burst+2-tWL = 6; tWTP = tWL+burst+tWR = 8.
 *
 * Cycle order within a cycle (dram.h): finished data leaves the bus, one
 * waiting request may go to a free bank, then commands issue. A bank is
 * free again the cycle after its request's last column command. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "timing/dram.h"

static tm_config base_config(void)
{
    tm_config c = {0};
    c.dram = (tm_dram_timing){.nbk = 4, .tCCD = 2, .tRRD = 3, .tRCD = 5, .tRAS = 10, .tRP = 3,
                              .tRC = 13, .tCL = 4, .tWL = 2, .tCDLR = 2, .tWR = 4, .nbkgrp = 2,
                              .tCCDL = 3, .tRTPL = 2};
    c.dram_scheduler = TM_DRAM_FRFCFS;
    c.frfcfs_queue = 0;
    c.dram_buswidth = 16;
    c.dram_burst_length = 4;
    c.dram_data_command_freq_ratio = 2;
    c.chips_per_channel = 1;
    return c;
}

static tm_dram *make(const tm_config *c)
{
    char err[256] = "";
    tm_dram *d = tm_dram_new(c, 0, err, sizeof err);
    if (!d)
        print_error("%s\n", err);
    assert_non_null(d);
    return d;
}

/* One request of a scripted run. */
typedef struct step {
    uint64_t at;        /* push cycle */
    uint8_t kind;       /* tm_req_kind */
    uint32_t bank, row, bytes;
} step;

/* What a few tests add to a step: its address (0: 64 * its index) and the
 * row-buffer hint. */
typedef struct step_extra {
    uint64_t addr;
    bool hint;
} step_extra;

/* The request of step i (x: NULL, or the steps' extras). */
static tm_req step_req(const step *s, const step_extra *x, uint32_t i)
{
    return (tm_req){.addr = x && x[i].addr ? x[i].addr : 64ull * i, .bytes = s[i].bytes, .kind = s[i].kind,
                    .tag = i, .row_hint = x && x[i].hint};
}

#define MAX_STEPS 1100

/* Run the script cycle by cycle from 0 to last (pushes at their cycle,
 * before that cycle runs) and record, per request (tag = index), the
 * cycle its reply was taken (0 if none). */
static void run_x(tm_dram *d, const step *s, const step_extra *x, uint32_t n, uint64_t last, uint64_t *done)
{
    uint32_t next = 0;
    for (uint64_t now = 0; now <= last; now++) {
        for (; next < n && s[next].at == now; next++) {
            tm_req r = step_req(s, x, next);
            assert_true(tm_dram_push(d, &r, s[next].bank, s[next].row, 0, now));
        }
        tm_dram_cycle(d, now);
        tm_req r;
        while (tm_dram_pop_reply(d, &r)) {
            assert_true(r.is_reply);
            done[r.tag] = now;
        }
    }
}

/* The same script, but the caller only runs the cycles next_event() names
 * (or a push needs): the results must not change. */
static void run_skipping_x(tm_dram *d, const step *s, const step_extra *x, uint32_t n, uint64_t last,
                           uint64_t *done)
{
    uint32_t next = 0;
    uint64_t now = 0;
    while (now <= last) {
        for (; next < n && s[next].at == now; next++) {
            tm_req r = step_req(s, x, next);
            assert_true(tm_dram_push(d, &r, s[next].bank, s[next].row, 0, now));
        }
        tm_dram_cycle(d, now);
        tm_req r;
        while (tm_dram_pop_reply(d, &r))
            done[r.tag] = now;
        uint64_t t = tm_dram_next_event(d);
        if (next < n && s[next].at < t)
            t = s[next].at;
        if (t > last && now < last)
            t = last; /* run the last cycle too, so the cycle counts match */
        if (t <= now)
            t = now + 1;
        now = t;
    }
}

static void run(tm_dram *d, const step *s, uint32_t n, uint64_t last, uint64_t *done)
{
    run_x(d, s, NULL, n, last, done);
}

static void run_skipping(tm_dram *d, const step *s, uint32_t n, uint64_t last, uint64_t *done)
{
    run_skipping_x(d, s, NULL, n, last, done);
}

/* A read to a closed bank: ACT at 0 (pushed and sent to the bank at 0),
 * RD at tRCD = 5, data on the bus 5+tCL = 9 .. 10, done at 11 =
 * tRCD + tCL + burst. next_event names 5, then 11, then nothing. */
static void test_read_closed_bank(void **state)
{
    (void)state;
    tm_config c = base_config();
    tm_dram *d = make(&c);
    tm_req r = {.bytes = 64, .kind = TM_REQ_READ, .tag = 42};
    assert_true(tm_dram_push(d, &r, 0, 7, 0, 0));
    tm_dram_cycle(d, 0);
    assert_int_equal(tm_dram_get_stats(d)->n_act, 1);
    assert_int_equal(tm_dram_next_event(d), 5); /* RD: ACT at 0 + tRCD */
    for (uint64_t t = 1; t <= 10; t++) {
        tm_dram_cycle(d, t);
        assert_false(tm_dram_pop_reply(d, &r));
    }
    assert_int_equal(tm_dram_next_event(d), 11); /* RD 5 + tCL 4 + burst 2 */
    tm_dram_cycle(d, 11);
    assert_true(tm_dram_pop_reply(d, &r));
    assert_int_equal(r.tag, 42);
    assert_int_equal(tm_dram_next_event(d), UINT64_MAX);
    const tm_dram_stats *s = tm_dram_get_stats(d);
    assert_int_equal(s->n_rd, 1);
    assert_int_equal(s->reads_done, 1);
    assert_int_equal(s->hits_num, 0); /* it needed its own ACT */
    assert_int_equal(s->tot_latency, 11);
    tm_dram_free(d);
}

/* Two reads to the same row, tCCD = 3 and no bank groups (nbkgrp 1,
 * tCCDL 0): A as above (RD 5, done 11). B goes to the bank at 6 (after A's
 * RD freed it), needs no ACT, RD at max(6, 5 + tCCD = 8, bus: 11 - tCL = 7)
 * = 8: tCCD after A's RD; done 8 + 4 + 2 = 14. */
static void test_row_hit_tccd(void **state)
{
    (void)state;
    tm_config c = base_config();
    c.dram.tCCD = 3;
    c.dram.nbkgrp = 1;
    c.dram.tCCDL = 0;
    tm_dram *d = make(&c);
    step s[] = {{0, TM_REQ_READ, 0, 7, 64}, {0, TM_REQ_READ, 0, 7, 64}};
    uint64_t done[2] = {0};
    run(d, s, 2, 20, done);
    assert_int_equal(done[0], 11);
    assert_int_equal(done[1], 14);
    const tm_dram_stats *st = tm_dram_get_stats(d);
    assert_int_equal(st->n_act, 1);
    assert_int_equal(st->hits_num, 1);
    assert_int_equal(st->access_num, 2);
    tm_dram_free(d);
}

/* Another row of the same bank. A (row 1): ACT 0, RD 5, done 11. B (row 2)
 * at the bank from 6: PRE at max(ACT 0 + tRAS 10, RD 5 + burst 2, RD 5 +
 * tRTPL 2) = 10; ACT at max(PRE 10 + tRP 3, ACT 0 + tRC 13) = 13; RD 13 +
 * tRCD = 18; done 18 + tCL + burst = 24. With tRC = 16 the ACT waits to 16:
 * RD 21, done 27. With tRC = 10 tRAS and tRP alone set it: still PRE 10,
 * ACT 13, done 24 (without tRAS the PRE would be at 7 and the ACT at 10;
 * without tRP the ACT would be at 10). */
static void test_row_conflict(void **state)
{
    (void)state;
    step s[] = {{0, TM_REQ_READ, 0, 1, 64}, {0, TM_REQ_READ, 0, 2, 64}};
    tm_config c = base_config();
    tm_dram *d = make(&c);
    uint64_t done[2] = {0};
    run(d, s, 2, 30, done);
    assert_int_equal(done[0], 11);
    assert_int_equal(done[1], 24);
    assert_int_equal(tm_dram_get_stats(d)->n_act, 2);
    assert_int_equal(tm_dram_get_stats(d)->n_pre, 1);
    tm_dram_free(d);

    c.dram.tRC = 16;
    d = make(&c);
    memset(done, 0, sizeof done);
    run(d, s, 2, 30, done);
    assert_int_equal(done[1], 27);
    tm_dram_free(d);

    c.dram.tRC = 10;
    d = make(&c);
    memset(done, 0, sizeof done);
    run(d, s, 2, 30, done);
    assert_int_equal(done[1], 24);
    tm_dram_free(d);
}

/* The data bus is a resource: with tCCD = tCCDL = 1, shorter than a burst
 * (2), a row hit cannot start its data before the previous burst ends.
 * A: RD 5, data 9 .. 10, done 11. B at the bank from 6: RD at max(6, 5 +
 * tCCD = 6, bus free at 11 - tCL = 7) = 7, done 7 + 4 + 2 = 13 (12 if the
 * data overlapped, as in GPGPU-Sim). */
static void test_data_bus_serializes(void **state)
{
    (void)state;
    tm_config c = base_config();
    c.dram.tCCD = 1;
    c.dram.tCCDL = 1;
    tm_dram *d = make(&c);
    step s[] = {{0, TM_REQ_READ, 0, 7, 64}, {0, TM_REQ_READ, 0, 7, 64}};
    uint64_t done[2] = {0};
    run(d, s, 2, 20, done);
    assert_int_equal(done[0], 11);
    assert_int_equal(done[1], 13);
    assert_int_equal(tm_dram_get_stats(d)->bwutil, 4);
    tm_dram_free(d);
}

/* ACTs to two banks (0 and 2: different bank groups, so tCCDL does not
 * enter). A to bank 0 at 0: ACT 0, RD 5, done 11. B reaches bank 2 at 1
 * (one request per cycle); ACT waits for tRRD: 0 + 3 = 3; RD at max(3 +
 * tRCD = 8, A's RD 5 + tCCD = 7, bus 11 - tCL = 7) = 8; done 8 + 6 = 14.
 * (Without tRRD: ACT 1, RD 7, done 13.) */
static void test_trrd(void **state)
{
    (void)state;
    tm_config c = base_config();
    tm_dram *d = make(&c);
    step s[] = {{0, TM_REQ_READ, 0, 1, 64}, {0, TM_REQ_READ, 2, 1, 64}};
    uint64_t done[2] = {0};
    run(d, s, 2, 20, done);
    assert_int_equal(done[0], 11);
    assert_int_equal(done[1], 14);
    tm_dram_free(d);
}

/* Write, then a read of the same open row. W: ACT 0, WR at tRCDWR = 2,
 * write data 2 + tWL = 4 .. 5. R at the bank from 3: RD at max(ACT 0 +
 * tRCD = 5, WR 2 + tCCDL 3 = 5, WR 2 + tWTR 6 = 8) = 8, i.e. after the
 * write data ends (6) plus tCDLR (2); done 8 + tCL + burst = 14. With
 * tCDLR 0: RD at max(5, 5, 2 + 4 = 6) = 6, done 12. */
static void test_write_to_read(void **state)
{
    (void)state;
    step s[] = {{0, TM_REQ_WRITE, 0, 1, 64}, {0, TM_REQ_READ, 0, 1, 64}};
    tm_config c = base_config();
    tm_dram *d = make(&c);
    uint64_t done[2] = {0};
    run(d, s, 2, 20, done);
    assert_int_equal(done[0], 0); /* writes complete silently */
    assert_int_equal(done[1], 14);
    const tm_dram_stats *st = tm_dram_get_stats(d);
    assert_int_equal(st->n_write, 1);
    assert_int_equal(st->writes_done, 1);
    assert_int_equal(st->hits_read_num, 1); /* the read found W's row open */
    assert_int_equal(st->hits_write_num, 0);
    tm_dram_free(d);

    c.dram.tCDLR = 0;
    d = make(&c);
    memset(done, 0, sizeof done);
    run(d, s, 2, 20, done);
    assert_int_equal(done[1], 12);
    tm_dram_free(d);
}

/* What holds a precharge back besides tRAS. A read then another row of
 * the same bank with tRTPL = 9: PRE at max(ACT 0 + tRAS 10, RD 5 + tRTPL 9
 * = 14) = 14, ACT 17, RD 22, done 28 (24 with tRTPL 2, as in
 * test_row_conflict). A write then another row with tWR = 10: W's WR at
 * tRCDWR = 2; PRE at max(10, WR 2 + tWTP (tWL 2 + burst 2 + tWR 10 = 14)
 * = 16) = 16, ACT 19, RD at max(24, WR 2 + tWTR 6) = 24, done 30.
 * A read's own burst before a precharge of its bank: with tRAS = tRC = 5
 * and tRTPL = 0, PRE at max(ACT 0 + 5, RD 5 + burst 2 = 7) = 7, ACT 10,
 * RD 15, done 21. */
static void test_precharge_after_read_and_write(void **state)
{
    (void)state;
    tm_config c = base_config();
    c.dram.tRTPL = 9;
    tm_dram *d = make(&c);
    step rr[] = {{0, TM_REQ_READ, 0, 1, 64}, {0, TM_REQ_READ, 0, 2, 64}};
    uint64_t done[2] = {0};
    run(d, rr, 2, 40, done);
    assert_int_equal(done[1], 28);
    tm_dram_free(d);

    c = base_config();
    c.dram.tWR = 10;
    d = make(&c);
    step wr[] = {{0, TM_REQ_WRITE, 0, 1, 64}, {0, TM_REQ_READ, 0, 2, 64}};
    memset(done, 0, sizeof done);
    run(d, wr, 2, 40, done);
    assert_int_equal(done[1], 30);
    tm_dram_free(d);

    c = base_config();
    c.dram.tRAS = c.dram.tRC = 5;
    c.dram.tRTPL = 0;
    d = make(&c);
    memset(done, 0, sizeof done);
    run(d, rr, 2, 40, done);
    assert_int_equal(done[1], 21);
    tm_dram_free(d);
}

/* Read to write turnaround tRTW = tCL + burst + 2 - tWL = 6. R to bank 0:
 * ACT 0, RD 5, done 11. W to bank 2 (group 1) at its bank from 1: ACT 3
 * (tRRD), WR at max(ACT 3 + tRCDWR 2, RD 5 + tCCD 7, RD 5 + tRTW 6 = 11,
 * bus 11 - tWL 9) = 11, data 13 .. 14. R2 to bank 2 after W: RD at max(
 * ACT 3 + tRCD 8, WR 11 + tCCDL 14, WR 11 + tWTR 6 = 17) = 17, done 23
 * (without tRTW: WR 9, RD 15, done 21). */
static void test_read_to_write(void **state)
{
    (void)state;
    tm_config c = base_config();
    tm_dram *d = make(&c);
    step s[] = {{0, TM_REQ_READ, 0, 1, 64}, {0, TM_REQ_WRITE, 2, 1, 64}, {0, TM_REQ_READ, 2, 1, 64}};
    uint64_t done[3] = {0};
    run(d, s, 3, 30, done);
    assert_int_equal(done[0], 11);
    assert_int_equal(done[2], 23);
    tm_dram_free(d);
}

/* One bank: A (row 1) pushed at 0, B (row 2) at 1, C (row 1) at 2.
 * FR-FCFS: A: ACT 0, RD 5, done 11. At 6 the bank takes C (open row 1)
 * before the older B: RD at max(6, 5 + tCCD 7, 5 + tCCDL 8, bus 7) = 8,
 * done 14. B at 9: PRE at max(ACT 0 + tRAS 10, RD 8 + burst 10, RD 8 +
 * tRTPL 10) = 10, ACT 13 (PRE + tRP; ACT 0 + tRC = 13), RD 18, done 24.
 * FIFO: A done 11. B at 6: PRE 10, ACT 13, RD 18, done 24. C at 19: PRE
 * at max(ACT 13 + tRAS = 23, RD 18 + 2 = 20) = 23, ACT at max(23 + 3, 13 +
 * 13) = 26, RD 31, done 37. */
static const step reorder_script[] = {{0, TM_REQ_READ, 0, 1, 64}, {1, TM_REQ_READ, 0, 2, 64},
                                      {2, TM_REQ_READ, 0, 1, 64}};

static void test_frfcfs_vs_fifo(void **state)
{
    (void)state;
    tm_config c = base_config();
    tm_dram *d = make(&c);
    uint64_t done[3] = {0};
    run(d, reorder_script, 3, 40, done);
    assert_int_equal(done[0], 11);
    assert_int_equal(done[2], 14);
    assert_int_equal(done[1], 24);
    const tm_dram_stats *st = tm_dram_get_stats(d);
    assert_int_equal(st->n_act, 2);
    assert_int_equal(st->n_pre, 1);
    assert_int_equal(st->hits_num, 1);
    tm_dram_free(d);

    c.dram_scheduler = TM_DRAM_FIFO;
    d = make(&c);
    memset(done, 0, sizeof done);
    run(d, reorder_script, 3, 40, done);
    assert_int_equal(done[0], 11);
    assert_int_equal(done[1], 24);
    assert_int_equal(done[2], 37);
    st = tm_dram_get_stats(d);
    assert_int_equal(st->n_act, 3);
    assert_int_equal(st->n_pre, 2);
    assert_int_equal(st->hits_num, 0);
    tm_dram_free(d);
}

/* QoS scheduling (Rhu's thesis, Ch. 6) on the reorder script with B (a
 * row miss) prioritized: FRFP-FCFS still serves row hits first, so C (a
 * hit) goes before B, as FR-FCFS: done 11, 14, 24; FP-FRFCFS serves the
 * prioritized B first, so the order is FIFO's: done 11, 24, 37 (the
 * timings of the test above). Without priority bits both are FR-FCFS. */
static void test_qos_priority(void **state)
{
    (void)state;
    static const uint64_t want[3][3] = {{11, 14, 24}, {11, 14, 24}, {11, 37, 24}}; /* done of A, C, B by option */
    for (uint8_t prio = 0; prio < 3; prio++) {
        for (int marked = 0; marked < 2; marked++) {
            tm_config c = base_config();
            tm_dram *d = make(&c);
            tm_dram_set_options(d, &(tm_dram_options){.priority = prio});
            uint64_t done[3] = {0};
            for (uint64_t now = 0; now <= 40; now++) {
                if (now < 3) {
                    const step *st = &reorder_script[now];
                    tm_req r = {.addr = 64 * now, .bytes = st->bytes, .kind = st->kind, .tag = (uint32_t)now,
                                .prio = (uint8_t)(marked && now == 1)};
                    assert_true(tm_dram_push(d, &r, st->bank, st->row, 0, now));
                }
                tm_dram_cycle(d, now);
                tm_req r;
                while (tm_dram_pop_reply(d, &r))
                    done[r.tag] = now;
            }
            uint64_t expect_c = marked ? want[prio][1] : 14, expect_b = marked ? want[prio][2] : 24;
            assert_int_equal(done[0], 11);
            assert_int_equal(done[2], expect_c);
            assert_int_equal(done[1], expect_b);
            tm_dram_free(d);
        }
    }
}

/* Skipping idle cycles through next_event gives the same completions and
 * the same counters as running every cycle. */
static void test_next_event_skipping(void **state)
{
    (void)state;
    tm_config c = base_config();
    tm_dram *a = make(&c), *b = make(&c);
    uint64_t da[3] = {0}, db[3] = {0};
    run(a, reorder_script, 3, 30, da);
    run_skipping(b, reorder_script, 3, 30, db);
    assert_memory_equal(da, db, sizeof da);
    assert_memory_equal(tm_dram_get_stats(a), tm_dram_get_stats(b), sizeof(tm_dram_stats));
    assert_int_equal(tm_dram_get_stats(b)->n_cmd, 31); /* cycles 0..30 */
    tm_dram_free(a);
    tm_dram_free(b);
}

/* A 128-byte read is two bursts: RD 5, second RD at max(5 + tCCD 7, 5 +
 * tCCDL 8 (same bank, same group), bus 9 + 2 - tCL = 7) = 8; its data
 * 12 .. 13, done 14. Two RD commands, 4 bus cycles. */
static void test_two_burst_request(void **state)
{
    (void)state;
    tm_config c = base_config();
    tm_dram *d = make(&c);
    step s[] = {{0, TM_REQ_READ, 0, 1, 128}};
    uint64_t done[1] = {0};
    run(d, s, 1, 20, done);
    assert_int_equal(done[0], 14);
    assert_int_equal(tm_dram_get_stats(d)->n_rd, 2);
    assert_int_equal(tm_dram_get_stats(d)->bwutil, 4);
    tm_dram_free(d);
}

/* A long stream of row hits reaches the data bus peak. With tCCD = tCCDL =
 * burst = 2 a RD can issue every 2 cycles: request k's RD at 5 + 2k (the
 * first after ACT 0 + tRCD; each next one goes to the bank the cycle after
 * the previous RD and waits tCCD), done 11 + 2k. N requests: the last done
 * at 2N + 9; running cycles 0 .. 2N + 9 is 2N + 10 cycles with 2N of data:
 * bw_util = 2N / (2N + 10) >= 1 - 10 / (2N + 10), 0.995 for N = 1000. */
static void test_peak_bandwidth(void **state)
{
    (void)state;
    enum { N = 1000 };
    tm_config c = base_config();
    c.dram.tCCDL = 2;
    tm_dram *d = make(&c);
    static step s[N];
    static uint64_t done[N];
    for (uint32_t k = 0; k < N; k++)
        s[k] = (step){0, TM_REQ_READ, 0, 3, 64};
    run(d, s, N, 2 * N + 9, done);
    for (uint32_t k = 0; k < N; k++)
        assert_int_equal(done[k], 11 + 2 * k);
    const tm_dram_stats *st = tm_dram_get_stats(d);
    assert_int_equal(st->n_cmd, 2 * N + 10);
    assert_int_equal(st->bwutil, 2 * N);
    assert_int_equal(st->n_act, 1);
    assert_int_equal(st->hits_num, N - 1);
    double util = (double)st->bwutil / (double)st->n_cmd;
    assert_true(util >= 1.0 - 10.0 / (2 * N + 10) - 1e-12);
    assert_true(util <= 1.0);
    tm_dram_free(d);
}

/* A queue of 2 waiting requests refuses a third; once one has gone to its
 * bank (cycle 0) there is room for one more. */
static void test_queue_full(void **state)
{
    (void)state;
    tm_config c = base_config();
    c.frfcfs_queue = 2;
    tm_dram *d = make(&c);
    tm_req r = {.bytes = 64, .kind = TM_REQ_READ};
    assert_true(tm_dram_push(d, &r, 0, 1, 0, 0));
    assert_true(tm_dram_push(d, &r, 0, 1, 0, 0));
    assert_false(tm_dram_can_accept(d, false));
    assert_false(tm_dram_push(d, &r, 0, 1, 0, 0));
    assert_int_equal(tm_dram_get_stats(d)->n_req, 2);
    tm_dram_cycle(d, 0); /* the first goes to bank 0 */
    assert_true(tm_dram_can_accept(d, false));
    assert_true(tm_dram_push(d, &r, 0, 1, 0, 1));
    assert_false(tm_dram_push(d, &r, 0, 1, 0, 1));
    assert_int_equal(tm_dram_pending(d), 3);
    tm_dram_free(d);
}

/* Dual command bus: A to bank 0 (ACT 0, RD ready at 5), B to bank 2 pushed
 * at 5 (at its bank at 5, ACT ready at 5). Single bus: the RD goes first
 * (column before row), B's ACT at 6, its RD at 11, done 11 + 6 = 17. Dual
 * bus: both at 5, B's RD at max(10, 5 + tCCD 7, bus 11 - 4 = 7) = 10, done
 * 16. */
static void test_dual_bus(void **state)
{
    (void)state;
    step s[] = {{0, TM_REQ_READ, 0, 1, 64}, {5, TM_REQ_READ, 2, 1, 64}};
    tm_config c = base_config();
    tm_dram *d = make(&c);
    uint64_t done[2] = {0};
    run(d, s, 2, 20, done);
    assert_int_equal(done[0], 11);
    assert_int_equal(done[1], 17);
    tm_dram_free(d);
    d = make(&c);
    tm_dram_set_options(d, &(tm_dram_options){.dual_bus_interface = true});
    memset(done, 0, sizeof done);
    run(d, s, 2, 20, done);
    assert_int_equal(done[0], 11);
    assert_int_equal(done[1], 16);
    tm_dram_free(d);
}

/* The report of the FR-FCFS run of reorder_script over cycles 0..24:
 * commands ACT 0, RD 5, RD 8, PRE 10, ACT 13, RD 18 -> n_nop = 25 - 6 = 19;
 * data 3 x 2 cycles: bw_util = 6/25; a request is in the channel from 0 to
 * B's end at 24: n_activity = 24, dram_eff = 6/24; one hit in three;
 * waits for the bank: A 0, C 6-2 = 4, B 9-1 = 8 -> avg 4, max 8;
 * latencies A 11, C 14-2 = 12, B 24-1 = 23 -> avg 46/3, max 23; at most 2
 * waiting (B and C during 2..5). */
static void test_stats_report(void **state)
{
    (void)state;
    tm_config c = base_config();
    tm_dram *d = make(&c);
    uint64_t done[3] = {0};
    run(d, reorder_script, 3, 24, done);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    tm_dram_print_stats(d, f);
    fclose(f);
    const char *want[] = {"DRAM[0]: 4 bks, busW=16 BL=4 CL=4,", "\nn_cmd = 25\n", "\nn_nop = 19\n",
                          "\nn_act = 2\n", "\nn_pre = 1\n", "\nn_req = 3\n", "\nn_rd = 3\n",
                          "\nn_write = 0\n", "\nbw_util = 0.240000\n", "\nn_activity = 24\n",
                          "\ndram_eff = 0.250000\n", "\nrow_buffer_hits = 1\n", "\nrow_buffer_misses = 2\n",
                          "\nRow_Buffer_Locality = 0.333333\n",
                          "\nRow_Buffer_Locality_read = 0.333333\n", "\navg_mrq_latency = 4.000000\n",
                          "\nmaxmrqlatency = 8\n", "\navg_dram_latency = 15.333333\n",
                          "\nmax_dram_latency = 23\n", "\nmrqq_max = 2\n"};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        if (!strstr(buf, want[i]))
            print_error("missing \"%s\" in:\n%s", want[i], buf);
        assert_non_null(strstr(buf, want[i]));
    }
    free(buf);
    tm_dram_free(d);
}

/* ---- random traffic against a reference checker ------------------------
 * The checker below is written from the command rules of dram.h alone: it
 * sees every command through the trace, keeps its own bank states and
 * last-command times, and flags any command that breaks a rule, any cycle
 * with more commands than the command bus(es) carry, and any read whose
 * reply does not come exactly when its last burst has crossed the bus
 * (RD + tCL + burst). */

#define RAND_N 600
#define NEVER (-1000000)

typedef struct checker {
    const tm_config *c;
    bool dual, low_bits;
    int64_t burst, tRCDWR, tRTW, tWTR, tWTP;
    bool active[64];
    uint32_t row[64];
    int64_t last_act[64], last_pre[64], last_rd[64], last_wr[64]; /* per bank */
    int64_t grp_col[64], grp_rd[64];                              /* per bank group */
    /* per sub-rank (its own command and data buses) */
    int64_t any_act[64], any_col[64], any_rd[64], any_wr[64], bus_end[64];
    int64_t cycle;
    int row_cmds[64], col_cmds[64];
    uint32_t bursts_left[RAND_N];
    uint64_t expect_done[RAND_N];
    uint32_t errors;
} checker;

static void checker_init(checker *k, const tm_config *c, bool dual, bool low_bits)
{
    memset(k, 0, sizeof *k);
    k->c = c;
    k->dual = dual;
    k->low_bits = low_bits;
    const tm_dram_timing *t = &c->dram;
    k->burst = c->dram_burst_length / c->dram_data_command_freq_ratio;
    k->tRCDWR = (int64_t)t->tRCD - (t->tWL + 1);
    k->tRCDWR = k->tRCDWR < 0 ? 0 : k->tRCDWR;
    k->tRTW = (int64_t)t->tCL + k->burst + 2 - t->tWL;
    k->tRTW = k->tRTW < 0 ? 0 : k->tRTW;
    k->tWTR = t->tWL + k->burst + t->tCDLR;
    k->tWTP = t->tWL + k->burst + t->tWR;
    for (int i = 0; i < 64; i++) {
        k->last_act[i] = k->last_pre[i] = k->last_rd[i] = k->last_wr[i] = k->grp_col[i] = k->grp_rd[i] = NEVER;
        k->any_act[i] = k->any_col[i] = k->any_rd[i] = k->any_wr[i] = k->bus_end[i] = NEVER;
    }
    k->cycle = -1;
}

/* Check that `now >= since + gap`, naming the rule when not. */
static void rule(checker *k, int64_t now, int64_t since, int64_t gap, const char *what)
{
    if (now < since + gap) {
        print_error("cycle %lld: %s violated (previous at %lld, needs %lld)\n", (long long)now, what,
                    (long long)since, (long long)gap);
        k->errors++;
    }
}

static void checker_cmd(void *ctx, uint64_t cycle, char cmd, uint32_t b, uint32_t row, uint32_t tag)
{
    checker *k = ctx;
    const tm_dram_timing *t = &k->c->dram;
    int64_t now = (int64_t)cycle;
    uint32_t sr = b / t->nbk, lb = b % t->nbk; /* sub-rank, bank within it */
    uint32_t g = sr * t->nbkgrp + (k->low_bits ? lb % t->nbkgrp : lb / (t->nbk / t->nbkgrp));
    if (now != k->cycle) {
        k->cycle = now;
        memset(k->row_cmds, 0, sizeof k->row_cmds);
        memset(k->col_cmds, 0, sizeof k->col_cmds);
    }
    bool is_row = cmd == 'A' || cmd == 'P';
    k->row_cmds[sr] += is_row;
    k->col_cmds[sr] += !is_row;
    if (k->dual ? (k->row_cmds[sr] > 1 || k->col_cmds[sr] > 1) : k->row_cmds[sr] + k->col_cmds[sr] > 1) {
        print_error("cycle %lld: too many commands for the command bus\n", (long long)now);
        k->errors++;
    }
    switch (cmd) {
    case 'A':
        if (k->active[b]) {
            print_error("cycle %lld: ACT to open bank %u\n", (long long)now, b);
            k->errors++;
        }
        rule(k, now, k->any_act[sr], t->tRRD, "tRRD");
        rule(k, now, k->last_act[b], t->tRC, "tRC");
        rule(k, now, k->last_pre[b], t->tRP, "tRP");
        k->active[b] = true;
        k->row[b] = row;
        k->last_act[b] = k->any_act[sr] = now;
        break;
    case 'P':
        if (!k->active[b]) {
            print_error("cycle %lld: PRE to closed bank %u\n", (long long)now, b);
            k->errors++;
        }
        rule(k, now, k->last_act[b], t->tRAS, "tRAS");
        rule(k, now, k->last_rd[b], k->burst, "read burst before PRE");
        rule(k, now, k->grp_rd[g], t->tRTPL, "tRTPL");
        rule(k, now, k->last_wr[b], k->tWTP, "write recovery (tWL + burst + tWR)");
        k->active[b] = false;
        k->last_pre[b] = now;
        break;
    default: {
        bool rd = cmd == 'R';
        if (!k->active[b] || k->row[b] != row) {
            print_error("cycle %lld: column command to bank %u row %u, not open\n", (long long)now, b, row);
            k->errors++;
        }
        rule(k, now, k->any_col[sr], t->tCCD, "tCCD");
        rule(k, now, k->grp_col[g], t->tCCDL, "tCCDL");
        rule(k, now, k->last_act[b], rd ? t->tRCD : k->tRCDWR, rd ? "tRCD" : "tRCDWR");
        if (rd)
            rule(k, now, k->any_wr[sr], k->tWTR, "write to read (tWL + burst + tCDLR)");
        else
            rule(k, now, k->any_rd[sr], k->tRTW, "read to write");
        int64_t start = now + (rd ? t->tCL : t->tWL);
        rule(k, start, k->bus_end[sr], 0, "data bus overlap");
        k->bus_end[sr] = start + k->burst;
        k->any_col[sr] = k->grp_col[g] = now;
        if (rd)
            k->last_rd[b] = k->any_rd[sr] = k->grp_rd[g] = now;
        else
            k->last_wr[b] = k->any_wr[sr] = now;
        if (tag < RAND_N) { /* the reply: when the last burst of all its parts has crossed */
            if ((uint64_t)k->bus_end[sr] > k->expect_done[tag])
                k->expect_done[tag] = (uint64_t)k->bus_end[sr];
            if (--k->bursts_left[tag] == 0)
                k->expect_done[tag] |= 1ull << 63; /* complete */
        }
    }
    }
}

typedef struct rand_req {
    uint64_t at;
    uint8_t kind;
    uint32_t bank, row, bytes;
    bool hint;
} rand_req;

/* Push the requests (each at its cycle or, when the queue is full, as soon
 * as it has room), run until everything has finished, record reply
 * cycles. skipping: run only the cycles next_event() names or a push
 * needs. */
static void drive(tm_dram *d, const rand_req *q, uint32_t n, bool skipping, uint64_t *done)
{
    uint64_t now = 0;
    uint32_t next = 0;
    for (;;) {
        for (; next < n && q[next].at <= now && tm_dram_can_accept(d, q[next].kind != TM_REQ_READ); next++) {
            tm_req r = {.addr = 32ull * next, .bytes = q[next].bytes, .kind = q[next].kind, .tag = next,
                        .row_hint = q[next].hint};
            assert_true(tm_dram_push(d, &r, q[next].bank, q[next].row, 0, now));
        }
        tm_dram_cycle(d, now);
        tm_req r;
        while (tm_dram_pop_reply(d, &r))
            done[r.tag] = now;
        if (next == n && tm_dram_pending(d) == 0)
            return;
        assert_true(now < 1000000); /* no deadlock */
        uint64_t t = skipping ? tm_dram_next_event(d) : now + 1;
        if (next < n && tm_dram_can_accept(d, q[next].kind != TM_REQ_READ)) {
            uint64_t want = q[next].at > now + 1 ? q[next].at : now + 1;
            t = want < t ? want : t;
        }
        now = t;
    }
}

/* QV100's HBM timing (Accel-Sim SM7_QV100: nbk=16 CCD=1 RRD=3 RCD=12
 * RAS=28 RP=12 RC=40 CL=12 WL=2 CDLR=3 WR=10 nbkgrp=4 CCDL=2 RTPL=3,
 * 16-byte bus, BL 2, ratio 2: 32-byte bursts of one cycle) and the base
 * configuration (also with tCCD = tCCDL = 1, shorter than its 2-cycle
 * burst), each with both schedulers and both command buses, with and
 * without a separate write queue, with two sub-ranks or none, and (FR-FCFS)
 * with row-buffer hints on a quarter of the requests and a 20-cycle hold or
 * without, under random traffic: no rule broken (sub-ranks: each on its own
 * buses), every read answered exactly when the data of all its parts has
 * crossed, every write finished, and the same results when idle cycles are
 * skipped. */
static void test_random_traffic_keeps_every_rule(void **state)
{
    (void)state;
    static rand_req q[RAND_N];
    static uint64_t done_a[RAND_N], done_b[RAND_N];
    static checker k;
    for (int variant = 0; variant < 128; variant++) {
        bool subranks = variant & 32, hold = variant & 64;
        if (hold && variant & 2)
            continue; /* the hold is FR-FCFS's */
        tm_config c = base_config();
        if (variant & 8) { /* column commands closer than a burst: the data bus decides */
            c.dram.tCCD = 1;
            c.dram.tCCDL = 1;
        }
        if (variant & 1) {
            c.dram = (tm_dram_timing){.nbk = 16, .tCCD = 1, .tRRD = 3, .tRCD = 12, .tRAS = 28, .tRP = 12,
                                      .tRC = 40, .tCL = 12, .tWL = 2, .tCDLR = 3, .tWR = 10, .nbkgrp = 4,
                                      .tCCDL = 2, .tRTPL = 3};
            c.dram_burst_length = 2;
        }
        c.dram_scheduler = variant & 2 ? TM_DRAM_FIFO : TM_DRAM_FRFCFS;
        c.frfcfs_queue = 8;
        if (subranks) { /* two one-chip sub-ranks: the same burst per sub-rank */
            c.chips_per_channel = 2;
            c.dram_subranks = 2;
        }
        tm_dram_options opt = {.dual_bus_interface = (variant & 4) != 0, .bankgrp_low_bits = (variant & 4) != 0,
                               .write_queue = (variant & 16) != 0, .wq_size = 6, .wq_high = 5, .wq_low = 2,
                               .row_hold = hold ? 20 : 0};
        uint32_t atom = c.dram_burst_length * c.dram_buswidth;
        uint64_t x = 0x243f6a8885a308d3ull + (uint64_t)variant, at = 0;
        uint32_t writes = 0;
        for (uint32_t i = 0; i < RAND_N; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            at += x % 4; /* bursts of arrivals and gaps */
            bool w = (x >> 8) % 10 < 3;
            writes += w;
            q[i] = (rand_req){at, w ? TM_REQ_WRITE : TM_REQ_READ, (uint32_t)(x >> 16) % c.dram.nbk,
                              (uint32_t)(x >> 24) % 3, atom * (1u + (uint32_t)(x >> 32) % 4), (x >> 40) % 4 == 0};
        }
        checker_init(&k, &c, opt.dual_bus_interface, opt.bankgrp_low_bits);
        for (uint32_t i = 0; i < RAND_N; i++) { /* drive() puts request i at 32 * i */
            uint64_t first = 32ull * i / atom, last = (32ull * i + q[i].bytes - 1) / atom;
            k.bursts_left[i] = subranks ? (uint32_t)(last - first + 1) : q[i].bytes / atom;
        }
        tm_dram *a = make(&c), *b = make(&c);
        tm_dram_set_options(a, &opt);
        tm_dram_set_options(b, &opt);
        tm_dram_set_trace(a, checker_cmd, &k);
        memset(done_a, 0, sizeof done_a);
        memset(done_b, 0, sizeof done_b);
        drive(a, q, RAND_N, false, done_a);
        drive(b, q, RAND_N, true, done_b);
        assert_int_equal(k.errors, 0);
        for (uint32_t i = 0; i < RAND_N; i++) {
            assert_true(k.expect_done[i] >> 63); /* every burst issued */
            if (q[i].kind == TM_REQ_READ)
                assert_int_equal(done_a[i], k.expect_done[i] & ~(1ull << 63));
        }
        const tm_dram_stats *sa = tm_dram_get_stats(a);
        assert_int_equal(sa->writes_done, writes);
        assert_int_equal(sa->reads_done, RAND_N - writes);
        assert_true(sa->bwutil <= sa->n_cmd * (subranks ? 2 : 1)); /* a data bus per sub-rank */
        if (memcmp(done_a, done_b, sizeof done_a))
            print_error("variant %d\n", variant);
        assert_memory_equal(done_a, done_b, sizeof done_a);
        assert_memory_equal(sa, tm_dram_get_stats(b), sizeof *sa);
        tm_dram_free(a);
        tm_dram_free(b);
    }
}

/* Unusable configurations are refused with the option named. */
static void test_config_errors(void **state)
{
    (void)state;
    char err[256];
    tm_config c = base_config();
    c.dram_burst_length = 3; /* not a multiple of the ratio 2 */
    assert_null(tm_dram_new(&c, 0, err, sizeof err));
    assert_non_null(strstr(err, "-gpgpu_dram_burst_length"));
    c = base_config();
    c.dram.nbk = 6; /* not a multiple of nbkgrp 4 */
    c.dram.nbkgrp = 4;
    assert_null(tm_dram_new(&c, 0, err, sizeof err));
    assert_non_null(strstr(err, "nbkgrp"));
    c = base_config();
    c.dram.nbk = 0;
    assert_null(tm_dram_new(&c, 0, err, sizeof err));
    assert_non_null(strstr(err, "nbk"));
    c = base_config();
    c.dram_buswidth = 0;
    assert_null(tm_dram_new(&c, 0, err, sizeof err));
    assert_non_null(strstr(err, "-gpgpu_dram_buswidth"));
}

/* The column commands of a channel, in order: 'R' or 'W' and the tag. */
typedef struct col_log {
    char cmd[16];
    uint32_t tag[16], n;
} col_log;

static void log_col(void *ctx, uint64_t cycle, char cmd, uint32_t bank, uint32_t row, uint32_t tag)
{
    (void)cycle, (void)bank, (void)row;
    col_log *l = ctx;
    if ((cmd == 'R' || cmd == 'W') && l->n < 16)
        l->cmd[l->n] = cmd, l->tag[l->n++] = tag;
}

/* The order in which one bank serves `kinds` (one request each, tags in
 * order, all to bank 0 row 1, pushed at cycle 0), as a string of R / W. */
static void serve_order(const tm_dram_options *opt, const char *kinds, char *out)
{
    tm_config c = base_config();
    tm_dram *d = make(&c);
    tm_dram_set_options(d, opt);
    col_log l = {.n = 0};
    tm_dram_set_trace(d, log_col, &l);
    uint32_t n = (uint32_t)strlen(kinds);
    for (uint32_t i = 0; i < n; i++) {
        tm_req r = {.bytes = 32, .kind = kinds[i] == 'W' ? TM_REQ_WRITE : TM_REQ_READ, .tag = i};
        assert_true(tm_dram_push(d, &r, 0, 1, 0, 0));
    }
    for (uint64_t now = 0; tm_dram_pending(d) && now < 1000; now++) {
        tm_dram_cycle(d, now);
        tm_req r;
        while (tm_dram_pop_reply(d, &r))
            ;
    }
    assert_int_equal(tm_dram_pending(d), 0);
    for (uint32_t i = 0; i < l.n; i++)
        out[i] = l.cmd[i];
    out[l.n] = '\0';
    tm_dram_free(d);
}

/* The separate write queue (GPGPU-Sim's -dram_seperate_write_queue_enable
 * with -dram_write_queue_size SIZE:HIGH:LOW, dram_sched.cc's READ_MODE /
 * WRITE_MODE): one bank serves one request at a time, so its column
 * commands are the scheduler's choices in order. Without the queue,
 * FR-FCFS takes the oldest first (the row is the same): W W R R. With it
 * (high 3, low 1), two waiting writes stay below the high watermark and
 * the reads go first, then the writes once no read waits (simtlab's
 * rule): R R W W. Three writes reach the high watermark: they drain first,
 * down to below the low watermark (0 < 1), then the read: W W W R. With
 * low 2 the drain stops after two writes (1 < 2), the read goes, and the
 * last write after it: W W R W. A full write queue refuses writes, not
 * reads. */
static void test_write_queue(void **state)
{
    (void)state;
    char got[17];
    tm_dram_options none = {0}, wq = {.write_queue = true, .wq_size = 4, .wq_high = 3, .wq_low = 1};
    serve_order(&none, "WWRR", got);
    assert_string_equal(got, "WWRR");
    serve_order(&wq, "WWRR", got);
    assert_string_equal(got, "RRWW");
    serve_order(&wq, "WWWR", got);
    assert_string_equal(got, "WWWR");
    tm_dram_options low2 = wq;
    low2.wq_low = 2;
    serve_order(&low2, "WWWR", got);
    assert_string_equal(got, "WWRW");
    tm_config c = base_config();
    c.frfcfs_queue = 1;
    tm_dram *d = make(&c);
    tm_dram_options small = {.write_queue = true, .wq_size = 2, .wq_high = 2, .wq_low = 1};
    tm_dram_set_options(d, &small);
    tm_req w = {.bytes = 32, .kind = TM_REQ_WRITE}, r = {.bytes = 32, .kind = TM_REQ_READ};
    assert_true(tm_dram_push(d, &w, 0, 1, 0, 0));
    assert_true(tm_dram_push(d, &w, 0, 1, 0, 0));
    assert_false(tm_dram_can_accept(d, true));
    assert_false(tm_dram_push(d, &w, 0, 1, 0, 0));
    assert_true(tm_dram_can_accept(d, false)); /* the read queue (1 entry) is empty */
    assert_true(tm_dram_push(d, &r, 0, 1, 0, 0));
    assert_false(tm_dram_can_accept(d, false));
    tm_dram_free(d);
}


/* Sub-ranks (Rhu's LAMAR, Sec. 5.2): the base timing on two chips, as one
 * rank (a burst moves 4 x 16 x 2 = 128 bytes) or as two one-chip sub-ranks
 * (64-byte bursts; 64-byte chunk k of the address space on sub-rank k % 2).
 *
 * Two 64-byte reads of one row of bank 0, at addresses 0 and 64, pushed at
 * 0. One rank: A takes the bank at 0: ACT 0, RD 5, done 5 + tCL 4 + burst
 * 2 = 11; B (a row hit) takes it at 6: RD at max(6, RD 5 + tCCDL 3 = 8,
 * bus free 11 - tCL = 7) = 8, done 14; each moved a 128-byte burst (256
 * bytes of data bus for 128 asked). Sub-ranks: A is on sub-rank 0, B on
 * sub-rank 1, each with its own banks, buses and scheduler: both ACT at 0,
 * RD 5, done 11; 64-byte bursts (128 bytes moved).
 *
 * A 128-byte read at address 0: one rank, one burst: done 11. Sub-ranks:
 * a 64-byte part on each, both ACT at 0 (each sub-rank its own command
 * bus and tRRD), RD 5, done 11: one reply at 11, counted as one request
 * (n_req 1, reads_done 1) and two accesses. */
static void test_subranks(void **state)
{
    (void)state;
    tm_config c = base_config();
    c.chips_per_channel = 2;
    step two[] = {{0, TM_REQ_READ, 0, 7, 64}, {0, TM_REQ_READ, 0, 7, 64}};
    step_extra at[] = {{.addr = 0}, {.addr = 64}};
    uint64_t done[2] = {0};
    tm_dram *d = make(&c);
    run_x(d, two, at, 2, 30, done);
    assert_int_equal(done[0], 11);
    assert_int_equal(done[1], 14);
    assert_int_equal(tm_dram_burst_bytes(d), 128);
    assert_int_equal(tm_dram_get_stats(d)->n_rd, 2);
    tm_dram_free(d);

    c.dram_subranks = 2;
    d = make(&c);
    memset(done, 0, sizeof done);
    run_x(d, two, at, 2, 30, done);
    assert_int_equal(done[0], 11);
    assert_int_equal(done[1], 11);
    assert_int_equal(tm_dram_burst_bytes(d), 64);
    assert_int_equal(tm_dram_subranks(d), 2);
    assert_int_equal(tm_dram_get_stats(d)->n_act, 2);
    assert_int_equal(tm_dram_get_stats(d)->n_rd, 2);
    tm_dram_free(d);

    step line[] = {{0, TM_REQ_READ, 0, 7, 128}};
    step_extra line_at[] = {{.addr = 0}};
    d = make(&c);
    memset(done, 0, sizeof done);
    run_x(d, line, line_at, 1, 30, done);
    assert_int_equal(done[0], 11);
    const tm_dram_stats *st = tm_dram_get_stats(d);
    assert_int_equal(st->n_req, 1);
    assert_int_equal(st->reads_done, 1);
    assert_int_equal(st->access_num, 2);
    assert_int_equal(st->n_act, 2);
    assert_int_equal(st->tot_latency, 11);
    assert_int_equal(st->bwutil, 4); /* 2 cycles on each sub-rank's bus */
    tm_dram_free(d);

    /* LAMAR's fetch of sectors 1 and 3 of a 128-byte line (a sector mask,
     * 64 bytes) with 32-byte bursts (buswidth 8): sector 1 on sub-rank 1,
     * sector 3 on sub-rank 1 too (chunks 1 and 3): two bursts there, none on
     * sub-rank 0. */
    c.dram_buswidth = 8;
    d = make(&c);
    tm_req r = {.addr = 32, .bytes = 64, .sectors = 0xa, .kind = TM_REQ_READ};
    assert_true(tm_dram_push(d, &r, 0, 7, 0, 0));
    for (uint64_t t = 0; t < 30; t++)
        tm_dram_cycle(d, t);
    assert_int_equal(tm_dram_get_stats(d)->n_act, 1);
    assert_int_equal(tm_dram_get_stats(d)->n_rd, 2);
    tm_dram_free(d);

    /* Without sub-ranks, with 64-byte bursts (buswidth 8, 2 chips, BL 4): sectors 0 and 2 of a line
     * are in two different 64-byte chunks, two bursts; sectors 0 and 1 share one. */
    c.dram_subranks = 1;
    c.dram_buswidth = 8;
    for (int k = 0; k < 2; k++) {
        d = make(&c);
        tm_req m = {.addr = 0, .bytes = 64, .sectors = k ? 0x3 : 0x5, .kind = TM_REQ_READ};
        assert_true(tm_dram_push(d, &m, 0, 7, 0, 0));
        for (uint64_t t = 0; t < 30; t++)
            tm_dram_cycle(d, t);
        assert_int_equal(tm_dram_get_stats(d)->n_rd, k ? 1 : 2);
        tm_dram_free(d);
    }

    char err[256];
    c.dram_subranks = 4; /* does not divide 2 chips */
    assert_null(tm_dram_new(&c, 0, err, sizeof err));
    assert_non_null(strstr(err, "-simtlab_dram_subranks"));
}

/* Narasiman's row-buffer hint (Sec. 7.2; digest example 2.13 with the
 * base timing and a 20-cycle hold). A (hinted, bank 0 row 1) at 0: ACT 0,
 * RD 5, done 11; its last burst at 5 starts the hold until 25. B (row 2 of
 * bank 0) arrives at 1.
 *
 * (i) A's follow-up C (row 1) arrives at 12, inside the hold. Without the
 * hold B takes the bank at 6: PRE at max(ACT 0 + tRAS 10, RD 5 + burst 2,
 * RD 5 + tRTPL 2) = 10, ACT 13, RD 18, done 24; C takes it at 19 (row 2
 * open): PRE at max(ACT 13 + 10, RD 18 + 2) = 23, ACT at max(23 + tRP 3,
 * 13 + tRC 13) = 26, RD 31, done 37. With the hold B waits; C, a row hit,
 * takes the bank at 12: RD at 12 (tCCD, tCCDL and the bus allow it), done
 * 18; the hold ends; B takes the bank at 13: PRE at max(10, RD 12 + 2) =
 * 14, ACT 17, RD 22, done 28. C gains 19 cycles, B loses 4.
 *
 * (ii) C arrives at 30, after the hold: B takes the bank when the hold
 * runs out at 25: PRE 25, ACT 28, RD 33, done 39 (not 24); C takes it at
 * 34: PRE at max(ACT 28 + 10, RD 33 + 2) = 38, ACT 41, RD 46, done 52.
 * Without the hold: B done 24; C takes the bank at 30: PRE 30, ACT 33, RD
 * 38, done 44. The thesis's case for capping the hold.
 *
 * Skipping idle cycles (next_event) gives the same answers. */
static void test_row_hold(void **state)
{
    (void)state;
    tm_config c = base_config();
    step_extra hint[] = {{.hint = true}, {0}, {0}};
    struct {
        uint64_t c_at, hold, a, b, c;
    } cases[] = {{12, 0, 11, 24, 37}, {12, 20, 11, 28, 18}, {30, 0, 11, 24, 44}, {30, 20, 11, 39, 52}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        step s[] = {{0, TM_REQ_READ, 0, 1, 64}, {1, TM_REQ_READ, 0, 2, 64}, {cases[k].c_at, TM_REQ_READ, 0, 1, 64}};
        for (int skipping = 0; skipping < 2; skipping++) {
            tm_dram *d = make(&c);
            tm_dram_set_options(d, &(tm_dram_options){.row_hold = (uint32_t)cases[k].hold});
            uint64_t done[3] = {0};
            (skipping ? run_skipping_x : run_x)(d, s, hint, 3, 60, done);
            assert_int_equal(done[0], cases[k].a);
            assert_int_equal(done[1], cases[k].b);
            assert_int_equal(done[2], cases[k].c);
            tm_dram_free(d);
        }
    }
}

/* Active-standby residency for the energy model: a row is open from its
 * ACT to its PRE. test_row_conflict's script: ACT 0, PRE 10, ACT 13, and
 * the row stays open; run to cycle 30 (31 cycles): open 10 + 18 = 28.
 * With two sub-ranks each counts: a 128-byte read at address 0 opens a row
 * in each at 0; after cycles 0..20: 2 x 21 = 42. */
static void test_open_cycles(void **state)
{
    (void)state;
    tm_config c = base_config();
    step s[] = {{0, TM_REQ_READ, 0, 1, 64}, {0, TM_REQ_READ, 0, 2, 64}};
    uint64_t done[2] = {0};
    tm_dram *d = make(&c);
    run(d, s, 2, 30, done);
    assert_int_equal(tm_dram_get_stats(d)->n_cmd, 31);
    assert_int_equal(tm_dram_open_cycles(d), 28);
    tm_dram_free(d);

    c.chips_per_channel = 2;
    c.dram_subranks = 2;
    d = make(&c);
    step line[] = {{0, TM_REQ_READ, 0, 7, 128}};
    step_extra at[] = {{.addr = 0}};
    run_x(d, line, at, 1, 20, done);
    assert_int_equal(tm_dram_open_cycles(d), 42);
    tm_dram_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_closed_bank),  cmocka_unit_test(test_row_hit_tccd),
        cmocka_unit_test(test_row_conflict),      cmocka_unit_test(test_data_bus_serializes),
        cmocka_unit_test(test_trrd),
        cmocka_unit_test(test_write_to_read),     cmocka_unit_test(test_precharge_after_read_and_write),
        cmocka_unit_test(test_read_to_write),     cmocka_unit_test(test_frfcfs_vs_fifo),
        cmocka_unit_test(test_qos_priority),
        cmocka_unit_test(test_next_event_skipping), cmocka_unit_test(test_two_burst_request),
        cmocka_unit_test(test_peak_bandwidth),    cmocka_unit_test(test_queue_full),
        cmocka_unit_test(test_write_queue),
        cmocka_unit_test(test_dual_bus),          cmocka_unit_test(test_stats_report),
        cmocka_unit_test(test_random_traffic_keeps_every_rule), cmocka_unit_test(test_config_errors),
        cmocka_unit_test(test_subranks),          cmocka_unit_test(test_row_hold),
        cmocka_unit_test(test_open_cycles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
