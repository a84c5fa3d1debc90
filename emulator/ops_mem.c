/* ops_mem.c — data movement and atomics: ld, ldu, ld.global.nc, st,
 * st.async, atom, red, red.async, cp.reduce.async.bulk, cvta, isspacep,
 * mapa, getctarank, prefetch and the other cache hints (PTX ISA 9.0, "Data
 * Movement and Conversion Instructions", "Parallel Synchronization and
 * Communication").
 *
 * Memory is sequentially consistent: every access completes in program
 * order, so .volatile/.relaxed/.acquire/.release and cache operators change
 * nothing. Atomics on global (or generic) memory hold the device lock, so
 * CTAs running on several host threads see them atomically. */
#include <math.h>

#include "emulator/ops.h"
#include "emulator/smallfloat.h"

/* The window a space's common accesses of n bytes fall in: shared
 * memory, or the cached global allocation (generic addresses too;
 * allocations are 256-byte aligned, so an offset's alignment is the
 * address's). An access at a is inside when a - lo < end; other spaces
 * get an empty window (end 0). */
static inline void window(const sim_cta *c, const sim_inst *in, uint32_t n, uint8_t **data, uint64_t *lo,
                          uint64_t *end)
{
    uint64_t size = 0;
    *data = NULL, *lo = 0;
    if (in->space == PTX_SPACE_SHARED) {
        /* the kernel's first shared range; sim_mem checks the others */
        const sim_func *fn = c->kernel_fn;
        *lo = fn->shared_fast_lo;
        *data = c->shared + *lo;
        size = fn->shared_fast_size + (fn->shared_fast_dynamic ? c->dynamic_shared : 0);
    } else if (in->space == PTX_SPACE_GLOBAL || in->space == PTX_SPACE_NONE) {
        *data = c->cache_data, *lo = c->cache_base, size = c->cache_size;
    }
    *end = size >= n ? size - n + 1 : 0;
}

/* An access at a that the window served: logged, as sim_mem logs the
 * others, when the CTA records its accesses (the window is shared memory
 * or global memory). False after a fault. */
static inline bool logged(sim_cta *c, const sim_inst *in, uint32_t t, uint64_t a, uint32_t size, int kind)
{
    return !c->record_mem ||
           sim_mem_log(c, in, t, in->space == PTX_SPACE_SHARED ? PTX_SPACE_SHARED : PTX_SPACE_GLOBAL, a, size, kind);
}

/* Host pointer for an access of size bytes at a: inside the window
 * inline, else sim_mem (which checks everything and reports faults). */
static inline uint8_t *mem(sim_cta *c, const sim_inst *in, uint32_t t, uint64_t a, uint32_t size,
                           int kind)
{
    uint8_t *data;
    uint64_t lo, end;
    window(c, in, size, &data, &lo, &end);
    if (a - lo < end && (a & (size - 1)) == 0)
        return logged(c, in, t, a, size, kind) ? data + (a - lo) : NULL;
    return sim_mem(c, in, t, in->space, a, size, kind);
}

/* When every lane accesses one address: log the access just logged for
 * lane L->t[0] for the other lanes too, as one access each would have
 * been (the same but for the thread). False after a fault. */
static bool log_other_lanes(sim_cta *c, const sim_inst *in, const sim_lanes *L)
{
    sim_mem_access e = c->mem_log[c->nmem_log - 1];
    for (uint32_t i = 1; i < L->n; i++) {
        if (c->nmem_log == c->cap_mem_log && !sim_mem_log_grow(c, in))
            return false;
        e.thread = (uint16_t)sim_thread(c, L->t[i]);
        c->mem_log[c->nmem_log++] = e;
    }
    return true;
}

/* Little-endian load / store of n <= 8 bytes. */
static inline uint64_t load_n(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    memcpy(&v, p, n);
    return v;
}
static inline void store_n(uint8_t *p, uint64_t v, unsigned n) { memcpy(p, &v, n); }

/* A 4-byte access at a outside the window, or misaligned: checked by
 * sim_mem (kind 1 read, 2 write), which may move the window. */
static uint8_t *word_slow(sim_cta *c, const sim_inst *in, uint32_t t, uint64_t a, int kind,
                          uint8_t **data, uint64_t *lo, uint64_t *end)
{
    uint8_t *p = sim_mem(c, in, t, in->space, a, 4, kind);
    window(c, in, 4, data, lo, end);
    return p;
}

/* Room in the access log for n more entries (grown once for a whole
 * instruction); false after a fault. */
static bool log_room(sim_cta *c, const sim_inst *in, uint32_t n)
{
    while (c->cap_mem_log - c->nmem_log < n)
        if (!sim_mem_log_grow(c, in))
            return false;
    return true;
}

/* The load (kind 1: into dst[t] masked by m) or store (kind 2: of source
 * src) of thread t's 4-byte word at p. */
static inline void move_word(int kind, uint8_t *p, uint32_t t, uint64_t *dst, uint64_t m, const opnd *src)
{
    if (kind == 1) {
        uint32_t v;
        memcpy(&v, p, 4);
        dst[t] = v & m;
    } else {
        uint32_t v = (uint32_t)((src->reg ? src->p[t] : src->v) ^ src->x);
        memcpy(p, &v, 4);
    }
}

/* The 4-byte [reg+off] accesses of every lane (kind 1: loads into dst
 * masked by m; kind 2: stores of source src): aligned ones inside the
 * window inline, the others through sim_mem. When the CTA records its
 * accesses, the inline ones are logged here (through a pointer into the
 * log: its count would otherwise be read again after every store), and
 * when every lane's was, s->mem_by_lane says so; a loop of its own
 * otherwise. False on a fault. */
static inline bool word_access(sim_cta *c, const sim_inst *in, const sim_lanes *L, const uint64_t *base, int kind,
                               uint64_t *dst, uint64_t m, const opnd *src, sim_step *s)
{
    uint8_t *data;
    uint64_t lo, end;
    uint32_t n = L->n;
    const uint32_t *tt = L->t;
    window(c, in, 4, &data, &lo, &end);
    if (!c->record_mem) {
        for (uint32_t i = 0; i < n; i++) {
            uint32_t t = tt[i];
            uint64_t a = sim_addr_sum(&in->addr, base[t]), o = a - lo;
            uint8_t *p = o < end && !(o & 3) ? data + o : word_slow(c, in, t, a, kind, &data, &lo, &end);
            if (!p)
                return false;
            move_word(kind, p, t, dst, m, src);
        }
        return true;
    }
    if (!log_room(c, in, n))
        return false;
    bool inline_only = true;
    sim_mem_access *e = c->mem_log + c->nmem_log; /* the log's next entry */
    const uint32_t *tmap = c->tmap;
    /* every entry but its address and thread, as the log holds it */
    sim_mem_access entry = {.size = 4, .kind = (uint8_t)kind,
                            .space = in->space == PTX_SPACE_SHARED ? PTX_SPACE_SHARED : PTX_SPACE_GLOBAL};
    for (uint32_t i = 0; i < n; i++) {
        uint32_t t = tt[i];
        uint64_t a = sim_addr_sum(&in->addr, base[t]), o = a - lo;
        uint8_t *p;
        if (o < end && !(o & 3)) {
            p = data + o;
            entry.addr = a;
            entry.thread = (uint16_t)(tmap ? tmap[t] : t);
            *e++ = entry;
        } else {
            inline_only = false;
            c->nmem_log = (uint32_t)(e - c->mem_log); /* sim_mem logs (and may grow the log) itself */
            p = word_slow(c, in, t, a, kind, &data, &lo, &end);
            e = c->mem_log + c->nmem_log;
            if (!p)
                return false;
        }
        move_word(kind, p, t, dst, m, src);
    }
    c->nmem_log = (uint32_t)(e - c->mem_log);
    s->mem_by_lane = inline_only && c->nmem_log == n; /* (the log was empty: exec.c) */
    return true;
}

/* ld / ldu / ld.global.nc: vec elements of `size` bytes each; signed types
 * sign-extend into the destination. */
HANDLER(op_ld)
{
    (void)g;
    unsigned size = type_bits(in->type) / 8, n = in->vec;
    bool sg = type_signed(in->type);
    if (in->addr.base.imm == 1 && L->n && in->space != PTX_SPACE_LOCAL && in->space != PTX_SPACE_NONE) {
        /* one address for every lane (a parameter, a variable): read once */
        uint32_t t0 = L->t[0];
        uint8_t *p = mem(c, in, t0, sim_addr_sum(&in->addr, in->addr.base.value), size * n, 1);
        if (p && c->record_mem && !log_other_lanes(c, in, L))
            p = NULL;
        if (!p) {
            s->event = SIM_EV_FAULT;
            return;
        }
        s->mem_by_lane = c->record_mem && c->nmem_log == L->n; /* (one access, then a copy for each other lane) */
        for (unsigned k = 0; k < n; k++) {
            uint64_t v = load_n(p + k * size, size);
            v = (sg ? (uint64_t)ptx_sext(v, size * 8) : v) & D->m[k];
            uint64_t *d = D->p[k];
            if (L->contig)
                for (uint32_t i = 0; i < L->n; i++)
                    d[L->t[0] + i] = v;
            else
                EACH_LANE(t) d[t] = v;
        }
        return;
    }
    if (n == 1 && size == 4 && !sg && in->addr.base.imm == 0) { /* the most common load: [reg+off] */
        if (!word_access(c, in, L, sim_row(c, in->addr.base.row), 1, D->p[0], D->m[0], NULL, s))
            s->event = SIM_EV_FAULT;
        return;
    }
    EACH_LANE(t) {
        uint64_t a = sim_address(c, in, t);
        uint8_t *p = mem(c, in, t, a, size * n, 1);
        if (!p) {
            s->event = SIM_EV_FAULT;
            return;
        }
        for (unsigned k = 0; k < n; k++) {
            uint64_t v = load_n(p + k * size, size);
            PUT(k, t, sg ? (uint64_t)ptx_sext(v, size * 8) : v);
        }
    }
}

/* st: vec elements of `size` bytes from sources 0..vec-1, except those
 * written `_` (bits of in->op), whose bytes stay as they are. */
HANDLER(op_st)
{
    (void)g;
    unsigned size = type_bits(in->type) / 8, n = in->vec;
    if (n == 1 && size == 4 && in->addr.base.imm == 0) { /* the most common store: [reg+off] */
        if (!word_access(c, in, L, sim_row(c, in->addr.base.row), 2, NULL, 0, &O[0], s))
            s->event = SIM_EV_FAULT;
        return;
    }
    EACH_LANE(t) {
        uint64_t a = sim_address(c, in, t);
        uint8_t *p = mem(c, in, t, a, size * n, 2);
        if (!p) {
            s->event = SIM_EV_FAULT;
            return;
        }
        for (unsigned k = 0; k < n; k++)
            if (!(in->op >> k & 1))
                store_n(p + k * size, SRC(k, t), size);
    }
}

/* The complete-tx of st.async and red.async: each lane's access bytes on
 * the mbarrier at the pooled address in->target (in the access's space). */
static void complete_tx(sim_cta *c, const sim_inst *in, const sim_lanes *L, sim_step *s, uint64_t bytes)
{
    const sim_addr *bar = &c->prog->addr_pool[in->target];
    EACH_LANE(t) {
        if (!sim_mbarrier_complete_tx(c, in, t, in->space, sim_addr_at(c, bar, t), bytes)) {
            s->event = SIM_EV_FAULT;
            return;
        }
    }
}

/* st.async [a], b, [mbar]: st, then complete-tx of its bytes on [mbar]. */
HANDLER(op_st_async)
{
    op_st_body(c, in, g, L, s, O, D);
    if (s->event != SIM_EV_FAULT)
        complete_tx(c, in, L, s, type_bits(in->type) / 8 * in->vec);
}

enum { A_AND, A_OR, A_XOR, A_ADD, A_INC, A_DEC, A_MIN, A_MAX, A_EXCH, A_CAS };

/* min / max (max) of the 16-bit halves of old and b (f16/bf16, x2: both
 * halves), as the min and max instructions without .NaN compute them
 * (the ISA's atom text does not restate it): a NaN operand is ignored,
 * two NaNs give the canonical NaN 0x7fff, and -0 < +0. */
static uint64_t half_minmax(uint8_t ty, uint64_t old, uint64_t b, bool max)
{
    unsigned eb = ty == PTX_TYPE_F16 || ty == PTX_TYPE_F16X2 ? 5 : 8, mb = eb == 5 ? 10 : 7;
    unsigned halves = ty == PTX_TYPE_F16X2 || ty == PTX_TYPE_BF16X2 ? 2 : 1;
    uint64_t r = 0;
    for (unsigned h = 0; h < halves; h++) {
        uint64_t hx = (old >> (16 * h)) & 0xffff, hy = (b >> (16 * h)) & 0xffff, pick;
        double x = sim_from_small_float(hx, eb, mb), y = sim_from_small_float(hy, eb, mb);
        if (isnan(x) || isnan(y))
            pick = isnan(x) && isnan(y) ? 0x7fff : isnan(x) ? hy : hx;
        else if (x == y)
            pick = (signbit(x) != 0) == max ? hy : hx; /* by sign for +-0 */
        else
            pick = (x < y) == max ? hy : hx;
        r |= pick << (16 * h);
    }
    return r;
}

/* The new value of an atomic location holding `old` (w-bit type ty). */
static uint64_t atomic_apply(uint8_t op, uint8_t ty, uint64_t old, uint64_t b)
{
    unsigned w = type_bits(ty);
    switch (op) {
    case A_AND: return old & b;
    case A_OR: return old | b;
    case A_XOR: return old ^ b;
    case A_EXCH: return b;
    case A_INC: return ptx_zext(old, w) >= ptx_zext(b, w) ? 0 : old + 1;
    case A_DEC: return ptx_zext(old, w) == 0 || ptx_zext(old, w) > ptx_zext(b, w) ? b : old - 1;
    case A_ADD:
        if (ty == PTX_TYPE_F16 || ty == PTX_TYPE_BF16 || ty == PTX_TYPE_F16X2 || ty == PTX_TYPE_BF16X2) {
            /* each 16-bit half rounded to nearest (.noftz: subnormals kept) */
            unsigned eb = ty == PTX_TYPE_F16 || ty == PTX_TYPE_F16X2 ? 5 : 8, mb = eb == 5 ? 10 : 7;
            unsigned halves = ty == PTX_TYPE_F16X2 || ty == PTX_TYPE_BF16X2 ? 2 : 1;
            uint64_t r = 0;
            for (unsigned h = 0; h < halves; h++) {
                double x = sim_from_small_float((old >> (16 * h)) & 0xffff, eb, mb);
                double y = sim_from_small_float((b >> (16 * h)) & 0xffff, eb, mb);
                r |= sim_to_small_float(x + y, 1, eb, mb) << (16 * h);
            }
            return r;
        }
        if (ty == PTX_TYPE_F32)
            return bits_f32(f32_of(old) + f32_of(b));
        if (ty == PTX_TYPE_F64)
            return bits_f64(f64_of(old) + f64_of(b));
        return old + b;
    default: { /* min / max */
        bool max = op == A_MAX;
        if (ty == PTX_TYPE_F16 || ty == PTX_TYPE_BF16 || ty == PTX_TYPE_F16X2 || ty == PTX_TYPE_BF16X2)
            return half_minmax(ty, old, b, max);
        if (type_signed(ty)) {
            int64_t x = ptx_sext(old, w), y = ptx_sext(b, w);
            return (uint64_t)(max ? (x > y ? x : y) : (x < y ? x : y));
        }
        uint64_t x = ptx_zext(old, w), y = ptx_zext(b, w);
        return max ? (x > y ? x : y) : (x < y ? x : y);
    }
    }
}

/* atom (op2 = 0: writes the old value to d) and red (op2 = 1); sources:
 * b, and c for cas. Lanes are applied one after another in lane order. A
 * vector atom (.v2/.v4/.v8) reads and writes vec adjacent elements, each
 * element atomically (the ISA guarantees no more), with element k of b
 * and of d. */
HANDLER(op_atom)
{
    (void)g;
    unsigned size = type_bits(in->type) / 8, n = in->vec;
    bool red = in->op2, locked = in->space == PTX_SPACE_GLOBAL || in->space == PTX_SPACE_NONE;
    if (locked)
        pthread_mutex_lock(&c->dev->lock);
    EACH_LANE(t) {
        uint64_t a = sim_address(c, in, t);
        uint8_t *p = sim_mem(c, in, t, in->space, a, size * n, 3);
        if (!p) {
            s->event = SIM_EV_FAULT;
            break;
        }
        for (unsigned k = 0; k < n; k++) {
            uint64_t old = load_n(p + k * size, size), b = SRC(k, t);
            uint64_t nv = in->op != A_CAS ? atomic_apply(in->op, in->type, old, b)
                          : old == ptx_zext(b, size * 8) ? SRC(1, t) : old; /* cas: compare b, store c */
            store_n(p + k * size, nv, size);
            if (!red)
                PUT(k, t, type_signed(in->type) ? (uint64_t)ptx_sext(old, size * 8) : old);
        }
    }
    if (locked)
        pthread_mutex_unlock(&c->dev->lock);
}

/* red.async [a], b, [mbar]: red, then complete-tx of its bytes on [mbar]. */
HANDLER(op_red_async)
{
    op_atom_body(c, in, g, L, s, O, D);
    if (s->event != SIM_EV_FAULT)
        complete_tx(c, in, L, s, type_bits(in->type) / 8);
}

/* cp.reduce.async.bulk [dst], [src], size{, [mbar]}: element k of the
 * size bytes at dst becomes redOp(dst[k], src[k]) (in->op, as atom
 * computes it; each element atomically), src in shared::cta (space
 * in->op2, pooled at in->target), dst global or shared::cluster; the
 * size a multiple of 16 and both addresses 16-byte aligned, as for
 * cp.async.bulk. The reduction completes as it issues: .bulk_group waits
 * have nothing to wait for, and with an mbarrier (pooled after the
 * source, in the destination's space) complete-tx of size bytes reaches
 * it at once. */
HANDLER(op_cp_reduce_bulk)
{
    (void)g;
    const sim_addr *pool = &c->prog->addr_pool[in->target];
    unsigned esize = type_bits(in->type) / 8;
    bool locked = in->space == PTX_SPACE_GLOBAL;
    EACH_LANE(t) {
        uint64_t size = SRC(0, t), src = sim_addr_at(c, &pool[0], t), dst = sim_address(c, in, t);
        if (size % 16 || size > UINT32_MAX || (src | dst) % 16) {
            char who[96];
            sim_thread_coords(c, t, who, sizeof who);
            sim_fault(c, size % 16 || size > UINT32_MAX ? SIM_ERR_ILLEGAL : SIM_ERR_MISALIGNED,
                      "cp.reduce.async.bulk needs a size that is a multiple of 16 and 16-byte aligned addresses, "
                      "%s, kernel %s, PTX line %u", who, c->kernel, in->line);
            s->event = SIM_EV_FAULT;
            return;
        }
        for (uint64_t off = 0; off < size; off += 16) {
            const uint8_t *from = sim_mem(c, in, t, in->op2, src + off, 16, 1);
            if (locked)
                pthread_mutex_lock(&c->dev->lock);
            uint8_t *to = from ? sim_mem(c, in, t, in->space, dst + off, 16, 3) : NULL;
            for (unsigned k = 0; to && k < 16; k += esize)
                store_n(to + k, atomic_apply(in->op, in->type, load_n(to + k, esize), load_n(from + k, esize)), esize);
            if (locked)
                pthread_mutex_unlock(&c->dev->lock);
            if (!to) {
                s->event = SIM_EV_FAULT;
                return;
            }
        }
        if (in->space != PTX_SPACE_GLOBAL && /* shared::cluster: the mbarrier */
            !sim_mbarrier_complete_tx(c, in, t, in->space, sim_addr_at(c, &pool[1], t), size)) {
            s->event = SIM_EV_FAULT;
            return;
        }
    }
}

/* cvta (op 0: space to generic; 1: generic to space) and isspacep (op 2). */
HANDLER(op_cvta)
{
    (void)g; (void)s;
    uint64_t base;
    switch (in->space) {
    case PTX_SPACE_SHARED: case PTX_SPACE_SHARED_CTA: case PTX_SPACE_SHARED_CLUSTER:
        base = SIM_SHARED_WINDOW; break;
    case PTX_SPACE_LOCAL: base = SIM_LOCAL_WINDOW; break;
    case PTX_SPACE_CONST: base = SIM_CONST_WINDOW; break;
    case PTX_SPACE_PARAM: case PTX_SPACE_PARAM_ENTRY: base = SIM_PARAM_WINDOW; break;
    default: base = 0; break; /* global: generic addresses are global addresses */
    }
    unsigned w = type_bits(in->type);
    if (in->op < 2) {
        uint64_t k = in->op == 0 ? base : 0 - base, wm = ptx_zext(~0ull, w);
        MAP_LANES(1, (ARG(0) + k) & wm);
        return;
    }
    EACH_LANE(t) {
        uint64_t a = SRC(0, t);
        if (base) /* the part of the window the space's addresses take */
            PUT(0, t, a - base < SIM_SPACE_WINDOW_BYTES);
        else /* global: outside every window and a live allocation */
            PUT(0, t, sim_find_alloc(c->dev, a, 1) != NULL);
    }
}

/* mapa d, a, rank: the address of a's location in the shared memory of
 * CTA `rank` of the cluster (a generic address, or a shared::cluster one
 * with .shared::cluster); see SIM_CLUSTER_RANK_SHIFT. */
HANDLER(op_mapa)
{
    (void)g;
    bool generic = in->space == PTX_SPACE_NONE;
    uint64_t low = (1ull << SIM_CLUSTER_RANK_SHIFT) - 1;
    EACH_LANE(t) {
        uint64_t a = SRC(0, t), rank = ptx_zext(SRC(1, t), 32), off = generic ? a - SIM_SHARED_WINDOW : a;
        if (rank >= c->cluster->n || (generic && off >= SIM_WINDOW_SIZE)) {
            char who[96];
            sim_thread_coords(c, t, who, sizeof who);
            if (rank >= c->cluster->n)
                sim_fault(c, SIM_ERR_ADDRESS, "mapa to CTA rank %llu of a cluster of %u blocks, %s, kernel %s, PTX line %u",
                          (unsigned long long)rank, c->cluster->n, who, c->kernel, in->line);
            else
                sim_fault(c, SIM_ERR_ADDRESS, "mapa of 0x%llx, which is not a shared memory address, %s, kernel %s, PTX line %u",
                          (unsigned long long)a, who, c->kernel, in->line);
            s->event = SIM_EV_FAULT;
            return;
        }
        uint64_t r = ((rank + 1) << SIM_CLUSTER_RANK_SHIFT) | (off & low);
        PUT(0, t, generic ? SIM_SHARED_WINDOW + r : r);
    }
}

/* getctarank d, a: the cluster rank of the CTA whose shared memory holds
 * a (a generic address, or a shared::cluster one with .shared::cluster):
 * the rank mapa put in it, else the running CTA's own. */
HANDLER(op_getctarank)
{
    (void)g;
    bool generic = in->space == PTX_SPACE_NONE;
    EACH_LANE(t) {
        uint64_t a = SRC(0, t), off = generic ? a - SIM_SHARED_WINDOW : a;
        uint64_t named = off >> SIM_CLUSTER_RANK_SHIFT, rank = named ? named - 1 : c->cluster_rank;
        if ((generic && off >= SIM_WINDOW_SIZE) || off >> 32 || rank >= c->cluster->n) {
            char who[96];
            sim_thread_coords(c, t, who, sizeof who);
            sim_fault(c, SIM_ERR_ADDRESS, "getctarank of 0x%llx, which is not the shared memory address of a "
                      "CTA of the cluster, %s, kernel %s, PTX line %u",
                      (unsigned long long)a, who, c->kernel, in->line);
            s->event = SIM_EV_FAULT;
            return;
        }
        PUT(0, t, rank);
    }
}

/* prefetch, prefetchu, applypriority, discard, membar, fence: nothing to
 * do in a sequentially consistent memory without caches (discard leaves
 * the lines' bytes as they were, one of the values it allows). */
HANDLER(op_nop) { UNUSED_ARGS; }

/* createpolicy: a cache policy, which every instruction taking one treats
 * as a hint: 0. */
HANDLER(op_createpolicy)
{
    (void)c; (void)g; (void)s; (void)O;
    EACH_LANE(t) PUT(0, t, 0);
}

/* Supported memory types: 8- to 64-bit scalars. */
static bool mem_type_ok(uint8_t ty)
{
    unsigned b = ptx_type_bits((ptx_type)ty);
    return b == 8 || b == 16 || b == 32 || b == 64;
}

/* ld/st element types and vectors: 8- to 64-bit elements, at most 32
 * bytes in all (.v8.b32 and .v4.b64 are the widest the ISA has). */
static bool vector_ok(const sim_inst *in)
{
    return mem_type_ok(in->type) && in->vec <= 8 && type_bits(in->type) / 8 * in->vec <= 32;
}

/* The atomic operation of a form (A_*), or -1. */
static int atomic_op(const sim_decoder *d)
{
    static const ptx_modifier ops[] = {PTX_MOD_AND, PTX_MOD_OR, PTX_MOD_XOR, PTX_MOD_ADD, PTX_MOD_INC,
                                       PTX_MOD_DEC, PTX_MOD_MIN, PTX_MOD_MAX, PTX_MOD_EXCH, PTX_MOD_CAS};
    ptx_modifier m = sim_dec_mod(d, PTX_MODCAT_OP);
    for (int i = 0; i < 10; i++)
        if (ops[i] == m)
            return i;
    return -1;
}

/* The vector atomics of the ISA ("atom", "red": atomic operation with
 * vector type): on .global or generic addresses, .add on .v2/.v4 .f32,
 * .add/.min/.max on .v2/.v4/.v8 .f16/.bf16 and .v2/.v4 .f16x2/.bf16x2. */
static bool atom_vector_ok(const sim_inst *in, int which, ptx_opcode op)
{
    bool halfword = in->type == PTX_TYPE_F16 || in->type == PTX_TYPE_BF16;
    bool packed = in->type == PTX_TYPE_F16X2 || in->type == PTX_TYPE_BF16X2;
    if (op == PTX_OP_RED_ASYNC || (in->space != PTX_SPACE_GLOBAL && in->space != PTX_SPACE_NONE))
        return false;
    if (in->type == PTX_TYPE_F32)
        return which == A_ADD && in->vec <= 4;
    return (halfword || (packed && in->vec <= 4)) && (which == A_ADD || which == A_MIN || which == A_MAX);
}

/* The value operand k of st into sources 0..vec-1: a scalar, or a vector
 * of vec registers and immediates, `_` marking the elements not written
 * (in->op). */
static bool store_sources(sim_decoder *d, unsigned k)
{
    sim_inst *in = d->in;
    const ptx_operand *o = sim_dec_op(d, k);
    if (o->kind != PTX_OPD_VEC)
        return in->vec == 1 && sim_dec_src(d, k, 0);
    if (o->count != in->vec)
        return false;
    for (unsigned e = 0; e < o->count; e++) {
        const ptx_operand *x = &d->f->operands[o->id + e];
        if (x->kind == PTX_OPD_SINK) {
            in->op |= (uint8_t)(1u << e);
            in->src[e] = (sim_src){.imm = 1};
        } else if (!sim_dec_value(d, x, &in->src[e])) {
            return false;
        }
    }
    in->nsrc_used = o->count;
    return true;
}

sim_fn sim_pick_mem(sim_decoder *d)
{
    sim_inst *in = d->in;
    ptx_opcode op = (ptx_opcode)d->form->opcode;
    /* a cache policy (.L2::cache_hint), the last operand, is only a hint */
    unsigned n = sim_dec_nops(d) - ptx_form_has(d->m, d->form, PTX_MOD_L2_CACHE_HINT);
    switch (op) {
    case PTX_OP_LD: case PTX_OP_LDU: case PTX_OP_LD_GLOBAL_NC:
        if (op == PTX_OP_LD_GLOBAL_NC)
            in->space = PTX_SPACE_GLOBAL;
        if (n != 2 || !vector_ok(in) || !sim_dec_dst(d, 0, 0) || in->ndst_used != in->vec ||
            !sim_dec_addr(d, 1))
            return NULL;
        in->flags |= SIM_IF_LOAD;
        return op_ld;
    case PTX_OP_ST: case PTX_OP_ST_ASYNC: {
        /* st.async: [a], b, [mbar] in shared::cluster, or [a], b (.release, global) */
        bool mbar = op == PTX_OP_ST_ASYNC && n == 3;
        if (n != 2u + mbar || !vector_ok(in) || !sim_dec_addr(d, 0) || !store_sources(d, 1) ||
            (mbar && (in->target = sim_dec_addr_pooled(d, 2, in->space)) == PTX_NONE))
            return NULL;
        in->flags |= SIM_IF_STORE;
        return mbar ? op_st_async : op_st;
    }
    case PTX_OP_ATOM: case PTX_OP_RED: case PTX_OP_RED_ASYNC: {
        int which = atomic_op(d);
        bool half = in->type == PTX_TYPE_F16 || in->type == PTX_TYPE_BF16 ||
                    in->type == PTX_TYPE_F16X2 || in->type == PTX_TYPE_BF16X2;
        if (which < 0 || !mem_type_ok(in->type))
            return NULL;
        if (in->vec > 1 && !atom_vector_ok(in, which, op))
            return NULL;
        if (type_bits(in->type) < 32 && which != A_CAS && which != A_EXCH && !(half && which == A_ADD) &&
            !(half && in->vec > 1))
            return NULL; /* 16-bit atomics: cas, exch and half-precision add (min/max: vectors) */
        if (type_float(in->type) && which != A_ADD && which != A_EXCH && !(half && in->vec > 1))
            return NULL; /* scalar f32/f64 min/max: ptxas rejects them */
        in->op = (uint8_t)which;
        in->op2 = op != PTX_OP_ATOM;
        /* red.async: [a], b, [mbar] in shared::cluster, or [a], b (.release, global) */
        bool mbar = op == PTX_OP_RED_ASYNC && n == 3;
        unsigned first = in->op2 ? 0 : 1, nsrc = which == A_CAS ? 2 : 1;
        if (n != first + 1 + nsrc + mbar || (!in->op2 && !sim_dec_dst(d, 0, 0)) || !sim_dec_addr(d, first))
            return NULL;
        for (unsigned k = 0; k < nsrc; k++)
            if (!sim_dec_src(d, first + 1 + k, k))
                return NULL;
        if ((!in->op2 && in->ndst_used != in->vec) || in->nsrc_used != in->vec + (which == A_CAS))
            return NULL;
        if (mbar && (in->target = sim_dec_addr_pooled(d, 2, in->space)) == PTX_NONE)
            return NULL;
        in->flags |= SIM_IF_LOAD | SIM_IF_ATOMIC;
        return mbar ? op_red_async : op_atom;
    }
    case PTX_OP_CP_REDUCE_ASYNC_BULK: {
        /* [dst], [src], size, [mbar] (shared::cluster) or [dst], [src], size{, cache-policy} (global) */
        const ptx_form *fm = d->form;
        int which = atomic_op(d);
        bool mbar = ptx_form_has(d->m, fm, PTX_MOD_MBARRIER_COMPLETE_TX_BYTES);
        if (which < 0 || which >= A_EXCH || !mem_type_ok(in->type) || fm->nspaces != 2 || n != 3u + mbar ||
            mbar == (fm->space[0] == PTX_SPACE_GLOBAL))
            return NULL;
        bool half = in->type == PTX_TYPE_F16 || in->type == PTX_TYPE_BF16;
        if (type_float(in->type) && which != A_ADD && !(half && (which == A_MIN || which == A_MAX)))
            return NULL; /* floats: add; f16/bf16 also min and max */
        in->op = (uint8_t)which;
        in->op2 = fm->space[1];
        if (!sim_dec_addr(d, 0) || in->space != fm->space[0] ||
            (in->target = sim_dec_addr_pooled(d, 1, fm->space[1])) == PTX_NONE ||
            (mbar && sim_dec_addr_pooled(d, 3, in->space) != in->target + 1) || !sim_dec_src(d, 2, 0))
            return NULL;
        in->flags |= SIM_IF_ATOMIC;
        return op_cp_reduce_bulk;
    }
    case PTX_OP_CVTA: case PTX_OP_ISSPACEP: {
        bool to = ptx_form_has(d->m, d->form, PTX_MOD_TO);
        in->op = op == PTX_OP_ISSPACEP ? 2 : to ? 1 : 0;
        if (op == PTX_OP_ISSPACEP)
            in->type = PTX_TYPE_U64;
        if (n != 2 || !sim_dec_dst(d, 0, 0) || !sim_dec_src(d, 1, 0))
            return NULL;
        return op_cvta;
    }
    case PTX_OP_MAPA:
        return n == 3 && sim_dec_dst(d, 0, 0) && sim_dec_src(d, 1, 0) && sim_dec_src(d, 2, 1) ? op_mapa : NULL;
    case PTX_OP_GETCTARANK:
        return n == 2 && sim_dec_dst(d, 0, 0) && sim_dec_src(d, 1, 0) ? op_getctarank : NULL;
    case PTX_OP_PREFETCH: case PTX_OP_PREFETCHU: case PTX_OP_MEMBAR: case PTX_OP_FENCE:
    case PTX_OP_APPLYPRIORITY: case PTX_OP_DISCARD:
        return op_nop;
    case PTX_OP_CREATEPOLICY:
        return sim_dec_dst(d, 0, 0) ? op_createpolicy : NULL;
    default:
        return NULL;
    }
}
