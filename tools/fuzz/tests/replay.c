/* replay.c — run a fuzz harness's LLVMFuzzerTestOneInput over files
 * without libFuzzer, so that every build replays the seed and regression
 * inputs: replay PATH... (files, or directories whose files are replayed
 * in name order). Each input runs in a child process, so that a crash,
 * abort or sanitizer report fails it without stopping the others. Exit
 * status 0 when all pass, 1 when any fails. A missing directory holds
 * nothing. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_INPUT_BYTES = 1 << 20 };

/* Replay one file in a child; 0 when the harness returned normally. */
static int replay_file(const char *path)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        perror("replay: fork");
        return -1;
    }
    if (pid == 0) {
        FILE *f = fopen(path, "rb");
        uint8_t *data = malloc(MAX_INPUT_BYTES);
        if (!f || !data) {
            fprintf(stderr, "replay: cannot read %s\n", path);
            exit(3);
        }
        size_t n = fread(data, 1, MAX_INPUT_BYTES, f);
        fclose(f);
        LLVMFuzzerTestOneInput(data, n);
        free(data);
        exit(0); /* exit, not _exit: LeakSanitizer checks at exit */
    }
    int status;
    if (waitpid(pid, &status, 0) < 0)
        return -1;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    if (WIFSIGNALED(status))
        fprintf(stderr, "replay: %s: killed by signal %d\n", path, WTERMSIG(status));
    else
        fprintf(stderr, "replay: %s: exit status %d\n", path, WEXITSTATUS(status));
    return -1;
}

/* Order directory entries by name. */
static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Replay path (a file, or the files of a directory); counts runs and
 * failures. */
static void replay_path(const char *path, unsigned *runs, unsigned *failures)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        printf("replay: %s does not exist: nothing to replay there\n", path);
        return;
    }
    if (!S_ISDIR(st.st_mode)) {
        (*runs)++;
        *failures += replay_file(path) != 0;
        return;
    }
    DIR *dir = opendir(path);
    if (!dir) {
        perror(path);
        (*failures)++;
        return;
    }
    char **names = NULL;
    size_t n = 0;
    for (struct dirent *de; (de = readdir(dir)) != NULL;) {
        if (de->d_name[0] == '.')
            continue;
        char **grown = realloc(names, (n + 1) * sizeof *names);
        if (!grown)
            break;
        names = grown;
        names[n] = malloc(strlen(path) + strlen(de->d_name) + 2);
        if (!names[n])
            break;
        sprintf(names[n++], "%s/%s", path, de->d_name);
    }
    closedir(dir);
    qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
            (*runs)++;
            *failures += replay_file(names[i]) != 0;
        }
        free(names[i]);
    }
    free(names);
}

int main(int argc, char **argv)
{
    unsigned runs = 0, failures = 0;
    for (int i = 1; i < argc; i++)
        replay_path(argv[i], &runs, &failures);
    printf("replay: %u inputs, %u failed\n", runs, failures);
    return failures ? 1 : 0;
}
