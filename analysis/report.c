/* report.c — analysis annotations for people: a text report per kernel
 * and a Graphviz CFG with reconvergence edges (dashed blue), likely-
 * convergence edges (dotted green) and branch blocks colored by class. */
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/nextaccess.h"
#include "analysis/taint.h"
#include "analysis/writer.h"
#include "ir/cfg_export.h"
#include "ir/printer.h"
#include "ir/util.h"

static const char *yes_no(bool b)
{
    return b ? "yes" : "no";
}

/* "line 42", "function end" or "never" for a reconvergence target. */
static void where(ptx_writer *w, uint32_t pc, uint32_t line, bool reaches)
{
    if (!reaches) {
        ptx_put_str(w, "never (cannot reach an exit)");
    } else if (pc == PTX_NONE) {
        ptx_put_str(w, "function end");
    } else {
        ptx_put_str(w, "line ");
        ptx_put_u32(w, line);
    }
}

static void text_branches(const ptx_kernel_notes *k, ptx_writer *w)
{
    ptx_put_str(w, "  branches: ");
    ptx_put_u32(w, k->nbranches);
    ptx_put_char(w, '\n');
    for (uint32_t i = 0; i < k->nbranches; i++) {
        const ptx_branch_note *b = &k->branches[i];
        ptx_put_str(w, "    line ");
        ptx_put_u32_left(w, b->line, 6);
        ptx_put_char(w, ' ');
        ptx_put_str(w, b->conditional ? "conditional" : "unconditional");
        if (b->uni)
            ptx_put_str(w, " .uni");
        if (!b->conditional) {
            ptx_put_char(w, '\n');
            continue;
        }
        ptx_put_str(w, "  class ");
        ptx_put_str(w, ptx_branch_class_name((ptx_branch_class)b->cls));
        ptx_put_str(w, "  cta_uniform ");
        ptx_put_str(w, yes_no(b->cta_uniform));
        ptx_put_str(w, "  reconverges at ");
        where(w, b->ipdom_pc, b->ipdom_line, b->reconverges);
        if (b->lpc_pc != PTX_NONE) {
            ptx_put_str(w, "  likely convergence at line ");
            ptx_put_u32(w, b->lpc_line);
        }
        ptx_put_str(w, "  interleavable ");
        ptx_put_str(w, yes_no(b->interleavable));
        ptx_put_str(w, "  controls ");
        ptx_put_u32(w, b->ncontrols);
        ptx_put_str(w, b->ncontrols == 1 ? " block\n" : " blocks\n");
    }
}

static void text_registers(const ptx_kernel_notes *k, ptx_writer *w)
{
    uint32_t by_type[PTX_TYPE_COUNT] = {0}, by_kind[4] = {0};
    for (uint32_t i = 0; i < k->nregs; i++) {
        by_type[k->regs[i].type < PTX_TYPE_COUNT ? k->regs[i].type : 0]++;
        for (uint32_t j = 0; j < k->regs[i].naccesses; j++)
            by_kind[k->regs[i].accesses[j].next & 3]++;
    }
    ptx_put_str(w, "  registers: ");
    ptx_put_u32(w, k->nregs);
    ptx_put_str(w, " used, at most ");
    ptx_put_u32(w, k->max_live);
    ptx_put_str(w, " live at once (");
    const char *sep = "";
    for (int t = 1; t < PTX_TYPE_COUNT; t++)
        if (by_type[t]) {
            ptx_put_str(w, sep);
            ptx_put_u32(w, by_type[t]);
            ptx_put_str(w, " .");
            ptx_put_str(w, ptx_type_name((ptx_type)t));
            sep = ", ";
        }
    static const uint8_t kinds[] = {PTX_NEXT_READ, PTX_NEXT_WRITE, PTX_NEXT_NONE,
                                    PTX_NEXT_UNDETERMINED};
    ptx_put_str(w, "), allocated to ");
    ptx_put_u32(w, k->phys_regs);
    ptx_put_str(w, " 32-bit registers a thread\n  next access after each access:");
    for (unsigned i = 0; i < 4; i++) {
        ptx_put_str(w, i ? ", " : " ");
        ptx_put_u32(w, by_kind[kinds[i]]);
        ptx_put_char(w, ' ');
        ptx_put_str(w, ptx_next_kind_name((ptx_next_kind)kinds[i]));
    }
    ptx_put_char(w, '\n');
}

void ptx_annotations_write_text(const ptx_annotations *a, FILE *out)
{
    ptx_writer *w = ptx_xmalloc(sizeof *w);
    ptx_writer_init(w, out);
    ptx_put_str(w, a->file);
    ptx_put_char(w, '\n');
    for (uint32_t i = 0; i < a->nkernels; i++) {
        const ptx_kernel_notes *k = &a->kernels[i];
        ptx_put_str(w, k->is_entry ? "\nkernel " : "\nfunc ");
        ptx_put_str(w, k->name);
        ptx_put_str(w, ": ");
        ptx_put_u32(w, k->nblocks);
        ptx_put_str(w, " blocks, ");
        ptx_put_u32(w, k->ninstrs);
        ptx_put_str(w, " instructions\n");
        if (k->taint_flow_insensitive)
            ptx_put_str(w, "  branch classes: flow-insensitive taint (the function is too large "
                           "for per-block facts), so P/D and uniformity are conservative\n");
        ptx_put_str(w, "  loops: ");
        ptx_put_u32(w, k->nloops);
        ptx_put_char(w, '\n');
        for (uint32_t j = 0; j < k->nloops; j++) {
            const ptx_loop_note *l = &k->loops[j];
            ptx_put_str(w, "    header line ");
            ptx_put_u32_left(w, l->header_line, 6);
            ptx_put_str(w, " depth ");
            ptx_put_u32(w, l->depth);
            if (l->irreducible)
                ptx_put_str(w, "  IRREDUCIBLE");
            ptx_put_str(w, "  latches at line");
            for (uint32_t n = 0; n < l->nlatches; n++) {
                ptx_put_str(w, n ? ", " : " ");
                ptx_put_u32(w, l->latch_lines[n]);
            }
            ptx_put_char(w, '\n');
        }
        text_branches(k, w);
        text_registers(k, w);
    }
    ptx_writer_flush(w);
    free(w);
}

/* ---- Graphviz -------------------------------------------------------------- */

static const char *const class_color[] = {"palegreen", "orange", "tomato"};

/* The note of the branch ending block b, or NULL. */
static const ptx_branch_note *block_branch(const ptx_function *f, const ptx_kernel_notes *k,
                                           uint32_t b)
{
    for (uint32_t i = 0; i < k->nbranches; i++)
        if (k->branches[i].pc < f->ninstrs && f->instr_block[k->branches[i].pc] == b &&
            k->branches[i].conditional)
            return &k->branches[i];
    return NULL;
}

static void dot_block(const ptx_module *m, const ptx_function *f, const ptx_kernel_notes *k,
                      uint32_t fi, uint32_t b, FILE *out)
{
    const ptx_block *bk = &f->blocks[b];
    const ptx_branch_note *br = block_branch(f, k, b);
    fprintf(out, "    f%u_b%u [label=\"B%u\\l", fi, b, b);
    for (uint32_t pc = bk->first; pc < bk->end; pc++) {
        char *text = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&text, &len);
        if (!mem)
            continue;
        ptx_print_instr(m, f, &f->instrs[pc], mem);
        fclose(mem);
        fprintf(out, "%u: ", f->instrs[pc].line);
        for (const char *p = text; *p; p++) {
            if (*p == '\t')
                continue;
            if (strchr("\"\\{}<>|", *p))
                fputc('\\', out);
            fputc(*p, out);
        }
        fputs("\\l", out);
        free(text);
    }
    fputc('"', out);
    if (br)
        fprintf(out, ", style=filled, fillcolor=%s", class_color[br->cls < 3 ? br->cls : 0]);
    fputs("];\n", out);
}

/* The block whose first instruction is pc (PTX_NONE: the exit). */
static uint32_t pc_block(const ptx_function *f, uint32_t pc)
{
    return pc == PTX_NONE ? f->exit_block : f->instr_block[pc];
}

void ptx_analysis_write_dot(const ptx_module *m, const ptx_annotations *a, FILE *out)
{
    fputs("digraph analysis {\n  node [shape=box, fontname=\"monospace\", fontsize=10];\n", out);
    for (uint32_t ki = 0; ki < a->nkernels; ki++) {
        const ptx_kernel_notes *k = &a->kernels[ki];
        for (uint32_t fi = 0; fi < m->nfunctions; fi++) {
            const ptx_function *f = &m->functions[fi];
            if (!(f->flags & PTX_FUNCF_HAS_BODY) || strcmp(ptx_function_name(m, f), k->name) != 0)
                continue;
            fprintf(out, "  subgraph \"cluster_f%u\" {\n    label=", fi);
            ptx_json_string(k->name, out);
            fputs(";\n", out);
            for (uint32_t b = 0; b < f->exit_block; b++)
                dot_block(m, f, k, fi, b, out);
            fprintf(out, "    f%u_exit [label=\"exit\", shape=oval];\n", fi);
            for (uint32_t b = 0; b < f->exit_block; b++)
                for (uint32_t s = 0; s < f->blocks[b].nsucc; s++) {
                    uint32_t t = f->succs[f->blocks[b].succ + s];
                    if (t == f->exit_block)
                        fprintf(out, "    f%u_b%u -> f%u_exit;\n", fi, b, fi);
                    else
                        fprintf(out, "    f%u_b%u -> f%u_b%u;\n", fi, b, fi, t);
                }
            for (uint32_t i = 0; i < k->nbranches; i++) {
                const ptx_branch_note *br = &k->branches[i];
                if (!br->conditional || !br->reconverges || br->pc >= f->ninstrs)
                    continue;
                uint32_t t = pc_block(f, br->ipdom_pc);
                fprintf(out, "    f%u_b%u -> ", fi, f->instr_block[br->pc]);
                if (t == f->exit_block)
                    fprintf(out, "f%u_exit", fi);
                else
                    fprintf(out, "f%u_b%u", fi, t);
                fputs(" [style=dashed, color=blue, label=\"reconv\"];\n", out);
                if (br->lpc_pc != PTX_NONE && br->lpc_pc < f->ninstrs)
                    fprintf(out, "    f%u_b%u -> f%u_b%u [style=dotted, color=darkgreen, "
                                 "label=\"likely\"];\n",
                            fi, f->instr_block[br->pc], fi, f->instr_block[br->lpc_pc]);
            }
            fputs("  }\n", out);
        }
    }
    fputs("}\n", out);
}
