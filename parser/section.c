/* section.c — the contents of a `.section` block (DWARF data for
 * `.section .debug_*`), checked as ptxas 13 reads them.
 *
 * The lexer keeps a section's body as raw text (printed back unchanged);
 * this checks it, reporting the first error of a section at its line and
 * column. What ptxas accepts (tried on ptxas 13 with -arch=sm_90), which is
 * the PTX ISA's list of "dwarf-lines":
 *   - data directives .b8, .b16, .b32, .b64 and their aliases .byte, .4byte
 *     and .quad, each with a comma-separated list of integers (decimal,
 *     0x hex, 0b binary, 0 octal, an optional U suffix, an optional minus
 *     sign): .b8 takes -128..255, .b16 -32768..65535, .b32 from -2^31 (ptxas
 *     does not bound it above) and .b64 any 64-bit value;
 *   - in .b32 and .b64 only, one label operand: NAME, NAME + N or
 *     NAME - NAME, where NAME is an identifier or a section name
 *     (.debug_loc + 42); labels need not be defined;
 *   - label definitions `NAME:`, unique across every section of the module
 *     (ptxas: "Duplicate definition of label");
 *   - blanks, newlines and comments anywhere between tokens; several
 *     statements may share a line.
 * Other PTX types (.u8, .f32, .b128 ...) are "Illegal type for dwarf data";
 * strings, floats, expressions and semicolons are syntax errors. Integers
 * beyond 64 bits, which ptxas silently accepts, are refused as elsewhere in
 * simtlab. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ir/u64map.h"
#include "parser/builder_impl.h"

/* A position in a section's body. */
typedef struct sec_scan {
    ptx_builder *b;
    const char *p, *end;
    ptxb_loc at;
    const char *section; /* its name, for messages */
} sec_scan;

static bool ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$';
}

static bool ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '%';
}

static void advance(sec_scan *s, size_t n)
{
    for (; n && s->p < s->end; n--, s->p++) {
        if (*s->p == '\n') {
            s->at.line++;
            s->at.col = 1;
        } else {
            s->at.col++;
        }
    }
}

/* Report msg at `at`; false, so that callers can return it. */
static bool sec_error(sec_scan *s, ptxb_loc at, const char *what)
{
    ptxb_error(s->b, at, "in section %s: %s", s->section, what);
    return false;
}

/* Skip blanks, newlines and comments; false on an unterminated comment. */
static bool skip_blank(sec_scan *s)
{
    while (s->p < s->end) {
        char c = *s->p;
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' || c == '\n') {
            advance(s, 1);
        } else if (c == '/' && s->p + 1 < s->end && s->p[1] == '/') {
            while (s->p < s->end && *s->p != '\n')
                advance(s, 1);
        } else if (c == '/' && s->p + 1 < s->end && s->p[1] == '*') {
            ptxb_loc open = s->at;
            advance(s, 2);
            while (s->p < s->end && !(*s->p == '*' && s->p + 1 < s->end && s->p[1] == '/'))
                advance(s, 1);
            if (s->p >= s->end)
                return sec_error(s, open, "unterminated /* comment");
            advance(s, 2);
        } else {
            break;
        }
    }
    return true;
}

/* Length of the name at p: an identifier, or '.' and a letter-initial
 * word (a section name); 0 when none starts there. */
static size_t name_length(const sec_scan *s)
{
    const char *q = s->p;
    if (q < s->end && *q == '.') {
        q++;
        if (q >= s->end || !((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z')))
            return 0;
    } else if (q >= s->end || !ident_start(*q) || (*q == '%' && (q + 1 >= s->end || !ident_char(q[1])))) {
        return 0;
    }
    for (q++; q < s->end && ident_char(*q); q++)
        ;
    return (size_t)(q - s->p);
}

/* Length of the token at p, for messages: up to the next blank or comma. */
static int token_length(const sec_scan *s)
{
    const char *q = s->p;
    while (q < s->end && q - s->p < 40 && *q != ' ' && *q != '\t' && *q != '\n' && *q != '\r' && *q != ',')
        q++;
    return q > s->p ? (int)(q - s->p) : 1;
}

/* An unsigned integer literal at p into *v; false with an error. */
static bool read_literal(sec_scan *s, uint64_t *v)
{
    ptxb_loc at = s->at;
    const char *q = s->p, *digits;
    unsigned base = 10;
    if (q + 1 < s->end && q[0] == '0' && (q[1] == 'x' || q[1] == 'X'))
        base = 16, q += 2;
    else if (q + 1 < s->end && q[0] == '0' && (q[1] == 'b' || q[1] == 'B'))
        base = 2, q += 2;
    else if (q < s->end && q[0] == '0')
        base = 8;
    digits = q;
    uint64_t x = 0;
    bool overflow = false;
    for (; q < s->end; q++) {
        char c = *q;
        unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0')
                     : (c | 0x20) >= 'a' && (c | 0x20) <= 'f' ? (unsigned)((c | 0x20) - 'a' + 10) : 99;
        if (d >= base)
            break;
        overflow |= x > (UINT64_MAX - d) / base;
        x = x * base + d;
    }
    if (q < s->end && *q == 'U') /* ptxas takes the upper-case suffix only here */
        q++;
    bool bad = (base != 8 && q == digits) || (q < s->end && (ident_char(*q) || *q == '.'));
    char text[64];
    snprintf(text, sizeof text, "%.*s", token_length(s), s->p);
    if (bad || overflow) {
        ptxb_error(s->b, at, "in section %s: %s '%s'", s->section,
                   bad ? "malformed integer" : "integer does not fit in 64 bits:", text);
        return false;
    }
    advance(s, (size_t)(q - s->p));
    *v = x;
    return true;
}

/* A comma-separated list of integers for a directive of `bytes` bytes,
 * each in the range ptxas allows. */
static bool integer_list(sec_scan *s, unsigned bytes, const char *dir)
{
    static const uint64_t neg_max[9] = {0, 128, 32768, 0, 1ull << 31, 0, 0, 0, INT64_MAX};
    for (;;) {
        ptxb_loc at = s->at;
        bool neg = *s->p == '-';
        if (neg) {
            advance(s, 1);
            if (!skip_blank(s))
                return false;
        }
        if (s->p >= s->end || *s->p < '0' || *s->p > '9')
            return sec_error(s, at, neg ? "expected a number after '-'" : "expected a number");
        uint64_t v;
        if (!read_literal(s, &v))
            return false;
        bool over = neg ? v > neg_max[bytes] : bytes < 4 && v >> (8 * bytes);
        if (over) {
            ptxb_error(s->b, at, "in section %s: value %s%llu is out of range for %s (%s)", s->section, neg ? "-" : "",
                       (unsigned long long)v, dir,
                       bytes == 1 ? "-128..255" : bytes == 2 ? "-32768..65535"
                       : bytes == 4 ? "at least -2147483648" : "at least -9223372036854775807");
            return false;
        }
        if (!skip_blank(s))
            return false;
        if (s->p >= s->end || *s->p != ',')
            return true;
        advance(s, 1);
        if (!skip_blank(s))
            return false;
        if (s->p >= s->end)
            return sec_error(s, s->at, "expected a number after ','");
    }
}

/* One label operand of .b32/.b64: NAME, NAME + N or NAME - NAME. */
static bool label_operand(sec_scan *s, unsigned bytes, const char *dir)
{
    if (bytes < 4)
        return sec_error(s, s->at, bytes == 1 ? "a label needs .b32 or .b64 data, not .b8"
                                              : "a label needs .b32 or .b64 data, not .b16");
    advance(s, name_length(s));
    if (!skip_blank(s))
        return false;
    if (s->p < s->end && (*s->p == '+' || *s->p == '-')) {
        bool plus = *s->p == '+';
        advance(s, 1);
        if (!skip_blank(s))
            return false;
        uint64_t v;
        if (plus) {
            if (s->p >= s->end || *s->p < '0' || *s->p > '9')
                return sec_error(s, s->at, "expected a non-negative offset after 'label +'");
            if (!read_literal(s, &v))
                return false;
        } else {
            size_t n = name_length(s);
            if (!n)
                return sec_error(s, s->at, "expected a label after 'label -' (a difference is NAME - NAME; an "
                                           "offset is NAME + N)");
            advance(s, n);
        }
        if (!skip_blank(s))
            return false;
    }
    if (s->p < s->end && *s->p == ',') {
        ptxb_error(s->b, s->at, "in section %s: %s takes one label operand, not a list", s->section, dir);
        return false;
    }
    return true;
}

/* Bytes of a data directive's values (.b8 .. .b64 and ptxas's aliases),
 * or 0. */
static unsigned directive_bytes(const char *w, size_t n)
{
    static const struct { const char *name; unsigned bytes; } dirs[] = {
        {".b8", 1}, {".byte", 1}, {".b16", 2}, {".b32", 4}, {".4byte", 4}, {".b64", 8}, {".quad", 8}};
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++)
        if (strlen(dirs[i].name) == n && memcmp(dirs[i].name, w, n) == 0)
            return dirs[i].bytes;
    return 0;
}

/* A label definition NAME (at `at`, n bytes): unique in the module's
 * sections. */
static void define_label(sec_scan *s, const char *name, size_t n, ptxb_loc at)
{
    uint32_t id = ptxb_intern(s->b, name, n);
    uint64_t packed = (uint64_t)at.line << 32 | at.col;
    uint64_t *first = ptx_u64map_slot(&s->b->section_labels, id, packed);
    if (*first != packed)
        ptxb_error(s->b, at, "in section %s: duplicate definition of label '%.*s' (first at line %u)", s->section,
                   (int)n, name, (uint32_t)(*first >> 32));
}

/* One statement at p: a label definition or a data directive. */
static bool statement(sec_scan *s)
{
    ptxb_loc at = s->at;
    const char *w = s->p;
    char c = *s->p;
    if (c == '.') {
        size_t n = 1;
        while (w + n < s->end && ident_char(w[n]))
            n++;
        unsigned bytes = directive_bytes(w, n);
        char dir[48];
        snprintf(dir, sizeof dir, "%.*s", n < 40 ? (int)n : 40, w);
        if (!bytes) {
            static const char *const types[] = {".u8", ".s8", ".u16", ".s16", ".u32", ".s32", ".u64", ".s64",
                                                ".f16", ".f16x2", ".bf16", ".bf16x2", ".f32", ".f64", ".b128",
                                                ".pred", ".tf32", ".e4m3", ".e5m2"};
            for (size_t i = 0; i < sizeof types / sizeof *types; i++)
                if (strcmp(types[i], dir) == 0) {
                    ptxb_error(s->b, at, "in section %s: %s cannot hold data here: use .b8, .b16, .b32 or .b64",
                               s->section, dir);
                    return false;
                }
            ptxb_error(s->b, at, "in section %s: unknown directive '%s' (a section holds .b8, .b16, .b32 and .b64 "
                       "data and labels)", s->section, dir);
            return false;
        }
        advance(s, n);
        if (!skip_blank(s))
            return false;
        if (s->p >= s->end)
            return sec_error(s, at, "a data directive without a value");
        if (*s->p == '-' || (*s->p >= '0' && *s->p <= '9'))
            return integer_list(s, bytes, dir);
        if (name_length(s))
            return label_operand(s, bytes, dir);
        ptxb_error(s->b, s->at, "in section %s: %s takes integers or one label, not '%.*s'", s->section, dir,
                   token_length(s), s->p);
        return false;
    }
    size_t n = name_length(s);
    if (n && c != '.') {
        advance(s, n);
        if (!skip_blank(s))
            return false;
        if (s->p < s->end && *s->p == ':') {
            define_label(s, w, n, at);
            advance(s, 1);
            return true;
        }
        ptxb_error(s->b, at, "in section %s: '%.*s' is neither a label definition (NAME:) nor a data directive",
                   s->section, (int)n, w);
        return false;
    }
    if (c == '-' || (c >= '0' && c <= '9'))
        ptxb_error(s->b, at, "in section %s: a value outside a list ('%.*s'): separate a list's values with ','",
                   s->section, token_length(s), s->p);
    else
        ptxb_error(s->b, at, "in section %s: unexpected '%.*s'", s->section, token_length(s), s->p);
    return false;
}

void ptxb_section_check(ptx_builder *b, uint32_t name, const char *text, size_t len, ptxb_loc body)
{
    sec_scan s = {b, text, text + len, body, ptxb_str(b, name)};
    while (skip_blank(&s) && s.p < s.end && statement(&s))
        ;
}
