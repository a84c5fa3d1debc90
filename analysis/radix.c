/* radix.c — LSD radix sort of 64-bit keys (radix.h). */
#include "analysis/radix.h"

#include <string.h>

void ptx_radix_sort_u64(uint64_t *v, size_t n, unsigned low, uint64_t *tmp)
{
    if (n < 64) {
        for (size_t i = 1; i < n; i++) {
            uint64_t x = v[i];
            size_t j = i;
            for (; j > 0 && (v[j - 1] >> low) > (x >> low); j--)
                v[j] = v[j - 1];
            v[j] = x;
        }
        return;
    }
    uint64_t lo = v[0] >> low, hi = lo;
    for (size_t i = 1; i < n; i++) {
        uint64_t k = v[i] >> low;
        lo = k < lo ? k : lo;
        hi = k > hi ? k : hi;
    }
    uint64_t *src = v, *dst = tmp;
    for (unsigned shift = 0; shift < 64 && ((hi - lo) >> shift); shift += 8) {
        size_t count[257] = {0};
        for (size_t i = 0; i < n; i++)
            count[((((src[i] >> low) - lo) >> shift) & 0xff) + 1]++;
        for (unsigned d = 0; d < 256; d++)
            count[d + 1] += count[d];
        for (size_t i = 0; i < n; i++)
            dst[count[(((src[i] >> low) - lo) >> shift) & 0xff]++] = src[i];
        uint64_t *x = src;
        src = dst;
        dst = x;
    }
    if (src != v)
        memcpy(v, src, n * sizeof *v);
}
