/* miss_class.c — cold, capacity and conflict misses (miss_class.h): the
 * blocks seen, and a fully associative LRU cache of the same size. */
#include "timing/miss_class.h"

#include <stdlib.h>
#include <string.h>

#define NIL UINT32_MAX

struct tm_miss_class {
    /* the fully associative LRU shadow: nodes in a list, most recent at head */
    uint32_t lines, used, head, tail;
    uint64_t *blk;
    uint32_t *prev, *next;
    uint32_t *map;      /* open addressing: node + 1 (0: empty), mask + 1 slots */
    uint32_t map_mask;
    /* the blocks ever seen: open addressing of block | 1 (0: empty) */
    uint64_t *seen;
    uint64_t seen_mask, seen_n;
};

static uint64_t hash(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return x;
}

tm_miss_class *tm_miss_class_new(uint32_t lines)
{
    tm_miss_class *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->lines = lines ? lines : 1;
    uint32_t slots = 4;
    while (slots < 2 * m->lines)
        slots *= 2;
    m->map_mask = slots - 1;
    m->seen_mask = 1023;
    m->blk = malloc(m->lines * sizeof *m->blk);
    m->prev = malloc(m->lines * sizeof *m->prev);
    m->next = malloc(m->lines * sizeof *m->next);
    m->map = calloc(slots, sizeof *m->map);
    m->seen = calloc(m->seen_mask + 1, sizeof *m->seen);
    if (!m->blk || !m->prev || !m->next || !m->map || !m->seen) {
        tm_miss_class_free(m);
        return NULL;
    }
    tm_miss_class_reset(m);
    return m;
}

void tm_miss_class_free(tm_miss_class *m)
{
    if (!m)
        return;
    free(m->blk);
    free(m->prev);
    free(m->next);
    free(m->map);
    free(m->seen);
    free(m);
}

void tm_miss_class_reset(tm_miss_class *m)
{
    m->used = 0;
    m->head = m->tail = NIL;
    memset(m->map, 0, ((size_t)m->map_mask + 1) * sizeof *m->map);
    memset(m->seen, 0, ((size_t)m->seen_mask + 1) * sizeof *m->seen);
    m->seen_n = 0;
}

/* The map slot holding block, or the empty slot where it would go. */
static uint32_t map_slot(const tm_miss_class *m, uint64_t block)
{
    uint32_t i = (uint32_t)hash(block) & m->map_mask;
    while (m->map[i] && m->blk[m->map[i] - 1] != block)
        i = (i + 1) & m->map_mask;
    return i;
}

/* Remove the entry at slot i, moving later entries of its run back. */
static void map_delete(tm_miss_class *m, uint32_t i)
{
    uint32_t j = i;
    for (;;) {
        m->map[i] = 0;
        for (;;) {
            j = (j + 1) & m->map_mask;
            if (!m->map[j])
                return;
            uint32_t home = (uint32_t)hash(m->blk[m->map[j] - 1]) & m->map_mask;
            /* j's entry may move to i when its home is not in (i, j] */
            if (i <= j ? (home <= i || home > j) : (home <= i && home > j))
                break;
        }
        m->map[i] = m->map[j];
        i = j;
    }
}

static void unlink_node(tm_miss_class *m, uint32_t n)
{
    if (m->prev[n] != NIL)
        m->next[m->prev[n]] = m->next[n];
    else
        m->head = m->next[n];
    if (m->next[n] != NIL)
        m->prev[m->next[n]] = m->prev[n];
    else
        m->tail = m->prev[n];
}

static void push_front(tm_miss_class *m, uint32_t n)
{
    m->prev[n] = NIL;
    m->next[n] = m->head;
    if (m->head != NIL)
        m->prev[m->head] = n;
    m->head = n;
    if (m->tail == NIL)
        m->tail = n;
}

/* Was block seen before? It is afterwards. */
static bool seen_before(tm_miss_class *m, uint64_t block)
{
    uint64_t key = block | 1;
    if (2 * (m->seen_n + 1) > m->seen_mask + 1) { /* grow at half full */
        uint64_t nmask = 2 * m->seen_mask + 1, *t = calloc(nmask + 1, sizeof *t);
        if (!t)
            return true;
        for (uint64_t k = 0; k <= m->seen_mask; k++)
            if (m->seen[k]) {
                uint64_t i = hash(m->seen[k]) & nmask;
                while (t[i])
                    i = (i + 1) & nmask;
                t[i] = m->seen[k];
            }
        free(m->seen);
        m->seen = t;
        m->seen_mask = nmask;
    }
    uint64_t i = hash(key) & m->seen_mask;
    while (m->seen[i] && m->seen[i] != key)
        i = (i + 1) & m->seen_mask;
    if (m->seen[i])
        return true;
    m->seen[i] = key;
    m->seen_n++;
    return false;
}

tm_miss_kind tm_miss_class_access(tm_miss_class *m, uint64_t block, bool missed)
{
    bool old = seen_before(m, block);
    uint32_t s = map_slot(m, block);
    if (m->map[s]) { /* the fully associative cache hits */
        uint32_t n = m->map[s] - 1;
        unlink_node(m, n);
        push_front(m, n);
        return missed ? TM_MISS_CONFLICT : TM_MISS_KINDS;
    }
    uint32_t n;
    if (m->used < m->lines) {
        n = m->used++;
    } else { /* evict the least recently used */
        n = m->tail;
        unlink_node(m, n);
        map_delete(m, map_slot(m, m->blk[n]));
        s = map_slot(m, block);
    }
    m->blk[n] = block;
    m->map[s] = n + 1;
    push_front(m, n);
    return !missed ? TM_MISS_KINDS : old ? TM_MISS_CAPACITY : TM_MISS_COLD;
}

const char *tm_miss_kind_name(tm_miss_kind k)
{
    static const char *const names[] = {"cold", "capacity", "conflict"};
    return k < TM_MISS_KINDS ? names[k] : "hit";
}
