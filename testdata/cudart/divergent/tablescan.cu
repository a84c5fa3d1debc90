// tablescan.cu — full scans of a table stored by columns, as a database
// runs a query without an index: each row is tested against the query's
// predicate, and the rows selected are written out densely (compaction).
//
//   shipments: a predicate on a date range, a discount range and a
//     quantity (after TPC-H's query 6); the selected rows' ids and
//     revenues are compacted warp by warp (a ballot, one atomic per warp
//     for the warp's place, each lane's rank among the lanes selected).
//   notes: region IN (1, 3, 6) AND comment LIKE '%urgent%': the comment
//     (a fixed-width text column) is searched only for the rows whose
//     region qualifies, and the search stops at the first occurrence;
//     the ids selected are compacted block by block (a prefix sum in
//     shared memory gives each row its place inside the block, one atomic
//     the block's place in the output).
//
// Divergence: the short-circuit predicates (a row leaves at the first
// test it fails, so each test runs on fewer lanes), the substring search
// with a per-row trip count and early exit, and the writes of the
// selected rows only.
// Default size: 32768 rows (argv[1] = n scales the rows by n). The order
// of the output depends on the order of the atomics, so the outputs are
// sorted by row id before the exact comparison with the CPU's scan.
#include "../check.h"
#include "divergent.h"

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#define BLOCK 128
#define COMMENT 24

struct table {
    int rows;
    const int *ship_date;      // days since the start of the data
    const int *discount;       // percent
    const int *quantity;
    const int *price;          // cents
    const int *region;
    const char *comment;       // COMMENT characters a row, 0-padded
};

// The shipments query on row r.
__host__ __device__ inline bool shipment_selected(const table &t, int r)
{
    return t.ship_date[r] >= 365 && t.ship_date[r] < 730 && t.discount[r] >= 5 && t.discount[r] <= 7 &&
           t.quantity[r] < 24;
}

// Whether the comment of row r contains word (of len characters).
__host__ __device__ inline bool comment_has(const table &t, int r, const char *word, int len)
{
    const char *c = t.comment + (size_t)r * COMMENT;
    for (int i = 0; i + len <= COMMENT && c[i]; i++) {
        int j = 0;
        while (j < len && c[i + j] == word[j])
            j++;
        if (j == len)
            return true;
    }
    return false;
}

// The notes query on row r.
__host__ __device__ inline bool note_selected(const table &t, int r)
{
    int g = t.region[r];
    return (g == 1 || g == 3 || g == 6) && comment_has(t, r, "urgent", 6);
}

// Shipments: ids and revenues (price * discount / 100) of the rows
// selected, compacted per warp; *count the rows, *total the revenue.
__global__ void scan_shipments(table t, int *ids, long long *revenue, int *count, unsigned long long *total)
{
    int lane = threadIdx.x % 32;
    int stride = gridDim.x * blockDim.x;
    // every lane of a warp takes the same number of turns, for the ballots
    for (int base = blockIdx.x * blockDim.x; base < t.rows; base += stride) {
        int r = base + threadIdx.x;
        bool keep = r < t.rows && shipment_selected(t, r);
        unsigned mask = __ballot_sync(0xffffffffu, keep);
        int first = 0;
        if (lane == 0 && mask)
            first = atomicAdd(count, __popc(mask));
        first = __shfl_sync(0xffffffffu, first, 0);
        if (keep) {
            int at = first + __popc(mask & ((1u << lane) - 1));
            long long money = (long long)t.price[r] * t.discount[r] / 100;
            ids[at] = r;
            revenue[at] = money;
            atomicAdd(total, (unsigned long long)money);
        }
    }
}

// Notes: the ids of the rows selected, compacted per block; *count the rows.
__global__ void scan_notes(table t, int *ids, int *count)
{
    __shared__ int rank[BLOCK];
    __shared__ int first;
    int r = blockIdx.x * BLOCK + threadIdx.x;
    int keep = r < t.rows && note_selected(t, r);
    // inclusive prefix sum of keep over the block (Hillis-Steele)
    rank[threadIdx.x] = keep;
    __syncthreads();
    for (int d = 1; d < BLOCK; d *= 2) {
        int add = threadIdx.x >= d ? rank[threadIdx.x - d] : 0;
        __syncthreads();
        rank[threadIdx.x] += add;
        __syncthreads();
    }
    if (threadIdx.x == BLOCK - 1)
        first = rank[BLOCK - 1] ? atomicAdd(count, rank[BLOCK - 1]) : 0;
    __syncthreads();
    if (keep)
        ids[first + rank[threadIdx.x] - 1] = r;
}

int main(int argc, char **argv)
{
    int scale = size_scale(argc, argv, 1024);
    const int rows = 32768 * scale;
    std::vector<int> ship_date(rows), discount(rows), quantity(rows), price(rows), region(rows);
    std::vector<char> comment((size_t)rows * COMMENT, 0);
    const char *words[] = {"ok", "late", "urgent", "urge", "nt", "fragile", "returned", "gift", "ur", "hold"};
    uint64_t rng = 0x7AB1E5CAull;
    for (int r = 0; r < rows; r++) {
        ship_date[r] = (int)rng_below(&rng, 2557);
        discount[r] = (int)rng_below(&rng, 11);
        quantity[r] = 1 + (int)rng_below(&rng, 50);
        price[r] = 100 + (int)rng_below(&rng, 100000);
        region[r] = (int)rng_below(&rng, 8);
        // a few words separated by spaces, as long as they fit
        char *c = &comment[(size_t)r * COMMENT];
        int used = 0, nwords = (int)rng_below(&rng, 5);
        for (int w = 0; w < nwords; w++) {
            const char *word = words[rng_below(&rng, 10)];
            int len = (int)strlen(word);
            if (used + len + 1 > COMMENT)
                break;
            memcpy(c + used, word, len);
            c[used + len] = ' ';
            used += len + 1;
        }
    }

    int *d_cols[5], *d_ids1, *d_ids2, *d_counts;
    long long *d_revenue;
    unsigned long long *d_total;
    char *d_comment;
    std::vector<int> *cols[5] = {&ship_date, &discount, &quantity, &price, &region};
    for (int k = 0; k < 5; k++) {
        CK(cudaMalloc(&d_cols[k], rows * sizeof(int)));
        CK(cudaMemcpy(d_cols[k], cols[k]->data(), rows * sizeof(int), cudaMemcpyHostToDevice));
    }
    CK(cudaMalloc(&d_comment, comment.size()));
    CK(cudaMemcpy(d_comment, comment.data(), comment.size(), cudaMemcpyHostToDevice));
    CK(cudaMalloc(&d_ids1, rows * sizeof(int)));
    CK(cudaMalloc(&d_ids2, rows * sizeof(int)));
    CK(cudaMalloc(&d_revenue, rows * sizeof(long long)));
    CK(cudaMalloc(&d_counts, 2 * sizeof(int)));
    CK(cudaMalloc(&d_total, sizeof(unsigned long long)));
    CK(cudaMemset(d_counts, 0, 2 * sizeof(int)));
    CK(cudaMemset(d_total, 0, sizeof(unsigned long long)));
    table t = {rows, d_cols[0], d_cols[1], d_cols[2], d_cols[3], d_cols[4], d_comment};
    // a grid of a quarter of the rows: each thread scans four
    scan_shipments<<<(rows / 4 + BLOCK - 1) / BLOCK, BLOCK>>>(t, d_ids1, d_revenue, d_counts, d_total);
    CK(cudaGetLastError());
    scan_notes<<<(rows + BLOCK - 1) / BLOCK, BLOCK>>>(t, d_ids2, d_counts + 1);
    CK(cudaGetLastError());
    int counts[2];
    unsigned long long total;
    CK(cudaMemcpy(counts, d_counts, sizeof counts, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&total, d_total, sizeof total, cudaMemcpyDeviceToHost));
    std::vector<int> ids1(counts[0]), ids2(counts[1]);
    std::vector<long long> revenue(counts[0]);
    CK(cudaMemcpy(ids1.data(), d_ids1, counts[0] * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(revenue.data(), d_revenue, counts[0] * sizeof(long long), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(ids2.data(), d_ids2, counts[1] * sizeof(int), cudaMemcpyDeviceToHost));

    // CPU reference: the same predicates, row by row, in row order
    table h = {rows, ship_date.data(), discount.data(), quantity.data(), price.data(), region.data(), comment.data()};
    std::vector<std::pair<int, long long>> want1, got1;
    std::vector<int> want2;
    unsigned long long want_total = 0;
    for (int r = 0; r < rows; r++) {
        if (shipment_selected(h, r)) {
            long long money = (long long)price[r] * discount[r] / 100;
            want1.push_back({r, money});
            want_total += money;
        }
        if (note_selected(h, r))
            want2.push_back(r);
    }
    for (int i = 0; i < counts[0]; i++)
        got1.push_back({ids1[i], revenue[i]});
    std::sort(got1.begin(), got1.end());
    std::sort(ids2.begin(), ids2.end());
    EXPECT(got1 == want1);
    EXPECT(ids2 == want2);
    EXPECT(total == want_total);
    printf("tablescan: %d rows; shipments %d rows, revenue %llu; notes %d rows\n", rows, counts[0], total, counts[1]);
    for (int k = 0; k < 5; k++)
        CK(cudaFree(d_cols[k]));
    CK(cudaFree(d_comment));
    CK(cudaFree(d_ids1));
    CK(cudaFree(d_ids2));
    CK(cudaFree(d_revenue));
    CK(cudaFree(d_counts));
    CK(cudaFree(d_total));
    return finish("tablescan");
}
