/* internal.h — the emulator's data structures, shared by its files.
 *
 * Decoded form: every instruction of a function becomes a sim_inst whose
 * handler was chosen by opcode and types at decode time, with register
 * operands resolved to rows and symbol addresses to constants.
 *
 * Thread state of a CTA is structure-of-arrays: row r holds register r of
 * every thread (rows[r * nthreads + t]), each value in a 64-bit slot,
 * zero-extended from the register's declared width (predicates are 0/1).
 * Uniform 64-bit slots keep every handler's operand access the same
 * (register, special register or immediate) at the cost of memory for
 * narrow registers; rows past the function's registers hold the carry flag
 * and the special registers, filled when a CTA starts.
 *
 * The one execution entry point is sim_exec: run instruction pc for a
 * thread group (up to 32 thread indices of one CTA plus an active mask) and
 * report in a sim_step what happened (branch outcome per lane, exits,
 * barrier arrival, memory touched, fault). */
#ifndef SIMTLAB_EMU_INTERNAL_H
#define SIMTLAB_EMU_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "emulator/sim.h"

/* ---- memory ------------------------------------------------------------ */

typedef struct sim_alloc {
    uint64_t base, size;
    uint8_t *data;     /* the host storage (at address base itself when mapped) */
    char *label;
    bool mapped;       /* sim_malloc_mapped: host and guest share the address */
    bool borrowed;     /* sim_register_host: the caller's memory, never freed here */
    bool read_only;    /* registered read-only: a kernel's write or atomic faults */
} sim_alloc;

/* A mapped region of the global window (window.c): SIM_REGION_BYTES
 * granules that allocations of one kind are carved from, as the CUDA
 * driver carves cudaMalloc memory from 2 MiB pages. */
typedef struct sim_region {
    uint64_t base, size; /* guest range, a multiple of SIM_REGION_BYTES */
    uint8_t *data;       /* host storage of the whole range (== base when mapped) */
    uint32_t live;       /* live allocations carved from it */
    bool mapped;         /* host and guest share the addresses (pinned, managed) */
    uint64_t no_fit;     /* a size that found no hole since the last free (UINT64_MAX: none) */
} sim_region;

/* A guest range reserved in the host address space (window.c). */
typedef struct sim_range {
    uint64_t lo, end;
} sim_range;

/* A PTX line of a program that already had its warning about an access
 * outside every live allocation (memory.c). */
typedef struct sim_noted_line {
    const void *program;
    uint32_t line;
} sim_noted_line;

/* A texture or surface object (texture.c). */
enum { SIM_IMAGE_NONE, SIM_IMAGE_TEXTURE, SIM_IMAGE_SURFACE };
typedef struct sim_image {
    sim_texture_desc desc; /* with height, depth and levels at least 1 */
    uint8_t kind;          /* SIM_IMAGE_*; NONE once destroyed */
    uint32_t texel_bytes;
    uint64_t bytes;        /* all levels and layers */
} sim_image;

struct sim_device {
    sim_alloc *allocs; /* live allocations, ascending base */
    uint32_t nallocs, cap;
    sim_region *regions; /* mapped regions, ascending base (window.c) */
    uint32_t nregions, cap_regions;
    sim_range *reserved; /* guest ranges held in the host address space, ascending,
                            coalesced; kept until the device is freed */
    uint32_t nreserved, cap_reserved;
    uint64_t window;     /* bytes of the global window: [SIM_GLOBAL_BASE, + window) */
    uint64_t live_bytes; /* sum of the live allocations' sizes */
    uint64_t device_bytes; /* the part of live_bytes that is device (not mapped) memory */
    bool memcheck;       /* every access outside a live allocation faults */
    pthread_mutex_t lock; /* allocation table, device heap and global atomics */
    /* the device heap of malloc/free in kernels: one allocation made before
     * a launch that needs it, carved by bumping (freed blocks are not
     * reused), so the allocation table never changes while CTAs run */
    uint64_t heap_base, heap_size, heap_used;
    uint64_t heap_request; /* sim_heap_set_size's bytes, valid when heap_requested */
    bool heap_requested;
    sim_image *images; /* texture and surface objects: handle - base - 1 */
    uint32_t nimages, cap_images;
    /* PTX lines warned about (accesses in a region outside every
     * allocation), under their own lock: atomics hold `lock` */
    pthread_mutex_t notes_lock;
    sim_noted_line *noted;
    uint32_t nnoted, cap_noted;
};

/* Make sure the device heap exists (before a launch; host side only). */
int sim_heap_reserve(sim_device *d, char *err, size_t errlen);
/* Device malloc/free from a running kernel: 0 when the heap is full. */
uint64_t sim_heap_alloc(sim_device *d, uint64_t size);

/* Write a one-line message into err (if any); returns -1. */
int sim_fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The live allocation holding [addr, addr+size), or NULL. */
sim_alloc *sim_find_alloc(sim_device *d, uint64_t addr, uint64_t size);
/* The allocation nearest to addr (for reports), or NULL when none exist. */
const sim_alloc *sim_nearest_alloc(const sim_device *d, uint64_t addr);
/* Index of the first live allocation whose base is above addr. */
uint32_t sim_alloc_upper_bound(const sim_device *d, uint64_t addr);
/* Forget the PTX lines of program p already warned about (p is freed). */
void sim_forget_notes(sim_device *d, const void *p);

/* ---- the global window (window.c) -------------------------------------- */

/* Granule of mapped regions, and the gap kept on both sides of every
 * allocation inside its region (running off one lands in unallocated
 * space of the region, never in the next allocation). */
#define SIM_REGION_BYTES (2ull << 20)
#define SIM_ALLOC_GAP 4096u
#define SIM_ALLOC_ALIGN 256u

/* The part of the shared, local, constant, parameter and code windows
 * that their addresses take (shared offsets are 32-bit, cluster ranks
 * included; the others are far smaller). A generic address beyond it is
 * a global address, as registered host memory may lie there (a heap at
 * 0x55..., ASan's at 0x60...), and no host range in it can be
 * registered. */
#define SIM_SPACE_WINDOW_BYTES (1ull << 32)

/* Choose the guest address of a new allocation of size bytes (mapped: one
 * that host code uses at the same address) and its zeroed host storage;
 * counts it in its region and in live_bytes. The caller holds the lock
 * and adds the allocation to the table. -1 and err when nothing fits. */
int sim_window_place(sim_device *d, uint64_t size, bool mapped, uint64_t *base, uint8_t **data,
                     char *err, size_t errlen);
/* The allocation of size bytes at base is gone (already out of the
 * table): uncount it; its region is unmapped when it was the last. */
void sim_window_release(sim_device *d, uint64_t base, uint64_t size);
/* The mapped region holding all of [addr, addr + size), or NULL. */
const sim_region *sim_find_region(const sim_device *d, uint64_t addr, uint64_t size);
/* Give back every region's storage and every reservation. */
void sim_window_free(sim_device *d);

/* ---- decoded program --------------------------------------------------- */

/* Rows after a function's registers. */
enum sim_row {
    ROW_CC = 0,
    ROW_TID_X, ROW_TID_Y, ROW_TID_Z,
    ROW_NTID_X, ROW_NTID_Y, ROW_NTID_Z,
    ROW_CTAID_X, ROW_CTAID_Y, ROW_CTAID_Z,
    ROW_NCTAID_X, ROW_NCTAID_Y, ROW_NCTAID_Z,
    ROW_LANEID, ROW_WARPID, ROW_NWARPID, ROW_SMID, ROW_NSMID, ROW_GRIDID,
    ROW_LANEMASK_EQ, ROW_LANEMASK_LE, ROW_LANEMASK_LT, ROW_LANEMASK_GE, ROW_LANEMASK_GT,
    ROW_DYNAMIC_SMEM, ROW_TOTAL_SMEM,
    ROW_CLUSTERID_X, ROW_CLUSTERID_Y, ROW_CLUSTERID_Z,
    ROW_NCLUSTERID_X, ROW_NCLUSTERID_Y, ROW_NCLUSTERID_Z,
    ROW_CLUSTER_CTAID_X, ROW_CLUSTER_CTAID_Y, ROW_CLUSTER_CTAID_Z,
    ROW_CLUSTER_NCTAID_X, ROW_CLUSTER_NCTAID_Y, ROW_CLUSTER_NCTAID_Z,
    ROW_CLUSTER_CTARANK, ROW_CLUSTER_NCTARANK, ROW_IS_EXPLICIT_CLUSTER,
    ROW_ENVREG1, ROW_ENVREG2, /* the grid synchronization workspace: high, low word */
    ROW_COUNT
};
_Static_assert(ROW_COUNT <= 64, "special rows are a 64-bit mask (sim_program.special_rows)");

typedef struct sim_src {
    uint8_t imm;  /* 0: register row `row`; 1: `value` for every thread; 2: the CTA's
                     clock (warp instructions issued so far: %clock, %clock64, %globaltimer);
                     3: `value` plus the running frame's local stack offset (addresses of
                     a function's .local variables and call parameters) */
    uint8_t neg;  /* !p: logical negation of a predicate source */
    uint32_t row;
    uint64_t value;
} sim_src;

struct sim_cta;
struct sim_inst;
struct sim_lanes;
struct sim_group;
struct sim_step;

typedef void (*sim_fn)(struct sim_cta *c, const struct sim_inst *in, const struct sim_group *g,
                       const struct sim_lanes *L, struct sim_step *s);

/* Memory operand: address = (base row value, or base constant) + offset,
 * computed in the width of the base register: a 32-bit (or 16-bit)
 * register's sum wraps there, as on the hardware ([%r+64] with %r =
 * 0xffffffc4 is address 4), a 64-bit one mod 2^64. mask keeps the
 * register's bits (all of them for symbols and immediates). */
typedef struct sim_addr {
    sim_src base;
    int64_t offset;
    uint64_t mask;
} sim_addr;

/* Most sources and destinations one instruction holds (ld/st .v8). */
#define SIM_MAX_SRC 8
#define SIM_MAX_DST 8

typedef struct sim_inst {
    sim_fn fn;
    uint32_t line;
    uint32_t guard;      /* predicate row, or PTX_NONE */
    uint8_t guard_neg;
    uint8_t type, type2; /* ptx_type: the instruction's first and second type */
    uint8_t op;          /* handler-specific selector (compare op, bool op, mode, atomic op,
                            st: the vector elements written as `_`, which it skips) */
    uint8_t op2;         /* second selector (setp/set combine, shfl clamp, ...) */
    uint8_t rnd;         /* rounding: 0 default, 1 rn, 2 rz, 3 rm, 4 rp, 5 rna, 6 rs */
    uint8_t ftz, sat;
    uint8_t space;       /* ptx_space of memory instructions */
    uint8_t nsrc, ndst, vec;
    uint8_t nsrc_used, ndst_used; /* source / destination slots decoded (what handlers read) */
    int8_t sync_src;     /* warp-synchronous (.sync forms): the source slot of the member
                            mask, else -1 */
    uint16_t flags;      /* SIM_IF_* */
    uint32_t dst[SIM_MAX_DST];     /* destination rows; PTX_NONE for a sink */
    uint8_t dst_bits[SIM_MAX_DST]; /* declared width of each destination register */
    sim_src src[SIM_MAX_SRC];
    sim_addr addr;       /* memory operand of ld/st/atom/red/prefetch/cvta-less forms */
    uint32_t target;     /* branch target pc; brx.idx: first index in the program's target pool;
                            call: the callee's function index; video instructions: the source
                            selectors (ops_video.c); cp.async, cp.async.bulk, st.async,
                            red.async: their second memory operand (the source or the
                            mbarrier; a bulk copy's mbarrier follows its source) in the
                            program's address pool */
    uint32_t ntargets;   /* brx.idx: targets; call: first index in the program's call pool
                            (ndst return symbols, then nsrc argument symbols); video
                            instructions: the destination selector or mask */
    const char *text;    /* unsupported: the instruction as written */
    uint32_t regimm;     /* sources written r + imm: first entry in the program's pool */
    uint8_t nregimm;     /* how many (each reads its own scratch row, filled before the
                            handler runs) */
} sim_inst;

/* A source written as a register plus a constant (st.u64 [p], r + 1): the
 * handler reads scratch row `row`, which holds (src + add) cut to `bits`
 * for the instruction's lanes. */
typedef struct sim_regimm {
    uint32_t row, src;
    uint64_t add;
    uint8_t bits;
} sim_regimm;

/* A call's result or argument given as registers or immediates instead of
 * a .param slot (.reg parameters): n values at the program's xsrc[first],
 * sources for an argument; for a result destination rows (src.row,
 * PTX_NONE for _) with their widths in bits (src.value). */
typedef struct sim_call_regs {
    uint32_t first, n;
} sim_call_regs;

enum sim_inst_flags {
    SIM_IF_BRANCH = 1u << 0,  /* bra / brx.idx: the handler fills step->taken */
    SIM_IF_UNI = 1u << 1,     /* bra.uni */
    SIM_IF_WIDE = 1u << 2,
    SIM_IF_HI = 1u << 3,
    SIM_IF_CC = 1u << 4,      /* writes the carry flag */
    SIM_IF_APPROX = 1u << 5,
    SIM_IF_NAN = 1u << 6,     /* min/max .NaN */
    SIM_IF_VOLATILE = 1u << 7,
    SIM_IF_LOAD = 1u << 8,    /* reads memory into its destinations (ld, atom) */
    SIM_IF_STORE = 1u << 9,   /* st */
    SIM_IF_INTERNAL = 1u << 10, /* bar: the emulator's own barrier id (barrier.cluster.wait) */
    SIM_IF_ATOMIC = 1u << 11,   /* atom / red */
    SIM_IF_GENERAL = 1u << 12,  /* a guard, a member mask to check or r + imm sources: sim_exec's
                                   general path (set by the decoder for every handler) */
    SIM_IF_ORDERED = 1u << 13,  /* an ordered point (order.c): its effect or result may depend on
                                   the order of blocks; with several host threads a block waits
                                   there, once, until every lower-numbered block has finished
                                   (set with SIM_IF_GENERAL, so sim_exec's common path never
                                   looks at it) */
    SIM_IF_PACKED = 1u << 14    /* a store whose lanes write one after another from one address,
                                   those with source 0 (a predicate) set, each element `type` wide
                                   (simtlab.cond_acc): lane k's address is not its operand's */
};

/* A range [lo, end) of shared-memory offsets. */
typedef struct sim_shared_range {
    uint32_t lo, end;
} sim_shared_range;

typedef struct sim_func {
    const ptx_function *f;
    uint32_t index;       /* in the module */
    /* per instruction ending a block: the CFG edge (index into f->succs)
     * its branch takes, its fall-through, its exit (ret/exit); PTX_NONE */
    uint32_t *edge_taken, *edge_fall, *edge_exit;
    sim_inst *code;
    uint32_t ninstrs;
    uint32_t nregs;       /* the function's registers; rows nregs .. nregs+ROW_COUNT-1 follow */
    uint32_t nscratch;    /* then scratch rows for r + imm sources (sim_regimm) */
    uint32_t *rpc;        /* per instruction: reconvergence pc of a branch (ninstrs = the end) */
    uint32_t *lpc;        /* per instruction: likely-convergence pc of a branch, PTX_NONE for
                             none; NULL until sim_program_static_lpc or annotations set it */
    uint8_t *branch_facts; /* per instruction: a conditional branch's ptx_branch_class (the low
                             bits) and SIM_BRANCH_CTA_UNIFORM; NULL until
                             sim_program_branch_facts */
    uint32_t local_bytes; /* its frame on the per-thread stack: .local variables, the .param
                             slots of the calls it makes and (.func) its own parameters */
    /* shared memory of a kernel (what it and the functions it calls name):
     * the end of its static variables in the module's layout, their total
     * size, and whether it names the dynamic (extern) array */
    uint32_t shared_end, shared_used;
    bool shared_dynamic;
    /* the offsets its accesses may reach: its static variables as sorted,
     * merged [lo, end) ranges (alignment padding between two of its own
     * variables included), then the dynamic region of the launch at
     * shared_dynamic_base; shared_fast_* is the first range, which the
     * inline access path checks (grown by the dynamic size when the
     * dynamic region follows it directly) */
    sim_shared_range *shared_ranges;
    uint32_t nshared_ranges, shared_dynamic_base;
    uint32_t shared_fast_lo, shared_fast_size;
    bool shared_fast_dynamic;
    /* a kernel's rows (registers, then the carry) that some path may read
     * before writing them: the only ones a CTA's start zeroes */
    uint32_t *zero_rows, nzero_rows;
} sim_func;

struct sim_program {
    sim_device *dev;
    const ptx_module *m;
    sim_func *funcs;        /* per module function (code NULL without a body) */
    uint64_t *sym_value;    /* per symbol: its address in its own state space */
    uint32_t shared_static; /* the module's static .shared variables end here; the dynamic
                               (extern) array starts at this offset */
    uint8_t *const_bank;
    uint32_t const_bytes;
    uint64_t *global_allocs; /* device allocations made for .global variables */
    uint32_t nglobal_allocs, cap_global_allocs;
    uint32_t *targets;      /* brx.idx target pcs, per function, pooled */
    uint32_t ntargets;
    uint32_t *frag_pool;    /* wmma/mma/ldmatrix fragment descriptions (ops_mma.c), pooled */
    uint32_t nfrag_pool;
    uint32_t *frag_pool32;  /* their registers */
    uint64_t special_rows;  /* bit r: some instruction reads special row r (enum sim_row) */
    sim_src *xsrc;          /* sources beyond an instruction's own (texture operands), pooled */
    uint32_t nxsrc;
    uint32_t nfrag_pool32;
    sim_addr *addr_pool;    /* memory operands beyond an instruction's first, pooled */
    uint32_t naddr_pool;
    uint32_t *call_syms;    /* call instructions' return and argument symbols, pooled;
                               PTX_NONE where registers stand instead (call_regs) */
    sim_call_regs *call_regs; /* parallel to call_syms */
    uint32_t ncall_syms;
    sim_regimm *regimm;     /* r + imm sources of all instructions, pooled */
    uint32_t nregimm;
    uint32_t module_local;  /* bytes of module-scope .local variables at the stack's base */
    bool uses_heap;         /* some call goes to malloc */
    struct sim_kernel_cache *kernels; /* parameter layouts, per entry */
};

/* Does symbol sym live in its function's frame on the local stack (a
 * function's .local variables, the .param slots of its calls, a .func's
 * parameters)? Their values are frame offsets. */
bool sim_frame_symbol(const sim_program *p, uint32_t sym);

/* The decoded function of kernel `name`, or NULL. */
const sim_func *sim_program_kernel(const sim_program *p, const char *name);

/* A profile: counters of every function laid out one after another. */
struct sim_profile {
    const sim_program *prog;
    uint32_t *ifirst, *efirst;   /* per function: first instruction / edge counter */
    sim_instr_profile *instrs;
    uint64_t *edges;
    uint32_t ninstrs, nedges;
};

/* Fill fn's edge_taken/edge_fall/edge_exit (after decoding). */
void sim_func_edges(sim_func *fn);

/* A zeroed profile shaped like prof (each host thread counts into one). */
sim_profile *sim_profile_like(const sim_profile *prof);
/* Add `from` into `into`. */
void sim_profile_add(sim_profile *into, const sim_profile *from);

/* uninit.c: the rows of f some path may read before an unguarded write. */
uint32_t *sim_uninit_rows(const ptx_module *m, const ptx_function *f, uint32_t *n);

/* Rows a function's CTA state needs. */
static inline uint32_t sim_func_rows(const sim_func *fn) { return fn->nregs + ROW_COUNT + fn->nscratch; }

/* ---- execution --------------------------------------------------------- */

/* The active lanes that pass the guard: lane k[i] is thread t[i]. */
typedef struct sim_lanes {
    uint32_t n;
    bool contig;    /* t[i] == t[0] + i for every i: a run of consecutive threads */
    uint32_t t[32];
    uint8_t k[32];
} sim_lanes;

/* Up to 32 threads of one CTA executing together: lane k is thread t[k]
 * (a CTA-linear thread index); lanes set in `mask` are active. */
typedef struct sim_group {
    /* (the fields an issue reads first, then the active lanes: together
     * at the start, for the host's cache) */
    /* the warp and call depth sim_enter_warp last set the group up for */
    const struct sim_warp *ctx;
    const struct sim_warp *pdom; /* under PDOM scheduling, the warp: lanes it holds on its
                         reconvergence stack at code that only exits count as absent
                         too (sim_pdom_absent); NULL otherwise */
    uint32_t ctx_frames;
    uint32_t n;
    uint32_t mask;
    uint32_t absent;  /* lanes that have exited: warp-synchronous instructions leave
                         them out (set by the scheduler) */
    /* the lanes of `mask`, prepared by sim_group_set and sim_group_mask
     * (set the mask only through them): consecutive instructions share it */
    sim_lanes active;
    uint32_t t[32];
} sim_group;

/* Make g the n threads t (lane k is thread t[k]), all active. */
static inline void sim_group_set(sim_group *g, uint32_t n, const uint32_t *t)
{
    g->n = g->active.n = n;
    g->mask = n >= 32 ? ~0u : (1u << n) - 1;
    g->absent = 0;
    g->pdom = NULL;
    g->ctx = NULL;
    g->active.contig = n > 0;
    for (uint32_t k = 0; k < n; k++) {
        g->t[k] = g->active.t[k] = t[k];
        g->active.k[k] = (uint8_t)k;
        g->active.contig &= t[k] == t[0] + k;
    }
}

/* Set g's active lanes (a subset of its n). */
static inline void sim_group_mask(sim_group *g, uint32_t mask)
{
    if (mask == g->mask)
        return;
    g->mask = mask;
    g->active.n = 0;
    g->active.contig = mask != 0;
    for (uint32_t m = mask; m; m &= m - 1) {
        uint32_t k = (uint32_t)__builtin_ctz(m);
        g->active.t[g->active.n] = g->t[k];
        g->active.contig &= g->t[k] == g->active.t[0] + g->active.n;
        g->active.k[g->active.n++] = (uint8_t)k;
    }
}

/* One memory access of one thread (sim_step.mem): what the timing model's
 * memory pipeline needs of every instruction that touches memory (ld, st,
 * atom, red, tex and tld4 texels, suld/sust, cp.async and bulk copies,
 * ldmatrix, stmatrix, wmma and mma operands, mbarrier words, ...). Every
 * access goes through sim_mem, which logs it: the instruction handlers
 * need no code of their own for it. Not logged: call arguments copied
 * through the local stack (calls.c) and the arguments device printf reads
 * (builtins.c), which are the emulator's calling convention rather than
 * the program's accesses. */
typedef struct sim_mem_access {
    uint64_t addr;   /* in its space: a global address, or an offset in the shared (cluster
                        rank bits included), local (per thread), constant or parameter space */
    uint32_t size;   /* bytes */
    uint16_t thread; /* CTA-linear thread index (a CTA has at most 1024 threads; 16 bytes an entry) */
    uint8_t kind;    /* 1 read, 2 write, 3 atomic (read-modify-write) */
    uint8_t space;   /* PTX_SPACE_GLOBAL, _SHARED, _LOCAL, _CONST or _PARAM: generic
                        addresses as they resolved */
} sim_mem_access;

enum sim_event {
    SIM_EV_NONE = 0,
    SIM_EV_BRANCH,   /* taken lanes in `taken`, to `target` (brx.idx: per-lane next_pc) */
    SIM_EV_EXIT,     /* lanes in `exited` finished */
    SIM_EV_BARRIER,  /* the group arrived at barrier `barrier` expecting `barrier_count` threads (0: all) */
    SIM_EV_FAULT,    /* the CTA's fault was set: stop */
    SIM_EV_CALL,     /* the lanes in `taken` call function `target` (a function index);
                        those in `retry` must execute the call again */
    SIM_EV_RET       /* lanes in `exited` return from the running function */
};

typedef struct sim_step {
    uint8_t event;
    uint32_t taken;        /* BRANCH: lanes taking it */
    uint32_t target;       /* BRANCH: target pc (bra) */
    uint32_t next_pc[32];  /* BRANCH via brx.idx: per lane */
    bool indirect;         /* next_pc is per lane */
    uint32_t exited;       /* EXIT: lanes */
    uint32_t barrier, barrier_count;
    bool barrier_arrive_only; /* bar.arrive: do not wait */
    uint8_t red_op;           /* bar.red: 1 popc, 2 and, 3 or (0: none) */
    uint32_t red_true, red_lanes; /* bar.red: lanes with the predicate true / contributing */
    uint32_t retry;        /* CALL: lanes that must execute the call again (an indirect call
                              whose lanes name other functions) */
    /* with sim_cta.record_mem: every memory access the instruction made,
     * in the order it made them (NULL and 0 otherwise) */
    const struct sim_mem_access *mem;
    uint32_t nmem;
    bool mem_by_lane;      /* entry i of mem is the access of the i-th lane the instruction ran
                              for, one each, all of one size, kind and space (the common log,
                              which the timing model then reads without checking it) */
} sim_step;

/* sim_func.branch_facts: the branch condition is the same in every thread
 * of the CTA (the low bits hold its ptx_branch_class). */
#define SIM_BRANCH_CTA_UNIFORM 0x4u
#define SIM_BRANCH_CLASS(f) ((f) & 0x3u)

/* A warp's reconvergence stack entry; with likely-convergence points
 * (sim_simt_pdom_lpc), the entry's LPC and the stack index of the
 * likely-convergence entry its lanes join there (PTX_NONE: none). */
typedef struct sim_simt_entry {
    uint32_t pc, rpc, mask;
    uint32_t lpc, lpos;
} sim_simt_entry;

/* A function call in progress on a warp: the callee's registers for the
 * warp's 32 lanes, its frame on the per-thread stacks, and where the
 * caller resumes. */
typedef struct sim_frame {
    const sim_func *fn;
    uint64_t *rows;        /* sim_func_rows(fn) x 32 */
    uint8_t *taint;        /* their dynamic taint when tracked (same allocation) */
    uint32_t sp;           /* the frame's offset in each thread's local stack */
    uint32_t simt_base;    /* SIMT stack depth below the callee's entries */
    uint32_t call_pc;      /* the caller's call instruction */
    uint32_t lanes;        /* lanes that entered */
    uint32_t returned;     /* lanes that executed ret */
} sim_frame;

typedef struct sim_warp {
    /* what every turn of the warp reads, together in its first cache line
     * (the timing model takes turns of thousands of warps: each turn's
     * first touch of its warp is a cache miss) */
    sim_simt_entry *stack;
    sim_frame *frames;        /* calls in progress, innermost last */
    uint32_t depth, cap;
    uint32_t nframes, cap_frames;
    uint32_t exited;          /* lanes that executed exit/ret */
    uint32_t n;               /* threads in the warp */
    bool at_barrier;
    bool at_cluster;          /* waits for the cluster barrier's phase cluster_target (at barrier_pc) */
    bool rr;
    uint8_t status;           /* sim_warp_status after its last turn (cta.c) */
    uint32_t t[32];           /* lane k is CTA thread t[k] */
    uint32_t barrier, barrier_pc, barrier_mask, barrier_count, barrier_line;
    uint8_t red_op;           /* waiting at bar.red: where the result goes */
    uint64_t *red_row;        /* the destination row (kernel or frame registers) */
    uint64_t red_mask;        /* its width mask */
    bool red_in_frame;        /* row indexed by lane (frame) or by thread (kernel) */
    /* independent thread scheduling (its.c): a pc per lane, the lanes
     * waiting at a CTA barrier (and which) or at a warp-synchronous
     * instruction for the rest of their member mask */
    uint32_t tpc[32];
    uint32_t bar_wait, sync_wait;
    uint32_t red_wait;        /* the lanes of bar_wait waiting at bar.red */
    uint8_t lane_bar[32];
    uint32_t last_pc;
    /* the cluster barrier: the phase this warp's last arrival completes */
    uint32_t cluster_target;
} sim_warp;

/* Barriers of a CTA: the 16 of the ISA and one the emulator uses for
 * barrier.cluster.wait (a cluster is one CTA). */
#define SIM_BARRIERS 17
#define SIM_CLUSTER_BARRIER 16

/* A bar.red reduction in progress on one barrier: both schedulers add
 * each issue's lanes and hand the result to the waiting lanes. */
typedef struct sim_bar_red {
    uint32_t popc;
    bool all, any;
} sim_bar_red;
#define SIM_BAR_RED_INIT ((sim_bar_red){0, true, false})

/* Add an issue of `lanes` lanes, `true_lanes` of them with the predicate set. */
static inline void sim_bar_red_add(sim_bar_red *r, uint32_t true_lanes, uint32_t lanes)
{
    r->popc += true_lanes;
    r->all &= true_lanes == lanes;
    r->any |= true_lanes != 0;
}

/* The result for reduction op (1 popc, 2 and, 3 or). */
static inline uint64_t sim_bar_red_value(const sim_bar_red *r, uint8_t op)
{
    return op == 1 ? r->popc : op == 2 ? r->all : r->any;
}

/* The CTAs of one thread block cluster, run together on one host thread
 * (the cluster barrier and distributed shared memory join them). */
typedef struct sim_cluster {
    struct sim_cta **ctas; /* by rank */
    uint32_t n;
    uint32_t phase;        /* cluster barrier phases completed */
} sim_cluster;

typedef struct sim_cta {
    sim_device *dev;
    const sim_program *prog;
    const sim_func *kernel_fn;
    uint64_t *kernel_rows;    /* the kernel's registers: sim_func_rows x nthreads */
    uint32_t nthreads;
    /* the running code: the kernel, or the function a warp has called */
    const sim_func *fn;
    uint64_t *rows;           /* its register rows */
    uint32_t stride;          /* row length: nthreads, or 32 inside a call frame */
    const uint32_t *tmap;     /* inside a call frame: lane -> CTA thread; else NULL */
    /* the warp and call depth the running code was set up for
     * (sim_enter_warp; cleared when a call starts or ends) */
    const struct sim_warp *ctx_warp;
    uint32_t ctx_frames;
    uint32_t frame_sp;        /* its frame's offset in the per-thread stacks */
    uint8_t *shared;
    uint32_t shared_bytes, dynamic_shared;
    uint32_t smid, nsmid;     /* what %smid and %nsmid read: the timing model's SM and SM count
                                 (set before the CTA begins); the emulator's 0 and 1 */
    uint8_t *local;           /* per-thread stacks: nthreads * local_bytes */
    uint32_t local_bytes;
    const uint8_t *params;
    uint32_t param_bytes;
    sim_dim3 ctaid, ntid, nctaid;
    const char *kernel;
    /* what %clock, %clock64 and %globaltimer read (sim_clock): the warp
     * instructions issued so far in this CTA, unless the caller owns time
     * (clock_external: the timing model writes the simulated cycle here
     * before each sim_exec) */
    uint64_t clock;
    bool clock_external;
    /* log every memory access of each sim_exec into mem_log (sim_step.mem);
     * the log grows as needed and is reused from one instruction to the next */
    bool record_mem;
    struct sim_mem_access *mem_log;
    uint32_t nmem_log, cap_mem_log;
    uint64_t workspace;       /* the launch's grid synchronization words (%envreg1/2) or 0 */
    bool faulted;
    sim_error fault_kind;
    sim_warp *warps;
    uint32_t nwarps;
    uint64_t permutation_seed; /* 0: static warps; else warps of permuted threads */
    bool its;                 /* independent thread scheduling */
    uint64_t warp_instructions, thread_instructions, divergent_branches;
    uint32_t max_stack_depth;  /* the deepest reconvergence stack of its warps (PDOM controls) */
    uint64_t *sink;           /* scratch row for writes to `_` (nthreads entries) */
    uint64_t cache_base, cache_size; /* the global allocation last accessed */
    uint8_t *cache_data;
    sim_profile *profile;     /* this host thread's counts, or NULL */
    sim_trace_fn trace;       /* memory accesses to report (sim_launch_config.trace), or NULL */
    void *trace_ctx;
    /* dynamic taint (with a profile): per register and thread 0 none,
     * 1 programmatic, 2 data; per byte of the local stacks likewise */
    uint8_t *kernel_taint, *taint, *local_taint;
    char *printf_buf;         /* device printf output of this CTA */
    uint32_t printf_len, printf_cap;
    sim_cluster *cluster;     /* its cluster (one CTA when the launch has none) */
    uint32_t cluster_rank;
    /* block order (order.c): the launch's gate (NULL on one host thread),
     * the number of the group of CTAs (cluster) this one runs in, and
     * whether it has passed its first ordered point */
    struct sim_order *order;
    uint64_t order_group;
    bool order_passed;
    /* the large fields, last: the ones above that every instruction reads
     * share fewer host cache lines */
    char fault[512];
    /* the CTA-uniform special rows as last filled (specials_filled: once
     * filled, with the thread-index rows, only changed rows are rewritten) */
    uint64_t special_last[ROW_COUNT];
    bool specials_filled;
    /* the CTA barriers (barrier.c): threads arrived, the count the
     * arrivals expect (0: every live thread), bar.red reductions */
    uint32_t bar_arrived[SIM_BARRIERS], bar_count[SIM_BARRIERS];
    sim_bar_red bar_red[SIM_BARRIERS];
} sim_cta;

/* Shared-space addresses name the running CTA's shared memory, or, with
 * (rank + 1) << SIM_CLUSTER_RANK_SHIFT added, that of cluster rank `rank`
 * (what mapa produces); SIM_SHARED_WINDOW + such an address is generic. */
#define SIM_CLUSTER_RANK_SHIFT 24

/* Row r of the CTA state. */
static inline uint64_t *sim_row(const sim_cta *c, uint32_t r) { return c->rows + (size_t)r * c->stride; }
/* The CTA thread behind execution index t (lanes inside a call frame). */
static inline uint32_t sim_thread(const sim_cta *c, uint32_t t) { return c->tmap ? c->tmap[t] : t; }

/* The value %clock reads now (sim_cta.clock). */
static inline uint64_t sim_clock(const sim_cta *c) { return c->clock_external ? c->clock : c->warp_instructions; }

/* Value of source operand s for thread t. */
static inline uint64_t sim_get(const sim_cta *c, const sim_src *s, uint32_t t)
{
    uint64_t v = s->imm == 0 ? c->rows[(size_t)s->row * c->stride + t]
                 : s->imm == 1 ? s->value : s->imm == 2 ? sim_clock(c) : s->value + c->frame_sp;
    return s->neg ? !v : v;
}

/* The address memory operand a names when its base has value `base`: the
 * one address computation every instruction shares (the fast paths of
 * ld/st call it with register values they read themselves). */
static inline uint64_t sim_addr_sum(const sim_addr *a, uint64_t base)
{
    return (base + (uint64_t)a->offset) & a->mask;
}

/* Guest address of memory operand a for thread t. */
static inline uint64_t sim_addr_at(const sim_cta *c, const sim_addr *a, uint32_t t)
{
    return sim_addr_sum(a, sim_get(c, &a->base, t));
}

/* Guest address of in's memory operand for thread t. */
static inline uint64_t sim_address(const sim_cta *c, const struct sim_inst *in, uint32_t t)
{
    return sim_addr_at(c, &in->addr, t);
}

/* Store v into destination row r for thread t, truncated to bits. */
static inline void sim_put(sim_cta *c, uint32_t r, uint8_t bits, uint32_t t, uint64_t v)
{
    if (r == PTX_NONE)
        return;
    c->rows[(size_t)r * c->stride + t] = bits >= 64 ? v : v & ((1ull << bits) - 1);
}

/* Record the first fault of the CTA (printf-style); later ones are ignored. */
void sim_fault(sim_cta *c, sim_error kind, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* "thread (x,y,z) block (x,y,z)" of thread t, for fault messages. */
void sim_thread_coords(const sim_cta *c, uint32_t t, char *buf, size_t n);

/* Dynamic taint of the lanes' sources before instruction `in` runs
 * (into src_taint, by lane position), and of its results after. */
void sim_taint_before(sim_cta *c, const sim_inst *in, const sim_lanes *L, uint8_t *src_taint);
/* Report memory instruction pc, about to run on lanes L, to c->trace. */
void sim_trace_access(const sim_cta *c, uint32_t pc, const sim_inst *in, const sim_lanes *L);
void sim_taint_after(sim_cta *c, const sim_inst *in, const sim_lanes *L, const uint8_t *src_taint);

/* Make the CTA run warp w's current code (the kernel, or the function on
 * top of its call stack) and g the warp's group for it: what sim_exec
 * needs before it runs an instruction of w (exec.c). */
void sim_enter_warp(sim_cta *c, const struct sim_warp *w, sim_group *g);
/* Execute instruction pc for group g; fills s. */
void sim_exec(sim_cta *c, uint32_t pc, const sim_group *g, sim_step *s);
/* Where instruction pc's memory operand points for the first active lane
 * of g (*lane: that lane), its space resolved as the access log names it,
 * without running anything (exec.c): what the timing model's hazard
 * oracle looks up before a load issues. False when no lane is active or
 * the instruction's guard is not all-true (the oracle then knows
 * nothing). */
bool sim_preview_access(const sim_cta *c, uint32_t pc, const sim_group *g, uint8_t *space, uint64_t *addr,
                        uint32_t *lane);
/* Straight-line code for group g: sim_exec of pc, pc + 1, ... until an
 * instruction raises an event, `left` (> 0) have run, or the next would
 * be `stop` or past the function's end. Returns the pc of the last one
 * run (s: its outcome) and sets *ran to how many ran. */
uint32_t sim_exec_run(sim_cta *c, uint32_t pc, uint32_t stop, uint32_t left, const sim_group *g, sim_step *s,
                      uint32_t *ran);

/* Is an access of `size` bytes at addr misaligned? Accesses of a power of
 * two up to 32 bytes (a .v8.b32 vector) must be aligned to their size;
 * other sizes (a partial cp.async source, a 3-byte texel) are not
 * checked. */
bool sim_misaligned(uint64_t addr, uint32_t size);

/* The state space generic address addr names (PTX_SPACE_SHARED, _LOCAL,
 * _CONST, _PARAM by their windows, else _GLOBAL) and, in *off, its
 * address in that space. */
uint8_t sim_generic_space(uint64_t addr, uint64_t *off);
/* The space an access of `space` at *addr is logged in (sim_mem_access):
 * generic addresses resolved (*addr becomes the offset in their space),
 * shared::cta and ::cluster as shared, the entry's parameters as param. */
uint8_t sim_resolve_space(uint8_t space, uint64_t *addr);

/* Make room in c's access log for one more entry; false (after
 * recording a fault) when memory is short. */
bool sim_mem_log_grow(sim_cta *c, const sim_inst *in);

/* Append an access to c's log of the running instruction (record_mem);
 * space and addr as sim_mem_access has them. False after a fault. */
static inline bool sim_mem_log(sim_cta *c, const sim_inst *in, uint32_t t, uint8_t space, uint64_t addr,
                               uint32_t size, int kind)
{
    if (c->nmem_log == c->cap_mem_log && !sim_mem_log_grow(c, in))
        return false;
    c->mem_log[c->nmem_log++] = (sim_mem_access){addr, size, (uint16_t)sim_thread(c, t), (uint8_t)kind, space};
    return true;
}

/* Host pointer for a guest access of `size` bytes at addr in `space` by
 * thread t (kind 1 read, 2 write, 3 atomic), or NULL after recording a
 * fault. Logs the access when the CTA records them (record_mem). */
uint8_t *sim_mem(sim_cta *c, const sim_inst *in, uint32_t t, uint8_t space, uint64_t addr,
                 uint32_t size, int kind);

/* complete-tx of `bytes` on the mbarrier at addr in `space` for thread t
 * (st.async, red.async, bulk copies; ops_async.c): the transactions may
 * complete its phase. False after recording a fault. */
bool sim_mbarrier_complete_tx(sim_cta *c, const sim_inst *in, uint32_t t, uint8_t space, uint64_t addr,
                              uint64_t bytes);

/* Run n CTAs together to completion in functional mode through their
 * SIMT control (PDOM, or independent scheduling when c->its), a round of
 * warps of each CTA in turn: the CTAs of a cluster (often one
 * CTA), or every CTA of a cooperative grid (each its own cluster). False
 * on a fault, with *faulted the index of the CTA whose fault it is. Forms
 * the warps (and fills the lane-dependent special registers). */
bool sim_run_ctas(sim_cta **ctas, uint32_t n, uint64_t max_instructions, uint32_t *faulted);
/* Stop c with the instruction-limit fault after `used` warp instructions. */
void sim_limit_fault(sim_cta *c, uint64_t used);
/* The lanes PDOM warp w leaves out of a warp-synchronous instruction it
 * runs for `mask`: those that exited, and those it holds on its
 * reconvergence stack at code that only leaves the kernel (cta.c). */
uint32_t sim_pdom_absent(const sim_cta *c, const struct sim_warp *w, uint32_t mask);
/* Whether a thread resuming at pc of the kernel can only leave it (no
 * barrier, warp-synchronous instruction or call on any path to its end,
 * no loop): such a thread counts as exited for the warp-synchronous
 * instructions run meanwhile (simt_pdom.c). */
bool sim_exit_bound(const sim_cta *c, uint32_t pc);
/* Cut the CTA's threads into warps (cta.c). */
void sim_form_warps(sim_cta *c);

/* ---- block order (order.c) --------------------------------------------- */

/* The gate of a launch run on several host threads: groups of CTAs (a
 * cluster, or one CTA) are handed out in increasing order, and a group at
 * its first ordered point waits until every lower-numbered group has
 * finished (see order.c for why that makes results those of one host
 * thread). */
typedef struct sim_order {
    pthread_mutex_t lock;
    pthread_cond_t finished;  /* signalled when a group finishes and someone waits */
    uint64_t next;            /* the next group to hand out */
    uint64_t *running;        /* per worker slot: the group it runs, UINT64_MAX when none */
    uint64_t one_slot;        /* `running` when no memory could be had for more */
    uint32_t nslots, joined;  /* slots (the host threads to start: 1 when none could be had) */
    uint32_t waiting;         /* groups waiting at an ordered point */
    uint64_t fault_group;     /* the lowest group that failed, UINT64_MAX when none */
    sim_error fault_kind;
} sim_order;

/* A gate for `workers` host threads (sim_order_free releases it). */
void sim_order_init(sim_order *o, uint32_t workers);
void sim_order_free(sim_order *o);
/* A worker's slot in the gate (once per worker, before sim_order_take). */
uint32_t sim_order_join(sim_order *o);
/* Hand the next of `ngroups` groups to the worker in `slot` (*group);
 * false when none is left. */
bool sim_order_take(sim_order *o, uint32_t slot, uint64_t ngroups, uint64_t *group);
/* The worker in `slot` finished its group (failed: with this fault),
 * after reporting it: groups waiting for it may go on. */
void sim_order_finish(sim_order *o, uint32_t slot, bool failed, sim_error kind);
/* sim_exec's hook before c's first ordered point: wait until every group
 * below c's has finished. False (after recording a fault) when one of
 * them failed: c's results no longer matter and it stops. */
bool sim_order_pass(sim_cta *c, const sim_inst *in);

/* ---- launches (launch.c) ---------------------------------------------- */

/* A launch in progress (launch.c): what the host threads running its
 * CTAs share. sim_launch runs every CTA itself; a caller that schedules
 * CTAs on its own (the timing model) opens a grid, makes and begins each
 * CTA through it, reports and frees them, and closes it for the launch's
 * statistics and first error, exactly as sim_launch does. */
typedef struct sim_grid {
    sim_device *dev;
    const sim_program *prog;
    const sim_func *fn;
    const char *name;
    const sim_launch_config *cfg;
    const uint8_t *params;
    uint32_t param_bytes, shared_bytes, stack_bytes;
    uint64_t nctas;
    sim_dim3 cluster;            /* blocks per cluster */
    uint64_t workspace;          /* grid synchronization words (cooperative launches) or 0 */
    sim_order order;             /* hands out the groups of CTAs in order (order.c) */
    bool ordered;                /* several host threads: groups wait at their first ordered point */
    atomic_uint_fast64_t used;   /* warp instructions so far, for the limit */
    atomic_bool stop;
    pthread_mutex_t lock;        /* guards the fields below */
    uint64_t fault_cta;          /* lowest faulting CTA, UINT64_MAX when none */
    sim_error fault_kind;
    bool setup_failed;           /* the fault is setup_failed's */
    char fault[512];
    uint64_t warp_instructions, thread_instructions, divergent_branches, ctas;
    struct cta_text { uint64_t cta; char *text; } *texts; /* printf output per CTA */
    uint32_t ntexts, cap_texts;
} sim_grid;

/* Check and prepare the launch of kernel `name` as sim_launch does (the
 * configuration, parameters, resources, the device heap, the grid
 * synchronization workspace) into g: 0, or -1 with err and *kind set to
 * the error (sim_stats.error). Closed with sim_grid_close. */
int sim_grid_open(sim_grid *g, sim_device *d, sim_program *p, const char *name, const sim_launch_config *cfg,
                  const void *params, uint32_t param_bytes, sim_error *kind, char *err, size_t errlen);
/* Set up CTA state c for g (buffers sized for its CTAs); false with c
 * faulted when the host has not the memory. sim_grid_cta_free releases it
 * in any case. The caller sets c->cluster (a cluster of one CTA at least). */
bool sim_grid_cta_alloc(const sim_grid *g, sim_cta *c);
/* Make c CTA number id (x + y * grid.x + ...): zeroed registers, shared
 * memory and kernel frame, special registers, counters. */
void sim_grid_cta_begin(const sim_grid *g, sim_cta *c, uint64_t id);
/* Add what CTA number id did (counts, printf text, its fault) to g. */
void sim_grid_cta_report(sim_grid *g, sim_cta *c, uint64_t id, bool faulted);
/* Release c's buffers (merging its profile into the launch's). */
void sim_grid_cta_free(sim_grid *g, sim_cta *c);
/* Finish the launch: print the CTAs' printf output in CTA order, fill
 * stats (may be NULL); 0, or -1 with the first error in err. */
int sim_grid_close(sim_grid *g, sim_stats *stats, char *err, size_t errlen);

/* ---- texture unit (texture.c) ------------------------------------------ */

/* The object behind a handle, if it is live and of this kind. */
const sim_image *sim_image_of(const sim_device *d, uint64_t handle, uint8_t kind);
/* Whether texture reads of im give floats. */
bool sim_image_float(const sim_image *im);
/* Global address of a texel. */
uint64_t sim_image_texel_addr(const sim_image *im, unsigned level, uint32_t layer, uint32_t x, uint32_t y,
                              uint32_t z);

/* One texture lookup: coordinates (floats, or integers when `integer`),
 * how many, the layer of layered geometries, a cubemap direction, the
 * level of detail. */
typedef struct sim_tex_query {
    double coord[3];
    unsigned ndims;
    int64_t layer;
    bool integer, cube;
    double lod;
} sim_tex_query;

/* Sample im for thread t into v (channels x, y, z, w); false after a fault
 * (reported against instruction in). */
bool sim_tex_sample(sim_cta *c, const sim_inst *in, uint32_t t, const sim_image *im, const sim_tex_query *q,
                    double v[4]);
/* Sample float coordinates u at level of detail lod (mipmap filtering). */
bool sim_tex_sample_levels(sim_cta *c, const sim_inst *in, uint32_t t, const sim_image *im, uint32_t layer,
                           const double *u, unsigned ndims, double lod, double v[4]);
/* tld4: channel comp of the four texels bilinear filtering at u would
 * use, in the order (i, j+1), (i+1, j+1), (i+1, j), (i, j). */
bool sim_tex_gather(sim_cta *c, const sim_inst *in, uint32_t t, const sim_image *im, const double u[2],
                    unsigned comp, double v[4]);

/* Decoding one instruction: the pickers read the PTX instruction through
 * this and fill `in` (operands with sim_dec_*, selectors), returning the
 * handler, or NULL when simtlab cannot execute the instruction yet. */
typedef struct sim_decoder {
    sim_program *p;
    const ptx_module *m;
    const ptx_function *f;
    const ptx_instr *pi;
    const ptx_form *form;
    uint32_t pc;
    sim_inst *in;
} sim_decoder;

/* Operand k of the instruction into destination slot `slot` (a register or
 * `_`; a vector {a,b,..} fills slots slot..): false if it is not one. */
bool sim_dec_dst(sim_decoder *d, unsigned k, unsigned slot);
/* Destination operand o itself (a register without component, or `_`)
 * into slot: for a copy the picker has rewritten (video selectors). */
bool sim_dec_dst_operand(sim_decoder *d, const ptx_operand *o, unsigned slot);
/* Operand k into source slot `slot` (register, special register,
 * immediate, symbol address, !p; a vector fills slots slot..). */
bool sim_dec_src(sim_decoder *d, unsigned k, unsigned slot);
/* Operand k as a memory operand [base+offset] into in->addr. */
bool sim_dec_addr(sim_decoder *d, unsigned k);
/* Operand k, a second memory operand in state space `space`, appended to
 * the program's address pool: its index, or PTX_NONE if it is not one. */
uint32_t sim_dec_addr_pooled(sim_decoder *d, unsigned k, uint8_t space);
/* Scalar source operand o into s (anywhere: for pooled sources). */
bool sim_dec_value(const sim_decoder *d, const ptx_operand *o, sim_src *s);
/* Number of operands / the operand k. */
static inline unsigned sim_dec_nops(const sim_decoder *d) { return d->pi->noperands; }
const ptx_operand *sim_dec_op(const sim_decoder *d, unsigned k);
/* The form's modifier of category cat (PTX_MOD_NONE when absent). */
static inline ptx_modifier sim_dec_mod(const sim_decoder *d, ptx_modcat cat)
{
    return (ptx_modifier)d->form->mod[cat];
}

/* Is the decoded instruction an ordered point (order.c)? */
bool sim_order_dependent(const sim_decoder *d);

sim_fn sim_pick_int(sim_decoder *d);
sim_fn sim_pick_float(sim_decoder *d);
sim_fn sim_pick_half(sim_decoder *d);
sim_fn sim_pick_async(sim_decoder *d);
sim_fn sim_pick_mma(sim_decoder *d);
sim_fn sim_pick_cmp(sim_decoder *d);
sim_fn sim_pick_cvt(sim_decoder *d);
sim_fn sim_pick_mem(sim_decoder *d);
sim_fn sim_pick_ctrl(sim_decoder *d);
sim_fn sim_pick_warp(sim_decoder *d);
sim_fn sim_pick_tex(sim_decoder *d);
sim_fn sim_pick_cvt_narrow(sim_decoder *d);
sim_fn sim_pick_cvt_half(sim_decoder *d);
sim_fn sim_pick_video(sim_decoder *d);
sim_fn sim_pick_int_x2(sim_decoder *d);
sim_fn sim_pick_simtlab(sim_decoder *d); /* simtlab's extensions of PTX (ops_simtlab.c) */

/* calls.c: copy the arguments of call instruction `in` into the new frame
 * f of the callee for `lanes` of warp w (before the frame is pushed; the
 * caller is the innermost frame or the kernel). False after a fault. */
bool sim_call_args(sim_cta *c, const sim_warp *w, const sim_inst *in, const sim_frame *f, uint32_t lanes);
/* Copy the results of the finished frame f (already popped) to its
 * caller's result slots or registers for `lanes`. */
void sim_call_results(sim_cta *c, const sim_warp *w, const sim_inst *in, const sim_frame *f, uint32_t lanes);

/* A call of a function without a body that the runtime provides:
 * vprintf, malloc, free, __assertfail (builtins.c); others fault. */
void sim_builtin_call(sim_cta *c, const sim_inst *in, const sim_lanes *L, sim_step *s);

/* The handler for instructions that cannot run: faults with their text. */
void sim_op_unsupported(sim_cta *c, const sim_inst *in, const sim_group *g, const sim_lanes *L,
                        sim_step *s);

#endif
