/* diag.h — diagnostics: errors and warnings with their file:line:col.
 * Every front-end error is collected here rather than printed at once, so
 * library users decide where messages go. */
#ifndef SIMTLAB_DIAG_H
#define SIMTLAB_DIAG_H

#include <stdint.h>
#include <stdio.h>

typedef enum ptx_severity { PTX_DIAG_ERROR, PTX_DIAG_WARNING, PTX_DIAG_NOTE } ptx_severity;

typedef struct ptx_diag {
    char *file;        /* may be NULL for errors without a file */
    uint32_t line, col;/* 1-based; 0 when unknown */
    ptx_severity severity;
    char *message;
} ptx_diag;

typedef struct ptx_diags {
    ptx_diag *items;
    uint32_t count, cap;
    uint32_t errors;
    uint32_t max_errors; /* stop recording errors after this many (0 = 50) */
    uint32_t dropped;    /* errors not recorded because of max_errors */
} ptx_diags;

/* Record a diagnostic; message formatted printf-style. */
void ptx_diag_add(ptx_diags *d, ptx_severity sev, const char *file, uint32_t line,
                  uint32_t col, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* Print all diagnostics as "file:line:col: error: message" lines. */
void ptx_diags_print(const ptx_diags *d, FILE *out);

void ptx_diags_free(ptx_diags *d);

#endif
