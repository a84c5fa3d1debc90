/* exec_cmd.c — `simtlab exec`: run an unmodified CUDA program on the
 * emulator by putting simtlab's libcudart.so.13 first on its library path.
 *
 * The program replaces this process (execvp), so its output, exit status
 * and signals are its own. Options reach the runtime through environment
 * variables: SIMTLAB_THREADS, SIMTLAB_ITS, SIMTLAB_STATS, SIMTLAB_GPU,
 * SIMTLAB_LOCALITY, SIMTLAB_MEMCHECK, SIMTLAB_PTX_EXT,
 * SIMTLAB_MAX_INSTRUCTIONS (tools/cudart/watchdog.h),
 * and for the timing model SIMTLAB_SIM, SIMTLAB_SIM_SET and SIMTLAB_SIM_STATS
 * (tools/cudart/backend.h), which the runtime checks when it starts. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parser/parser.h"
#include "tools/cudart/watchdog.h"
#include "tools/exec_cmd.h"

enum { EXIT_OK = 0, EXIT_USER = 1, EXIT_CANNOT_RUN = 127 };

/* The help of --max-instructions (SIMTLAB_MAX_INSTRUCTIONS). */
static void exec_budget_usage(FILE *out)
{
    fprintf(out, "  --max-instructions N  stop a kernel launch after N warp instructions (an endless\n"
            "                 loop): the launch fails with cudaErrorLaunchTimeout (702) and a watchdog\n"
            "                 message on stderr. Default %llu (the emulator runs 7 M to 45 M\n"
            "                 warp instructions a second: a few minutes); 0 = no limit. Also\n"
            "                 SIMTLAB_MAX_INSTRUCTIONS=N in the environment\n",
            SIMTLAB_DEFAULT_MAX_INSTRUCTIONS);
}

static void exec_usage(FILE *out)
{
    fputs("usage: simtlab exec [--its] [--threads N] [--stats] [--gpu NAME] [--locality DIR]\n"
          "                    [--sim PRESET|FILE [--sim-set -OPTION=VALUE]... [--sim-stats]]\n"
          "                    [--memcheck] [--max-instructions N] [--ptx-ext simtlab]\n"
          "                    -- PROGRAM [ARGS...]\n"
          "Runs a CUDA program built with nvcc -cudart shared (and PTX embedded:\n"
          "-gencode arch=compute_XX,code=compute_XX) on simtlab's emulator, through\n"
          "simtlab's libcudart.so.13. Its output and exit status are its own.\n"
          "  --its          independent thread scheduling (a program counter per thread)\n"
          "  --threads N    run each launch's blocks on N host threads (also SIMTLAB_THREADS):\n"
          "                 data-race-free programs get the results of one thread (blocks\n"
          "                 wait at their first global atomic, strong global access, gpu\n"
          "                 fence or malloc for the blocks before them); plain loads and\n"
          "                 stores racing between blocks may differ. 1 (the default) is\n"
          "                 deterministic for every program\n"
          "  --stats        print per-kernel instruction counts and times at exit (stderr)\n"
          "  --gpu NAME     the virtual device's limits: h100 (default), a100, l40s, b200\n"
          "  --locality DIR write the thread-block locality graphs of every kernel launch,\n"
          "                 static and profiled, to DIR/NNNN-KERNEL.json (see simtlab locality)\n"
          "  --sim PRESET|FILE  run the kernels on the cycle-level timing model with a preset\n"
          "                 (QV100, TITANV, ...: simtlab sim --help lists them) or a\n"
          "                 gpgpusim.config file (also SIMTLAB_SIM); results are the\n"
          "                 emulator's, CUDA events measure simulated time (launch latency +\n"
          "                 core cycles at the core clock), and the device's SMs, clocks,\n"
          "                 caches and limits are the configuration's. A configuration the\n"
          "                 model refuses makes every CUDA call fail with\n"
          "                 cudaErrorInitializationError, with the reason on stderr\n"
          "  --sim-set -OPTION=VALUE  override one option of the configuration (repeatable;\n"
          "                 SIMTLAB_SIM_SET holds them separated by ';')\n"
          "  --sim-stats    GPGPU-Sim's statistics lines on stderr after each kernel\n"
          "                 (SIMTLAB_SIM_STATS=1)\n"
          "  --memcheck     every global access outside a live allocation is an error\n"
          "                 (cudaErrorIllegalAddress), as under compute-sanitizer; without it\n"
          "                 an access outside the allocations but inside a mapped 2 MiB region\n"
          "                 (where a GPU performs it) proceeds with a warning, once per PTX\n"
          "                 line (the environment variable SIMTLAB_MEMCHECK=1 does the same)\n"
          "  --ptx-ext simtlab  the program's PTX may use simtlab's own extensions of PTX\n"
          "                 (simtlab.cond_acc, simtlab.tree_traverse, ld's .rowhint: inline\n"
          "                 PTX of a program built for a virtual architecture only); sets\n"
          "                 SIMTLAB_PTX_EXT=simtlab\n",
          out);
    exec_budget_usage(out);
}

/* Directory holding simtlab's libcudart.so.13: $SIMTLAB_CUDART_DIR, the
 * build tree next to this executable, or the installed library directory.
 * NULL when none has it. */
static char *find_cudart_dir(void)
{
    char self[PATH_MAX], cand[PATH_MAX + 64];
    const char *env = getenv("SIMTLAB_CUDART_DIR");
    if (env && *env) {
        snprintf(cand, sizeof cand, "%s/libcudart.so.13", env);
        return access(cand, R_OK) == 0 ? strdup(env) : NULL;
    }
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = 0;
        char *slash = strrchr(self, '/');
        if (slash) {
            *slash = 0;
            snprintf(cand, sizeof cand, "%s/cudart/libcudart.so.13", self);
            if (access(cand, R_OK) == 0) {
                cand[strlen(cand) - strlen("/libcudart.so.13")] = 0;
                return realpath(cand, NULL);
            }
        }
    }
    snprintf(cand, sizeof cand, "%s/libcudart.so.13", SIMTLAB_CUDART_INSTALL_DIR);
    return access(cand, R_OK) == 0 ? strdup(SIMTLAB_CUDART_INSTALL_DIR) : NULL;
}

/* The file execvp would run for name (searching PATH when it has no
 * slash), or NULL. */
static char *find_program(const char *name)
{
    if (strchr(name, '/'))
        return access(name, X_OK) == 0 ? strdup(name) : NULL;
    const char *path = getenv("PATH");
    if (!path)
        return NULL;
    char *dirs = strdup(path), *save = NULL, buf[PATH_MAX];
    for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        snprintf(buf, sizeof buf, "%s/%s", *d ? d : ".", name);
        if (access(buf, X_OK) == 0) {
            free(dirs);
            return strdup(buf);
        }
    }
    free(dirs);
    return NULL;
}

/* Why the ELF program at path cannot use simtlab's runtime, or NULL when
 * it can (or is no ELF file, e.g. a script that starts one): it must load
 * libcudart.so.13 dynamically. */
static const char *check_program(const char *path, char *why, size_t n)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0 || elf_version(EV_CURRENT) == EV_NONE) {
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    Elf *e = elf_begin(fd, ELF_C_READ, NULL);
    bool elf = e && elf_kind(e) == ELF_K_ELF, needs13 = false, fatbin = false;
    char other[64] = "";
    size_t shstrndx = 0;
    if (elf && elf_getshdrstrndx(e, &shstrndx) == 0) {
        for (Elf_Scn *s = elf_nextscn(e, NULL); s; s = elf_nextscn(e, s)) {
            GElf_Shdr sh;
            if (!gelf_getshdr(s, &sh))
                continue;
            const char *name = elf_strptr(e, shstrndx, sh.sh_name);
            if (name && strcmp(name, ".nv_fatbin") == 0)
                fatbin = true;
            if (sh.sh_type != SHT_DYNAMIC)
                continue;
            Elf_Data *d = elf_getdata(s, NULL);
            for (size_t i = 0; d && sh.sh_entsize && i < sh.sh_size / sh.sh_entsize; i++) {
                GElf_Dyn dyn;
                if (!gelf_getdyn(d, (int)i, &dyn) || dyn.d_tag != DT_NEEDED)
                    continue;
                const char *lib = elf_strptr(e, sh.sh_link, dyn.d_un.d_val);
                if (lib && strcmp(lib, "libcudart.so.13") == 0)
                    needs13 = true;
                else if (lib && strncmp(lib, "libcudart.so", 12) == 0)
                    snprintf(other, sizeof other, "%s", lib);
            }
        }
    }
    if (e)
        elf_end(e);
    close(fd);
    if (!elf || needs13)
        return NULL;
    if (*other)
        snprintf(why, n, "%s uses %s; simtlab provides the CUDA 13 runtime (libcudart.so.13): rebuild it with "
                 "nvcc 13 and -cudart shared", path, other);
    else if (fatbin)
        snprintf(why, n, "%s links the CUDA runtime statically (nvcc's default), so simtlab cannot stand in "
                 "for it: rebuild it with nvcc -cudart shared", path);
    else
        return NULL;
    return why;
}

/* Prepend dir to the colon-separated list in environment variable name. */
static void prepend_env(const char *name, const char *dir)
{
    const char *old = getenv(name);
    size_t len = strlen(dir) + (old ? strlen(old) + 1 : 0) + 1;
    char *v = malloc(len);
    snprintf(v, len, "%s%s%s", dir, old && *old ? ":" : "", old && *old ? old : "");
    setenv(name, v, 1);
    free(v);
}

/* Add one --sim-set assignment to SIMTLAB_SIM_SET (';'-separated); false,
 * with a message, for one that cannot be passed that way. */
static bool append_sim_set(const char *assignment)
{
    if (assignment[0] != '-' || strchr(assignment, ';')) {
        fprintf(stderr, "simtlab exec: --sim-set needs one -OPTION=VALUE without ';', not '%s'\n", assignment);
        return false;
    }
    const char *old = getenv("SIMTLAB_SIM_SET");
    size_t len = strlen(assignment) + (old ? strlen(old) + 1 : 0) + 1;
    char *v = malloc(len);
    snprintf(v, len, "%s%s%s", old && *old ? old : "", old && *old ? ";" : "", assignment);
    setenv("SIMTLAB_SIM_SET", v, 1);
    free(v);
    return true;
}

int simtlab_exec(int argc, char **argv)
{
    int i = 0;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            exec_usage(stdout);
            return EXIT_OK;
        } else if (strcmp(a, "--its") == 0) {
            setenv("SIMTLAB_ITS", "1", 1);
        } else if (strcmp(a, "--stats") == 0) {
            setenv("SIMTLAB_STATS", "1", 1);
        } else if (strcmp(a, "--max-instructions") == 0 && i + 1 < argc) {
            uint64_t budget;
            if (!simtlab_parse_budget(argv[++i], &budget)) {
                fprintf(stderr, "simtlab exec: --max-instructions needs a number of warp instructions (0: no "
                        "limit), not '%s'\n", argv[i]);
                return EXIT_USER;
            }
            setenv(SIMTLAB_MAX_INSTRUCTIONS_ENV, argv[i], 1);
        } else if (strcmp(a, "--sim-stats") == 0) {
            setenv("SIMTLAB_SIM_STATS", "1", 1);
        } else if (strcmp(a, "--sim-set") == 0 && i + 1 < argc) {
            if (!append_sim_set(argv[++i]))
                return EXIT_USER;
        } else if (strcmp(a, "--memcheck") == 0) {
            setenv("SIMTLAB_MEMCHECK", "1", 1);
        } else if (strcmp(a, "--ptx-ext") == 0 && i + 1 < argc) {
            unsigned ext = 0;
            if (!ptx_ext_parse(argv[++i], &ext)) {
                fprintf(stderr, "simtlab exec: unknown --ptx-ext '%s' (the one extension is 'simtlab')\n", argv[i]);
                return EXIT_USER;
            }
            setenv("SIMTLAB_PTX_EXT", argv[i], 1);
        } else if (strcmp(a, "--locality") == 0 && i + 1 < argc) {
            const char *dir = argv[++i];
            struct stat sb;
            if (mkdir(dir, 0777) != 0 && (errno != EEXIST || stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))) {
                fprintf(stderr, "simtlab exec: --locality %s: cannot create the directory: %s\n", dir,
                        strerror(errno == EEXIST ? ENOTDIR : errno));
                return EXIT_USER;
            }
            setenv("SIMTLAB_LOCALITY", dir, 1);
        } else if ((strcmp(a, "--threads") == 0 || strcmp(a, "--gpu") == 0 || strcmp(a, "--sim") == 0) &&
                   i + 1 < argc) {
            const char *v = argv[++i];
            if (strcmp(a, "--sim") == 0) {
                setenv("SIMTLAB_SIM", v, 1);
                continue;
            }
            char *end;
            if (strcmp(a, "--threads") == 0 && (strtoul(v, &end, 10) == 0 || *end || strlen(v) > 4)) {
                fprintf(stderr, "simtlab exec: --threads needs a number from 1 to 9999, not '%s'\n", v);
                return EXIT_USER;
            }
            setenv(strcmp(a, "--threads") == 0 ? "SIMTLAB_THREADS" : "SIMTLAB_GPU", v, 1);
        } else if (a[0] == '-') {
            fprintf(stderr, "simtlab exec: unknown option '%s' (or a missing value)\n\n", a);
            exec_usage(stderr);
            return EXIT_USER;
        } else {
            break; /* the program, without "--" */
        }
    }
    if (i >= argc) {
        fputs("simtlab exec: no program to run\n\n", stderr);
        exec_usage(stderr);
        return EXIT_USER;
    }
    char *dir = find_cudart_dir();
    if (!dir) {
        fputs("simtlab exec: cannot find simtlab's libcudart.so.13 (set SIMTLAB_CUDART_DIR to its directory)\n",
              stderr);
        return EXIT_USER;
    }
    char *prog = find_program(argv[i]), why[PATH_MAX + 256];
    if (!prog) {
        fprintf(stderr, "simtlab exec: cannot run '%s': no such executable\n", argv[i]);
        free(dir);
        return EXIT_CANNOT_RUN;
    }
    if (check_program(prog, why, sizeof why)) {
        fprintf(stderr, "simtlab exec: %s\n", why);
        free(dir);
        free(prog);
        return EXIT_USER;
    }
    free(prog);
    prepend_env("LD_LIBRARY_PATH", dir);
    free(dir);
    execvp(argv[i], argv + i);
    fprintf(stderr, "simtlab exec: cannot run '%s': %s\n", argv[i], strerror(errno));
    return EXIT_CANNOT_RUN;
}
