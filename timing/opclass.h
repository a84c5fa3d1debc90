/* opclass.h — what the SM pipeline needs to know about each PTX
 * instruction, decided once per function before a simulation runs: the
 * functional unit kind that executes it, its latency class and hence its
 * latency and initiation interval under a configuration, its memory space,
 * what kind of instruction it is for the core (load, store, atomic, memory
 * barrier, CTA barrier, branch, call, return, exit), and the registers it
 * reads and writes (for the scoreboard and the operand collector).
 *
 * The rules follow GPGPU-Sim's ptx_instruction::set_opcode_and_latency and
 * the warp scheduler's choice of pipeline (shader.cc, scheduler_unit::cycle):
 *   - add, sub, addc, subc (and add.cc, sub.cc): class ADD; min, max: MAX;
 *     mul: MUL; mad, madc, fma: MAD — each in the f32 table on the SP unit,
 *     the f64 table on the DP unit, and otherwise (every integer type) the
 *     int table on the INT unit;
 *   - mul24, mad24: the int MUL / MAD latency and initiation plus one;
 *   - div, rem: the SFU unit for every type, with the DIV latency of the
 *     type's table (f32: fp, f64: dp, integers: int);
 *   - sqrt, sin, cos, ex2, lg2, rsqrt, rcp: the SFU unit, the sfu latency;
 *   - wmma.mma: the TENSOR unit, the tensor latency;
 *   - shfl: the int SHFL latency, dispatched like any ALU instruction;
 *   - ld, ldu, st, atom, tex, wmma.load/store, membar: the LD/ST (MEM) unit;
 *   - everything else: latency 1, initiation 1 (GPGPU-Sim's default
 *     ALU_OP), dispatched to the INT unit when the configuration has INT
 *     units and to SP otherwise (as GPGPU-Sim sends every non-SP_OP ALU
 *     instruction); the same holds for branches, barriers, calls, returns;
 *   - DP instructions go to the SFU unit when there are no DP units
 *     (GPGPU-Sim: "If the DP units = 0 (like in Fermi archi), then execute
 *     DP inst on SFU unit"); INT instructions go to SP without INT units.
 *
 * Where simtlab differs, and why:
 *   - half-precision arithmetic (f16, f16x2, bf16, bf16x2: add, mul, fma,
 *     min, max ...) uses the fp table on the SP unit; GPGPU-Sim's type
 *     switch lets these fall into its integer default, but GPUs run them on
 *     the FP32/FMA pipes;
 *   - opcodes GPGPU-Sim does not know are classified by what they do: tanh
 *     is an SFU (MUFU) operation; mma, wgmma.mma_async and tcgen05.mma are
 *     TENSOR; ldmatrix, stmatrix, cp.async*, the bulk copies, mbarrier and
 *     surface operations, multimem, prefetch, fence and the tcgen05 memory
 *     operations go to MEM; the rest take the default (latency 1);
 *   - a TENSOR instruction on a configuration without tensor units goes to
 *     the SFU unit rather than waiting forever (GPGPU-Sim would never issue
 *     it);
 *   - simtlab's own instructions (extensions of PTX; ir/ext_opcodes.def):
 *     simtlab.cond_acc is a store on the MEM unit (its space the form's:
 *     .shared, .global, or generic), simtlab.tree_traverse the default
 *     (latency 1, INT unit).
 * Every opcode of ir/opcodes.def and ir/ext_opcodes.def has an explicit rule
 * (tm_opclass_opcode_known); one that lacks it (a newly added opcode) gets
 * the default class with TM_IC_DEFAULT_RULE set.
 *
 * Registers come from analysis/defuse.h: register ids of the function,
 * vector components as separate registers, and the carry flag of add.cc
 * and friends as the pseudo-register f->nregs (so register numbers are
 * below tm_opclass_fn.nregs = f->nregs + 1).
 *   src:  everything a RAW hazard must wait for: the guard predicate, then
 *         every register operand read (address bases included), then the
 *         carry flag when read. GPGPU-Sim's checkCollision likewise checks
 *         the predicate, the inputs and the address registers.
 *   dst:  every register written, the carry flag included.
 *   read: the operand registers the operand collector reads from the
 *         register banks: src without the guard (GPGPU-Sim's collector reads
 *         arch_reg.src, which holds no predicate guard) and without the
 *         carry flag (a condition code, not a register file entry).
 * A guarded instruction's destination is not among its reads (defuse.h
 * lists it as read because the old value may survive; the hardware does
 * not read it: lanes whose predicate is false simply do not write), but the
 * scoreboard still checks it as a destination (WAW).
 *
 * Use: tm_opclass_function() once per function (and configuration), then
 * index fn.ic[pc] on every issue; nothing is computed per cycle. */
#ifndef SIMTLAB_TIMING_OPCLASS_H
#define SIMTLAB_TIMING_OPCLASS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir/ir.h"
#include "timing/config.h"

/* Latency classes: the five (six for int) entries of GPGPU-Sim's latency
 * lists, then the single sfu and tensor values, then the fixed
 * one-cycle default. */
typedef enum tm_latclass {
    TM_LC_ADD = TM_LAT_ADD,
    TM_LC_MAX = TM_LAT_MAX,
    TM_LC_MUL = TM_LAT_MUL,
    TM_LC_MAD = TM_LAT_MAD,
    TM_LC_DIV = TM_LAT_DIV,
    TM_LC_SHFL = TM_LAT_SHFL,
    TM_LC_SFU = TM_LAT_CLASSES, /* -ptx_opcode_latency_sfu */
    TM_LC_TENSOR,               /* -ptx_opcode_latency_tesnor */
    TM_LC_ONE,                  /* latency 1, initiation 1 */
    TM_LC_COUNT
} tm_latclass;

/* Which of the config's latency tables a class was read from. */
typedef enum tm_lattable {
    TM_LT_NONE,   /* TM_LC_ONE */
    TM_LT_INT,    /* lat_int */
    TM_LT_FP,     /* lat_fp */
    TM_LT_DP,     /* lat_dp */
    TM_LT_SFU,    /* lat_sfu / init_sfu */
    TM_LT_TENSOR  /* lat_tensor / init_tensor */
} tm_lattable;

/* The state space a memory instruction accesses (TM_MEM_NONE for the
 * others). Generic addresses are resolved by the core at run time. */
typedef enum tm_mem_space {
    TM_MEM_NONE, TM_MEM_GLOBAL, TM_MEM_LOCAL, TM_MEM_SHARED, TM_MEM_CONST,
    TM_MEM_PARAM, TM_MEM_TEX, TM_MEM_GENERIC, TM_MEM_SPACES
} tm_mem_space;

enum tm_ic_flags {
    TM_IC_LOAD = 1u << 0,         /* reads memory into registers (ld, tex, ldmatrix, ...) */
    TM_IC_STORE = 1u << 1,        /* writes memory (st, wmma.store, ...) */
    TM_IC_ATOMIC = 1u << 2,       /* read-modify-write (atom, red, mbarrier.arrive, ...) */
    TM_IC_MEMBAR = 1u << 3,       /* waits for the warp's outstanding memory (membar, fence, wait_group) */
    TM_IC_BARRIER = 1u << 4,      /* CTA/cluster barrier (bar, barrier, barrier.cluster) */
    TM_IC_BRANCH = 1u << 5,       /* bra, brx.idx */
    TM_IC_CALL = 1u << 6,
    TM_IC_RET = 1u << 7,
    TM_IC_EXIT = 1u << 8,
    TM_IC_WRITES_REG = 1u << 9,   /* ndst > 0 */
    TM_IC_LONGOP = 1u << 10,      /* a load/atomic from global, local, param, tex or generic
                                     space: GPGPU-Sim's long-operation registers */
    TM_IC_GUARDED = 1u << 11,     /* @p / @!p */
    TM_IC_DEFAULT_RULE = 1u << 12, /* the opcode has no rule of its own (see above) */
    TM_IC_BYPASS_L1 = 1u << 13,    /* a load with cache operator .cg (cache in L2, not L1) or .cv
                                      (fetch again): the L1 data cache is not looked at, as
                                      GPGPU-Sim's LD/ST unit sends CACHE_GLOBAL loads past it */
    TM_IC_ROW_HINT = 1u << 14      /* a load carrying simtlab's .rowhint (an extension of PTX):
                                      Narasiman's row-buffer locality hint bit (PhD thesis,
                                      Sec. 7.2), which says another request to the same DRAM row
                                      follows soon; its requests carry it to the memory
                                      controller, which may hold the row open for them */
};

#define TM_NO_REG UINT32_MAX

typedef struct tm_inst_class {
    uint8_t unit;          /* tm_unit that executes it (after the configuration's fallbacks) */
    uint8_t lat_class;     /* tm_latclass */
    uint8_t lat_table;     /* tm_lattable */
    uint8_t space;         /* tm_mem_space */
    uint16_t flags;        /* tm_ic_flags */
    uint16_t opcode;       /* ptx_opcode */
    uint32_t latency;      /* cycles from dispatch to result (>= 1) */
    uint32_t initiation;   /* cycles before its unit accepts the next instruction (>= 1) */
    uint32_t guard;        /* guard predicate register, or TM_NO_REG */
    uint32_t nsrc, ndst, nread;
    const uint32_t *src;   /* registers read (see above), each once */
    const uint32_t *dst;   /* registers written, each once */
    const uint32_t *read;  /* registers read from the register banks */
    /* src and dst as bits, when every register is below TM_IC_MASK_REGS (has_masks; set by
     * tm_inst_class_set_masks): the scoreboard tests a warp's pending writes against them at
     * once instead of register by register */
    bool has_masks;
    uint32_t reg_top;      /* the highest register of src and dst + 1 (0: none) */
    uint64_t uses[2];      /* src and dst */
    uint64_t defs[2];      /* dst */
} tm_inst_class;

/* Registers the masks of tm_inst_class hold. */
#define TM_IC_MASK_REGS 128u

/* Set ic's masks and reg_top from its src and dst lists (has_masks when
 * every register is below TM_IC_MASK_REGS). */
void tm_inst_class_set_masks(tm_inst_class *ic);

/* The classes of one function's instructions. */
typedef struct tm_opclass_fn {
    tm_inst_class *ic;     /* [ninstrs], indexed by pc (instruction index) */
    uint32_t ninstrs;
    uint32_t nregs;        /* every register number is below this: f->nregs + 1 */
    uint32_t max_reads;    /* the largest nread (size the operand collector with it) */
    uint32_t max_latency;  /* the largest latency */
    uint32_t *regs;        /* storage the src/dst/read lists point into */
} tm_opclass_fn;

/* Classify every instruction of f (a function with a body) under cfg.
 * False when cfg lacks a unit an instruction needs and has no fallback for
 * it (SP, SFU; MEM always exists), or when a latency or initiation interval
 * is 0: err then says which instruction (PTX line) and why. Aborts only
 * when memory is exhausted (as analysis/defuse.c does). */
bool tm_opclass_function(const ptx_module *m, const ptx_function *f, const tm_config *cfg,
                         tm_opclass_fn *out, char *err, size_t errlen);
void tm_opclass_fn_free(tm_opclass_fn *fn);

/* True when opcode op has a rule of its own in the table (every opcode of
 * ir/opcodes.def and ir/ext_opcodes.def must). */
bool tm_opclass_opcode_known(ptx_opcode op);

/* Names for reports and messages: "SP", "ADD", "global". */
const char *tm_opclass_unit_name(tm_unit u);
const char *tm_opclass_latclass_name(tm_latclass c);
const char *tm_opclass_space_name(tm_mem_space s);

#endif
