/* trace.c — reporting memory accesses to a launch's trace callback
 * (sim_launch_config.trace): what the profiled locality graph is built
 * from. */
#include "emulator/internal.h"

void sim_trace_access(const sim_cta *c, uint32_t pc, const sim_inst *in, const sim_lanes *L)
{
    uint64_t addr[32];
    uint32_t thread[32], n = 0, elem = ptx_type_bits((ptx_type)in->type) / 8;
    for (uint32_t i = 0; i < L->n; i++) {
        if (!(in->flags & SIM_IF_PACKED)) {
            addr[n] = sim_address(c, in, L->t[i]);
        } else if (sim_get(c, &in->src[0], L->t[i])) { /* the lanes that write, one after another */
            addr[n] = (sim_address(c, in, L->t[0]) + (uint64_t)n * elem) & in->addr.mask;
        } else {
            continue;
        }
        thread[n++] = L->t[i];
    }
    sim_access a = {
        .cta = c->ctaid.x + c->nctaid.x * (c->ctaid.y + c->nctaid.y * c->ctaid.z),
        .function = c->fn->index,
        .pc = pc,
        .kind = (in->flags & SIM_IF_ATOMIC) ? SIM_ACCESS_ATOMIC
                : (in->flags & SIM_IF_STORE) ? SIM_ACCESS_WRITE : SIM_ACCESS_READ,
        .space = in->space,
        .elem_bytes = elem,
        .vec = in->vec ? in->vec : 1,
        .n = n,
        .thread = thread,
        .addr = addr,
    };
    c->trace(c->trace_ctx, &a);
}
