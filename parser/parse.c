/* parse.c — running the lexer and the grammar over one input.
 *
 * The grammar pulls tokens through ptx_yylex below, which also turns a
 * lexer error token (its message rides in the token, see lexer.h) into a
 * diagnostic at the point where the grammar reaches it, so messages come
 * out in input order. */
#include <stdlib.h>

#include "ir/util.h"
#include "parser/builder.h"
#include "parser/lexer.h"
#include "parser/parser.h"
#include "parser/ptx_lexer.h"
#include "parser/ptx_parser.h"

/* Where the grammar gets its tokens. */
typedef struct token_source {
    void *scanner;
    ptx_builder *b;
} token_source;

/* The grammar's token source (declared in ptx.y). */
int ptx_yylex(PTX_YYSTYPE *val, PTX_YYLTYPE *loc, void *src)
{
    token_source *s = src;
    int kind = ptxlexlex(val, loc, s->scanner);
    if (kind == T_LEXERROR) {
        ptxb_error(s->b, (ptxb_loc){val->err.line, val->err.col}, "%s", val->err.message);
        free(val->err.message);
        val->err.message = NULL;
    }
    return kind;
}

ptx_module *ptx_parse_buffer(char *text, size_t len, const char *name, ptx_diags *diags)
{
    ptx_builder *b = ptxb_new(name, len, diags);
    ptx_lexer_ctx ctx = {.b = b, .line = 1, .line_start = text, .sec_name = PTX_NONE};
    void *scanner;
    if (ptxlexlex_init_extra(&ctx, &scanner) != 0) {
        ptx_diag_add(diags, PTX_DIAG_ERROR, name, 0, 0, "cannot initialize the lexer");
        return ptxb_finish(b, false);
    }
    ptxlex_scan_buffer(text, len + 2, scanner); /* flex needs the last two as NUL */
    token_source src = {scanner, b};
    int rc = ptx_yyparse(&src, b);
    ptxlexlex_destroy(scanner);
    free(ctx.raw);
    return ptxb_finish(b, rc == 0);
}
