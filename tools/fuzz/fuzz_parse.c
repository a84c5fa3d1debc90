/* fuzz_parse.c — libFuzzer harness for the PTX front-end.
 *
 * Every input is handed to ptx_parse_buffer as PTX text; the parser must
 * return a module or NULL with diagnostics, and every module it returns is
 * analyzed: never a crash, hang, leak or sanitizer report. Built only with
 * -Dfuzz=true and clang (see README.md). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "ir/ir.h"
#include "parser/diag.h"
#include "parser/parser.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
    ptx_module *m = ptx_parse_buffer(text, size, "fuzz.ptx", &diags);
    if (m) { /* whatever parses must also analyze */
        ptx_annotations a;
        ptx_analyze_module(m, NULL, &a);
        ptx_annotations_free(&a);
    }
    ptx_module_free(m);
    ptx_diags_free(&diags);
    free(text);
    return 0;
}
