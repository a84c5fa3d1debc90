/* annotations.c — analysis annotations as JSON ("simtlab-analysis/1") and
 * back, so a timing run can use annotations produced earlier or edited.
 * Writing is by hand (stable field order); reading uses jansson. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/nextaccess.h"
#include "analysis/taint.h"
#include "analysis/writer.h"
#include "ir/cfg_export.h"
#include "ir/util.h"

static const char *const class_names[] = {"uniform", "P", "D"};
static const char *const next_names[] = {"none", "read", "write", "undetermined"};

static const char *true_false(bool b)
{
    return b ? "true" : "false";
}

/* A pc and its line, or two nulls for PTX_NONE. */
static void write_pc(ptx_writer *w, const char *key, uint32_t pc, uint32_t line)
{
    ptx_put_str(w, ",\"");
    ptx_put_str(w, key);
    if (pc == PTX_NONE) {
        ptx_put_str(w, "_line\":null,\"");
        ptx_put_str(w, key);
        ptx_put_str(w, "_pc\":null");
        return;
    }
    ptx_put_str(w, "_line\":");
    ptx_put_u32(w, line);
    ptx_put_str(w, ",\"");
    ptx_put_str(w, key);
    ptx_put_str(w, "_pc\":");
    ptx_put_u32(w, pc);
}

/* A list of numbers: [1,2,3]. */
static void write_u32_list(ptx_writer *w, const uint32_t *v, uint32_t n)
{
    ptx_put_char(w, '[');
    for (uint32_t i = 0; i < n; i++) {
        if (i)
            ptx_put_char(w, ',');
        ptx_put_u32(w, v[i]);
    }
    ptx_put_char(w, ']');
}

static void write_branch(const ptx_branch_note *b, ptx_writer *w)
{
    ptx_put_str(w, "{\"line\":");
    ptx_put_u32(w, b->line);
    ptx_put_str(w, ",\"pc\":");
    ptx_put_u32(w, b->pc);
    ptx_put_str(w, ",\"conditional\":");
    ptx_put_str(w, true_false(b->conditional));
    ptx_put_str(w, ",\"uni\":");
    ptx_put_str(w, true_false(b->uni));
    write_pc(w, "ipdom", b->ipdom_pc, b->ipdom_line);
    ptx_put_str(w, ",\"reconverges\":");
    ptx_put_str(w, true_false(b->reconverges));
    write_pc(w, "lpc", b->lpc_pc, b->lpc_line);
    ptx_put_str(w, ",\"class\":\"");
    ptx_put_str(w, class_names[b->cls < 3 ? b->cls : 0]);
    ptx_put_str(w, "\",\"cta_uniform\":");
    ptx_put_str(w, true_false(b->cta_uniform));
    ptx_put_str(w, ",\"interleavable\":");
    ptx_put_str(w, true_false(b->interleavable));
    ptx_put_str(w, ",\"controls_pcs\":");
    write_u32_list(w, b->controls, b->ncontrols);
    ptx_put_char(w, '}');
}

static void write_loop(const ptx_loop_note *l, ptx_writer *w)
{
    ptx_put_str(w, "{\"header_line\":");
    ptx_put_u32(w, l->header_line);
    ptx_put_str(w, ",\"header_pc\":");
    ptx_put_u32(w, l->header_pc);
    ptx_put_str(w, ",\"latch_lines\":");
    write_u32_list(w, l->latch_lines, l->nlatches);
    ptx_put_str(w, ",\"depth\":");
    ptx_put_u32(w, l->depth);
    ptx_put_str(w, ",\"irreducible\":");
    ptx_put_str(w, true_false(l->irreducible));
    ptx_put_char(w, '}');
}

static void write_reg(const ptx_reg_note *r, ptx_writer *w)
{
    ptx_put_str(w, "{\"name\":");
    ptx_put_json_string(w, r->name);
    ptx_put_str(w, ",\"type\":\"");
    ptx_put_str(w, ptx_type_name((ptx_type)r->type));
    ptx_put_str(w, "\",\"next_access\":[");
    for (uint32_t i = 0; i < r->naccesses; i++) {
        const ptx_access_note *a = &r->accesses[i];
        ptx_put_str(w, i ? ",{\"line\":" : "{\"line\":");
        ptx_put_u32(w, a->line);
        ptx_put_str(w, ",\"pc\":");
        ptx_put_u32(w, a->pc);
        ptx_put_str(w, a->is_write ? ",\"access\":\"write\",\"kind\":\""
                                   : ",\"access\":\"read\",\"kind\":\"");
        ptx_put_str(w, next_names[a->next & 3]);
        ptx_put_char(w, '"');
        if (a->is_write) {
            ptx_put_str(w, ",\"idle\":");
            ptx_put_u32(w, a->idle);
        }
        ptx_put_char(w, '}');
    }
    ptx_put_str(w, "]}");
}

void ptx_annotations_write_json(const ptx_annotations *a, FILE *out)
{
    ptx_writer *w = ptx_xmalloc(sizeof *w);
    ptx_writer_init(w, out);
    ptx_put_str(w, "{\"schema\":\"simtlab-analysis/1\",\"file\":");
    ptx_put_json_string(w, a->file);
    ptx_put_str(w, ",\"kernels\":[");
    for (uint32_t i = 0; i < a->nkernels; i++) {
        const ptx_kernel_notes *k = &a->kernels[i];
        ptx_put_str(w, i ? ",\n{\"name\":" : "\n{\"name\":");
        ptx_put_json_string(w, k->name);
        ptx_put_str(w, k->is_entry ? ",\"kind\":\"entry\",\"blocks\":"
                                   : ",\"kind\":\"func\",\"blocks\":");
        ptx_put_u32(w, k->nblocks);
        ptx_put_str(w, ",\"instructions\":");
        ptx_put_u32(w, k->ninstrs);
        ptx_put_str(w, ",\"max_live\":");
        ptx_put_u32(w, k->max_live);
        ptx_put_str(w, ",\"phys_regs\":");
        ptx_put_u32(w, k->phys_regs);
        ptx_put_str(w, ",\"taint_flow_insensitive\":");
        ptx_put_str(w, true_false(k->taint_flow_insensitive));
        ptx_put_str(w, ",\n \"branches\":[");
        for (uint32_t j = 0; j < k->nbranches; j++) {
            ptx_put_str(w, j ? ",\n  " : "\n  ");
            write_branch(&k->branches[j], w);
        }
        ptx_put_str(w, "],\n \"loops\":[");
        for (uint32_t j = 0; j < k->nloops; j++) {
            if (j)
                ptx_put_char(w, ',');
            write_loop(&k->loops[j], w);
        }
        ptx_put_str(w, "],\n \"registers\":[");
        for (uint32_t j = 0; j < k->nregs; j++) {
            ptx_put_str(w, j ? ",\n  " : "\n  ");
            write_reg(&k->regs[j], w);
        }
        ptx_put_str(w, "]}");
    }
    ptx_put_str(w, "]}\n");
    ptx_writer_flush(w);
    free(w);
}

/* ---- reading ----------------------------------------------------------- */

typedef struct reader {
    char *err;
    size_t errlen;
    bool failed;
} reader;

static void rfail(reader *r, const char *what, const char *where)
{
    if (!r->failed)
        snprintf(r->err, r->errlen, "%s in %s", what, where);
    r->failed = true;
}

/* An unsigned integer field (or null → PTX_NONE when nullable). */
static uint32_t get_u32(reader *r, json_t *o, const char *key, bool nullable, const char *where)
{
    json_t *v = json_object_get(o, key);
    if (nullable && json_is_null(v))
        return PTX_NONE;
    if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) >= PTX_NONE) {
        char what[96];
        snprintf(what, sizeof what, "missing or bad \"%s\"", key);
        rfail(r, what, where);
        return 0;
    }
    return (uint32_t)json_integer_value(v);
}

static bool get_bool(reader *r, json_t *o, const char *key, const char *where)
{
    json_t *v = json_object_get(o, key);
    if (!json_is_boolean(v)) {
        char what[96];
        snprintf(what, sizeof what, "missing or bad \"%s\"", key);
        rfail(r, what, where);
    }
    return json_is_true(v);
}

/* Index of s in names[0..n), or -1. */
static int name_index(const char *const *names, int n, const char *s)
{
    for (int i = 0; s && i < n; i++)
        if (strcmp(names[i], s) == 0)
            return i;
    return -1;
}

static void read_branch(reader *r, json_t *o, ptx_branch_note *b, ptx_annotations *a)
{
    const char *w = "a branch";
    b->line = get_u32(r, o, "line", false, w);
    b->pc = get_u32(r, o, "pc", false, w);
    b->conditional = get_bool(r, o, "conditional", w);
    b->uni = get_bool(r, o, "uni", w);
    b->ipdom_pc = get_u32(r, o, "ipdom_pc", true, w);
    b->ipdom_line = b->ipdom_pc == PTX_NONE ? 0 : get_u32(r, o, "ipdom_line", false, w);
    b->reconverges = get_bool(r, o, "reconverges", w);
    b->lpc_pc = get_u32(r, o, "lpc_pc", true, w);
    b->lpc_line = b->lpc_pc == PTX_NONE ? 0 : get_u32(r, o, "lpc_line", false, w);
    int c = name_index(class_names, 3, json_string_value(json_object_get(o, "class")));
    if (c < 0)
        rfail(r, "bad \"class\" (uniform, P or D)", w);
    b->cls = (uint8_t)(c < 0 ? 0 : c);
    b->cta_uniform = get_bool(r, o, "cta_uniform", w);
    b->interleavable = get_bool(r, o, "interleavable", w);
    json_t *ctl = json_object_get(o, "controls_pcs");
    if (!json_is_array(ctl)) {
        rfail(r, "missing \"controls_pcs\"", w);
        return;
    }
    b->ncontrols = (uint32_t)json_array_size(ctl);
    b->controls = ptx_annotations_alloc(a, b->ncontrols * sizeof *b->controls);
    for (uint32_t i = 0; i < b->ncontrols; i++) {
        json_t *v = json_array_get(ctl, i);
        if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) >= PTX_NONE)
            rfail(r, "bad pc in \"controls_pcs\"", w);
        else
            b->controls[i] = (uint32_t)json_integer_value(v);
    }
}

static void read_loop(reader *r, json_t *o, ptx_loop_note *l, ptx_annotations *a)
{
    const char *w = "a loop";
    l->header_line = get_u32(r, o, "header_line", false, w);
    l->header_pc = get_u32(r, o, "header_pc", false, w);
    l->depth = get_u32(r, o, "depth", false, w);
    l->irreducible = get_bool(r, o, "irreducible", w);
    json_t *lat = json_object_get(o, "latch_lines");
    if (!json_is_array(lat)) {
        rfail(r, "missing \"latch_lines\"", w);
        return;
    }
    l->nlatches = (uint32_t)json_array_size(lat);
    l->latch_lines = ptx_annotations_alloc(a, l->nlatches * sizeof *l->latch_lines);
    for (uint32_t i = 0; i < l->nlatches; i++) {
        json_t *v = json_array_get(lat, i);
        if (!json_is_integer(v) || json_integer_value(v) < 0)
            rfail(r, "bad latch line", w);
        else
            l->latch_lines[i] = (uint32_t)json_integer_value(v);
    }
}

/* Read one register into g; its name and accesses are appended to the
 * kernel's pools at *npos and *apos (sized beforehand). */
static void read_reg(reader *r, json_t *o, ptx_kernel_notes *k, ptx_reg_note *g, size_t *npos,
                     uint32_t *apos)
{
    const char *w = "a register";
    const char *name = json_string_value(json_object_get(o, "name"));
    const char *type = json_string_value(json_object_get(o, "type"));
    if (!name)
        rfail(r, "missing \"name\"", w);
    g->name = k->name_pool + *npos;
    strcpy(g->name, name ? name : "");
    *npos += strlen(g->name) + 1;
    g->type = PTX_TYPE_NONE;
    for (int t = 1; type && t < PTX_TYPE_COUNT; t++)
        if (strcmp(type, ptx_type_name((ptx_type)t)) == 0)
            g->type = (uint8_t)t;
    if (!g->type)
        rfail(r, "bad \"type\"", w);
    json_t *acc = json_object_get(o, "next_access");
    g->accesses = k->access_pool + *apos;
    g->naccesses = (uint32_t)json_array_size(acc);
    *apos += g->naccesses;
    for (uint32_t i = 0; i < g->naccesses; i++) {
        json_t *a = json_array_get(acc, i);
        ptx_access_note *n = &g->accesses[i];
        n->line = get_u32(r, a, "line", false, w);
        n->pc = get_u32(r, a, "pc", false, w);
        const char *access = json_string_value(json_object_get(a, "access"));
        if (!access || (strcmp(access, "read") != 0 && strcmp(access, "write") != 0))
            rfail(r, "bad \"access\" (read or write)", w);
        n->is_write = access && strcmp(access, "write") == 0;
        int kind = name_index(next_names, 4, json_string_value(json_object_get(a, "kind")));
        if (kind < 0)
            rfail(r, "bad \"kind\" (none, read, write or undetermined)", w);
        n->next = (uint8_t)(kind < 0 ? 0 : kind);
        if (n->is_write) {
            uint32_t idle = get_u32(r, a, "idle", false, w);
            if (idle > UINT16_MAX)
                rfail(r, "bad \"idle\" (at most 65535)", w);
            n->idle = (uint16_t)idle;
        }
    }
}

/* The registers of a kernel: pools sized first, then filled. */
static void read_regs(reader *r, json_t *o, ptx_kernel_notes *k, ptx_annotations *a)
{
    json_t *arr = json_object_get(o, "registers");
    if (!json_is_array(arr)) {
        rfail(r, "missing \"registers\"", "a kernel");
        return;
    }
    size_t names = 1;
    uint32_t total = 0;
    for (size_t i = 0; i < json_array_size(arr); i++) {
        json_t *g = json_array_get(arr, i);
        const char *name = json_string_value(json_object_get(g, "name"));
        names += (name ? strlen(name) : 0) + 1;
        json_t *acc = json_object_get(g, "next_access");
        if (!json_is_array(acc)) {
            rfail(r, "missing \"next_access\"", "a register");
            return;
        }
        total += (uint32_t)json_array_size(acc);
    }
    k->nregs = (uint32_t)json_array_size(arr);
    k->regs = ptx_annotations_alloc(a, k->nregs * sizeof *k->regs);
    k->name_pool = ptx_annotations_alloc(a, names);
    k->access_pool = ptx_annotations_alloc(a, (size_t)total * sizeof *k->access_pool);
    size_t npos = 0;
    uint32_t apos = 0;
    for (uint32_t i = 0; i < k->nregs; i++)
        read_reg(r, json_array_get(arr, i), k, &k->regs[i], &npos, &apos);
}

/* Read the array `key` of o into *items (count *n) with reader fn; the
 * items live in a's store. */
#define READ_ARRAY(r, o, key, items, n, fn, a)                                        \
    do {                                                                              \
        json_t *arr_ = json_object_get(o, key);                                       \
        if (!json_is_array(arr_)) {                                                   \
            rfail(r, "missing \"" key "\"", "a kernel");                              \
            break;                                                                    \
        }                                                                             \
        (n) = (uint32_t)json_array_size(arr_);                                        \
        (items) = ptx_annotations_alloc(a, (size_t)(n) * sizeof *(items));            \
        for (uint32_t i_ = 0; i_ < (n); i_++)                                         \
            fn(r, json_array_get(arr_, i_), &(items)[i_], a);                         \
    } while (0)

static void read_kernel(reader *r, json_t *o, ptx_kernel_notes *k, ptx_annotations *a)
{
    const char *name = json_string_value(json_object_get(o, "name"));
    if (!name)
        rfail(r, "missing \"name\"", "a kernel");
    name = name ? name : "";
    k->name = ptx_annotations_alloc(a, strlen(name) + 1);
    strcpy(k->name, name);
    const char *kind = json_string_value(json_object_get(o, "kind"));
    k->is_entry = !kind || strcmp(kind, "func") != 0;
    k->nblocks = get_u32(r, o, "blocks", false, "a kernel");
    k->ninstrs = get_u32(r, o, "instructions", false, "a kernel");
    k->max_live = get_u32(r, o, "max_live", false, "a kernel");
    k->phys_regs = json_object_get(o, "phys_regs") ? get_u32(r, o, "phys_regs", false, "a kernel") : 0; /* (newer) */
    k->taint_flow_insensitive = json_is_true(json_object_get(o, "taint_flow_insensitive"));
    READ_ARRAY(r, o, "branches", k->branches, k->nbranches, read_branch, a);
    READ_ARRAY(r, o, "loops", k->loops, k->nloops, read_loop, a);
    read_regs(r, o, k, a);
}

int ptx_annotations_read_json(const char *text, ptx_annotations *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    json_error_t je;
    json_t *root = json_loads(text, 0, &je);
    if (!root) {
        snprintf(err, errlen, "invalid JSON at line %d column %d: %s", je.line, je.column, je.text);
        return -1;
    }
    reader r = {err, errlen, false};
    const char *schema = json_string_value(json_object_get(root, "schema"));
    if (!schema || strcmp(schema, "simtlab-analysis/1") != 0)
        rfail(&r, "missing or unsupported \"schema\" (expected simtlab-analysis/1)", "the document");
    const char *file = json_string_value(json_object_get(root, "file"));
    out->file = ptx_strdup(file ? file : "");
    json_t *ks = json_object_get(root, "kernels");
    if (!json_is_array(ks))
        rfail(&r, "missing \"kernels\"", "the document");
    else {
        out->nkernels = (uint32_t)json_array_size(ks);
        out->kernels = ptx_xcalloc(out->nkernels ? out->nkernels : 1, sizeof *out->kernels);
        for (uint32_t i = 0; i < out->nkernels; i++)
            read_kernel(&r, json_array_get(ks, i), &out->kernels[i], out);
    }
    json_decref(root);
    if (r.failed) {
        ptx_annotations_free(out);
        return -1;
    }
    return 0;
}

/* ---- comparing and freeing ---------------------------------------------- */

static bool branches_equal(const ptx_branch_note *a, const ptx_branch_note *b)
{
    return a->pc == b->pc && a->line == b->line && a->conditional == b->conditional &&
           a->uni == b->uni && a->ipdom_pc == b->ipdom_pc && a->ipdom_line == b->ipdom_line &&
           a->reconverges == b->reconverges && a->lpc_pc == b->lpc_pc &&
           a->lpc_line == b->lpc_line && a->cls == b->cls && a->cta_uniform == b->cta_uniform &&
           a->interleavable == b->interleavable && a->ncontrols == b->ncontrols &&
           (a->ncontrols == 0 || memcmp(a->controls, b->controls, a->ncontrols * sizeof *a->controls) == 0);
}

static bool kernels_equal(const ptx_kernel_notes *a, const ptx_kernel_notes *b)
{
    if (strcmp(a->name, b->name) != 0 || a->is_entry != b->is_entry || a->nblocks != b->nblocks ||
        a->ninstrs != b->ninstrs || a->max_live != b->max_live || a->phys_regs != b->phys_regs ||
        a->taint_flow_insensitive != b->taint_flow_insensitive || a->nbranches != b->nbranches ||
        a->nloops != b->nloops || a->nregs != b->nregs)
        return false;
    for (uint32_t i = 0; i < a->nbranches; i++)
        if (!branches_equal(&a->branches[i], &b->branches[i]))
            return false;
    for (uint32_t i = 0; i < a->nloops; i++) {
        const ptx_loop_note *x = &a->loops[i], *y = &b->loops[i];
        if (x->header_pc != y->header_pc || x->header_line != y->header_line ||
            x->depth != y->depth || x->irreducible != y->irreducible || x->nlatches != y->nlatches ||
            memcmp(x->latch_lines, y->latch_lines, x->nlatches * sizeof *x->latch_lines) != 0)
            return false;
    }
    for (uint32_t i = 0; i < a->nregs; i++) {
        const ptx_reg_note *x = &a->regs[i], *y = &b->regs[i];
        if (strcmp(x->name, y->name) != 0 || x->type != y->type || x->naccesses != y->naccesses)
            return false;
        for (uint32_t j = 0; j < x->naccesses; j++) {
            const ptx_access_note *p = &x->accesses[j], *q = &y->accesses[j];
            if (p->pc != q->pc || p->line != q->line || p->is_write != q->is_write || p->next != q->next ||
                p->idle != q->idle)
                return false;
        }
    }
    return true;
}

bool ptx_annotations_equal(const ptx_annotations *x, const ptx_annotations *y)
{
    if (strcmp(x->file, y->file) != 0 || x->nkernels != y->nkernels)
        return false;
    for (uint32_t i = 0; i < x->nkernels; i++)
        if (!kernels_equal(&x->kernels[i], &y->kernels[i]))
            return false;
    return true;
}

void *ptx_annotations_alloc(ptx_annotations *a, size_t n)
{
    void *p = ptx_arena_alloc(&a->store, n ? n : 1);
    memset(p, 0, n ? n : 1);
    return p;
}

void ptx_annotations_free(ptx_annotations *a)
{
    ptx_arena_free(&a->store);
    free(a->kernels);
    free(a->file);
    memset(a, 0, sizeof *a);
}
