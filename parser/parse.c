/* parse.c — running the lexer and the grammar over one input. */
#include <stdlib.h>

#include "ir/util.h"
#include "parser/builder.h"
#include "parser/lexer.h"
#include "parser/parser.h"
#include "parser/ptx_lexer.h"
#include "parser/ptx_parser.h"

ptx_module *ptx_parse_buffer(char *text, size_t len, const char *name, ptx_diags *diags)
{
    ptx_builder *b = ptxb_new(name, len, diags);
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
