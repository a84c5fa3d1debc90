/* lexer.h — what the flex scanner (ptx.l) keeps besides the builder, and
 * the token interface between the scanner and the grammar.
 *
 * The scanner touches the builder only to intern names (strtab). On an
 * error it returns T_LEXERROR and keeps the message here; the grammar
 * reports it when that token stops the parse, so messages come out in
 * input order. */
#ifndef SIMTLAB_LEXER_H
#define SIMTLAB_LEXER_H

#include <stddef.h>
#include <stdint.h>

#include "parser/builder.h"

/* A lexer error: message (malloc'd) and where it is. */
typedef struct ptx_lex_error {
    char *message;
    uint32_t line, col;
} ptx_lex_error;

typedef struct ptx_lexer_ctx {
    ptx_builder *b;
    uint32_t line;           /* current line and where it starts in the */
    const char *line_start;  /* (in-place) input: token columns follow */
    uint32_t sec_name;       /* .section being read: its name and position */
    ptxb_loc sec_at;
    ptxb_loc sec_body;       /* where its body starts (after the '{') */
    ptxb_loc comment_at;     /* where the open block comment starts */
    char *raw;               /* its body text so far */
    size_t nraw, cap_raw;
    ptx_lex_error err;       /* the error behind the last T_LEXERROR */
} ptx_lexer_ctx;

/* The context of a scanner (flex's accessor). */
ptx_lexer_ctx *ptx_yyget_extra(void *scanner);

#endif
