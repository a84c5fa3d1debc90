/* fuzz_parse.c — libFuzzer harness for the PTX front-end.
 *
 * Every input is handed to the parser as PTX text (with simtlab's
 * extensions of PTX enabled when the text names them: "simtlab" appears in
 * it); the parser must
 * return a module or NULL with diagnostics, and every module it returns is
 * analyzed and its kernels emulated (one small block, parameters pointing
 * at a small buffer, a short instruction limit): never a crash, hang, leak
 * or sanitizer report — a guest bug is a launch error. Built only with
 * -Dfuzz=true and clang (see README.md). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "emulator/sim.h"
#include "ir/ir.h"
#include "parser/diag.h"
#include "parser/parser.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Launch every kernel of m once on 40 threads; each parameter byte points
 * into (or is taken from) a 256-byte buffer. Errors are expected. */
static void emulate(const ptx_module *m)
{
    char err[512];
    sim_device *d = sim_device_new();
    sim_program *p = sim_program_new(d, m, err, sizeof err);
    uint64_t buf = 0;
    if (p && sim_malloc(d, 256, "fuzz", &buf, err, sizeof err) == 0) {
        for (uint32_t i = 0; i < m->nfunctions; i++) {
            const ptx_function *f = &m->functions[i];
            if (f->kind != PTX_FUNC_ENTRY || !(f->flags & PTX_FUNCF_HAS_BODY))
                continue;
            const char *name = ptx_function_name(m, f);
            uint32_t n, bytes;
            const sim_param_info *pi = sim_kernel_params(p, name, &n, &bytes, err, sizeof err);
            if (!pi || bytes > 4096)
                continue;
            uint8_t params[4096] = {0};
            for (uint32_t k = 0; k < n; k++)
                if (pi[k].size == 8)
                    memcpy(params + pi[k].offset, &buf, 8);
            for (int its = 0; its < 2; its++) {
                sim_launch_config cfg = {.grid = {2, 1, 1}, .block = {40, 1, 1}, .host_threads = 1,
                                         .max_instructions = 20000, .independent_scheduling = its};
                FILE *devnull = fopen("/dev/null", "w");
                cfg.printf_out = devnull;
                sim_launch(d, p, name, &cfg, params, bytes, NULL, err, sizeof err);
                if (devnull)
                    fclose(devnull);
            }
        }
    }
    sim_program_free(p);
    sim_device_free(d);
}

/* One fuzz input: copy it into a buffer with the trailing NUL padding the
 * in-place lexer needs (libFuzzer's own buffer must not be written), parse,
 * and release everything so leaks show up in LeakSanitizer. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + PTX_PARSE_PADDING);
    if (!text)
        return 0;
    if (size)
        memcpy(text, data, size);
    memset(text + size, 0, PTX_PARSE_PADDING);
    ptx_diags diags = {0};
    ptx_parse_options opts = {.extensions = strstr(text, "simtlab") ? PTX_EXT_SIMTLAB : 0};
    ptx_module *m = ptx_parse_buffer_opts(text, size, "fuzz.ptx", &opts, &diags);
    if (m) { /* whatever parses must also analyze and run */
        ptx_annotations a;
        ptx_analyze_module(m, NULL, &a);
        ptx_annotations_free(&a);
        emulate(m);
    }
    ptx_module_free(m);
    ptx_diags_free(&diags);
    free(text);
    return 0;
}
