/* emu_test.h — helpers the emulator tests share: a device with a loaded
 * program, device buffers, parameter buffers built from the kernel's
 * layout, and launches that must succeed or must fail. Include after
 * cmocka.h. */
#ifndef SIMTLAB_EMU_TEST_H
#define SIMTLAB_EMU_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emulator/sim.h"
#include "parser/parser.h"
#include "parser/tests/ptx_test.h"
#include "timing/gpu.h"

typedef struct emu {
    ptx_module *m;
    sim_device *d;
    sim_program *p;
    sim_stats stats;
    char err[1024];
} emu;

/* Open a program from a parsed module (taking ownership of it). */
static inline void emu_open_module(emu *e, ptx_module *m)
{
    memset(e, 0, sizeof *e);
    e->m = m;
    e->d = sim_device_new();
    e->p = sim_program_new(e->d, m, e->err, sizeof e->err);
    if (!e->p)
        fail_msg("sim_program_new: %s", e->err);
}

/* Open testdata/<rel>. */
static inline void emu_open(emu *e, const char *rel) { emu_open_module(e, ptx_test_load(rel)); }

static inline void emu_close(emu *e)
{
    sim_program_free(e->p);
    sim_device_free(e->d);
    ptx_module_free(e->m);
    memset(e, 0, sizeof *e);
}

/* A device buffer holding n bytes of data (zeros when data is NULL). */
static inline uint64_t emu_buf(emu *e, const void *data, size_t n)
{
    uint64_t a;
    if (sim_malloc(e->d, n, "test buffer", &a, e->err, sizeof e->err) != 0)
        fail_msg("sim_malloc: %s", e->err);
    if (data && sim_memcpy_to_device(e->d, a, data, n, e->err, sizeof e->err) != 0)
        fail_msg("copy in: %s", e->err);
    return a;
}

static inline void emu_read(emu *e, void *dst, uint64_t addr, size_t n)
{
    if (sim_memcpy_from_device(e->d, dst, addr, n, e->err, sizeof e->err) != 0)
        fail_msg("copy out: %s", e->err);
}

/* sim_launch, or with SIMTLAB_TEST_TIMING=PRESET in the environment the
 * same launch on the timing model with that preset's GPU (-simtlab_simt
 * its for independent scheduling, else the divergence mechanism
 * SIMTLAB_TEST_TIMING_SIMT when that is set, with the option assignment
 * assignments SIMTLAB_TEST_TIMING_SET, separated by spaces, when that is set), simulated on
 * SIMTLAB_TEST_TIMING_THREADS host threads when that is set: the emulator's tests, run again that
 * way, check that the timing path gives the emulator's results and
 * errors. Launches the model refuses (cooperative, clusters) stay on
 * the emulator. */
static inline int emu_launch(emu *e, const char *k, const sim_launch_config *cfg, const uint8_t *buf, uint32_t bytes)
{
    const char *preset = getenv("SIMTLAB_TEST_TIMING");
    if (!preset || !*preset)
        return sim_launch(e->d, e->p, k, cfg, buf, bytes, &e->stats, e->err, sizeof e->err);
    tm_config tc;
    const char *mech = getenv("SIMTLAB_TEST_TIMING_SIMT");
    char simt[80];
    snprintf(simt, sizeof simt, "-simtlab_simt=%s", cfg->independent_scheduling ? "its" : mech && *mech ? mech : "pdom");
    const char *set = getenv("SIMTLAB_TEST_TIMING_SET");
    if (tm_config_preset(&tc, preset, e->err, sizeof e->err) != 0 || tm_config_set(&tc, simt, NULL, e->err, sizeof e->err) != 0)
        fail_msg("SIMTLAB_TEST_TIMING=%s: %s", preset, e->err);
    for (const char *p = set; p && *p;) { /* assignments separated by spaces */
        char one[128];
        size_t n = strcspn(p, " ");
        snprintf(one, sizeof one, "%.*s", (int)n, p);
        if (n && tm_config_set(&tc, one, NULL, e->err, sizeof e->err) != 0)
            fail_msg("SIMTLAB_TEST_TIMING_SET=%s: %s", set, e->err);
        p += n + (p[n] == ' ');
    }
    tm_gpu *gpu = tm_gpu_new(&tc, e->err, sizeof e->err);
    if (!gpu)
        fail_msg("SIMTLAB_TEST_TIMING=%s: %s", preset, e->err);
    const char *threads = getenv("SIMTLAB_TEST_TIMING_THREADS");
    if (threads && *threads)
        tm_gpu_set_threads(gpu, (uint32_t)strtoul(threads, NULL, 10));
    int rc = tm_gpu_launch(gpu, e->d, e->p, k, cfg, buf, bytes, &e->stats, e->err, sizeof e->err);
    tm_gpu_free(gpu);
    if (rc != 0 && e->stats.error == SIM_ERR_UNSUPPORTED && strstr(e->err, "not supported by the timing model"))
        return sim_launch(e->d, e->p, k, cfg, buf, bytes, &e->stats, e->err, sizeof e->err);
    return rc;
}

/* Block of the instruction a label marks. */
static inline uint32_t label_block(const ptx_module *m, const ptx_function *f, const char *name)
{
    for (uint32_t l = 0; l < f->nlabels; l++)
        if (strcmp(ptx_str(m, f->labels[l].name), name) == 0)
            return f->instr_block[f->labels[l].instr];
    fail_msg("no label %s", name);
    return 0;
}

/* Launch kernel k; args[i] points to the value of parameter i (as many
 * bytes as the parameter has). Returns sim_launch's result; the error is
 * in e->err. */
static inline int emu_try(emu *e, const char *k, sim_launch_config cfg, const void *const *args)
{
    uint32_t n, bytes;
    const sim_param_info *pi = sim_kernel_params(e->p, k, &n, &bytes, e->err, sizeof e->err);
    if (!pi)
        fail_msg("%s", e->err);
    uint8_t *buf = calloc(bytes + 1, 1);
    for (uint32_t i = 0; i < n; i++)
        memcpy(buf + pi[i].offset, args[i], pi[i].size);
    int rc = emu_launch(e, k, &cfg, buf, bytes);
    free(buf);
    return rc;
}

/* Launch that must succeed. */
static inline void emu_run(emu *e, const char *k, sim_launch_config cfg, const void *const *args)
{
    if (emu_try(e, k, cfg, args) != 0)
        fail_msg("launch of %s failed: %s", k, e->err);
}

/* A launch configuration. */
static inline sim_launch_config emu_cfg(uint32_t gx, uint32_t gy, uint32_t bx, uint32_t by)
{
    sim_launch_config c = {.grid = {gx, gy, 1}, .block = {bx, by, 1}, .host_threads = 1};
    return c;
}

/* Where ptxas is on PATH: it must accept PTX `text` for arch (or, !valid,
 * reject it). */
static inline void emu_test_assemble(const char *text, const char *arch, bool valid)
{
    char *ptxas = ptx_test_find_ptxas();
    if (!ptxas)
        return;
    char tmp[] = "/tmp/simtlab-emu-XXXXXX.ptx";
    int fd = mkstemps(tmp, 4);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    int rc = ptx_test_run_ptxas(ptxas, arch, tmp, false, !valid);
    unlink(tmp);
    free(ptxas);
    if ((rc == 0) != valid)
        fail_msg("ptxas %s:\n%s", valid ? "rejects" : "accepts", text);
}

/* xorshift64 for test inputs. */
static inline uint64_t emu_rand(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

#endif
