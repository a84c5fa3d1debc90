/* hazard.c — Turner's memory-stage hazards, predictors and trackers (hazard.h). */
#include "timing/hazard.h"

#include "timing/cache.h"

const char *tm_hazard_name(tm_hazard h)
{
    static const char *const names[TM_HAZARDS] = {"none", "DIV", "BANK", "MSHR", "COMQ", "RSV"};
    return h < TM_HAZARDS ? names[h] : "?";
}

/* The thesis's check order (Sec. 1.1.7): a miss needs an MSHR, then room
 * in the communication queue, then a line to reserve. */
tm_hazard tm_hazard_of_fails(uint32_t fails)
{
    if (fails & (1u << TM_CACHE_FAIL_MSHR_ENTRY | 1u << TM_CACHE_FAIL_MSHR_MERGE | 1u << TM_CACHE_FAIL_MSHR_RW))
        return TM_HAZARD_MSHR;
    if (fails & 1u << TM_CACHE_FAIL_MISS_QUEUE)
        return TM_HAZARD_COMQ;
    if (fails & 1u << TM_CACHE_FAIL_LINE_ALLOC)
        return TM_HAZARD_RSV;
    return TM_HAZARD_NONE;
}

/* Count towards a miss or a hit, saturating at 0 and 3. */
void tm_hazard_table_update(tm_hazard_table *t, uint32_t i, bool miss)
{
    uint8_t *c = &t->ctr[i % TM_HAZARD_TABLE_SIZE];
    if (miss && *c < 3)
        (*c)++;
    else if (!miss && *c > 0)
        (*c)--;
}

/* What the instruction's own last pass showed comes first (Sec. 6.1): an
 * MSHR, COMQ or RSV hazard happens only on a miss, and the group is tried
 * again; DIV says nothing of the next group. */
bool tm_hazard_predict_miss(tm_hazard_predictor p, tm_hazard last, bool counter, bool oracle_miss)
{
    if (tm_hazard_is_miss(last))
        return true;
    switch (p) {
    case TM_PREDICT_TRUE: return true;
    case TM_PREDICT_COUNTER: return counter;
    case TM_PREDICT_ORACLE: return oracle_miss;
    case TM_PREDICT_NONE:
    case TM_PREDICT_FALSE: break;
    }
    return false;
}

bool tm_hazard_may_issue(tm_hazard_tracker t, uint32_t mshrs, uint32_t in_use, uint32_t held)
{
    if (t == TM_TRACK_NAIVE)
        return in_use < mshrs;
    return tm_hazard_credits(mshrs, in_use, held) > 0;
}

double tm_turner_max_speedup(uint64_t cycles, uint64_t blocked, uint64_t alu_insts, double alu_rate)
{
    if (!cycles || alu_rate <= 0)
        return 0.0;
    double hidden = (double)alu_insts / alu_rate, saved = (double)blocked < hidden ? (double)blocked : hidden;
    if (saved >= (double)cycles)
        return 0.0;
    return (double)cycles / ((double)cycles - saved) - 1.0;
}
