/* capt.c — CAPRI's compaction-adequacy prediction table (capt.h). */
#include "timing/capt.h"

#include <string.h>

void tm_capt_init(tm_capt *c, tm_capt_history kind)
{
    memset(c, 0, sizeof *c);
    c->kind = kind;
}

/* The valid entry of branch (fn, pc), or NULL. */
static tm_capt_entry *find(tm_capt *c, uint32_t fn, uint32_t pc)
{
    for (uint32_t i = 0; i < TM_CAPT_ENTRIES; i++)
        if (c->e[i].valid && c->e[i].fn == fn && c->e[i].pc == pc)
            return &c->e[i];
    return NULL;
}

/* Whether entry e's history says "adequate". */
static bool adequate_by(const tm_capt *c, const tm_capt_entry *e)
{
    return c->kind == TM_CAPT_2BIT ? e->history >= 2 : e->history != 0;
}

bool tm_capt_predict(tm_capt *c, uint32_t fn, uint32_t pc, bool *hit)
{
    tm_capt_entry *e = find(c, fn, pc);
    *hit = e != NULL;
    if (!e) { /* allocate: an invalid entry, else the least recently used */
        e = &c->e[0];
        for (uint32_t i = 0; i < TM_CAPT_ENTRIES && e->valid; i++)
            if (!c->e[i].valid || c->e[i].used < e->used)
                e = &c->e[i];
        *e = (tm_capt_entry){.fn = fn, .pc = pc, .history = c->kind == TM_CAPT_2BIT ? 2 : 1, .valid = true};
    }
    e->used = ++c->clock;
    return adequate_by(c, e);
}

void tm_capt_update(tm_capt *c, uint32_t fn, uint32_t pc, bool adequate)
{
    tm_capt_entry *e = find(c, fn, pc);
    if (!e || c->kind == TM_CAPT_1BS)
        return;
    if (c->kind == TM_CAPT_1BL)
        e->history = adequate;
    else if (adequate && e->history < 3)
        e->history++;
    else if (!adequate && e->history > 0)
        e->history--;
}
