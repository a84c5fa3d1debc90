/* load.c — the front door: PTX text or CUDA binaries to a module. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ir/util.h"
#include "parser/container.h"
#include "parser/parser.h"

/* Parse a copy of text (the lexer needs a padded, writable buffer). */
static ptx_module *parse_copy(const char *text, size_t len, const char *name, const ptx_parse_options *opts,
                              ptx_diags *diags)
{
    char *copy = ptx_xmalloc(len + PTX_PARSE_PADDING);
    memcpy(copy, text, len);
    memset(copy + len, 0, PTX_PARSE_PADDING);
    ptx_module *m = ptx_parse_buffer_opts(copy, len, name, opts, diags);
    free(copy);
    return m;
}

ptx_module *ptx_parse_string_opts(const char *text, size_t len, const char *name,
                                  const ptx_parse_options *opts, ptx_diags *diags)
{
    return parse_copy(text, len, name, opts, diags);
}

ptx_module *ptx_parse_string(const char *text, size_t len, const char *name, ptx_diags *diags)
{
    return parse_copy(text, len, name, NULL, diags);
}

/* Parse the PTX of a CUDA binary: the entry for `arch`, or the newest. */
static ptx_module *load_container(const char *path, const unsigned char *buf, size_t size,
                                  unsigned arch, const ptx_parse_options *opts, ptx_diags *diags)
{
    ptx_container c;
    char err[256] = "";
    if (ptx_container_read(buf, size, &c, err, sizeof err) != 0) {
        ptx_diag_add(diags, PTX_DIAG_ERROR, path, 0, 0, "cannot read CUDA binary: %s", err);
        return NULL;
    }
    long k = ptx_container_pick(&c, arch);
    if (k < 0) {
        if (c.is_cubin)
            ptx_diag_add(diags, PTX_DIAG_ERROR, path, 0, 0,
                         "a .cubin holds machine code (SASS) only, no PTX; compile with "
                         "-gencode arch=compute_XX,code=compute_XX to embed PTX");
        else if (arch)
            ptx_diag_add(diags, PTX_DIAG_ERROR, path, 0, 0,
                         "no PTX for sm_%u in this binary (see 'simtlab extract' for what it holds)",
                         arch);
        else
            ptx_diag_add(diags, PTX_DIAG_ERROR, path, 0, 0,
                         "no PTX embedded in this binary; rebuild with "
                         "-gencode arch=compute_XX,code=compute_XX");
        ptx_container_free(&c);
        return NULL;
    }
    const ptx_entry *e = &c.entries[k];
    char *name = ptx_format("%s(ptx:compute_%u)", path, e->arch);
    ptx_module *m = parse_copy(e->data, e->size, name, opts, diags);
    free(name);
    ptx_container_free(&c);
    return m;
}

ptx_module *ptx_load_file_opts(const char *path, unsigned arch, const ptx_parse_options *opts,
                               ptx_diags *diags)
{
    size_t size = 0;
    char *buf = ptx_read_file(path, &size);
    if (!buf) {
        ptx_diag_add(diags, PTX_DIAG_ERROR, path, 0, 0, "cannot read: %s", ptx_read_error(errno));
        return NULL;
    }
    ptx_module *m;
    if (ptx_container_is_binary((const unsigned char *)buf, size))
        m = load_container(path, (const unsigned char *)buf, size, arch, opts, diags);
    else
        m = ptx_parse_buffer_opts(buf, size, path, opts, diags);
    free(buf);
    return m;
}

ptx_module *ptx_load_file(const char *path, unsigned arch, ptx_diags *diags)
{
    return ptx_load_file_opts(path, arch, NULL, diags);
}
