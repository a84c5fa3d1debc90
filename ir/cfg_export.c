/* cfg_export.c — writing CFGs for people (text, DOT) and programs (JSON). */
#include "ir/cfg_export.h"

#include <stdlib.h>
#include <string.h>

#include "ir/printer.h"

static bool selected(const ptx_module *m, const ptx_function *f, const char *only)
{
    return (f->flags & PTX_FUNCF_HAS_BODY) &&
           (!only || strcmp(ptx_function_name(m, f), only) == 0);
}

bool ptx_cfg_has_function(const ptx_module *m, const char *name)
{
    for (uint32_t i = 0; i < m->nfunctions; i++)
        if (selected(m, &m->functions[i], name))
            return true;
    return false;
}

void ptx_json_string(const char *s, FILE *out)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", out);
        else if (*p == '\t')
            fputs("\\t", out);
        else if (*p < 0x20)
            fprintf(out, "\\u%04x", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

/* Source lines of the first and last instruction of a block (0 if empty). */
static void block_lines(const ptx_function *f, const ptx_block *b, uint32_t *first, uint32_t *last)
{
    *first = b->first < b->end ? f->instrs[b->first].line : 0;
    *last = b->first < b->end ? f->instrs[b->end - 1].line : 0;
}

void ptx_cfg_text(const ptx_module *m, const char *only, FILE *out)
{
    for (uint32_t i = 0; i < m->nfunctions; i++) {
        const ptx_function *f = &m->functions[i];
        if (!selected(m, f, only))
            continue;
        fprintf(out, "%s %s: %u blocks\n", f->kind == PTX_FUNC_ENTRY ? "kernel" : "func",
                ptx_function_name(m, f), f->exit_block);
        for (uint32_t b = 0; b < f->exit_block; b++) {
            const ptx_block *bk = &f->blocks[b];
            uint32_t l1, l2;
            block_lines(f, bk, &l1, &l2);
            if (l1)
                fprintf(out, "  B%u  lines %u-%u  %u instr  ->", b, l1, l2, bk->end - bk->first);
            else
                fprintf(out, "  B%u  (empty)  ->", b);
            for (uint32_t k = 0; k < bk->nsucc; k++) {
                uint32_t s = f->succs[bk->succ + k];
                if (s == f->exit_block)
                    fputs(" exit", out);
                else
                    fprintf(out, " B%u", s);
            }
            fputc('\n', out);
        }
    }
}

void ptx_cfg_json(const ptx_module *m, const char *file, const char *only, FILE *out)
{
    fputs("{\"schema\":\"simtlab-cfg/1\",\"file\":", out);
    ptx_json_string(file, out);
    fputs(",\"kernels\":[", out);
    const char *fsep = "";
    for (uint32_t i = 0; i < m->nfunctions; i++) {
        const ptx_function *f = &m->functions[i];
        if (!selected(m, f, only))
            continue;
        fprintf(out, "%s\n{\"name\":", fsep);
        ptx_json_string(ptx_function_name(m, f), out);
        fprintf(out, ",\"kind\":\"%s\",\"blocks\":[", f->kind == PTX_FUNC_ENTRY ? "entry" : "func");
        for (uint32_t b = 0; b < f->exit_block; b++) {
            const ptx_block *bk = &f->blocks[b];
            uint32_t l1, l2;
            block_lines(f, bk, &l1, &l2);
            fprintf(out, "%s\n {\"id\":%u,", b ? "," : "", b);
            if (l1)
                fprintf(out, "\"first_line\":%u,\"last_line\":%u,", l1, l2);
            else
                fputs("\"first_line\":null,\"last_line\":null,", out);
            fprintf(out, "\"instructions\":%u,\"succs\":[", bk->end - bk->first);
            const char *sep = "";
            for (uint32_t k = 0; k < bk->nsucc; k++) {
                uint32_t s = f->succs[bk->succ + k];
                if (s == f->exit_block)
                    continue;
                fprintf(out, "%s%u", sep, s);
                sep = ",";
            }
            fprintf(out, "],\"exit\":%s}", bk->exits ? "true" : "false");
        }
        fputs("]}", out);
        fsep = ",";
    }
    fputs("]}\n", out);
}

/* Write one instruction into a DOT record label, escaping what DOT needs. */
static void dot_instr(const ptx_module *m, const ptx_function *f, const ptx_instr *in, FILE *out)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem)
        return;
    ptx_print_instr(m, f, in, mem);
    fclose(mem);
    fprintf(out, "%u: ", in->line);
    for (const char *p = text; *p; p++) {
        if (*p == '\t')
            continue; /* the printer aligns operands with a tab; one space is enough here */
        if (*p == '"' || *p == '\\' || *p == '{' || *p == '}' || *p == '<' || *p == '>' || *p == '|')
            fputc('\\', out);
        fputc(*p, out);
    }
    fputs("\\l", out);
    free(text);
}

void ptx_cfg_dot(const ptx_module *m, const char *only, FILE *out)
{
    fputs("digraph cfg {\n  node [shape=box, fontname=\"monospace\", fontsize=10];\n", out);
    for (uint32_t i = 0; i < m->nfunctions; i++) {
        const ptx_function *f = &m->functions[i];
        if (!selected(m, f, only))
            continue;
        fprintf(out, "  subgraph \"cluster_f%u\" {\n    label=", i);
        ptx_json_string(ptx_function_name(m, f), out);
        fputs(";\n", out);
        for (uint32_t b = 0; b < f->exit_block; b++) {
            const ptx_block *bk = &f->blocks[b];
            fprintf(out, "    f%u_b%u [label=\"B%u\\l", i, b, b);
            for (uint32_t k = bk->first; k < bk->end; k++)
                dot_instr(m, f, &f->instrs[k], out);
            fputs("\"];\n", out);
        }
        fprintf(out, "    f%u_exit [label=\"exit\", shape=oval];\n", i);
        for (uint32_t b = 0; b < f->exit_block; b++) {
            const ptx_block *bk = &f->blocks[b];
            for (uint32_t k = 0; k < bk->nsucc; k++) {
                uint32_t s = f->succs[bk->succ + k];
                if (s == f->exit_block)
                    fprintf(out, "    f%u_b%u -> f%u_exit;\n", i, b, i);
                else
                    fprintf(out, "    f%u_b%u -> f%u_b%u;\n", i, b, i, s);
            }
        }
        fputs("  }\n", out);
    }
    fputs("}\n", out);
}
