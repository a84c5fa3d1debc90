/* test_bad_input.c — the parser on malformed and hostile input.
 *
 * Every malformed input must be rejected: the parse returns NULL with at
 * least one error, and the first error sits at the line:col worked out by
 * hand from the input (lines and columns are 1-based and count bytes; a tab
 * is one column) with a message that names the problem. Hostile inputs —
 * binary garbage, a real file cut at every token and every byte, a 10 MB
 * line, 100000 nested braces — must give an error with a location inside
 * the input, never a crash, a hang or a silent success. The command-line
 * program must turn invalid input into exit status 1 and FILE:LINE:COL:
 * messages.
 *
 * Tests of known parser bugs are kept here but skipped (each says "known
 * bug: ..."); set SIMTLAB_RUN_KNOWN_BUGS=1 to run them once the parser is
 * fixed, then drop the known_bug() call. The inputs that made the fuzzer
 * (tools/fuzz) fail are replayed from tools/fuzz/regressions/parse/. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ir/ir.h"
#include "parser/diag.h"
#include "parser/parser.h"
#include "parser/tests/ptx_test.h"

/* A kernel that declares the registers the snippets use; the body starts
 * on line BODY_LINE, column 1. */
#define KHEAD                                                                 \
    ".version 8.0\n.target sm_80\n.address_size 64\n.entry k()\n{\n"          \
    ".reg .b32 %r<10>;\n.reg .b64 %rd<10>;\n.reg .f32 %f<10>;\n"              \
    ".reg .f64 %fd<10>;\n.reg .pred %p<4>;\n"
#define KTAIL "}\n"
#define KERNEL(body) KHEAD body KTAIL
enum { BODY_LINE = 11 };

/* The module header alone: the next line is line 3. */
#define MHEAD ".version 8.0\n.target sm_80\n"

/* ---- helpers ------------------------------------------------------------ */

/* Skips the calling test as a known parser bug unless SIMTLAB_RUN_KNOWN_BUGS
 * is set (to check a fix). */
static void known_bug(const char *what)
{
    const char *run = getenv("SIMTLAB_RUN_KNOWN_BUGS");
    if (run && *run && strcmp(run, "0") != 0)
        return;
    print_message("known bug: %s\n", what);
    skip();
}

/* The first diagnostic of severity error, or NULL. */
static const ptx_diag *first_error(const ptx_diags *d)
{
    for (uint32_t i = 0; i < d->count; i++)
        if (d->items[i].severity == PTX_DIAG_ERROR)
            return &d->items[i];
    return NULL;
}

/* Prints every diagnostic, to explain a failed expectation. */
static void show_diags(const ptx_diags *d)
{
    for (uint32_t i = 0; i < d->count && i < 10; i++)
        print_message("  diag %u: %u:%u: %s\n", i, d->items[i].line, d->items[i].col,
                      d->items[i].message);
}

/* Parses len bytes of text (copied, so the input may hold NULs). */
static ptx_module *parse_n(const char *text, size_t len, ptx_diags *d)
{
    return ptx_parse_string(text, len, "bad.ptx", d);
}

/* Expects text to be rejected with its first error at line:col (0: any
 * line or column) whose message contains needle (NULL: any non-empty one). */
static void expect_error_n(const char *text, size_t len, uint32_t line, uint32_t col,
                           const char *needle)
{
    ptx_diags d = {0};
    ptx_module *m = parse_n(text, len, &d);
    if (m) {
        ptx_module_free(m);
        ptx_diags_free(&d);
        fail_msg("parse succeeded; expected an error at %u:%u (%s)", line, col,
                 needle ? needle : "any message");
    }
    const ptx_diag *e = first_error(&d);
    if (!e || d.errors == 0) {
        ptx_diags_free(&d);
        fail_msg("parse failed without reporting an error");
    }
    if ((line && e->line != line) || (col && e->col != col) || !e->message || !e->message[0] ||
        (needle && !strstr(e->message, needle))) {
        show_diags(&d);
        print_message("expected %u:%u containing \"%s\"\n", line, col, needle ? needle : "");
        ptx_diags_free(&d);
        fail_msg("wrong first error");
    }
    ptx_diags_free(&d);
}

/* expect_error_n for a NUL-terminated text. */
static void expect_error(const char *text, uint32_t line, uint32_t col, const char *needle)
{
    expect_error_n(text, strlen(text), line, col, needle);
}

/* Expects text to parse; prints the diagnostics otherwise. */
static void expect_ok(const char *text)
{
    ptx_diags d = {0};
    ptx_module *m = parse_n(text, strlen(text), &d);
    if (!m)
        show_diags(&d);
    ptx_diags_free(&d);
    assert_non_null(m);
    ptx_module_free(m);
}

/* Is line:col inside len bytes of text? Allows the position just past the
 * end of a line (where "unexpected end of file" points). */
static int location_inside(const char *text, size_t len, uint32_t line, uint32_t col)
{
    if (line < 1 || col < 1)
        return 0;
    uint32_t cur = 1;
    size_t start = 0;
    for (size_t i = 0; i < len && cur < line; i++)
        if (text[i] == '\n') {
            cur++;
            start = i + 1;
        }
    if (cur != line)
        return 0;
    size_t end = start;
    while (end < len && text[end] != '\n')
        end++;
    return col <= end - start + 1;
}

/* Parses len bytes; on failure checks that the first error lies inside the
 * input with a message. Returns 1 if the parse succeeded. */
static int parse_fails_cleanly_or_succeeds(const char *text, size_t len)
{
    ptx_diags d = {0};
    ptx_module *m = parse_n(text, len, &d);
    if (m) {
        ptx_module_free(m);
        ptx_diags_free(&d);
        return 1;
    }
    const ptx_diag *e = first_error(&d);
    if (!e || !e->message || !e->message[0] || !location_inside(text, len, e->line, e->col)) {
        show_diags(&d);
        print_message("input (%zu bytes): %.*s\n", len, (int)(len < 400 ? len : 400), text);
        ptx_diags_free(&d);
        fail_msg("failed parse without a located error inside the input");
    }
    ptx_diags_free(&d);
    return 0;
}

/* Small deterministic PRNG (xorshift64*), state passed explicitly. */
static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}

/* Reads a whole file under SIMTLAB_TESTDATA; *len gets its size. */
static char *read_testdata(const char *rel, size_t *len)
{
    const char *dir = getenv("SIMTLAB_TESTDATA");
    assert_non_null(dir);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    long n = ftell(f);
    assert_true(n >= 0);
    rewind(f);
    char *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return buf;
}

/* Byte count of a NUL-terminated text, as size_t (for literal inputs). */
#define LIT(s) (s), (sizeof(s) - 1)

/* ---- empty and blank input ------------------------------------------------ */

/* An empty file has no .version: reported at 1:1. */
static void test_empty_file(void **state)
{
    (void)state;
    expect_error("", 1, 1, "missing .version directive");
    /* the in-place entry point with a zero-length buffer */
    char buf[PTX_PARSE_PADDING] = {0};
    ptx_diags d = {0};
    ptx_module *m = ptx_parse_buffer(buf, 0, "empty.ptx", &d);
    assert_null(m);
    assert_true(d.errors >= 1);
    assert_int_equal(first_error(&d)->line, 1);
    ptx_diags_free(&d);
}

/* Only blanks and comments: still no .version (or no .target). */
static void test_only_whitespace_and_comments(void **state)
{
    (void)state;
    expect_error("   \n\t\n\r\n  ", 1, 1, "missing .version directive");
    expect_error("// a comment\n/* a block\n   comment */\n\n", 1, 1,
                 "missing .version directive");
    expect_error(".version 8.0\n// no target\n", 1, 1, "missing .target directive");
}

/* ---- binary garbage --------------------------------------------------------- */

/* Random bytes (fixed seeds). The first byte of the main sample is forced
 * to be >= 0x80, so the first error is that byte at 1:1; hundreds of other
 * random buffers must each fail with an error located inside them. */
static void test_random_bytes(void **state)
{
    (void)state;
    uint64_t s = 0x5eed5eed12345678ull;
    enum { N = 4096 };
    char *buf = malloc(N);
    assert_non_null(buf);
    for (size_t i = 0; i < N; i++)
        buf[i] = (char)(rng_next(&s) >> 56);
    buf[0] = (char)((unsigned char)buf[0] | 0x80);
    char want[64];
    snprintf(want, sizeof want, "unexpected byte 0x%02x", (unsigned char)buf[0]);
    expect_error_n(buf, N, 1, 1, want);
    for (int round = 0; round < 300; round++) {
        size_t len = 1 + (size_t)(rng_next(&s) % N);
        for (size_t i = 0; i < len; i++)
            buf[i] = (char)(rng_next(&s) >> 56);
        assert_int_equal(parse_fails_cleanly_or_succeeds(buf, len), 0);
    }
    free(buf);
}

/* NUL bytes inside the text are errors at their own position. */
static void test_nul_bytes(void **state)
{
    (void)state;
    expect_error_n(LIT(".version 8.0\n\0\0.target sm_80\n"), 2, 1, "unexpected byte 0x00");
    char zeros[64] = {0};
    expect_error_n(zeros, sizeof zeros, 1, 1, "unexpected byte 0x00");
    /* a NUL in the middle of an instruction */
    expect_error_n(LIT(KHEAD "  add.s32 %r1,\0 %r2, %r3;\n" KTAIL), BODY_LINE, 15,
                   "unexpected byte 0x00");
}

/* Bytes that are not ASCII are rejected outside comments and strings;
 * inside them any byte (valid UTF-8 or not) is fine. */
static void test_invalid_utf8(void **state)
{
    (void)state;
    expect_error(".version 8.0\n.target sm_80 \xff\xfe\n", 2, 15, "unexpected byte 0xff");
    /* "café" as an identifier: the lexer stops at the first non-ASCII byte */
    expect_error(MHEAD ".global .b32 caf\xc3\xa9;\n", 3, 17, "unexpected byte 0xc3");
    /* an overlong encoding of '/' and a lone continuation byte */
    expect_error(MHEAD "\xc0\xaf\n", 3, 1, "unexpected byte 0xc0");
    expect_error(MHEAD "  \x80", 3, 3, "unexpected byte 0x80");
    /* control: such bytes in comments and strings are accepted */
    expect_ok(MHEAD "// caf\xc3\xa9 \xff\xfe\n/* \x80\x81\xc0 */\n.pragma \"\xff\xc3\";\n");
    /* ASCII control characters and DEL */
    expect_error(MHEAD "\x01", 3, 1, "unexpected byte 0x01");
    expect_error(MHEAD "\x7f", 3, 1, "unexpected");
}

/* A CUDA ELF header handed to the text parser is garbage too. */
static void test_elf_magic_as_text(void **state)
{
    (void)state;
    expect_error_n(LIT("\x7f" "ELF\x02\x01\x01\0\0\0\0"), 1, 1, "unexpected");
}

/* ---- a real file cut short -------------------------------------------------- */

/* Where may a prefix of a real file be a complete module? Scans text[0..cut)
 * skipping comments; true when the prefix is outside any { } and comment and
 * its last significant character ends a top-level item: a ';' or '}', or a
 * .version/.target/.address_size line. With `strict`, that line must also
 * be complete in the full text (nothing significant follows on it), as at
 * token boundaries; cutting bytes can leave a shorter valid directive. */
static int may_succeed(const char *text, size_t full, size_t cut, int strict)
{
    int depth = 0, in_block = 0, in_line = 0, in_str = 0;
    size_t last = (size_t)-1;
    for (size_t i = 0; i < cut; i++) {
        char c = text[i];
        if (in_line) {
            if (c == '\n')
                in_line = 0;
        } else if (in_block) {
            if (c == '*' && i + 1 < cut && text[i + 1] == '/') {
                in_block = 0;
                i++;
            }
        } else if (in_str) {
            if (c == '\\')
                i++;
            else if (c == '"' || c == '\n')
                in_str = 0;
            last = i;
        } else if (c == '/' && i + 1 < cut && text[i + 1] == '/') {
            in_line = 1;
        } else if (c == '/' && i + 1 < cut && text[i + 1] == '*') {
            in_block = 1;
            i++;
        } else if (c == '"') {
            in_str = 1;
            last = i;
        } else if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
            if (c == '{')
                depth++;
            else if (c == '}')
                depth--;
            last = i;
        }
    }
    if (depth != 0 || in_block || in_str || last == (size_t)-1)
        return 0;
    if (text[last] == ';' || text[last] == '}')
        return 1;
    size_t sol = last;
    while (sol > 0 && text[sol - 1] != '\n')
        sol--;
    while (text[sol] == ' ' || text[sol] == '\t')
        sol++;
    if (strncmp(text + sol, ".version", 8) != 0 && strncmp(text + sol, ".target", 7) != 0 &&
        strncmp(text + sol, ".address_size", 13) != 0)
        return 0;
    if (!strict)
        return 1;
    for (size_t i = last + 1; i < full && text[i] != '\n'; i++) {
        if (text[i] == '/' && i + 1 < full && text[i + 1] == '/')
            break;
        if (text[i] != ' ' && text[i] != '\t' && text[i] != '\r')
            return 0;
    }
    return 1;
}

/* Character class for rough tokenization: 0 blank, 1 word, 2 punctuation
 * (each punctuation character is a token of its own). */
static int char_class(char c)
{
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
        return 0;
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
        c == '_' || c == '$' || c == '%')
        return 1;
    return 2;
}

/* Offset just past the end of the significant text of the line holding
 * `needle` (first occurrence at or after `from`). */
static size_t end_of_line_with(const char *text, size_t from, const char *needle)
{
    const char *p = strstr(text + from, needle);
    assert_non_null(p);
    const char *e = strchr(p, '\n');
    return (size_t)((e ? e : p + strlen(p)) - text);
}

/* Cuts a real nvcc-generated file at every token boundary. Each prefix must
 * either fail with a located error inside it, or succeed; it succeeds
 * exactly when it ends after a complete top-level item that follows the
 * .target line. The whole file and the file up to its first function's '}'
 * must parse; the file without its final '}' must not. */
static void truncate_at_tokens(const char *rel)
{
    size_t len;
    char *text = read_testdata(rel, &len);
    size_t target_end = end_of_line_with(text, 0, ".target");
    unsigned nprefix = 0, nok = 0;
    for (size_t cut = 0; cut <= len; cut++) {
        int boundary = cut == 0 || cut == len || char_class(text[cut]) == 2 ||
                       char_class(text[cut - 1]) == 2 ||
                       char_class(text[cut]) != char_class(text[cut - 1]);
        if (!boundary)
            continue;
        nprefix++;
        int ok = parse_fails_cleanly_or_succeeds(text, cut);
        int want = cut >= target_end && may_succeed(text, len, cut, 1);
        if (ok != want)
            fail_msg("%s cut at byte %zu (...%.*s|): parse %s, expected it to %s", rel, cut,
                     (int)(cut < 40 ? cut : 40), text + cut - (cut < 40 ? cut : 40),
                     ok ? "succeeded" : "failed", want ? "succeed" : "fail");
        nok += (unsigned)ok;
    }
    print_message("%s: %u prefixes, %u parse\n", rel, nprefix, nok);
    assert_true(nprefix > 100);
    assert_true(nok >= 2);
    /* explicit anchors */
    assert_int_equal(parse_fails_cleanly_or_succeeds(text, len), 1);
    const char *first_close = strstr(text, "\n}\n");
    assert_non_null(first_close);
    assert_int_equal(parse_fails_cleanly_or_succeeds(text, (size_t)(first_close - text) + 2), 1);
    const char *last_close = strrchr(text, '}');
    assert_non_null(last_close);
    assert_int_equal(parse_fails_cleanly_or_succeeds(text, (size_t)(last_close - text)), 0);
    free(text);
}

/* Two real files from testdata/bin cut at every token boundary. */
static void test_truncated_at_tokens(void **state)
{
    (void)state;
    truncate_at_tokens("bin/sample.compute_80.ptx");
    truncate_at_tokens("bin/sample_b.compute_90.ptx");
}

/* Cuts a small real file at every byte: no crash, a located error, and a
 * success only where a top-level item is complete. */
static void test_truncated_at_every_byte(void **state)
{
    (void)state;
    size_t len;
    char *text = read_testdata("bin/sample_b.compute_80.ptx", &len);
    unsigned nok = 0;
    for (size_t cut = 0; cut <= len; cut++) {
        int ok = parse_fails_cleanly_or_succeeds(text, cut);
        if (ok && !may_succeed(text, len, cut, 0))
            fail_msg("prefix of %zu bytes parsed but ends inside an item", cut);
        nok += (unsigned)ok;
    }
    assert_true(nok >= 2);
    free(text);
}

/* Random soups of PTX tokens (fixed seed), half of them after a valid
 * header, succeed or fail with a located error. */
static void test_token_soup(void **state)
{
    (void)state;
    static const char *const toks[] = {
        ".version 8.0\n", ".target sm_80\n", ".entry", ".func", "k", "(", ")", "{", "}",
        ";", ",", ".reg", ".b32", ".pred", "%r<4>", "%r1", "%p1", "@", "!", "add.s32",
        "bra", "ret", "L1", ":", "[", "]", "+", "-", "4", "0f3F800000", ".global",
        ".param", ".u64", "x", "=", "<", ">", "|", "_", ".align", "8", "ld.global.f32",
        "\n", " ", "/*", "*/", "//", "\"s\"", ".pragma", ".loc 1 2 3\n", "call", ".callprototype",
        ".branchtargets", "brx.idx", "{%r1, %r2}", "mov.b64", ".section .debug_info {",
        ".extern", ".visible", ".shared", ".v4", ".f32", "0x10", "1.5", "~", "*", "<<",
    };
    enum { NTOK = sizeof toks / sizeof toks[0] };
    uint64_t s = 0x70c0500b;
    char buf[2048];
    unsigned nok = 0;
    for (int round = 0; round < 3000; round++) {
        size_t len = 0;
        if (round % 2) { /* half the soups start with a valid header */
            len = strlen(MHEAD);
            memcpy(buf, MHEAD, len);
        }
        size_t ntok = 1 + (size_t)(rng_next(&s) % 60);
        for (size_t i = 0; i < ntok; i++) {
            const char *t = toks[rng_next(&s) % NTOK];
            size_t n = strlen(t);
            if (len + n + 1 >= sizeof buf)
                break;
            memcpy(buf + len, t, n);
            len += n;
            buf[len++] = ' ';
        }
        nok += (unsigned)parse_fails_cleanly_or_succeeds(buf, len);
    }
    print_message("token soup: %u of 3000 parsed\n", nok);
}

/* ---- instructions ------------------------------------------------------------- */

/* Control: the kernel wrapper itself is valid. */
static void test_wrapper_is_valid(void **state)
{
    (void)state;
    expect_ok(KERNEL("  add.s32 %r1, %r2, %r9;\n  ret;\n"));
}

/* A word that is no PTX instruction: reported at the word. */
static void test_unknown_opcode(void **state)
{
    (void)state;
    expect_error(KERNEL("  foo.b32 %r1, %r2;\n"), BODY_LINE, 3, "unknown instruction 'foo'");
    expect_error(KERNEL("\tfrobnicate;\n"), BODY_LINE, 2, "unknown instruction 'frobnicate'");
}

/* A modifier that exists nowhere in the ISA. */
static void test_unknown_modifier(void **state)
{
    (void)state;
    expect_error(KERNEL("  add.qq.s32 %r1, %r2, %r3;\n"), BODY_LINE, 3,
                 "unknown modifier '.qq'");
}

/* A real modifier that the opcode does not take. */
static void test_modifier_not_allowed(void **state)
{
    (void)state;
    expect_error(KERNEL("  add.global.s32 %r1, %r2, %r3;\n"), BODY_LINE, 3, "not allowed");
    expect_error(KERNEL("  add.global.s32 %r1, %r2, %r3;\n"), BODY_LINE, 3,
                 "modifier '.global' is not allowed on 'add'");
}

/* Two modifiers of one category (rounding, comparison). */
static void test_conflicting_modifiers(void **state)
{
    (void)state;
    expect_error(KERNEL("  cvt.rn.rz.f32.f64 %f1, %fd1;\n"), BODY_LINE, 3,
                 "conflicting modifiers '.rn' and '.rz' in 'cvt.rn.rz.f32.f64' (each sets the "
                 "rounding mode)");
    expect_error(KERNEL("  setp.eq.lt.s32 %p1, %r1, %r2;\n"), BODY_LINE, 3,
                 "(each sets the comparison)");
    expect_error(KERNEL("  ld.global.ca.cg.u32 %r1, [%rd1];\n"), BODY_LINE, 3,
                 "(each sets the cache operator)");
    /* the same modifier twice is a repetition, not a conflict */
    expect_error(KERNEL("  add.ftz.ftz.f32 %f1, %f2, %f3;\n"), BODY_LINE, 3,
                 "repeated modifier '.ftz' in 'add.ftz.ftz.f32'");
}

/* Initializers must fit the declared dimensions; [] takes its size from
 * the initializer. */
static void test_initializer_shape(void **state)
{
    (void)state;
    expect_error(MHEAD ".global .b8 x[2] = {{{{1}}}};\n", 3, 13, "does not match its dimensions");
    expect_error(MHEAD ".global .u32 y[2] = {1, 2, 3};\n", 3, 14, "does not match its dimensions");
    expect_error(MHEAD ".global .u32 z = {1};\n", 3, 14, "does not match its scalar type");
    expect_error(MHEAD ".global .b8 w[2][2] = {{1, 2, 3}, {4}};\n", 3, 13, "does not match");
    expect_ok(MHEAD ".global .b8 a[2][3] = {{1, 2, 3}, {4, 5, 6}};\n"
              ".global .b8 f[2][3] = {1, 2, 3, 4, 5, 6};\n"
              ".global .v2 .f32 v = {0f3F800000, 0f40000000};\n"
              ".global .u32 u[] = {1, 2, 3};\n");
    ptx_diags d = {0};
    const char *text = MHEAD ".global .u32 u[] = {1, 2, 3};\n";
    ptx_module *m = ptx_parse_string(text, strlen(text), "u.ptx", &d);
    assert_non_null(m);
    assert_int_equal(ptx_symbol_size(&m->symbols[m->tops[0].index]), 12);
    ptx_module_free(m);
    ptx_diags_free(&d);
}

/* Bytes that are neither printable ASCII nor whitespace are named by value. */
static void test_control_bytes(void **state)
{
    (void)state;
    expect_error(MHEAD "\x7f", 3, 1, "unexpected byte 0x7f");
    expect_error(MHEAD "\x01", 3, 1, "unexpected byte 0x01");
}

/* Too few or too many operands for the opcode's shapes. */
static void test_wrong_operand_count(void **state)
{
    (void)state;
    expect_error(KERNEL("  add.s32 %r1, %r2;\n"), BODY_LINE, 3,
                 "wrong operands for 'add': got 2 operands");
    expect_error(KERNEL("  add.s32 %r1, %r2, %r3, %r4;\n"), BODY_LINE, 3,
                 "wrong operands for 'add': got 4 operands");
    expect_error(KERNEL("  ret %r1;\n"), BODY_LINE, 3, "wrong operands for 'ret'");
}

/* A register name that was never declared, as operand and in an address. */
static void test_undeclared_register(void **state)
{
    (void)state;
    expect_error(KERNEL("  add.s32 %r1, %x2, %r3;\n"), BODY_LINE, 16,
                 "use of undeclared register '%x2'");
    expect_error(KERNEL("  ld.global.u32 %r1, [%nope+4];\n"), BODY_LINE, 0,
                 "undeclared register '%nope'");
}

/* An undeclared register inside an address is reported at the register's
 * name (column 23), like every other undeclared-register error (it was at
 * the '[' for a while). */
static void test_undeclared_register_in_address_location(void **state)
{
    (void)state;
    expect_error(KERNEL("  ld.global.u32 %r1, [%nope+4];\n"), BODY_LINE, 23,
                 "undeclared register '%nope'");
    expect_error(KERNEL("  st.global.u32 [ %nope ], %r1;\n"), BODY_LINE, 19,
                 "undeclared register '%nope'");
}

/* %r<10> declares %r0..%r9: %r10 does not exist, %r9 does. */
static void test_register_beyond_range(void **state)
{
    (void)state;
    expect_error(KERNEL("  add.s32 %r1, %r10, %r3;\n"), BODY_LINE, 16,
                 "use of undeclared register '%r10'");
    expect_error(KERNEL("  mov.b32 %r4294967296, 1;\n"), BODY_LINE, 11,
                 "undeclared register");
    /* a leading zero is a different name, not %r1 */
    expect_error(KERNEL("  mov.b32 %r01, 1;\n"), BODY_LINE, 11, "undeclared register '%r01'");
    expect_ok(KERNEL("  add.s32 %r9, %r0, %r9;\n  ret;\n"));
}

/* A branch to a label defined nowhere in the function: reported at the
 * (first) use once the function ends. */
static void test_undeclared_label(void **state)
{
    (void)state;
    expect_error(KERNEL("  bra L9;\n  ret;\n"), BODY_LINE, 7,
                 "use of undeclared label or identifier 'L9'");
    /* a label declared in another function is not visible */
    expect_error(MHEAD ".func f()\n{\nL1:\n ret;\n}\n.entry k()\n{\n bra L1;\n}\n", 10, 6,
                 "use of undeclared label or identifier 'L1'");
}

/* The same label twice in one function: reported at the second. */
static void test_duplicate_label(void **state)
{
    (void)state;
    expect_error(KERNEL("L1:\n  add.s32 %r1, %r2, %r3;\n L1:\n  ret;\n"), BODY_LINE + 2, 2,
                 "duplicate label 'L1' (first defined at 11:1)");
}

/* A register or range declared twice in one scope: reported at the second
 * declaration with the first one's position. */
static void test_duplicate_register(void **state)
{
    (void)state;
    expect_error(KERNEL(".reg .b32 %q;\n.reg .b32 %q;\n"), BODY_LINE + 1, 11,
                 "redeclaration of register '%q' (first declared at 11:11)");
    expect_error(KERNEL(".reg .b32 %r<10>;\n"), BODY_LINE, 11,
                 "redeclaration of register range '%r<>' (first declared at 6:11)");
    expect_error(KERNEL(".reg .b32 %a, %b, %a;\n"), BODY_LINE, 19, "redeclaration of register '%a'");
    /* control: an inner scope may shadow */
    expect_ok(KERNEL(".reg .b32 %q;\n{\n.reg .b64 %q;\n}\n ret;\n"));
}

/* Guards must be declared .pred registers. */
static void test_guard_not_predicate(void **state)
{
    (void)state;
    expect_error(KERNEL("@%r1 ret;\n"), BODY_LINE, 2,
                 "guard '%r1' is not a predicate (it is .b32)");
    expect_error(KERNEL("  @!%f1 ret;\n"), BODY_LINE, 5, "not a predicate");
    expect_error(KERNEL("@%p9 ret;\n"), BODY_LINE, 2, "guard uses undeclared predicate '%p9'");
}

/* ---- lexical errors ------------------------------------------------------------- */

/* A string without its closing quote on the line: reported at the quote. */
static void test_unterminated_string(void **state)
{
    (void)state;
    expect_error(MHEAD ".pragma \"nounroll;\n", 3, 9, "unterminated string literal");
    expect_error(KERNEL("  .pragma \"abc\n"), BODY_LINE, 11, "unterminated string literal");
}

/* An unterminated block comment is reported (its position: see below). */
static void test_unterminated_comment(void **state)
{
    (void)state;
    expect_error(KERNEL("  /* never closed ;\n"), 0, 0, "unterminated /* comment");
    expect_error(MHEAD "/*", 0, 0, "unterminated /* comment");
}

/* The unterminated-comment error points at the opening slash-star (not at
 * the end of the file). */
static void test_unterminated_comment_location(void **state)
{
    (void)state;
    expect_error(KERNEL("  /* never closed ;\n"), BODY_LINE, 3, "unterminated /* comment");
    expect_error(MHEAD "/* a\nb\nc\n", 3, 1, "unterminated /* comment");
}

/* An unterminated .section body is reported. */
static void test_unterminated_section(void **state)
{
    (void)state;
    expect_error(MHEAD ".section .debug_info {\n .b8 1\n .b8 2\n", 0, 0,
                 "unterminated .section body (missing '}')");
}

/* The unterminated-.section error points at the .section directive (not
 * at the last line of the body). */
static void test_unterminated_section_location(void **state)
{
    (void)state;
    expect_error(MHEAD ".section .debug_info {\n .b8 1\n .b8 2\n", 3, 1,
                 "unterminated .section body");
}

/* Integer literals beyond 64 bits in every base: reported at the literal. */
static void test_integer_too_large(void **state)
{
    (void)state;
    expect_error(KERNEL("  mov.u64 %rd1, 18446744073709551616;\n"), BODY_LINE, 17,
                 "integer constant '18446744073709551616' does not fit in 64 bits");
    expect_error(KERNEL("  mov.u64 %rd1, 0x10000000000000000;\n"), BODY_LINE, 17,
                 "does not fit in 64 bits");
    expect_error(KERNEL("  mov.u64 %rd1, 0b"
                        "11111111111111111111111111111111111111111111111111111111111111111;\n"),
                 BODY_LINE, 17, "does not fit in 64 bits");
    expect_error(KERNEL("  mov.u64 %rd1, 02000000000000000000000;\n"), BODY_LINE, 17,
                 "does not fit in 64 bits");
    expect_error(MHEAD ".global .u64 x = 99999999999999999999999999999;\n", 3, 18,
                 "does not fit in 64 bits");
    /* control: the largest 64-bit values */
    expect_ok(KERNEL("  mov.u64 %rd1, 18446744073709551615;\n"
                     "  mov.u64 %rd2, 0xFFFFFFFFFFFFFFFF;\n  ret;\n"));
}

/* 0f needs exactly 8 hex digits, 0d exactly 16. */
static void test_malformed_float(void **state)
{
    (void)state;
    expect_error(KERNEL("  mov.f32 %f1, 0f3F80;\n"), BODY_LINE, 16,
                 "float literal '0f3F80' needs exactly 8 hex digits after 0f");
    expect_error(KERNEL("  mov.f32 %f1, 0f3F8000000;\n"), BODY_LINE, 16, "needs exactly 8 hex digits");
    expect_error(KERNEL("  mov.f64 %fd1, 0d3FF000000000000;\n"), BODY_LINE, 17,
                 "needs exactly 16 hex digits after 0d");
    expect_error(KERNEL("  mov.f32 %f1, 0f3F80000G;\n"), BODY_LINE, 16, "malformed number");
    expect_error(KERNEL("  mov.f32 %f1, 0f;\n"), BODY_LINE, 16, "needs exactly 8 hex digits");
    expect_ok(KERNEL("  mov.f32 %f1, 0f3F800000;\n  ret;\n"));
}

/* ---- size and depth ------------------------------------------------------------- */

/* A 10 MB comment line followed by an error on the next line; a 10 MB
 * initializer line with an error at its very end (column ~10 million); and
 * a valid 10 MB initializer. */
static void test_ten_megabyte_line(void **state)
{
    (void)state;
    enum { MB10 = 10 * 1000 * 1000, NELEM = 5 * 1000 * 1000 };
    size_t cap = MB10 + 4096;
    char *buf = malloc(cap);
    assert_non_null(buf);

    size_t n = (size_t)snprintf(buf, cap, MHEAD "// ");
    memset(buf + n, 'x', MB10);
    n += MB10;
    n += (size_t)snprintf(buf + n, cap - n, "\n.global .b8 y = ;\n");
    expect_error_n(buf, n, 4, 17, "syntax error");

    const char *head = MHEAD ".global .b8 x[5000001] = {";
    n = (size_t)snprintf(buf, cap, "%s", head);
    size_t line_start = strlen(MHEAD);
    for (size_t i = 0; i < NELEM; i++) {
        buf[n++] = '0';
        buf[n++] = ',';
    }
    uint32_t bad_col = (uint32_t)(n - line_start) + 1;
    n += (size_t)snprintf(buf + n, cap - n, "0f1};\n");
    expect_error_n(buf, n, 3, bad_col, "float literal '0f1' needs exactly 8 hex digits");

    memcpy(buf + n - 6, "0};\n", 4); /* "0f1};\n" -> "0};\n": a valid list */
    n -= 2;
    ptx_diags d = {0};
    ptx_module *m = parse_n(buf, n, &d);
    if (!m)
        show_diags(&d);
    assert_non_null(m);
    ptx_module_free(m);
    ptx_diags_free(&d);
    free(buf);
}

/* Builds MHEAD + prefix + n copies of open + middle + n copies of close +
 * suffix (malloc'd, NUL-terminated); *len gets its length. */
static char *nested(const char *prefix, const char *open, size_t n, const char *middle,
                    const char *close, const char *suffix, size_t *len)
{
    size_t cap = strlen(MHEAD) + strlen(prefix) + n * (strlen(open) + strlen(close)) +
                 strlen(middle) + strlen(suffix) + 1;
    char *buf = malloc(cap);
    assert_non_null(buf);
    size_t k = (size_t)snprintf(buf, cap, MHEAD "%s", prefix);
    for (size_t i = 0; i < n; i++) {
        memcpy(buf + k, open, strlen(open));
        k += strlen(open);
    }
    k += (size_t)snprintf(buf + k, cap - k, "%s", middle);
    for (size_t i = 0; i < n && close[0]; i++) {
        memcpy(buf + k, close, strlen(close));
        k += strlen(close);
    }
    k += (size_t)snprintf(buf + k, cap - k, "%s", suffix);
    *len = k;
    return buf;
}

/* Parses a deeply nested input: it must fail with an error on line 3 whose
 * column lies within the nesting, saying the parser ran out of stack (bison:
 * "memory exhausted") or that the nesting is too deep. */
static void expect_nesting_error(char *text, size_t len, uint32_t first_col, size_t n)
{
    ptx_diags d = {0};
    ptx_module *m = parse_n(text, len, &d);
    if (m)
        ptx_module_free(m);
    assert_null(m);
    const ptx_diag *e = first_error(&d);
    assert_non_null(e);
    if (e->line != 3 || e->col < first_col || e->col > first_col + n ||
        !(strstr(e->message, "memory exhausted") || strstr(e->message, "nest"))) {
        show_diags(&d);
        fail_msg("expected a nesting error on line 3 between columns %u and %zu", first_col,
                 first_col + n);
    }
    ptx_diags_free(&d);
    free(text);
}

/* 100000 nested braces in an initializer, closed or not; 100000 nested
 * parentheses and unary minus signs in a constant expression. */
static void test_deeply_nested_initializer(void **state)
{
    (void)state;
    enum { N = 100000 };
    const char *pre = ".global .b8 x[1] = ";
    uint32_t c0 = (uint32_t)strlen(pre) + 1;
    size_t len;
    char *t = nested(pre, "{", N, "1", "}", ";\n", &len);
    expect_nesting_error(t, len, c0, N);
    t = nested(pre, "{", N, "", "", "\n", &len);
    expect_nesting_error(t, len, c0, N);
    pre = ".global .u32 y = ";
    c0 = (uint32_t)strlen(pre) + 1;
    t = nested(pre, "(", N, "1", ")", ";\n", &len);
    expect_nesting_error(t, len, c0, N);
    t = nested(pre, "-", N, "1", "", ";\n", &len);
    expect_nesting_error(t, len, c0, N);
    /* control: modest nesting is fine */
    t = nested(".global .u32 z = ", "(", 50, "1", ")", ";\n", &len);
    t[len] = '\0';
    expect_ok(t);
    free(t);
}

/* 100000 nested { } scopes in a function body: the first error is the
 * scope-depth limit, at the brace that crosses it (the body is depth 1, so
 * the 200th nested brace, column 200); 199 nested scopes are fine. */
static void test_deeply_nested_scopes(void **state)
{
    (void)state;
    enum { N = 100000 };
    size_t cap = strlen(KHEAD) + 2 * N + 64;
    char *buf = malloc(cap);
    assert_non_null(buf);
    size_t k = (size_t)snprintf(buf, cap, "%s", KHEAD);
    memset(buf + k, '{', N);
    k += N;
    buf[k++] = '\n';
    memset(buf + k, '}', N);
    k += N;
    k += (size_t)snprintf(buf + k, cap - k, "\nret;\n}\n");
    expect_error_n(buf, k, BODY_LINE, 200, "scopes nested too deeply");

    k = (size_t)snprintf(buf, cap, "%s", KHEAD);
    memset(buf + k, '{', 199);
    k += 199;
    memset(buf + k, '}', 199);
    k += 199;
    snprintf(buf + k, cap - k, "\nret;\n}\n");
    expect_ok(buf);
    free(buf);
}

/* ---- testdata/isa/bad_forms.txt -------------------------------------------------- */

/* The declarations testdata/isa/forms.txt assumes (see its header):
 * registers %r %rd %f %fd %h %q %p, symbols gsym ssym csym tex1 samp1
 * surf1, labels L1 L2 bt1, functions f0 f1, prototype proto1. The
 * instruction goes on line ISA_LINE. */
#define ISA_PRELUDE PTX_TEST_ISA_PRELUDE
enum { ISA_LINE = 31 };

/* Wraps text (one or more instruction lines) in the ISA prelude. */
static char *isa_wrap(const char *lines)
{
    size_t n = strlen(ISA_PRELUDE) + strlen(lines) + 16;
    char *buf = malloc(n);
    assert_non_null(buf);
    snprintf(buf, n, "%s%s\n ret;\n}\n", ISA_PRELUDE, lines);
    return buf;
}

/* Control: every line of forms.txt parses inside the prelude (so failures
 * below come from the lines, not from the wrapper). */
static void test_isa_forms_in_wrapper(void **state)
{
    (void)state;
    size_t len;
    char *forms = read_testdata("isa/forms.txt", &len);
    char *body = malloc(len + 1);
    assert_non_null(body);
    size_t k = 0;
    for (char *line = forms; line && *line;) {
        char *eol = strchr(line, '\n');
        size_t n = eol ? (size_t)(eol - line) : strlen(line);
        if (n && line[0] != '#') {
            memcpy(body + k, line, n);
            k += n;
            body[k++] = '\n';
        }
        line = eol ? eol + 1 : NULL;
    }
    body[k] = '\0';
    char *text = isa_wrap(body);
    expect_ok(text);
    free(text);
    free(body);
    free(forms);
}

/* Every line of bad_forms.txt, alone in the wrapper, fails with its first
 * error on that line. */
static void test_isa_bad_forms(void **state)
{
    (void)state;
    size_t len;
    char *bad = read_testdata("isa/bad_forms.txt", &len);
    unsigned count = 0;
    for (char *line = bad; line && *line;) {
        char *eol = strchr(line, '\n');
        if (eol)
            *eol = '\0';
        if (line[0] && line[0] != '#') {
            char *text = isa_wrap(line);
            ptx_diags d = {0};
            ptx_module *m = parse_n(text, strlen(text), &d);
            if (m)
                fail_msg("bad form parsed: %s", line);
            const ptx_diag *e = first_error(&d);
            assert_non_null(e);
            if (e->line != ISA_LINE || e->col < 1 || e->col > strlen(line)) {
                show_diags(&d);
                fail_msg("bad form '%s': first error at %u:%u, expected on line %d", line,
                         e->line, e->col, ISA_LINE);
            }
            ptx_diags_free(&d);
            free(text);
            count++;
        }
        line = eol ? eol + 1 : NULL;
    }
    assert_true(count >= 50);
    free(bad);
}

/* ---- the command-line program ------------------------------------------------------- */

/* Runs `simtlab ARGS...`; returns its exit status (-1: killed by a signal)
 * and its standard error in err. */
static int run_simtlab(const char *const *args, char *err, size_t errsz)
{
    const char *dir = getenv("SIMTLAB_BUILDDIR");
    assert_non_null(dir);
    char exe[4096];
    snprintf(exe, sizeof exe, "%s/tools/simtlab", dir);
    const char *argv[8] = {exe};
    size_t argc = 1;
    for (; args[argc - 1] && argc < 7; argc++)
        argv[argc] = args[argc - 1];
    argv[argc] = NULL;
    int pipefd[2];
    assert_int_equal(pipe(pipefd), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0)
            dup2(devnull, 1);
        dup2(pipefd[1], 2);
        close(pipefd[0]);
        execv(exe, (char *const *)argv);
        _exit(127);
    }
    close(pipefd[1]);
    size_t k = 0;
    ssize_t r;
    char chunk[512];
    while ((r = read(pipefd[0], chunk, sizeof chunk)) > 0) {
        size_t take = (size_t)r < errsz - 1 - k ? (size_t)r : errsz - 1 - k;
        memcpy(err + k, chunk, take); /* keep what fits, drain the rest */
        k += take;
    }
    err[k] = '\0';
    close(pipefd[0]);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Writes text to a new file in a scratch directory (TMPDIR, else the build
 * directory); returns its path (caller frees and unlinks). */
static char *scratch_file(const char *text)
{
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir)
        dir = getenv("SIMTLAB_BUILDDIR");
    assert_non_null(dir);
    size_t n = strlen(dir) + 64;
    char *path = malloc(n);
    assert_non_null(path);
    snprintf(path, n, "%s/test_bad_input_XXXXXX", dir);
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    size_t len = strlen(text);
    assert_int_equal(write(fd, text, len), (ssize_t)len);
    close(fd);
    return path;
}

/* Invalid input: exit status 1 and "FILE:LINE:COL: error: ..." on stderr;
 * valid input: exit status 0. */
static void test_cli_invalid_input(void **state)
{
    (void)state;
    char err[4096];
    char *path = scratch_file(KERNEL("  foo.b32 %r1, %r2;\n"));
    const char *args[] = {"parse", path, NULL};
    int rc = run_simtlab(args, err, sizeof err);
    char want[4200];
    snprintf(want, sizeof want, "%s:%d:3: error: unknown instruction 'foo'", path, BODY_LINE);
    if (rc != 1 || strncmp(err, want, strlen(want)) != 0)
        fail_msg("exit %d, stderr: %s (expected exit 1 and %s)", rc, err, want);
    unlink(path);
    free(path);

    path = scratch_file(KERNEL("  ret;\n"));
    const char *ok_args[] = {"parse", path, NULL};
    assert_int_equal(run_simtlab(ok_args, err, sizeof err), 0);
    unlink(path);
    free(path);
}

/* A file that does not exist: exit status 1 and a message naming it. */
static void test_cli_missing_file(void **state)
{
    (void)state;
    char err[4096];
    const char *dir = getenv("SIMTLAB_BUILDDIR");
    assert_non_null(dir);
    char path[4200];
    snprintf(path, sizeof path, "%s/no/such/dir/missing.ptx", dir);
    const char *args[] = {"parse", path, NULL};
    int rc = run_simtlab(args, err, sizeof err);
    if (rc != 1 || !strstr(err, path) || !strstr(err, "cannot read") ||
        !strstr(err, strerror(ENOENT)))
        fail_msg("exit %d, stderr: %s", rc, err);
    const char *none[] = {"parse", NULL};
    assert_int_equal(run_simtlab(none, err, sizeof err), 1);
    assert_non_null(strstr(err, "no input file"));
}

/* ---- crash and semantic regressions, known bugs --------------------------------- */

/* Parses text in a child process, so a crash (or a hang, after 60 s) fails
 * the test instead of killing it. Returns 0 when the child parsed and
 * exited normally, and
 * reports the child's peak memory (KiB) in *maxrss_kb when non-NULL. */
static int parse_in_child(const char *text, size_t len, long *maxrss_kb)
{
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        /* cmocka's handlers would longjmp back into the test runner */
        static const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
        for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
            signal(sigs[i], SIG_DFL);
        alarm(60); /* a hang becomes a SIGALRM death */
        ptx_diags d = {0};
        ptx_module *m = parse_n(text, len, &d);
        ptx_module_free(m);
        ptx_diags_free(&d);
        _exit(0);
    }
    int status;
    struct rusage ru;
    assert_int_equal(wait4(pid, &status, 0, &ru), pid);
    if (maxrss_kb)
        *maxrss_kb = ru.ru_maxrss;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* `.version` followed by a hexadecimal float (0f/0d) once read the string
 * table at index PTX_NONE (SIGSEGV; fixed in 8da98ed): a plain error now. */
static void test_version_hex_float(void **state)
{
    (void)state;
    const char *text = ".version 0f3F800000\n.target sm_80\n";
    assert_int_equal(parse_in_child(text, strlen(text), NULL), 0);
    expect_error(text, 1, 10, "malformed .version");
    text = ".version 0d3FF0000000000000\n.target sm_80\n";
    assert_int_equal(parse_in_child(text, strlen(text), NULL), 0);
    expect_error(text, 1, 10, "malformed .version");
}

/* Instructions with more than 64 operands are shape-checked too (they were
 * once accepted unchecked). */
static void test_many_operands(void **state)
{
    (void)state;
    char buf[2048];
    size_t k = (size_t)snprintf(buf, sizeof buf, "%s  ret 0", KHEAD);
    for (int i = 1; i < 100; i++)
        k += (size_t)snprintf(buf + k, sizeof buf - k, ", %d", i);
    snprintf(buf + k, sizeof buf - k, ";\n" KTAIL);
    expect_error(buf, BODY_LINE, 3, "wrong operands for 'ret'");
    k = (size_t)snprintf(buf, sizeof buf, "%s  add.s32 %%r1", KHEAD);
    for (int i = 1; i < 70; i++)
        k += (size_t)snprintf(buf + k, sizeof buf - k, ", %%r%d", i % 10);
    snprintf(buf + k, sizeof buf - k, ";\n" KTAIL);
    expect_error(buf, BODY_LINE, 3, "wrong operands for 'add'");
}

#define TG_HEAD ".version 8.0\n.target sm_80\n.global .b32 g;\n.entry k()\n{\n.reg .b32 %r<4>;\n"

/* Branch and call targets must be labels and functions of the right kind
 * (these parsed silently, with a block without successors, before f8556b6). */
static void test_branch_call_targets(void **state)
{
    (void)state;
    expect_error(TG_HEAD " bra g;\n}\n", 7, 2, "'bra' needs a label");
    expect_error(TG_HEAD " bra %r1;\n}\n", 7, 2, "'bra' needs a label");
    expect_error(TG_HEAD " bra 5;\n}\n", 7, 2, "'bra' needs a label");
    expect_error(TG_HEAD " bra.uni %tid.x;\n}\n", 7, 2, "'bra' needs a label");
    expect_error(TG_HEAD " call g;\n}\n", 7, 2, "call target must be a function");
    expect_error(TG_HEAD " call.uni L1;\nL1: ret;\n}\n", 7, 2, "call target must be a function");
    expect_error(TG_HEAD " brx.idx %r1, L1;\nL1: ret;\n}\n", 7, 2,
                 "'L1' is not a .branchtargets label");
    expect_error(TG_HEAD " brx.idx %r1, g;\n}\n", 7, 2, "needs a .branchtargets label");
}

/* `call` rejects a kernel (.entry) as its target: PTX calls only .func
 * functions (kernels are launched, not called). */
static void test_call_kernel(void **state)
{
    (void)state;
    expect_error(TG_HEAD " call k;\n}\n", 7, 2, NULL);
    expect_error(".version 8.0\n.target sm_80\n.entry e()\n{\n ret;\n}\n"
                 ".func f()\n{\n call e;\n ret;\n}\n", 9, 2, NULL);
}
#undef TG_HEAD

/* Register ranges are expanded at declaration (a record per register), so
 * the parser bounds them per function and per module: the 130 bytes below
 * once made it allocate about 1 GiB; now they are an error in little
 * memory. */
static void test_register_range_memory(void **state)
{
    (void)state;
    char buf[4096];
    size_t k = (size_t)snprintf(buf, sizeof buf, MHEAD);
    k += (size_t)snprintf(buf + k, sizeof buf - k,
                          ".entry k()\n{\n .reg .b32 %%a<16777216>, %%b<16777216>, "
                          "%%c<16777216>, %%d<16777216>;\n ret;\n}\n");
    long rss = 0;
    assert_int_equal(parse_in_child(buf, k, &rss), 0);
    print_message("peak RSS %ld KiB for %zu bytes of input\n", rss, k);
    assert_true(rss < 512 * 1024);
}

/* ---- fuzzer regressions ----------------------------------------------------------- */

/* Regression inputs that still trigger a known bug, by file name. */
static const char *const fuzz_known_bugs[] = {
    NULL,
};

/* Is name listed in fuzz_known_bugs? */
static int is_known_fuzz_bug(const char *name)
{
    for (size_t i = 0; fuzz_known_bugs[i]; i++)
        if (strcmp(fuzz_known_bugs[i], name) == 0)
            return 1;
    return 0;
}

/* Replays every input in tools/fuzz/regressions/parse/ as the fuzz harness does
 * (in a child process, so a crash is a failure, not an abort of the test
 * program). Files listed as known bugs run only with SIMTLAB_RUN_KNOWN_BUGS;
 * while any is listed the test ends as skipped. */
static void test_fuzz_regressions(void **state)
{
    (void)state;
    const char *td = getenv("SIMTLAB_TESTDATA");
    assert_non_null(td);
    char dirpath[4096];
    snprintf(dirpath, sizeof dirpath, "%s/../tools/fuzz/regressions/parse", td);
    DIR *dir = opendir(dirpath);
    if (!dir)
        fail_msg("cannot open %s", dirpath);
    const char *run = getenv("SIMTLAB_RUN_KNOWN_BUGS");
    int run_known = run && *run && strcmp(run, "0") != 0;
    unsigned nrun = 0, nknown = 0;
    struct dirent *de;
    while ((de = readdir(dir)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        if (is_known_fuzz_bug(de->d_name) && !run_known) {
            nknown++;
            continue;
        }
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dirpath, de->d_name);
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        char *data = malloc(65536 + 1);
        assert_non_null(data);
        size_t len = fread(data, 1, 65536, f);
        fclose(f);
        int rc = parse_in_child(data, len, NULL);
        free(data);
        if (rc != 0) {
            char name[256];
            snprintf(name, sizeof name, "%s", de->d_name);
            closedir(dir);
            fail_msg("fuzz regression %s crashed the parser", name);
        }
        nrun++;
    }
    closedir(dir);
    print_message("%u regression inputs replayed, %u known bugs skipped\n", nrun, nknown);
    if (nknown)
        known_bug("fuzz regressions listed in fuzz_known_bugs still fail");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty_file),
        cmocka_unit_test(test_only_whitespace_and_comments),
        cmocka_unit_test(test_random_bytes),
        cmocka_unit_test(test_nul_bytes),
        cmocka_unit_test(test_invalid_utf8),
        cmocka_unit_test(test_elf_magic_as_text),
        cmocka_unit_test(test_truncated_at_tokens),
        cmocka_unit_test(test_truncated_at_every_byte),
        cmocka_unit_test(test_token_soup),
        cmocka_unit_test(test_wrapper_is_valid),
        cmocka_unit_test(test_unknown_opcode),
        cmocka_unit_test(test_unknown_modifier),
        cmocka_unit_test(test_modifier_not_allowed),
        cmocka_unit_test(test_conflicting_modifiers),
        cmocka_unit_test(test_control_bytes),
        cmocka_unit_test(test_initializer_shape),
        cmocka_unit_test(test_wrong_operand_count),
        cmocka_unit_test(test_undeclared_register),
        cmocka_unit_test(test_undeclared_register_in_address_location),
        cmocka_unit_test(test_register_beyond_range),
        cmocka_unit_test(test_undeclared_label),
        cmocka_unit_test(test_duplicate_label),
        cmocka_unit_test(test_duplicate_register),
        cmocka_unit_test(test_guard_not_predicate),
        cmocka_unit_test(test_unterminated_string),
        cmocka_unit_test(test_unterminated_comment),
        cmocka_unit_test(test_unterminated_comment_location),
        cmocka_unit_test(test_unterminated_section),
        cmocka_unit_test(test_unterminated_section_location),
        cmocka_unit_test(test_integer_too_large),
        cmocka_unit_test(test_malformed_float),
        cmocka_unit_test(test_ten_megabyte_line),
        cmocka_unit_test(test_deeply_nested_initializer),
        cmocka_unit_test(test_deeply_nested_scopes),
        cmocka_unit_test(test_isa_forms_in_wrapper),
        cmocka_unit_test(test_isa_bad_forms),
        cmocka_unit_test(test_cli_invalid_input),
        cmocka_unit_test(test_cli_missing_file),
        cmocka_unit_test(test_version_hex_float),
        cmocka_unit_test(test_branch_call_targets),
        cmocka_unit_test(test_many_operands),
        cmocka_unit_test(test_call_kernel),
        cmocka_unit_test(test_register_range_memory),
        cmocka_unit_test(test_fuzz_regressions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
