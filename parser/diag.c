/* diag.c — collecting and printing diagnostics. */
#include "parser/diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ir/util.h"

/* Append one diagnostic, formatting its message; errors beyond max_errors are
 * counted but not stored, so a hostile input cannot exhaust memory. */
void ptx_diag_add(ptx_diags *d, ptx_severity sev, const char *file, uint32_t line,
                  uint32_t col, const char *fmt, ...)
{
    uint32_t limit = d->max_errors ? d->max_errors : 50;
    if (sev == PTX_DIAG_ERROR) {
        d->errors++;
        if (d->errors > limit) {
            d->dropped++;
            return;
        }
    }
    d->items = ptx_grow(d->items, &d->cap, d->count + 1, sizeof *d->items);
    ptx_diag *g = &d->items[d->count++];
    va_list ap;
    va_start(ap, fmt);
    g->message = ptx_vformat(fmt, ap);
    va_end(ap);
    g->file = file ? ptx_strdup(file) : NULL;
    g->line = line;
    g->col = col;
    g->severity = sev;
}

/* Print in the conventional compiler format so editors can jump to it. */
void ptx_diags_print(const ptx_diags *d, FILE *out)
{
    static const char *const names[] = {"error", "warning", "note"};
    for (uint32_t i = 0; i < d->count; i++) {
        const ptx_diag *g = &d->items[i];
        if (g->file && g->line)
            fprintf(out, "%s:%u:%u: ", g->file, g->line, g->col);
        else if (g->file)
            fprintf(out, "%s: ", g->file);
        fprintf(out, "%s: %s\n", names[g->severity], g->message);
    }
    if (d->dropped)
        fprintf(out, "note: %u more errors not shown\n", d->dropped);
}

void ptx_diags_free(ptx_diags *d)
{
    for (uint32_t i = 0; i < d->count; i++) {
        free(d->items[i].file);
        free(d->items[i].message);
    }
    free(d->items);
    memset(d, 0, sizeof *d);
}
