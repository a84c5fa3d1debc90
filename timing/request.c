/* request.c — the request queues of request.h. */
#include "timing/request.h"

#include <stdlib.h>

bool tm_queue_init(tm_queue *q, uint32_t cap)
{
    q->slot = cap ? calloc(cap, sizeof *q->slot) : NULL;
    q->cap = q->slot ? cap : 0;
    q->head = q->n = 0;
    return q->slot != NULL;
}

void tm_queue_free(tm_queue *q)
{
    free(q->slot);
    q->slot = NULL;
    q->cap = q->head = q->n = 0;
}

void tm_queue_remove(tm_queue *q, uint32_t i)
{
    for (; i + 1 < q->n; i++) /* shift the younger ones forward */
        *tm_queue_at(q, i) = *tm_queue_at(q, i + 1);
    q->n--;
}
