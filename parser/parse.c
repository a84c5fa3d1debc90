/* parse.c — running the lexer and the grammar over one input. */
#include <stdlib.h>
#include <string.h>

#include "ir/util.h"
#include "parser/builder.h"
#include "parser/lexer.h"
#include "parser/parser.h"
#include "parser/ptx_lexer.h"
#include "parser/ptx_parser.h"

ptx_module *ptx_parse_buffer_opts(char *text, size_t len, const char *name, const ptx_parse_options *opts,
                                  ptx_diags *diags)
{
    ptx_builder *b = ptxb_new(name, len, diags);
    ptxb_set_extensions(b, opts ? opts->extensions : 0);
    ptx_lexer_ctx ctx = {.b = b, .line = 1, .line_start = text, .sec_name = PTX_NONE};
    void *scanner;
    if (ptx_yylex_init_extra(&ctx, &scanner) != 0) {
        ptx_diag_add(diags, PTX_DIAG_ERROR, name, 0, 0, "cannot initialize the lexer");
        return ptxb_finish(b, false);
    }
    ptx_yy_scan_buffer(text, len + 2, scanner); /* flex needs the last two as NUL */
    int rc = ptx_yyparse(scanner, b);
    ptx_yylex_destroy(scanner);
    free(ctx.raw);
    free(ctx.err.message);
    return ptxb_finish(b, rc == 0);
}

ptx_module *ptx_parse_buffer(char *text, size_t len, const char *name, ptx_diags *diags)
{
    return ptx_parse_buffer_opts(text, len, name, NULL, diags);
}

/* The one extension name there is: "simtlab". */
bool ptx_ext_parse(const char *name, unsigned *ext)
{
    if (!name || strcmp(name, "simtlab") != 0)
        return false;
    *ext |= PTX_EXT_SIMTLAB;
    return true;
}
