/* lexer.h — what the flex scanner (ptx.l) keeps besides the builder, and
 * the token interface between the scanner and the grammar.
 *
 * The scanner touches the builder only to intern names (strtab). Its errors
 * travel in T_LEXERROR tokens and are reported when the grammar consumes
 * them (parse.c), so messages come out in input order. */
#ifndef SIMTLAB_LEXER_H
#define SIMTLAB_LEXER_H

#include <stddef.h>
#include <stdint.h>

#include "parser/builder.h"

typedef struct ptx_lexer_ctx {
    ptx_builder *b;
    uint32_t line;           /* current line and where it starts in the */
    const char *line_start;  /* (in-place) input: token columns follow */
    uint32_t sec_name;       /* .section being read: its name and position */
    ptxb_loc sec_at;
    ptxb_loc comment_at;     /* where the open block comment starts */
    char *raw;               /* its body text so far */
    size_t nraw, cap_raw;
} ptx_lexer_ctx;

/* A lexer error: message (malloc'd) and where it is. It rides in the value
 * of a T_LEXERROR token; whoever consumes or discards the token frees it. */
typedef struct ptx_lex_error {
    char *message;
    uint32_t line, col;
} ptx_lex_error;

#endif
