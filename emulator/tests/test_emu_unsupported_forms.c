/* test_emu_unsupported_forms.c — the inventory of what the emulator
 * cannot execute, and the check that keeps it true.
 *
 * Every instruction line of testdata/isa/forms.txt (each form of the PTX
 * ISA 9.0 syntax reference, in several modifier combinations) is decoded
 * by the emulator's decoder (emulator/program.c); a line decoded to
 * sim_op_unsupported is one whose launch would stop with "unsupported
 * instruction". testdata/isa/unsupported_forms.txt lists those lines,
 * grouped by a key: the opcode and the modifiers of the line that no
 * accepted line of the same opcode carries (what selects the refusal).
 *
 * This test exists to force whoever adds or removes support for an
 * instruction to update that list and the README sentence naming what
 * the emulator does not execute: it fails when the decoder's refusals and
 * the committed file disagree, and when a refused opcode with a form
 * ptxas accepts is not named in that README sentence. Regenerate the file
 * (ptxas must be on PATH; it marks the lines it rejects) with
 *
 *     ninja -C BUILD unsupported-forms
 *
 * which runs this program as `test_emu_unsupported_forms --write FILE`.
 * Last, a module with texture references (refused) must still load, the
 * launch stopping at the first instruction that names one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "emulator/internal.h"
#include "emulator/tests/emu_test.h"

#define REGENERATE "ninja -C BUILD unsupported-forms (with ptxas on PATH)"

/* The targets a line may be valid for: ptxas accepts it for one of them. */
static const char *const ptxas_archs[] = {"sm_100a", "sm_90a", "sm_103a", "sm_120a"};

/* forms.txt decoded: its instruction lines, which the decoder refuses,
 * and for those the group key, its opcode, and whether ptxas accepts the
 * line (valid; only when checked). */
typedef struct inventory {
    char **line;
    uint32_t n;
    bool *refused, *valid;
    char **key;
    const char **opcode;
} inventory;

/* Read a whole file (NUL-terminated; the caller frees it), or NULL. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0, got;
    char *buf = malloc(cap);
    while (buf && (got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (len + 1 == cap)
            buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    if (buf)
        buf[len] = '\0';
    return buf;
}

/* The instruction lines of testdata/isa/forms.txt (comments and blank
 * lines left out) into inv. */
static void read_forms(inventory *inv)
{
    char path[4096];
    ptx_test_path(path, sizeof path, "isa/forms.txt");
    char *text = slurp(path);
    if (!text)
        fail_msg("cannot read %s", path);
    memset(inv, 0, sizeof *inv);
    uint32_t cap = 0;
    for (char *s = text, *eol; *s; s = eol + (*eol != '\0')) {
        eol = s + strcspn(s, "\n");
        if (eol == s || *s == '#')
            continue;
        if (inv->n == cap)
            inv->line = realloc(inv->line, (cap = cap ? 2 * cap : 4096) * sizeof *inv->line);
        inv->line[inv->n++] = strndup(s, (size_t)(eol - s));
    }
    free(text);
    inv->refused = calloc(inv->n, sizeof *inv->refused);
    inv->valid = calloc(inv->n, sizeof *inv->valid);
    inv->key = calloc(inv->n, sizeof *inv->key);
    inv->opcode = calloc(inv->n, sizeof *inv->opcode);
}

static void inventory_free(inventory *inv)
{
    for (uint32_t i = 0; i < inv->n; i++) {
        free(inv->line[i]);
        free(inv->key[i]);
    }
    free(inv->line);
    free(inv->refused);
    free(inv->valid);
    free(inv->key);
    free(inv->opcode);
}

/* The group key of refused line i (instruction pi): the opcode with the
 * modifiers no accepted line of the opcode carries; "(every line)" when
 * the emulator takes no line of forms.txt with the opcode; else the operand count when no
 * accepted line has that many operands; else "(operand forms)". seen
 * holds, per opcode, the modifiers of its accepted lines (PTX_MOD_COUNT
 * flags each, then one flag per operand count) or NULL when none. */
static char *group_key(const ptx_module *m, const ptx_instr *pi, uint8_t *const *seen)
{
    const ptx_form *fm = &m->forms[pi->form];
    const uint8_t *acc = seen[fm->opcode];
    char buf[512];
    size_t k = (size_t)snprintf(buf, sizeof buf, "%s", ptx_opcode_name((ptx_opcode)fm->opcode));
    if (!acc) {
        snprintf(buf + k, sizeof buf - k, " (every line)");
        return strdup(buf);
    }
    bool any = false;
    for (uint32_t i = 0; i < fm->ntokens; i++) {
        uint16_t mod = m->form_tokens[fm->first_token + i];
        bool again = false;
        for (uint32_t j = 0; j < i; j++)
            again |= m->form_tokens[fm->first_token + j] == mod;
        if (acc[mod] || again)
            continue;
        k += (size_t)snprintf(buf + k, sizeof buf - k, " .%s", ptx_modifier_text((ptx_modifier)mod));
        any = true;
    }
    if (!any && !acc[PTX_MOD_COUNT + pi->noperands])
        snprintf(buf + k, sizeof buf - k, " with %u operands", pi->noperands);
    else if (!any)
        snprintf(buf + k, sizeof buf - k, " (operand forms)");
    return strdup(buf);
}

/* Decode every line of inv in one kernel (the declarations forms.txt
 * assumes, PTX_TEST_ISA_PRELUDE) and record which the decoder refuses and
 * their keys. */
static void decode_forms(inventory *inv)
{
    size_t len = strlen(PTX_TEST_ISA_PRELUDE) + 32;
    for (uint32_t i = 0; i < inv->n; i++)
        len += strlen(inv->line[i]) + 1;
    char *text = malloc(len);
    size_t k = (size_t)snprintf(text, len, "%s", PTX_TEST_ISA_PRELUDE);
    for (uint32_t i = 0; i < inv->n; i++)
        k += (size_t)snprintf(text + k, len - k, "%s\n", inv->line[i]);
    snprintf(text + k, len - k, " ret;\n}\n");
    emu e;
    emu_open_module(&e, ptx_test_parse(text));
    free(text);
    const sim_func *fn = sim_program_kernel(e.p, "k");
    assert_non_null(fn);
    const ptx_function *f = fn->f;
    if (fn->ninstrs != inv->n + 1)
        fail_msg("%u instructions decoded from %u lines", fn->ninstrs, inv->n);
    /* the first instruction is on line 31 (see PTX_TEST_ISA_PRELUDE) */
    for (uint32_t pc = 0; pc < inv->n; pc++)
        if (f->instrs[pc].line != 31 + pc)
            fail_msg("forms.txt line '%s' is not one instruction", inv->line[pc]);
    uint8_t **seen = calloc(PTX_OP_COUNT, sizeof *seen);
    for (uint32_t pc = 0; pc < inv->n; pc++) {
        const ptx_instr *pi = &f->instrs[pc];
        const ptx_form *fm = &e.m->forms[pi->form];
        inv->refused[pc] = fn->code[pc].fn == sim_op_unsupported;
        inv->opcode[pc] = ptx_opcode_name((ptx_opcode)fm->opcode);
        if (inv->refused[pc])
            continue;
        if (!seen[fm->opcode])
            seen[fm->opcode] = calloc(PTX_MOD_COUNT + 256, 1);
        for (uint32_t j = 0; j < fm->ntokens; j++)
            seen[fm->opcode][e.m->form_tokens[fm->first_token + j]] = 1;
        seen[fm->opcode][PTX_MOD_COUNT + pi->noperands] = 1;
    }
    for (uint32_t pc = 0; pc < inv->n; pc++)
        if (inv->refused[pc])
            inv->key[pc] = group_key(e.m, &f->instrs[pc], seen);
    for (uint32_t op = 0; op < PTX_OP_COUNT; op++)
        free(seen[op]);
    free(seen);
    emu_close(&e);
}

/* A refused line and its key, for sorting. */
typedef struct keyed {
    const char *key;
    uint32_t line;
} keyed;

/* qsort order of refused lines: by key, then by position in forms.txt. */
static int by_key(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c ? c : (x->line > y->line) - (x->line < y->line);
}

/* The refused lines in file order (the caller frees it); *n their count. */
static uint32_t *grouped(const inventory *inv, uint32_t *n)
{
    keyed *k = malloc((inv->n + 1) * sizeof *k);
    *n = 0;
    for (uint32_t i = 0; i < inv->n; i++)
        if (inv->refused[i])
            k[(*n)++] = (keyed){inv->key[i], i};
    qsort(k, *n, sizeof *k, by_key);
    uint32_t *idx = malloc((*n + 1) * sizeof *idx);
    for (uint32_t i = 0; i < *n; i++)
        idx[i] = k[i].line;
    free(k);
    return idx;
}

/* The body of the inventory file: each group's header "KEY (N)" then its
 * lines indented by four, the third column '!' where `marks` and ptxas
 * rejects the line. Without marks every line gets four spaces (what the
 * test compares the committed file with, its marks taken out). */
static void write_groups(const inventory *inv, bool marks, FILE *out)
{
    uint32_t n, *idx = grouped(inv, &n);
    for (uint32_t a = 0, b; a < n; a = b) {
        for (b = a; b < n && strcmp(inv->key[idx[b]], inv->key[idx[a]]) == 0; b++)
            ;
        fprintf(out, "%s (%u)\n", inv->key[idx[a]], b - a);
        for (uint32_t k = a; k < b; k++)
            fprintf(out, "  %c %s\n", marks && !inv->valid[idx[k]] ? '!' : ' ', inv->line[idx[k]]);
    }
    free(idx);
}

/* ---- ptxas: which refused lines are valid PTX -------------------------- */

/* Write the forms.txt declarations for arch with lines idx[0..n) of inv
 * as the kernel's body into path; returns the line of the first
 * instruction. With sampler the module uses texmode_independent and
 * declares the .samplerref (under the default unified mode ptxas refuses
 * it). */
static unsigned write_ptxas_input(const char *path, const char *arch, bool sampler, const inventory *inv,
                                  const uint32_t *idx, uint32_t n)
{
    char head[2048];
    snprintf(head, sizeof head, ".version 9.0\n.target %s%s\n.address_size 64\n"
               ".global .align 8 .b8 gsym[64];\n.shared .align 8 .b8 ssym[64];\n"
               ".const .align 8 .b8 csym[64];\n.global .texref tex1;\n%s.global .surfref surf1;\n"
               ".func f0()\n{\n ret;\n}\n.func (.param .b32 r) f1(.param .b32 a)\n{\n ret;\n}\n"
               ".entry k()\n{\n .reg .b32 %%r<32>;\n .reg .b64 %%rd<32>;\n .reg .f32 %%f<32>;\n"
               " .reg .f64 %%fd<32>;\n .reg .b16 %%h<32>;\n .reg .b128 %%q<32>;\n .reg .pred %%p<32>;\n"
               " proto1: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
               " bt1: .branchtargets L1, L2;\nL1:\nL2:\n",
             arch, sampler ? ", texmode_independent" : "", sampler ? ".global .samplerref samp1;\n" : "");
    unsigned first = 1;
    for (const char *s = head; *s; s++)
        first += *s == '\n';
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(head, f);
    for (uint32_t k = 0; k < n; k++)
        fprintf(f, "%s\n", inv->line[idx[k]]);
    fprintf(f, " ret;\n}\n");
    fclose(f);
    return first;
}

/* Run ptxas -arch=arch on `in` with its messages into `msgs`. */
static void run_ptxas(const char *ptxas, const char *arch, const char *in, const char *msgs)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        char archopt[64];
        snprintf(archopt, sizeof archopt, "-arch=%s", arch);
        if (!freopen(msgs, "w", stderr))
            _exit(127);
        execl(ptxas, "ptxas", archopt, "-O0", in, "-o", "/dev/null", (char *)NULL);
        _exit(127);
    }
    int status;
    waitpid(pid, &status, 0);
}

/* Which of the lines idx[0..n) of inv ptxas rejects for arch, each as if
 * alone in the kernel: rejected[i] set for line i. ptxas reports errors
 * with their lines, but a fatal (syntax) error stops it, and errors of
 * one pass hide those of later ones: the lines it names are taken out and
 * the rest asked again, until it names none. */
static void ptxas_rejects(const char *ptxas, const char *arch, bool sampler, const inventory *inv,
                          const uint32_t *idx, uint32_t n, bool *rejected)
{
    char in[] = "/tmp/simtlab-forms-XXXXXX.ptx", msgs[] = "/tmp/simtlab-forms-XXXXXX.txt";
    int fd1 = mkstemps(in, 4), fd2 = mkstemps(msgs, 4);
    assert_true(fd1 >= 0 && fd2 >= 0);
    close(fd1);
    close(fd2);
    uint32_t *pending = malloc((n + 1) * sizeof *pending);
    memcpy(pending, idx, n * sizeof *pending);
    bool *bad = calloc(n + 1, sizeof *bad);
    for (bool named = true; n && named;) {
        unsigned first = write_ptxas_input(in, arch, sampler, inv, pending, n);
        run_ptxas(ptxas, arch, in, msgs);
        char *text = slurp(msgs);
        assert_non_null(text);
        memset(bad, 0, n * sizeof *bad);
        named = false;
        for (char *s = strstr(text, ", line "); s; s = strstr(s + 1, ", line ")) {
            unsigned line;
            char kind[16];
            if (sscanf(s, ", line %u; %15s", &line, kind) != 2 || line < first || line - first >= n ||
                (strncmp(kind, "error", 5) != 0 && strncmp(kind, "fatal", 5) != 0))
                continue; /* advisories and warnings do not reject */
            bad[line - first] = named = true;
        }
        free(text);
        uint32_t kept = 0;
        for (uint32_t k = 0; k < n; k++) {
            if (bad[k])
                rejected[pending[k]] = true;
            else
                pending[kept++] = pending[k];
        }
        n = kept;
    }
    free(bad);
    free(pending);
    unlink(in);
    unlink(msgs);
}

/* inv->valid for the refused lines: ptxas accepts them for one of
 * ptxas_archs. Lines naming the sampler go in modules of their own, 250
 * lines a module (ptxas is quick on small modules). */
static void check_with_ptxas(const char *ptxas, inventory *inv)
{
    uint32_t *idx = malloc((inv->n + 1) * sizeof *idx);
    bool *rejected = calloc(inv->n, sizeof *rejected);
    for (size_t a = 0; a < sizeof ptxas_archs / sizeof *ptxas_archs; a++) {
        for (int sampler = 0; sampler < 2; sampler++) {
            uint32_t n = 0;
            for (uint32_t i = 0; i < inv->n; i++)
                if (inv->refused[i] && !inv->valid[i] && (strstr(inv->line[i], "samp1") != NULL) == sampler)
                    idx[n++] = i;
            for (uint32_t start = 0; start < n; start += 250)
                ptxas_rejects(ptxas, ptxas_archs[a], sampler, inv, idx + start, n - start < 250 ? n - start : 250,
                              rejected);
            for (uint32_t k = 0; k < n; k++) {
                inv->valid[idx[k]] = !rejected[idx[k]];
                rejected[idx[k]] = false;
            }
        }
    }
    free(rejected);
    free(idx);
}

/* ---- the committed file ------------------------------------------------- */

/* `--write FILE`: decode forms.txt, ask ptxas about the refused lines and
 * write the inventory to FILE. */
static void write_inventory(void **state)
{
    const char *out_path = *state;
    char *ptxas = ptx_test_find_ptxas();
    if (!ptxas)
        fail_msg("ptxas is not on PATH: it marks the lines that are not valid PTX");
    inventory inv;
    read_forms(&inv);
    decode_forms(&inv);
    check_with_ptxas(ptxas, &inv);
    free(ptxas);
    uint32_t refused = 0, valid = 0;
    for (uint32_t i = 0; i < inv.n; i++) {
        refused += inv.refused[i];
        valid += inv.valid[i];
    }
    FILE *out = fopen(out_path, "w");
    if (!out)
        fail_msg("cannot write %s", out_path);
    fprintf(out,
            "# Generated by emulator/tests/test_emu_unsupported_forms.c; do not edit. Regenerate:\n"
            "#     %s\n"
            "# The lines of testdata/isa/forms.txt the emulator's decoder refuses: a\n"
            "# launch reaching one stops with \"unsupported instruction '...' at FILE:LINE\".\n"
            "# Grouped by KEY (N lines): the opcode and the modifiers of its lines that no\n"
            "# line the emulator runs carries (what selects the refusal); \"(every line)\"\n"
            "# when it runs no line of forms.txt with the opcode (it may run forms not\n"
            "# in forms.txt); \"with N operands\" or \"(operand forms)\" when the modifiers\n"
            "# are all ones it runs elsewhere.\n"
            "# '!' marks the lines ptxas 13 rejects for each of sm_100a, sm_90a, sm_103a\n"
            "# and sm_120a: forms.txt combines modifiers and operand shapes the ISA's\n"
            "# semantics rule out, and those are not gaps.\n"
            "# %u of %u lines refused; %u of them valid PTX.\n",
            REGENERATE, refused, inv.n, valid);
    write_groups(&inv, true, out);
    fclose(out);
    inventory_free(&inv);
}

/* The committed inventory with its '!' marks taken out (the caller frees
 * it), and the opcodes of its groups with a line not marked. */
static char *committed_body(const char *text, char ***valid_ops, uint32_t *nvalid)
{
    size_t len = strlen(text);
    char *body = malloc(len + 1), *p = body;
    char *group = NULL;
    *valid_ops = NULL;
    *nvalid = 0;
    for (const char *s = text, *eol; *s; s = eol + (*eol != '\0')) {
        eol = s + strcspn(s, "\n");
        size_t n = (size_t)(eol - s);
        if (n == 0 || *s == '#')
            continue;
        if (*s != ' ') { /* a group header: its opcode is the first word */
            free(group);
            group = strndup(s, strcspn(s, " \n"));
        } else if (n > 4 && s[2] != '!' && group) {
            bool known = false;
            for (uint32_t k = 0; k < *nvalid; k++)
                known |= strcmp((*valid_ops)[k], group) == 0;
            if (!known) {
                *valid_ops = realloc(*valid_ops, (*nvalid + 1) * sizeof **valid_ops);
                (*valid_ops)[(*nvalid)++] = strdup(group);
            }
        }
        memcpy(p, s, n);
        if (*s == ' ' && n > 2)
            p[2] = ' ';
        p += n;
        *p++ = '\n';
    }
    *p = '\0';
    free(group);
    return body;
}

/* Print (the first 40 of) the lines of a that b lacks, prefixed by what. */
static void print_missing(const char *a, const char *b, const char *what)
{
    unsigned count = 0;
    for (const char *s = a, *eol; *s; s = eol + (*eol != '\0')) {
        eol = s + strcspn(s, "\n");
        size_t n = (size_t)(eol - s);
        bool present = false;
        for (const char *t = b, *e; *t && !present; t = e + (*e != '\0')) {
            e = t + strcspn(t, "\n");
            present = (size_t)(e - t) == n && strncmp(t, s, n) == 0;
        }
        if (!present && count++ < 40)
            print_error("%s%.*s\n", what, (int)n, s);
    }
}

/* The decoder's refusals are exactly those testdata/isa/unsupported_forms.txt
 * lists, in the same groups. */
static void test_inventory_matches(void **state)
{
    (void)state;
    inventory inv;
    read_forms(&inv);
    decode_forms(&inv);
    char *now = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&now, &len);
    write_groups(&inv, false, mem);
    fclose(mem);
    char path[4096];
    ptx_test_path(path, sizeof path, "isa/unsupported_forms.txt");
    char *text = slurp(path);
    if (!text)
        fail_msg("cannot read %s; generate it: %s", path, REGENERATE);
    char **ops;
    uint32_t nops;
    char *committed = committed_body(text, &ops, &nops);
    if (strcmp(now, committed) != 0) {
        print_missing(now, committed, "the decoder refuses (or groups so), the file lacks: ");
        print_missing(committed, now, "the file lists, the decoder does not refuse (or group so): ");
        fail_msg("testdata/isa/unsupported_forms.txt is out of date: regenerate it with %s, and update "
                 "README.md's list of what the emulator does not execute", REGENERATE);
    }
    for (uint32_t k = 0; k < nops; k++)
        free(ops[k]);
    free(ops);
    free(committed);
    free(text);
    free(now);
    inventory_free(&inv);
}

/* The README's list of what the emulator cannot execute: from "cannot
 * execute yet" to the end of its bullet (the caller frees it). */
static char *readme_sentence(void)
{
    char path[4096];
    ptx_test_path(path, sizeof path, "../README.md");
    char *text = slurp(path);
    if (!text)
        fail_msg("cannot read %s", path);
    char *start = strstr(text, "cannot execute yet");
    if (!start)
        fail_msg("README.md has no sentence \"An instruction simtlab cannot execute yet stops the launch ...\"");
    char *end = strstr(start, "\n- **");
    char *r = strndup(start, end ? (size_t)(end - start) : strlen(start));
    free(text);
    return r;
}

/* Is opcode op named in sentence s, in backquotes: `op`, a dotted prefix
 * of it (`tcgen05` names tcgen05.mma), or op with modifiers (`sust.p`)? */
static bool names_opcode(const char *s, const char *op)
{
    size_t len = strlen(op);
    for (const char *q = strchr(s, '`'); q; q = strchr(q + 1, '`')) {
        const char *w = q + 1, *e = strchr(w, '`');
        if (!e)
            break;
        size_t n = (size_t)(e - w);
        if (n && n <= len && strncmp(w, op, n) == 0 && (op[n] == '\0' || op[n] == '.'))
            return true;
        if (n > len && strncmp(w, op, len) == 0 && w[len] == '.')
            return true;
        q = e;
    }
    return false;
}

/* Every opcode with a refused form that ptxas accepts (a group of the
 * committed file with a line not marked '!') is named in the README's
 * list of what the emulator does not execute. */
static void test_readme_names_refusals(void **state)
{
    (void)state;
    char path[4096];
    ptx_test_path(path, sizeof path, "isa/unsupported_forms.txt");
    char *text = slurp(path);
    if (!text)
        fail_msg("cannot read %s; generate it: %s", path, REGENERATE);
    char **ops;
    uint32_t nops;
    free(committed_body(text, &ops, &nops));
    free(text);
    char *sentence = readme_sentence();
    unsigned missing = 0;
    for (uint32_t k = 0; k < nops; k++) {
        if (!names_opcode(sentence, ops[k])) {
            print_error("README.md does not name `%s`, which the emulator refuses\n", ops[k]);
            missing++;
        }
        free(ops[k]);
    }
    free(ops);
    free(sentence);
    if (missing)
        fail_msg("README.md's list of what the emulator does not execute misses %u opcodes of "
                 "testdata/isa/unsupported_forms.txt", missing);
    assert_true(nops > 0);
}

/* A module with texture and surface references (with an initializer
 * too) loads; the first instruction naming one stops the launch with its
 * text and line (testdata/hand/texrefs_unified.ptx, line 38). */
static void test_texref_refused_at_instruction(void **state)
{
    (void)state;
    emu e;
    emu_open(&e, "hand/texrefs_unified.ptx");
    uint64_t out = emu_buf(&e, NULL, 64), tex = 0, surf = 0;
    const void *args[] = {&out, &tex, &surf};
    assert_int_equal(emu_try(&e, "unified_tex", emu_cfg(1, 1, 1, 1), args), -1);
    assert_int_equal(e.stats.error, SIM_ERR_UNSUPPORTED);
    if (!strstr(e.err, "unsupported instruction 'tex.1d.v4.s32.s32") || !strstr(e.err, "texrefs_unified.ptx:38"))
        fail_msg("unexpected message: %s", e.err);
    emu_close(&e);
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--write") == 0) {
        const struct CMUnitTest write[] = {cmocka_unit_test_prestate(write_inventory, argv[2])};
        return cmocka_run_group_tests(write, NULL, NULL);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inventory_matches),
        cmocka_unit_test(test_readme_names_refusals),
        cmocka_unit_test(test_texref_refused_at_instruction),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
