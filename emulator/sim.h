/* sim.h — the functional emulator's public C API.
 *
 * A device owns guest memory (global allocations, module variables); a
 * program is a parsed PTX module decoded for execution on one device; a
 * launch runs one kernel over a grid and reports statistics or the first
 * error. Every function that can fail returns 0 on success and -1 with a
 * one-line message in the caller's err buffer; guest bugs (invalid
 * addresses, traps, barrier deadlocks) are launch errors, never host
 * crashes. Nothing here keeps global state: several devices may coexist.
 *
 * Guest addresses (64-bit, what cvta produces):
 *   global allocations and module .global variables   SIM_GLOBAL_BASE and up
 *   shared memory of the running CTA (generic window)  SIM_SHARED_WINDOW + offset
 *   local memory of the running thread                 SIM_LOCAL_WINDOW + offset
 *   constant bank (module .const variables)            SIM_CONST_WINDOW + offset
 *   kernel parameters                                  SIM_PARAM_WINDOW + offset
 *   functions (what `mov.u64 %rd, func` gives)         SIM_CODE_WINDOW + 16 * index
 * Address 0 and everything outside these ranges is invalid.
 *
 * The global window [SIM_GLOBAL_BASE, + 8 TiB, or less with
 * sim_device_set_global_window) holds every global allocation, device
 * memory and mapped host memory alike. As the CUDA driver does, they are
 * carved from mapped regions of 2 MiB granules (small ones share a
 * region, a large one spans several), 256-byte aligned with 4 KiB free on
 * both sides; freed ranges are reused (first fit), and a region is
 * unmapped when its last allocation is freed. Each region's guest range
 * is reserved in the host address space at that very address, so host
 * memory never lies at a guest address: a kernel reaches only its
 * device's regions. Device memory has its storage elsewhere (a host
 * dereference of a device address crashes, as on a GPU); mapped memory is
 * host memory at its guest address. An access inside a mapped region but
 * outside every live allocation proceeds, as on a GPU, with a warning on
 * stderr once per PTX line; with memory checking on it is an error, as
 * under compute-sanitizer. An access outside every region is an error.
 * Host memory the caller registers (sim_register_host) is the one global
 * allocation outside the window: the table names it at its own host
 * address, so a kernel reaches that memory and no other host memory. */
#ifndef SIMTLAB_SIM_H
#define SIMTLAB_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ir/ir.h"

#define SIM_GLOBAL_BASE 0x0000700000000000ull
#define SIM_SHARED_WINDOW 0x0000600000000000ull
#define SIM_LOCAL_WINDOW 0x0000500000000000ull
#define SIM_CONST_WINDOW 0x0000400000000000ull
#define SIM_PARAM_WINDOW 0x0000300000000000ull
#define SIM_CODE_WINDOW 0x0000200000000000ull /* function addresses: + 16 * index */
#define SIM_WINDOW_SIZE 0x0000100000000000ull
/* Global allocations are placed in the lower half of the global window
 * (at most: sim_device_set_global_window): the upper half, up to the top
 * of a 47-bit user address space, is where Linux puts the host's own
 * mappings and stack. */
#define SIM_GLOBAL_WINDOW_MAX (SIM_WINDOW_SIZE / 2)

typedef struct sim_device sim_device;
typedef struct sim_program sim_program;

typedef struct sim_dim3 {
    uint32_t x, y, z;
} sim_dim3;

/* ---- device and memory ------------------------------------------------ */

sim_device *sim_device_new(void);
void sim_device_free(sim_device *d);

/* The global window's size in bytes (a multiple of 2 MiB, at most
 * SIM_GLOBAL_WINDOW_MAX, the default): tests shrink it to show reuse and a full
 * window. Only while no allocation is live. */
int sim_device_set_global_window(sim_device *d, uint64_t bytes, char *err, size_t errlen);
/* Memory checking (off by default): every global access outside a live
 * allocation is an error (SIM_ERR_ADDRESS), also inside a mapped region.
 * Set it between launches. */
void sim_device_set_memcheck(sim_device *d, bool on);

/* Allocate size bytes of zeroed global memory (256-byte aligned; freed
 * ranges are reused); label names it in error reports. Fails with
 * "device address window full: N bytes live of M" when no range fits, or
 * when the host has no memory or address space left. */
int sim_malloc(sim_device *d, uint64_t size, const char *label, uint64_t *addr, char *err,
               size_t errlen);
/* Allocate size bytes of zeroed memory that host and kernels share at the
 * same address (managed and mapped host memory): *host is both the host
 * pointer and the guest address, placed in the global window like
 * sim_malloc's (never within 2 MiB of device memory). Freed with
 * sim_free. */
int sim_malloc_mapped(sim_device *d, uint64_t size, const char *label, void **host, char *err,
                      size_t errlen);
/* Free an allocation by its address (not registered host memory). */
int sim_free(sim_device *d, uint64_t addr, char *err, size_t errlen);
/* Enter the caller's host memory [host, host + size) in the allocation
 * table at guest address == host address (cudaHostRegister under unified
 * addressing): kernels reach it like any global allocation, atomics
 * included, and only through the table. The storage is borrowed: neither
 * sim_free nor sim_device_free releases it, and it must stay valid until
 * sim_unregister_host (or the device is freed). With read_only a kernel's
 * write or atomic there is an invalid-address fault (SIM_ERR_ADDRESS), as
 * a GPU's write to memory mapped read-only is; host copies still write.
 * Refused with a message when the range is empty, runs past the address
 * space, is not all mapped in the process (readable, and writable unless
 * read_only), overlaps a live allocation (registered memory included) or lies
 * in the device's own address windows (the global window, or the part
 * of another space's window its addresses take). */
int sim_register_host(sim_device *d, void *host, uint64_t size, bool read_only, const char *label, char *err,
                      size_t errlen);
/* Take registered host memory out of the table by its start (the memory
 * itself is left alone); later kernel accesses there fault. */
int sim_unregister_host(sim_device *d, void *host, char *err, size_t errlen);

/* The most local memory (kernel frame and call stack) a thread may have:
 * 512 KiB, "Maximum amount of local memory per thread" for every compute
 * capability in the CUDA C++ Programming Guide's table of technical
 * specifications per compute capability. A launch of a kernel whose frame
 * is larger fails with SIM_ERR_OUT_OF_RESOURCES. */
#define SIM_MAX_LOCAL_PER_THREAD (512u * 1024u)

/* The default size of the device heap of malloc/free in kernels (CUDA's
 * cudaLimitMallocHeapSize default, 8 MiB). */
#define SIM_DEFAULT_HEAP_BYTES (8ull << 20)

/* Set the size of the device heap that in-kernel malloc carves. The heap
 * is made at the first launch of a program that calls malloc; after that
 * its size can no longer change and this fails (as CUDA refuses
 * cudaLimitMallocHeapSize then). */
int sim_heap_set_size(sim_device *d, uint64_t bytes, char *err, size_t errlen);
/* The size of the device heap: the one made, else the one it will have. */
uint64_t sim_heap_get_size(const sim_device *d);
/* Host storage of the n bytes at guest address addr, or NULL unless they
 * lie in one live allocation. Valid until that allocation is freed. */
void *sim_host_pointer(sim_device *d, uint64_t addr, uint64_t n);
/* Bytes of the live allocation that starts at addr (0: none starts there). */
uint64_t sim_allocation_size(sim_device *d, uint64_t addr);
/* Bytes of device memory in use: the live allocations that are not mapped
 * host memory (cudaMalloc, module variables, the device heap). */
uint64_t sim_device_bytes_in_use(sim_device *d);
/* Does addr lie in the guest address space this device holds, outside
 * its mapped (host-shared) regions: device memory, live or freed? Such
 * addresses have no host storage behind them. Host side, between
 * allocations. */
bool sim_device_range(const sim_device *d, uint64_t addr);
/* Copy between host memory and global memory; the whole range must lie in
 * one live allocation. */
int sim_memcpy_to_device(sim_device *d, uint64_t dst, const void *src, uint64_t n, char *err,
                         size_t errlen);
int sim_memcpy_from_device(sim_device *d, void *dst, uint64_t src, uint64_t n, char *err,
                           size_t errlen);

/* ---- textures and surfaces -------------------------------------------- */

/* Address modes of texture coordinates (wrap and mirror need normalized
 * coordinates; with unnormalized ones they act as clamp, as on GPUs). */
typedef enum sim_address_mode {
    SIM_ADDRESS_WRAP,
    SIM_ADDRESS_CLAMP,
    SIM_ADDRESS_MIRROR,
    SIM_ADDRESS_BORDER
} sim_address_mode;

/* An image in global memory and, for textures, how it is sampled. Texels
 * are stored x fastest, then y, then z, then layer (a cubemap's faces are
 * layers: 6 per cubemap layer); mipmap level l (of size max(1, dim >> l))
 * follows level l - 1, packed. */
typedef struct sim_texture_desc {
    uint64_t data;           /* global address of texel (0,0,0) of level 0 */
    uint64_t pitch;          /* bytes from one row to the next in level 0; 0: packed */
    uint32_t width, height, depth; /* texels; 0 height or depth means 1 */
    uint32_t layers;         /* layered images: layers (cubemaps: cubes); 0: not layered */
    bool cubemap;            /* faces of width x width texels, height must equal width */
    bool linear_memory;      /* a 1D buffer (tex1Dfetch): integer coordinates only,
                                fetches outside it read zero */
    uint32_t levels;         /* mipmap levels; 0 means 1 */
    uint8_t channels;        /* 1, 2 or 4 */
    uint8_t channel_type;    /* ptx_type: u8 s8 u16 s16 u32 s32 f16 f32 */
    /* sampling (textures only) */
    uint8_t address[3];      /* sim_address_mode per dimension */
    bool normalized_coords;  /* float coordinates in [0, 1) span the image */
    bool linear_filter;      /* bilinear / trilinear filtering (float results) */
    bool mip_linear;         /* blend the two nearest mipmap levels */
    bool read_normalized;    /* 8- and 16-bit integer channels read as floats in [0,1] / [-1,1] */
    float border[4];         /* the border color (SIM_ADDRESS_BORDER) */
} sim_texture_desc;

/* Create a texture object (what tex and tld4 take) or a surface object
 * (suld, sust: x in bytes, no sampling) over desc; its 64-bit handle is
 * what the kernel parameter receives. The image must lie in one live
 * allocation. Objects live until destroyed or the device is freed; create
 * and destroy them between launches. */
int sim_texture_create(sim_device *d, const sim_texture_desc *desc, uint64_t *handle, char *err,
                       size_t errlen);
int sim_surface_create(sim_device *d, const sim_texture_desc *desc, uint64_t *handle, char *err,
                       size_t errlen);
int sim_object_destroy(sim_device *d, uint64_t handle, char *err, size_t errlen);

/* ---- programs --------------------------------------------------------- */

/* Decode module m for execution on d: lays out shared and local variables,
 * allocates and initializes its .global and .const variables. m must stay
 * alive as long as the program. */
sim_program *sim_program_new(sim_device *d, const ptx_module *m, char *err, size_t errlen);
void sim_program_free(sim_program *p);

/* Give every function the likely-convergence points of the analyzer's
 * static rule (analysis/lpc.h), where annotations did not set them: what
 * the PDOM control with likely-convergence points (sim_simt_pdom_lpc)
 * reads. 0 (it cannot fail today). */
int sim_program_static_lpc(sim_program *p);

struct sim_profile;
/* Give every function the profile `prof` saw run (some instruction of it
 * issued) the likely-convergence points of the analyzer's profile rule
 * (analysis/lpc.h), from the profile's per-CFG-edge thread counts,
 * replacing what it had (the static rule's, or annotations'); functions
 * the profile did not see keep theirs. prof may come from another program
 * of the same module, or of a module with the same functions and CFGs (a
 * profiling run on a device of its own); otherwise it is refused, changing
 * nothing. Returns the number of branches given a likely-convergence
 * point, or -1 with err. */
int sim_program_profile_lpc(sim_program *p, const struct sim_profile *prof, char *err, size_t errlen);

/* Reconverge branches where annotations a (the analyzer's, as
 * `simtlab analyze --json` writes them, perhaps edited) say instead of at
 * the immediate post-dominators computed from the module: a researcher's
 * way to move a reconvergence point. Refused, changing nothing, when a
 * names a function the module lacks, a function with another number of
 * instructions, or a branch that is not one. */
struct ptx_annotations;
/* Likely-convergence points are taken from the annotations too (every
 * branch they list: its LPC, or none). */
int sim_program_use_annotations(sim_program *p, const struct ptx_annotations *a, char *err, size_t errlen);

/* Give every function the analyzer's per-branch facts the divergence
 * mechanisms read (sim_func.branch_facts: P/D class, CTA-uniformity),
 * where not given yet. 0 (it cannot fail today). */
int sim_program_branch_facts(sim_program *p);

/* One kernel parameter: its PTX type (the element type for arrays), byte
 * size, alignment and offset in the parameter buffer. */
typedef struct sim_param_info {
    const char *name;
    uint8_t type;    /* ptx_type */
    bool is_pointer; /* declared .ptr, or a .u64/.b64 that a buffer argument may fill */
    uint32_t size, align, offset;
} sim_param_info;

/* The parameters of kernel `name`; NULL (and err) when there is no such
 * .entry. The array belongs to the program. */
const sim_param_info *sim_kernel_params(sim_program *p, const char *name, uint32_t *nparams,
                                        uint32_t *param_bytes, char *err, size_t errlen);

/* A module variable (.global or .const): its guest address (.const ones
 * in the constant window), the host storage of its bytes, its size. */
typedef struct sim_symbol_info {
    uint64_t addr;
    void *host;
    uint64_t size;
    bool constant; /* .const: kernels cannot write it */
    bool managed;  /* .attribute(.managed): host == (void *)addr */
} sim_symbol_info;

/* Look up module variable `name`; -1 (and err) when the program has no
 * such .global or .const variable. */
int sim_program_symbol(sim_program *p, const char *name, sim_symbol_info *out, char *err,
                       size_t errlen);

/* What a kernel needs from the machine (cudaFuncGetAttributes). */
typedef struct sim_kernel_attrs {
    uint32_t registers;     /* PTX virtual registers of the kernel (ptxas allocates fewer) */
    uint32_t shared_bytes;  /* static shared memory it and its callees name */
    uint32_t local_bytes;   /* its own frame on the per-thread stack */
    uint32_t const_bytes;   /* the module's constant bank */
    uint32_t param_bytes;
    uint32_t max_threads;   /* from .maxntid / .reqntid, else 1024 */
    uint32_t ptx_version;   /* 10 * major + minor of the module's .version */
    uint32_t target;        /* SM number of the module's .target */
} sim_kernel_attrs;

int sim_kernel_attributes(sim_program *p, const char *name, sim_kernel_attrs *out, char *err,
                          size_t errlen);

/* ---- profiles ---------------------------------------------------------- */

/* Counts gathered over launches given the profile (sim_launch_config):
 * per instruction and per CFG edge of every function of the program. */
typedef struct sim_profile sim_profile;

typedef struct sim_instr_profile {
    uint64_t warp_execs;   /* times a warp (or thread group) issued it */
    uint64_t thread_execs; /* active lanes summed over those issues */
    uint64_t divergent;    /* branches: issues whose lanes went different ways */
    /* divergent issues classified by the dynamic taint of the predicate in
     * the lanes that split (Rhu, Sec. 4.4.1): loaded data (D), programmatic
     * values only (P: thread and block ids, parameters), or neither */
    uint64_t div_data, div_prog, div_none;
} sim_instr_profile;

sim_profile *sim_profile_new(const sim_program *p);
void sim_profile_free(sim_profile *prof);
/* Counts of function fi (a module function index), one per instruction. */
const sim_instr_profile *sim_profile_instrs(const sim_profile *prof, uint32_t fi, uint32_t *n);
/* Threads that traversed each CFG edge of function fi, in the order of
 * ptx_function.succs (what ptx_lpc_profile takes). */
const uint64_t *sim_profile_edges(const sim_profile *prof, uint32_t fi, uint32_t *n);

/* ---- access traces ----------------------------------------------------- */

typedef enum sim_access_kind { SIM_ACCESS_READ, SIM_ACCESS_WRITE, SIM_ACCESS_ATOMIC } sim_access_kind;

/* One memory instruction executed by some lanes of a warp: ld, ldu,
 * ld.global.nc (reads), st (writes), atom and red (atomics), in every
 * space; a generic access reaches global memory when its address lies in
 * [SIM_GLOBAL_BASE, SIM_GLOBAL_BASE + SIM_WINDOW_SIZE). */
typedef struct sim_access {
    uint32_t cta;            /* linear block index: x + y * grid.x + z * grid.x * grid.y */
    uint32_t function, pc;   /* module function index and instruction index */
    uint8_t kind;            /* sim_access_kind */
    uint8_t space;           /* ptx_space as written (PTX_SPACE_NONE: generic) */
    uint32_t elem_bytes, vec;/* vec elements of elem_bytes each, from each address */
    uint32_t n;              /* lanes that execute it (their guard holds) */
    const uint32_t *thread;  /* per lane: the CTA-linear thread index */
    const uint64_t *addr;    /* per lane: the address */
} sim_access;

/* Called before each such instruction runs, from the host thread running
 * that block; calls for one block never overlap (a collector may keep
 * per-block state without locks). */
typedef void (*sim_trace_fn)(void *ctx, const sim_access *a);

/* ---- launches --------------------------------------------------------- */

typedef struct sim_launch_config {
    sim_dim3 grid, block;
    /* blocks per thread block cluster (0: the kernel's .reqnctapercluster,
     * else 1); a cluster's blocks run together and share the cluster
     * barrier and each other's shared memory (mapa) */
    sim_dim3 cluster;
    uint32_t dynamic_shared;   /* bytes of extern .shared memory */
    uint32_t host_threads;     /* CTAs run on this many host threads (0 or 1: one) */
    uint64_t max_instructions; /* warp instructions per launch before it is stopped; 0: none */
    /* 0: warps of 32 consecutive threads. Otherwise each CTA's threads are
     * shuffled (by this seed and the CTA number) before being cut into
     * warps: the thread-group execution a compacting timing model uses.
     * Programs without warp-level instructions give identical results. */
    uint64_t warp_permutation_seed;
    /* Bytes of each thread's stack for the frames of called functions
     * (.local variables, parameters); 0: 8 KiB. Deeper calls fault with
     * "stack overflow". The kernel's frame and this together are capped at
     * SIM_MAX_LOCAL_PER_THREAD. */
    uint32_t stack_bytes;
    /* Where device printf output goes when the launch ends (CTA by CTA, in
     * order); NULL: stdout. */
    FILE *printf_out;
    /* Counts to add this launch's execution to; NULL: none (faster). */
    sim_profile *profile;
    /* Independent thread scheduling (Volta and later): a program counter
     * per thread, so intra-warp locks and __syncwarp idioms complete.
     * false: per-warp reconvergence stacks (PDOM), barriers counting warps. */
    bool independent_scheduling;
    /* All blocks run together, warps of each in turn (cudaLaunchCooperativeKernel):
     * grid-wide synchronization (cooperative groups' grid.sync) works,
     * through a workspace that %envreg1/%envreg2 point to. Without it they
     * read 0 and grid.sync traps, as on a GPU. At most 65536 blocks, no
     * clusters, PDOM scheduling. */
    bool cooperative;
    /* Memory accesses to report (sim_access); NULL: none (faster). */
    sim_trace_fn trace;
    void *trace_ctx;
} sim_launch_config;

/* What stopped a launch (sim_stats.error), so that callers can map it to
 * their own error codes; the message says the rest. */
typedef enum sim_error {
    SIM_OK = 0,
    SIM_ERR_CONFIG,      /* the launch configuration or parameters are invalid */
    SIM_ERR_RESOURCES,   /* more shared memory (or other resources) than a CTA may have */
    SIM_ERR_ADDRESS,     /* invalid or out-of-bounds memory access, stack overflow */
    SIM_ERR_MISALIGNED,  /* misaligned memory access */
    SIM_ERR_TRAP,        /* trap or brkpt */
    SIM_ERR_ASSERT,      /* a device-side assert failed */
    SIM_ERR_DEADLOCK,    /* a barrier that can never complete */
    SIM_ERR_LIMIT,       /* the instruction limit was reached */
    SIM_ERR_INVALID_PC,  /* a bad indirect call or branch target */
    SIM_ERR_ILLEGAL,     /* an instruction used illegally (bad member mask, operand) */
    SIM_ERR_UNSUPPORTED, /* an instruction or feature simtlab does not emulate */
    /* the memory a launch needs (per-thread stacks, registers of the CTAs
     * or of a call) could not be allocated; the device stays usable */
    SIM_ERR_OUT_OF_MEMORY,
    /* the kernel needs more per-thread local memory than a GPU has
     * (SIM_MAX_LOCAL_PER_THREAD) */
    SIM_ERR_OUT_OF_RESOURCES
} sim_error;

typedef struct sim_stats {
    sim_error error;              /* SIM_OK, or what stopped the launch */
    uint64_t warp_instructions;   /* warp-level instructions issued */
    uint64_t thread_instructions; /* sum of active lanes over them */
    uint64_t divergent_branches;  /* conditional branches that split a warp */
    uint64_t ctas, threads;
    double seconds;               /* host wall time of the launch */
} sim_stats;

/* Run kernel `name` with the parameter buffer params (param_bytes long,
 * laid out as sim_kernel_params says). Every thread starts with its
 * registers (and the carry flag) reading 0, shared memory and its local
 * frame zeroed: a register read before any write gives 0, the same on
 * every run and host thread count (the ISA leaves it undefined). Returns 0, or -1 with the first
 * error (invalid address, unsupported instruction, deadlock, trap, bad
 * configuration) in err. stats may be NULL. */
int sim_launch(sim_device *d, sim_program *p, const char *name, const sim_launch_config *cfg,
               const void *params, uint32_t param_bytes, sim_stats *stats, char *err,
               size_t errlen);

#endif
