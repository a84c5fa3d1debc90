/* isa_ext.c — what simtlab's own extensions of PTX allow (see
 * ext_opcodes.def and README.md, "simtlab extensions of PTX"), in the
 * shape of the generated PTX tables of isa_table.inc, which stay the ISA's:
 *
 *   simtlab.cond_acc{.shared|.global}.{b8|b16|b32|b64} d, [addr], p, src;
 *   simtlab.tree_traverse.{u32|u64} d, base, p, nodesize;
 *   ld{.global}...rowhint... (ld of global or generic addresses, and
 *   ld.global.nc: the row-buffer locality hint)
 *
 * The parser accepts them only when a parse enables the extension. */
#include <string.h>

#include "ir/isa.h"

#define CAT(c) (1ull << PTX_MODCAT_##c)

/* Allowed modifiers, ascending ptx_modifier as isa_allows expects. */
static const uint16_t cond_acc_allowed[] = {PTX_MOD_B8, PTX_MOD_B16, PTX_MOD_B32, PTX_MOD_B64,
                                            PTX_MOD_GLOBAL, PTX_MOD_SHARED};
static const char *const cond_acc_shapes[] = {"daoo"}; /* d, [addr], p, src */
static const uint16_t tree_traverse_allowed[] = {PTX_MOD_U32, PTX_MOD_U64};
static const char *const tree_traverse_shapes[] = {"dooo"}; /* d, base, p, nodesize */

static const isa_opcode_info ext_opcodes[PTX_OP_COUNT - PTX_OP_FIRST_EXTENSION] = {
    [PTX_OP_SIMTLAB_COND_ACC - PTX_OP_FIRST_EXTENSION] =
        {"simtlab.cond_acc", cond_acc_allowed, sizeof cond_acc_allowed / sizeof *cond_acc_allowed,
         CAT(TYPE), cond_acc_shapes, 1},
    [PTX_OP_SIMTLAB_TREE_TRAVERSE - PTX_OP_FIRST_EXTENSION] =
        {"simtlab.tree_traverse", tree_traverse_allowed,
         sizeof tree_traverse_allowed / sizeof *tree_traverse_allowed, CAT(TYPE), tree_traverse_shapes, 1},
};

/* Is op one of simtlab's own instructions? */
bool ptx_opcode_is_extension(ptx_opcode op)
{
    return (unsigned)op >= PTX_OP_FIRST_EXTENSION && (unsigned)op < PTX_OP_COUNT;
}

/* Is m a modifier of simtlab's extensions? */
bool ptx_modifier_is_extension(ptx_modifier m)
{
    return (unsigned)m >= PTX_MOD_FIRST_EXTENSION && (unsigned)m < PTX_MOD_COUNT;
}

/* The table entry of an extension opcode; NULL for any other. */
const isa_opcode_info *isa_ext_opcode_info(ptx_opcode op)
{
    return ptx_opcode_is_extension(op) ? &ext_opcodes[op - PTX_OP_FIRST_EXTENSION] : NULL;
}

/* The extension opcode named exactly text[0..len): a linear scan, as
 * there are few. */
ptx_opcode isa_ext_lookup_opcode(const char *text, size_t len)
{
    for (unsigned op = PTX_OP_FIRST_EXTENSION; text && op < PTX_OP_COUNT; op++) {
        const char *name = ptx_opcode_name((ptx_opcode)op);
        if (strlen(name) == len && memcmp(name, text, len) == 0)
            return (ptx_opcode)op;
    }
    return PTX_OP_INVALID;
}

/* The extension modifier spelled exactly text[0..len) (no leading dot). */
ptx_modifier isa_ext_lookup_modifier(const char *text, size_t len)
{
    for (unsigned m = PTX_MOD_FIRST_EXTENSION; text && m < PTX_MOD_COUNT; m++) {
        const char *t = ptx_modifier_text((ptx_modifier)m);
        if (strlen(t) == len && memcmp(t, text, len) == 0)
            return (ptx_modifier)m;
    }
    return PTX_MOD_NONE;
}

/* Which PTX opcodes take an extension modifier: .rowhint goes on loads
 * (ld, and ld.global.nc); the parser checks the state space. */
int isa_ext_allows_on_ptx(ptx_opcode op, ptx_modifier mod)
{
    return mod == PTX_MOD_ROWHINT && (op == PTX_OP_LD || op == PTX_OP_LD_GLOBAL_NC);
}
