/* test_icnt.c — the SM <-> memory crossbar (timing/icnt.h).
 *
 * Every expected cycle is derived by hand from the parameters each test
 * sets and the rules icnt.h states: a packet is ceil(bytes / flit_bytes)
 * flits (bytes = 8-byte header, plus data for write/atomic requests and
 * read/atomic replies); an output and an input each move one flit per
 * cycle; a packet whose first flit crosses at cycle t can be popped from
 * t + flits + latency; outputs pick among waiting inputs round-robin,
 * starting after the last winner. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "timing/icnt.h"

static tm_icnt *make(uint32_t sms, uint32_t subs, uint32_t latency, uint32_t flit, uint32_t in_buf, uint32_t out_buf)
{
    char err[200] = "";
    tm_icnt *x = tm_icnt_new(sms, subs, latency, flit, in_buf, out_buf, err, sizeof err);
    if (!x)
        fail_msg("tm_icnt_new failed: %s", err);
    return x;
}

static tm_req read_req(uint32_t tag) { return (tm_req){.kind = TM_REQ_READ, .bytes = 32, .sectors = 1, .tag = tag}; }
static tm_req write_req(uint32_t sectors, uint32_t tag)
{
    return (tm_req){.kind = TM_REQ_WRITE, .bytes = 32 * sectors, .sectors = (uint8_t)((1u << sectors) - 1), .tag = tag};
}

/* Packet sizes (GPGPU-Sim's): with 40-byte flits,
 *  read request: header 8 -> 1 flit;
 *  write request, 1 sector: 8 + 32 = 40 -> 1 flit; 4 sectors: 8 + 128 =
 *  136 -> ceil(136/40) = 4 flits;
 *  read reply, 4 sectors: 136 -> 4 flits; write acknowledgement: 8 -> 1;
 *  atomic request and reply, 1 sector: 40 each -> 1 flit.
 * With 16-byte flits the 1-sector write is ceil(40/16) = 3 flits. */
static void test_packet_sizes(void **state)
{
    (void)state;
    tm_icnt *x = make(1, 1, 0, 40, 4, 4);
    tm_req rd = read_req(0), wr1 = write_req(1, 0), wr4 = write_req(4, 0);
    tm_req rd4 = {.kind = TM_REQ_READ, .bytes = 128, .sectors = 0xF, .is_reply = 1};
    tm_req at = {.kind = TM_REQ_ATOMIC, .bytes = 32, .sectors = 1};
    assert_int_equal(tm_icnt_packet_bytes(&rd, TM_ICNT_REQUEST), 8);
    assert_int_equal(tm_icnt_packet_flits(x, &rd, TM_ICNT_REQUEST), 1);
    assert_int_equal(tm_icnt_packet_bytes(&wr1, TM_ICNT_REQUEST), 40);
    assert_int_equal(tm_icnt_packet_flits(x, &wr1, TM_ICNT_REQUEST), 1);
    assert_int_equal(tm_icnt_packet_bytes(&wr4, TM_ICNT_REQUEST), 136);
    assert_int_equal(tm_icnt_packet_flits(x, &wr4, TM_ICNT_REQUEST), 4);
    assert_int_equal(tm_icnt_packet_flits(x, &rd4, TM_ICNT_REPLY), 4);
    assert_int_equal(tm_icnt_packet_bytes(&wr4, TM_ICNT_REPLY), 8);
    assert_int_equal(tm_icnt_packet_bytes(&at, TM_ICNT_REQUEST), 40);
    assert_int_equal(tm_icnt_packet_bytes(&at, TM_ICNT_REPLY), 40);
    tm_icnt_free(x);
    x = make(1, 1, 0, 16, 4, 4);
    assert_int_equal(tm_icnt_packet_flits(x, &wr1, TM_ICNT_REQUEST), 3);
    tm_icnt_free(x);
}

/* One 4-flit packet (a 4-sector write, 40-byte flits) pushed at cycle 0
 * into an idle crossbar with latency 5: flits cross at cycles 0..3, the
 * packet can be popped from 0 + 4 + 5 = 9: latency + flits. */
static void test_single_packet_latency(void **state)
{
    (void)state;
    tm_icnt *x = make(2, 3, 5, 40, 8, 8);
    tm_req w = write_req(4, 42), got;
    assert_true(tm_icnt_idle(x));
    assert_int_equal(tm_icnt_next_event(x, 0), UINT64_MAX);
    assert_int_equal(tm_icnt_push(x, TM_ICNT_REQUEST, 1, 2, &w, 0), TM_ICNT_OK);
    assert_false(tm_icnt_idle(x));
    assert_int_equal(tm_icnt_next_event(x, 0), 0); /* its first flit can go now */
    for (uint64_t t = 0; t < 9; t++) {
        tm_icnt_cycle(x, t);
        assert_null(tm_icnt_peek(x, TM_ICNT_REQUEST, 2, t));
        assert_false(tm_icnt_pop(x, TM_ICNT_REQUEST, 2, t, &got));
        assert_int_equal(tm_icnt_next_event(x, t + 1), 9); /* nothing moves until it arrives */
    }
    assert_false(tm_icnt_pop(x, TM_ICNT_REQUEST, 1, 9, &got)); /* other destinations get nothing */
    assert_true(tm_icnt_pop(x, TM_ICNT_REQUEST, 2, 9, &got));
    assert_int_equal(got.tag, 42);
    assert_true(tm_icnt_idle(x));
    const tm_icnt_stats *st = tm_icnt_stats_of(x, TM_ICNT_REQUEST);
    assert_int_equal(st->packets, 1);
    assert_int_equal(st->flits, 4);
    assert_int_equal(st->latency_sum, 9);
    assert_int_equal(tm_icnt_stats_of(x, TM_ICNT_REPLY)->packets, 0);
    tm_icnt_free(x);
}

/* Run cycles from..to (inclusive), popping everything that arrives at
 * destination dst; record tag and arrival cycle. */
static uint32_t drain(tm_icnt *x, tm_icnt_net net, uint32_t dst, uint64_t from, uint64_t to, uint32_t *tags,
                      uint64_t *when, uint32_t max)
{
    uint32_t n = 0;
    tm_req got;
    for (uint64_t t = from; t <= to; t++) {
        tm_icnt_cycle(x, t);
        while (n < max && tm_icnt_pop(x, net, dst, t, &got)) {
            tags[n] = got.tag;
            when[n++] = t;
        }
    }
    return n;
}

/* Two SMs send to one sub-partition. 4-flit packets, latency 5, both
 * pushed at cycle 0: SM 0 wins first (the pointer starts at input 0),
 * flits 0..3, arrives 0+4+5 = 9; SM 1 waits for the output, flits 4..7,
 * arrives 4+4+5 = 13. Conflicts: SM 1 lost at cycle 0 and waited for the
 * held output at 1, 2, 3: 4. Latencies 9 + 13 = 22. */
static void test_two_sources_serialize(void **state)
{
    (void)state;
    tm_icnt *x = make(2, 1, 5, 40, 8, 8);
    tm_req a = write_req(4, 100), b = write_req(4, 200);
    assert_int_equal(tm_icnt_push(x, TM_ICNT_REQUEST, 0, 0, &a, 0), TM_ICNT_OK);
    assert_int_equal(tm_icnt_push(x, TM_ICNT_REQUEST, 1, 0, &b, 0), TM_ICNT_OK);
    uint32_t tags[4];
    uint64_t when[4];
    assert_int_equal(drain(x, TM_ICNT_REQUEST, 0, 0, 20, tags, when, 4), 2);
    assert_int_equal(tags[0], 100);
    assert_int_equal(when[0], 9);
    assert_int_equal(tags[1], 200);
    assert_int_equal(when[1], 13);
    const tm_icnt_stats *st = tm_icnt_stats_of(x, TM_ICNT_REQUEST);
    assert_int_equal(st->conflicts, 4);
    assert_int_equal(st->latency_sum, 22);
    assert_int_equal(st->flits, 8);
    tm_icnt_free(x);
}

/* Round-robin order: SMs 0 and 1 each queue two 1-flit read requests at
 * cycle 0 for sub-partition 0 (latency 0). The output alternates: SM 0
 * (pointer moves to 1), SM 1 (pointer back to 0), SM 0, SM 1 — grants at
 * cycles 0, 1, 2, 3, arrivals at 1, 2, 3, 4. A fixed priority would give
 * 0, 0, 1, 1. With three SMs and SM 2 joining at cycle 1, after SM 1 wins
 * cycle 1 the pointer is at 2, so SM 2 goes before SM 0's second. */
static void test_round_robin_order(void **state)
{
    (void)state;
    tm_icnt *x = make(2, 1, 0, 40, 8, 8);
    tm_req r;
    for (uint32_t k = 0; k < 2; k++)
        for (uint32_t sm = 0; sm < 2; sm++) {
            r = read_req(10 * sm + k);
            assert_int_equal(tm_icnt_push(x, TM_ICNT_REQUEST, sm, 0, &r, 0), TM_ICNT_OK);
        }
    uint32_t tags[4];
    uint64_t when[4];
    assert_int_equal(drain(x, TM_ICNT_REQUEST, 0, 0, 10, tags, when, 4), 4);
    static const uint32_t order[4] = {0, 10, 1, 11};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(tags[i], order[i]);
        assert_int_equal(when[i], (uint64_t)i + 1);
    }
    tm_icnt_free(x);

    x = make(3, 1, 0, 40, 8, 8);
    for (uint32_t k = 0; k < 2; k++)
        for (uint32_t sm = 0; sm < 2; sm++) {
            r = read_req(10 * sm + k);
            assert_int_equal(tm_icnt_push(x, TM_ICNT_REQUEST, sm, 0, &r, 0), TM_ICNT_OK);
        }
    tm_icnt_cycle(x, 0); /* SM 0's first; pointer -> 1 */
    r = read_req(20);
    assert_int_equal(tm_icnt_push(x, TM_ICNT_REQUEST, 2, 0, &r, 1), TM_ICNT_OK);
    /* cycle 1: SM 1 (pointer -> 2); cycle 2: SM 2 (pointer -> 0); cycle 3: SM 0; cycle 4: SM 1 */
    tm_req got;
    assert_true(tm_icnt_pop(x, TM_ICNT_REQUEST, 0, 1, &got));
    assert_int_equal(got.tag, 0);
    assert_int_equal(drain(x, TM_ICNT_REQUEST, 0, 1, 10, tags, when, 4), 4);
    static const uint32_t order3[4] = {10, 20, 1, 11};
    for (int i = 0; i < 4; i++)
        assert_int_equal(tags[i], order3[i]);
    tm_icnt_free(x);
}

/* Bounded queues. Input queue of 2: two pushes fit, the third is refused
 * (can_push false, counted once as in_full; push says FULL). After cycle
 * 0 grants one, there is room again. */
static void test_full_buffers(void **state)
{
    (void)state;
    tm_icnt *x = make(1, 1, 0, 40, 2, 1);
    tm_req r0 = read_req(0), r1 = read_req(1), r2 = read_req(2), got;
    assert_true(tm_icnt_can_push(x, TM_ICNT_REQUEST, 0));
    assert_int_equal(tm_icnt_push(x, TM_ICNT_REQUEST, 0, 0, &r0, 0), TM_ICNT_OK);
    assert_int_equal(tm_icnt_push(x, TM_ICNT_REQUEST, 0, 0, &r1, 0), TM_ICNT_OK);
    assert_false(tm_icnt_can_push(x, TM_ICNT_REQUEST, 0));
    assert_int_equal(tm_icnt_push(x, TM_ICNT_REQUEST, 0, 0, &r2, 0), TM_ICNT_FULL);
    assert_int_equal(tm_icnt_stats_of(x, TM_ICNT_REQUEST)->in_full, 1);
    assert_int_equal(tm_icnt_stats_of(x, TM_ICNT_REQUEST)->packets, 2);
    /* the reply net's queues are separate: still room there */
    assert_true(tm_icnt_can_push(x, TM_ICNT_REPLY, 0));

    /* Output queue of 1, latency 0: cycle 0 grants r0 (arrives 1) and
     * takes the output slot; at cycles 1 and 2 nobody pops, so r1 waits
     * (out_full 1 per cycle); popped at 2, r1 goes at cycle 3, arrives
     * 3 + 1 + 0 = 4. */
    tm_icnt_cycle(x, 0);
    assert_true(tm_icnt_can_push(x, TM_ICNT_REQUEST, 0));
    tm_icnt_cycle(x, 1);
    tm_icnt_cycle(x, 2);
    assert_int_equal(tm_icnt_stats_of(x, TM_ICNT_REQUEST)->out_full, 2);
    assert_int_equal(tm_icnt_next_event(x, 3), UINT64_MAX); /* blocked until a pop */
    assert_true(tm_icnt_pop(x, TM_ICNT_REQUEST, 0, 2, &got));
    assert_int_equal(got.tag, 0);
    assert_int_equal(tm_icnt_next_event(x, 3), 3);
    tm_icnt_cycle(x, 3);
    assert_null(tm_icnt_peek(x, TM_ICNT_REQUEST, 0, 3));
    assert_non_null(tm_icnt_peek(x, TM_ICNT_REQUEST, 0, 4));
    assert_int_equal(tm_icnt_peek(x, TM_ICNT_REQUEST, 0, 4)->tag, 1);

    /* bad nodes */
    assert_int_equal(tm_icnt_push(x, TM_ICNT_REQUEST, 1, 0, &r2, 4), TM_ICNT_BAD_NODE);
    assert_int_equal(tm_icnt_push(x, TM_ICNT_REPLY, 0, 1, &r2, 4), TM_ICNT_BAD_NODE);
    assert_false(tm_icnt_can_push(x, TM_ICNT_REQUEST, 5));
    tm_icnt_free(x);
}

/* A stream from one SM to one sub-partition, the source pushing whenever
 * it may, latency 10. 1-flit packets: packet k's flit crosses at cycle k,
 * so the last of N arrives at (N-1) + 1 + 10 = N + 10: N packets in N + 10
 * cycles, one flit per cycle once the pipe is full. 4-flit packets:
 * packet k starts at 4k, the last arrives at 4(N-1) + 4 + 10 = 4N + 10. */
static void test_stream_bandwidth(void **state)
{
    (void)state;
    static const uint32_t sectors_of[2] = {0, 4}; /* 0: read request (1 flit); 4: 4-sector write (4 flits) */
    for (int k = 0; k < 2; k++) {
        const uint32_t N = 2000, flits = k ? 4 : 1;
        tm_icnt *x = make(1, 1, 10, 40, TM_ICNT_IN_BUFFER_DEFAULT, TM_ICNT_OUT_BUFFER_DEFAULT);
        uint32_t pushed = 0, popped = 0;
        uint64_t last = 0;
        tm_req got;
        for (uint64_t t = 0; popped < N; t++) {
            while (pushed < N && tm_icnt_can_push(x, TM_ICNT_REQUEST, 0)) {
                tm_req r = k ? write_req(sectors_of[k], pushed) : read_req(pushed);
                assert_int_equal(tm_icnt_push(x, TM_ICNT_REQUEST, 0, 0, &r, t), TM_ICNT_OK);
                pushed++;
            }
            tm_icnt_cycle(x, t);
            while (tm_icnt_pop(x, TM_ICNT_REQUEST, 0, t, &got)) {
                assert_int_equal(got.tag, popped); /* in order */
                popped++;
                last = t;
            }
            assert_true(t < 10 * N);
        }
        assert_int_equal(last, flits * N + 10);
        const tm_icnt_stats *st = tm_icnt_stats_of(x, TM_ICNT_REQUEST);
        assert_int_equal(st->flits, flits * N);
        /* flits per cycle = flits*N / (flits*N + 10) -> 1: above 0.99 here */
        assert_true((double)st->flits / (double)(last + 1) > 0.99);
        tm_icnt_free(x);
    }
}

/* Distinct outputs do not interfere: SM 0 -> sub 0 and SM 1 -> sub 1,
 * 1-flit packets, latency 2, both streams at one packet per cycle: the
 * k-th of each arrives at k + 1 + 2. Replies travel on their own net at
 * the same time: sub 0 -> SM 1, a 4-sector read reply (4 flits) pushed
 * at 0 arrives at 0 + 4 + 2 = 6. */
static void test_parallel_outputs_and_subnets(void **state)
{
    (void)state;
    tm_icnt *x = make(2, 2, 2, 40, 16, 16);
    for (uint32_t k = 0; k < 8; k++)
        for (uint32_t sm = 0; sm < 2; sm++) {
            tm_req r = read_req(100 * sm + k);
            assert_int_equal(tm_icnt_push(x, TM_ICNT_REQUEST, sm, sm, &r, 0), TM_ICNT_OK);
        }
    tm_req reply = {.kind = TM_REQ_READ, .bytes = 128, .sectors = 0xF, .is_reply = 1, .tag = 7};
    assert_int_equal(tm_icnt_push(x, TM_ICNT_REPLY, 0, 1, &reply, 0), TM_ICNT_OK);
    tm_req got;
    uint32_t seen[2] = {0, 0};
    bool reply_seen = false;
    for (uint64_t t = 0; t < 20; t++) {
        tm_icnt_cycle(x, t);
        for (uint32_t d = 0; d < 2; d++)
            while (tm_icnt_pop(x, TM_ICNT_REQUEST, d, t, &got)) {
                assert_int_equal(got.tag, 100 * d + seen[d]);
                assert_int_equal(t, seen[d] + 3);
                seen[d]++;
            }
        if (tm_icnt_pop(x, TM_ICNT_REPLY, 1, t, &got)) {
            assert_int_equal(got.tag, 7);
            assert_int_equal(t, 6);
            reply_seen = true;
        }
    }
    assert_int_equal(seen[0], 8);
    assert_int_equal(seen[1], 8);
    assert_true(reply_seen);
    assert_int_equal(tm_icnt_stats_of(x, TM_ICNT_REQUEST)->conflicts, 0);
    assert_int_equal(tm_icnt_stats_of(x, TM_ICNT_REPLY)->flits, 4);
    tm_icnt_free(x);
}

/* Skipping idle cycles gives the same arrivals: call tm_icnt_cycle only at
 * the cycles tm_icnt_next_event names. Two 4-flit packets from two SMs,
 * latency 5: arrivals 9 and 13 as in test_two_sources_serialize. */
static void test_idle_skipping(void **state)
{
    (void)state;
    tm_icnt *x = make(2, 1, 5, 40, 8, 8);
    tm_req a = write_req(4, 1), b = write_req(4, 2), got;
    tm_icnt_push(x, TM_ICNT_REQUEST, 0, 0, &a, 0);
    tm_icnt_push(x, TM_ICNT_REQUEST, 1, 0, &b, 0);
    uint64_t arrivals[2], t = 0;
    uint32_t n = 0, calls = 0;
    while (n < 2) {
        t = tm_icnt_next_event(x, t);
        assert_true(t != UINT64_MAX);
        tm_icnt_cycle(x, t);
        calls++;
        while (tm_icnt_pop(x, TM_ICNT_REQUEST, 0, t, &got))
            arrivals[n++] = t;
        t++;
    }
    assert_int_equal(arrivals[0], 9);
    assert_int_equal(arrivals[1], 13);
    assert_true(calls <= 4); /* cycles 0 (grant), 4 (grant), 9 and 13 (arrivals) */
    assert_int_equal(tm_icnt_next_event(x, t), UINT64_MAX);
    tm_icnt_free(x);
}

/* Statistics lines carry GPGPU-Sim's names. */
static void test_stats_print(void **state)
{
    (void)state;
    tm_icnt *x = make(1, 1, 0, 40, 4, 4);
    tm_req r = read_req(0);
    tm_icnt_push(x, TM_ICNT_REQUEST, 0, 0, &r, 0);
    tm_icnt_cycle(x, 0);
    tm_icnt_cycle(x, 1);
    char buf[4096] = "";
    FILE *f = fmemopen(buf, sizeof buf, "w");
    assert_non_null(f);
    tm_icnt_print_stats(x, f);
    fclose(f);
    assert_non_null(strstr(buf, "Req_Network_injected_packets_num = 1\n"));
    assert_non_null(strstr(buf, "Req_Network_cycles = 2\n"));
    assert_non_null(strstr(buf, "Reply_Network_injected_packets_num = 0\n"));
    assert_non_null(strstr(buf, "Req_Network_avg_latency =       1.0000\n")); /* 0 + 1 flit + 0 */
    tm_icnt_free(x);
}

/* Construction refuses impossible parameters with a message. */
static void test_new_refusals(void **state)
{
    (void)state;
    char err[200] = "";
    assert_null(tm_icnt_new(0, 4, 1, 40, 64, 64, err, sizeof err));
    assert_non_null(strstr(err, "at least one SM"));
    assert_null(tm_icnt_new(4, 4, 1, 0, 64, 64, err, sizeof err));
    assert_non_null(strstr(err, "flit"));
    assert_null(tm_icnt_new(4, 4, 1, 40, 0, 64, err, sizeof err));
    assert_non_null(strstr(err, "queues"));
    tm_icnt_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_packet_sizes),
        cmocka_unit_test(test_single_packet_latency),
        cmocka_unit_test(test_two_sources_serialize),
        cmocka_unit_test(test_round_robin_order),
        cmocka_unit_test(test_full_buffers),
        cmocka_unit_test(test_stream_bandwidth),
        cmocka_unit_test(test_parallel_outputs_and_subnets),
        cmocka_unit_test(test_idle_skipping),
        cmocka_unit_test(test_stats_print),
        cmocka_unit_test(test_new_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
