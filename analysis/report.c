/* report.c — analysis annotations for people: a text report per kernel
 * and a Graphviz CFG with reconvergence edges (dashed blue), likely-
 * convergence edges (dotted green) and branch blocks colored by class. */
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/nextaccess.h"
#include "analysis/taint.h"
#include "ir/cfg_export.h"
#include "ir/printer.h"

static const char *yes_no(bool b)
{
    return b ? "yes" : "no";
}

/* "line 42", "kernel end" or "never" for a reconvergence target. */
static void where(FILE *out, uint32_t pc, uint32_t line, bool reaches)
{
    if (!reaches)
        fputs("never (cannot reach an exit)", out);
    else if (pc == PTX_NONE)
        fputs("function end", out);
    else
        fprintf(out, "line %u", line);
}

static void text_branches(const ptx_kernel_notes *k, FILE *out)
{
    fprintf(out, "  branches: %u\n", k->nbranches);
    for (uint32_t i = 0; i < k->nbranches; i++) {
        const ptx_branch_note *b = &k->branches[i];
        fprintf(out, "    line %-6u %s%s", b->line, b->conditional ? "conditional" : "unconditional",
                b->uni ? " .uni" : "");
        if (!b->conditional) {
            fputc('\n', out);
            continue;
        }
        fprintf(out, "  class %s  cta_uniform %s  reconverges at ",
                ptx_branch_class_name((ptx_branch_class)b->cls), yes_no(b->cta_uniform));
        where(out, b->ipdom_pc, b->ipdom_line, b->reconverges);
        if (b->lpc_pc != PTX_NONE)
            fprintf(out, "  likely convergence at line %u", b->lpc_line);
        fprintf(out, "  interleavable %s  controls %u block%s\n", yes_no(b->interleavable),
                b->ncontrols, b->ncontrols == 1 ? "" : "s");
    }
}

static void text_registers(const ptx_kernel_notes *k, FILE *out)
{
    uint32_t by_type[PTX_TYPE_COUNT] = {0}, by_kind[4] = {0};
    for (uint32_t i = 0; i < k->nregs; i++) {
        by_type[k->regs[i].type < PTX_TYPE_COUNT ? k->regs[i].type : 0]++;
        for (uint32_t j = 0; j < k->regs[i].naccesses; j++)
            by_kind[k->regs[i].accesses[j].next & 3]++;
    }
    fprintf(out, "  registers: %u used, at most %u live at once (", k->nregs, k->max_live);
    const char *sep = "";
    for (int t = 1; t < PTX_TYPE_COUNT; t++)
        if (by_type[t]) {
            fprintf(out, "%s%u .%s", sep, by_type[t], ptx_type_name((ptx_type)t));
            sep = ", ";
        }
    fprintf(out, ")\n  next access after each access: %u read, %u write, %u none, %u undetermined\n",
            by_kind[PTX_NEXT_READ], by_kind[PTX_NEXT_WRITE], by_kind[PTX_NEXT_NONE],
            by_kind[PTX_NEXT_UNDETERMINED]);
}

void ptx_annotations_write_text(const ptx_annotations *a, FILE *out)
{
    fprintf(out, "%s\n", a->file);
    for (uint32_t i = 0; i < a->nkernels; i++) {
        const ptx_kernel_notes *k = &a->kernels[i];
        fprintf(out, "\n%s %s: %u blocks, %u instructions\n", k->is_entry ? "kernel" : "func",
                k->name, k->nblocks, k->ninstrs);
        if (k->taint_flow_insensitive)
            fputs("  branch classes: flow-insensitive taint (the function is too large for "
                  "per-block facts), so P/D and uniformity are conservative\n", out);
        fprintf(out, "  loops: %u\n", k->nloops);
        for (uint32_t j = 0; j < k->nloops; j++) {
            const ptx_loop_note *l = &k->loops[j];
            fprintf(out, "    header line %-6u depth %u%s  latches at line", l->header_line,
                    l->depth, l->irreducible ? "  IRREDUCIBLE" : "");
            for (uint32_t n = 0; n < l->nlatches; n++)
                fprintf(out, "%s %u", n ? "," : "", l->latch_lines[n]);
            fputc('\n', out);
        }
        text_branches(k, out);
        text_registers(k, out);
    }
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
