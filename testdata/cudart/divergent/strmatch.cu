// strmatch.cu — many patterns searched in one text (exact matching, as in
// signature scanning or read mapping): for every text position, the
// number of patterns occurring there; for every pattern, its number of
// occurrences and its first one.
//
// One thread per text position compares each pattern (held in shared
// memory) character by character and stops at the first mismatch. The
// text is drawn from a four-letter alphabet with copies of the patterns
// planted in it, some with their tail mutated, so comparisons end after
// one character at most positions and run long at a few.
//
// Divergence: the per-thread early exit of every comparison (trip counts
// from 1 to the pattern's length), patterns of different lengths running
// past the end of the text, and the atomics taken only on a match.
// Default size: 16384 characters, 32 patterns of 4 to 20 characters
// (argv[1] = n scales the text by n); integer results, checked exactly.
#include "../check.h"
#include "divergent.h"

#include <cstring>
#include <vector>

#define BLOCK 128
#define MAX_PATTERNS 32
#define MAX_PATTERN_CHARS 1024

// hits[p] = patterns occurring at p; count[k] and first[k] per pattern k
// (first[k] starts at the text's length: no occurrence).
__global__ void match(const char *text, int length, const char *patterns, const int *offsets, int npatterns,
                      int *hits, int *count, int *first)
{
    __shared__ char pat[MAX_PATTERN_CHARS];
    __shared__ int off[MAX_PATTERNS + 1];
    for (int i = threadIdx.x; i < offsets[npatterns]; i += blockDim.x)
        pat[i] = patterns[i];
    for (int i = threadIdx.x; i <= npatterns; i += blockDim.x)
        off[i] = offsets[i];
    __syncthreads();
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= length)
        return;
    int found = 0;
    for (int k = 0; k < npatterns; k++) {
        int len = off[k + 1] - off[k];
        if (p + len > length)
            continue;
        int j = 0;
        while (j < len && text[p + j] == pat[off[k] + j])
            j++;
        if (j == len) {
            found++;
            atomicAdd(&count[k], 1);
            atomicMin(&first[k], p);
        }
    }
    hits[p] = found;
}

int main(int argc, char **argv)
{
    int scale = size_scale(argc, argv, 1024);
    const int length = 16384 * scale, npatterns = MAX_PATTERNS;
    const char alphabet[] = "ACGT";
    uint64_t rng = 0x57A7C4ull;

    // patterns of 4..20 letters, one after another
    std::vector<char> patterns;
    std::vector<int> offsets(1, 0);
    for (int k = 0; k < npatterns; k++) {
        int len = 4 + (int)rng_below(&rng, 17);
        for (int j = 0; j < len; j++)
            patterns.push_back(alphabet[rng_below(&rng, 4)]);
        offsets.push_back((int)patterns.size());
    }
    // random text with planted copies: 1 in 8 of them mutated in their
    // last half, so matching runs long and then fails
    std::vector<char> text(length);
    for (char &c : text)
        c = alphabet[rng_below(&rng, 4)];
    for (int planted = 0; planted < length / 64; planted++) {
        int k = (int)rng_below(&rng, npatterns), len = offsets[k + 1] - offsets[k];
        int at = (int)rng_below(&rng, length - len);
        for (int j = 0; j < len; j++)
            text[at + j] = patterns[offsets[k] + j];
        if (rng_below(&rng, 8) == 0) {
            int j = len / 2 + (int)rng_below(&rng, len - len / 2);
            text[at + j] = alphabet[(strchr(alphabet, text[at + j]) - alphabet + 1) % 4];
        }
    }

    char *d_text, *d_patterns;
    int *d_offsets, *d_hits, *d_count, *d_first;
    CK(cudaMalloc(&d_text, length));
    CK(cudaMalloc(&d_patterns, patterns.size()));
    CK(cudaMalloc(&d_offsets, offsets.size() * sizeof(int)));
    CK(cudaMalloc(&d_hits, length * sizeof(int)));
    CK(cudaMalloc(&d_count, npatterns * sizeof(int)));
    CK(cudaMalloc(&d_first, npatterns * sizeof(int)));
    CK(cudaMemcpy(d_text, text.data(), length, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_patterns, patterns.data(), patterns.size(), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_offsets, offsets.data(), offsets.size() * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemset(d_count, 0, npatterns * sizeof(int)));
    std::vector<int> none(npatterns, length);
    CK(cudaMemcpy(d_first, none.data(), npatterns * sizeof(int), cudaMemcpyHostToDevice));
    match<<<(length + BLOCK - 1) / BLOCK, BLOCK>>>(d_text, length, d_patterns, d_offsets, npatterns, d_hits,
                                                   d_count, d_first);
    CK(cudaGetLastError());
    std::vector<int> hits(length), count(npatterns), first(npatterns);
    CK(cudaMemcpy(hits.data(), d_hits, length * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(count.data(), d_count, npatterns * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(first.data(), d_first, npatterns * sizeof(int), cudaMemcpyDeviceToHost));

    // CPU reference: the naive search, pattern by pattern
    std::vector<int> want_hits(length, 0), want_count(npatterns, 0), want_first(npatterns, length);
    int total = 0;
    for (int k = 0; k < npatterns; k++) {
        int len = offsets[k + 1] - offsets[k];
        for (int p = 0; p + len <= length; p++) {
            int j = 0;
            while (j < len && text[p + j] == patterns[offsets[k] + j])
                j++;
            if (j == len) {
                want_hits[p]++;
                want_count[k]++;
                if (want_first[k] == length)
                    want_first[k] = p;
                total++;
            }
        }
    }
    int wrong = 0;
    for (int p = 0; p < length; p++)
        if (hits[p] != want_hits[p] && wrong++ < 5)
            fprintf(stderr, "position %d: %d patterns, expected %d\n", p, hits[p], want_hits[p]);
    for (int k = 0; k < npatterns; k++)
        if ((count[k] != want_count[k] || first[k] != want_first[k]) && wrong++ < 10)
            fprintf(stderr, "pattern %d: %d occurrences from %d, expected %d from %d\n", k, count[k], first[k],
                    want_count[k], want_first[k]);
    EXPECT(wrong == 0);
    printf("strmatch: %d characters, %d patterns, %d occurrences\n", length, npatterns, total);
    CK(cudaFree(d_text));
    CK(cudaFree(d_patterns));
    CK(cudaFree(d_offsets));
    CK(cudaFree(d_hits));
    CK(cudaFree(d_count));
    CK(cudaFree(d_first));
    return finish("strmatch");
}
