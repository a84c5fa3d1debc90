/* module.c — module lifetime and simple accessors. */
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "ir/module_impl.h"

typedef struct module_mem {
    char **blocks;
    uint32_t nblocks;
} module_mem;

void ptx_module_take_blocks(ptx_module *m, char **blocks, uint32_t n)
{
    module_mem *mem = m->impl;
    if (!mem) {
        mem = calloc(1, sizeof *mem);
        if (!mem)
            abort();
        m->impl = mem;
    }
    free(mem->blocks);
    mem->blocks = blocks;
    mem->nblocks = n;
}

const char *ptx_str(const ptx_module *m, uint32_t id)
{
    return id < m->nstrings ? m->strings[id] : "";
}

const char *ptx_symbol_name(const ptx_module *m, uint32_t sym)
{
    if (sym >= m->nsymbols || m->symbols[sym].name == PTX_NONE)
        return "_";
    return ptx_str(m, m->symbols[sym].name);
}

const char *ptx_function_name(const ptx_module *m, const ptx_function *f)
{
    return f->symbol == PTX_NONE ? "" : ptx_symbol_name(m, f->symbol);
}

bool ptx_form_has(const ptx_module *m, const ptx_form *f, ptx_modifier mod)
{
    for (unsigned i = 0; i < f->ntokens; i++)
        if (m->form_tokens[f->first_token + i] == mod)
            return true;
    return false;
}

uint64_t ptx_symbol_size(const ptx_symbol *s)
{
    uint64_t n = (uint64_t)s->vec * ((ptx_type_bits((ptx_type)s->type) + 7) / 8);
    for (unsigned i = 0; i < s->ndims; i++)
        n *= s->dims[i];
    return n;
}

static void function_free(ptx_function *f)
{
    free(f->params);
    free(f->rets);
    free(f->pragmas);
    free(f->regs);
    free(f->regdecls);
    free(f->instrs);
    free(f->operands);
    free(f->labels);
    free(f->label_lists);
    free(f->protos);
    free(f->proto_params);
    free(f->stmts);
    free(f->locs);
    free(f->locals);
    free(f->blocks);
    free(f->succs);
    free(f->preds);
    free(f->instr_block);
}

void ptx_module_free(ptx_module *m)
{
    if (!m)
        return;
    for (uint32_t i = 0; i < m->nfunctions; i++)
        function_free(&m->functions[i]);
    module_mem *mem = m->impl;
    if (mem) {
        for (uint32_t i = 0; i < mem->nblocks; i++)
            free(mem->blocks[i]);
        free(mem->blocks);
        free(mem);
    }
    free(m->source_name);
    free(m->targets);
    free(m->strings);
    free(m->symbols);
    free(m->functions);
    free(m->forms);
    free(m->form_tokens);
    free(m->inits);
    free(m->tops);
    free(m->files);
    free(m->sections);
    free(m->aliases);
    free(m);
}
