/* tb_sched.c — the thread-block scheduler (tb_sched.h): LRR, BCS, and
 * PAVER's group queue with per-SM next/tail registers and task stealing. */
#include "timing/tb_sched.h"

#include <stdlib.h>

bool tm_tb_sched_start(tm_tb_sched *t, tm_tb_policy p, bool steal, uint32_t nsms, uint32_t per_sm, uint64_t ntbs,
                       tm_tb_groups *groups)
{
    *t = (tm_tb_sched){.policy = p, .steal = steal && (p == TM_TB_KWAY || p == TM_TB_RB), .nsms = nsms,
                       .per_sm = per_sm, .ntbs = ntbs};
    if (!tm_tb_policy_uses_graph(p))
        return true;
    t->groups = *groups;
    *groups = (tm_tb_groups){0};
    t->sm = calloc(nsms ? nsms : 1, sizeof *t->sm);
    if (!t->sm) {
        tm_tb_groups_free(&t->groups);
        return false;
    }
    /* kernel start: the global queue's groups to the SMs in turn */
    for (uint32_t s = 0; s < nsms && t->next_group < t->groups.ngroups; s++, t->next_group++)
        t->sm[s] = (tm_tb_sm_regs){t->groups.start[t->next_group], t->groups.start[t->next_group + 1]};
    return true;
}

/* Algorithm 2: recipient r takes the tail of the SM with the most blocks
 * waiting (the first such SM), max - floor(mean) of them. */
static void steal_for(tm_tb_sched *t, uint32_t r)
{
    uint32_t max = 0, donor = 0;
    uint64_t sum = 0;
    for (uint32_t s = 0; s < t->nsms; s++) {
        uint32_t waiting = t->sm[s].tail - t->sm[s].next;
        if (waiting > max)
            max = waiting, donor = s;
        sum += waiting;
    }
    uint32_t count = max - (uint32_t)(sum / t->nsms);
    if (max == 0 || count == 0)
        return;
    tm_tb_sm_regs *d = &t->sm[donor];
    t->sm[r] = (tm_tb_sm_regs){d->tail - count, d->tail};
    d->tail -= count;
    t->steals++;
    t->stolen += count;
}

uint32_t tm_tb_sched_next(tm_tb_sched *t, uint32_t s, uint32_t room, uint64_t out[2])
{
    uint64_t left = t->ntbs - t->handed;
    if (!room || !left)
        return 0;
    switch (t->policy) {
    case TM_TB_LRR:
        out[0] = t->handed++;
        return 1;
    case TM_TB_BCS:
        if (left >= 2 && room < 2 && t->per_sm >= 2)
            return 0; /* waits for room for a pair */
        out[0] = t->handed++;
        if (left == 1 || room < 2)
            return 1;
        out[1] = t->handed++;
        return 2;
    default: {
        tm_tb_sm_regs *r = &t->sm[s];
        if (r->next == r->tail) { /* its group is spent */
            if (t->next_group < t->groups.ngroups) {
                *r = (tm_tb_sm_regs){t->groups.start[t->next_group], t->groups.start[t->next_group + 1]};
                t->next_group++;
            } else if (t->steal) {
                steal_for(t, s);
            }
        }
        if (r->next == r->tail)
            return 0;
        out[0] = t->groups.tb[r->next++];
        t->handed++;
        return 1;
    }
    }
}

void tm_tb_sched_free(tm_tb_sched *t)
{
    tm_tb_groups_free(&t->groups);
    free(t->sm);
    t->sm = NULL;
}

const char *tm_tb_policy_name(tm_tb_policy p)
{
    static const char *const names[] = {"lrr", "bcs", "mst", "kway", "rb"};
    return p <= TM_TB_RB ? names[p] : "?";
}
