/* opclass.c — the instruction classes of the timing model (see opclass.h
 * for the rules, their GPGPU-Sim origin and where simtlab differs).
 *
 * One table gives every opcode a rule (what kind of operation it is, its
 * latency class, its flags, the state space it touches when it names
 * none); the instruction's types and the configuration then decide the
 * unit and the numbers. Registers come from analysis/defuse.h. */
#include "timing/opclass.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/defuse.h"

/* What kind of operation an opcode is, which decides unit and latency
 * table (GPGPU-Sim's op classes, with simtlab's additions). */
typedef enum op_kind {
    K_UNSET = 0, /* no rule: the documented default (K_ALU) */
    K_ALU,       /* latency 1; INT unit, or SP without INT units */
    K_ARITH,     /* latency class by type: f64 -> DP/dp, other floats -> SP/fp, else INT/int */
    K_INT24,     /* mul24/mad24: int table + 1, INT unit */
    K_DIV,       /* div/rem: SFU unit, DIV class of the type's table */
    K_SFU,       /* SFU unit, sfu latency */
    K_TENSOR,    /* TENSOR unit, tensor latency */
    K_SHFL,      /* int SHFL latency, dispatched as K_ALU */
    K_MEM        /* the LD/ST unit; latency 1 (the memory system decides the rest) */
} op_kind;

typedef struct op_rule {
    uint8_t kind;   /* op_kind */
    uint8_t lc;     /* tm_latclass for K_ARITH / K_INT24 / K_DIV */
    uint8_t space;  /* tm_mem_space when the form names no space (K_MEM) */
    uint16_t flags; /* tm_ic_flags */
} op_rule;

#define LD TM_IC_LOAD
#define ST TM_IC_STORE
#define AT TM_IC_ATOMIC
#define MB TM_IC_MEMBAR
#define R_ALU {K_ALU, TM_LC_ONE, TM_MEM_NONE, 0}
#define R_ARITH(lc) {K_ARITH, lc, TM_MEM_NONE, 0}
#define R_MEM(fl, sp) {K_MEM, TM_LC_ONE, sp, fl}
#define R_CTRL(fl) {K_ALU, TM_LC_ONE, TM_MEM_NONE, fl}

/* One rule per opcode of ir/opcodes.def and then ir/ext_opcodes.def, in
 * their order. */
static const op_rule rules[PTX_OP_COUNT] = {
    [PTX_OP_ADD] = R_ARITH(TM_LC_ADD), [PTX_OP_ADD_CC] = R_ARITH(TM_LC_ADD),
    [PTX_OP_ADDC] = R_ARITH(TM_LC_ADD), [PTX_OP_SUB] = R_ARITH(TM_LC_ADD),
    [PTX_OP_SUB_CC] = R_ARITH(TM_LC_ADD), [PTX_OP_SUBC] = R_ARITH(TM_LC_ADD),
    [PTX_OP_MUL] = R_ARITH(TM_LC_MUL), [PTX_OP_MAD] = R_ARITH(TM_LC_MAD),
    [PTX_OP_MADC] = R_ARITH(TM_LC_MAD),
    [PTX_OP_MUL24] = {K_INT24, TM_LC_MUL, TM_MEM_NONE, 0},
    [PTX_OP_MAD24] = {K_INT24, TM_LC_MAD, TM_MEM_NONE, 0},
    [PTX_OP_SAD] = R_ALU,
    [PTX_OP_DIV] = {K_DIV, TM_LC_DIV, TM_MEM_NONE, 0},
    [PTX_OP_REM] = {K_DIV, TM_LC_DIV, TM_MEM_NONE, 0},
    [PTX_OP_ABS] = R_ALU, [PTX_OP_NEG] = R_ALU,
    [PTX_OP_MIN] = R_ARITH(TM_LC_MAX), [PTX_OP_MAX] = R_ARITH(TM_LC_MAX),
    [PTX_OP_POPC] = R_ALU, [PTX_OP_CLZ] = R_ALU, [PTX_OP_BFIND] = R_ALU, [PTX_OP_FNS] = R_ALU,
    [PTX_OP_BREV] = R_ALU, [PTX_OP_BFE] = R_ALU, [PTX_OP_BFI] = R_ALU, [PTX_OP_SZEXT] = R_ALU,
    [PTX_OP_BMSK] = R_ALU, [PTX_OP_DP4A] = R_ALU, [PTX_OP_DP2A] = R_ALU, [PTX_OP_TESTP] = R_ALU,
    [PTX_OP_COPYSIGN] = R_ALU,
    [PTX_OP_FMA] = R_ARITH(TM_LC_MAD),
    [PTX_OP_RCP] = {K_SFU, TM_LC_SFU, TM_MEM_NONE, 0},
    [PTX_OP_SQRT] = {K_SFU, TM_LC_SFU, TM_MEM_NONE, 0},
    [PTX_OP_RSQRT] = {K_SFU, TM_LC_SFU, TM_MEM_NONE, 0},
    [PTX_OP_SIN] = {K_SFU, TM_LC_SFU, TM_MEM_NONE, 0},
    [PTX_OP_COS] = {K_SFU, TM_LC_SFU, TM_MEM_NONE, 0},
    [PTX_OP_LG2] = {K_SFU, TM_LC_SFU, TM_MEM_NONE, 0},
    [PTX_OP_EX2] = {K_SFU, TM_LC_SFU, TM_MEM_NONE, 0},
    [PTX_OP_TANH] = {K_SFU, TM_LC_SFU, TM_MEM_NONE, 0},
    [PTX_OP_SET] = R_ALU, [PTX_OP_SETP] = R_ALU, [PTX_OP_SELP] = R_ALU, [PTX_OP_SLCT] = R_ALU,
    [PTX_OP_AND] = R_ALU, [PTX_OP_OR] = R_ALU, [PTX_OP_XOR] = R_ALU, [PTX_OP_NOT] = R_ALU,
    [PTX_OP_CNOT] = R_ALU, [PTX_OP_LOP3] = R_ALU, [PTX_OP_SHF] = R_ALU, [PTX_OP_SHL] = R_ALU,
    [PTX_OP_SHR] = R_ALU, [PTX_OP_MOV] = R_ALU,
    [PTX_OP_SHFL] = {K_SHFL, TM_LC_SHFL, TM_MEM_NONE, 0},
    [PTX_OP_SHFL_SYNC] = {K_SHFL, TM_LC_SHFL, TM_MEM_NONE, 0},
    [PTX_OP_PRMT] = R_ALU,
    [PTX_OP_LD] = R_MEM(LD, TM_MEM_GENERIC), [PTX_OP_LD_GLOBAL_NC] = R_MEM(LD, TM_MEM_GLOBAL),
    [PTX_OP_LDU] = R_MEM(LD, TM_MEM_GENERIC), [PTX_OP_ST] = R_MEM(ST, TM_MEM_GENERIC),
    [PTX_OP_ST_ASYNC] = R_MEM(ST, TM_MEM_SHARED), [PTX_OP_ST_BULK] = R_MEM(ST, TM_MEM_GENERIC),
    [PTX_OP_MULTIMEM_LD_REDUCE] = R_MEM(LD, TM_MEM_GLOBAL),
    [PTX_OP_MULTIMEM_ST] = R_MEM(ST, TM_MEM_GLOBAL),
    [PTX_OP_MULTIMEM_RED] = R_MEM(AT, TM_MEM_GLOBAL),
    [PTX_OP_PREFETCH] = R_MEM(LD, TM_MEM_GENERIC), [PTX_OP_PREFETCHU] = R_MEM(LD, TM_MEM_GENERIC),
    [PTX_OP_APPLYPRIORITY] = R_MEM(0, TM_MEM_GLOBAL), [PTX_OP_DISCARD] = R_MEM(0, TM_MEM_GLOBAL),
    [PTX_OP_CREATEPOLICY] = R_ALU, [PTX_OP_ISSPACEP] = R_ALU, [PTX_OP_CVTA] = R_ALU,
    [PTX_OP_CVT] = R_ALU, [PTX_OP_CVT_PACK] = R_ALU, [PTX_OP_MAPA] = R_ALU,
    [PTX_OP_GETCTARANK] = R_ALU,
    [PTX_OP_CP_ASYNC] = R_MEM(LD | ST, TM_MEM_GLOBAL),
    [PTX_OP_CP_ASYNC_COMMIT_GROUP] = R_ALU,
    [PTX_OP_CP_ASYNC_WAIT_GROUP] = R_MEM(MB, TM_MEM_GLOBAL),
    [PTX_OP_CP_ASYNC_WAIT_ALL] = R_MEM(MB, TM_MEM_GLOBAL),
    [PTX_OP_CP_ASYNC_MBARRIER_ARRIVE] = R_MEM(AT, TM_MEM_SHARED),
    [PTX_OP_CP_ASYNC_BULK] = R_MEM(LD | ST, TM_MEM_GLOBAL),
    [PTX_OP_CP_REDUCE_ASYNC_BULK] = R_MEM(LD | AT, TM_MEM_GLOBAL),
    [PTX_OP_CP_ASYNC_BULK_PREFETCH] = R_MEM(LD, TM_MEM_GLOBAL),
    [PTX_OP_CP_ASYNC_BULK_TENSOR] = R_MEM(LD | ST, TM_MEM_GLOBAL),
    [PTX_OP_CP_REDUCE_ASYNC_BULK_TENSOR] = R_MEM(LD | AT, TM_MEM_GLOBAL),
    [PTX_OP_CP_ASYNC_BULK_PREFETCH_TENSOR] = R_MEM(LD, TM_MEM_GLOBAL),
    [PTX_OP_CP_ASYNC_BULK_COMMIT_GROUP] = R_ALU,
    [PTX_OP_CP_ASYNC_BULK_WAIT_GROUP] = R_MEM(MB, TM_MEM_GLOBAL),
    [PTX_OP_TENSORMAP_REPLACE] = R_MEM(ST, TM_MEM_GENERIC),
    [PTX_OP_TENSORMAP_CP_FENCEPROXY] = R_MEM(LD | ST | MB, TM_MEM_GLOBAL),
    [PTX_OP_TEX] = R_MEM(LD, TM_MEM_TEX), [PTX_OP_TLD4] = R_MEM(LD, TM_MEM_TEX),
    [PTX_OP_TXQ] = R_ALU, [PTX_OP_ISTYPEP] = R_ALU,
    [PTX_OP_SULD] = R_MEM(LD, TM_MEM_GLOBAL), [PTX_OP_SUST] = R_MEM(ST, TM_MEM_GLOBAL),
    [PTX_OP_SURED] = R_MEM(AT, TM_MEM_GLOBAL), [PTX_OP_SUQ] = R_ALU,
    [PTX_OP_BRA] = R_CTRL(TM_IC_BRANCH), [PTX_OP_BRX_IDX] = R_CTRL(TM_IC_BRANCH),
    [PTX_OP_CALL] = R_CTRL(TM_IC_CALL), [PTX_OP_RET] = R_CTRL(TM_IC_RET),
    [PTX_OP_EXIT] = R_CTRL(TM_IC_EXIT),
    [PTX_OP_BAR] = R_CTRL(TM_IC_BARRIER), [PTX_OP_BARRIER] = R_CTRL(TM_IC_BARRIER),
    [PTX_OP_BAR_WARP_SYNC] = R_ALU, /* a warp-level rendezvous: nothing for the CTA barrier */
    [PTX_OP_BARRIER_CLUSTER] = R_CTRL(TM_IC_BARRIER),
    [PTX_OP_MEMBAR] = R_MEM(MB, TM_MEM_GLOBAL), [PTX_OP_FENCE] = R_MEM(MB, TM_MEM_GLOBAL),
    [PTX_OP_ATOM] = R_MEM(AT, TM_MEM_GENERIC), [PTX_OP_RED] = R_MEM(AT, TM_MEM_GENERIC),
    [PTX_OP_RED_ASYNC] = R_MEM(AT, TM_MEM_SHARED),
    [PTX_OP_VOTE] = R_ALU, [PTX_OP_VOTE_SYNC] = R_ALU, [PTX_OP_MATCH] = R_ALU,
    [PTX_OP_ACTIVEMASK] = R_ALU, [PTX_OP_REDUX_SYNC] = R_ALU, [PTX_OP_GRIDDEPCONTROL] = R_ALU,
    [PTX_OP_ELECT_SYNC] = R_ALU,
    [PTX_OP_MBARRIER_INIT] = R_MEM(ST, TM_MEM_GENERIC),
    [PTX_OP_MBARRIER_INVAL] = R_MEM(ST, TM_MEM_GENERIC),
    [PTX_OP_MBARRIER_EXPECT_TX] = R_MEM(AT, TM_MEM_GENERIC),
    [PTX_OP_MBARRIER_COMPLETE_TX] = R_MEM(AT, TM_MEM_GENERIC),
    [PTX_OP_MBARRIER_ARRIVE] = R_MEM(AT, TM_MEM_GENERIC),
    [PTX_OP_MBARRIER_ARRIVE_DROP] = R_MEM(AT, TM_MEM_GENERIC),
    [PTX_OP_MBARRIER_TEST_WAIT] = R_MEM(LD, TM_MEM_GENERIC),
    [PTX_OP_MBARRIER_TRY_WAIT] = R_MEM(LD, TM_MEM_GENERIC),
    [PTX_OP_MBARRIER_PENDING_COUNT] = R_ALU, /* decodes a state value held in a register */
    [PTX_OP_CLUSTERLAUNCHCONTROL_TRY_CANCEL] = R_MEM(ST, TM_MEM_SHARED),
    [PTX_OP_CLUSTERLAUNCHCONTROL_QUERY_CANCEL] = R_ALU,
    [PTX_OP_WMMA_LOAD] = R_MEM(LD, TM_MEM_GENERIC), [PTX_OP_WMMA_STORE] = R_MEM(ST, TM_MEM_GENERIC),
    [PTX_OP_WMMA_MMA] = {K_TENSOR, TM_LC_TENSOR, TM_MEM_NONE, 0},
    [PTX_OP_MMA] = {K_TENSOR, TM_LC_TENSOR, TM_MEM_NONE, 0},
    [PTX_OP_LDMATRIX] = R_MEM(LD, TM_MEM_SHARED), [PTX_OP_STMATRIX] = R_MEM(ST, TM_MEM_SHARED),
    [PTX_OP_MOVMATRIX] = R_ALU,
    [PTX_OP_WGMMA_MMA_ASYNC] = {K_TENSOR, TM_LC_TENSOR, TM_MEM_NONE, 0},
    [PTX_OP_WGMMA_MMA_ASYNC_SP] = {K_TENSOR, TM_LC_TENSOR, TM_MEM_NONE, 0},
    [PTX_OP_WGMMA_FENCE] = R_ALU, [PTX_OP_WGMMA_COMMIT_GROUP] = R_ALU,
    [PTX_OP_WGMMA_WAIT_GROUP] = R_ALU, /* the accumulators' scoreboard entries order the uses */
    [PTX_OP_TCGEN05_ALLOC] = R_MEM(ST, TM_MEM_SHARED),
    [PTX_OP_TCGEN05_DEALLOC] = R_MEM(0, TM_MEM_NONE),
    [PTX_OP_TCGEN05_RELINQUISH_ALLOC_PERMIT] = R_ALU,
    [PTX_OP_TCGEN05_LD] = R_MEM(LD, TM_MEM_NONE), [PTX_OP_TCGEN05_ST] = R_MEM(ST, TM_MEM_NONE),
    [PTX_OP_TCGEN05_WAIT_LD] = R_MEM(MB, TM_MEM_NONE),
    [PTX_OP_TCGEN05_WAIT_ST] = R_MEM(MB, TM_MEM_NONE),
    [PTX_OP_TCGEN05_CP] = R_MEM(LD | ST, TM_MEM_SHARED),
    [PTX_OP_TCGEN05_SHIFT] = {K_TENSOR, TM_LC_TENSOR, TM_MEM_NONE, 0},
    [PTX_OP_TCGEN05_MMA] = {K_TENSOR, TM_LC_TENSOR, TM_MEM_NONE, 0},
    [PTX_OP_TCGEN05_MMA_SP] = {K_TENSOR, TM_LC_TENSOR, TM_MEM_NONE, 0},
    [PTX_OP_TCGEN05_MMA_WS] = {K_TENSOR, TM_LC_TENSOR, TM_MEM_NONE, 0},
    [PTX_OP_TCGEN05_MMA_WS_SP] = {K_TENSOR, TM_LC_TENSOR, TM_MEM_NONE, 0},
    [PTX_OP_TCGEN05_FENCE_BEFORE_THREAD_SYNC] = R_ALU,
    [PTX_OP_TCGEN05_FENCE_AFTER_THREAD_SYNC] = R_ALU,
    [PTX_OP_TCGEN05_COMMIT] = R_MEM(AT, TM_MEM_SHARED),
    [PTX_OP_STACKSAVE] = R_ALU, [PTX_OP_STACKRESTORE] = R_ALU, [PTX_OP_ALLOCA] = R_ALU,
    [PTX_OP_VADD] = R_ALU, [PTX_OP_VSUB] = R_ALU, [PTX_OP_VABSDIFF] = R_ALU, [PTX_OP_VMIN] = R_ALU,
    [PTX_OP_VMAX] = R_ALU, [PTX_OP_VSHL] = R_ALU, [PTX_OP_VSHR] = R_ALU, [PTX_OP_VMAD] = R_ALU,
    [PTX_OP_VSET] = R_ALU, [PTX_OP_VADD2] = R_ALU, [PTX_OP_VSUB2] = R_ALU, [PTX_OP_VAVRG2] = R_ALU,
    [PTX_OP_VABSDIFF2] = R_ALU, [PTX_OP_VMIN2] = R_ALU, [PTX_OP_VMAX2] = R_ALU,
    [PTX_OP_VSET2] = R_ALU, [PTX_OP_VADD4] = R_ALU, [PTX_OP_VSUB4] = R_ALU,
    [PTX_OP_VAVRG4] = R_ALU, [PTX_OP_VABSDIFF4] = R_ALU, [PTX_OP_VMIN4] = R_ALU,
    [PTX_OP_VMAX4] = R_ALU, [PTX_OP_VSET4] = R_ALU,
    [PTX_OP_BRKPT] = R_ALU, [PTX_OP_NANOSLEEP] = R_ALU, [PTX_OP_PMEVENT] = R_ALU,
    [PTX_OP_TRAP] = R_ALU, [PTX_OP_SETMAXNREG] = R_ALU,
    /* simtlab's extensions: a contiguous store of the lanes whose predicate
     * holds; the sum of a predicate (the prefix-sum adders of cond_acc) */
    [PTX_OP_SIMTLAB_COND_ACC] = R_MEM(ST, TM_MEM_GENERIC),
    [PTX_OP_SIMTLAB_TREE_TRAVERSE] = R_ALU,
};

/* Does op have a rule of its own in the table? */
bool tm_opclass_opcode_known(ptx_opcode op)
{
    return op > PTX_OP_INVALID && op < PTX_OP_COUNT && rules[op].kind != K_UNSET;
}

const char *tm_opclass_unit_name(tm_unit u)
{
    static const char *const names[TM_UNIT_KINDS] = {"SP", "DP", "INT", "SFU", "TENSOR", "MEM"};
    return (unsigned)u < TM_UNIT_KINDS ? names[u] : "?";
}

const char *tm_opclass_latclass_name(tm_latclass c)
{
    static const char *const names[TM_LC_COUNT] = {"ADD", "MAX", "MUL",   "MAD", "DIV",
                                                   "SHFL", "SFU", "TENSOR", "ONE"};
    return (unsigned)c < TM_LC_COUNT ? names[c] : "?";
}

const char *tm_opclass_space_name(tm_mem_space s)
{
    static const char *const names[TM_MEM_SPACES] = {"none",  "global", "local",  "shared",
                                                     "const", "param",  "tex",    "generic"};
    return (unsigned)s < TM_MEM_SPACES ? names[s] : "?";
}

/* The timing model's space for a PTX state space written on the form. */
static tm_mem_space space_of(ptx_space s)
{
    switch (s) {
    case PTX_SPACE_GLOBAL: return TM_MEM_GLOBAL;
    case PTX_SPACE_LOCAL: return TM_MEM_LOCAL;
    case PTX_SPACE_CONST: return TM_MEM_CONST;
    case PTX_SPACE_PARAM: case PTX_SPACE_PARAM_ENTRY: case PTX_SPACE_PARAM_FUNC: return TM_MEM_PARAM;
    case PTX_SPACE_SHARED: case PTX_SPACE_SHARED_CTA: case PTX_SPACE_SHARED_CLUSTER: return TM_MEM_SHARED;
    case PTX_SPACE_TEX: return TM_MEM_TEX;
    default: return TM_MEM_GENERIC;
    }
}

/* Which latency table an arithmetic instruction of type t uses: f64 the dp
 * table, every other floating type the fp table, integers the int table. */
static tm_lattable table_of_type(ptx_type t)
{
    if (t == PTX_TYPE_F64)
        return TM_LT_DP;
    if (t != PTX_TYPE_NONE && ptx_type_class(t) == 'f')
        return TM_LT_FP;
    return TM_LT_INT;
}

/* Latency and initiation interval of class lc in table lt under cfg. */
static void latency_of(const tm_config *cfg, tm_lattable lt, tm_latclass lc, uint32_t *lat,
                       uint32_t *init)
{
    const tm_latency *t = NULL;
    switch (lt) {
    case TM_LT_INT: t = &cfg->lat_int; break;
    case TM_LT_FP: t = &cfg->lat_fp; break;
    case TM_LT_DP: t = &cfg->lat_dp; break;
    case TM_LT_SFU: *lat = cfg->lat_sfu; *init = cfg->init_sfu; return;
    case TM_LT_TENSOR: *lat = cfg->lat_tensor; *init = cfg->init_tensor; return;
    default: *lat = 1; *init = 1; return;
    }
    *lat = t->latency[lc];
    *init = t->initiation[lc];
}

/* The unit an ALU-dispatched (non-SP_OP) instruction goes to: INT when the
 * configuration has INT units, SP otherwise (GPGPU-Sim's scheduler). */
static tm_unit alu_unit(const tm_config *cfg)
{
    return cfg->n_units[TM_UNIT_INT] > 0 ? TM_UNIT_INT : TM_UNIT_SP;
}

/* Unit, latency table and class of one instruction (registers aside). */
static void classify(const ptx_module *m, const ptx_instr *in, const tm_config *cfg,
                     tm_inst_class *ic)
{
    const ptx_form *form = ptx_instr_form(m, in);
    ptx_opcode op = (ptx_opcode)form->opcode;
    op_rule r = tm_opclass_opcode_known(op) ? rules[op] : (op_rule)R_ALU;
    ptx_type type = form->ntypes ? (ptx_type)form->type[0] : PTX_TYPE_NONE;
    tm_unit unit = alu_unit(cfg);
    tm_lattable lt = TM_LT_NONE;
    tm_latclass lc = TM_LC_ONE;
    uint32_t extra = 0;
    switch ((op_kind)r.kind) {
    case K_ARITH:
        lt = table_of_type(type);
        lc = (tm_latclass)r.lc;
        unit = lt == TM_LT_DP ? TM_UNIT_DP : lt == TM_LT_FP ? TM_UNIT_SP : alu_unit(cfg);
        break;
    case K_INT24:
        lt = TM_LT_INT;
        lc = (tm_latclass)r.lc;
        extra = 1; /* GPGPU-Sim: done on the 32-bit multiplier plus masking */
        break;
    case K_DIV:
        lt = table_of_type(type);
        lc = TM_LC_DIV;
        unit = TM_UNIT_SFU;
        break;
    case K_SFU: lt = TM_LT_SFU; lc = TM_LC_SFU; unit = TM_UNIT_SFU; break;
    case K_TENSOR: lt = TM_LT_TENSOR; lc = TM_LC_TENSOR; unit = TM_UNIT_TENSOR; break;
    case K_SHFL: lt = TM_LT_INT; lc = TM_LC_SHFL; break;
    case K_MEM: unit = TM_UNIT_MEM; break;
    default: break;
    }
    if (unit == TM_UNIT_DP && cfg->n_units[TM_UNIT_DP] == 0)
        unit = TM_UNIT_SFU;
    if (unit == TM_UNIT_TENSOR && cfg->n_units[TM_UNIT_TENSOR] == 0)
        unit = TM_UNIT_SFU;
    uint32_t lat, init;
    latency_of(cfg, lt, lc, &lat, &init);
    ic->unit = (uint8_t)unit;
    ic->lat_class = (uint8_t)lc;
    ic->lat_table = (uint8_t)lt;
    ic->latency = lat ? lat + extra : 0;
    ic->initiation = init ? init + extra : 0;
    ic->opcode = (uint16_t)op;
    ic->flags = r.flags;
    if (!tm_opclass_opcode_known(op))
        ic->flags |= TM_IC_DEFAULT_RULE;
    ic->space = TM_MEM_NONE;
    if (r.kind == K_MEM) {
        ic->space = r.space;
        if (form->nspaces) /* a copy reads from its last space (cp.async.shared.global) */
            ic->space = space_of((ptx_space)form->space[(r.flags & LD) && (r.flags & ST)
                                                            ? form->nspaces - 1 : 0]);
    }
    if ((ic->flags & (LD | AT)) &&
        (ic->space == TM_MEM_GLOBAL || ic->space == TM_MEM_LOCAL || ic->space == TM_MEM_PARAM ||
         ic->space == TM_MEM_TEX || ic->space == TM_MEM_GENERIC))
        ic->flags |= TM_IC_LONGOP;
    if (in->guard != PTX_NONE)
        ic->flags |= TM_IC_GUARDED;
    if ((ic->flags & LD) && (ptx_form_has(m, form, PTX_MOD_CG) || ptx_form_has(m, form, PTX_MOD_CV)))
        ic->flags |= TM_IC_BYPASS_L1;
    if ((ic->flags & LD) && ptx_form_has(m, form, PTX_MOD_ROWHINT))
        ic->flags |= TM_IC_ROW_HINT;
}

/* Make sure cfg can run ic: a unit to run it on and non-zero timing. */
static bool check_runnable(const ptx_function *f, uint32_t pc, const tm_inst_class *ic,
                           const tm_config *cfg, char *err, size_t errlen)
{
    const ptx_instr *in = &f->instrs[pc];
    if (ic->unit != TM_UNIT_MEM && cfg->n_units[ic->unit] == 0) {
        snprintf(err, errlen, "line %u: %s needs a %s unit but the configuration has none",
                 in->line, ptx_opcode_name((ptx_opcode)ic->opcode), tm_opclass_unit_name(ic->unit));
        return false;
    }
    if (ic->latency == 0 || ic->initiation == 0) {
        snprintf(err, errlen, "line %u: %s has a zero %s %s latency or initiation interval in "
                 "the configuration", in->line, ptx_opcode_name((ptx_opcode)ic->opcode),
                 tm_opclass_unit_name(ic->unit), tm_opclass_latclass_name(ic->lat_class));
        return false;
    }
    return true;
}

/* Is r in list[0..n)? (per-instruction lists are short) */
static bool in_list(const uint32_t *list, uint32_t n, uint32_t r)
{
    for (uint32_t k = 0; k < n; k++)
        if (list[k] == r)
            return true;
    return false;
}

/* Classify every instruction of f under cfg (see opclass.h). */
bool tm_opclass_function(const ptx_module *m, const ptx_function *f, const tm_config *cfg,
                         tm_opclass_fn *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    /* Reads without the guard's effect: defuse of a copy of f whose
     * instructions carry no guard (the guard and the old value of a
     * guarded destination are not bank reads). */
    ptx_function bare = *f;
    ptx_instr *instrs = malloc(((size_t)f->ninstrs + 1) * sizeof *instrs);
    if (!instrs)
        abort();
    if (f->ninstrs)
        memcpy(instrs, f->instrs, f->ninstrs * sizeof *instrs);
    for (uint32_t i = 0; i < f->ninstrs; i++)
        instrs[i].guard = PTX_NONE;
    bare.instrs = instrs;
    ptx_defuse du;
    ptx_defuse_build(m, &bare, &du);

    out->ninstrs = f->ninstrs;
    out->nregs = f->nregs + 1;
    out->ic = calloc((size_t)f->ninstrs + 1, sizeof *out->ic);
    /* per instruction: guard + reads (src), writes (dst); read is inside src */
    size_t pool = (size_t)du.rstart[f->ninstrs] + du.wstart[f->ninstrs] + f->ninstrs + 1;
    out->regs = malloc(pool * sizeof *out->regs);
    if (!out->ic || !out->regs)
        abort();
    size_t used = 0;
    bool ok = true;
    const uint32_t cc = PTX_DEFUSE_CC(f);
    for (uint32_t pc = 0; pc < f->ninstrs && ok; pc++) {
        tm_inst_class *ic = &out->ic[pc];
        classify(m, &f->instrs[pc], cfg, ic);
        ok = check_runnable(f, pc, ic, cfg, err, errlen);
        uint32_t *src = out->regs + used;
        uint32_t n = 0;
        ic->guard = f->instrs[pc].guard == PTX_NONE ? TM_NO_REG : f->instrs[pc].guard;
        if (ic->guard != TM_NO_REG)
            src[n++] = ic->guard;
        uint32_t first_read = n, nread = 0;
        for (uint32_t k = du.rstart[pc]; k < du.rstart[pc + 1]; k++) {
            uint32_t r = du.reads[k];
            if (r == ic->guard)
                continue; /* the guard read as an operand too: listed once */
            src[n++] = r;
            if (r != cc)
                nread++;
        }
        /* the carry flag, when read, is last in defuse's list: reads stay a prefix */
        ic->src = src;
        ic->nsrc = n;
        ic->read = src + first_read;
        ic->nread = nread;
        used += n;
        uint32_t *dst = out->regs + used;
        uint32_t nd = 0;
        for (uint32_t k = du.wstart[pc]; k < du.wstart[pc + 1]; k++)
            if (!in_list(dst, nd, du.writes[k]))
                dst[nd++] = du.writes[k];
        ic->dst = dst;
        ic->ndst = nd;
        tm_inst_class_set_masks(ic);
        used += nd;
        if (nd)
            ic->flags |= TM_IC_WRITES_REG;
        if (nread > out->max_reads)
            out->max_reads = nread;
        if (ic->latency > out->max_latency)
            out->max_latency = ic->latency;
    }
    ptx_defuse_free(&du);
    free(instrs);
    if (!ok)
        tm_opclass_fn_free(out);
    return ok;
}

void tm_inst_class_set_masks(tm_inst_class *ic)
{
    ic->reg_top = 0;
    ic->uses[0] = ic->uses[1] = ic->defs[0] = ic->defs[1] = 0;
    ic->has_masks = true;
    for (uint32_t k = 0; k < ic->nsrc + ic->ndst; k++) {
        bool def = k >= ic->nsrc;
        uint32_t r = def ? ic->dst[k - ic->nsrc] : ic->src[k];
        ic->reg_top = r + 1 > ic->reg_top ? r + 1 : ic->reg_top;
        if (r >= TM_IC_MASK_REGS) {
            ic->has_masks = false;
            continue;
        }
        ic->uses[r / 64] |= 1ull << (r % 64);
        if (def)
            ic->defs[r / 64] |= 1ull << (r % 64);
    }
}

/* Release what tm_opclass_function allocated. */
void tm_opclass_fn_free(tm_opclass_fn *fn)
{
    if (!fn)
        return;
    free(fn->ic);
    free(fn->regs);
    memset(fn, 0, sizeof *fn);
}
