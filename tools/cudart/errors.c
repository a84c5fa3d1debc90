/* errors.c — error codes, their names and strings, and the last error. */
#include "tools/cudart/runtime.h"

/* The entry of errors.def for code e, or NULL. */
static const struct error_text {
    int code;
    const char *name, *text;
} *lookup(cudaError_t e)
{
    static const struct error_text table[] = {
#define X(code, name, text) {code, #name, text},
#include "tools/cudart/errors.def"
#undef X
    };
    for (size_t i = 0; i < sizeof table / sizeof *table; i++)
        if (table[i].code == e)
            return &table[i];
    return NULL;
}

const char *rt_error_name(cudaError_t e)
{
    const struct error_text *t = lookup(e);
    return t ? t->name : "unrecognized error code";
}

const char *cudaGetErrorName(cudaError_t e)
{
    return rt_error_name(e);
}

const char *cudaGetErrorString(cudaError_t e)
{
    const struct error_text *t = lookup(e);
    return t ? t->text : "unrecognized error code";
}
/* The last error, which the call resets unless a device fault made it
 * sticky. */
cudaError_t cudaGetLastError(void)
{
    cudart *rt = rt_lock();
    cudaError_t e = rt->sticky_error ? rt->sticky_error : rt->last_error;
    rt->last_error = rt->sticky_error;
    rt_unlock(rt);
    return e;
}

cudaError_t cudaPeekAtLastError(void)
{
    cudart *rt = rt_lock();
    cudaError_t e = rt->sticky_error ? rt->sticky_error : rt->last_error;
    rt_unlock(rt);
    return e;
}
