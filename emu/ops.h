/* ops.h — what the handler files (ops_*.c) share: the handler signature,
 * the loop over active lanes and width helpers. */
#ifndef SIMTLAB_EMU_OPS_H
#define SIMTLAB_EMU_OPS_H

#include <string.h>

#include "emu/internal.h"

/* A handler: see sim_fn. */
#define HANDLER(name)                                                                   \
    static void name(sim_cta *c, const sim_inst *in, const sim_group *g, const sim_lanes *L, \
                     sim_step *s)

/* For each active lane that passes the guard: t = its thread index. */
#define EACH_LANE(t) for (uint32_t i_ = 0, t = 0; i_ < L->n && ((t = L->t[i_]), 1); i_++)

/* Source k / destination k of the current instruction for thread t. */
#define SRC(k, t) sim_get(c, &in->src[k], (t))
#define PUT(k, t, v) sim_put(c, in->dst[k], in->dst_bits[k], (t), (v))

/* Unused handler arguments. */
#define UNUSED_ARGS ((void)c, (void)in, (void)g, (void)L, (void)s)

/* Value v truncated to w bits (w <= 64). */
static inline uint64_t zx(uint64_t v, unsigned w) { return w >= 64 ? v : v & ((1ull << w) - 1); }
/* Value v sign-extended from w bits. */
static inline int64_t sx(uint64_t v, unsigned w)
{
    return w >= 64 ? (int64_t)v : (int64_t)(v << (64 - w)) >> (64 - w);
}

/* Width in bits of the instruction's first type (32 when it has none). */
static inline unsigned type_bits(uint8_t type)
{
    unsigned b = ptx_type_bits((ptx_type)type);
    return b ? b : 32;
}
static inline bool type_signed(uint8_t type) { return ptx_type_class((ptx_type)type) == 's'; }
static inline bool type_float(uint8_t type) { return ptx_type_class((ptx_type)type) == 'f'; }

/* Reinterpret bits as float/double and back. */
static inline float f32_of(uint64_t v)
{
    uint32_t b = (uint32_t)v;
    float f;
    memcpy(&f, &b, 4);
    return f;
}
static inline double f64_of(uint64_t v)
{
    double d;
    memcpy(&d, &v, 8);
    return d;
}
static inline uint64_t bits_f32(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}
static inline uint64_t bits_f64(double d)
{
    uint64_t b;
    memcpy(&b, &d, 8);
    return b;
}

#endif
