// check.h — helpers shared by the CUDA test programs run under simtlab exec.
// Every program checks its own results on the host against a CPU
// computation or the CUDA documentation, prints what went wrong, and exits
// 1 on a failure; "PASS <name>" and exit 0 otherwise.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

static int check_failures = 0;

// A runtime call that must succeed.
#define CK(call)                                                                                  \
    do {                                                                                          \
        cudaError_t e_ = (call);                                                                  \
        if (e_ != cudaSuccess) {                                                                  \
            fprintf(stderr, "%s:%d: %s returned %s\n", __FILE__, __LINE__, #call, cudaGetErrorName(e_)); \
            exit(1);                                                                              \
        }                                                                                         \
    } while (0)

// A runtime call that must return a given error.
#define CK_IS(call, want)                                                                         \
    do {                                                                                          \
        cudaError_t e_ = (call);                                                                  \
        if (e_ != (want)) {                                                                       \
            fprintf(stderr, "%s:%d: %s returned %s, expected %s\n", __FILE__, __LINE__, #call,   \
                    cudaGetErrorName(e_), cudaGetErrorName(want));                                \
            check_failures++;                                                                     \
        }                                                                                         \
    } while (0)

// A condition on results.
#define EXPECT(cond)                                                                              \
    do {                                                                                          \
        if (!(cond)) {                                                                            \
            fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond);                   \
            check_failures++;                                                                     \
        }                                                                                         \
    } while (0)

// Exit status and verdict.
static int finish(const char *name)
{
    if (check_failures) {
        fprintf(stderr, "FAIL %s: %d checks failed\n", name, check_failures);
        return 1;
    }
    printf("PASS %s\n", name);
    return 0;
}
