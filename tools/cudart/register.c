/* register.c — what nvcc's generated host code calls before main and at
 * exit: fatbin, kernel and variable registration (crt/host_runtime.h).
 *
 * __cudaRegisterFatBinary receives nvcc's wrapper {magic, version, fatbin,
 * ...}; the PTX entry is taken from the fatbin with the front-end's
 * container reader (LZ4 and zstd entries included), parsed and decoded for
 * the emulator when registration ends. A fatbin without PTX is remembered
 * with the reason, which the first launch of one of its kernels prints. */
#include <stdlib.h>
#include <string.h>

#include "tools/cudart/runtime.h"
#include "ir/util.h"
#include "parser/container.h"
#include "parser/parser.h"

#define FATBIN_WRAPPER_MAGIC 0x466243b1u
#define FATBIN_MAGIC 0xba55ed50u

/* nvcc's __fatBinC_Wrapper_t. */
typedef struct fatbin_wrapper {
    int magic, version;
    const unsigned long long *data;
    void *filename_or_fatbins;
} fatbin_wrapper;

/* Size of the fatbin at f: its header size plus its payload size. */
static size_t fatbin_size(const unsigned char *f)
{
    uint32_t magic;
    uint16_t header;
    uint64_t payload;
    memcpy(&magic, f, 4);
    memcpy(&header, f + 6, 2);
    memcpy(&payload, f + 8, 8);
    return magic == FATBIN_MAGIC ? header + payload : 0;
}

/* Parse the PTX of mod's fatbin into mod->m (with the extensions of PTX
 * in ext), or set mod->error. */
static void parse_module(rt_module *mod, unsigned ext)
{
    const unsigned char *f = mod->fatbin;
    size_t size = f ? fatbin_size(f) : 0;
    char err[512];
    ptx_container c = {0};
    if (!size) {
        mod->error = ptx_strdup("a registered fatbin has no valid header");
        return;
    }
    if (ptx_container_read(f, size, &c, err, sizeof err) != 0) {
        mod->error = ptx_format("cannot read a registered fatbin: %s", err);
        return;
    }
    long i = ptx_container_pick(&c, 0);
    if (i < 0) {
        unsigned sm = c.nentries ? c.entries[0].arch : 80;
        mod->error = ptx_format("the program's device code has no PTX (only SASS for sm_%u), and the emulator "
                                "runs PTX: rebuild it with -gencode arch=compute_%u,code=compute_%u (or add "
                                "compute_%u to the code= list); programs built with -rdc=true are not supported yet, since "
                                "their device-linked code is SASS only", sm, sm, sm, sm);
        ptx_container_free(&c);
        return;
    }
    const ptx_entry *e = &c.entries[i];
    ptx_diags diags = {0};
    ptx_parse_options opts = {.extensions = ext};
    mod->m = ptx_parse_string_opts(e->data, e->size, e->name && *e->name ? e->name : "embedded PTX", &opts,
                                   &diags);
    if (!mod->m) {
        char *first = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&first, &len);
        ptx_diags_print(&diags, mem);
        fclose(mem);
        mod->error = ptx_format("the embedded PTX does not parse:\n%s", first ? first : "");
        free(first);
    } else {
        mod->target = e->arch;
    }
    ptx_diags_free(&diags);
    ptx_container_free(&c);
}

/* Point every managed variable of mod's host side at its device storage. */
static void bind_managed(cudart *rt, rt_module *mod)
{
    for (uint32_t i = 0; i < rt->nvars; i++) {
        rt_var *v = &rt->vars[i];
        sim_symbol_info s;
        if (v->mod == mod && v->managed && sim_program_symbol(mod->p, v->name, &s, NULL, 0) == 0)
            *(void **)v->host_var = s.host;
    }
}

void rt_decode(cudart *rt, rt_module *mod)
{
    if (mod->p || mod->error || !mod->m)
        return;
    char err[1024];
    mod->p = sim_program_new(rt->dev, mod->m, err, sizeof err);
    if (!mod->p)
        mod->error = ptx_strdup(err);
    else
        bind_managed(rt, mod);
}

sim_program *rt_program(cudart *rt, rt_module *mod)
{
    rt_decode(rt, mod);
    if (!mod->p && !mod->reported) {
        mod->reported = true;
        fflush(stdout);
        fprintf(stderr, "simtlab: %s\n", mod->error);
    }
    return mod->p;
}

void **__cudaRegisterFatBinary(void *fat_cubin)
{
    cudart *rt = rt_lock();
    const fatbin_wrapper *w = fat_cubin;
    rt_module *mod = ptx_xcalloc(1, sizeof *mod);
    mod->fatbin = w && (unsigned)w->magic == FATBIN_WRAPPER_MAGIC ? (const void *)w->data : NULL;
    parse_module(mod, rt->ptx_ext);
    PTX_GROW(rt->modules, rt->cap_modules, (uint64_t)rt->nmodules + 1);
    rt->modules[rt->nmodules++] = mod;
    rt_unlock(rt);
    return (void **)mod;
}

/* Registration of this fatbin's kernels and variables is complete: decode
 * it now so that managed variables have their addresses before main. */
void __cudaRegisterFatBinaryEnd(void **handle)
{
    cudart *rt = rt_lock();
    rt_decode(rt, (rt_module *)handle);
    rt_unlock(rt);
}

/* The fatbin's code is gone (a program's exit, or dlclose of a library):
 * free its decoded program and parsed PTX, keeping only the record that
 * its kernels and variables point to. Programs unregister in reverse
 * order, so the search starts from the newest module. */
void __cudaUnregisterFatBinary(void **handle)
{
    cudart *rt = rt_lock_at_exit();
    if (!rt)
        return;
    rt_flush_printf(rt);
    rt_module *mod = (rt_module *)handle;
    for (uint32_t i = rt->nmodules; i-- > 0;)
        if (rt->modules[i] == mod) {
            sim_program_free(mod->p);
            mod->p = NULL;
            ptx_module_free(mod->m);
            mod->m = NULL;
            free(mod->error);
            mod->error = ptx_strdup("the module was unregistered");
            mod->reported = true;
            break;
        }
    rt_unlock(rt);
}

void __cudaRegisterFunction(void **handle, const char *host_fun, char *device_fun, const char *device_name,
                            int thread_limit, void *tid, void *bid, void *bdim, void *gdim, int *wsize)
{
    cudart *rt = rt_lock();
    rt_kernel *k = ptx_xcalloc(1, sizeof *k);
    k->host_fun = host_fun;
    k->mod = (rt_module *)handle;
    k->name = ptx_strdup(device_name);
    k->max_dynamic_shared = -1;
    PTX_GROW(rt->kernels, rt->cap_kernels, (uint64_t)rt->nkernels + 1);
    rt->kernels[rt->nkernels++] = k;
    rt_unlock(rt);
}

/* Record a variable; managed ones get their address at decoding. */
static void register_var(void **handle, const void *host_var, const char *name, size_t size, bool managed)
{
    cudart *rt = rt_lock();
    PTX_GROW(rt->vars, rt->cap_vars, (uint64_t)rt->nvars + 1);
    rt->vars[rt->nvars++] = (rt_var){host_var, (rt_module *)handle, ptx_strdup(name), size, managed};
    rt_unlock(rt);
}

void __cudaRegisterVar(void **handle, char *host_var, char *device_address, const char *device_name, int ext,
                       size_t size, int constant, int global)
{
    register_var(handle, host_var, device_name, size, false);
}

void __cudaRegisterManagedVar(void **handle, void **host_var_ptr, char *device_address, const char *device_name,
                              int ext, size_t size, int constant, int global)
{
    register_var(handle, host_var_ptr, device_name, size, true);
}

/* Called before the host touches a managed variable: its module must be
 * decoded by then (it is, since registration ended). */
char __cudaInitModule(void **handle)
{
    cudart *rt = rt_lock();
    char ok = rt_program(rt, (rt_module *)handle) != NULL;
    rt_unlock(rt);
    return ok;
}

cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *host_fun)
{
    cudart *rt = rt_lock();
    rt_kernel *k = rt_find_kernel(rt, host_fun);
    if (!k || !kernel)
        return rt_return(rt, cudaErrorInvalidDeviceFunction);
    *kernel = (cudaKernel_t)k;
    rt_unlock(rt);
    return cudaSuccess;
}
