/* module_impl.h — what producers of a module (the parser) need beyond the
 * public IR: handing over ownership of memory blocks. */
#ifndef SIMTLAB_MODULE_IMPL_H
#define SIMTLAB_MODULE_IMPL_H

#include "ir/arena.h"
#include "ir/ir.h"

/* The module frees these malloc'd blocks (string arenas) with itself. */
void ptx_module_take_blocks(ptx_module *m, char **blocks, uint32_t n);

/* The arena holding every function's arrays (and CFG), freed with the
 * module. */
ptx_arena *ptx_module_arena(ptx_module *m);

#endif
