/* icnt.c — the SM <-> memory crossbar (the model and its GPGPU-Sim
 * reference are described in icnt.h). */
#include "timing/icnt.h"

#include <stdlib.h>

/* A packet in a queue: the request, where it goes, its size, and when it
 * was pushed and can be popped. */
typedef struct icnt_packet {
    tm_req req;
    uint64_t t_push, t_ready;
    uint32_t dst, flits;
} icnt_packet;

/* A bounded FIFO of packets (ring buffer). */
typedef struct icnt_ring {
    icnt_packet *slot;
    uint32_t cap, head, n;
} icnt_ring;

/* One subnetwork: its queues, arbitration state and statistics. */
typedef struct icnt_subnet {
    uint32_t n_in, n_out;
    icnt_ring *in, *out;
    uint64_t *in_free_at;  /* per input: first cycle it can start a new packet */
    uint64_t *out_free_at; /* per output: first cycle it can start a new packet */
    uint32_t *rr;          /* per output: the input it favours next */
    uint64_t *in_busy;     /* bitmap of non-empty input queues */
    uint64_t *out_busy;    /* bitmap of non-empty output queues */
    uint32_t *best;        /* per output, during a cycle: the winning input (UINT32_MAX: none) */
    uint32_t *touched;     /* outputs whose best was set this cycle */
    tm_icnt_stats st;
} icnt_subnet;

struct tm_icnt {
    uint32_t latency, flit_bytes;
    icnt_subnet net[TM_ICNT_NETS];
};

static icnt_packet *ring_at(const icnt_ring *r, uint32_t i)
{
    uint32_t k = r->head + i;
    return &r->slot[k >= r->cap ? k - r->cap : k];
}

static void ring_pop(icnt_ring *r)
{
    r->head = r->head + 1 == r->cap ? 0 : r->head + 1;
    r->n--;
}

static void ring_push(icnt_ring *r, const icnt_packet *p)
{
    *ring_at(r, r->n) = *p;
    r->n++;
}

static void bit_set(uint64_t *m, uint32_t i) { m[i / 64] |= 1ull << (i % 64); }
static void bit_clear(uint64_t *m, uint32_t i) { m[i / 64] &= ~(1ull << (i % 64)); }
static uint32_t words_for(uint32_t n) { return (n + 63) / 64; }

static void subnet_free(icnt_subnet *s)
{
    for (uint32_t i = 0; s->in && i < s->n_in; i++)
        free(s->in[i].slot);
    for (uint32_t i = 0; s->out && i < s->n_out; i++)
        free(s->out[i].slot);
    free(s->in);
    free(s->out);
    free(s->in_free_at);
    free(s->out_free_at);
    free(s->rr);
    free(s->in_busy);
    free(s->out_busy);
    free(s->best);
    free(s->touched);
}

/* Allocate a subnetwork of n_in inputs and n_out outputs; false when
 * memory is short (what was allocated is left for subnet_free). */
static bool subnet_init(icnt_subnet *s, uint32_t n_in, uint32_t n_out, uint32_t in_cap, uint32_t out_cap)
{
    *s = (icnt_subnet){.n_in = n_in, .n_out = n_out};
    s->in = calloc(n_in, sizeof *s->in);
    s->out = calloc(n_out, sizeof *s->out);
    s->in_free_at = calloc(n_in, sizeof *s->in_free_at);
    s->out_free_at = calloc(n_out, sizeof *s->out_free_at);
    s->rr = calloc(n_out, sizeof *s->rr);
    s->in_busy = calloc(words_for(n_in), sizeof *s->in_busy);
    s->out_busy = calloc(words_for(n_out), sizeof *s->out_busy);
    s->best = malloc(n_out * sizeof *s->best);
    s->touched = malloc(n_out * sizeof *s->touched);
    if (!s->in || !s->out || !s->in_free_at || !s->out_free_at || !s->rr || !s->in_busy || !s->out_busy || !s->best ||
        !s->touched)
        return false;
    for (uint32_t i = 0; i < n_in; i++) {
        s->in[i] = (icnt_ring){.slot = calloc(in_cap, sizeof(icnt_packet)), .cap = in_cap};
        if (!s->in[i].slot)
            return false;
    }
    for (uint32_t o = 0; o < n_out; o++) {
        s->out[o] = (icnt_ring){.slot = calloc(out_cap, sizeof(icnt_packet)), .cap = out_cap};
        if (!s->out[o].slot)
            return false;
        s->best[o] = UINT32_MAX;
    }
    return true;
}

tm_icnt *tm_icnt_new(uint32_t n_sms, uint32_t n_subparts, uint32_t latency, uint32_t flit_bytes, uint32_t in_buffer,
                     uint32_t out_buffer, char *err, size_t errlen)
{
    const char *why = NULL;
    if (n_sms == 0 || n_subparts == 0)
        why = "needs at least one SM and one memory sub-partition";
    else if (flit_bytes == 0)
        why = "flit size is 0 bytes";
    else if (in_buffer == 0 || out_buffer == 0)
        why = "input and output queues must hold at least one packet";
    if (why) {
        if (err && errlen)
            snprintf(err, errlen, "interconnect: %s (SMs %u, sub-partitions %u, flit %u bytes, queues %u/%u)", why,
                     n_sms, n_subparts, flit_bytes, in_buffer, out_buffer);
        return NULL;
    }
    tm_icnt *x = calloc(1, sizeof *x);
    bool ok = x && subnet_init(&x->net[TM_ICNT_REQUEST], n_sms, n_subparts, in_buffer, out_buffer) &&
              subnet_init(&x->net[TM_ICNT_REPLY], n_subparts, n_sms, in_buffer, out_buffer);
    if (!ok) {
        tm_icnt_free(x);
        if (err && errlen)
            snprintf(err, errlen, "interconnect: out of memory for %u SMs and %u sub-partitions", n_sms, n_subparts);
        return NULL;
    }
    x->latency = latency;
    x->flit_bytes = flit_bytes;
    return x;
}

void tm_icnt_free(tm_icnt *icnt)
{
    if (!icnt)
        return;
    for (int n = 0; n < TM_ICNT_NETS; n++)
        subnet_free(&icnt->net[n]);
    free(icnt);
}

uint32_t tm_icnt_packet_bytes(const tm_req *r, tm_icnt_net net)
{
    bool is_write = r->kind == TM_REQ_WRITE || r->kind == TM_REQ_WRITEBACK;
    bool carries_data = net == TM_ICNT_REQUEST ? r->kind != TM_REQ_READ : !is_write;
    return TM_ICNT_CTRL_BYTES + (carries_data ? r->bytes : 0);
}

uint32_t tm_icnt_packet_flits(const tm_icnt *icnt, const tm_req *r, tm_icnt_net net)
{
    uint32_t bytes = tm_icnt_packet_bytes(r, net);
    return (bytes + icnt->flit_bytes - 1) / icnt->flit_bytes;
}

bool tm_icnt_can_push(tm_icnt *icnt, tm_icnt_net net, uint32_t src)
{
    if ((unsigned)net >= TM_ICNT_NETS || src >= icnt->net[net].n_in)
        return false;
    icnt_subnet *s = &icnt->net[net];
    if (s->in[src].n < s->in[src].cap)
        return true;
    s->st.in_full++;
    return false;
}

tm_icnt_status tm_icnt_push(tm_icnt *icnt, tm_icnt_net net, uint32_t src, uint32_t dst, const tm_req *r,
                            uint64_t now)
{
    if ((unsigned)net >= TM_ICNT_NETS || src >= icnt->net[net].n_in || dst >= icnt->net[net].n_out)
        return TM_ICNT_BAD_NODE;
    icnt_subnet *s = &icnt->net[net];
    if (s->in[src].n == s->in[src].cap)
        return TM_ICNT_FULL;
    icnt_packet p = {.req = *r, .t_push = now, .dst = dst, .flits = tm_icnt_packet_flits(icnt, r, net)};
    ring_push(&s->in[src], &p);
    bit_set(s->in_busy, src);
    s->st.packets++;
    return TM_ICNT_OK;
}

/* The round-robin distance of input i from output o's favoured input. */
static uint32_t rr_distance(const icnt_subnet *s, uint32_t o, uint32_t i)
{
    return i >= s->rr[o] ? i - s->rr[o] : i + s->n_in - s->rr[o];
}

/* One cycle of one subnetwork: every free output takes the head packet of
 * the input nearest its round-robin pointer among those ready for it.
 * A ready packet that waits because another packet holds or wins its
 * output counts a conflict; one that waits for room in a full output
 * queue counts its output once as out_full. */
static void subnet_cycle(icnt_subnet *s, uint32_t latency, uint64_t now)
{
    uint32_t n_touched = 0;
    uint64_t contenders = 0, held = 0; /* inputs bidding for a free output; inputs whose output is mid-packet */
    for (uint32_t w = 0; w < words_for(s->n_in); w++) {
        for (uint64_t m = s->in_busy[w]; m; m &= m - 1) {
            uint32_t i = w * 64 + (uint32_t)__builtin_ctzll(m);
            if (s->in_free_at[i] > now)
                continue; /* still sending its previous packet's flits */
            uint32_t o = ring_at(&s->in[i], 0)->dst;
            if (s->out_free_at[o] > now) {
                held++;
                continue;
            }
            if (s->out[o].n == s->out[o].cap) {
                if (s->best[o] == UINT32_MAX) { /* mark the blocked output, counted once */
                    s->best[o] = UINT32_MAX - 1;
                    s->touched[n_touched++] = o;
                    s->st.out_full++;
                }
                continue;
            }
            contenders++;
            if (s->best[o] == UINT32_MAX)
                s->touched[n_touched++] = o;
            if (s->best[o] == UINT32_MAX || rr_distance(s, o, i) < rr_distance(s, o, s->best[o]))
                s->best[o] = i;
        }
    }
    uint64_t granted = 0;
    for (uint32_t t = 0; t < n_touched; t++) {
        uint32_t o = s->touched[t], i = s->best[o];
        s->best[o] = UINT32_MAX;
        if (i >= s->n_in)
            continue; /* the output queue was full */
        icnt_packet p = *ring_at(&s->in[i], 0);
        ring_pop(&s->in[i]);
        if (s->in[i].n == 0)
            bit_clear(s->in_busy, i);
        p.t_ready = now + p.flits + latency;
        ring_push(&s->out[o], &p);
        bit_set(s->out_busy, o);
        s->in_free_at[i] = s->out_free_at[o] = now + p.flits;
        s->rr[o] = i + 1 == s->n_in ? 0 : i + 1;
        s->st.delivered++;
        s->st.flits += p.flits;
        s->st.latency_sum += p.t_ready - p.t_push;
        granted++;
    }
    s->st.conflicts += held + contenders - granted;
    s->st.cycles = now + 1;
}

void tm_icnt_cycle(tm_icnt *icnt, uint64_t now)
{
    for (int n = 0; n < TM_ICNT_NETS; n++)
        subnet_cycle(&icnt->net[n], icnt->latency, now);
}

const tm_req *tm_icnt_peek(const tm_icnt *icnt, tm_icnt_net net, uint32_t dst, uint64_t now)
{
    if ((unsigned)net >= TM_ICNT_NETS || dst >= icnt->net[net].n_out)
        return NULL;
    const icnt_ring *r = &icnt->net[net].out[dst];
    if (r->n == 0 || ring_at(r, 0)->t_ready > now)
        return NULL;
    return &ring_at(r, 0)->req;
}

bool tm_icnt_pop(tm_icnt *icnt, tm_icnt_net net, uint32_t dst, uint64_t now, tm_req *out)
{
    const tm_req *r = tm_icnt_peek(icnt, net, dst, now);
    if (!r)
        return false;
    *out = *r;
    icnt_subnet *s = &icnt->net[net];
    ring_pop(&s->out[dst]);
    if (s->out[dst].n == 0)
        bit_clear(s->out_busy, dst);
    return true;
}

uint32_t tm_icnt_next_busy_dst(const tm_icnt *icnt, tm_icnt_net net, uint32_t from)
{
    const icnt_subnet *s = &icnt->net[net];
    for (uint32_t w = from / 64; w < words_for(s->n_out); w++) {
        uint64_t m = s->out_busy[w];
        if (w == from / 64)
            m &= ~0ull << (from % 64);
        if (m)
            return w * 64 + (uint32_t)__builtin_ctzll(m);
    }
    return UINT32_MAX;
}

/* The earliest event >= now of one subnetwork (UINT64_MAX: none). */
static uint64_t subnet_next_event(const icnt_subnet *s, uint64_t now)
{
    uint64_t next = UINT64_MAX;
    for (uint32_t w = 0; w < words_for(s->n_in); w++)
        for (uint64_t m = s->in_busy[w]; m; m &= m - 1) {
            uint32_t i = w * 64 + (uint32_t)__builtin_ctzll(m);
            uint32_t o = ring_at(&s->in[i], 0)->dst;
            if (s->out[o].n == s->out[o].cap)
                continue; /* waits for a pop */
            uint64_t t = s->in_free_at[i] > s->out_free_at[o] ? s->in_free_at[i] : s->out_free_at[o];
            t = t > now ? t : now;
            next = t < next ? t : next;
        }
    for (uint32_t w = 0; w < words_for(s->n_out); w++)
        for (uint64_t m = s->out_busy[w]; m; m &= m - 1) {
            const icnt_ring *r = &s->out[w * 64 + (uint32_t)__builtin_ctzll(m)];
            for (uint32_t k = 0; k < r->n; k++) { /* arrival times ascend along the queue */
                uint64_t t = ring_at(r, k)->t_ready;
                if (t >= now) { /* arrives at now or later (earlier ones wait for their pop) */
                    next = t < next ? t : next;
                    break;
                }
            }
        }
    return next;
}

uint64_t tm_icnt_next_event(const tm_icnt *icnt, uint64_t now)
{
    uint64_t a = subnet_next_event(&icnt->net[TM_ICNT_REQUEST], now);
    uint64_t b = subnet_next_event(&icnt->net[TM_ICNT_REPLY], now);
    return a < b ? a : b;
}

bool tm_icnt_idle(const tm_icnt *icnt)
{
    for (int n = 0; n < TM_ICNT_NETS; n++) {
        const icnt_subnet *s = &icnt->net[n];
        for (uint32_t w = 0; w < words_for(s->n_in); w++)
            if (s->in_busy[w])
                return false;
        for (uint32_t w = 0; w < words_for(s->n_out); w++)
            if (s->out_busy[w])
                return false;
    }
    return true;
}

const tm_icnt_stats *tm_icnt_stats_of(const tm_icnt *icnt, tm_icnt_net net)
{
    return (unsigned)net < TM_ICNT_NETS ? &icnt->net[net].st : NULL;
}

/* x / y, or 0 when y is 0 (a network that never ran). */
static double ratio(uint64_t x, uint64_t y) { return y ? (double)x / (double)y : 0.0; }

void tm_icnt_print_stats(const tm_icnt *icnt, FILE *f)
{
    static const char *const name[TM_ICNT_NETS] = {"Req", "Reply"};
    for (int n = 0; n < TM_ICNT_NETS; n++) {
        const tm_icnt_stats *st = &icnt->net[n].st;
        fprintf(f, "%s_Network_injected_packets_num = %llu\n", name[n], (unsigned long long)st->packets);
        fprintf(f, "%s_Network_cycles = %llu\n", name[n], (unsigned long long)st->cycles);
        fprintf(f, "%s_Network_injected_packets_per_cycle = %12.4f\n", name[n], ratio(st->packets, st->cycles));
        fprintf(f, "%s_Network_conflicts_per_cycle = %12.4f\n", name[n], ratio(st->conflicts, st->cycles));
        fprintf(f, "%s_Network_in_buffer_full_per_cycle = %12.4f\n", name[n], ratio(st->in_full, st->cycles));
        fprintf(f, "%s_Network_out_buffer_full_per_cycle = %12.4f\n", name[n], ratio(st->out_full, st->cycles));
        fprintf(f, "%s_Network_flits = %llu\n", name[n], (unsigned long long)st->flits);
        fprintf(f, "%s_Network_avg_latency = %12.4f\n", name[n], ratio(st->latency_sum, st->delivered));
    }
}
