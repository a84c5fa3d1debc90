/* module.c — module lifetime and simple accessors. */
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "ir/module_impl.h"
#include "ir/util.h"

typedef struct module_mem {
    char **blocks;
    uint32_t nblocks;
    ptx_arena arena;
} module_mem;

/* The module's private memory record, created on first use. */
static module_mem *mem_of(ptx_module *m)
{
    if (!m->impl)
        m->impl = ptx_xcalloc(1, sizeof(module_mem));
    return m->impl;
}

void ptx_module_take_blocks(ptx_module *m, char **blocks, uint32_t n)
{
    module_mem *mem = mem_of(m);
    for (uint32_t i = 0; i < mem->nblocks; i++)
        free(mem->blocks[i]);
    free(mem->blocks);
    mem->blocks = blocks;
    mem->nblocks = n;
}

ptx_arena *ptx_module_arena(ptx_module *m)
{
    return &mem_of(m)->arena;
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

void ptx_module_free(ptx_module *m)
{
    if (!m)
        return;
    module_mem *mem = m->impl; /* function arrays live in its arena */
    if (mem) {
        for (uint32_t i = 0; i < mem->nblocks; i++)
            free(mem->blocks[i]);
        free(mem->blocks);
        ptx_arena_free(&mem->arena);
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
