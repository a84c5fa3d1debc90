/* builtins.c — the functions CUDA's device runtime provides, called from
 * PTX as bodiless .extern .func: vprintf (device printf), malloc, free and
 * __assertfail (assert). Their arguments and results are the caller's
 * .param slots on each thread's stack.
 *
 * printf output goes to the CTA's buffer; the launch prints the buffers in
 * CTA order when it ends, so output is the same for any number of host
 * threads. Within a CTA lines appear in execution order (warps round-robin,
 * lanes in order). malloc carves the device heap (8 MiB unless
 * sim_heap_set_size says otherwise, made before the first launch of a
 * kernel that calls malloc or free); free accepts heap addresses and
 * does not recycle them. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emulator/internal.h"
#include "ir/util.h"

/* Bytes at frame slot `sym` (+off) of the running frame for lane t. */
static uint8_t *slot(sim_cta *c, uint32_t t, uint32_t sym)
{
    return c->local + (size_t)sim_thread(c, t) * c->local_bytes + c->frame_sp +
           c->prog->sym_value[sym];
}

/* Append formatted text to the CTA's printf buffer. */
static void out_printf(sim_cta *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out_printf(sim_cta *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char tmp[512];
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    char *big = NULL;
    if ((size_t)n >= sizeof tmp) {
        big = ptx_xmalloc((size_t)n + 1);
        va_start(ap, fmt);
        vsnprintf(big, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    PTX_GROW(c->printf_buf, c->printf_cap, (uint64_t)c->printf_len + (uint64_t)n + 1);
    memcpy(c->printf_buf + c->printf_len, big ? big : tmp, (size_t)n);
    c->printf_len += (uint32_t)n;
    c->printf_buf[c->printf_len] = 0;
    free(big);
}

/* A NUL-terminated guest string at generic address a (at most max-1
 * bytes); false after a fault. */
static bool read_string(sim_cta *c, const sim_inst *in, uint32_t t, uint64_t a, char *buf, size_t max)
{
    size_t i = 0;
    for (; i + 1 < max; i++) {
        const uint8_t *p = sim_mem(c, in, t, PTX_SPACE_NONE, a + i, 1, 1);
        if (!p)
            return false;
        buf[i] = (char)*p;
        if (!*p)
            return true;
    }
    buf[i] = 0;
    return true;
}

/* Read `size` bytes of the argument buffer at generic address *a, aligned
 * to size first. */
static bool next_arg(sim_cta *c, const sim_inst *in, uint32_t t, uint64_t *a, unsigned size, uint64_t *v)
{
    *a = (*a + size - 1) / size * size;
    const uint8_t *p = sim_mem(c, in, t, PTX_SPACE_NONE, *a, size, 1);
    if (!p)
        return false;
    *v = 0;
    memcpy(v, p, size);
    *a += size;
    return true;
}

/* vprintf(fmt, args) for lane t: C printf conversions with the argument
 * buffer nvcc builds (each value aligned to its size; float promoted to
 * double; strings and pointers as 64-bit generic addresses). Returns the
 * characters printed, or -1 after a fault. */
static int do_vprintf(sim_cta *c, const sim_inst *in, uint32_t t, uint64_t fmt_addr, uint64_t args)
{
    char fmt[4096];
    if (!read_string(c, in, t, fmt_addr, fmt, sizeof fmt))
        return -1;
    uint32_t start = c->printf_len;
    for (const char *p = fmt; *p;) {
        if (*p != '%') {
            const char *q = strchr(p, '%');
            size_t n = q ? (size_t)(q - p) : strlen(p);
            out_printf(c, "%.*s", (int)n, p);
            p += n;
            continue;
        }
        if (p[1] == '%') {
            out_printf(c, "%%");
            p += 2;
            continue;
        }
        /* one conversion: %[flags][width][.prec][length]conv */
        char spec[64];
        size_t n = 1;
        const char *q = p + 1;
        while (*q && strchr("-+ #0", *q))
            q++;
        while (*q >= '0' && *q <= '9')
            q++;
        if (*q == '.')
            for (q++; *q >= '0' && *q <= '9'; q++)
                ;
        int longs = 0;
        while (*q == 'l' || *q == 'h' || *q == 'z' || *q == 'j' || *q == 't' || *q == 'L') {
            longs += *q == 'l' || *q == 'z' || *q == 'j' || *q == 't';
            q++;
        }
        char conv = *q;
        n = (size_t)(q - p);
        if (!conv || n + 4 > sizeof spec) {
            out_printf(c, "%s", p);
            break;
        }
        memcpy(spec, p, n);
        /* rebuild without length modifiers, then add ours */
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (!strchr("lhzjtL", spec[i]))
                spec[k++] = spec[i];
        uint64_t v;
        switch (conv) {
        case 'd': case 'i': case 'u': case 'x': case 'X': case 'o': case 'c': {
            unsigned size = longs ? 8 : 4;
            if (!next_arg(c, in, t, &args, size, &v))
                return -1;
            spec[k++] = 'l';
            spec[k++] = 'l';
            spec[k++] = conv;
            spec[k] = 0;
            bool sg = conv == 'd' || conv == 'i';
            long long sv = size == 8 ? (long long)v : (long long)(int32_t)(uint32_t)v;
            unsigned long long uv = size == 8 ? v : (uint32_t)v;
            if (conv == 'c') {
                spec[k - 3] = 'c';
                spec[k - 2] = 0;
                out_printf(c, spec, (int)(unsigned char)v);
            } else if (sg) {
                out_printf(c, spec, sv);
            } else {
                out_printf(c, spec, uv);
            }
            break;
        }
        case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
            if (!next_arg(c, in, t, &args, 8, &v))
                return -1;
            double d;
            memcpy(&d, &v, 8);
            spec[k++] = conv;
            spec[k] = 0;
            out_printf(c, spec, d);
            break;
        }
        case 's': {
            if (!next_arg(c, in, t, &args, 8, &v))
                return -1;
            char str[2048];
            if (v == 0)
                strcpy(str, "(null)");
            else if (!read_string(c, in, t, v, str, sizeof str))
                return -1;
            spec[k++] = 's';
            spec[k] = 0;
            out_printf(c, spec, str);
            break;
        }
        case 'p':
            if (!next_arg(c, in, t, &args, 8, &v))
                return -1;
            out_printf(c, "0x%" PRIx64, v);
            break;
        default:
            out_printf(c, "%.*s", (int)(n + 1), p);
            break;
        }
        p = q + 1;
    }
    return (int)(c->printf_len - start);
}

void sim_builtin_call(sim_cta *c, const sim_inst *in, const sim_lanes *L, sim_step *s)
{
    const sim_program *p = c->prog;
    const ptx_function *callee = p->funcs[in->target].f;
    const char *name = ptx_function_name(p->m, callee);
    const uint32_t *rets = p->call_syms + in->ntargets, *args = rets + in->ndst;
    for (uint32_t i = 0; i < L->n; i++) {
        uint32_t t = L->t[i];
        uint64_t a[5] = {0};
        for (uint32_t k = 0; k < in->nsrc && k < 5; k++) {
            uint64_t size = ptx_symbol_size(&p->m->symbols[args[k]]);
            memcpy(&a[k], slot(c, t, args[k]), size < 8 ? size : 8);
        }
        uint64_t r = 0;
        if (strcmp(name, "vprintf") == 0 && in->nsrc == 2) {
            int n = do_vprintf(c, in, t, a[0], a[1]);
            if (n < 0)
                break;
            r = (uint64_t)(int64_t)n;
        } else if (strcmp(name, "malloc") == 0 && in->nsrc == 1) {
            r = a[0] ? sim_heap_alloc(c->dev, a[0]) : 0;
        } else if (strcmp(name, "free") == 0 && in->nsrc == 1) {
            const sim_device *d = c->dev;
            if (a[0] && (a[0] - d->heap_base >= d->heap_size)) {
                char who[96];
                sim_thread_coords(c, t, who, sizeof who);
                sim_fault(c, SIM_ERR_ADDRESS, "device free of 0x%llx, which malloc did not return, by %s, kernel %s, "
                          "PTX line %u", (unsigned long long)a[0], who, c->kernel, in->line);
                break;
            }
        } else if (strcmp(name, "__assertfail") == 0 && in->nsrc >= 4) {
            char msg[512], file[512], func[256], who[96];
            if (!read_string(c, in, t, a[0], msg, sizeof msg) ||
                !read_string(c, in, t, a[1], file, sizeof file) ||
                !read_string(c, in, t, a[3], func, sizeof func))
                break;
            sim_thread_coords(c, t, who, sizeof who);
            sim_fault(c, SIM_ERR_ASSERT, "%s:%u: %s: %s: assertion '%s' failed, kernel %s, PTX line %u", file,
                      (uint32_t)a[2], func, who, msg, c->kernel, in->line);
            break;
        } else {
            sim_fault(c, SIM_ERR_UNSUPPORTED, "call of %s, which has no body in the module and is not a function the "
                      "emulator provides (vprintf, malloc, free, __assertfail), kernel %s, PTX line %u",
                      name, c->kernel, in->line);
            break;
        }
        if (in->ndst > 0) {
            uint64_t size = ptx_symbol_size(&p->m->symbols[rets[0]]);
            memcpy(slot(c, t, rets[0]), &r, size < 8 ? size : 8);
        }
    }
    if (c->faulted)
        s->event = SIM_EV_FAULT;
}
