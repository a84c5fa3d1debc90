/* request.h — a memory request as it travels between the timing model's
 * units (LD/ST unit, L1 caches, interconnect, L2 slices, DRAM channels),
 * and the fixed-size FIFO queues that carry requests between them.
 *
 * Requests are values: a unit copies a request into the next unit's queue
 * and keeps what it must remember (an MSHR entry, a pending load) itself,
 * so nothing is allocated while a simulation runs. */
#ifndef SIMTLAB_TIMING_REQUEST_H
#define SIMTLAB_TIMING_REQUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum tm_req_kind {
    TM_REQ_READ,
    TM_REQ_WRITE,
    TM_REQ_ATOMIC,     /* read-modify-write, performed at the L2 */
    TM_REQ_WRITEBACK,  /* a dirty line (sectors) evicted from a write-back cache */
    TM_REQ_KINDS
} tm_req_kind;

/* Where an access comes from, for the caches' [type][status] statistics
 * (GPGPU-Sim's mem_access_type names in the comments). */
typedef enum tm_req_space {
    TM_SPACE_GLOBAL,   /* GLOBAL_ACC_R / GLOBAL_ACC_W */
    TM_SPACE_LOCAL,    /* LOCAL_ACC_R / LOCAL_ACC_W */
    TM_SPACE_CONST,    /* CONST_ACC_R */
    TM_SPACE_TEXTURE,  /* TEXTURE_ACC_R */
    TM_SPACE_INST,     /* INST_ACC_R */
    TM_SPACE_KINDS
} tm_req_space;

typedef struct tm_req {
    uint64_t addr;      /* byte address of the first byte (line- or sector-aligned where it matters) */
    uint32_t bytes;     /* data bytes asked for or carried */
    uint8_t sectors;    /* bit i: 32-byte sector i of its 128-byte line */
    uint8_t kind;       /* tm_req_kind */
    uint8_t space;      /* tm_req_space */
    uint8_t is_reply;   /* travelling back towards the SM */
    uint8_t prio;       /* made by a prioritized warp (a token holder of Rhu's priority-based
                           cache allocation): QoS DRAM scheduling serves it first */
    uint8_t row_hint;   /* made by a load with Narasiman's row-buffer locality hint (.rowhint):
                           its DRAM bank holds the row open for a follow-up */
    uint16_t sm;        /* the SM that made it */
    uint16_t warp;      /* the warp slot within that SM */
    uint32_t tag;       /* the maker's own reference (which pending access it completes) */
    uint32_t lanes;     /* the lanes of the warp instruction whose data it carries (the coalescer's
                           record; the SM's per-lane arrival under -simtlab_dws_memory) */
    uint64_t t_made;    /* core cycle it was made (latency statistics) */
} tm_req;

/* A bounded FIFO of requests (ring buffer; capacity fixed at creation). */
typedef struct tm_queue {
    tm_req *slot;
    uint32_t cap, head, n;
} tm_queue;

/* Make q hold up to cap requests; false when memory is short. */
bool tm_queue_init(tm_queue *q, uint32_t cap);
void tm_queue_free(tm_queue *q);

static inline bool tm_queue_full(const tm_queue *q) { return q->n == q->cap; }
static inline bool tm_queue_empty(const tm_queue *q) { return q->n == 0; }

/* Append r; false (nothing changed) when full. */
static inline bool tm_queue_push(tm_queue *q, const tm_req *r)
{
    if (q->n == q->cap)
        return false;
    uint32_t i = q->head + q->n;
    q->slot[i >= q->cap ? i - q->cap : i] = *r;
    q->n++;
    return true;
}

/* The oldest request, or NULL when empty. */
static inline tm_req *tm_queue_front(tm_queue *q) { return q->n ? &q->slot[q->head] : NULL; }

/* Remove the oldest request (the queue must not be empty). */
static inline void tm_queue_pop(tm_queue *q)
{
    q->head = q->head + 1 == q->cap ? 0 : q->head + 1;
    q->n--;
}

/* The i-th oldest request (i < n): schedulers that pick out of order. */
static inline tm_req *tm_queue_at(tm_queue *q, uint32_t i)
{
    uint32_t k = q->head + i;
    return &q->slot[k >= q->cap ? k - q->cap : k];
}

/* Remove the i-th oldest request, keeping the others' order. */
void tm_queue_remove(tm_queue *q, uint32_t i);

#endif
